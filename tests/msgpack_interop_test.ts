// Copyright 2026 the @x/msgpackr authors. MIT license.
// Interop both ways with @msgpack/msgpack 3.1.3, the reference JavaScript implementation: what its
// `encode` writes our `unpack` reads, and what our `pack` writes its `decode` reads, to the same
// values, on a corpus of every integer boundary, floats, every string and binary length class,
// containers at every header boundary and deeply nested, and every timestamp form.
//
// The options each side needs, and why:
// - integers beyond 32 bits: @msgpack/msgpack writes a safe integer as uint64/int64 (`cf`/`d3`),
//   which our decoders read as a bigint by default; `int64AsType: "auto"` reads it as the number
//   (and `unpack`'s bigint is checked to be the same integer). We write those numbers as float64,
//   which it reads as the number.
// - bigints: it writes them only with `useBigInt64: true` (then safe integers beyond 32 bits as
//   float64), and reads 64-bit integers as bigints only with `useBigInt64: true`; our `unpack`
//   reads them as bigints, and our `pack` writes bigints as `cf`/`d3`.
// - objects of 65536 keys and more: our `pack` writes objects as map16 and needs
//   `variableMapSize: true` beyond it (as msgpackr); `Map`s need nothing.
// - nesting: its encoder refuses depths beyond its `maxDepth` (100); the deep cases raise it.
// - timestamps with nanoseconds: it writes them from a `{ sec, nsec }` (its
//   `encodeTimeSpecToTimestamp`, as an `ExtData` of type -1); we read the millisecond that
//   contains the instant, toward the past before 1970.
// What the two libraries do differently is asserted as such: -0 is written as the integer 0 by
// both (both read it back as 0); it writes a `Map` as an empty map (it encodes a Map's own
// enumerable properties, which it has none of), so Maps only go our way.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  decode as theirDecode,
  decodeTimestampToTimeSpec,
  encode as theirEncode,
  encodeDateToTimeSpec,
  encodeTimeSpecToTimestamp,
  ExtData,
} from "@msgpack/msgpack";
import { FLOAT32_OPTIONS, pack, Packr, unpack, Unpackr } from "../mod.ts";
import { BOUNDARY_INTEGERS } from "./_canonical_corpus.ts";
import { asciiText, BIGINTS, DATES, FLOATS, INTEGERS, utf8Text } from "./_corpus.ts";
import { comparable } from "./_interop.ts";
import { hex } from "./_util.ts";

/** One value of the corpus. */
interface Case {
  name: string;
  value: unknown;
}

function show(value: unknown): string {
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
  return String(value);
}

/** Integers at every header boundary: the shared corpus's, the canonical corpus's and more. */
const INTEGER_BOUNDARIES: readonly number[] = [
  ...new Set([...INTEGERS, ...BOUNDARY_INTEGERS, 2 ** 32 + 1, -(2 ** 40)]),
];

const INT64_EXTREMES: readonly bigint[] = [
  ...new Set([...BIGINTS, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 64n - 1n, 0n]),
];

/** Non-integers that float32 holds exactly (what `useFloat32` / `forceFloat32` may write). */
const FLOAT32_EXACT: readonly number[] = [
  0.5,
  -0.25,
  1.5,
  3.140000104904175, // Math.fround(3.14)
  0.10000000149011612, // Math.fround(0.1)
  -1234.5,
  1.401298464324817e-45, // smallest subnormal float32
  1.1754943508222875e-38, // smallest normal float32
];

/** Strings whose UTF-8 length is at every str header boundary, in 1-, 2-, 3- and 4-byte text. */
function strings(): Case[] {
  const cases: Case[] = [{ name: "empty string", value: "" }];
  for (const length of [1, 31, 32, 255, 256, 65535, 65536]) {
    cases.push({ name: `ASCII string of ${length} bytes`, value: asciiText(length) });
    for (const [label, unit] of [["2-byte", "é"], ["3-byte", "€"], ["emoji", "🍺"]] as const) {
      cases.push({ name: `${label} string of ${length} bytes`, value: utf8Text(length, unit) });
    }
  }
  cases.push({ name: "emoji pairs", value: "👩‍👩‍👧‍👦🏳️‍🌈😀🍺".repeat(20) });
  cases.push({ name: "code point edges", value: "\u0000\u007f\u0080\u07ff\u0800\uffff\u{10000}" });
  return cases;
}

function binaries(): Case[] {
  return [0, 1, 31, 32, 255, 256, 65535, 65536].map((length) => ({
    name: `bin of ${length} bytes`,
    value: Uint8Array.from({ length }, (_, i) => (i * 31 + 7) & 0xff),
  }));
}

function objectOf(count: number): Record<string, number> {
  const object: Record<string, number> = {};
  for (let i = 0; i < count; i++) object[`k${i}`] = i;
  return object;
}

function nested(depth: number, wrap: (inner: unknown, level: number) => unknown): unknown {
  let value: unknown = "bottom";
  for (let level = 0; level < depth; level++) value = wrap(value, level);
  return value;
}

/** Arrays and objects at the fix/16/32 boundaries, nested, and deep. */
function containers(): Case[] {
  const cases: Case[] = [];
  for (const length of [0, 1, 15, 16, 65535, 65536]) {
    cases.push({ name: `array of ${length}`, value: Array.from({ length }, (_, i) => i % 300) });
    cases.push({ name: `object of ${length} keys`, value: objectOf(length) });
  }
  cases.push({ name: "arrays of arrays", value: [[], [[]], [[1, [2, [3]]]], Array(16).fill([])] });
  cases.push({
    name: "objects of objects",
    value: { a: {}, b: { c: { d: {} } }, e: [{}, { f: 1 }] },
  });
  cases.push({
    name: "mixed values",
    value: [null, true, false, 1, -1, 1.5, "s", [], {}, new Uint8Array([1]), new Date(5)],
  });
  cases.push({ name: "arrays nested 99 deep", value: nested(99, (inner) => [inner]) });
  cases.push({ name: "objects nested 99 deep", value: nested(99, (inner) => ({ child: inner })) });
  cases.push({
    name: "arrays and objects nested 99 deep in turn",
    value: nested(99, (inner, level) => level % 2 === 0 ? [level, inner] : { level, inner }),
  });
  return cases;
}

/** Valid Dates at every timestamp form's edges (32, 64 and 96 bits, before 1970). */
const VALID_DATES: readonly Date[] = DATES.filter((date) => !Number.isNaN(date.getTime()));

/** Instants with nanoseconds in every timestamp form, and the Date we read for each. */
const TIME_SPECS: readonly { sec: number; nsec: number; form: number }[] = [
  { sec: 0, nsec: 0, form: 32 },
  { sec: 2 ** 32 - 1, nsec: 0, form: 32 },
  { sec: 0, nsec: 1, form: 64 },
  { sec: 1, nsec: 999999999, form: 64 },
  { sec: 1514862245, nsec: 678901234, form: 64 },
  { sec: 2147483647, nsec: 999999999, form: 64 },
  { sec: 2 ** 32, nsec: 0, form: 64 },
  { sec: 2 ** 34 - 1, nsec: 999999999, form: 64 },
  { sec: 2 ** 34, nsec: 0, form: 96 },
  { sec: 2 ** 34, nsec: 123456789, form: 96 },
  { sec: -1, nsec: 0, form: 96 },
  { sec: -1, nsec: 1, form: 96 },
  { sec: -1, nsec: 999999999, form: 96 },
  { sec: -2208988801, nsec: 999999999, form: 96 },
  { sec: -62167219200, nsec: 500000, form: 96 },
  { sec: 253402300799, nsec: 999999999, form: 96 },
];

/** The millisecond that contains `sec` + `nsec`. */
function floorDate(sec: number, nsec: number): Date {
  return new Date(sec * 1000 + Math.floor(nsec / 1e6));
}

/** Integers that both libraries write in at most 32 bits (or, not being safe, as float64). */
function fitsInt32(n: number): boolean {
  return !Number.isSafeInteger(n) || (n >= -(2 ** 31) && n <= 0xffffffff);
}

const PLAIN_CASES: readonly Case[] = [
  ...INTEGER_BOUNDARIES.filter(fitsInt32).map((value) => ({
    name: `integer ${show(value)}`,
    value,
  })),
  ...FLOATS.map((value) => ({ name: `float ${show(value)}`, value })),
  ...strings(),
  ...binaries(),
  ...containers(),
  ...VALID_DATES.map((value) => ({ name: `Date ${value.toISOString()}`, value })),
];

/** Safe integers beyond 32 bits: int64 from @msgpack/msgpack, float64 from us. */
const WIDE_INTEGERS = INTEGER_BOUNDARIES.filter((n) => !fitsInt32(n));

describe("@msgpack/msgpack encode → our unpack", () => {
  for (const entry of PLAIN_CASES) {
    test(`unpack() reads its ${entry.name}`, () => {
      const bytes = theirEncode(entry.value);
      assert.deepEqual(comparable(unpack(bytes)), comparable(entry.value));
      // as Maps too, for the objects
      const asMaps = new Unpackr({ mapsAsObjects: false }).unpack(bytes);
      assert.deepEqual(comparable(asMaps), comparable(withMaps(entry.value)));
    });
  }

  test("Unpackr({ int64AsType: 'auto' }) reads its uint64/int64 of safe integers as numbers", () => {
    const auto = new Unpackr({ int64AsType: "auto" });
    assert.ok(WIDE_INTEGERS.length >= 8, WIDE_INTEGERS.map(show).join());
    for (const value of WIDE_INTEGERS) {
      const bytes = theirEncode(value);
      assert.equal(bytes[0], value > 0 ? 0xcf : 0xd3, show(value));
      assert.equal(auto.unpack(bytes), value, show(value));
      assert.equal(unpack(bytes), BigInt(value), show(value)); // unpack's default: a bigint
    }
  });

  test("unpack() reads its useBigInt64 bigints at every int64/uint64 edge", () => {
    for (const value of INT64_EXTREMES) {
      const bytes = theirEncode(value, { useBigInt64: true });
      assert.equal(unpack(bytes), value, show(value));
    }
    // with useBigInt64 it writes safe integers beyond 32 bits as float64
    for (const value of WIDE_INTEGERS) {
      assert.equal(unpack(theirEncode(value, { useBigInt64: true })), value, show(value));
    }
  });

  test("unpack() reads its forceFloat32 floats", () => {
    for (const value of FLOAT32_EXACT) {
      const bytes = theirEncode(value, { forceFloat32: true });
      assert.equal(bytes[0], 0xca, show(value));
      assert.equal(unpack(bytes), value, show(value));
    }
  });

  test("unpack() reads -0 as it writes it: the integer 0", () => {
    assert.equal(hex(theirEncode(-0)), "00");
    assert.ok(Object.is(unpack(theirEncode(-0)), 0));
    assert.ok(Object.is(unpack(theirEncode(-0, { forceIntegerToFloat: true })), -0));
  });

  test("unpack() reads arrays and objects nested 900 deep (its maxDepth raised)", () => {
    for (const wrap of [(inner: unknown) => [inner], (inner: unknown) => ({ c: inner })]) {
      const value = nested(900, wrap);
      const bytes = theirEncode(value, { maxDepth: 1000 });
      assert.deepEqual(unpack(bytes), value);
    }
  });

  for (const spec of TIME_SPECS) {
    const expected = floorDate(spec.sec, spec.nsec);
    test(`unpack() reads its ${spec.form}-bit timestamp ${spec.sec} s ${spec.nsec} ns as ${expected.toISOString()}`, () => {
      const payload = encodeTimeSpecToTimestamp(spec);
      assert.equal(payload.length * 8, spec.form);
      const decoded = unpack(theirEncode(new ExtData(-1, payload))) as Date;
      assert.ok(decoded instanceof Date);
      assert.equal(decoded.getTime(), expected.getTime(), decoded.toISOString());
    });
  }
});

describe("our pack → @msgpack/msgpack decode", () => {
  for (const entry of PLAIN_CASES) {
    test(`decode() reads our ${entry.name}`, () => {
      const packr = new Packr({ useRecords: false, variableMapSize: true });
      const bytes = packr.pack(entry.value);
      assert.deepEqual(comparable(theirDecode(bytes)), comparable(entry.value));
      // `pack` (map16 for every object) for all but objects of 65536 keys and more
      if (!(entry.name.startsWith("object of 65536"))) {
        assert.deepEqual(comparable(theirDecode(pack(entry.value))), comparable(entry.value));
      }
    });
  }

  test("decode() reads our float64 of safe integers beyond 32 bits as numbers", () => {
    for (const value of WIDE_INTEGERS) {
      const bytes = pack(value);
      assert.equal(bytes[0], 0xcb, show(value));
      assert.equal(theirDecode(bytes), value, show(value));
    }
  });

  test("decode({ useBigInt64: true }) reads our bigints at every int64/uint64 edge", () => {
    for (const value of INT64_EXTREMES) {
      assert.equal(theirDecode(pack(value), { useBigInt64: true }), value, show(value));
    }
  });

  test("decode() reads our useFloat32 floats", () => {
    const packr = new Packr({ useRecords: false, useFloat32: FLOAT32_OPTIONS.ALWAYS });
    for (const value of FLOAT32_EXACT) {
      const bytes = packr.pack(value);
      assert.equal(bytes[0], 0xca, show(value));
      assert.equal(theirDecode(bytes), value, show(value));
    }
  });

  test("decode() reads -0 as we write it: the integer 0", () => {
    assert.equal(hex(pack(-0)), "00");
    assert.ok(Object.is(theirDecode(pack(-0)), 0));
  });

  test("decode() reads our Maps at every header boundary as objects", () => {
    for (const count of [0, 1, 15, 16, 65535, 65536]) {
      const map = new Map(Object.entries(objectOf(count)));
      assert.deepEqual(theirDecode(pack(map)), Object.fromEntries(map), `${count} entries`);
    }
    // (its encode writes a Map as an empty map: a Map's own properties)
    assert.equal(hex(theirEncode(new Map([["a", 1]]))), "80");
  });

  test("decode() reads our arrays and objects nested 900 deep", () => {
    for (const wrap of [(inner: unknown) => [inner], (inner: unknown) => ({ c: inner })]) {
      const value = nested(900, wrap);
      assert.deepEqual(theirDecode(pack(value)), value);
    }
  });

  test("decodeTimestampToTimeSpec() reads our timestamp of every Date as its exact instant", () => {
    for (const date of VALID_DATES) {
      const bytes = pack(date);
      // the ext payload after d6 ff / d7 ff / c7 0c ff
      const payload = bytes.subarray(bytes[0] === 0xc7 ? 3 : 2);
      assert.equal(bytes[bytes[0] === 0xc7 ? 2 : 1], 0xff, date.toISOString());
      assert.deepEqual(decodeTimestampToTimeSpec(payload), encodeDateToTimeSpec(date));
      assert.equal((theirDecode(bytes) as Date).getTime(), date.getTime(), date.toISOString());
    }
  });
});

/** Objects as Maps, recursively (what a `mapsAsObjects: false` decoder returns). */
function withMaps(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withMaps);
  if (value !== null && typeof value === "object" && value.constructor === Object) {
    return new Map(Object.entries(value).map(([key, item]) => [key, withMaps(item)]));
  }
  return value;
}
