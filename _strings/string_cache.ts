// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { shortWordAt, wordAt } from "../_core/bytes.ts";
import { decodeString } from "./utf8.ts";
import {
  KEY_CACHE_BITS,
  KEY_CACHE_MAX_BYTES,
  PROMOTE_AFTER,
  VALUE_CACHE_BITS,
  VALUE_CACHE_MAX_BYTES,
} from "../_core/thresholds.ts";

// Strings repeat: map keys always, and short values often (enum-like fields, hosts, statuses).
// Decoding one into a fresh string on every occurrence costs an allocation, and a fresh string
// used as a property name costs an engine lookup to internalise it. A string cache returns the
// same string object for the same bytes: a table of strings up to a maximum byte length,
// compared four bytes at a time. A string has one entry, looked at first (the hit path), and may
// also sit in the three other entries of its set of four (`cachedStringMiss`), so strings that
// pick the same entry do not keep replacing each other; one found there often moves back to its
// own entry (`foundInSet`). A table holds only strings and
// numbers, no reference to any input, and is shared safely by every decoder.

/** A cache of decoded strings: a table of entries in sets of four. */
export interface StringCache {
  /** Byte length of each entry's string; -1 for an empty entry. */
  readonly lengths: Int8Array;
  /** Each entry's `maxBytes / 4` words, from `entry * maxBytes / 4` (layout: `cachedString`). */
  readonly words: Int32Array;
  readonly strings: string[];
  /** 32 - log2(entries): a hash's top bits pick the entry. */
  readonly shift: number;
  readonly maxBytes: number;
  /** Lookups that were not answered from this cache so far (callers compare two readings). */
  misses: number;
  /**
   * Per entry: lookups for it answered from another entry of its set since its string last
   * changed (see `foundInSet`).
   */
  readonly strikes: Uint8Array;
}

/** Creates a cache of 2^`bits` strings of up to `maxBytes` (a multiple of 4, < 128) bytes. */
function createStringCache(bits: number, maxBytes: number): StringCache {
  const entries = 1 << bits;
  return {
    lengths: new Int8Array(entries).fill(-1),
    words: new Int32Array(entries * (maxBytes >> 2)),
    strings: new Array(entries).fill(""),
    shift: 32 - bits,
    maxBytes,
    misses: 0,
    strikes: new Uint8Array(entries),
  };
}

/** The cache for map keys: 4096 keys of up to 32 bytes. */
export const keyCache: StringCache = createStringCache(KEY_CACHE_BITS, KEY_CACHE_MAX_BYTES);
/**
 * The cache for short string values: 2048 strings of up to 16 bytes (looked up through the
 * input's view where it has one: see `valueEntry` in `_decode/decoder.ts`).
 */
export const valueCache: StringCache = createStringCache(VALUE_CACHE_BITS, VALUE_CACHE_MAX_BYTES);

/**
 * Decodes the `length`-byte string at `start` (1 ≤ `length` ≤ `cache.maxBytes`), from the cache
 * when the same bytes were decoded before.
 *
 * An entry keeps its bytes as 32-bit words, compared without a loop for strings of up to 8
 * bytes (a byte loop's exit is mispredicted once per string):
 *   length ≥ 4: word 0 = bytes [0, 4), word 1 = bytes [length - 4, length) (they overlap below
 *               8 bytes), then the words at 4, 8, … while before length - 4;
 *   length < 4: word 0 = `shortWordAt` (bytes 0, length / 2 and length - 1: every byte),
 *               word 1 = 0.
 * The entry is a hash of words 0 and 1 and a `salt`: the length, mixed with the word at 4 when the
 * string is over 8 bytes long (strings that differ only there, such as `blob-1.bin` and
 * `blob-2.bin`, would otherwise all pick one entry). The decoder's `valueEntry`
 * (`_decode/decoder.ts`) computes the same entry with the same multipliers.
 */
export function cachedString(
  cache: StringCache,
  bytes: Uint8Array,
  start: number,
  length: number,
): string {
  const first = length >= 4 ? wordAt(bytes, start) : shortWordAt(bytes, start, length);
  const last = length >= 4 ? wordAt(bytes, start + length - 4) : 0;
  const salt = length > 8 ? wordAt(bytes, start + 4) ^ length : length;
  const entry = Math.imul(first ^ Math.imul(last + salt, ENTRY_HASH_A), ENTRY_HASH_B) >>>
    cache.shift;
  return holds(cache, entry, bytes, null, start, length, first, last, salt)
    ? cache.strings[entry]
    : cachedStringMiss(cache, entry, bytes, start, length, first, last);
}

/** The multipliers of the entry's hash (see {@linkcode cachedString}). */
export const ENTRY_HASH_A = 0x9e3779b1;
export const ENTRY_HASH_B = 0x85ebca6b;

/**
 * The hit test: whether `entry` holds the `length`-byte string at `start` whose first and last
 * words are `first` and `last`, and `salt` as {@linkcode cachedString} makes it (`view` a DataView
 * of `bytes`, or null: see `restMatches`). Small,
 * so that both engines inline it where a string is looked up.
 */
export function holds(
  cache: StringCache,
  entry: number,
  bytes: Uint8Array,
  view: DataView | null,
  start: number,
  length: number,
  first: number,
  last: number,
  salt: number,
): boolean {
  const base = entry * (cache.maxBytes >> 2);
  const words = cache.words;
  // the second word is in `salt` already: one load and one loop turn less for 9..16 bytes
  return cache.lengths[entry] === length && words[base] === first && words[base + 1] === last &&
    (length <= 8 ||
      words[base + 2] === (salt ^ length) &&
        restMatches(words, base + 3, bytes, view, start + 4, length - 4));
}

const VALUE_LENGTHS = valueCache.lengths;
const VALUE_WORDS = valueCache.words;
const VALUE_STRIDE = valueCache.maxBytes >> 2;

/**
 * The value cache's hit test, for the decoder's two lookups of short strings: {@linkcode holds}
 * for `valueCache`, with its tables as constants and its strings of at most 16 bytes read through
 * a view, so that the engines inline it whole where it is called.
 * Chosen by measurement: npm run bench:ab:deno (strings2.json).
 */
export function valueHit(
  entry: number,
  length: number,
  first: number,
  last: number,
  salt: number,
  view: DataView,
  start: number,
): boolean {
  const base = entry * VALUE_STRIDE;
  return VALUE_LENGTHS[entry] === length && VALUE_WORDS[base] === first &&
    VALUE_WORDS[base + 1] === last &&
    (length <= 8 || VALUE_WORDS[base + 2] === (salt ^ length) &&
        (length <= 12 || VALUE_WORDS[base + 3] === view.getInt32(start + 8, true)));
}

/**
 * Whether the words of the `length`-byte string at `start` between its first and last (none up to
 * 8 bytes) are `words[word]` and on: read through `view` (a DataView of `bytes`) when there is one,
 * else byte by byte. The one comparison of kept words, for both caches and the shape trees.
 */
export function restMatches(
  words: Int32Array,
  word: number,
  bytes: Uint8Array,
  view: DataView | null,
  start: number,
  length: number,
): boolean {
  for (let at = start + 4, end = start + length - 4; at < end; at += 4) {
    if ((view !== null ? view.getInt32(at, true) : wordAt(bytes, at)) !== words[word++]) {
      return false;
    }
  }
  return true;
}

/**
 * The slow path of a lookup whose string is not in `entry` (its first and last words as in
 * {@linkcode cachedString}): from another entry of its set of four (`entry ^ 1`, `^ 2`, `^ 3`)
 * when the string is there, else decoded and kept in `entry`; the string that was there moves to
 * an empty entry of the set, or replaces one of the others in turn. So up to four strings that
 * pick the same entry, or neighbouring ones, all stay cached instead of replacing each other on
 * every occurrence.
 */
export function cachedStringMiss(
  cache: StringCache,
  entry: number,
  bytes: Uint8Array,
  start: number,
  length: number,
  first: number,
  last: number,
): string {
  const words = cache.words;
  const lengths = cache.lengths;
  const stride = cache.maxBytes >> 2;
  const salt = length > 8 ? wordAt(bytes, start + 4) ^ length : length;
  for (let other = 1; other < 4; other++) {
    if (holds(cache, entry ^ other, bytes, null, start, length, first, last, salt)) {
      return foundInSet(cache, entry, entry ^ other);
    }
  }
  cache.misses++; // counted on the slow path only, so a hit costs nothing more
  const text = decodeString(bytes, start, start + length);
  const base = entry * stride;
  if (lengths[entry] >= 0) {
    // the entry's string moves: to an empty entry of the set, else over one of them in turn
    let victim = entry ^ (1 + cache.misses % 3);
    for (let other = 1; other < 4; other++) {
      if (lengths[entry ^ other] < 0) {
        victim = entry ^ other;
        break;
      }
    }
    const victimBase = victim * stride;
    lengths[victim] = lengths[entry];
    cache.strings[victim] = cache.strings[entry];
    for (let word = 0; word < stride; word++) words[victimBase + word] = words[base + word];
  }
  lengths[entry] = length;
  cache.strikes[entry] = 0;
  words[base] = first;
  words[base + 1] = last;
  for (let offset = 4, word = base + 2; offset < length - 4; offset += 4, word++) {
    words[word] = wordAt(bytes, start + offset);
  }
  cache.strings[entry] = text;
  return text;
}

/**
 * The string in entry `found`, which a lookup for `entry` found there (another entry of its set):
 * after PROMOTE_AFTER such lookups for `entry` it swaps places with the string in `entry`
 * (`promote`), so the next lookups' hit test finds it at once. Without the move, a string pushed
 * out of its entry by one that came once (a run of unique names, say) would stay on the slow path
 * for good. The count keeps two strings of one entry that are used in turn from swapping at every
 * lookup, where each swap would cost more than the slow-path lookups it saves: at this count
 * such a pair costs about what it would if strings never moved back.
 */
function foundInSet(cache: StringCache, entry: number, found: number): string {
  if (++cache.strikes[entry] < PROMOTE_AFTER) return cache.strings[found];
  return promote(cache, entry, found);
}

/** Swaps the strings of entries `entry` and `found` and returns the one now in `entry`. */
function promote(cache: StringCache, entry: number, found: number): string {
  const { lengths, words, strings, strikes } = cache;
  strikes[entry] = 0;
  const stride = cache.maxBytes >> 2;
  const length = lengths[entry];
  lengths[entry] = lengths[found];
  lengths[found] = length;
  const text = strings[found];
  strings[found] = strings[entry];
  strings[entry] = text;
  for (let word = 0, a = entry * stride, b = found * stride; word < stride; word++, a++, b++) {
    const kept = words[a];
    words[a] = words[b];
    words[b] = kept;
  }
  return text;
}
