// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { ChunkEncoder, type PackrStreamOptions } from "./chunk_encoder.ts";
import type { StreamSource } from "./iterators.ts";
import { packSource } from "./source_packer.ts";

/**
 * A `TransformStream` that packs each value written to it and emits MessagePack bytes: the
 * Web Streams counterpart of msgpackr's Node `PackrStream`, for Deno, Bun, Node and browsers.
 *
 * Objects are written as records with `sequential` structures (unless `useRecords: false`, or
 * as the Packr given as `packr` writes them, as in msgpackr), so each shape is defined once per
 * stream and referenced afterwards; decode the bytes in order with
 * {@linkcode UnpackrStream}, {@linkcode decodeIter}, or msgpackr's `UnpackrStream`. With
 * `useRecords: false` the output is plain MessagePack that any decoder reads as a sequence.
 *
 * Small values are joined into chunks of about `coalesceBytes` (16 KiB by default); pending bytes
 * are sent before the next macrotask and when the stream closes, so a lone value is not held back.
 * Backpressure is the TransformStream's: a writer waits (`writer.ready`) while the reader lags.
 * A value that cannot be packed errors the stream after the chunks before it have been read.
 *
 * A `pipeThrough` costs a read, a write and a transform per value; when the values come from an
 * iterable, an async iterable or a stream, {@linkcode PackrStream.from} packs them in batches
 * instead, with the same bytes, and is the fastest way to stream values out.
 *
 * @example Usage
 * ```ts
 * import { PackrStream, UnpackrStream } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const rows = [{ id: 1, name: "ann" }, { id: 2, name: "bob" }];
 * const values = await Array.fromAsync(
 *   ReadableStream.from(rows)
 *     .pipeThrough(new PackrStream())
 *     .pipeThrough(new UnpackrStream()),
 * );
 * assert.deepEqual(values, rows);
 * ```
 *
 * @example A streamed HTTP response
 * ```ts
 * import { PackrStream } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * async function* rows() {
 *   for (let id = 0; id < 1000; id++) yield { id, name: `row ${id}` };
 * }
 * const response = new Response(ReadableStream.from(rows()).pipeThrough(new PackrStream()), {
 *   headers: { "content-type": "application/msgpack" },
 * });
 * assert.ok((await response.bytes()).length > 1000);
 * ```
 *
 * @example Plain MessagePack, one chunk per value
 * ```ts
 * import { PackrStream, unpack } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const chunks = await Array.fromAsync(
 *   ReadableStream.from([{ a: 1 }, [2]])
 *     .pipeThrough(new PackrStream({ useRecords: false, coalesceBytes: 0 })),
 * );
 * assert.deepEqual(chunks.map((chunk) => unpack(chunk)), [{ a: 1 }, [2]]);
 * ```
 */
export class PackrStream extends TransformStream<unknown, Uint8Array<ArrayBuffer>> {
  /**
   * Creates a stream that packs values.
   *
   * @param options Packr options (records with `sequential` structures unless
   * `useRecords: false`) and `coalesceBytes`.
   */
  constructor(options: PackrStreamOptions = {}) {
    const encoder = new ChunkEncoder(options);
    super({
      transform(value, controller): void | Promise<void> {
        try {
          encoder.send(value, controller, true);
        } catch (error) {
          // send what was packed before the bad value, then error once it has been read
          return encoder.fail(controller, error);
        }
      },
      flush: (controller) => encoder.flush(controller),
      cancel: () => encoder.stop(),
      // `cancel` (the reader cancelled) is newer than TypeScript's `Transformer` type
    } as Transformer<unknown, Uint8Array<ArrayBuffer>>);
  }

  /**
   * The bytes of the values of `source`, as `ReadableStream.from(source).pipeThrough(new
   * PackrStream(options))` gives them (the same bytes, backpressure, cancellation and errors),
   * but packed in batches: each read of the stream packs values in a loop until a chunk
   * of about `coalesceBytes` is ready, so the cost of the streams is paid per chunk rather than
   * per value. A synchronous iterable (an array, a generator) is packed without an await; an
   * async iterable or a `ReadableStream` costs one await per value, and the pending bytes go out
   * before the next macrotask when it has no value ready. Cancelling the stream cancels the
   * source (an iterator's `return`, so a generator's `finally` runs; a stream's `cancel`). A
   * value that cannot be packed, or an error of the source, errors the stream after the bytes of
   * the values before it have been read.
   *
   * @param source The values: an iterable, an async iterable or a `ReadableStream`.
   * @param options Packr options (records with `sequential` structures unless
   * `useRecords: false`) and `coalesceBytes`.
   * @returns A stream of MessagePack byte chunks.
   *
   * @example A streamed HTTP response
   * ```ts
   * import { PackrStream, UnpackrStream } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * function* rows() {
   *   for (let id = 0; id < 1000; id++) yield { id, name: `row ${id}` };
   * }
   * const response = new Response(PackrStream.from(rows()), {
   *   headers: { "content-type": "application/msgpack" },
   * });
   * const values = await Array.fromAsync(response.body!.pipeThrough(new UnpackrStream()));
   * assert.equal(values.length, 1000);
   * assert.deepEqual(values[999], { id: 999, name: "row 999" });
   * ```
   *
   * @example From an async generator, as plain MessagePack
   * ```ts
   * import { PackrStream, unpackMultiple } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * async function* events() {
   *   yield { type: "start" };
   *   yield { type: "end" };
   * }
   * const body = PackrStream.from(events(), { useRecords: false });
   * const bytes = await new Response(body).bytes();
   * assert.deepEqual(unpackMultiple(bytes), [{ type: "start" }, { type: "end" }]);
   * ```
   */
  static from(
    source: StreamSource<unknown>,
    options?: PackrStreamOptions,
  ): ReadableStream<Uint8Array<ArrayBuffer>> {
    return packSource(source, options);
  }
}

/**
 * Alias of {@linkcode PackrStream} (the same class), msgpackr's other name for it.
 * @example Usage
 * ```ts
 * import { EncoderStream, PackrStream } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * assert.equal(EncoderStream, PackrStream);
 * const stream: EncoderStream = new EncoderStream({ useRecords: false });
 * assert.ok(stream instanceof TransformStream);
 * ```
 */
export const EncoderStream: typeof PackrStream = PackrStream;
/**
 * Alias of {@linkcode PackrStream}, as a type.
 * @example Usage
 * ```ts
 * import { type EncoderStream, PackrStream } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const stream: EncoderStream = new PackrStream();
 * assert.ok(stream instanceof PackrStream);
 * ```
 */
export type EncoderStream = PackrStream;
