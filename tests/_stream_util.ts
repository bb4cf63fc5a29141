// Copyright 2026 the @x/msgpackr authors. MIT license.
// Helpers for the stream tests: chunking, reading streams, a seeded random generator, sample data.

import { ChunkDecoder, type UnpackrStreamOptions } from "../_stream/chunk_decoder.ts";
import { Packr, type PackrOptions } from "../mod.ts";
import { concatBytes as concat } from "../_core/bytes.ts";
import { TESTDATA_FILES } from "./_testdata_files.ts";
import { random, readTestdata } from "./_util.ts";

export { concat, random };

/** `bytes` cut at the given offsets (ascending); chunks are copies, as a network delivers. */
export function splitAt(bytes: Uint8Array, ...offsets: number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const offset of [...offsets, bytes.length]) {
    chunks.push(bytes.slice(start, offset));
    start = offset;
  }
  return chunks;
}

/**
 * `bytes` cut into chunks of random sizes from 1 to `maxSize`; with `emptyChance`, empty chunks
 * are mixed in.
 */
export function randomChunks(
  bytes: Uint8Array,
  next: () => number,
  maxSize: number,
  emptyChance = 0,
): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    if (next() < emptyChance) chunks.push(new Uint8Array(0));
    const size = 1 + Math.floor(next() * maxSize);
    chunks.push(bytes.slice(offset, offset + size));
    offset += size;
  }
  return chunks;
}

/** `bytes` cut into chunks of exactly `size` bytes (the last may be shorter). */
export function fixedChunks(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) {
    chunks.push(bytes.subarray(offset, offset + size));
  }
  return chunks;
}

/** What reading a stream to its end gave: the values, and the error that ended it, if any. */
export interface Outcome<T> {
  values: T[];
  error: unknown;
}

/**
 * Reads a stream to its end, optionally waiting `delayMs` (a macrotask) before each read, as a
 * slow consumer does.
 */
export async function collect<T>(stream: ReadableStream<T>, delayMs = -1): Promise<Outcome<T>> {
  const reader = stream.getReader();
  const values: T[] = [];
  try {
    for (;;) {
      if (delayMs >= 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const step = await reader.read();
      if (step.done) return { values, error: undefined };
      values.push(step.value);
    }
  } catch (error) {
    return { values, error };
  }
}

/** A readable stream of the given chunks (in order, one per pull). */
export function streamOf<T>(chunks: readonly T[]): ReadableStream<T> {
  let index = 0;
  return new ReadableStream<T>({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(chunks[index++]);
      else controller.close();
    },
  }, { highWaterMark: 0 });
}

/** Decodes chunks with a fresh `ChunkDecoder`; returns values, error and the decoder. */
export function decodeChunks(
  chunks: readonly Uint8Array[],
  options: UnpackrStreamOptions = {},
): Outcome<unknown> & { decoder: ChunkDecoder } {
  const decoder = new ChunkDecoder(options);
  const values: unknown[] = [];
  try {
    for (const chunk of chunks) decoder.push(chunk, values);
    decoder.end(values);
    return { values, error: undefined, decoder };
  } catch (error) {
    return { values, error, decoder };
  }
}

/** Packs each value with one Packr (sequential records by default), as a stream would. */
export function packEach(values: readonly unknown[], options: PackrOptions = {}): Uint8Array[] {
  const packr = new Packr({ sequential: true, ...options });
  return values.map((value) => packr.pack(value));
}

/** A varied set of values: every kind of header, records defined and referenced, nesting. */
export function sampleValues(): unknown[] {
  const shapes = Array.from({ length: 36 }, (_, i) => ({ [`field${i}`]: i, shared: i % 3 }));
  return [
    { id: 1, name: "ann", tags: ["a", "b"], nested: { x: 1.5, y: null } },
    { id: 2, name: "bob", tags: [], nested: { x: -3, y: true } },
    null,
    undefined,
    0,
    64,
    127,
    -1,
    -33,
    255,
    65535,
    2 ** 32,
    -(2 ** 31),
    1.25,
    12345678901234567890n,
    -5n,
    "",
    "short",
    "x".repeat(40),
    "é".repeat(100),
    "z".repeat(300),
    new Uint8Array([1, 2, 3]),
    new Uint8Array(300).fill(7),
    new Date(0),
    new Date(1.5e12),
    new Date(-1e12),
    [1, [2, [3, [4, []]]]],
    new Map<unknown, unknown>([[1, "a"], ["k", { deep: [1, 2] }]]),
    ...shapes,
    Array.from({ length: 20 }, (_, i) => ({ i, s: `v${i}` })),
    { list: Array.from({ length: 40 }, (_, i) => i * 1000) },
    { emptyObject: {}, emptyArray: [], emptyString: "" },
    { id: 3, name: "cy", tags: ["c"], nested: { x: 0, y: false } },
    true,
    false,
  ];
}

/** Bigger, realistic values: the testdata/ files. */
export async function benchValues(): Promise<unknown[]> {
  const values: unknown[] = [];
  for (const name of TESTDATA_FILES) values.push(await readTestdata(name));
  return values;
}
