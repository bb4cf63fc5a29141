// Copyright 2026 the @x/msgpackr authors. MIT license.
// Sequential records (docs/wire-format.md, "The decoder's structure table", "Sequential mode"): a
// `sequential` Packr defines each shape once per stream and references it in later messages; the
// output decodes in order with a sequential Unpackr or `unpackMultiple`. Compared byte for byte
// with msgpackr and decoded both ways.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { IncompleteDataError, Packr, Unpackr } from "../mod.ts";
import { concatBytes as concat } from "../_core/bytes.ts";
import { hex } from "./_util.ts";
import { allBenchData, distinctShapes, hexSteps, packBoth, packrPair } from "./_records.ts";

const benchPayloads = await allBenchData();

/** Packs `values` with both sequential encoders, asserts identical bytes, returns both streams. */
function packSequential(values: readonly unknown[]): { ours: Uint8Array; theirs: Uint8Array } {
  const steps = packBoth(packrPair(() => ({ sequential: true })), values);
  const { ours, theirs } = hexSteps(steps);
  assert.deepEqual(ours, theirs);
  return {
    ours: concat(steps.map((step) => step.ours)),
    theirs: concat(steps.map((step) => step.theirs)),
  };
}

/** Asserts that both streams decode to `values` with every sequential decoder we have. */
function assertDecodes(streams: { ours: Uint8Array; theirs: Uint8Array }, values: unknown[]): void {
  assert.deepEqual(new Unpackr({ sequential: true }).unpackMultiple(streams.theirs), values);
  assert.deepEqual(new Unpackr({ sequential: true }).unpackMultiple(streams.ours), values);
  assert.deepEqual(new msgpackr.Unpackr({ sequential: true }).unpackMultiple(streams.ours), values);
  // one call over the whole stream also keeps definitions from one value to the next
  assert.deepEqual(new Unpackr().unpackMultiple(streams.theirs), values);
  assert.deepEqual(new msgpackr.Unpackr().unpackMultiple(streams.ours), values);
}

describe("sequential records", () => {
  test("Packr({sequential: true}) defines a shape once and references it in later messages", () => {
    const packr = new Packr({ sequential: true });
    assert.equal(hex(packr.pack({ a: 1 })), "d4 72 40 91 a1 61 01");
    assert.equal(hex(packr.pack({ a: 2 })), "40 02");
    assert.equal(hex(packr.pack({ b: 2 })), "d4 72 41 91 a1 62 02");
    assert.equal(hex(packr.pack([{ b: 3 }, { a: 4 }])), "92 41 03 40 04");
  });

  test("Packr({sequential: true}) writes msgpackr's bytes for a sequence of messages", () => {
    const values = [
      { a: 1 },
      { a: 2 },
      { b: 2 },
      ...benchPayloads.values(),
      [{ a: 3 }, { b: 4 }, { c: 5 }],
      ...benchPayloads.values(),
      100,
      "x",
    ];
    assertDecodes(packSequential(values), values);
  });

  test("Packr({sequential: true}) reuses its 32 ids when more shapes come (id reuse)", () => {
    const shapes = distinctShapes(45);
    const values = [
      ...shapes,
      shapes[0], // evicted: defined again
      shapes[44], // still known: referenced
      shapes.slice(10, 30),
      distinctShapes(40, "z"),
      shapes,
    ];
    const streams = packSequential(values);
    assertDecodes(streams, values);
    const packr = new Packr({ sequential: true });
    const bytes = shapes.map((shape) => hex(packr.pack(shape)));
    // 32 own ids per stream: shape 32 takes 0x40 again
    assert.equal(bytes[0].slice(0, 9), "d4 72 40 ");
    assert.equal(bytes[31].slice(0, 9), "d4 72 5f ");
    assert.equal(bytes[32].slice(0, 9), "d4 72 40 ");
    assert.equal(hex(packr.pack(shapes[44])).slice(0, 3), "4c ");
  });

  test("Unpackr({sequential: true}).unpack() reads the messages one by one, in order", () => {
    const values = [{ a: 1 }, [{ a: 2 }, { b: 3 }], { b: 4 }, ...distinctShapes(40), { a: 5 }];
    const packr = new msgpackr.Packr({ sequential: true });
    const messages = values.map((value) => packr.pack(value));
    const ours = new Unpackr({ sequential: true });
    assert.deepEqual(messages.map((message) => ours.unpack(message)), values);
    // a non-sequential decoder forgets definitions: a later reference reads as an integer
    assert.equal(new Unpackr().unpack(messages[2].subarray(0, 1)), 0x41);
  });

  test("Unpackr({sequential: true}).unpackMultiple() calls forEach with each value's range", () => {
    const values = [{ a: 1 }, { a: 2 }, { b: [{ a: 3 }] }];
    const { ours } = packSequential(values);
    const seen: [unknown, number, number][] = [];
    new Unpackr({ sequential: true }).unpackMultiple(ours, (value, start, end) => {
      seen.push([value, start, end]);
    });
    assert.deepEqual(seen.map(([value]) => value), values);
    assert.deepEqual(seen.map(([, start, end]) => [start, end]), [[0, 7], [7, 9], [9, 18]]);
  });

  test("Unpackr({sequential: true}) keeps its table when a message is incomplete", () => {
    const packr = new Packr({ sequential: true });
    const first = packr.pack({ a: 1 });
    const second = packr.pack([{ b: "two" }, { a: 2 }]);
    const third = packr.pack([{ b: "three" }, { a: 3 }]);
    const unpackr = new Unpackr({ sequential: true });
    assert.deepEqual(unpackr.unpack(first), { a: 1 });
    assert.throws(() => unpackr.unpack(second.subarray(0, second.length - 2)), IncompleteDataError);
    assert.deepEqual(unpackr.unpack(second), [{ b: "two" }, { a: 2 }]);
    assert.deepEqual(unpackr.unpack(third), [{ b: "three" }, { a: 3 }]);
  });

  test("Packr({sequential: true, structures}) shares shapes instead of defining them, as msgpackr", () => {
    const values = [{ a: 1 }, [{ a: 2 }, { b: 3 }], ...distinctShapes(40)];
    const pair = packrPair(() => ({ sequential: true, structures: [] }));
    const steps = packBoth(pair, values);
    const { ours, theirs } = hexSteps(steps);
    assert.deepEqual(ours, theirs);
    assert.equal(ours[0], "40 01");
    const structures = pair.ours.structures.map((keys) => keys.slice());
    const unpackr = new Unpackr({ sequential: true, structures });
    assert.deepEqual(steps.map((step) => unpackr.unpack(step.theirs)), values);
  });
});
