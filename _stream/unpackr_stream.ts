// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { ChunkDecoder, type UnpackrStreamOptions } from "./chunk_decoder.ts";
import { errorWhenDrained } from "./drain.ts";
import { invalidValue, standardOf, validateAsync } from "../_core/standard_schema.ts";
import type { MessagePackSource } from "../_decode/unpack.ts";

/**
 * A `TransformStream` that decodes a MessagePack byte stream (any `BufferSource` chunks) into
 * its values, in order, whatever the chunking: a value split across many chunks, many values in
 * one chunk, empty chunks. The Web Streams counterpart of msgpackr's Node `UnpackrStream`:
 * `response.body.pipeThrough(new UnpackrStream())`.
 *
 * One sequential Unpackr decodes the whole stream (or the one given as `unpackr`, as in
 * msgpackr), so record structures defined by an earlier value (as {@linkcode PackrStream} and
 * msgpackr's streams write them) are known to later ones.
 * `null` and `undefined` values are emitted as they are. Binary values are views of the chunks
 * (of a copy, for a value that spanned chunks) unless `copyBuffers` is set.
 *
 * Its defaults are msgpackr's, made for a msgpackr producer: maps decode as `Map`s and 64-bit
 * integers as bigints. For a producer that is not msgpackr (a Go or Python service), pass
 * `{ mapsAsObjects: true, int64AsType: "auto" }`: maps become plain objects, and 64-bit
 * integers numbers when they are safe integers (bigints beyond).
 *
 * A value arriving in many small chunks is decoded once, in time linear in its size. At most
 * `maxIncompleteBufferSize` bytes (64 MiB by default) are held for a value that spans chunks;
 * beyond that the stream errors with a `DecodeError`. Malformed bytes error the stream with the
 * decoder's `DecodeError`, and a stream that ends inside a value errors with an
 * `IncompleteDataError`; in both cases every value decoded before is delivered first.
 *
 * With `schema` (any Standard Schema: Zod, Valibot, ArkType, …) each value is validated in
 * order, async checks awaited, and its output delivered, typed as the schema's output
 * (`new UnpackrStream({ schema })` is an `UnpackrStream` of that type). The first value that
 * fails errors the stream with a `ValidationError` naming its index, after the values before it.
 *
 * @typeParam T The type of the decoded values: not checked, or the output of `options.schema`.
 *
 * @example Usage
 * ```ts
 * import { Packr, UnpackrStream } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const packr = new Packr({ sequential: true });
 * const bytes = [packr.pack({ id: 1 }), packr.pack({ id: 2 }), packr.pack(null)];
 * // split the bytes into 3-byte chunks, as a network might
 * const all = new Uint8Array(bytes.flatMap((part) => [...part]));
 * const chunks = Array.from({ length: Math.ceil(all.length / 3) }, (_, i) =>
 *   all.subarray(i * 3, i * 3 + 3));
 *
 * const values = await Array.fromAsync(
 *   ReadableStream.from(chunks).pipeThrough(new UnpackrStream()),
 * );
 * assert.deepEqual(values, [{ id: 1 }, { id: 2 }, null]);
 * ```
 *
 * @example Decoding a fetch response
 * ```ts
 * import { pack, UnpackrStream } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const response = new Response(new Blob([pack({ a: 1 }), pack([2, 3])]));
 * const values = [];
 * for await (const value of response.body!.pipeThrough(new UnpackrStream())) {
 *   values.push(value);
 * }
 * assert.deepEqual(values, [new Map([["a", 1]]), [2, 3]]);
 * ```
 *
 * @example From a service that is not msgpackr (Go, Python)
 * ```ts
 * import { UnpackrStream } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * // two values as a Go service packs struct { ID int64 `msgpack:"id"` }: maps, int64s
 * const bytes = new Uint8Array([
 *   ...[0x81, 0xa2, 0x69, 0x64, 0xd3, 0, 0, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x7b],
 *   ...[0x81, 0xa2, 0x69, 0x64, 0xd3, 0, 0, 0, 0, 0, 0, 0, 0x02],
 * ]);
 * const values = await Array.fromAsync(
 *   ReadableStream.from([bytes]).pipeThrough(
 *     new UnpackrStream({ mapsAsObjects: true, int64AsType: "auto" }),
 *   ),
 * );
 * assert.deepEqual(values, [{ id: 1700000000123 }, { id: 2 }]);
 * // msgpackr's defaults: Maps and bigints
 * const [first] = await Array.fromAsync(
 *   ReadableStream.from([bytes]).pipeThrough(new UnpackrStream()),
 * );
 * assert.deepEqual(first, new Map([["id", 1700000000123n]]));
 * ```
 *
 * @example Errors come after the values before them
 * ```ts
 * import { UnpackrStream } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const stream = ReadableStream.from([new Uint8Array([1, 2, 0x92, 3])])
 *   .pipeThrough(new UnpackrStream());
 * const values: unknown[] = [];
 * await assert.rejects(async () => {
 *   for await (const value of stream) values.push(value);
 * }, { name: "IncompleteDataError" });
 * assert.deepEqual(values, [1, 2]);
 * ```
 *
 * @example Validated values
 * ```ts
 * import { pack, UnpackrStream } from "@x/msgpackr";
 * import * as v from "valibot";
 * import assert from "node:assert/strict";
 *
 * const Row = v.object({ id: v.number() });
 * const stream = ReadableStream.from([pack({ id: 1 }), pack({ id: "2" })])
 *   .pipeThrough(new UnpackrStream({ schema: Row, mapsAsObjects: true }));
 * const ids: number[] = [];
 * await assert.rejects(async () => {
 *   for await (const row of stream) ids.push(row.id);
 * }, { name: "ValidationError", index: 1, message: /^Invalid value \(index 1\) at \$\.id: / });
 * assert.deepEqual(ids, [1]);
 * ```
 */
export class UnpackrStream<T = unknown> extends TransformStream<MessagePackSource, T> {
  /**
   * Creates a stream that decodes MessagePack bytes.
   *
   * @param options Unpackr options, `maxIncompleteBufferSize` and `schema`.
   */
  constructor(options: UnpackrStreamOptions<T> = {}) {
    const decoder = new ChunkDecoder(options);
    const standard = options.schema === undefined ? undefined : standardOf(options.schema);
    const values: unknown[] = [];
    let index = 0;
    // each chunk's values go out, validated in order (awaited) with a schema, before the error
    // that ends the stream (decode or validation), which comes once they are read
    const validate = async (
      controller: TransformStreamDefaultController<T>,
      failure: { error: unknown } | undefined,
    ): Promise<void> => {
      try {
        for (let i = 0; i < values.length; i++) {
          controller.enqueue(await validateAsync(standard!, values[i], invalidValue, index++) as T);
        }
      } catch (error) {
        failure = { error };
      } finally {
        values.length = 0;
      }
      if (failure !== undefined) await errorWhenDrained(controller, failure.error);
    };
    const deliver = (
      chunk: MessagePackSource | undefined,
      end: boolean,
      controller: TransformStreamDefaultController<T>,
    ): void | Promise<void> => {
      const failure = decoder.step(chunk, end, values);
      if (standard !== undefined) return validate(controller, failure);
      for (let i = 0; i < values.length; i++) controller.enqueue(values[i] as T);
      values.length = 0;
      if (failure !== undefined) return errorWhenDrained(controller, failure.error);
    };
    super({
      transform: (chunk, controller) => deliver(chunk, false, controller),
      flush: (controller) => deliver(undefined, true, controller),
    });
  }
}

/**
 * Alias of {@linkcode UnpackrStream} (the same class), msgpackr's other name for it.
 * @example Usage
 * ```ts
 * import { DecoderStream, pack, UnpackrStream } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * assert.equal(DecoderStream, UnpackrStream);
 * const values = await Array.fromAsync(
 *   ReadableStream.from([pack(1), pack(2)]).pipeThrough(new DecoderStream()),
 * );
 * assert.deepEqual(values, [1, 2]);
 * ```
 */
export const DecoderStream: typeof UnpackrStream = UnpackrStream;
/**
 * Alias of {@linkcode UnpackrStream}, as a type.
 * @typeParam T The type of the decoded values.
 * @example Usage
 * ```ts
 * import { type DecoderStream, UnpackrStream } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const stream: DecoderStream<number> = new UnpackrStream<number>();
 * assert.ok(stream instanceof UnpackrStream);
 * ```
 */
export type DecoderStream<T = unknown> = UnpackrStream<T>;
