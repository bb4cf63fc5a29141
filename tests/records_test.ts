// Copyright 2026 the @x/msgpackr authors. MIT license.
// Records (docs/wire-format.md, "Records"): the default Packr, id allocation and reuse,
// maxOwnStructures, useRecords as a function or false, and fixints 0x40..0x7f without a structure.
// Every encoding is compared byte for byte with msgpackr 2.1.3 fed the same values with the same
// options, and decoded in both directions.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { Packr, type PackrOptions, unpack, unpackMultiple, Unpackr } from "../mod.ts";
import { fromHex, hex } from "./_util.ts";
import {
  allBenchData,
  copyStructures,
  distinctShapes,
  hexSteps,
  packBoth,
  packrPair,
  theirOptions,
} from "./_records.ts";

const benchPayloads = await allBenchData();

/** Values exercising records in many ways (all survive a round trip unchanged). */
function variedValues(): unknown[] {
  const row = (id: number) => ({ id, name: `row ${id}`, ok: id % 2 === 0, score: id / 4 });
  return [
    {},
    { a: 1 },
    [{ a: 1 }, { a: 2 }],
    [{}, {}, { a: {} }],
    { user: { id: 1, name: "ann", tags: ["x", "y"] }, items: [{ id: 1, qty: 2 }, { id: 2 }] },
    { n: 64, m: 127, l: [100, 65, 0x3f, 0x80], neg: -64 },
    { 1: "one", b: 2, 0: "zero" },
    { "ключ": 1, "🔑": 2, "a-b": 3, "with space": 4, "": 5, "0x": 6 },
    Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`key${i}`, i])),
    Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`wide${i}`, i % 3])),
    { v: 1, next: { v: 2, next: { v: 3, next: { v: 4, next: null } } } },
    new Map<unknown, unknown>([["k", { a: 1 }], [2, [{ a: 2 }, { b: 3 }]]]),
    { date: new Date(1500), big: 5n, undef: undefined, nil: null, bin: new Uint8Array([1, 2]) },
    { nested: [[{ p: 1 }], [{ p: 2, q: [{ p: 3 }] }]] },
    Array.from({ length: 1000 }, (_, i) => row(i)),
    Array.from({ length: 50 }, (_, i) => i % 2 ? row(i) : { other: i, kind: "other" }),
    "plain string",
    [1, 2, 3],
    100,
  ];
}

/**
 * A comparable form of a decoded value: bin values (views, Buffers from msgpackr) become arrays of
 * bytes, and Maps (what a records Unpackr makes of plain maps) plain objects, as records are.
 */
function normalise(value: unknown): unknown {
  if (value instanceof Uint8Array) return Array.from(value);
  if (value instanceof Map) {
    return Object.fromEntries(Array.from(value, ([key, item]) => [String(key), normalise(item)]));
  }
  if (Array.isArray(value)) return value.map(normalise);
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, normalise(item)]));
  }
  return value;
}

/** Packs `values` in order with both encoders, asserts identical bytes, decodes both ways. */
function assertInterop(makeOptions: () => PackrOptions, values: readonly unknown[]): string[] {
  const pair = packrPair(makeOptions);
  const steps = packBoth(pair, values);
  const { ours, theirs } = hexSteps(steps);
  assert.deepEqual(ours, theirs);
  // decoders with the same options; with shared structures, the table the packers ended with
  const decoderOptions = (): PackrOptions => {
    const options = makeOptions();
    return options.structures
      ? { ...options, structures: copyStructures(pair.ours.structures) }
      : options;
  };
  const ourUnpackr = new Unpackr(decoderOptions());
  const theirUnpackr = new msgpackr.Unpackr(theirOptions(decoderOptions()));
  for (const step of steps) {
    const expected = normalise(step.value);
    assert.deepEqual(normalise(ourUnpackr.unpack(step.theirs)), expected);
    assert.deepEqual(normalise(theirUnpackr.unpack(step.ours)), expected);
  }
  return ours;
}

/** Number of one-byte inline definitions (`d4 72`) in a hex dump of values that cannot hold it. */
function countDefinitions(hexBytes: string): number {
  return hexBytes.split("d4 72 ").length - 1;
}

describe("records: default Packr", () => {
  test("Packr.pack() writes msgpackr's bytes for every testdata payload", () => {
    for (const [name, value] of benchPayloads) {
      const ours = new Packr().pack(value);
      const theirs = new msgpackr.Packr().pack(value);
      assert.equal(hex(ours), hex(theirs), name);
      assert.deepEqual(new Unpackr().unpack(theirs), value, name);
      assert.deepEqual(new msgpackr.Unpackr().unpack(ours), value, name);
    }
  });

  test("Packr.pack() matches msgpackr across consecutive packs of one instance", () => {
    const values = [...benchPayloads.values(), ...benchPayloads.values()];
    assertInterop(() => ({}), values);
  });

  test("Packr.pack() matches msgpackr for varied record data", () => {
    assertInterop(() => ({}), variedValues());
  });

  test("Packr.pack() writes the documented records ([{a:1},{a:2}])", () => {
    const packr = new Packr();
    assert.equal(hex(packr.pack({ a: 1 })), "d4 72 40 91 a1 61 01");
    assert.equal(hex(packr.pack([{ a: 1 }, { a: 2 }])), "92 d4 72 40 91 a1 61 01 40 02");
    // own structures are forgotten between packs: the next message defines {a} again
    assert.equal(hex(packr.pack({ a: 3 })), "d4 72 40 91 a1 61 03");
  });

  test("Packr.pack() writes integers 64..127 as uint8 because 0x40..0x7f are record ids", () => {
    const values = [64, 100, 127, [64, 127], { n: 0x7f }];
    const bytes = assertInterop(() => ({}), values);
    assert.deepEqual(bytes.slice(0, 3), ["cc 40", "cc 64", "cc 7f"]);
  });

  test("Packr.pack() renames a __proto__ field to __proto_ on decoding, as msgpackr", () => {
    const value = JSON.parse('[{"__proto__": 1, "b": 2}, {"__proto__": 3, "b": 4}]');
    const ours = new Packr().pack(value);
    const theirs = new msgpackr.Packr().pack(value);
    assert.equal(hex(ours), hex(theirs));
    const expected = [{ __proto_: 1, b: 2 }, { __proto_: 3, b: 4 }];
    assert.deepEqual(new Unpackr().unpack(theirs), expected);
    assert.deepEqual(new msgpackr.Unpackr().unpack(ours), expected);
    assert.equal(Object.getPrototypeOf(new Unpackr().unpack(ours)[0]), Object.prototype);
  });

  test("Packr.pack() writes a getter's value, as msgpackr", () => {
    let reads = 0;
    const row = () => ({
      a: 1,
      get b() {
        reads++;
        return [2, 3];
      },
      c: "x",
    });
    const value = [row(), row(), { a: 1, b: [2, 3], c: "x" }];
    const ours = new Packr().pack(value);
    assert.equal(reads, 2, "each getter is read once");
    assert.equal(hex(ours), hex(new msgpackr.Packr().pack(value)));
    assert.deepEqual(new Unpackr().unpack(ours), [
      { a: 1, b: [2, 3], c: "x" },
      { a: 1, b: [2, 3], c: "x" },
      { a: 1, b: [2, 3], c: "x" },
    ]);
  });

  test("Packr.pack() throws when a getter deletes a property of its own object", () => {
    // the record's keys were taken before the values were read: the values would no longer
    // match them (msgpackr writes them shifted under the wrong keys)
    const packr = new Packr();
    const value: Record<string, unknown> = {
      a: 1,
      get b() {
        delete value.c;
        return 2;
      },
      c: 3,
    };
    assert.throws(() => packr.pack([value]), /properties changed while it was being packed/);
    // the instance packs on afterwards
    const next = [{ a: 1, c: 3 }, { a: 2, c: 4 }];
    assert.equal(hex(packr.pack(next)), hex(new msgpackr.Packr().pack(next)));
    assert.deepEqual(unpack(packr.pack(next)), next);
  });

  test("Packr.pack() writes class instances as records of their own fields", () => {
    class Point {
      x = 1;
      y = 2;
    }
    const value = [new Point(), new Point(), { x: 3, y: 4 }];
    const ours = new Packr().pack(value);
    assert.equal(hex(ours), hex(new msgpackr.Packr().pack(value)));
    assert.deepEqual(new msgpackr.Unpackr().unpack(ours), [{ x: 1, y: 2 }, { x: 1, y: 2 }, {
      x: 3,
      y: 4,
    }]);
  });
});

describe("records: id allocation and reuse", () => {
  test("Packr.pack() reuses ids 0x40.. after 64 own shapes, redefining each (70 shapes)", () => {
    const [bytes] = assertInterop(() => ({}), [distinctShapes(70)]);
    assert.equal(countDefinitions(bytes), 70);
    // shape 0 takes 0x40, shape 63 takes 0x7f, shape 64 takes 0x40 again, shape 69 0x45
    assert.ok(bytes.includes("d4 72 40 92 a2 6b 30 a1 78"));
    assert.ok(bytes.includes("d4 72 7f 92 a3 6b 36 33 a1 78"));
    assert.ok(bytes.includes("d4 72 40 92 a3 6b 36 34 a1 78"));
    assert.ok(bytes.includes("d4 72 45 92 a3 6b 36 39 a1 78"));
  });

  test("Packr.pack() redefines evicted shapes when they come back in the same message", () => {
    const shapes = distinctShapes(70);
    const [bytes] = assertInterop(() => ({}), [[...shapes, ...shapes, shapes[69], shapes[0]]]);
    // every shape of the second round was evicted before it came back; then shape 69 is still
    // among the 64 newest own structures (a reference) but shape 0 is not (a fourth definition)
    assert.equal(countDefinitions(bytes), 141);
  });

  test("Packr.pack() matches msgpackr for 200 shapes over several messages", () => {
    const values = [
      distinctShapes(200),
      distinctShapes(200, "k", 100),
      [distinctShapes(5), distinctShapes(100, "z")],
    ];
    assertInterop(() => ({}), values);
  });

  for (const maxOwnStructures of [1, 2, 16, 63, 64, 100]) {
    test(`Packr({maxOwnStructures: ${maxOwnStructures}}) allocates own ids as msgpackr`, () => {
      const shapes = distinctShapes(120);
      const values = [shapes, [shapes[3], shapes[3], shapes[110], shapes[3]], shapes.slice(60)];
      assertInterop(() => ({ maxOwnStructures }), values);
    });
  }

  test("Packr({maxOwnStructures: 100}) writes two-byte definitions beyond id 0x5f", () => {
    const [bytes] = assertInterop(() => ({ maxOwnStructures: 100 }), [distinctShapes(70)]);
    // id 0x60 (slot 32) is `d5 72 60 00`, slot 64 is `d5 72 60 01`
    assert.ok(bytes.includes("d5 72 60 00 92 a3 6b 33 32"));
    assert.ok(bytes.includes("d5 72 60 01 92 a3 6b 36 34"));
  });

  test("Packr({maxOwnStructures: 0}) without shared structures writes plain maps", () => {
    const [bytes] = assertInterop(() => ({ maxOwnStructures: 0 }), [[{ a: 1 }, { a: 2 }], {
      b: 1,
    }]);
    assert.equal(bytes, "92 de 00 01 a1 61 01 de 00 01 a1 61 02");
  });

  test("Packr({maxOwnStructures: 0}) falls back to a plain map when the shared table is full", () => {
    const make = (): PackrOptions => ({
      structures: [["a"]],
      maxSharedStructures: 1,
      maxOwnStructures: 0,
    });
    const [bytes] = assertInterop(make, [[{ a: 1 }, { b: 2 }]]);
    assert.equal(bytes, "92 40 01 de 00 01 a1 62 02");
  });

  test("Packr({maxOwnStructures: 0}) shares shapes while there is room, then writes maps", () => {
    const make = (): PackrOptions => ({
      structures: [],
      maxSharedStructures: 2,
      maxOwnStructures: 0,
    });
    const bytes = assertInterop(make, [distinctShapes(5), distinctShapes(5)]);
    assert.equal(bytes[0], bytes[1]);
    assert.equal(countDefinitions(bytes[0]), 0);
  });
});

describe("records: useRecords", () => {
  test("Packr({useRecords: fn}) writes records only for objects the function accepts", () => {
    const seen: object[] = [];
    const useRecords = (object: object) => {
      seen.push(object);
      return !("raw" in object);
    };
    const values = [
      [{ a: 1 }, { raw: 1 }, { a: 2 }, { raw: 2, a: 1 }, 100],
      { outer: { raw: true, inner: { a: 3 } } },
      ...benchPayloads.values(),
    ];
    const bytes = assertInterop(() => ({ useRecords }), values);
    assert.equal(
      bytes[0],
      "95 d4 72 40 91 a1 61 01 de 00 01 a3 72 61 77 01 40 02 de 00 02 a3 72 61 77 02 a1 61 01 cc 64",
    );
    assert.ok(seen.length > 0);
  });

  test("Packr({useRecords: () => false}) writes maps but still keeps 0x40..0x7f for records", () => {
    const bytes = assertInterop(() => ({ useRecords: () => false }), [{ n: 64 }]);
    assert.equal(bytes[0], "de 00 01 a1 6e cc 40");
  });

  test("Packr({useRecords: false}) writes map16 objects and fixints, as msgpackr", () => {
    const values = [{ n: 64, m: 127 }, [{ a: 1 }, { a: 2 }], ...benchPayloads.values()];
    const bytes = assertInterop(() => ({ useRecords: false }), values);
    assert.equal(bytes[0], "de 00 02 a1 6e 40 a1 6d 7f");
    assert.equal(bytes[1], "92 de 00 01 a1 61 01 de 00 01 a1 61 02");
  });

  test("Unpackr({useRecords: false}) and unpack() still read record definitions", () => {
    const bytes = fromHex("92 d4 72 40 91 a1 61 01 40 02");
    assert.deepEqual(new Unpackr({ useRecords: false }).unpack(bytes), [{ a: 1 }, { a: 2 }]);
    assert.deepEqual(unpack(bytes), [{ a: 1 }, { a: 2 }]);
    assert.deepEqual(new Unpackr({ sequential: true }).unpack(bytes), [{ a: 1 }, { a: 2 }]);
    assert.deepEqual(msgpackr.unpack(bytes), [{ a: 1 }, { a: 2 }]);
  });
});

describe("records: fixints 0x40..0x7f without a structure", () => {
  const cases: [string, unknown][] = [
    ["40", 64],
    ["7f", 127],
    ["93 40 5f 7f", [64, 95, 127]],
    ["de 00 01 a1 6e 55", { n: 85 }],
  ];

  test("Unpackr.unpack() and unpack() read a byte 0x40..0x7f with no structure as the integer", () => {
    for (const [bytes, expected] of cases) {
      assert.deepEqual(unpack(fromHex(bytes)), expected, bytes);
      assert.deepEqual(msgpackr.unpack(fromHex(bytes)), expected, bytes);
      const asMaps = new Unpackr().unpack(fromHex(bytes));
      const theirs = new msgpackr.Unpackr().unpack(fromHex(bytes));
      assert.deepEqual(asMaps, theirs, bytes);
    }
    for (let byte = 0x40; byte < 0x80; byte++) {
      assert.equal(new Unpackr().unpack(new Uint8Array([byte])), byte);
      assert.equal(new Unpackr({ sequential: true }).unpack(new Uint8Array([byte])), byte);
    }
  });

  test("Unpackr.unpack() reads an id as the integer when only other slots hold structures", () => {
    const bytes = fromHex("93 40 01 41 7f");
    const ours = new Unpackr({ structures: [["a"]] }).unpack(bytes);
    const theirs = new msgpackr.Unpackr({ structures: [["a"]] }).unpack(bytes);
    assert.deepEqual(ours, [{ a: 1 }, 65, 127]);
    assert.deepEqual(theirs, ours);
  });

  test("Unpackr.unpack() forgets inline definitions after each message", () => {
    const unpackr = new Unpackr();
    assert.deepEqual(unpackr.unpack(fromHex("d4 72 40 91 a1 61 01")), { a: 1 });
    assert.equal(unpackr.unpack(fromHex("40")), 64);
    assert.deepEqual(unpackMultiple(fromHex("d4 72 40 91 a1 61 01 40 02")), [{ a: 1 }, { a: 2 }]);
    assert.equal(unpack(fromHex("40")), 64);
  });

  test("Unpackr.unpack() calls getStructures once and then reads the integer", () => {
    let calls = 0;
    const unpackr = new Unpackr({
      getStructures: () => {
        calls++;
        return [["a"]];
      },
    });
    assert.deepEqual(unpackr.unpack(fromHex("92 41 40 05")), [65, { a: 5 }]);
    assert.equal(calls, 1);
  });
});
