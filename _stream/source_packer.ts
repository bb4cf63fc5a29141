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
type Step = IteratorResult<unknown> | ReadableStreamReadResult<unknown>;

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
  /** The source's values are taken without an await (a synchronous iterable). */
  let sync = false;
  /** The next value of the source: a step, or a promise of one (unless `sync`). */
  let next: () => Step | PromiseLike<Step>;
  /** Ends the source early: `return` of its iterator, `cancel` of its stream. */
  let stop: (reason?: unknown) => unknown;
  if (typeof (source as ReadableStream<unknown>).getReader === "function") {
    // read directly: a stream's async iterator costs one more promise per value
    const reader = (source as ReadableStream<unknown>).getReader();
    next = () => reader.read();
    stop = (reason) => reader.cancel(reason);
  } else {
    const asyncIterable =
      typeof (source as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function";
    if (!asyncIterable && typeof (source as Iterable<unknown>)[Symbol.iterator] !== "function") {
      throw new TypeError("Source must be an iterable, an async iterable or a ReadableStream");
    }
    const iterator: Iterator<unknown> | AsyncIterator<unknown> = asyncIterable
      ? (source as AsyncIterable<unknown>)[Symbol.asyncIterator]()
      : (source as Iterable<unknown>)[Symbol.iterator]();
    sync = !asyncIterable;
    next = () => iterator.next();
    stop = (reason) => iterator.return?.(reason);
  }
  /** Closed, cancelled or failed: nothing more is read or sent. */
  let ended = false;
  return new ReadableStream<Chunk>({
    /** Packs values until a chunk is ready (or the source ends), then sends it. */
    async pull(controller): Promise<void> {
      for (;;) {
        let step: Step;
        try {
          step = sync ? next() as Step : await next();
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
