// Copyright 2026 the @x/msgpackr authors. MIT license.
// Decoding time linear in the input for what other implementations' advisories name: a map of
// 200,000 distinct keys (into an object and into a Map), and 200,000 distinct record shapes (one
// value holding them, a sequence of values, a stream, and plain maps of 200,000 key sets through
// the shape tree). Every cache on the way (key cache, shape tree, record table,
// generated readers, builder pool) is bounded, and the record table keeps one undo entry per
// slot, so the types a value's definitions replace are garbage at once rather than kept.
//
// The ratio bound is 3 rather than 2: the engines' own work grows faster than the size here.
// Building a Map of 200,000 fresh strings, or an array of them, takes 2.1–2.9 times as long as
// of 100,000 on the test machine (caches, garbage collection), whoever builds it. Work that is
// quadratic in the size takes 4 times as long.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { decodeIter, pack, Packr, unpack, Unpackr } from "../mod.ts";
import { RecordTable } from "../_records/table.ts";
import type { RecordType } from "../_records/reader.ts";
import { concatBytes } from "../_core/bytes.ts";
import { assertLinear } from "./_linearity.ts";

const N = 100_000;
const MAX_RATIO = 3;

/** One object of `count` distinct keys, as one map (map32 past 65535 keys). */
function bigMap(count: number): Uint8Array {
  const object: Record<string, number> = {};
  for (let i = 0; i < count; i++) object[`key${i}`] = i;
  return new Packr({ useRecords: false, variableMapSize: true }).pack(object);
}

/** Objects each of a shape of its own (two keys no other object has), made once for every test. */
const ROWS: Record<string, number>[] = Array.from(
  { length: 2 * N },
  (_, i) => ({ [`a${i}`]: i, [`b${i}`]: 1 }),
);

/** The row `i` of {@linkcode ROWS}. */
function row(i: number): Record<string, number> {
  return { [`a${i}`]: i, [`b${i}`]: 1 };
}

/** `make(rows)` of the first `count` rows, made once per count. */
function cached<T>(make: (rows: Record<string, number>[]) => T): (count: number) => T {
  const made = new Map<number, T>();
  return (count) => {
    let value = made.get(count);
    if (value === undefined) made.set(count, value = make(ROWS.slice(0, count)));
    return value;
  };
}

/** msgpackr's sequential Packr, one message per object: a definition in every one. */
const theirSequence = cached((rows) => {
  const packr = new msgpackr.Packr({ sequential: true });
  return rows.map((item) => new Uint8Array(packr.pack(item)));
});

describe("decoding time is linear in the input", () => {
  test("a map of 200,000 distinct keys into an object", () => {
    const decoded = assertLinear(
      "unpack() of one map",
      (size) => {
        const bytes = bigMap(size);
        return () => unpack(bytes);
      },
      N,
      { maxRatio: MAX_RATIO },
    ) as Record<string, number>;
    assert.equal(Object.keys(decoded).length, 2 * N);
    assert.equal(decoded[`key${2 * N - 1}`], 2 * N - 1);
  });

  test("a map of 200,000 distinct keys into a Map", () => {
    const decoder = new Unpackr({ mapsAsObjects: false });
    const decoded = assertLinear(
      "Unpackr({ mapsAsObjects: false }).unpack() of one map",
      (size) => {
        const bytes = bigMap(size);
        return () => decoder.unpack(bytes);
      },
      N,
      { maxRatio: MAX_RATIO },
    ) as Map<string, number>;
    assert.equal(decoded.size, 2 * N);
    assert.equal(decoded.get("key12345"), 12345);
  });

  test("one value of 200,000 distinct record shapes (our Packr)", () => {
    const rows = assertLinear(
      "Unpackr.unpack() of one value of records",
      (size) => {
        const bytes = new Packr().pack(ROWS.slice(0, size));
        return () => new Unpackr().unpack(bytes);
      },
      N,
      { maxRatio: MAX_RATIO, rounds: 3 },
    ) as object[];
    assert.equal(rows.length, 2 * N);
    assert.deepEqual(rows[2 * N - 1], row(2 * N - 1));
  });

  test("200,000 messages of distinct record shapes (msgpackr's sequential Packr)", () => {
    const rows = assertLinear(
      "Unpackr({ sequential: true }).unpackMultiple()",
      (size) => {
        const bytes = concatBytes(theirSequence(size));
        return () => new Unpackr({ sequential: true }).unpackMultiple(bytes);
      },
      N,
      { maxRatio: MAX_RATIO, rounds: 3 },
    ) as object[];
    assert.equal(rows.length, 2 * N);
    assert.deepEqual(rows[123456], row(123456));
  });

  test("a stream of 200,000 messages of distinct record shapes (decodeIter)", () => {
    const rows = assertLinear(
      "decodeIter() of one message per chunk",
      (size) => {
        const chunks = theirSequence(size);
        return () => [...decodeIter(chunks)];
      },
      N,
      { maxRatio: MAX_RATIO, rounds: 3 },
    ) as object[];
    assert.equal(rows.length, 2 * N);
    assert.deepEqual(rows[2 * N - 2], row(2 * N - 2));
  });

  test("200,000 plain maps of distinct key sets (the shape tree)", () => {
    const rows = assertLinear(
      "unpack() of maps",
      (size) => {
        const bytes = pack(ROWS.slice(0, size));
        return () => unpack(bytes);
      },
      N,
      { maxRatio: MAX_RATIO, rounds: 3 },
    ) as object[];
    assert.equal(rows.length, 2 * N);
    assert.deepEqual(rows[4321], row(4321));
  });
});

describe("the record table keeps one undo entry per slot between two marks", () => {
  const typeOf = (keys: readonly string[] | null, twoByte: boolean): RecordType => ({
    keys,
    size: keys?.length ?? 0,
    twoByte,
    shared: false,
    read: () => ({}),
  });
  const table = () => new RecordTable(null, null, typeOf);

  test("10,000 definitions through 64 slots log 64 entries, and undo to the table before", () => {
    const records = table();
    const before = records.define(5, ["kept"], false);
    records.commit();
    const mark = records.mark();
    for (let i = 0; i < 10_000; i++) records.define(i % 64, [`k${i}`], false);
    assert.equal(records.undoEntries, 64);
    assert.deepEqual(records.types[63]?.keys, ["k9983"]);
    records.rollback(mark);
    assert.equal(records.undoEntries, 0);
    assert.equal(records.types[5], before);
    assert.equal(records.types.filter((type) => type !== undefined).length, 1);
  });

  test("a nested mark logs again, and each rollback lands on its own mark's table", () => {
    const records = table();
    const outer = records.mark();
    const a = records.define(1, ["a"], false);
    records.define(2, ["x"], false);
    const inner = records.mark();
    records.define(1, ["b"], false);
    records.define(1, ["c"], false);
    records.define(2, ["y"], false);
    assert.equal(records.undoEntries, 4);
    records.rollback(inner);
    assert.equal(records.types[1], a);
    assert.deepEqual(records.types[2]?.keys, ["x"]);
    // after the inner rollback, the outer region logs slot 1 again only if it must
    records.define(1, ["d"], false);
    records.define(3, ["e"], false);
    records.rollback(outer);
    assert.deepEqual(Array.from({ length: 4 }, (_, slot) => records.types[slot]), [
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  test("commit forgets the log; the next mark logs each slot once again", () => {
    const records = table();
    for (let i = 0; i < 100; i++) records.define(7, [`k${i}`], false);
    assert.equal(records.undoEntries, 1);
    records.commit();
    const kept = records.types[7];
    const mark = records.mark();
    for (let i = 0; i < 100; i++) records.define(7, [`m${i}`], false);
    assert.equal(records.undoEntries, 1);
    records.rollback(mark);
    assert.equal(records.types[7], kept);
  });
});
