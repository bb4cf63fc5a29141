// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { decodeString } from "./_utf8.ts";

// Map keys repeat. Decoding one into a fresh string on every occurrence costs an allocation, and
// using a fresh string as a property name costs an engine lookup to internalise it. The cache
// returns the same string object for the same key bytes: a direct-mapped table of 4096 entries
// (a collision replaces the entry), keys up to 32 bytes, compared byte for byte. The table holds
// only strings and bytes, no reference to any input, and is shared safely by every decoder.

const ENTRIES = 4096;
const MAX_KEY_BYTES = 32;
const keyLengths = new Int8Array(ENTRIES).fill(-1);
const keyBytes = new Uint8Array(ENTRIES * MAX_KEY_BYTES);
const keyStrings: string[] = new Array(ENTRIES).fill("");

/** Decodes the `length`-byte string key at `start`, from the cache when it was seen before. */
export function readKeyCached(bytes: Uint8Array, start: number, length: number): string {
  if (length > MAX_KEY_BYTES || length === 0) return decodeKey(bytes, start, length);
  const last = bytes[start + length - 1];
  const entry = ((length << 7) ^ (bytes[start] << 4) ^ (bytes[start + (length >> 1)] << 2) ^ last ^
    (bytes[start + length - 2] << 9)) & (ENTRIES - 1);
  if (keyLengths[entry] === length) {
    const base = entry * MAX_KEY_BYTES;
    let i = 0;
    while (i < length && keyBytes[base + i] === bytes[start + i]) i++;
    if (i === length) return keyStrings[entry];
  }
  const key = decodeKey(bytes, start, length);
  keyLengths[entry] = length;
  keyBytes.set(bytes.subarray(start, start + length), entry * MAX_KEY_BYTES);
  keyStrings[entry] = key;
  return key;
}

function decodeKey(bytes: Uint8Array, start: number, length: number): string {
  return decodeString(bytes, start, start + length);
}
