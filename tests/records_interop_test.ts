// Copyright 2026 the @x/msgpackr authors. MIT license.
// Random-value interop with npm msgpackr 2.1.3 with records on: default Packr, shared structures
// (more than 32, so two-byte ids, and a full shared table, so two-byte own definitions),
// sequential across messages, moreTypes, bundleStrings with records, structuredClone with records
// (also with few own ids, so that shapes are defined again within a message).
// For a fixed seed and a few thousand values per option set, our Packr and msgpackr's (same
// options, separate but equal structures arrays) write the same bytes, end with equal tables, and
// each library decodes the other's bytes to the value the other decodes from its own.
// Values come from fuzz/_shaped.ts: objects drawn from a pool of shapes, so records repeat.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { C1, Packr, type PackrOptions, type Structure, Unpackr } from "../mod.ts";
import { crossLibraryPrototypeOf, mulberry32, toHex, valuesDiffer } from "../fuzz/_fuzz.ts";
import { shapedValue, shapePool } from "../fuzz/_shaped.ts";
import { theirBytesOf } from "./_interop.ts";
import { copyStructures, plainStructures, theirOptions, theirStructures } from "./_records.ts";

const prototypeOf = crossLibraryPrototypeOf([msgpackr.C1]);

/** One option set of the interop runs. */
interface RecordsSet {
  name: string;
  /** Fresh options for one encoder (msgpackr writes into the object it is given). */
  options(structures: Structure[]): PackrOptions;
  /** Values packed (a few thousand per set). */
  count: number;
  /** Distinct shapes in the pool. */
  shapes: number;
  moreTypes: boolean;
  references: boolean;
  c1: boolean;
  /** Strings may start with a BOM (not with bundleStrings, see fuzz/_shaped.ts). */
  bom: boolean;
  /** Shared structures: decoders get the encoder's table after each message. */
  shared?: boolean;
  /** Sequential: one decoder per side reads every message in order. */
  sequential?: boolean;
  /**
   * Structured clone with few own ids: shapes are defined again within a message, their keys
   * written as pointers to the first definition's (the test after the runs).
   */
  redefinesShapes?: boolean;
}

const SETS: RecordsSet[] = [
  {
    name: "Packr()",
    options: () => ({}),
    count: 3000,
    shapes: 70, // more than the 64 own ids: ids are reused and shapes redefined
    moreTypes: false,
    references: false,
    c1: true,
    bom: true,
  },
  {
    name: "Packr({structures, maxSharedStructures: 100})",
    options: (structures) => ({ structures, maxSharedStructures: 100 }),
    count: 2000,
    shapes: 130, // slots 32.. take two-byte ids; past 100 shapes own ids are two-byte too
    moreTypes: false,
    references: false,
    c1: true,
    bom: true,
    shared: true,
  },
  {
    name: "Packr({structures}) (32 shared, own ids 0x60..0x7f)",
    options: (structures) => ({ structures }),
    count: 1000,
    shapes: 50,
    moreTypes: false,
    references: false,
    c1: true,
    bom: true,
    shared: true,
  },
  {
    name: "Packr({sequential})",
    options: () => ({ sequential: true }),
    count: 2000,
    shapes: 40, // more than the 32 sequential ids: ids wrap and shapes are redefined
    moreTypes: false,
    references: false,
    c1: true,
    bom: true,
    sequential: true,
  },
  {
    name: "Packr({moreTypes})",
    options: () => ({ moreTypes: true }),
    count: 2000,
    shapes: 20,
    moreTypes: true,
    references: false,
    c1: true,
    bom: true,
  },
  {
    name: "Packr({bundleStrings})",
    options: () => ({ bundleStrings: true }),
    count: 2000,
    shapes: 20,
    moreTypes: false,
    references: false,
    c1: false, // c1 introduces a bundled string
    bom: false,
  },
  {
    name: "Packr({structuredClone})",
    options: () => ({ structuredClone: true }),
    count: 2000,
    shapes: 20,
    moreTypes: true,
    references: true,
    c1: true,
    bom: true,
  },
  {
    name: "Packr({structuredClone, maxOwnStructures: 8})",
    options: () => ({ structuredClone: true, maxOwnStructures: 8 }),
    count: 1000,
    shapes: 20, // more than the 8 own ids: a shape defined again points to its keys
    moreTypes: true,
    references: true,
    c1: true,
    bom: true,
    redefinesShapes: true,
  },
];

describe("random values with records against msgpackr", () => {
  for (const set of SETS) {
    test(`${set.name} writes msgpackr's bytes and decodes alike for ${set.count} random values`, () => {
      const seed = 0x5eed + set.name.length * 7919;
      const shapes = shapePool(mulberry32(seed), set.shapes);
      const ourTable: Structure[] = [];
      const theirTable: Structure[] = [];
      const ours = new Packr(set.options(ourTable));
      const theirs = new msgpackr.Packr(theirOptions(set.options(theirTable)));
      // one decoder per side for the whole run: a sequential one keeps its definitions; with
      // shared structures each loads a copy of the other encoder's table when it meets an id it
      // does not know (msgpackr cannot read ids ≥ 0x60 of a table given directly)
      const ourDecoder = new Unpackr(
        set.sequential
          ? { sequential: true }
          : set.shared
          ? { getStructures: () => copyStructures(theirStructures(theirs)) }
          : {},
      );
      const theirDecoder = new msgpackr.Unpackr(
        set.sequential
          ? { sequential: true }
          : set.shared
          ? { getStructures: () => copyStructures(ourTable) }
          : {},
      );
      const identity = set.references;
      const usedIds = new Set<string>();
      let keyPointers = 0;
      for (let i = 0; i < set.count; i++) {
        const make = (c1: object) =>
          shapedValue(mulberry32(seed + i), {
            shapes,
            moreTypes: set.moreTypes,
            references: set.references,
            c1: set.c1 ? c1 : null,
            bom: set.bom,
          });
        const ourBytes = ours.pack(make(C1));
        // msgpackr's bytes for the value with well-formed strings (tests/_interop.ts)
        const theirBytes = theirBytesOf(theirs, make(msgpackr.C1));
        const label = `${set.name}, value #${i} (seed ${seed + i})`;
        const differ = firstDifference(ourBytes, theirBytes);
        if (differ !== null) assert.fail(`${label}: bytes differ ${differ}`);
        if (definesKeysByPointer(ourBytes)) keyPointers++;
        if (set.shared) {
          assert.deepEqual(
            plainStructures(ourTable),
            plainStructures(theirStructures(theirs)),
            `${label}: structures`,
          );
        }
        noteIds(ourBytes, usedIds);
        const ourView = ourDecoder.unpack(theirBytes);
        const theirView = theirDecoder.unpack(ourBytes);
        const problem = valuesDiffer(ourView, theirView, { identity, prototypeOf });
        if (problem !== null) assert.fail(`${label}: ${problem}\nbytes: ${toHex(ourBytes)}`);
      }
      // the run reached what the set is about
      if (set.shared && set.shapes > 100) {
        assert.equal(ourTable.length, 100);
        assert.ok(usedIds.has("d5 72"), "two-byte own definitions");
      }
      if (set.sequential) assert.ok(usedIds.has("redefined"), "sequential ids reused");
      if (set.redefinesShapes) assert.ok(keyPointers > 0, "record keys by pointer");
    });
  }

  // With structuredClone, a shape whose own id was reused (more than 64 own shapes in one
  // message) is defined again, and its keys array is an object already written in this message:
  // msgpackr packs it as a pointer (`d6 70 id`) to the keys of the first definition, which gets
  // a reference id (`d6 69 id` inserted before it). Both decoders read either form.
  test(
    "Packr({structuredClone}) writes a redefined shape's keys as a pointer, as msgpackr",
    () => {
      const shapes = (from: number, to: number) =>
        Array.from({ length: to - from }, (_, i) => ({ [`k${from + i}`]: from + i }));
      const value: Record<string, number>[] = [...shapes(0, 66), { k0: 1 }];
      const ours = new Packr({ structuredClone: true }).pack(value);
      const theirs = new msgpackr.Packr({ structuredClone: true }).pack(value);
      assert.equal(toHex(ours), toHex(theirs));
      assert.equal(toHex(ours.subarray(0, 16)), "dc0043d47240d6690000000191a26b30");
      assert.equal(toHex(ours.subarray(-10)), "d47242d6700000000101");
      // a third definition of the shape points to the same keys
      const again = [...value, ...shapes(66, 130), { k0: 2 }];
      const oursAgain = new Packr({ structuredClone: true }).pack(again);
      assert.equal(
        toHex(oursAgain),
        toHex(new msgpackr.Packr({ structuredClone: true }).pack(again)),
      );
      assert.equal(toHex(oursAgain.subarray(-10)), "d47243d6700000000102");
      for (const [bytes, expected] of [[ours, value], [oursAgain, again]] as const) {
        assert.deepEqual(new Unpackr({ structuredClone: true }).unpack(bytes), expected);
        assert.deepEqual(new msgpackr.Unpackr({ structuredClone: true }).unpack(bytes), expected);
      }
    },
  );
});

describe("found by the random interop runs", () => {
  // An Unpackr with getStructures that loaded a table of more than 32 shared structures meets
  // the two-byte id (high byte 0) of a shared slot ≥ 32 added to the table after it loaded: the
  // slot only reads second bytes, so it is empty, and getStructures is called again, as for any
  // unknown id (msgpackr reloads the same way).
  test(
    "Unpackr({getStructures}) reloads for a two-byte id of a shared slot added since it loaded",
    () => {
      const table: Structure[] = [];
      const packr = new Packr({ structures: table, maxSharedStructures: 100 });
      const shapes = (from: number, to: number) =>
        Array.from({ length: to - from }, (_, i) => ({ [`k${from + i}`]: i }));
      const load = () => copyStructures(table);
      const ours = new Unpackr({ getStructures: load });
      const theirs = new msgpackr.Unpackr({ getStructures: load });
      const first = packr.pack(shapes(0, 34)); // slots 0..33: both decoders load 34 structures
      assert.equal(ours.unpack(first).length, 34);
      assert.equal(theirs.unpack(first).length, 34);
      const second = packr.pack(shapes(34, 36)); // 92 62 00 00 63 00 01: slots 34 and 35
      assert.equal(toHex(second), "92620000630001");
      assert.deepEqual(theirs.unpack(second), [{ k34: 0 }, { k35: 1 }]);
      assert.deepEqual(ours.unpack(second), [{ k34: 0 }, { k35: 1 }]);
    },
  );
});

/** msgpackr's bytes hold a record definition whose keys are a structured-clone pointer. */
function definesKeysByPointer(bytes: Uint8Array): boolean {
  for (let i = 0; i + 4 < bytes.length; i++) {
    if (bytes[i + 1] !== 0x72) continue;
    if (bytes[i] === 0xd4 && bytes[i + 3] === 0xd6 && bytes[i + 4] === 0x70) return true;
    if (bytes[i] === 0xd5 && bytes[i + 4] === 0xd6 && bytes[i + 5] === 0x70) return true;
  }
  return false;
}

/** Records what kinds of record ids the bytes hold (a rough scan, for the coverage checks). */
function noteIds(bytes: Uint8Array, used: Set<string>): void {
  const ids = new Set<number>();
  for (let i = 0; i + 2 < bytes.length; i++) {
    if (bytes[i] === 0xd5 && bytes[i + 1] === 0x72) used.add("d5 72");
    if (bytes[i] === 0xd4 && bytes[i + 1] === 0x72) {
      if (ids.has(bytes[i + 2])) used.add("redefined");
      ids.add(bytes[i + 2]);
    }
  }
}

/** Where two byte strings first differ, with some bytes of each from there, or null. */
function firstDifference(ours: Uint8Array, theirs: Uint8Array): string | null {
  let at = 0;
  while (at < ours.length && at < theirs.length && ours[at] === theirs[at]) at++;
  if (at === ours.length && at === theirs.length) return null;
  const from = Math.max(0, at - 8);
  return `at byte ${at} of ${ours.length} (msgpackr: ${theirs.length}):\n  ours:     ${
    toHex(ours.subarray(from, at + 24))
  }\n  msgpackr: ${toHex(theirs.subarray(from, at + 24))}`;
}
