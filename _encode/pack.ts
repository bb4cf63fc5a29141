// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The exported `pack`: standard MessagePack from a context of its own, with no class around it
// and none of the writer's features that options ask for (see `_encode/context.ts`), so a
// program that only packs ships neither the decoder nor the record writer.

import type { EncodeContext } from "./context.ts";
import type { ENCODER, OptionName, ResolvedOptions } from "../_core/option_table.ts";
import { contextObject } from "../_core/context_object.ts";
import { packWith } from "./encoder.ts";
import { registeredExtensions } from "../_core/registered_extensions.ts";

/** `this` for extension callbacks during the exported `pack`, as its Packr is for msgpackr's. */
const owner = { pack, encode: pack };
/** The options of the exported `pack`: `useRecords: false`. */
const defaultOptions: ResolvedOptions<typeof ENCODER> = {
  useRecords: false,
  structures: undefined,
  getStructures: undefined,
  sequential: false,
  maxSharedStructures: 0,
  useFloat32: 0,
  structuredClone: undefined,
  moreTypes: false,
  bundleStrings: false,
  maxDepth: 1000,
  saveStructures: undefined,
  shouldShareStructure: undefined,
  maxOwnStructures: 64,
  useTimestamp32: false,
  useInt64: false,
  canonical: false,
  onInvalidDate: undefined,
  encodeUndefinedAsNil: false,
  variableMapSize: false,
  coercibleKeyAsNumber: false,
  skipValues: undefined,
  writeFunction: undefined,
  useToJSON: true,
  mapAsEmptyObject: false,
  setAsEmptyObject: false,
  largeBigIntToFloat: false,
  largeBigIntToString: false,
  useBigIntExtension: false,
};

/**
 * The context of the exported `pack`: what `createEncodeContext({ useRecords: false }, owner)`
 * makes, written out so that a program that only packs ships no option table
 * (tests/default_context_test.ts compares the two).
 */
export const defaultContext: EncodeContext = contextObject(
  defaultOptions,
  {
    recordsPredicate: null,
    variableMap: false,
    fixintsTo0x7f: true,
    bigIntExtension: false,
    owner,
    extensions: registeredExtensions,
    records: null,
    features: null,
  } satisfies Omit<EncodeContext, OptionName<typeof ENCODER>>,
);

/**
 * Packs a value as standard MessagePack (objects as maps, no records), readable by any
 * MessagePack decoder; byte-identical to msgpackr's `pack`.
 *
 * @param value The value to pack.
 * @param flags Optional buffer flags, as for {@linkcode Packr.pack}.
 * @returns A new `Uint8Array` with exactly the packed bytes.
 *
 * @example Usage
 * ```ts
 * import { pack, unpack } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const bytes = pack({ greeting: "hello", list: [1, 2, 3] });
 * assert.deepEqual(unpack(bytes), { greeting: "hello", list: [1, 2, 3] });
 * ```
 */
export function pack(value: unknown, flags = 0): Uint8Array<ArrayBuffer> {
  return packWith(defaultContext, value, flags, null);
}

/**
 * Alias of {@linkcode pack} (the same function).
 *
 * @example Usage
 * ```ts
 * import { decode, encode } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * assert.equal(decode(encode("hi")), "hi");
 * ```
 */
export const encode: typeof pack = pack;
