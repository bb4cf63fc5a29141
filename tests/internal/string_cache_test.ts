// Copyright 2026 the @x/msgpackr authors. MIT license.
// The decoder's string caches (`_strings/string_cache.ts`): map keys and short string values come from a
// table in sets of four entries. These tests pin that strings which pick the same entry, or which
// differ only in bytes the entry is not chosen by, stay cached together (a second decode of the
// same strings misses nothing) and are never returned for one another, through both readers
// (small inputs read words from the bytes, inputs of EAGER_VIEW_MIN_INPUT bytes and more through
// a DataView) and for keys and values.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { pack, unpack } from "../../mod.ts";
import { keyCache, type StringCache, valueCache } from "../../_strings/string_cache.ts";
import { EAGER_VIEW_MIN_INPUT } from "../../_core/thresholds.ts";

/** Empties a cache, so a test sees only its own strings in it. */
function empty(cache: StringCache): void {
  cache.lengths.fill(-1);
  cache.strings.fill("");
  cache.strikes.fill(0);
}

/** A string over 16 bytes: in an input, never cached, and long enough to make it large. */
const PADDING = "x".repeat(EAGER_VIEW_MIN_INPUT);

/** The misses of `cache` while `run` runs. */
function missesOf(cache: StringCache, run: () => void): number {
  const before = cache.misses;
  run();
  return cache.misses - before;
}

/** Decodes `strings` as array values and as map keys, in a small input and in a large one. */
function decodeAll(strings: string[]): void {
  const values = pack(strings);
  const large = pack([...strings, PADDING]);
  const keys = pack(Object.fromEntries(strings.map((text, i) => [text, i])));
  const largeKeys = pack(Object.fromEntries([...strings, PADDING].map((text, i) => [text, i])));
  assert.ok(values.length < EAGER_VIEW_MIN_INPUT && large.length >= EAGER_VIEW_MIN_INPUT);
  assert.deepEqual(unpack(values), strings);
  assert.deepEqual(unpack(large), [...strings, PADDING]);
  assert.deepEqual(Object.keys(unpack(keys) as object), strings);
  assert.deepEqual(Object.keys(unpack(largeKeys) as object), [...strings, PADDING]);
}

/**
 * Strings of `length` (13..16) bytes that differ only in byte 8, which no entry is chosen by (an
 * entry is chosen by bytes 0..7 and the last four): they all pick one entry.
 */
function sameEntryStrings(count: number, length: number): string[] {
  return Array.from(
    { length: count },
    (_, i) => "abcdefgh" + (String.fromCharCode(65 + i) + "000").slice(0, length - 12) + "WXYZ",
  );
}

describe("string caches", () => {
  test("strings that differ only in their middle bytes each stay cached (blob-1.bin, blob-2.bin)", () => {
    const strings = [
      ...Array.from({ length: 16 }, (_, i) => `blob-${i}.bin`),
      ...Array.from({ length: 10 }, (_, i) => `item-${i}-name`),
    ];
    empty(valueCache);
    empty(keyCache);
    decodeAll(strings);
    assert.equal(missesOf(valueCache, () => decodeAll(strings)), 0);
    assert.equal(missesOf(keyCache, () => decodeAll(strings)), 0);
  });

  test("up to four strings that pick the same entry all stay cached", () => {
    for (const length of [13, 16]) {
      const strings = sameEntryStrings(4, length);
      assert.equal(new Set(strings).size, 4);
      empty(valueCache);
      empty(keyCache);
      decodeAll(strings);
      assert.equal(missesOf(valueCache, () => decodeAll(strings)), 0, `length ${length}`);
      assert.equal(missesOf(keyCache, () => decodeAll(strings)), 0, `length ${length}`);
    }
  });

  test("strings in the same set are never returned for one another", () => {
    // more strings than a set holds, in changing orders: every lookup is checked by the decode
    for (const length of [13, 14, 16]) {
      const strings = sameEntryStrings(7, length);
      empty(valueCache);
      empty(keyCache);
      for (let round = 0; round < 7; round++) {
        const order = strings.map((_, i) => strings[(i * (round + 2)) % strings.length]);
        decodeAll([...new Set(order)]);
        decodeAll(strings.slice(round % 3, round % 3 + 4));
      }
    }
  });

  test("a string pushed out of its entry moves back after 32 lookups find it in its set", () => {
    for (const large of [false, true]) {
      const [kept, once] = sameEntryStrings(2, 13);
      const lookups = (text: string, count: number) => {
        const strings = Array.from({ length: count }, () => text);
        const value = large ? [...strings, PADDING] : strings;
        assert.deepEqual(unpack(pack(value)), value);
      };
      empty(valueCache);
      lookups(kept, 1);
      const own = valueCache.strings.indexOf(kept);
      lookups(once, 1); // takes the entry; `kept` moves to another entry of the set
      const other = valueCache.strings.indexOf(kept);
      assert.equal(valueCache.strings[own], once);
      assert.notEqual(other, own);
      // found in the set, without a miss; it stays there for 31 lookups, moves at the 32nd
      assert.equal(missesOf(valueCache, () => lookups(kept, 31)), 0);
      assert.equal(valueCache.strings.indexOf(kept), other, `large: ${large}`);
      assert.equal(missesOf(valueCache, () => lookups(kept, 1)), 0);
      assert.equal(valueCache.strings[own], kept, `large: ${large}`);
      assert.equal(valueCache.strings[other], once, "the two swapped places");
      // and both are still answered right, in turn, without a miss
      assert.equal(missesOf(valueCache, () => decodeAll([kept, once])), 0);
    }
  });

  test("the decoder's hit test looks where cachedString keeps a string", () => {
    // `read` and `readStringElements` compute the entry themselves (`valueEntry`, the hash
    // written out): a string kept by a small input's lookup (`cachedString`) must be found by
    // both
    const strings = Array.from({ length: 40 }, (_, i) => `s${i}-${"x".repeat(i % 12)}`);
    empty(valueCache);
    assert.deepEqual(unpack(pack(strings)), strings);
    const elements = [...strings, PADDING];
    assert.equal(missesOf(valueCache, () => assert.deepEqual(unpack(pack(elements)), elements)), 0);
    const map: Record<string, string> = Object.fromEntries(
      strings.map((text, i) => [`k${i}`, text]),
    );
    map.padding = PADDING;
    assert.equal(missesOf(valueCache, () => assert.deepEqual(unpack(pack(map)), map)), 0);
  });

  test("a 200-string vocabulary stays cached: once it is in, a decode misses nothing", () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${(i * 7919) % 100000}`);
    const bytes = pack([...words, PADDING]);
    empty(valueCache);
    assert.deepEqual(unpack(bytes), [...words, PADDING]);
    assert.equal(
      missesOf(valueCache, () => assert.deepEqual(unpack(bytes), [...words, PADDING])),
      0,
    );
  });
});
