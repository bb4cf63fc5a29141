// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// A streamed reply written as one array whose length is declared up front (the `arrayLength`
// option of `respond`): a streamed body cannot be patched once sent, and a MessagePack array
// states its count before its elements, so the count comes first, then each value as it is
// produced. MessagePack: the array header that `pack` writes for that count (fixarray,
// array16 or array32: docs/wire-format.md, "Array elements") followed by the values packed as
// a streamed body packs them, so the bytes are those of `pack(array)` with the same packer; JSON:
// `[`, the values' JSON texts joined by `,`, and `]`. A source that ends early or goes on past
// the count errors the body after the values before, so the client sees a truncated array,
// never a different one.

import { type EncodeSettings, encodeStream } from "./encode_body.ts";
import { stringifyJson } from "./json.ts";
import { isValueSource, type ValueSource, valueStream } from "./value_source.ts";

const utf8 = new TextEncoder();

/**
 * The body of a source written as an array of `length` elements.
 *
 * @param value The source: an iterator, async iterable or ReadableStream, or an array.
 * @param length The number of elements the source gives.
 * @param json A JSON array rather than MessagePack.
 * @param settings The packer and the JSON replacer.
 * @returns The body.
 */
export function arrayBody(
  value: unknown,
  length: number,
  json: boolean,
  settings: EncodeSettings,
): ReadableStream<Uint8Array> {
  if (!Number.isInteger(length) || length < 0 || length > 0xffffffff) {
    throw new RangeError(
      `Cannot use arrayLength ${String(length)}: expected an integer from 0 to 4294967295`,
    );
  }
  let source: ValueSource;
  if (isValueSource(value)) source = value;
  else if (Array.isArray(value)) source = value.values();
  else {
    throw new TypeError(
      "arrayLength needs an iterator, an async iterable, a ReadableStream or an array",
    );
  }
  const values = counted(source, length);
  if (json) {
    const replacer = settings.replacer;
    let first = true;
    return valueStream(values).pipeThrough(
      new TransformStream<unknown, Uint8Array>({
        transform(value, controller): void {
          controller.enqueue(utf8.encode((first ? "[" : ",") + stringifyJson(value, replacer)));
          first = false;
        },
        flush(controller): void {
          controller.enqueue(utf8.encode(first ? "[]" : "]"));
        },
      }),
    );
  }
  const header = length < 16
    ? [0x90 | length]
    : length < 0x10000
    ? [0xdc, length >> 8, length & 0xff]
    : [0xdd, length >>> 24, (length >> 16) & 0xff, (length >> 8) & 0xff, length & 0xff];
  return prefixed(new Uint8Array(header), encodeStream(values, false, settings));
}

/** The error for a source that does not give `length` values. */
function wrongCount(length: number, more: boolean, count = 0): RangeError {
  return new RangeError(
    more
      ? `The source gave more than arrayLength (${length}) values`
      : `The source gave ${count} values, not arrayLength (${length})`,
  );
}

/** The source, failing when it gives more or fewer than `length` values; of the same kind. */
function counted(source: ValueSource, length: number): ValueSource {
  if (source instanceof ReadableStream) {
    let count = 0;
    return source.pipeThrough(
      new TransformStream<unknown, unknown>({
        transform(value, controller): void {
          if (++count > length) throw wrongCount(length, true);
          controller.enqueue(value);
        },
        flush(): void {
          if (count < length) throw wrongCount(length, false, count);
        },
      }),
    );
  }
  if (typeof (source as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function") {
    return (async function* (): AsyncGenerator<unknown, void, undefined> {
      let count = 0;
      for await (const value of source as AsyncIterable<unknown>) {
        if (++count > length) throw wrongCount(length, true);
        yield value;
      }
      if (count < length) throw wrongCount(length, false, count);
    })();
  }
  return (function* (): Generator<unknown, void, undefined> {
    let count = 0;
    for (const value of source as Iterable<unknown>) {
      if (++count > length) throw wrongCount(length, true);
      yield value;
    }
    if (count < length) throw wrongCount(length, false, count);
  })();
}

/** `stream` with `head` before its first chunk (joined to it, so they go out together). */
function prefixed(
  head: Uint8Array,
  stream: ReadableStream<Uint8Array>,
): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  let pending: Uint8Array | null = head;
  return new ReadableStream<Uint8Array>({
    async pull(controller): Promise<void> {
      const step = await reader.read();
      const first = pending;
      pending = null;
      if (step.done) {
        if (first !== null) controller.enqueue(first);
        return controller.close();
      }
      if (first === null) return controller.enqueue(step.value);
      const joined = new Uint8Array(first.length + step.value.length);
      joined.set(first);
      joined.set(step.value, first.length);
      controller.enqueue(joined);
    },
    cancel(reason): Promise<void> {
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}
