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
  /** Each entry's bytes, at `entry * maxBytes`. */
  readonly bytes: Uint8Array;
  readonly strings: string[];
  /** Entries - 1 (entries is a power of two). */
  readonly mask: number;
  readonly maxBytes: number;
  /** Lookups that were not answered from this cache so far (callers compare two readings). */
  misses: number;
}

/** Creates a cache of `entries` (a power of two) strings of up to `maxBytes` (< 128) bytes. */
function createStringCache(entries: number, maxBytes: number): StringCache {
  return {
    lengths: new Int8Array(entries).fill(-1),
    bytes: new Uint8Array(entries * maxBytes),
    strings: new Array(entries).fill(""),
    mask: entries - 1,
    maxBytes,
    misses: 0,
  };
}

/** The cache for map keys: 4096 keys of up to 32 bytes. */
export const keyCache: StringCache = createStringCache(4096, 32);
/** The cache for short string values: 2048 strings of up to 16 bytes. */
export const valueCache: StringCache = createStringCache(2048, 16);

/**
 * Decodes the `length`-byte string at `start` (1 ≤ `length` ≤ `cache.maxBytes`), from the cache
 * when the same bytes were decoded before.
 */
export function cachedString(
  cache: StringCache,
  bytes: Uint8Array,
  start: number,
  length: number,
): string {
  const entry = ((length << 7) ^ (bytes[start] << 4) ^ (bytes[start + (length >> 1)] << 2) ^
    bytes[start + length - 1] ^ (bytes[start + length - 2] << 9)) & cache.mask;
  const base = entry * cache.maxBytes;
  const stored = cache.bytes;
  if (cache.lengths[entry] === length) {
    let i = 0;
    while (i < length && stored[base + i] === bytes[start + i]) i++;
    if (i === length) return cache.strings[entry];
  }
  cache.misses++; // counted on the slow path only, so a hit costs nothing more
  const text = decodeString(bytes, start, start + length);
  cache.lengths[entry] = length;
  for (let i = 0; i < length; i++) stored[base + i] = bytes[start + i];
  cache.strings[entry] = text;
  return text;
}
