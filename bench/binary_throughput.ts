// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * Binary throughput: MB/s packing and unpacking the binary payload (16 records with 64 KiB byte
 * arrays), against a plain `Uint8Array.prototype.set` copy of the same number of bytes — the
 * physical limit for writing those bytes once.
 *
 *   deno run -A bench/binary_throughput.ts
 *   bun bench/binary_throughput.ts
 */

import { measure } from "mitata";
import * as msgpackr from "msgpackr";
import { pack, Packr, unpack } from "../mod.ts";
import { payloads } from "./_payloads.ts";
import { RUNTIME } from "./_runtime.ts";

const value = payloads().find((payload) => payload.name.startsWith("binary"))!.value;
const bytes = pack(value);
const megabytes = bytes.length / 1e6;

async function rate(fn: () => unknown): Promise<string> {
  await measure(fn, { min_cpu_time: 300e6 }); // warm up the JIT and the allocator
  const { p50 } = await measure(fn, { min_cpu_time: 500e6 });
  return `${(megabytes / (p50 / 1e9)).toFixed(0)} MB/s (${(p50 / 1000).toFixed(1)} µs)`;
}

const source = new Uint8Array(bytes.length).fill(1);
const destination = new Uint8Array(bytes.length);
const zeroCopy = new Packr({ useRecords: false });
const arena = new Uint8Array(4 << 20);
const theirs = new Uint8Array(msgpackr.pack(value));

const rows: [string, string][] = [
  ["Uint8Array.set copy of the same bytes (limit)", await rate(() => destination.set(source))],
  ["ours pack() (exact-size copy)", await rate(() => pack(value))],
  [
    "ours pack() into useBuffer (zero-copy)",
    await rate(() => {
      zeroCopy.useBuffer(arena);
      return zeroCopy.pack(value);
    }),
  ],
  ["msgpackr pack()", await rate(() => msgpackr.pack(value))],
  ["ours unpack() (views of the input)", await rate(() => unpack(bytes))],
  ["msgpackr unpack()", await rate(() => msgpackr.unpack(theirs))],
];

console.log(`### Binary throughput, ${RUNTIME}\n`);
console.log(`Payload: ${bytes.length} bytes (16 × 64 KiB blobs); p50 of mitata samples.\n`);
console.log("| operation | throughput |\n|---|---:|");
for (const [name, result] of rows) console.log(`| ${name} | ${result} |`);
