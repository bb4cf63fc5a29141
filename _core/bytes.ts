// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

/**
 * The bytes of a decoder input (or stream chunk) as a plain `Uint8Array` over the same memory (no
 * copy): a `Uint8Array` as is, a subclass such as Node's `Buffer` or any other ArrayBufferView
 * re-viewed, an ArrayBuffer wrapped. Decoded binary values are views of this, so they are plain
 * `Uint8Array`s too. Anything else is a `TypeError` whose message starts with `what`.
 */
export function toBytes(
  source: unknown,
  what = "Source must be a Uint8Array or Buffer",
): Uint8Array {
  if (ArrayBuffer.isView(source)) {
    return source.constructor === Uint8Array
      ? source as Uint8Array
      : new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  }
  if (
    source instanceof ArrayBuffer ||
    (typeof SharedArrayBuffer === "function" && source instanceof SharedArrayBuffer)
  ) {
    return new Uint8Array(source);
  }
  const kind = source === null
    ? "null"
    : typeof source === "object"
    ? (source.constructor?.name ?? "object")
    : typeof source;
  throw new TypeError(`${what} but was a ${kind}`);
}

/**
 * The four bytes at `at` as a little-endian 32-bit word (signed), from byte loads: the form in
 * which the string caches and the shape trees keep encoded strings, four bytes at a time.
 */
export function wordAt(bytes: Uint8Array, at: number): number {
  return bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24);
}

/**
 * A string of 1 to 3 bytes at `at` as one word: its bytes 0, `length / 2` and `length - 1` at
 * bits 0, 8 and 16, with no loop. That is every byte, and the word's first `length` bytes
 * (little-endian) are the string's, in order. The string caches key short strings by it, the
 * shape trees keep and compare short encoded keys by it.
 */
export function shortWordAt(bytes: Uint8Array, at: number, length: number): number {
  return bytes[at] | (bytes[at + (length >> 1)] << 8) | (bytes[at + length - 1] << 16);
}

/** The bytes of `parts`, one after another, in a new exact-size array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  let length = 0;
  for (const part of parts) length += part.length;
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}
