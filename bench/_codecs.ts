// Copyright 2026 the @x/msgpackr authors. MIT license.
// The codecs compared by the benchmarks, each prepared for one payload.

import * as ours from "../mod.ts";
// the no-eval build's record builders, for "ours records no-eval" (no_eval.ts installs them)
import "../_records/builder_pool.ts";
import * as msgpackr from "msgpackr";
import * as msgpack from "@msgpack/msgpack";
import { msgpackrBrowser } from "./_msgpackr_browser.ts";
import { type Prepared, prepared, prepareJson, prepareLibrary } from "./_prepare.ts";

/**
 * Whether msgpackr loaded its native addon (msgpackr-extract, which makes the strings of its
 * unpacking) in this runtime, as msgpackr itself reports it; its packing is JavaScript either way.
 */
export const msgpackrNative: boolean = msgpackr.isNativeAccelerationEnabled;

/** A codec under test. */
export interface Codec {
  name: string;
  /** Whether it can encode this payload (JSON cannot encode binary). */
  accepts(json: boolean): boolean;
  prepare(value: unknown): Prepared;
}

const msgpackEncoder = new msgpack.Encoder();
const msgpackDecoder = new msgpack.Decoder();

/** Every codec, by name. */
export const codecs: Codec[] = [
  {
    name: "ours",
    accepts: () => true,
    prepare: (value) => prepareLibrary(ours, false, value),
  },
  {
    // zero-copy output like msgpackr's: packs into a reused buffer and returns views of it
    name: "ours useBuffer",
    accepts: () => true,
    prepare: (value) => {
      const packr = new ours.Packr({ useRecords: false });
      const buffer = new Uint8Array(4 << 20);
      return prepared(() => {
        packr.useBuffer(buffer);
        return packr.pack(value);
      }, (bytes) => ours.unpack(bytes));
    },
  },
  {
    name: "msgpackr",
    accepts: () => true,
    prepare: (value) => prepared(() => msgpackr.pack(value), (bytes) => msgpackr.unpack(bytes)),
  },
  {
    name: "msgpackr pure-JS",
    accepts: () => true,
    prepare: (value) =>
      prepared(() => msgpackrBrowser.pack(value), (bytes) => msgpackrBrowser.unpack(bytes)),
  },
  {
    name: "@msgpack/msgpack",
    accepts: () => true,
    prepare: (value) =>
      prepared(() => msgpackEncoder.encode(value), (bytes) => msgpackDecoder.decode(bytes)),
  },
  {
    name: "JSON",
    accepts: (json) => json,
    prepare: prepareJson,
  },
  {
    name: "ours records",
    accepts: () => true,
    prepare: (value) => prepareLibrary(ours, true, value),
  },
  {
    // records packed into a reused buffer (views of it), as "ours useBuffer" for plain maps
    name: "ours records useBuffer",
    accepts: () => true,
    prepare: (value) => {
      const structures: string[][] = [];
      const packr = new ours.Packr({ structures });
      packr.pack(value);
      const buffer = new Uint8Array(4 << 20);
      return prepared(() => {
        packr.useBuffer(buffer);
        return packr.pack(value);
      }, (bytes) => new ours.Unpackr({ structures }).unpack(bytes));
    },
  },
  {
    // the no-eval build's reader: the interpreted one
    name: "ours records no-eval",
    accepts: () => true,
    prepare: (value) => prepareLibrary(ours, true, value, true),
  },
  {
    name: "msgpackr records",
    accepts: () => true,
    prepare: (value) => {
      const structures: string[][] = [];
      const packr = new msgpackr.Packr({ structures });
      packr.pack(value);
      const unpackr = new msgpackr.Unpackr({ structures });
      return prepared(() => packr.pack(value), (bytes) => unpackr.unpack(bytes));
    },
  },
];

/** The codec of that name (one of {@linkcode codecs}). */
export function codecNamed(name: string): Codec {
  const codec = codecs.find((candidate) => candidate.name === name);
  if (codec === undefined) throw new Error(`No codec named ${name}`);
  return codec;
}
