// Copyright 2026 the @x/msgpackr authors. MIT license.
// The boundary scanner behind UnpackrStream: for every kind of header of msgpackr's dialect it
// finds exactly where a top-level value ends, resumes at any byte, never claims more bytes than
// the value has (so the incomplete-value bound cannot reject a value that fits), and hands what
// it cannot follow to the decoder.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Packr, type PackrOptions, Unpackr, type UnpackrOptions } from "../../mod.ts";
import { decodeContextOf } from "../../_decode/context.ts";
import {
  COMPLETE,
  INVALID,
  NEED_MORE,
  type ScanResult,
  UNCERTAIN,
  ValueScanner,
} from "../../_stream/value_scanner.ts";
import { fromHex } from "../_util.ts";
import { benchValues, concat } from "../_stream_util.ts";

const BENCH = await benchValues();

/** Scans `bytes` whole (plus junk after it) with a fresh scanner. */
function scanWhole(bytes: Uint8Array, unpackr: Unpackr = new Unpackr()): [ScanResult, number] {
  const scanner = new ValueScanner();
  scanner.reset();
  const padded = concat([bytes, Uint8Array.from([0xc1, 0xdb, 0xff, 0xff])]);
  const result = scanner.scan(padded, padded.length, decodeContextOf(unpackr));
  return [result, scanner.end];
}

/**
 * Feeds `bytes` one byte more at a time and asserts: NEED_MORE for every proper prefix with
 * `prefix < needEnd <= bytes.length`, then COMPLETE at exactly `bytes.length`.
 */
function assertEndFound(bytes: Uint8Array, unpackr: Unpackr = new Unpackr(), label = ""): void {
  const context = decodeContextOf(unpackr);
  const scanner = new ValueScanner();
  scanner.reset();
  for (let length = 0; length < bytes.length; length++) {
    const result = scanner.scan(bytes, length, context);
    assert.equal(result, NEED_MORE, `${label} prefix ${length}`);
    assert.ok(scanner.needEnd > length, `${label} needEnd ${scanner.needEnd} at ${length}`);
    assert.ok(
      scanner.needEnd <= bytes.length,
      `${label} needEnd ${scanner.needEnd} > ${bytes.length}`,
    );
  }
  assert.equal(scanner.scan(bytes, bytes.length, context), COMPLETE, label);
  assert.equal(scanner.end, bytes.length, label);
  assert.deepEqual(scanWhole(bytes, unpackr), [COMPLETE, bytes.length], label);
}

/** Each value packed alone by a fresh Packr, scanned with that Packr's own decoding context. */
function assertPackedEnds(values: readonly unknown[], options: PackrOptions = {}): void {
  for (const [index, value] of values.entries()) {
    const packr = new Packr(options);
    assertEndFound(packr.pack(value), packr, `value ${index}`);
  }
}

describe("ValueScanner standard MessagePack", () => {
  test("ValueScanner finds the end of every header kind", () => {
    const cases = [
      "00",
      "7f",
      "e0",
      "ff",
      "c0",
      "c2",
      "c3",
      "c1", // fixints, nil, bools, C1
      "cc 80",
      "cd 01 00",
      "ce 00 01 00 00",
      "cf 00 00 00 01 00 00 00 00",
      "d0 80",
      "d1 80 00",
      "d2 80 00 00 00",
      "d3 80 00 00 00 00 00 00 00",
      "ca 3f c0 00 00",
      "cb 3f f8 00 00 00 00 00 00",
      "a0",
      "a3 61 62 63",
      "d9 02 61 62",
      "da 00 02 61 62",
      "db 00 00 00 02 61 62",
      "c4 02 01 02",
      "c5 00 02 01 02",
      "c6 00 00 00 02 01 02",
      "90",
      "93 01 02 03",
      "dc 00 02 01 02",
      "dd 00 00 00 02 01 02",
      "80",
      "82 a1 61 01 a1 62 92 01 02",
      "de 00 01 01 02",
      "df 00 00 00 01 01 02",
      "d4 00 00",
      "d6 ff 00 00 00 01",
      "d7 ff 00 00 00 00 00 00 00 01",
      "c7 0c ff 00 00 00 00 00 00 00 00 00 00 00 01",
      "c8 00 01 00 00",
      "c9 00 00 00 01 00 00",
      "d8 42 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00",
      "d5 42 01 00",
      "c7 02 74 01 05",
      "94 91 90 81 c0 80 a0 dc 00 00", // nesting, empty containers
    ];
    for (const hex of cases) assertEndFound(fromHex(hex), new Unpackr(), hex);
  });

  test("ValueScanner finds the end of the bench data values", () => {
    for (const value of BENCH) assertEndFound(new Packr({ useRecords: false }).pack(value));
  });

  test("ValueScanner reads 0x40..0x7f as integers when no structure is defined", () => {
    assertEndFound(fromHex("92 40 7f"));
    assertEndFound(fromHex("40"));
  });

  test("ValueScanner gives the least end a header promises for long payloads", () => {
    const scanner = new ValueScanner();
    scanner.reset();
    const context = decodeContextOf(new Unpackr());
    const bytes = fromHex("92 db 00 01 00 00 61");
    assert.equal(scanner.scan(bytes, bytes.length, context), NEED_MORE);
    // the array's second element needs one byte more after the string
    assert.equal(scanner.needEnd, 1 + 5 + 0x10000 + 1);
  });
});

describe("ValueScanner msgpackr's dialect", () => {
  test("ValueScanner follows records defined and referenced inside one value", () => {
    assertPackedEnds([
      { a: 1 },
      [{ a: 1 }, { a: 2 }, { b: { c: [1, { a: 3 }] } }],
      Array.from({ length: 70 }, (_, i) => ({ [`k${i}`]: i })), // ids wrap within the value
      { empty: {} },
      ...BENCH,
    ]);
  });

  test("ValueScanner uses definitions from earlier values (sequential)", () => {
    const packr = new Packr({ sequential: true });
    const unpackr = new Unpackr({ sequential: true });
    for (let i = 0; i < 80; i++) {
      const bytes = packr.pack({ [`shape${i % 40}`]: i, more: [i, { x: i }] });
      assertEndFound(bytes, unpackr, `value ${i}`);
      unpackr.unpackMultiple(bytes); // commits the definitions, as the stream decoder does
    }
  });

  test("ValueScanner follows shared structures with one- and two-byte ids", () => {
    const structures: string[][] = [];
    const packr = new Packr({ structures, maxSharedStructures: 200 });
    const values = Array.from(
      { length: 120 },
      (_, i) => ({ [`s${i}`]: i, list: [{ [`s${i}`]: 0 }] }),
    );
    for (const value of values) packr.pack(value);
    assert.ok(structures.length > 64);
    const unpackr = new Unpackr({ structures });
    for (const value of values) assertEndFound(packr.pack(value), unpackr);
  });

  test("ValueScanner follows two-byte inline definitions and their references", () => {
    assertEndFound(fromHex("93 d5 72 64 02 91 a1 61 01 64 02 02 d5 72 61 00 91 a1 62 03"));
    assertEndFound(fromHex("92 d5 72 61 00 91 a1 62 03 61 00 04"));
  });

  test("ValueScanner asks getStructures for an unknown id once, as the decoder does", () => {
    const structures: string[][] = [];
    const packr = new Packr({ structures });
    const bytes = packr.pack([{ p: 1, q: 2 }, { p: 3, q: 4 }]);
    let calls = 0;
    const unpackr = new Unpackr({
      getStructures: () => {
        calls++;
        return structures;
      },
    });
    assertEndFound(bytes, unpackr);
    assert.ok(calls >= 1);
    // without the structures, 0x40 is an integer and the scanner says so
    assert.deepEqual(scanWhole(fromHex("92 40 01"), new Unpackr({ getStructures: () => [] })), [
      COMPLETE,
      3,
    ]);
  });

  test("ValueScanner follows string bundles to the end of their strings", () => {
    const words = Array.from({ length: 4000 }, (_, i) => `w${i} ${"ü".repeat(i % 5)}`);
    assertPackedEnds([
      ["abcd", "héllo", "xy", "efgh"],
      [{ name: "abcd" }, { name: "efgh" }],
      { list: words.slice(0, 50) },
    ], { bundleStrings: true });
    // long values: check whole scans and a coarse set of prefixes
    for (const value of [words, Array.from({ length: 12 }, () => "€".repeat(4000))]) {
      const bytes = new Packr({ bundleStrings: true }).pack(value);
      assert.deepEqual(scanWhole(bytes), [COMPLETE, bytes.length]);
      const scanner = new ValueScanner();
      scanner.reset();
      const context = decodeContextOf(new Unpackr());
      for (let length = 0; length < bytes.length; length += 997) {
        assert.equal(scanner.scan(bytes, length, context), NEED_MORE);
        assert.ok(scanner.needEnd <= bytes.length);
      }
      assert.equal(scanner.scan(bytes, bytes.length, context), COMPLETE);
      assert.equal(scanner.end, bytes.length);
    }
  });

  test("ValueScanner follows structured clone ids, pointers and typed extensions", () => {
    const shared = { s: 1 };
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assertPackedEnds([
      [shared, shared],
      cyclic,
      new Set([1, shared, new Set([2])]),
      new Error("e", { cause: new RangeError("r") }),
      /x+/g,
      new Uint16Array([1, 2, 3]),
      new ArrayBuffer(5),
      { when: new Date(-1), huge: 2n ** 100n, nothing: undefined },
    ], { structuredClone: true });
  });

  test("ValueScanner treats an instance's read-style extensions as tags", () => {
    class Pair {
      constructor(public left: unknown, public right: unknown) {}
    }
    const packr = new Packr();
    packr.addExtension({
      Class: Pair,
      type: 23,
      write: (pair: Pair) => [pair.left, pair.right],
      read: (data) => new Pair(...(data as [unknown, unknown])),
    });
    for (const value of [new Pair(1, [2, 3]), [new Pair({ a: 1 }, new Pair(null, "x"))]]) {
      const bytes = packr.pack(value);
      assertEndFound(bytes, packr);
      // without the extension, `d4 17 00` is an unknown extension
      assert.equal(scanWhole(bytes)[0], INVALID);
    }
  });
});

describe("ValueScanner leaves doubtful bytes to the decoder", () => {
  const cases: [string, string, ScanResult][] = [
    ["an unknown fixext1 type", "92 01 d4 07 00", INVALID],
    ["an unknown ext8 type", "c7 01 05 00", INVALID],
    ["a record definition of an ext8", "c7 01 72 40", INVALID],
    ["a too short bundle", "d5 62 00 00 c0", INVALID],
    ["a bundle pointing backwards", "d6 62 00 00 00 00 c0", INVALID],
    ["bundle strings that are not strings", "d6 62 00 00 00 04 c0 c0 c0", INVALID],
    ["a two-byte definition with a low id", "d5 72 05 00 91 a1 61 01", INVALID],
    ["a reference id of the wrong length", "c7 02 69 00 00 c0", INVALID],
    ["record keys that are not an array", "d4 72 40 a1 61 01", UNCERTAIN],
    ["an undefined two-byte id", "92 d5 72 61 00 91 a1 61 01 61 05", INVALID],
  ];
  for (const [what, hex, expected] of cases) {
    test(`ValueScanner reports ${what}`, () => {
      assert.equal(scanWhole(fromHex(hex))[0], expected);
      // and the decoder indeed rejects it
      assert.throws(() => new Unpackr().unpack(fromHex(hex)));
    });
  }

  test("ValueScanner rejects reference ids when structuredClone is false", () => {
    const shared = { same: true };
    const bytes = new Packr({ structuredClone: true }).pack([shared, shared]);
    const options: UnpackrOptions = { structuredClone: false };
    assert.equal(scanWhole(bytes, new Unpackr(options))[0], INVALID);
    assert.deepEqual(scanWhole(bytes), [COMPLETE, bytes.length]);
  });

  test("ValueScanner keeps its verdict once it failed", () => {
    const scanner = new ValueScanner();
    scanner.reset();
    const context = decodeContextOf(new Unpackr());
    const bytes = fromHex("d4 07 00 01");
    assert.equal(scanner.scan(bytes, 4, context), INVALID);
    assert.equal(scanner.scan(bytes, 4, context), INVALID);
    scanner.reset();
    assert.equal(scanner.scan(fromHex("01"), 1, context), COMPLETE);
  });
});
