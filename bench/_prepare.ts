// Copyright 2026 the @x/msgpackr authors. MIT license.
// A codec prepared for one payload: its pack and unpack calls, ready to time. Imports types only:
// the browser benchmark's page bundles this module.

import type * as ours from "../mod.ts";

/** A codec ready for one payload: `encode()` packs it, `decode()` unpacks its own bytes. */
export interface Prepared {
  encode(): unknown;
  decode(): unknown;
  /** Unpacks a new copy of its bytes (`bench/paired.ts --fresh-inputs`). */
  decodeCopy(): unknown;
  bytes: Uint8Array;
}

/** A prepared codec from its two functions; its bytes are `encode()`'s, copied. */
export function prepared(
  encode: () => Uint8Array,
  decode: (bytes: Uint8Array) => unknown,
): Prepared {
  const bytes = new Uint8Array(encode());
  return { encode, decode: () => decode(bytes), decodeCopy: () => decode(bytes.slice()), bytes };
}

/** The library's API as the benches use it: `mod.ts` of this tree or of another (`ab.ts`). */
export type Library = Pick<typeof ours, "pack" | "unpack" | "Packr" | "Unpackr">;

/**
 * `lib` prepared for `value`: `pack`/`unpack`, or with `records` a Packr and an Unpackr sharing
 * structures, learned by one pack first, so that later packs only reference shared structures;
 * `noEval` decodes them with the interpreted reader, as the no-eval entry does.
 */
export function prepareLibrary(
  lib: Library,
  records: boolean,
  value: unknown,
  noEval = false,
): Prepared {
  if (!records) return prepared(() => lib.pack(value), (bytes) => lib.unpack(bytes));
  const structures: string[][] = [];
  const packr = new lib.Packr({ structures });
  packr.pack(value);
  const unpackr = new lib.Unpackr({ structures, compileRecordReaders: !noEval });
  return prepared(() => packr.pack(value), (bytes) => unpackr.unpack(bytes));
}

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

/** JSON prepared for `value`, bytes to bytes: UTF-8 of `JSON.stringify`, `JSON.parse` of UTF-8. */
export function prepareJson(value: unknown): Prepared {
  return prepared(
    () => textEncoder.encode(JSON.stringify(value)),
    (bytes) => JSON.parse(textDecoder.decode(bytes)),
  );
}
