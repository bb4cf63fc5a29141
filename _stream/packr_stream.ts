// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { ChunkEncoder, type PackrStreamOptions } from "./chunk_encoder.ts";
import { errorWhenDrained } from "./drain.ts";

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
  readonly #encoder: ChunkEncoder;
  readonly #chunks: Uint8Array<ArrayBuffer>[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined = undefined;
  #controller: TransformStreamDefaultController<Uint8Array<ArrayBuffer>> | null = null;

  /**
   * Creates a stream that packs values.
   *
   * @param options Packr options (records with `sequential` structures unless
   * `useRecords: false`) and `coalesceBytes`.
   */
  constructor(options: PackrStreamOptions = {}) {
    const encoder = new ChunkEncoder(options);
    super({
      transform: (value, controller) => this.#transform(value, controller),
      flush: (controller) => this.#flush(controller),
      cancel: () => this.#stopTimer(),
      // `cancel` (the reader cancelled) is newer than TypeScript's `Transformer` type
    } as Transformer<unknown, Uint8Array<ArrayBuffer>>);
    this.#encoder = encoder;
  }

  #transform(
    value: unknown,
    controller: TransformStreamDefaultController<Uint8Array<ArrayBuffer>>,
  ): void | Promise<void> {
    const chunks = this.#chunks;
    try {
      this.#encoder.write(value, chunks);
    } catch (error) {
      // send what was packed before the bad value, then error once it has been read
      this.#stopTimer();
      const pending = this.#encoder.take();
      for (const chunk of chunks) controller.enqueue(chunk);
      chunks.length = 0;
      if (pending !== null) controller.enqueue(pending);
      return errorWhenDrained(controller, error);
    }
    for (let i = 0; i < chunks.length; i++) controller.enqueue(chunks[i]);
    chunks.length = 0;
    if (this.#encoder.pendingBytes > 0 && this.#timer === undefined) {
      this.#controller = controller;
      this.#timer = setTimeout(this.#sendPending, 0);
    }
  }

  /** Sends the bytes of values written during the last macrotask. */
  #sendPending = (): void => {
    this.#timer = undefined;
    const pending = this.#encoder.take();
    if (pending === null) return;
    try {
      this.#controller!.enqueue(pending);
    } catch {
      // the stream was cancelled or errored meanwhile: nobody reads these bytes
    }
  };

  #flush(controller: TransformStreamDefaultController<Uint8Array<ArrayBuffer>>): void {
    this.#stopTimer();
    const pending = this.#encoder.take();
    if (pending !== null) controller.enqueue(pending);
  }

  #stopTimer(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
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
