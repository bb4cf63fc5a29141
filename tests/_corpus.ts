// Copyright 2026 the @x/msgpackr authors. MIT license.
// A generated corpus of values for the interop tests: every MessagePack format boundary,
// Unicode edge cases, nested values, dates and bigints at their edges.

import { Buffer } from "node:buffer";

/** One corpus value. */
export interface Case {
  /** Short description used in test names and assertion messages. */
  name: string;
  /** The value to pack. */
  value: unknown;
  /** What `unpack(pack(value))` returns, when that is not `value` itself. */
  expected?: unknown;
  /**
   * What `unpack(msgpackr.pack(value))` returns, when that is not `expected` (msgpackr writes a
   * lone surrogate of a short string in its 3-byte form, which decodes to three U+FFFD).
   */
  fromMsgpackr?: unknown;
}

/** The value `unpack(pack(entry.value))` should return. */
export function expectedOf(entry: Case): unknown {
  return "expected" in entry ? entry.expected : entry.value;
}

/** The value `unpack(msgpackr.pack(entry.value))` should return. */
export function expectedFromMsgpackr(entry: Case): unknown {
  return "fromMsgpackr" in entry ? entry.fromMsgpackr : expectedOf(entry);
}

const PRINTABLE =
  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 !#$%&()*+,-./:;<=>?@[]^_{|}~";

/** `length` ASCII characters, varied (so a wrong offset shows up as a wrong character). */
export function asciiText(length: number): string {
  let text = "";
  while (text.length < length) text += PRINTABLE;
  return text.slice(0, length);
}

/**
 * A string of exactly `byteLength` UTF-8 bytes made of `unit` (a 2-, 3- or 4-byte character)
 * repeated as often as it fits, padded with ASCII.
 */
export function utf8Text(byteLength: number, unit: string): string {
  const unitBytes = new TextEncoder().encode(unit).length;
  const count = Math.floor(byteLength / unitBytes);
  return unit.repeat(count) + asciiText(byteLength - count * unitBytes);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * What a string decodes to after msgpackr's encoding: below 64 UTF-16 units a lone surrogate is
 * written as its 3-byte WTF-8 form, which UTF-8 decoding turns into three U+FFFD; from 64 units
 * on, `TextEncoder` writes one U+FFFD instead (docs/wire-format.md, "Strings", "Validation and
 * errors"). Ours writes one U+FFFD at every length: `text.toWellFormed()`.
 */
export function decodedString(text: string): string {
  return text.replace(LONE_SURROGATE, text.length < 64 ? "\ufffd\ufffd\ufffd" : "\ufffd");
}

function bytesOf(length: number, seed = 7): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + seed) & 0xff;
  return bytes;
}

function objectWithKeys(count: number, prefix = "k"): Record<string, number> {
  const object: Record<string, number> = {};
  for (let i = 0; i < count; i++) object[prefix + i] = i;
  return object;
}

function mapWithEntries(count: number): Map<string, number> {
  const map = new Map<string, number>();
  for (let i = 0; i < count; i++) map.set("k" + i, i);
  return map;
}

function nestedArrays(depth: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = [i, value];
  return value;
}

function nestedObjects(depth: number): unknown {
  let value: unknown = { end: true };
  for (let i = 0; i < depth; i++) value = { level: i, child: value };
  return value;
}

/** Integers: every fixint/uint/int boundary, and past the 32-bit range (written as float64). */
export const INTEGERS: readonly number[] = [
  0,
  1,
  0x1f,
  0x20,
  0x3f,
  0x40,
  0x7f,
  0x80,
  0xfe,
  0xff,
  0x100,
  0x7fff,
  0x8000,
  0xffff,
  0x10000,
  0x7fffffff,
  0x80000000,
  0xfffffffe,
  0xffffffff,
  0x100000000,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 64,
  -1,
  -31,
  -32,
  -33,
  -127,
  -128,
  -129,
  -255,
  -256,
  -32767,
  -32768,
  -32769,
  -65536,
  -(2 ** 31) + 1,
  -(2 ** 31),
  -(2 ** 31) - 1,
  -(2 ** 32),
  -(2 ** 53 - 1),
  -(2 ** 53),
];

/** Non-integers and special numbers (all float64 by default). */
export const FLOATS: readonly number[] = [
  0.5,
  -0.5,
  0.1,
  -0.1,
  1.5,
  7.99,
  1e-10,
  3.14159265,
  123456.789,
  Math.PI,
  -Math.E,
  1e300,
  -1e300,
  1e-300,
  5e-324,
  -5e-324,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.EPSILON,
  3.4028234663852886e38, // float32 max
  1.1754943508222875e-38, // smallest normal float32
  1.401298464324817e-45, // smallest subnormal float32
  0xffffffff + 0.5,
  0x100000000 + 0.5,
  -(2 ** 31) - 0.5,
  -(2 ** 31) + 0.5,
  2 ** 53 + 2,
  -(2 ** 63),
  2 ** 63,
  NaN,
  Infinity,
  -Infinity,
];

/** Bigints at every edge of int64/uint64 (all written as `d3` or `cf`). */
export const BIGINTS: readonly bigint[] = [
  0n,
  1n,
  -1n,
  127n,
  128n,
  -32n,
  -33n,
  2n ** 31n,
  2n ** 32n - 1n,
  2n ** 32n,
  -(2n ** 32n),
  2n ** 53n,
  2n ** 53n + 1n,
  -(2n ** 53n) - 1n,
  2n ** 63n - 1n,
  2n ** 63n,
  2n ** 64n - 1n,
  -(2n ** 63n),
  -(2n ** 63n) + 1n,
];

/** Bigints outside [-2^63, 2^64): errors unless an option converts them. */
export const LARGE_BIGINTS: readonly bigint[] = [
  2n ** 64n,
  2n ** 64n + 1n,
  -(2n ** 63n) - 1n,
  2n ** 100n,
  -(2n ** 100n),
  2n ** 1023n * 3n, // beyond float64's range
  -(10n ** 400n),
];

/** Dates around every timestamp form's edges, and invalid. */
export const DATES: readonly Date[] = [
  new Date(0),
  new Date(1),
  new Date(999),
  new Date(1000),
  new Date(1500),
  new Date(-1),
  new Date(-999),
  new Date(-1000),
  new Date(-1001),
  new Date(-1500),
  new Date("1969-12-31T23:59:59.000Z"),
  new Date("1900-01-01T00:00:00.000Z"),
  new Date("0001-01-01T00:00:00.123Z"),
  new Date("-000001-06-15T12:00:00.000Z"),
  new Date("2018-01-02T03:04:05.678Z"),
  new Date("2038-01-19T03:14:07.000Z"),
  new Date("2038-01-19T03:14:08.001Z"),
  new Date((2 ** 32 - 1) * 1000), // last second of timestamp32
  new Date((2 ** 32 - 1) * 1000 + 999),
  new Date(2 ** 32 * 1000), // first second past timestamp32
  new Date(2 ** 32 * 1000 + 1),
  new Date(2 ** 34 * 1000), // past the 34-bit seconds of timestamp64
  new Date("9999-12-31T23:59:59.999Z"),
  new Date(8.64e15), // the last valid Date
  new Date(-8.64e15), // the first valid Date
  new Date(NaN),
];

function stringCases(): Case[] {
  const cases: Case[] = [];
  const add = (name: string, value: string) => {
    const expected = value.toWellFormed();
    const fromMsgpackr = decodedString(value);
    const entry: Case = expected === value ? { name, value } : { name, value, expected };
    if (fromMsgpackr !== expected) entry.fromMsgpackr = fromMsgpackr;
    cases.push(entry);
  };
  add("empty string", "");
  for (const length of [1, 15, 16, 31, 32, 63, 64, 65, 255, 256, 65535, 65536, 70000]) {
    add(`ASCII string of ${length} bytes`, asciiText(length));
  }
  for (const [label, unit] of [["2-byte", "é"], ["3-byte", "€"], ["4-byte", "😀"]] as const) {
    for (const length of [31, 32, 255, 256, 65535, 65536]) {
      add(`${label} string of ${length} bytes`, utf8Text(length, unit));
    }
    for (const units of [15, 16, 63, 64, 65]) {
      add(`${label} string of ${units} chars`, unit.repeat(units));
    }
  }
  add("code point edges", "\u0000\u007f\u0080\u07ff\u0800\uffff\u{10000}\u{10ffff}");
  add("NUL only", "\u0000");
  add("CJK", "汉字かな한글");
  add("emoji sequence", "👩‍👩‍👧‍👦🏳️‍🌈");
  add("BOM first in a short string", "\ufeffabc");
  add("BOM inside a string", "ab\ufeffc");
  // lone surrogates: U+FFFD at every length (msgpackr: its WTF-8 form under 64 units)
  add("lone high surrogate", "\ud800");
  add("lone low surrogate", "\udc00");
  add("lone surrogates inside text", "a\ud83db\ude00c\udbff");
  add("reversed surrogate pair", "\ude00\ud83d");
  add("high surrogate at the end of 63 units", asciiText(62) + "\ud800");
  add("high surrogate at the end of 64 units", asciiText(63) + "\ud800");
  add("lone surrogates in a long string", asciiText(100) + "\udc00" + asciiText(20) + "\ud800");
  add("lone surrogates in a 70000-unit string", "\ud800" + asciiText(70000) + "\udfff");
  add("astral characters in a long string", "😀".repeat(40) + asciiText(10));
  return cases;
}

function binaryCases(): Case[] {
  const cases: Case[] = [];
  for (const length of [0, 1, 31, 32, 255, 256, 65535, 65536]) {
    cases.push({ name: `bin of ${length} bytes`, value: bytesOf(length) });
  }
  const backing = bytesOf(64, 3);
  cases.push({ name: "bin from a subarray", value: backing.subarray(5, 40) });
  cases.push({
    name: "bin from a Node Buffer",
    value: Buffer.from([1, 2, 3, 250]),
    expected: new Uint8Array([1, 2, 3, 250]),
  });
  cases.push({
    name: "bin from a Uint8ClampedArray",
    value: new Uint8ClampedArray([0, 1, 254, 255]),
    expected: new Uint8Array([0, 1, 254, 255]),
  });
  const buffer = bytesOf(20, 9);
  cases.push({
    name: "bin from an ArrayBuffer",
    value: buffer.slice().buffer,
    expected: buffer,
  });
  return cases;
}

function arrayCases(): Case[] {
  const sized = (length: number) => Array.from({ length }, (_, i) => i & 0x7f);
  const cases: Case[] = [];
  for (const length of [0, 1, 15, 16, 65535, 65536]) {
    cases.push({ name: `array of ${length} elements`, value: sized(length) });
  }
  cases.push({
    name: "array of mixed values",
    value: [null, true, false, 1, -1, 1.5, "s", [], {}, new Uint8Array([1])],
  });
  cases.push({ name: "arrays nested 200 deep", value: nestedArrays(200) });
  class List extends Array<number> {}
  const list = new List();
  list.push(1, 2, 3);
  cases.push({ name: "Array subclass", value: list, expected: [1, 2, 3] });
  return cases;
}

function objectCases(): Case[] {
  const cases: Case[] = [];
  for (const count of [0, 1, 15, 16, 255, 256]) {
    cases.push({ name: `object with ${count} keys`, value: objectWithKeys(count) });
  }
  cases.push({ name: "object with 65535 keys", value: objectWithKeys(65535) });
  cases.push({
    name: "object with integer-like keys (ordered as JavaScript does)",
    value: { b: 1, 2: "two", a: 2, 1: "one", "-1": "neg", "01": "zero-one" },
  });
  cases.push({
    name: "object with unusual keys",
    value: {
      "": "empty",
      "é": 1,
      "😀": 2,
      "key with spaces": 3,
      [asciiText(40)]: 4,
      [asciiText(70)]: 5,
      [utf8Text(300, "€")]: 6,
      constructor: 7,
      prototype: 8,
      toString: 9,
      hasOwnProperty: 10,
    },
  });
  cases.push({
    name: "object with every kind of value",
    value: {
      nil: null,
      yes: true,
      no: false,
      int: 42,
      neg: -42,
      big: 2n ** 40n,
      float: 2.5,
      text: "hello",
      bin: new Uint8Array([9, 8, 7]),
      list: [1, [2, [3]]],
      map: { nested: { deeper: { deepest: "x" } } },
    },
  });
  cases.push({ name: "objects nested 200 deep", value: nestedObjects(200) });
  const nullProto = Object.create(null) as Record<string, unknown>;
  nullProto.a = 1;
  nullProto.b = [2];
  cases.push({ name: "object without prototype", value: nullProto, expected: { a: 1, b: [2] } });
  const inheriting = Object.create({ inherited: 1 }) as Record<string, unknown>;
  inheriting.own = 2;
  cases.push({
    name: "object with an inherited property",
    value: inheriting,
    expected: { own: 2 },
  });
  const hidden = { shown: 1 } as Record<string | symbol, unknown>;
  Object.defineProperty(hidden, "hidden", { value: 2, enumerable: false });
  hidden[Symbol("symbol")] = 3;
  cases.push({
    name: "object with non-enumerable and symbol keys",
    value: hidden,
    expected: { shown: 1 },
  });
  class Point {
    x = 1;
    y = -2;
    label = "p";
  }
  cases.push({ name: "class instance", value: new Point(), expected: { x: 1, y: -2, label: "p" } });
  class Money {
    constructor(readonly cents: number) {}
    toJSON() {
      return { amount: this.cents / 100, currency: "EUR" };
    }
  }
  cases.push({
    name: "class instance with toJSON",
    value: new Money(1250),
    expected: { amount: 12.5, currency: "EUR" },
  });
  cases.push({
    name: "own __proto__ key",
    value: JSON.parse('{"a":1,"__proto__":{"polluted":true}}'),
    expected: { a: 1, __proto_: { polluted: true } },
  });
  return cases;
}

function mapCases(): Case[] {
  const cases: Case[] = [];
  for (const count of [0, 1, 15, 16, 65535, 65536]) {
    const map = mapWithEntries(count);
    cases.push({
      name: `Map of ${count} entries`,
      value: map,
      expected: Object.fromEntries(map),
    });
  }
  cases.push({
    name: "Map with number, boolean, null and bigint keys",
    value: new Map<unknown, unknown>([[1, "one"], [-1.5, "f"], [true, "t"], [null, "n"], [
      10n,
      "b",
    ]]),
    expected: { 1: "one", "-1.5": "f", true: "t", null: "n", 10: "b" },
  });
  return cases;
}

/**
 * Values that need no extension: nil, booleans, numbers, in-range bigints, strings, binaries,
 * arrays, objects and Maps. `pack` writes msgpackr's bytes for all of them.
 */
export function standardCases(): Case[] {
  return standardCache ??= [
    { name: "null", value: null },
    { name: "true", value: true },
    { name: "false", value: false },
    ...INTEGERS.map((value) => ({ name: `integer ${value}`, value })),
    { name: "-0", value: -0, expected: 0 },
    ...FLOATS.map((value) => ({ name: `float ${value}`, value })),
    ...BIGINTS.map((value) => ({ name: `bigint ${value}n`, value })),
    ...stringCases(),
    ...binaryCases(),
    ...arrayCases(),
    ...objectCases(),
    ...mapCases(),
    {
      name: "Set without moreTypes (an array)",
      value: new Set([1, "a", null]),
      expected: [1, "a", null],
    },
    {
      name: "RegExp without moreTypes ([source, flags])",
      value: /ab+c/gi,
      expected: ["ab+c", "gi"],
    },
    {
      name: "Error without moreTypes ([name, message, cause])",
      value: new RangeError("bad", { cause: "why" }),
      expected: ["RangeError", "bad", "why"],
    },
  ];
}
let standardCache: Case[] | undefined;

/** Values that use msgpackr's standard extensions: dates (timestamp) and `undefined`. */
export function extensionCases(): Case[] {
  return extensionCache ??= [
    { name: "undefined", value: undefined },
    { name: "array with undefined", value: [undefined, 1, undefined] },
    { name: "sparse array (holes are undefined)", value: [1, , 3], expected: [1, undefined, 3] },
    { name: "object with an undefined value", value: { a: undefined, b: 1 } },
    { name: "function (written as undefined)", value: () => 1, expected: undefined },
    { name: "Error without a cause", value: new Error("x"), expected: ["Error", "x", undefined] },
    ...DATES.map((value) => ({ name: `Date ${dateLabel(value)}`, value })),
    {
      name: "dates inside containers",
      value: { when: new Date(1500), list: [new Date(-1), new Date(0)] },
    },
  ];
}
let extensionCache: Case[] | undefined;

function dateLabel(date: Date): string {
  return Number.isNaN(date.getTime()) ? "invalid" : `${date.toISOString()} (${date.getTime()})`;
}

/** The whole corpus. */
export function allCases(): Case[] {
  return [...standardCases(), ...extensionCases()];
}

// A lone high surrogate, and a lone low one that pairs with it when it follows: our encoder writes
// each unpaired one as U+FFFD. The low one always comes with a Δ after it (no other piece holds
// a Δ), so two strings of pieces that differ only in their lone surrogates stay two strings once
// made well-formed: an object or Map of them has as many keys in msgpackr's well-formed copy
// (tests/_interop.ts, `withWellFormedStrings`).
const STRING_PIECES = [
  "a",
  "é",
  "€",
  "😀",
  "\ud800",
  "\udfff\u0394",
  "\u0000",
  "\uffff",
  "\ufeff",
  "key",
  "1",
  "-1",
  "1.5",
  "__proto__",
  "constructor",
  " ",
];

/**
 * A random value built from the corpus atoms: numbers, bigints, dates, strings of tricky pieces,
 * binaries, undefined, and arrays, objects and Maps of up to 11 entries, at most 4 levels deep.
 * Object keys are defined as own properties, so a "__proto__" key is an ordinary key.
 */
export function randomValue(next: () => number, depth = 0): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const text = () => {
    let result = "";
    for (let i = Math.floor(next() * 12); i > 0; i--) result += pick(STRING_PIECES);
    return next() < 0.05 ? result + asciiText(Math.floor(next() * 300)) : result;
  };
  const roll = next();
  if (depth > 2 || roll < 0.5) {
    const atoms: (() => unknown)[] = [
      () => pick(INTEGERS),
      () => pick(FLOATS),
      () => pick(BIGINTS),
      () => new Date(pick(DATES).getTime()),
      text,
      () => null,
      () => next() < 0.5,
      () => undefined,
      () => bytesOf(Math.floor(next() * 40), Math.floor(next() * 256)),
      () => next() * 1000 - 500,
      () => Math.floor(next() * 140000) - 70000,
    ];
    return pick(atoms)();
  }
  if (roll < 0.7) {
    return Array.from({ length: Math.floor(next() * 12) }, () => randomValue(next, depth + 1));
  }
  if (roll < 0.9) {
    const object: Record<string, unknown> = {};
    for (let i = Math.floor(next() * 12); i > 0; i--) {
      Object.defineProperty(object, text(), {
        value: randomValue(next, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return object;
  }
  const map = new Map<unknown, unknown>();
  for (let i = Math.floor(next() * 12); i > 0; i--) {
    map.set(next() < 0.5 ? text() : randomValue(next, 4), randomValue(next, depth + 1));
  }
  return map;
}
