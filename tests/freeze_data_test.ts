// Copyright 2026 the @x/msgpackr authors. MIT license.
// `freezeData` (docs/wire-format.md, "What the decoder returns"): every decoded array and every
// record is frozen, whichever path built it: the array loops for strings and for numbers and the
// plain one, empty arrays, array16 and array32; records on the interpreted reader (its first
// read, then the shape's pooled builder) and on the compiled one, which is cached by shape for
// every decoder in the process. So a shape compiled for a freezing Unpackr must not hand frozen
// records to a plain one, nor the other way round, in either order, nested in each other or not.
// Plain maps decoded as objects and `Map`s are never frozen, as in msgpackr, whose answers for
// the same bytes are compared too.
//
// Each test uses key names of its own: the compiled readers and pooled builders are shared by
// every test file that runs in the same process (`bun test`), and a shape must meet the
// decoders here for the first time.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { decodeIter, Packr, Unpackr, type UnpackrOptions, UnpackrStream } from "../mod.ts";
import { compilesDuring } from "./_util.ts";

/** How plain objects are written and read back. */
interface Form {
  name: string;
  packr: () => Packr;
  options: UnpackrOptions;
  /** What a decoded plain object is: a record (frozen with the data) or a map (never frozen). */
  objects: "record" | "map";
}
const FORMS: readonly Form[] = [
  { name: "records", packr: () => new Packr(), options: {}, objects: "record" },
  {
    name: "maps as objects",
    packr: () => new Packr({ useRecords: false }),
    options: { mapsAsObjects: true },
    objects: "map",
  },
  {
    name: "maps as Maps",
    packr: () => new Packr({ useRecords: false }),
    options: { mapsAsObjects: false },
    objects: "map",
  },
];
const READERS: readonly { name: string; options: UnpackrOptions }[] = [
  { name: "compiled", options: {} },
  { name: "interpreted", options: { compileRecordReaders: false } },
];

/** Decodes of the same bytes: records compile on their fourth read, and then come from cache. */
const ROUNDS = 6;

let shapes = 0;
/** A prefix for key names that no decoder of this process has met yet. */
const freshPrefix = () => `frz${shapes++}_`;

/**
 * Rows of one shape (so it is read often enough to compile within one decode), each with arrays
 * of every kind the decoder reads by a path of its own, records inside arrays and records, and
 * more than 16 properties (records that large start from a template object).
 */
function rows(prefix: string, count = 5): Record<string, unknown>[] {
  const small = (i: number) => ({ [`${prefix}a`]: i, [`${prefix}b`]: [i] });
  return Array.from({ length: count }, (_, i) => ({
    [`${prefix}strings`]: ["a", "bc", `d${i}`], // fixstr first: the string element loop
    [`${prefix}longStrings`]: ["x".repeat(40 + i), "y"], // str8 first: the plain loop
    [`${prefix}fixints`]: [1, 2, 300, -5, i],
    [`${prefix}floats`]: [1.5 + i, 2.25],
    [`${prefix}uint16`]: [1000 + i, 1],
    [`${prefix}negatives`]: [-1 - i, -2],
    [`${prefix}uint32`]: [70000 + i],
    [`${prefix}objects`]: [small(i), small(i + 1)],
    [`${prefix}empty`]: [],
    [`${prefix}nested`]: [[], [[i]], ["s"], [[]]],
    [`${prefix}mixed`]: [null, "s", 1, small(i), [true]],
    [`${prefix}array16`]: Array.from({ length: 20 }, (_, j) => j + i),
    [`${prefix}strings16`]: Array.from({ length: 20 }, (_, j) => `s${j}`),
    [`${prefix}objects16`]: Array.from({ length: 17 }, (_, j) => small(j)),
    [`${prefix}record`]: small(i),
    [`${prefix}id`]: i,
    [`${prefix}name`]: `row ${i}`,
  }));
}

/** An array, a plain object (a record or a map, as the form says) or a Map, where it is. */
interface Node {
  path: string;
  kind: "array" | "record" | "map" | "Map";
  frozen: boolean;
}

/** Every array, plain object and Map in `value`, depth first. */
function nodesOf(value: unknown, objects: Form["objects"], path = "$", out: Node[] = []): Node[] {
  if (Array.isArray(value)) {
    out.push({ path, kind: "array", frozen: Object.isFrozen(value) });
    value.forEach((item, i) => nodesOf(item, objects, `${path}[${i}]`, out));
  } else if (value instanceof Map) {
    out.push({ path, kind: "Map", frozen: Object.isFrozen(value) });
    for (const [key, item] of value) nodesOf(item, objects, `${path}.get(${String(key)})`, out);
  } else if (
    value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype
  ) {
    out.push({ path, kind: objects, frozen: Object.isFrozen(value) });
    for (const [key, item] of Object.entries(value)) nodesOf(item, objects, `${path}.${key}`, out);
  }
  return out;
}

/** `value` with every Map made a plain object, to compare what each form decodes. */
function plainOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainOf);
  if (value instanceof Map) {
    return Object.fromEntries(Array.from(value, ([key, item]) => [key, plainOf(item)]));
  }
  if (value !== null && typeof value === "object" && !ArrayBuffer.isView(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plainOf(item)]));
  }
  return value;
}

/**
 * Asserts that in `decoded` every array and record is frozen when `freeze` and none is when not,
 * that maps are never frozen, and that msgpackr (given the same bytes and options) agrees.
 */
function assertFrozen(
  decoded: unknown,
  expected: unknown,
  bytes: Uint8Array,
  form: Form,
  freeze: boolean,
  label: string,
): void {
  assert.deepEqual(plainOf(decoded), plainOf(expected), label);
  const nodes = nodesOf(decoded, form.objects);
  const wrong = nodes.filter((node) =>
    node.frozen !== (freeze && (node.kind === "array" || node.kind === "record"))
  );
  assert.deepEqual(wrong, [], `${label}: ${freeze ? "freezing" : "plain"} decoder`);
  const theirOptions = { ...form.options, freezeData: freeze } as msgpackr.Options;
  const theirs = new msgpackr.Unpackr(theirOptions).unpack(bytes);
  assert.deepEqual(
    nodesOf(theirs, form.objects),
    nodes,
    `${label}: msgpackr freezes the same values`,
  );
}

/**
 * Decodes `bytes` ROUNDS times with `unpackr`, checks every value, and returns how many readers
 * were compiled meanwhile.
 */
function decodeRounds(
  unpackr: Unpackr,
  bytes: Uint8Array,
  expected: unknown,
  form: Form,
  freeze: boolean,
  label: string,
): number {
  const { result, compiles } = compilesDuring(() =>
    Array.from({ length: ROUNDS }, () => unpackr.unpack(bytes))
  );
  result.forEach((decoded, round) => {
    assertFrozen(decoded, expected, bytes, form, freeze, `${label}, #${round}`);
  });
  return compiles;
}

describe("freezeData", () => {
  for (const form of FORMS) {
    for (const reader of READERS) {
      test(`${form.name}, ${reader.name} reader: every array and record is frozen`, () => {
        const value = rows(freshPrefix());
        const bytes = form.packr().pack(value);
        const unpackr = new Unpackr({ ...form.options, ...reader.options, freezeData: true });
        const compiles = decodeRounds(unpackr, bytes, value, form, true, form.name);
        // the compiled reader ran (records, and maps decoded as objects, compile their shapes)
        const compiling = reader.name === "compiled" && form.options.mapsAsObjects !== false;
        assert.equal(compiles > 0, compiling, `${compiles} readers compiled`);
        // every kind was there to be checked
        const kinds = new Set(nodesOf(unpackr.unpack(bytes), form.objects).map((n) => n.kind));
        assert.ok(kinds.has("array"));
        assert.ok(kinds.has(form.options.mapsAsObjects === false ? "Map" : form.objects));
        // a record alone (its reader runs at the top level) and the smallest arrays
        for (const single of [{ [`${freshPrefix()}only`]: [1] }, [], [[]], ["a"], [0], [{}]]) {
          const singleBytes = form.packr().pack(single);
          decodeRounds(unpackr, singleBytes, single, form, true, JSON.stringify(single));
        }
      });
    }
  }

  test("array32 is frozen too", () => {
    const value = new Array(70000).fill(0);
    const bytes = new Packr().pack(value);
    assert.equal(bytes[0], 0xdd);
    for (const freezeData of [true, false]) {
      const decoded = new Unpackr({ freezeData }).unpack(bytes);
      assert.equal(Object.isFrozen(decoded), freezeData);
      assert.deepEqual(decoded, value);
    }
  });

  for (const freezing of READERS) {
    for (const plain of READERS) {
      const readers = `freezing ${freezing.name}, plain ${plain.name}`;
      test(`a shape compiled for one decoder never changes what the other returns (${readers})`, () => {
        for (const form of FORMS) {
          const frozenFirst = rows(freshPrefix());
          const plainFirst = rows(freshPrefix());
          const alternating = rows(freshPrefix());
          const packr = form.packr();
          const freezer = () =>
            new Unpackr({ ...form.options, ...freezing.options, freezeData: true });
          const plainer = () => new Unpackr({ ...form.options, ...plain.options });
          // the freezing decoder meets the shape first, then a plain one (of each kind)
          let bytes = packr.pack(frozenFirst);
          const compiles = decodeRounds(freezer(), bytes, frozenFirst, form, true, form.name);
          const compiling = freezing.name === "compiled" && form.options.mapsAsObjects !== false;
          assert.equal(compiles > 0, compiling, `${form.name}: ${compiles} readers compiled`);
          decodeRounds(plainer(), bytes, frozenFirst, form, false, `${form.name}, then plain`);
          decodeRounds(freezer(), bytes, frozenFirst, form, true, `${form.name}, then frozen`);
          // the other order
          bytes = packr.pack(plainFirst);
          decodeRounds(plainer(), bytes, plainFirst, form, false, `${form.name}, plain first`);
          decodeRounds(freezer(), bytes, plainFirst, form, true, `${form.name}, then frozen`);
          decodeRounds(plainer(), bytes, plainFirst, form, false, `${form.name}, then plain`);
          // both decoders in turn while the shape compiles
          bytes = packr.pack(alternating);
          const a = freezer();
          const b = plainer();
          for (let round = 0; round < ROUNDS; round++) {
            const label = `${form.name}, in turn #${round}`;
            assertFrozen(a.unpack(bytes), alternating, bytes, form, true, label);
            assertFrozen(b.unpack(bytes), alternating, bytes, form, false, label);
          }
        }
      });
    }
  }

  test("a decode nested in another keeps each decoder's freezeData", () => {
    class Boxed {
      constructor(readonly value: unknown) {}
    }
    for (const reader of READERS) {
      for (const outerFreezes of [false, true]) {
        const prefix = freshPrefix();
        // the inner value has the outer value's shapes: both decoders read the same shapes
        const inner = rows(prefix, 2);
        const innerBytes = new Packr().pack(inner);
        const innerUnpackr = new Unpackr({ ...reader.options, freezeData: !outerFreezes });
        const outerUnpackr = new Unpackr({ ...reader.options, freezeData: outerFreezes });
        outerUnpackr.addExtension({
          Class: Boxed,
          type: 0x32,
          pack: () => Uint8Array.of(0),
          unpack: () => new Boxed(innerUnpackr.unpack(innerBytes)),
        });
        const outer = rows(prefix, 5);
        outer[2][`${prefix}mixed`] = [null, "s", 1, new Boxed(null), [true]];
        const packr = new Packr();
        packr.addExtension({ Class: Boxed, type: 0x32, pack: () => Uint8Array.of(0) });
        const bytes = packr.pack(outer);
        for (let round = 0; round < ROUNDS; round++) {
          const decoded = outerUnpackr.unpack(bytes) as Record<string, unknown[]>[];
          const boxed = decoded[2][`${prefix}mixed`][3] as Boxed;
          assert.ok(boxed instanceof Boxed);
          const label = `${reader.name}, outer ${outerFreezes ? "freezes" : "plain"}, #${round}`;
          const innerNodes = nodesOf(boxed.value, "record");
          assert.deepEqual(boxed.value, inner);
          assert.ok(innerNodes.every((node) => node.frozen === !outerFreezes), `${label}: inner`);
          const outerNodes = nodesOf(decoded, "record");
          assert.ok(outerNodes.every((node) => node.frozen === outerFreezes), `${label}: outer`);
        }
      }
    }
  });

  test("shared structures, sequential records and streams freeze their records", async () => {
    for (const reader of READERS) {
      const prefix = freshPrefix();
      const value = rows(prefix);
      const structures: string[][] = [];
      const bytes = new Packr({ structures }).pack(value);
      assert.ok(structures.length > 0);
      const form = FORMS[0];
      for (const freeze of [true, false]) {
        const shared = new Unpackr({ ...reader.options, structures, freezeData: freeze });
        for (let round = 0; round < ROUNDS; round++) {
          const decoded = shared.unpack(bytes);
          assert.deepEqual(decoded, value);
          const nodes = nodesOf(decoded, "record");
          assert.ok(nodes.every((node) => node.frozen === freeze), `${reader.name}, shared`);
        }
      }
      // a stream of sequential records, each value its own message
      const sequential = new Packr({ sequential: true });
      const chunks = value.map((row) => sequential.pack(row));
      const options = { ...reader.options, freezeData: true };
      const fromStream: unknown[] = [];
      const stream = ReadableStream.from(chunks).pipeThrough(new UnpackrStream(options));
      for await (const item of stream) fromStream.push(item);
      const fromIter = [...decodeIter(chunks, options)];
      for (const decoded of [fromStream, fromIter]) {
        assert.deepEqual(decoded, value);
        for (const item of decoded) {
          assert.ok(nodesOf(item, form.objects).every((node) => node.frozen), reader.name);
        }
      }
    }
  });
});
