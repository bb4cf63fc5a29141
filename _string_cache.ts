// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { decodeString } from "./_utf8.ts";

// Strings repeat: map keys always, and short values often (enum-like fields, hosts, statuses).
// Decoding one into a fresh string on every occurrence costs an allocation (tens of nanoseconds
// in JavaScript), and a fresh string used as a property name costs an engine lookup to
// internalise it. A string cache returns the same string object for the same bytes: a
// direct-mapped table (a collision replaces the entry) of strings up to a maximum byte length,
// compared byte for byte. A table holds only strings and bytes, no reference to any input, and
// is shared safely by every decoder.

/** A direct-mapped cache of decoded strings. */
export interface StringCache {
  /** Byte length of each entry's string; -1 for an empty entry. */
  readonly lengths: Int8Array;
  /** Each entry's words, `wordsPerEntry` from `entry * wordsPerEntry` (layout: `cachedString`). */
  readonly words: Int32Array;
  readonly strings: string[];
  /** 32 - log2(entries): a hash's top bits pick the entry. */
  readonly shift: number;
  readonly wordsPerEntry: number;
  readonly maxBytes: number;
  /** Lookups that were not answered from this cache so far (callers compare two readings). */
  misses: number;
}

/** Creates a cache of 2^`bits` strings of up to `maxBytes` (a multiple of 4, < 128) bytes. */
function createStringCache(bits: number, maxBytes: number): StringCache {
  const entries = 1 << bits;
  return {
    lengths: new Int8Array(entries).fill(-1),
    words: new Int32Array(entries * (maxBytes >> 2)),
    strings: new Array(entries).fill(""),
    shift: 32 - bits,
    wordsPerEntry: maxBytes >> 2,
    maxBytes,
    misses: 0,
  };
}

/** The cache for map keys: 4096 keys of up to 32 bytes. */
export const keyCache: StringCache = createStringCache(12, 32);
/** The cache for short string values: 2048 strings of up to 16 bytes. */
export const valueCache: StringCache = createStringCache(11, 16);

/**
 * Decodes the `length`-byte string at `start` (1 ≤ `length` ≤ `cache.maxBytes`), from the cache
 * when the same bytes were decoded before.
 *
 * An entry keeps its bytes as 32-bit words, compared without a loop for strings of up to 8
 * bytes (a byte loop's exit is mispredicted once per string):
 *   length ≥ 4: word 0 = bytes [0, 4), word 1 = bytes [length - 4, length) (they overlap below
 *               8 bytes), then the words at 4, 8, … while before length - 4;
 *   length < 4: word 0 = bytes 0, length / 2 and length - 1 (every byte), word 1 = 0.
 */
export function cachedString(
  cache: StringCache,
  bytes: Uint8Array,
  start: number,
  length: number,
): string {
  let first: number;
  let last = 0;
  if (length >= 4) {
    first = bytes[start] | (bytes[start + 1] << 8) | (bytes[start + 2] << 16) |
      (bytes[start + 3] << 24);
    const end = start + length;
    last = bytes[end - 4] | (bytes[end - 3] << 8) | (bytes[end - 2] << 16) | (bytes[end - 1] << 24);
  } else {
    first = bytes[start] | (bytes[start + (length >> 1)] << 8) | (bytes[start + length - 1] << 16);
  }
  const entry = Math.imul(first ^ Math.imul(last + length, 0x9e3779b1), 0x85ebca6b) >>>
    cache.shift;
  const words = cache.words;
  const base = entry * cache.wordsPerEntry;
  if (cache.lengths[entry] === length && words[base] === first && words[base + 1] === last) {
    if (length <= 8) return cache.strings[entry];
    let offset = 4;
    let word = base + 2;
    for (; offset < length - 4; offset += 4, word++) {
      const at = start + offset;
      if (
        (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) !==
          words[word]
      ) break;
    }
    if (offset >= length - 4) return cache.strings[entry];
  }
  cache.misses++; // counted on the slow path only, so a hit costs nothing more
  const text = decodeString(bytes, start, start + length);
  cache.lengths[entry] = length;
  words[base] = first;
  words[base + 1] = last;
  for (let offset = 4, word = base + 2; offset < length - 4; offset += 4, word++) {
    const at = start + offset;
    words[word] = bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24);
  }
  cache.strings[entry] = text;
  return text;
}
