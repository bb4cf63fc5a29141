// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { ChunkDecoder, type UnpackrStreamOptions } from "./chunk_decoder.ts";
import { ChunkEncoder, type PackrStreamOptions } from "./chunk_encoder.ts";
import { packSource, stepsOf } from "./source_packer.ts";
import { standardOf, validatedAsync, validatedSync } from "../_core/standard_schema.ts";
import type { MessagePackSource } from "../_decode/unpack.ts";

/**
 * A source of values or chunks: an iterable, an async iterable, or a `ReadableStream`.
 *
 * @example Usage
 * ```ts
 * import { decodeIter, pack, type StreamSource } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const chunks: StreamSource<Uint8Array> = [pack(1), pack(2)];
 * assert.deepEqual(await Array.fromAsync(decodeIter(chunks)), [1, 2]);
 * ```
 */
export type StreamSource<T> = Iterable<T> | AsyncIterable<T> | ReadableStream<T>;

/**
 * Packs the values of an iterable, async iterable or `ReadableStream` into MessagePack chunks,
 * with the same encoder as {@linkcode PackrStream}: records with `sequential` structures unless
 * `useRecords: false`, and values joined into chunks of about `coalesceBytes`. As in msgpackr, a
 * synchronous iterable gives a synchronous iterator (`[...encodeIter(values)]`), with full-size
 * chunks; anything else an async one, which also sends the pending bytes whenever the source has
 * no value ready within the current macrotask.
 *
 * msgpackr's `encodeIter` packs each value as a message of its own; `{ coalesceBytes: 0,
 * sequential: false }` does the same here (the same bytes, each chunk decodable by `unpack`), and
 * `{ coalesceBytes: 0, useRecords: false }` makes each chunk plain MessagePack.
 *
 * @param source The values.
 * @param options Packr options and `coalesceBytes`.
 * @returns A generator of byte chunks.
 *
 * @example Usage
 * ```ts
 * import { decodeIter, encodeIter } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const rows = [{ id: 1, ok: true }, { id: 2, ok: false }];
 * const chunks = [...encodeIter(rows)];
 * assert.deepEqual([...decodeIter(chunks)], rows);
 * ```
 *
 * @example One standalone message per value, as msgpackr's encodeIter
 * ```ts
 * import { encodeIter, unpack } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const rows = [{ id: 1 }, { id: 2 }];
 * const chunks = [...encodeIter(rows, { coalesceBytes: 0, sequential: false })];
 * assert.deepEqual(chunks.map((chunk) => unpack(chunk)), rows);
 * ```
 *
 * @example A request body from an async generator
 * ```ts
 * import { encodeIter } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * async function* events() {
 *   yield { type: "start" };
 *   yield { type: "end" };
 * }
 * const body = ReadableStream.from(encodeIter(events(), { useRecords: false }));
 * const bytes = await new Response(body).bytes();
 * assert.equal(bytes[0], 0xde); // a map16: plain MessagePack
 * ```
 */
export function encodeIter(
  source: Iterable<unknown>,
  options?: PackrStreamOptions,
): Generator<Uint8Array<ArrayBuffer>, void, undefined>;
/**
 * Packs the values of an async iterable or `ReadableStream` into MessagePack chunks.
 *
 * @param source The values.
 * @param options Packr options and `coalesceBytes`.
 * @returns An async generator of byte chunks.
 */
export function encodeIter(
  source: AsyncIterable<unknown> | ReadableStream<unknown>,
  options?: PackrStreamOptions,
): AsyncGenerator<Uint8Array<ArrayBuffer>, void, undefined>;
/**
 * Packs the values of any source into MessagePack chunks: a synchronous generator for an
 * iterable, an async one otherwise.
 *
 * @param source The values.
 * @param options Packr options and `coalesceBytes`.
 * @returns A generator of byte chunks.
 */
export function encodeIter(
  source: StreamSource<unknown>,
  options?: PackrStreamOptions,
):
  | Generator<Uint8Array<ArrayBuffer>, void, undefined>
  | AsyncGenerator<Uint8Array<ArrayBuffer>, void, undefined>;
export function encodeIter(
  source: StreamSource<unknown>,
  options: PackrStreamOptions = {},
):
  | Generator<Uint8Array<ArrayBuffer>, void, undefined>
  | AsyncGenerator<Uint8Array<ArrayBuffer>, void, undefined> {
  return isIterable(source) ? encodeSync(source, options) : each(packSource(source, options));
}

function* encodeSync(
  source: Iterable<unknown>,
  options: PackrStreamOptions,
): Generator<Uint8Array<ArrayBuffer>, void, undefined> {
  const encoder = new ChunkEncoder(options);
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  for (const value of source) {
    try {
      encoder.write(value, chunks);
    } catch (error) {
      encoder.take(chunks); // the values before the bad one are still sent
      yield* chunks;
      throw error;
    }
    if (chunks.length > 0) {
      yield* chunks;
      chunks.length = 0;
    }
  }
  encoder.take(chunks);
  yield* chunks;
}

/**
 * Decodes the MessagePack values of a byte stream given as an iterable, async iterable or
 * `ReadableStream` of chunks (any `BufferSource`), with the same resumable decoder as
 * {@linkcode UnpackrStream}: any chunking, record definitions carried from value to value,
 * linear time for values spanning many chunks, `maxIncompleteBufferSize`. As in msgpackr, a
 * synchronous iterable of chunks gives a synchronous iterator (`[...decodeIter(chunks)]`),
 * anything else an async one. Errors are thrown after the values decoded before them have been
 * yielded; a source that ends inside a value throws an `IncompleteDataError`. As for
 * `UnpackrStream`, the defaults are msgpackr's (maps as `Map`s, 64-bit integers as bigints): for
 * a producer that is not msgpackr (a Go or Python service), pass
 * `{ mapsAsObjects: true, int64AsType: "auto" }`.
 *
 * With `schema` (any Standard Schema: Zod, Valibot, ArkType, …) each value is validated as it is
 * decoded and its output yielded, typed as the schema's output; the first value that fails
 * throws a `ValidationError` naming its index, after the values before it. An async source
 * awaits async checks; a synchronous one cannot, and throws a `TypeError` for a schema that
 * answers with a promise.
 *
 * @typeParam T The type of the decoded values: not checked, or the output of `options.schema`.
 * @param source The byte chunks.
 * @param options Unpackr options, `maxIncompleteBufferSize` and `schema`.
 * @returns A generator of the values.
 *
 * @example Usage
 * ```ts
 * import { decodeIter, Packr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const packr = new Packr({ sequential: true });
 * const bytes = [...packr.pack({ x: 1 }), ...packr.pack({ x: 2 })];
 * // one byte per chunk
 * const chunks = bytes.map((byte) => new Uint8Array([byte]));
 * assert.deepEqual([...decodeIter(chunks)], [{ x: 1 }, { x: 2 }]);
 * ```
 *
 * @example Reading a fetch response
 * ```ts
 * import { decodeIter, pack } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const response = new Response(new Blob([pack("a"), pack("b")]));
 * const values: string[] = [];
 * for await (const value of decodeIter<string>(response.body!)) values.push(value);
 * assert.deepEqual(values, ["a", "b"]);
 * ```
 *
 * @example From a service that is not msgpackr (Go, Python)
 * ```ts
 * import { decodeIter } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * // two values as a Go service packs struct { ID int64 `msgpack:"id"` }: maps, int64s
 * const bytes = new Uint8Array([
 *   ...[0x81, 0xa2, 0x69, 0x64, 0xd3, 0, 0, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x7b],
 *   ...[0x81, 0xa2, 0x69, 0x64, 0xd3, 0, 0, 0, 0, 0, 0, 0, 0x02],
 * ]);
 * const options = { mapsAsObjects: true, int64AsType: "auto" } as const;
 * assert.deepEqual([...decodeIter([bytes], options)], [{ id: 1700000000123 }, { id: 2 }]);
 * // msgpackr's defaults: Maps and bigints
 * assert.deepEqual([...decodeIter([bytes])][1], new Map([["id", 2n]]));
 * ```
 *
 * @example Validated values
 * ```ts
 * import { decodeIter, pack, ValidationError } from "@x/msgpackr";
 * import { z } from "zod";
 * import assert from "node:assert/strict";
 *
 * const Event = z.object({ type: z.string(), at: z.number().transform((ms) => new Date(ms)) });
 * const chunks = [pack({ type: "start", at: 0 }), pack({ type: "end", at: "later" })];
 * const events: { type: string; at: Date }[] = [];
 * assert.throws(() => {
 *   for (const event of decodeIter(chunks, { schema: Event, mapsAsObjects: true })) {
 *     events.push(event);
 *   }
 * }, (error) => error instanceof ValidationError && error.index === 1);
 * assert.deepEqual(events, [{ type: "start", at: new Date(0) }]);
 * ```
 *
 * @example The elements of a big array as they arrive (`arrayElements`)
 * ```ts
 * import { decodeIter, pack } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const bytes = pack(Array.from({ length: 10_000 }, (_, id) => ({ id })));
 * async function* network() {
 *   for (let at = 0; at < bytes.length; at += 1000) yield bytes.subarray(at, at + 1000);
 * }
 * let count = 0;
 * for await (const row of decodeIter(network(), { arrayElements: true, mapsAsObjects: true })) {
 *   assert.deepEqual(row, { id: count++ }); // one row at a time, never the whole array
 * }
 * assert.equal(count, 10_000);
 * ```
 */
export function decodeIter<T = unknown>(
  source: Iterable<MessagePackSource>,
  options?: UnpackrStreamOptions<T>,
): Generator<T, void, undefined>;
/**
 * Decodes the MessagePack values of an async iterable or `ReadableStream` of chunks.
 *
 * @typeParam T The type of the decoded values: not checked, or the output of `options.schema`.
 * @param source The byte chunks.
 * @param options Unpackr options, `maxIncompleteBufferSize` and `schema`.
 * @returns An async generator of the values.
 */
export function decodeIter<T = unknown>(
  source: AsyncIterable<MessagePackSource> | ReadableStream<MessagePackSource>,
  options?: UnpackrStreamOptions<T>,
): AsyncGenerator<T, void, undefined>;
/**
 * Decodes the MessagePack values of any source of chunks: a synchronous generator for an
 * iterable, an async one otherwise.
 *
 * @typeParam T The type of the decoded values: not checked, or the output of `options.schema`.
 * @param source The byte chunks.
 * @param options Unpackr options, `maxIncompleteBufferSize` and `schema`.
 * @returns A generator of the values.
 */
export function decodeIter<T = unknown>(
  source: StreamSource<MessagePackSource>,
  options?: UnpackrStreamOptions<T>,
): Generator<T, void, undefined> | AsyncGenerator<T, void, undefined>;
export function decodeIter<T = unknown>(
  source: StreamSource<MessagePackSource>,
  options: UnpackrStreamOptions<T> = {},
): Generator<T, void, undefined> | AsyncGenerator<T, void, undefined> {
  if (options.schema !== undefined) {
    const standard = standardOf(options.schema);
    return isIterable(source)
      ? validatedSync<T>(decodeSync(source, options), standard)
      : validatedAsync<T>(decodeAsync(source, options), standard);
  }
  return isIterable(source) ? decodeSync<T>(source, options) : decodeAsync<T>(source, options);
}

function* decodeSync<T>(
  source: Iterable<MessagePackSource>,
  options: UnpackrStreamOptions,
): Generator<T, void, undefined> {
  const decoder = new ChunkDecoder(options);
  for (const chunk of source) yield* valuesOf<T>(decoder, chunk, false);
  yield* valuesOf<T>(decoder, undefined, true);
}

async function* decodeAsync<T>(
  source: AsyncIterable<MessagePackSource> | ReadableStream<MessagePackSource>,
  options: UnpackrStreamOptions,
): AsyncGenerator<T, void, undefined> {
  const decoder = new ChunkDecoder(options);
  for await (const chunk of each(source)) yield* valuesOf<T>(decoder, chunk, false);
  yield* valuesOf<T>(decoder, undefined, true);
}

/**
 * The values that `chunk` completes (or, when `end`, that the end of the input completes), then
 * the decode error if there was one: every value before a failing one is delivered first.
 */
function* valuesOf<T>(
  decoder: ChunkDecoder,
  chunk: MessagePackSource | undefined,
  end: boolean,
): Generator<T, void, undefined> {
  const values: unknown[] = [];
  const failure = decoder.step(chunk, end, values);
  for (let i = 0; i < values.length; i++) yield values[i] as T;
  if (failure !== undefined) throw failure.error;
}

function isIterable<T>(source: StreamSource<T>): source is Iterable<T> {
  return typeof (source as Iterable<T>)[Symbol.iterator] === "function";
}

/** The values of an async source, read by {@linkcode stepsOf}; a consumer that stops stops it. */
async function* each<T>(
  source: AsyncIterable<T> | ReadableStream<T>,
): AsyncGenerator<T, void, undefined> {
  const steps = stepsOf(source);
  for (let step; !(step = await steps.next()).done;) {
    let resumed = false;
    try {
      yield step.value;
      resumed = true;
    } finally {
      if (!resumed) await steps.stop();
    }
  }
}
