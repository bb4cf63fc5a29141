// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Which values are streamed, and the ReadableStream of values they become.

/**
 * The sources a body is streamed from: an iterator or generator, an async iterable, or a
 * `ReadableStream` of values.
 *
 * @example Usage
 * ```ts
 * import { respond, type ValueSource } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * function* numbers(): Generator<number> {
 *   yield 1;
 *   yield 2;
 * }
 * const source: ValueSource = numbers();
 * const response = respond(new Request("http://localhost/"), source);
 * assert.equal(await response.text(), "1\n2\n");
 * ```
 */
export type ValueSource =
  | Iterator<unknown> & Iterable<unknown>
  | AsyncIterable<unknown>
  | ReadableStream<unknown>;

/**
 * Whether a value is streamed rather than sent as one value: a `ReadableStream`, an async
 * iterable, or an iterator (an iterable with a `next` method: a generator, `map.values()`…).
 * An array, a `Set`, a `Map`, a typed array or a string is one value.
 *
 * @param value The value.
 * @returns `true` for a stream source.
 */
export function isValueSource(value: unknown): value is ValueSource {
  if (typeof value !== "object" || value === null) return false;
  if (value instanceof ReadableStream) return true;
  const source = value as Partial<AsyncIterable<unknown> & Iterator<unknown> & Iterable<unknown>>;
  if (typeof source[Symbol.asyncIterator] === "function") return true;
  return typeof source.next === "function" && typeof source[Symbol.iterator] === "function";
}

/**
 * A `ReadableStream` of the source's values, pulled one at a time (the consumer's pace is the
 * source's pace). Cancelling the stream cancels the source: a `ReadableStream` gets `cancel`,
 * an iterator `return` (so a generator's `finally` runs).
 *
 * @param source The source.
 * @returns The stream.
 */
export function valueStream(source: ValueSource): ReadableStream<unknown> {
  if (source instanceof ReadableStream) return source;
  const iterator: Iterator<unknown> | AsyncIterator<unknown> =
    typeof (source as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function"
      ? (source as AsyncIterable<unknown>)[Symbol.asyncIterator]()
      : source as Iterator<unknown>;
  return new ReadableStream<unknown>({
    async pull(controller): Promise<void> {
      const step = await iterator.next();
      if (step.done) controller.close();
      else controller.enqueue(step.value);
    },
    async cancel(reason): Promise<void> {
      await iterator.return?.(reason);
    },
  }, { highWaterMark: 0 });
}
