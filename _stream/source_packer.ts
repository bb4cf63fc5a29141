// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The packed bytes of a source of values as a ReadableStream, in batches: each pull takes values
// from the source in a loop and packs them until a chunk of about `coalesceBytes` is ready, so the
// Web Streams cost of a `pipeThrough` (a read, a write and a transform, each with its promises)
// is paid per chunk instead of per value. A synchronous iterable is read without an await; an
// async iterable or a ReadableStream costs one await per value. `PackrStream.from`, the async
// `encodeIter` and the streamed bodies of `respond` and `fetchValue` are this stream.
//
// Semantics are those of `ReadableStream.from(source).pipeThrough(new PackrStream(options))`:
// the same bytes; values are pulled only while the reader asks for bytes (`highWaterMark` 0);
// pending bytes go out before the next macrotask when an async source has no value ready;
// cancelling cancels the source (`return` of an iterator, `cancel` of a stream); a value that
// cannot be packed sends the bytes of the values before it, closes the source and errors the
// stream once they are read; an error of the source does the same without closing it.

import { ChunkEncoder, type PackrStreamOptions } from "./chunk_encoder.ts";
import type { StreamSource } from "./iterators.ts";

type Chunk = Uint8Array<ArrayBuffer>;
type Step<T> = IteratorResult<T> | ReadableStreamReadResult<T>;

/** How a source is read: `next` step (a promise of one unless `sync`); `stop` ends it early. */
export interface Steps<T> {
  readonly sync: boolean;
  next(): Step<T> | PromiseLike<Step<T>>;
  stop(reason?: unknown): unknown;
}

/**
 * Reads a source: a ReadableStream through a reader (its async iterator, which some engines
 * lack, costs one more promise per value), an iterable or async iterable through its iterator
 * (`stop` is its `return`, as `for…of` calls it); anything else is a `TypeError`.
 */
export function stepsOf<T>(source: StreamSource<T>): Steps<T> {
  if (typeof (source as ReadableStream<T>).getReader === "function") {
    const reader = (source as ReadableStream<T>).getReader();
    return { sync: false, next: () => reader.read(), stop: (reason) => reader.cancel(reason) };
  }
  const asyncIterator = (source as AsyncIterable<T>)[Symbol.asyncIterator];
  const iterate = asyncIterator ?? (source as Iterable<T>)[Symbol.iterator];
  if (typeof iterate !== "function") {
    throw new TypeError("Source must be an iterable, an async iterable or a ReadableStream");
  }
  const iterator: Iterator<T> | AsyncIterator<T> = iterate.call(source);
  return {
    sync: asyncIterator === undefined,
    next: () => iterator.next(),
    stop: (reason) => iterator.return?.(reason),
  };
}

/**
 * The MessagePack bytes of the values of `source`, packed in batches per pull.
 *
 * @param source The values: an iterable, an async iterable or a ReadableStream.
 * @param options Packr options and `coalesceBytes`, as for `PackrStream`.
 * @returns A stream of byte chunks.
 */
export function packSource(
  source: StreamSource<unknown>,
  options?: PackrStreamOptions,
): ReadableStream<Chunk> {
  const encoder = new ChunkEncoder(options);
  const { sync, next, stop } = stepsOf(source);
  /** Closed, cancelled or failed: nothing more is read or sent. */
  let ended = false;
  return new ReadableStream<Chunk>({
    /** Packs values until a chunk is ready (or the source ends), then sends it. */
    async pull(controller): Promise<void> {
      for (;;) {
        let step: Step<unknown>;
        try {
          step = sync ? next() as Step<unknown> : await next();
        } catch (error) {
          ended = true;
          return encoder.fail(controller, error);
        }
        if (ended) return; // cancelled while the source was waited for
        if (step.done) {
          ended = true;
          encoder.flush(controller);
          return controller.close();
        }
        try {
          // bytes left waiting for more values go out before the next macrotask if none comes
          if (encoder.send(step.value, controller, !sync)) return;
        } catch (error) {
          // close the source, as `for…of` does when its body throws
          ended = true;
          Promise.resolve().then(stop).catch(() => {});
          return encoder.fail(controller, error);
        }
      }
    },
    async cancel(reason): Promise<void> {
      ended = true;
      encoder.stop();
      await stop(reason);
    },
  }, { highWaterMark: 0 });
}
