// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * Binary throughput: MB/s packing and unpacking the binary payload (16 records with 64 KiB byte
 * arrays), against a plain `Uint8Array.prototype.set` copy of the same number of bytes — the
 * physical limit for writing those bytes once.
 *
 *   deno run -A bench/binary_throughput.ts
 *   bun bench/binary_throughput.ts
 *
 * bench.ts runs it too, after its tables.
 */

import * as msgpackr from "msgpackr";
import { pack, Packr, unpack } from "../mod.ts";
import { fastestMedians } from "./_measure.ts";
import { payloads } from "./_payloads.ts";
import { RUNTIME } from "./_runtime.ts";

/**
 * Measures the binary payload's MB/s and returns the markdown section (a heading and a table).
 * Each row is the fastest median of `rounds` interleaved passes (`fastestMedians`).
 */
export async function binaryThroughput(rounds = 3): Promise<string[]> {
  const value = payloads().find((payload) => payload.name.startsWith("binary"))!.value;
  const bytes = pack(value);
  const source = new Uint8Array(bytes.length).fill(1);
  const destination = new Uint8Array(bytes.length);
  const zeroCopy = new Packr({ useRecords: false });
  const arena = new Uint8Array(4 << 20);
  const theirs = new Uint8Array(msgpackr.pack(value));
  const rows: [string, () => unknown][] = [
    ["Uint8Array.set copy of the same bytes (limit)", () => destination.set(source)],
    ["ours pack() (exact-size copy)", () => pack(value)],
    ["ours pack() into useBuffer (zero-copy)", () => {
      zeroCopy.useBuffer(arena);
      return zeroCopy.pack(value);
    }],
    ["msgpackr pack()", () => msgpackr.pack(value)],
    ["ours unpack() (views of the input)", () => unpack(bytes)],
    ["msgpackr unpack()", () => msgpackr.unpack(theirs)],
  ];
  const best = await fastestMedians(rows.map(([, run]) => run), rounds, 200e6);
  const megabytes = bytes.length / 1e6;
  return [
    `### Binary throughput, ${RUNTIME}`,
    "",
    `Payload: ${bytes.length} bytes (16 × 64 KiB blobs); fastest p50 of ${rounds} interleaved mitata passes.`,
    "",
    "| operation | throughput |",
    "|---|---:|",
    ...rows.map(([name], i) =>
      `| ${name} | ${(megabytes / (best[i] / 1e9)).toFixed(0)} MB/s (${
        (best[i] / 1000).toFixed(1)
      } µs) |`
    ),
  ];
}

if (import.meta.main) console.log((await binaryThroughput()).join("\n"));
