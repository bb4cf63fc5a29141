// Copyright 2026 the @x/msgpackr authors. MIT license.
// A decode nested inside another (a custom extension's `unpack`, or `getStructures`, calling
// `unpack`) has an input of its own, but the Latin-1 window and the UTF-8 batch
// (_strings/input_window.ts) are module state that knows strings by their offsets only.
// The decoder closes both whenever its input changes (`begin` and `finish` in _decode/decoder.ts):
// the nested decode must never slice a string from the outer input's window or take one from its
// batch, and the outer decode must never take one from the nested input's after it returns.
// msgpackr has neither, so it cannot judge this; the values decoded on their own are the
// reference.
//
// Every case pairs an outer input with an inner one of the same layout: the same values with
// other characters in every string (the same byte lengths, ASCII for ASCII), shifted by a pad at
// the start. With no shift, every inner string lies exactly where an outer string of the same
// length does (what a leftover batch hands out); with a shift, the inner strings start inside
// the outer strings and around them (what a leftover window slices). Strings are medium (13..256
// bytes: the window and the batch) and longer (the window's and the batch's long paths), ASCII
// and not, in records (compiled and interpreted readers) and in plain maps decoded as objects.
// The inner decode is the same instance's, another instance's, or an `unpackMultiple` that its
// callback stops early, leaving strings of its input unread.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Packr, unpack, Unpackr, type UnpackrOptions } from "../mod.ts";
import {
  latin1Slice,
  MAX_SLICED,
  UTF8_BATCHES,
  utf8BatchCounts,
} from "../_strings/input_window.ts";
import { EAGER_VIEW_MIN_INPUT, MIN_SLICED } from "../_core/thresholds.ts";
import { compilesDuring } from "./_util.ts";

const encoder = new TextEncoder();
const byteLength = (text: string) => encoder.encode(text).length;

/**
 * The characters of each side's strings: none in common, so a string read from the wrong input
 * never equals the right one. Each list holds characters of one UTF-8 length.
 */
const ALPHABETS = {
  outer: {
    ascii: "abcdefghijklmnopqrstuvwxyz0123456789 -_",
    two: "абвгдежзийклмнопрстуфхцчшщ",
    three: "東京都渋谷区神南一丁目",
    four: "😀😁😂🤣😃",
  },
  inner: {
    ascii: "ABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&()*+,./:",
    two: "αβγδεζηθικλμνξοπρστυφχψω",
    three: "大阪府北区梅田三丁目",
    four: "🚀🛸🛰🌍🌙",
  },
} as const;
type Side = keyof typeof ALPHABETS;

/** An ASCII string of exactly `bytes` bytes of `side`'s alphabet, varying with `seed`. */
function asciiText(side: Side, bytes: number, seed: number): string {
  const alphabet = ALPHABETS[side].ascii;
  let out = "";
  for (let i = 0; i < bytes; i++) out += alphabet[(i * 7 + seed * 11) % alphabet.length];
  return out;
}

/**
 * A non-ASCII string of exactly `bytes` bytes of `side`'s alphabets: characters of 2, 3 and 4
 * bytes (in an order that depends on `bytes` and `seed` alone, so both sides get the same byte
 * lengths), ASCII where too few bytes are left.
 */
function nonAsciiText(side: Side, bytes: number, seed: number): string {
  const { ascii, two, three, four } = ALPHABETS[side];
  let out = "";
  let left = bytes;
  for (let i = 0; left > 0; i++) {
    const want = 2 + ((i + seed) % 3); // 2, 3 or 4 bytes
    const size = want <= left ? want : left >= 2 ? 2 : 1;
    const list = size === 1 ? ascii : size === 2 ? two : size === 3 ? three : four;
    const characters = Array.from(list);
    out += characters[(i * 5 + seed) % characters.length];
    left -= size;
  }
  return out;
}

/**
 * One item of a case: a record (or map) with strings, and `x`, where the outer input has the
 * extension in one item (3 bytes: fixext 1) and a 3-byte integer (uint16) everywhere else.
 */
interface Item {
  id: number;
  name: string;
  note: string;
  tag: string;
  x: unknown;
  tail: string;
}

/**
 * String byte lengths of a layout: medium, the edges 13..17, 31/32 (fixstr/str8), 255/256
 * (str8/str16) and longer than MAX_SLICED.
 */
const LAYOUTS = {
  // under EAGER_VIEW_MIN_INPUT: the decoder has no DataView, and its window covers the whole rest
  small: { ascii: [20, 24, 30, 18], nonAscii: [20, 26, 22, 18], tail: [14, 40, 17, 28] },
  large: {
    ascii: [13, 17, 31, 32, 64, 100, 200, 255, 256, 257, 400, 40, 90, 33],
    nonAscii: [17, 24, 31, 32, 90, 200, 256, 300, 18, 60, 255, 130, 44, 20],
    tail: [40, 256, 19, 100, 13, 64, 300, 32, 31, 77, 150, 17, 256, 48],
  },
} as const;
type LayoutName = keyof typeof LAYOUTS;

const INTEGER = 0x1234; // packed as uint16: 3 bytes, as the extension's fixext 1

/** The items of `side` in `layout`, with `ext` as the `x` of item `extAt` on the outer side. */
function items(side: Side, layout: LayoutName, extAt: number, ext: unknown): Item[] {
  const { ascii, nonAscii, tail } = LAYOUTS[layout];
  return ascii.map((length, i) => ({
    id: i,
    name: asciiText(side, length, i),
    note: nonAsciiText(side, nonAscii[i], i),
    tag: i % 2 ? asciiText(side, 5, i) : nonAsciiText(side, 6, i),
    x: i === extAt && side === "outer" ? ext : INTEGER,
    tail: i % 3 === 2 ? asciiText(side, tail[i], i + 1) : nonAsciiText(side, tail[i], i + 1),
  }));
}

/** What the extension's `unpack` returns: the inner decode's value. */
class Nested {
  constructor(readonly value: unknown) {}
}
const EXT_TYPE = 0x31;

/** How the extension decodes the inner input. */
type Caller = "same instance" | "other instance" | "unpackMultiple, stopped early";
const CALLERS: readonly Caller[] = [
  "same instance",
  "other instance",
  "unpackMultiple, stopped early",
];

/**
 * Inner values `unpackMultiple` delivers before its callback stops it: the leading 0 (in place of
 * the array's header), the pad, and the items before the extension's. The strings after them
 * stay in the inner decode's batch unused, where the outer decode must not find them.
 */
const multipleValuesBefore = (extAt: number) => 2 + extAt;

interface Form {
  name: string;
  packr: () => Packr;
  options: UnpackrOptions;
}
const FORMS: readonly Form[] = [
  { name: "records", packr: () => new Packr(), options: {} },
  { name: "maps", packr: () => new Packr({ useRecords: false }), options: { mapsAsObjects: true } },
];
const READERS: readonly { name: string; options: UnpackrOptions }[] = [
  { name: "compiled", options: {} },
  { name: "interpreted", options: { compileRecordReaders: false } },
];

/**
 * Pads that shift the inner input against the outer one: every shift up to 48 bytes, then shifts
 * that reach past the long strings of the large layout (the outer window opens at the second
 * medium ASCII string, so an inner string must lie that far in to fall inside it).
 */
const SHIFTS = [
  ...Array.from({ length: 48 }, (_, i) => i),
  ...Array.from({ length: 24 }, (_, i) => 61 + 47 * i),
];
/** Bytes a pad of `shift` bytes adds after the outer input's empty one: bin 8, then bin 16. */
const padGrowth = (shift: number) => shift + (shift > 0xff ? 1 : 0);

const plainPack = new Packr({ useRecords: false });

describe("a decode nested in another keeps its strings and the outer one's apart", () => {
  test("the Latin-1 window and the UTF-8 batch exist here (Deno and Bun), so they are tested", () => {
    assert.notEqual(latin1Slice, null, "no Latin-1 window on this runtime");
    assert.equal(MIN_SLICED, 13);
    assert.equal(MAX_SLICED, 256);
    assert.equal(UTF8_BATCHES, true, "no UTF-8 batches on this runtime");
    for (const side of ["outer", "inner"] as const) {
      for (const length of [13, 17, 31, 32, 255, 256, 300]) {
        assert.equal(byteLength(asciiText(side, length, 1)), length);
        assert.equal(byteLength(nonAsciiText(side, length, 1)), length);
        assert.ok(Array.from(nonAsciiText(side, length, 1)).some((c) => c.codePointAt(0)! > 0x7f));
      }
    }
    for (const [name, layout] of Object.entries(LAYOUTS)) {
      for (const lengths of [layout.ascii, layout.nonAscii]) {
        assert.ok(lengths.some((length) => length >= 17 && length <= MAX_SLICED), name);
      }
    }
  });

  for (const form of FORMS) {
    for (const reader of READERS) {
      test(`${form.name}, ${reader.name} reader: an extension's unpack decoding another input`, () => {
        const options = { ...form.options, ...reader.options };
        const packr = form.packr();
        packr.addExtension({
          Class: Nested,
          type: EXT_TYPE,
          pack: () => Uint8Array.of(7),
          unpack: () => new Nested(null),
        });
        // what the extension decodes, set by each case
        let innerBytes = new Uint8Array(0);
        let caller: Caller = "same instance";
        let stopAfter = 0;
        let nestedDecodes = 0;
        const unpackr = new Unpackr(options);
        const other = new Unpackr(options);
        unpackr.addExtension({
          Class: Nested,
          type: EXT_TYPE,
          pack: () => Uint8Array.of(7),
          unpack: () => {
            nestedDecodes++;
            if (caller === "same instance") return new Nested(unpackr.unpack(innerBytes));
            if (caller === "other instance") return new Nested(other.unpack(innerBytes));
            const values: unknown[] = [];
            unpackr.unpackMultiple(innerBytes, (value) => values.push(value) < stopAfter);
            return new Nested(values);
          },
        });
        const batchesBefore = utf8BatchCounts().batches;
        let cases = 0;
        const { compiles } = compilesDuring(() => {
          for (const layout of Object.keys(LAYOUTS) as LayoutName[]) {
            const count = LAYOUTS[layout].ascii.length;
            for (const extAt of [1, count >> 1, count - 1]) {
              const outerItems = items("outer", layout, extAt, new Nested(null));
              const innerItems = items("inner", layout, extAt, null);
              const outerValue = [new Uint8Array(0), ...outerItems];
              const outerBytes = packr.pack(outerValue);
              if (layout === "small") assert.ok(outerBytes.length < EAGER_VIEW_MIN_INPUT);
              else assert.ok(outerBytes.length > 2 * EAGER_VIEW_MIN_INPUT);
              for (const shift of SHIFTS) {
                const innerValue = [new Uint8Array(shift), ...innerItems];
                const single = packr.pack(innerValue);
                assert.equal(single.length, outerBytes.length + padGrowth(shift), "same layout");
                // the same bytes as a sequence of values: the array header becomes a 0
                assert.ok(single[0] >= 0x90 && single[0] < 0xa0);
                const multiple = Uint8Array.from(single);
                multiple[0] = 0;
                for (const which of CALLERS) {
                  caller = which;
                  innerBytes = which === "unpackMultiple, stopped early" ? multiple : single;
                  stopAfter = multipleValuesBefore(extAt);
                  const innerExpected = which === "unpackMultiple, stopped early"
                    ? [0, ...innerValue.slice(0, stopAfter - 1)]
                    : innerValue;
                  const expected = outerValue.map((item, i) =>
                    i === extAt + 1 ? { ...(item as Item), x: new Nested(innerExpected) } : item
                  );
                  const label = `${layout}, extension in item ${extAt}, shift ${shift}, ${which}`;
                  // decoded on their own first
                  assert.deepEqual(unpackr.unpack(single), innerValue, label);
                  // twice: the second decode runs on the compiled (or pooled) readers
                  for (let round = 0; round < 2; round++) {
                    assert.deepEqual(unpackr.unpack(outerBytes), expected, `${label}, #${round}`);
                    cases++;
                  }
                }
              }
            }
          }
        });
        assert.equal(nestedDecodes, cases);
        assert.ok(utf8BatchCounts().batches > batchesBefore, "no batch was made");
        // the compiled readers ran, or none did
        assert.equal(compiles > 0, reader.name === "compiled", `${compiles} readers compiled`);
      });
    }
  }

  test("getStructures decoding its stored structures in the middle of a decode", () => {
    // shared structures kept as MessagePack and decoded when the first record needs them, after
    // medium strings of the outer input have opened its window and batch; their keys are medium
    // ASCII strings that lie inside those of the outer input
    for (const reader of READERS) {
      for (const shift of SHIFTS) {
        const keys = [0, 1, 2].map((i) => asciiText("inner", 20 + i, i));
        const structures: string[][] = [];
        const packr = new Packr({ structures });
        const records = [0, 1, 2, 3, 4].map((i) => ({
          [keys[0]]: i,
          [keys[1]]: asciiText("outer", 40, i),
          [keys[2]]: nonAsciiText("outer", 30, i),
        }));
        const strings = [0, 1, 2, 3].map((i) =>
          i % 2 ? asciiText("outer", 60, i) : nonAsciiText("outer", 45, i)
        );
        const value = [...strings, ...records];
        const bytes = packr.pack(value);
        assert.equal(structures.length, 1);
        // the stored table: a pad (binary: a string there would open a window of its own), then
        // the structures
        const stored = plainPack.pack([new Uint8Array(shift), structures]);
        let loads = 0;
        const unpackr = new Unpackr({
          ...reader.options,
          getStructures: () => {
            loads++;
            return (unpack(stored) as [Uint8Array, string[][]])[1];
          },
        });
        assert.deepEqual(unpackr.unpack(bytes), value, `${reader.name}, shift ${shift}`);
        assert.equal(loads, 1, "the structures were loaded during the decode");
      }
    }
  });
});
