// Copyright 2026 the @x/msgpackr authors. MIT license.
// Arrays that start with a number take their own element loop in the decoder
// (readNumberElements), which reads fixints, float64s, uint16s and uint32s inline and hands
// every other token to the general reader. These tests pin what that loop must keep: every kind
// of element after the first number, record ids (0x40..0x7f) inside such arrays, floats in small
// inputs (which have no DataView) and large ones (which do), and a cut anywhere in the last
// element being an incomplete-data error rather than a shorter array or a wrong number.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import {
  FLOAT32_OPTIONS,
  IncompleteDataError,
  pack,
  Packr,
  type PackrOptions,
  unpack,
  Unpackr,
} from "../mod.ts";
import { theirPackr } from "./_interop.ts";
import { random } from "./_util.ts";

/** Numbers of every encoding the loop reads inline, and of those it does not. */
const NUMBERS = [
  0, // positive fixint
  0x3f, // the last fixint that cannot be a record id
  0x40, // fixint 0x40..0x7f: a record id when records are defined
  0x7f,
  -1, // negative fixint
  -32,
  -33, // int8
  200, // uint8
  -200, // int16
  0xffff, // uint16
  0x10000, // uint32
  0xffffffff,
  -0x80000000, // int32
  2 ** 40, // beyond 32 bits: float64 (msgpackr's default), or uint64 with useFloat32/int options
  1.5, // float64
  -0.25,
  Number.MAX_VALUE,
  Number.NaN,
  Number.POSITIVE_INFINITY,
];

describe("arrays that start with a number", () => {
  test("hold every number encoding and any other value after the first element", () => {
    const mixed = [
      1,
      ...NUMBERS,
      "text",
      { a: 1, b: [2, 3.5] },
      [4, 5],
      null,
      true,
      new Uint8Array([1, 2, 3]),
      new Date(1700000000000),
      7,
    ];
    for (const first of [1, -1, 200, 0xffff, 0x10000, 1.5]) {
      const value = [first, ...mixed];
      assert.deepEqual(unpack(pack(value)), value);
      assert.deepEqual(unpack(msgpackr.pack(value)), value);
      assert.deepEqual(new Unpackr({ structures: [] }).unpack(new Packr().pack(value)), value);
    }
  });

  test("are packed byte for byte as msgpackr packs them, whatever follows and however long", () => {
    // the packer's own loop for them (writeNumberElements) writes fixints and float64s itself and
    // hands everything else on; a long array makes the output move to a larger buffer mid-loop
    const rnd = random(71);
    const others = ["text", { a: 1, b: [2, 3.5] }, [4, -5], null, true, -0, 2 ** 53, -(2 ** 40)];
    const long = Array.from(
      { length: 40_000 },
      (_, i) =>
        i % 997 === 500
          ? { at: i, tags: ["x", i] }
          : i % 3 === 0
          ? Math.floor(rnd() * 64)
          : i % 3 === 1
          ? rnd() * 1e6 - 5e5
          : Math.floor(rnd() * 2 ** 32) - 2 ** 31,
    );
    const values = [
      ...[0, 0x3f, 0x40, -1, 200, 0xffff, 0x10000, 1.5, -0, Number.NaN].map((first) => [
        first,
        ...NUMBERS,
        ...others,
        7,
      ]),
      long,
      { nested: [1.25, 2, [3.5, "four"]] },
    ];
    const optionSets: PackrOptions[] = [
      { useRecords: false },
      { useRecords: false, useFloat32: FLOAT32_OPTIONS.ALWAYS },
      { useRecords: false, useFloat32: FLOAT32_OPTIONS.DECIMAL_FIT },
      {}, // records
    ];
    for (const options of optionSets) {
      const ours = new Packr(options);
      const theirs = theirPackr({ ...options });
      // and into a small buffer of the caller's: the packs continue in new buffers, same bytes
      const oursIntoBuffer = new Packr(options);
      const theirsAgain = theirPackr({ ...options });
      oursIntoBuffer.useBuffer(new Uint8Array(4096));
      for (const value of values) {
        const bytes = ours.pack(value);
        assert.deepEqual(bytes, new Uint8Array(theirs.pack(value)));
        assert.deepEqual(unpack(bytes), msgpackr.unpack(bytes));
        const view = oursIntoBuffer.pack(value);
        assert.deepEqual(new Uint8Array(view), new Uint8Array(theirsAgain.pack(value)));
      }
    }
  });

  test("decode each number encoding as msgpackr does, in small inputs and in large ones", () => {
    for (const number of NUMBERS) {
      // small: under 512 bytes, the input has no DataView when the array starts
      const small = [0, number, number];
      // large: a view exists from the start, so float64s are read inline
      const large = [0, ...Array(100).fill(number)];
      for (const value of [small, large]) {
        const bytes = msgpackr.pack(value);
        assert.deepEqual(unpack(bytes), msgpackr.unpack(bytes), String(number));
        assert.deepEqual(unpack(pack(value)), value, String(number));
      }
    }
  });

  test("floats in small inputs are exact, read from the bytes (the first six) or from a view", () => {
    // a small input reads its first six floats from its bytes without a DataView, and makes one
    // for the seventh: every bit pattern must come out the same either way, float32 and float64
    const doubles = [
      1.5,
      -1e-300,
      Number.NaN,
      Infinity,
      -Infinity,
      5e-324,
      -Number.MAX_VALUE,
      Math.PI,
    ];
    const singles = [
      Math.fround(0.1),
      Math.fround(-0.7),
      Math.fround(-3.5e38),
      Math.fround(1e-45),
      Infinity,
    ];
    const float32 = new Packr({ useFloat32: 1 });
    for (let count = 1; count <= 12; count++) {
      const value = Array.from({ length: count }, (_, i) => doubles[i % doubles.length]);
      const mixed = Array.from({ length: count }, (_, i) => singles[i % singles.length]);
      for (const bytes of [pack(value), msgpackr.pack(value)]) {
        assert.equal(bytes[0], 0x90 + count);
        const decoded = unpack(bytes) as number[];
        value.forEach((number, i) => assert.ok(Object.is(decoded[i], number), `${count} ${i}`));
      }
      const singleBytes = float32.pack(mixed);
      assert.ok(singleBytes.includes(0xca), "float32s written");
      const decoded = unpack(singleBytes) as number[];
      mixed.forEach((number, i) => assert.ok(Object.is(decoded[i], number), `f32 ${count} ${i}`));
    }
    // a float at the top level, and in a map, as its only content
    for (const number of [...doubles, ...singles]) {
      assert.ok(Object.is(unpack(pack(number)), number), String(number));
      const inMap = float32.pack({ n: number });
      const n = (unpack(inMap) as { n: number }).n;
      assert.ok(Object.is(n, (msgpackr.unpack(inMap) as { n: number }).n), String(number));
    }
    // -0 (which pack writes as the integer 0) as float64 and float32 bytes
    const negativeZeros = unpack(
      new Uint8Array([0x92, 0xcb, 0x80, 0, 0, 0, 0, 0, 0, 0, 0xca, 0x80, 0, 0, 0]),
    ) as number[];
    assert.ok(Object.is(negativeZeros[0], -0) && Object.is(negativeZeros[1], -0));
    // a decode nested in another (an extension that unpacks its payload) reads its own floats,
    // and the outer decode's floats after it stay exact
    const nesting = new Unpackr();
    nesting.addExtension({ type: 9, unpack: (bytes) => nesting.unpack(bytes) });
    const inner = pack([9.5, 10.25, 11.125]);
    const outer = new Uint8Array([
      ...pack([1.25, 2.5, 3.75]).subarray(0, 1 + 27).with(0, 0x98),
      ...[0xc7, inner.length, 9, ...inner],
      ...pack([4.5, 5.25, 6.5, 7.75]).subarray(1),
    ]);
    assert.deepEqual(nesting.unpack(outer), [
      1.25,
      2.5,
      3.75,
      [9.5, 10.25, 11.125],
      4.5,
      5.25,
      6.5,
      7.75,
    ]);
  });

  test("the numeric arrays payload decodes as msgpackr decodes it (ints of every width, doubles)", () => {
    const next = random(3);
    const value = {
      ints: Array.from(
        { length: 3000 },
        () => Math.floor(next() * 2 ** (1 + Math.floor(next() * 31))),
      ),
      floats: Array.from({ length: 3000 }, () => next() * 1000 - 500),
      small: Array.from({ length: 3000 }, () => Math.floor(next() * 100)),
    };
    const bytes = msgpackr.pack(value);
    assert.deepEqual(unpack(bytes), value);
    assert.deepEqual(msgpackr.unpack(pack(value)), value);
  });

  test("record ids 0x40..0x7f inside an array of numbers are records, not fixints", () => {
    // records are defined: 0x40.. in element position must go to the record reader
    const value = [1, { x: 1, y: 2 }, 2, { x: 3, y: 4 }, 0x3f, { x: 5, y: 6 }];
    const packr = new Packr({ structures: [] });
    const bytes = packr.pack(value);
    assert.deepEqual(new Unpackr({ structures: packr.structures }).unpack(bytes), value);
    const theirStructures: string[][] = [];
    const theirBytes = new msgpackr.Packr({ structures: theirStructures }).pack(value);
    assert.deepEqual(new Unpackr({ structures: theirStructures }).unpack(theirBytes), value);
    // with no record defined, 0x40..0x7f are plain fixints in the same loop
    assert.deepEqual(unpack(new Uint8Array([0x93, 0x01, 0x40, 0x7f])), [1, 0x40, 0x7f]);
  });

  test("a cut anywhere inside the last element is incomplete data, in small and large inputs", () => {
    for (const last of [0x3f, 0xffff, 0x10000, 1.5, -200, 2 ** 40]) {
      for (const size of [3, 100]) {
        const value = [...Array(size).fill(1.25), last];
        const bytes = pack(value);
        assert.deepEqual(unpack(bytes), value);
        // cut inside the last element (and exactly before it)
        const lastSize = pack(last).length;
        for (let cut = bytes.length - lastSize; cut < bytes.length; cut++) {
          assert.throws(
            () => unpack(bytes.subarray(0, cut)),
            IncompleteDataError,
            `${last} ${cut}`,
          );
        }
      }
    }
  });
});
