// Copyright 2026 the @x/msgpackr authors. MIT license.
// The default build's generated writers (_encode/writer_compiler.ts, "generated writers" in
// _encode/encoder.ts): a shape written often is packed by a generated function, which must write
// exactly the generic path's bytes (msgpackr's), check the shape of every object it is given,
// keep every option, stay within its budgets, and leave every other shape to the generic path.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { pack, Packr, type PackrOptions, unpack } from "../mod.ts";
import { compilesDuring, hex } from "./_util.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

/** Packs `values` one by one with ours and msgpackr's packer made with `options`, many times. */
function assertSameBytes(values: unknown[], options: PackrOptions = {}, rounds = 8): void {
  const ours = new Packr(options);
  const theirs = new msgpackr.Packr(options as Any);
  for (let round = 0; round < rounds; round++) {
    for (const [i, value] of values.entries()) {
      assert.equal(hex(ours.pack(value)), hex(theirs.pack(value)), `round ${round}, value ${i}`);
    }
  }
}

/** A key of `length` bytes, unique to this test file and `tag`. */
function key(tag: string, length: number): string {
  return `${tag}${"k".repeat(Math.max(0, length - tag.length - 1))}${length}`.slice(-length);
}

describe("generated writers", () => {
  test("write msgpackr's bytes for keys of every length, plain maps and records", () => {
    for (let length = 1; length <= 31; length++) {
      const names = [key("gw", length), `x${length}`, "0", "a-b", "ünï"];
      const rows = Array.from(
        { length: 12 },
        (_, i) => Object.fromEntries(names.map((name, j) => [name, j % 2 ? `s${i}` : i * j])),
      );
      assertSameBytes([rows, rows[0]], { useRecords: false });
      assertSameBytes([rows], {});
      for (const row of rows) assert.equal(hex(pack(row)), hex(msgpackr.pack(row)));
    }
  });

  test("are made lazily, after a shape was written a few times, and then used", () => {
    const packr = new Packr({ useRecords: false });
    const row = (i: number) => ({ gwLazyA: i, gwLazyB: `b${i}` });
    const first = compilesDuring(() => packr.pack(row(0)));
    assert.equal(first.compiles, 0, "one object makes no writer");
    const many = compilesDuring(() => packr.pack(Array.from({ length: 10 }, (_, i) => row(i))));
    assert.equal(many.compiles, 1, "one writer for the shape");
    const again = compilesDuring(() => packr.pack(Array.from({ length: 10 }, (_, i) => row(i))));
    assert.equal(again.compiles, 0, "made once");
    assert.deepEqual(unpack(again.result), Array.from({ length: 10 }, (_, i) => row(i)));
  });

  test("check every object's keys: other shapes at the same place take the generic path", () => {
    const base = Array.from({ length: 8 }, (_, i) => ({ gwA: i, gwB: "x" }));
    const others: Record<string, unknown>[] = [
      { gwA: 1 }, // fewer keys
      { gwA: 1, gwB: "x", gwC: 2 }, // more keys
      { gwB: "x", gwA: 1 }, // another order
      { gwA: 1, gwZ: "x" }, // another key
      {}, // none
    ];
    const proto = { gwInherited: 1 };
    const inherits = Object.assign(Object.create(proto), { gwA: 1, gwB: "x" });
    const hidden = { gwA: 1, gwB: "x" };
    Object.defineProperty(hidden, "gwHidden", { value: 3, enumerable: false });
    const values = [...base, ...others, inherits, hidden, ...base];
    assertSameBytes([values], { useRecords: false });
    assertSameBytes([values], {});
    assert.deepEqual(unpack(pack(values)).slice(8, 13), others);
  });

  test("take the generic writer for a value of another type than before", () => {
    const rows: Record<string, unknown>[] = Array.from(
      { length: 8 },
      (_, i) => ({ gwT: `s${i}`, gwN: i, gwO: { i } }),
    );
    const odd: unknown[] = [
      "str",
      1.5,
      -(2 ** 40),
      2 ** 53 + 2,
      12345678901234567890n,
      null,
      undefined,
      true,
      [1, "two"],
      new Date(1700000000000),
      new Uint8Array([1, 2]),
      new Map([[1, 2]]),
      new Set([1]),
      { nested: { deep: [1] } },
      "x".repeat(300),
      "ü".repeat(40),
    ];
    const values = [
      ...rows,
      ...odd.map((value) => ({ gwT: value, gwN: value, gwO: value })),
    ];
    const optionSets: PackrOptions[] = [{ useRecords: false }, {}, {
      useRecords: false,
      moreTypes: true,
    }];
    for (const options of optionSets) {
      // with moreTypes a Uint8Array stays bin here
      // (docs/wire-format.md, "Where we differ from msgpackr")
      const compared = options.moreTypes
        ? values.filter((value) => !(value.gwT instanceof Uint8Array))
        : values;
      assertSameBytes([compared], options);
    }
  });

  test("nested plain objects and arrays of objects of changing shapes keep msgpackr's bytes", () => {
    class Point {
      constructor(public gwX: number, public gwY: number) {}
    }
    const inner = [
      { gwIn1: 1, gwIn2: "a" },
      { gwIn1: 2, gwIn2: "b" },
      { gwIn2: "c", gwIn1: 3 }, // another order
      { gwIn1: 4 }, // fewer keys
      new Point(1, 2), // a class instance
      Object.assign(Object.create({ gwInherited: 1 }), { gwIn1: 5, gwIn2: "e" }),
      new Map([["gwIn1", 6]]),
      new Date(1700000000000),
      { toJSON: () => "json" },
      null,
      [{ gwIn1: 7, gwIn2: "g" }],
    ];
    const rows = Array.from({ length: 30 }, (_, i) => ({
      gwOuter: i,
      gwNested: inner[i % inner.length],
      gwList: [inner[i % 2], inner[(i + 3) % inner.length], inner[0]],
    }));
    for (
      const options of [{ useRecords: false }, {}, { useRecords: false, structuredClone: true }]
    ) {
      assertSameBytes([rows, { gwTop: rows }], options);
    }
  });

  test("keep the options: undefined as nil, structured clone, bundles, useRecords, toJSON", () => {
    const shared = { gwShared: 1 };
    const rows = Array.from({ length: 8 }, (_, i) => ({
      gwU: i % 2 ? undefined : i,
      gwS: `text ${i} of some length`,
      gwR: shared,
      gwD: new Date(1700000000000 + i),
      gwJ: { toJSON: () => `json ${i}` },
    }));
    const cases: PackrOptions[] = [
      { useRecords: false },
      { useRecords: false, encodeUndefinedAsNil: true },
      { useRecords: false, structuredClone: true },
      { structuredClone: true },
      { useRecords: false, bundleStrings: true },
      { bundleStrings: true },
      { useRecords: (object: object) => "gwU" in object },
      { useRecords: false, useTimestamp32: true },
    ];
    for (const options of cases) assertSameBytes([rows, rows[1]], options);
    const clone = new Packr({ structuredClone: true });
    const copy = clone.unpack(clone.pack(rows)) as typeof rows;
    assert.equal(copy[0].gwR, copy[7].gwR, "the shared object stays shared");
  });

  test("a getter that deletes a later property: a map drops it, a record throws", () => {
    const make = () => {
      const value: Record<string, unknown> = {
        gwG1: 1,
        get gwG2() {
          delete value.gwG3;
          return 2;
        },
        gwG3: 3,
      };
      return value;
    };
    const plain = Array.from({ length: 8 }, (_, i) => ({ gwG1: i, gwG2: i, gwG3: i }));
    const packr = new Packr({ useRecords: false });
    packr.pack(plain); // the shape has its writer now
    assert.equal(
      hex(packr.pack([...plain, make()])),
      hex(msgpackr.pack([...plain, make()])),
    );
    const records = new Packr();
    records.pack(plain);
    assert.throws(() => records.pack([...plain, make()]), /properties changed/);
  });

  test("keep maxDepth for nested objects of compiled shapes", () => {
    type Node = { gwNext: Node | null; gwV: number };
    let chain: Node | null = null;
    for (let i = 0; i < 50; i++) chain = { gwNext: chain, gwV: i };
    const packr = new Packr({ useRecords: false, maxDepth: 20 });
    for (let i = 0; i < 8; i++) packr.pack({ gwNext: null, gwV: i });
    assert.throws(() => packr.pack(chain), /maxDepth/);
    const deep = new Packr({ useRecords: false });
    assert.deepEqual(deep.unpack(deep.pack(chain)), chain);
  });

  test("are bounded: at most 16 made per pack, the rest later", () => {
    const shapes = Array.from({ length: 40 }, (_, s) => `gwBound${s}`);
    const value = shapes.flatMap((name) =>
      Array.from({ length: 5 }, (_, i) => ({ [name]: i, gwBoundX: i }))
    );
    const packr = new Packr({ useRecords: false });
    assert.equal(compilesDuring(() => packr.pack(value)).compiles, 16);
    assert.equal(compilesDuring(() => packr.pack(value)).compiles, 16);
    assert.equal(compilesDuring(() => packr.pack(value)).compiles, 8);
    assert.equal(compilesDuring(() => packr.pack(value)).compiles, 0);
    assert.equal(hex(packr.pack(value)), hex(msgpackr.pack(value)));
  });
});
