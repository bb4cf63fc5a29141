// Copyright 2026 the @x/msgpackr authors. MIT license.
// Plain maps decoded as objects follow a tree of key sequences and are built by their shape's
// builder once the sequence is known (_records/map_shapes.ts, _records/shape_tree.ts); the encoder copies the
// names of plain objects from a tree of its own (_encode/encoder.ts) and must write msgpackr's bytes. Whatever path a map takes (learning,
// built, a full tree, a tree renewed), the object must be the one msgpackr makes: same keys in
// the same order, same values, Object.prototype; and the value stack must keep nothing alive.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { addExtension, pack, Packr, unpack, Unpackr } from "../../mod.ts";
import * as noEval from "../../no_eval.ts";
import { mapShapes } from "../../_records/map_shapes.ts";
import { valueStack } from "../../_decode/decoder.ts";
import { MAX_SHAPED_KEYS } from "../../_core/thresholds.ts";
import { MAX_SHAPES, RUNS_BEFORE_RENEWAL } from "../../_records/shape_tree.ts";
import { objectShapes } from "../../_encode/encoder.ts";
import { EAGER_VIEW_MIN_INPUT } from "../../_core/thresholds.ts";
import { theirBytesOf } from "../_interop.ts";
import { random, readTestdata } from "../_util.ts";

/** Objects as [whether the prototype is Object.prototype, [key, value] pairs in order]. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value === null || typeof value !== "object" || value instanceof Uint8Array) return value;
  return [
    Object.getPrototypeOf(value) === Object.prototype,
    Object.entries(value).map(([key, item]) => [key, normalize(item)]),
  ];
}

function assertAsMsgpackr(bytes: Uint8Array, actual: unknown, message?: string): void {
  const expected = new msgpackr.Unpackr({ mapsAsObjects: true }).unpack(bytes);
  assert.deepEqual(normalize(actual), normalize(expected), message);
}

function assertStackEmpty(): void {
  assert.ok(valueStack.every((value) => value === undefined), "the value stack holds a value");
}

const decoders: [string, (bytes: Uint8Array) => unknown][] = [
  ["unpack", (bytes) => unpack(bytes)],
  [
    "compileRecordReaders: false",
    (bytes) => new Unpackr({ compileRecordReaders: false, mapsAsObjects: true }).unpack(bytes),
  ],
  ["no_eval.ts", (bytes) => noEval.unpack(bytes)],
];

/** The shape of `keys` earned its compiled builder (`read<n>`: `_records/compiler.ts`). */
function assertCompiled(keys: string[]): void {
  assert.match(mapShapes.find(keys)?.build?.name ?? "none", /^read\d+$/, keys.join());
}

/** Bytes to put into a map as they are (not packed). */
class Raw {
  constructor(readonly bytes: Uint8Array) {}
}

/** MessagePack bytes of a map with these keys (in order, duplicates kept) and values. */
function mapBytes(entries: [unknown, unknown][]): Uint8Array {
  const parts: Uint8Array[] = [
    entries.length < 16
      ? Uint8Array.of(0x80 | entries.length)
      : Uint8Array.of(0xde, entries.length >> 8, entries.length & 0xff),
  ];
  for (const [key, value] of entries) {
    parts.push(pack(key), value instanceof Raw ? value.bytes : pack(value));
  }
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}

/**
 * `bytes` (one value) followed by a string that takes the input past EAGER_VIEW_MIN_INPUT,
 * in a 2-element array: the maps of a small input compare keys with kept bytes through byte
 * loads, those of a larger one through the input's DataView, and tests of key comparison need both.
 */
function padded(bytes: Uint8Array): Uint8Array {
  const pad = new Uint8Array(3 + EAGER_VIEW_MIN_INPUT).fill(0x61);
  pad.set([0xda, EAGER_VIEW_MIN_INPUT >> 8, EAGER_VIEW_MIN_INPUT & 0xff]);
  return Uint8Array.of(0x92, ...bytes, ...pad);
}

/** The value of `bytes` decoded alone and padded (see {@linkcode padded}), both as msgpackr's. */
function assertBothPaths(bytes: Uint8Array, message?: string): void {
  assertAsMsgpackr(bytes, unpack(bytes), message);
  assertAsMsgpackr(bytes, (unpack(padded(bytes)) as unknown[])[0], `${message ?? ""} (padded)`);
}

describe("plain maps: shapes learned from key sequences", () => {
  test("every decoder builds the objects msgpackr builds, while learning and once built", async () => {
    const samples = [
      await readTestdata("example4.json"),
      await readTestdata("sample-large.json"),
      Array.from({ length: 50 }, (_, i) => ({ id: i, name: `n${i}`, tags: [i], meta: { a: i } })),
    ];
    for (const [name, decode] of decoders) {
      for (const value of samples) {
        const bytes = pack(value);
        for (let round = 0; round < 12; round++) {
          assertAsMsgpackr(bytes, decode(bytes), `${name}, round ${round}`);
        }
      }
    }
    assertStackEmpty();
  });

  test("a shape seen often gets a builder; alternating shapes are learned too", () => {
    const a = { alpha: 1, beta: "b", gamma: [1] };
    const b = { delta: 2, epsilon: null };
    const c = { alpha: 1, beta: "b", zeta: true }; // shares a prefix with a
    const bytes = pack(Array.from({ length: 30 }, (_, i) => [a, b, c][i % 3]));
    for (let i = 0; i <= RUNS_BEFORE_RENEWAL; i++) unpack(pack({})); // renews a full tree
    for (let round = 0; round < 3; round++) assertAsMsgpackr(bytes, unpack(bytes));
    for (
      const keys of [["alpha", "beta", "gamma"], ["delta", "epsilon"], ["alpha", "beta", "zeta"]]
    ) {
      assertCompiled(keys);
    }
  });

  test("duplicate, __proto__, integer-like, empty and long keys, as msgpackr", () => {
    const longKey = "k".repeat(40); // str8, not fixstr
    const maps: [unknown, unknown][][] = [
      [["a", 1], ["b", 2], ["a", 3]],
      [["__proto__", { polluted: true }], ["x", 1]],
      [["2", "two"], ["1", "one"], ["b", 0], ["0", "zero"]],
      [["", "empty"], [longKey, "long"], [7, "seven"]],
      [["toString", 1], ["constructor", 2], ["hasOwnProperty", 3]],
    ];
    for (const entries of maps) {
      const bytes = mapBytes(entries);
      for (const [name, decode] of decoders) {
        for (let round = 0; round < 10; round++) {
          const result = decode(bytes) as Record<string, unknown>;
          assertAsMsgpackr(bytes, result, `${name} ${JSON.stringify(entries)}`);
          assert.equal(Object.getPrototypeOf(result), Object.prototype);
        }
      }
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test("keys met again are compared as bytes: other encodings, near misses and fatal decoders", () => {
    const str8 = (text: string) => {
      const bytes = new TextEncoder().encode(text);
      return new Raw(Uint8Array.of(0xd9, bytes.length, ...bytes));
    };
    const learned = mapBytes([["ab", 1], ["cd", 2]]);
    for (let round = 0; round < 8; round++) unpack(padded(learned)); // "ab" then "cd" is hot
    const variants: Uint8Array[] = [
      mapBytes([["ab", 1], ["cd", 2]]),
      mapBytes([["abc", 1], ["cd", 2]]), // longer key with the same start
      mapBytes([["a", 1], ["cd", 2]]),
      mapBytes([["ab", 1], ["ce", 2]]),
      mapBytes([["ab", 1], [3, 2]]), // an integer key
    ];
    for (const bytes of variants) {
      for (let round = 0; round < 3; round++) assertBothPaths(bytes);
    }
    // the same key text as str8: same object, by the decoding path
    const asStr8 = new Uint8Array([0x82, ...str8("ab").bytes, 1, ...str8("cd").bytes, 2]);
    assertBothPaths(asStr8);
    assert.deepEqual(unpack(asStr8), { ab: 1, cd: 2 });
    // a key with ill-formed UTF-8, learned by lenient decodes, is still rejected by a fatal one
    const bad = Uint8Array.of(0x82, 0xa2, 0x61, 0xff, 1, 0xa1, 0x62, 2);
    const strict = new Unpackr({ fatal: true, mapsAsObjects: true });
    for (let round = 0; round < 8; round++) {
      assert.deepEqual(Object.keys(unpack(bad) as object), ["a\ufffd", "b"]);
      assert.deepEqual(Object.keys((unpack(padded(bad)) as object[])[0]), ["a\ufffd", "b"]);
    }
    assert.throws(() => strict.unpack(bad), /UTF-8/);
    assert.throws(() => strict.unpack(padded(bad)), /UTF-8/);
    assert.deepEqual(Object.keys(unpack(bad) as object), ["a\ufffd", "b"]);
    // a map cut inside a key met before is incomplete, as always
    assert.throws(() => unpack(learned.subarray(0, 3)), /end|incomplete|Unexpected/i);
    assert.throws(() => unpack(padded(learned).subarray(0, 4)), /end|incomplete|Unexpected/i);
    assertStackEmpty();
  });

  test("a key differing from the hot key in any one byte, for every key length, is decoded", () => {
    for (let length = 0; length <= 31; length++) {
      const key = Array.from({ length }, (_, i) => String.fromCharCode(97 + (i % 26))).join("");
      const learned = mapBytes([[key, 1], ["z", 2]]);
      for (let round = 0; round < 6; round++) assertBothPaths(learned);
      for (let at = 0; at < length; at++) {
        const other = key.slice(0, at) + "#" + key.slice(at + 1);
        const bytes = mapBytes([[other, 1], ["z", 2]]);
        assertBothPaths(bytes, `key length ${length}, byte ${at} differs`);
        assertBothPaths(learned);
      }
    }
  });

  test("small inputs (no view) keep and compare the keys' bytes, as larger ones do", () => {
    const key = "only-in-this-test";
    const bytes = mapBytes([[key, 1]]);
    for (let round = 0; round < 4; round++) assertAsMsgpackr(bytes, unpack(bytes));
    const node = mapShapes.root.hot!;
    assert.equal(node.key, key);
    assert.equal(node.keyLength, 1 + key.length, "a small input did not keep the key's bytes");
    // the kept bytes serve the larger input too, and a key one byte off is not taken for it
    for (let round = 0; round < 4; round++) {
      assertAsMsgpackr(bytes, (unpack(padded(bytes)) as unknown[])[0]);
    }
    assert.equal(mapShapes.root.hot, node);
    const offByOne = mapBytes([["only-in-this-tesT", 1]]);
    assertBothPaths(offByOne);
    assertBothPaths(bytes);
  });

  test("a nested map's first key is predicted from the key it is the value of", () => {
    const message = (i: number) => ({
      rpcId: i,
      call: "orders.update",
      params: { orderRef: `o${i}`, state: "shipped", cost: i + 0.5 },
    });
    for (let i = 0; i < 6; i++) assertBothPaths(pack(message(i)));
    // the root keeps the outer map's first key; the nested map's comes from `params`
    const outer = mapShapes.root.hot!;
    assert.equal(outer.key, "rpcId");
    const params = mapShapes.find(["rpcId", "call", "params"])!;
    assert.equal(params.valueHot?.key, "orderRef");
    assert.equal(params.valueHot?.parent, mapShapes.root);
    // what comes as that value changes: other maps, a string, an array of maps, a record, an
    // extension that decodes a map itself; every prediction that fails still decodes right
    const inner = pack({ deep: { orderRef: "x" } });
    const nested = new Unpackr({ mapsAsObjects: true });
    nested.addExtension({ type: 0x6e, unpack: () => nested.unpack(inner) });
    const values: unknown[] = [
      { state: "new", orderRef: "a" },
      "not a map",
      [{ orderRef: "b" }, { other: 1 }, { orderRef: "c" }],
      { orderRef: "d", state: "done", cost: 1.5 },
      new Map([[1, { orderRef: "e" }]]),
      {},
    ];
    for (let round = 0; round < 3; round++) {
      for (const value of values) {
        assertBothPaths(pack({ rpcId: round, call: "c", params: value }), String(value));
        assertBothPaths(pack([{ params: value }, { orderRef: "f" }, { params: value }]));
      }
      const withRecords = new Packr({ structures: [] });
      const recordBytes = withRecords.pack({ rpcId: 1, call: "c", params: message(round).params });
      assert.deepEqual(
        new Unpackr({ structures: withRecords.structures }).unpack(recordBytes),
        { rpcId: 1, call: "c", params: message(round).params },
      );
      const withExtension = mapBytes([
        ["rpcId", round],
        ["call", "c"],
        ["params", new Raw(Uint8Array.of(0xd4, 0x6e, 0))],
      ]);
      assert.deepEqual(nested.unpack(withExtension), {
        rpcId: round,
        call: "c",
        params: { deep: { orderRef: "x" } },
      });
      // a decode that fails inside the nested map leaves no prediction behind that breaks the next
      const good = pack(message(round));
      assert.throws(() => unpack(good.subarray(0, good.length - 3)));
      assertBothPaths(pack({ orderRef: "g", rpcId: 2 }));
      assertBothPaths(good);
    }
    assertStackEmpty();
  });

  test("maps of 0, 1, MAX_SHAPED_KEYS and more entries, nested at every position", () => {
    for (const size of [0, 1, 2, 8, 9, 16, 17, MAX_SHAPED_KEYS, MAX_SHAPED_KEYS + 1, 100]) {
      const map = Object.fromEntries(
        Array.from(
          { length: size },
          (_, i) => [`f${i}`, i % 4 === 0 ? { inner: i, deeper: { i } } : i],
        ),
      );
      const bytes = pack([map, map, { outer: map, after: 1 }]);
      for (const [name, decode] of decoders) {
        for (let round = 0; round < 8; round++) {
          assertAsMsgpackr(bytes, decode(bytes), `${name} ${size}`);
        }
      }
    }
    assertStackEmpty();
  });

  test("a decode that fails inside a map leaves nothing on the stack, and the next one is right", () => {
    const good = pack({ a: { b: [1, 2, { c: "x".repeat(100) }] }, d: 4 });
    for (let round = 0; round < 6; round++) unpack(good);
    for (let end = 1; end < good.length; end++) {
      assert.throws(() => unpack(good.subarray(0, end)));
      assertStackEmpty();
    }
    assertAsMsgpackr(good, unpack(good));
  });

  test("a decode inside a map's value (an extension calling unpack) keeps the outer values", () => {
    const inner = pack(Array.from({ length: 5 }, (_, i) => ({ p: i, q: { r: i } })));
    addExtension({ type: 0x6d, unpack: () => unpack(inner) });
    const withExt = mapBytes([
      ["before", { x: 1 }],
      ["nested", new Raw(Uint8Array.of(0xd4, 0x6d, 0))], // fixext1 of type 0x6d
      ["after", "z"],
    ]);
    for (let round = 0; round < 8; round++) {
      const result = unpack(withExt) as Record<string, unknown>;
      assert.deepEqual(Object.keys(result), ["before", "nested", "after"]);
      assert.deepEqual(result.before, { x: 1 });
      assert.deepEqual(result.nested, unpack(inner));
      assert.equal(result.after, "z");
    }
    assertStackEmpty();
  });

  test("the tree is bounded: endless new key sequences, then renewed", () => {
    const next = random(7);
    const keysOf = (n: number) =>
      Array.from({ length: 6 }, (_, i) => `k${n}_${i}_${(next() * 1e6) | 0}`);
    // each message's maps repeat (so their keys are learned), and no two messages share keys
    let most = 0;
    for (let message = 0; message < 600; message++) {
      const keys = keysOf(message);
      const shape = Object.fromEntries(keys.map((key, i) => [key, i]));
      const bytes = pack([shape, shape, shape, { [keys[0]]: 1, other: 2 }, {
        [keys[0]]: 1,
        other: 2,
      }]);
      assertAsMsgpackr(bytes, unpack(bytes));
      assert.ok(mapShapes.size <= MAX_SHAPES, `${mapShapes.size} nodes`);
      most = Math.max(most, mapShapes.size);
    }
    assert.equal(most, MAX_SHAPES, "the tree filled up");
    // a full tree is dropped RUNS_BEFORE_RENEWAL decodes later, and shapes are learned again
    for (let i = 0; i <= RUNS_BEFORE_RENEWAL; i++) unpack(pack({ again: 1 }));
    assert.ok(mapShapes.size < MAX_SHAPES, `${mapShapes.size} nodes after renewal`);
    const again = pack(Array.from({ length: 10 }, () => ({ learned: 1, again: 2 })));
    for (let round = 0; round < 3; round++) assertAsMsgpackr(again, unpack(again));
    assertCompiled(["learned", "again"]);
    assertStackEmpty();
  });

  test("mapsAsObjects: false and records are unaffected", () => {
    const value = Array.from({ length: 6 }, (_, i) => ({ s: i, t: `t${i}` }));
    const bytes = pack(value);
    for (let round = 0; round < 6; round++) {
      const maps = new Unpackr({ mapsAsObjects: false }).unpack(bytes) as Map<string, unknown>[];
      assert.ok(maps[0] instanceof Map);
      assert.deepEqual([...maps[5].entries()], [["s", 5], ["t", "t5"]]);
    }
    const structures: string[][] = [];
    const records = new Packr({ structures }).pack(value);
    assert.deepEqual(new Unpackr({ structures }).unpack(records), value);
  });
});

describe("pack: property names copied from the encoder's shape tree", () => {
  const hexOf = (bytes: Uint8Array) =>
    Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

  function assertPacksAsMsgpackr(
    options: Record<string, unknown>,
    values: unknown[],
    rounds = 6,
  ): void {
    const ours = new Packr({ useRecords: false, ...options });
    const theirs = new msgpackr.Packr({ useRecords: false, ...options });
    for (let round = 0; round < rounds; round++) {
      for (const value of values) {
        assert.equal(
          hexOf(ours.pack(value)),
          hexOf(theirBytesOf(theirs, value)),
          JSON.stringify(value),
        );
      }
    }
  }

  const name = (length: number, first: number) =>
    Array.from({ length }, (_, i) => String.fromCharCode(first + (i % 26))).join("");

  test("names of every length, non-ASCII and lone surrogates, learned and copied, as msgpackr", () => {
    const values: unknown[] = [];
    for (let length = 0; length <= 40; length++) {
      values.push({ [name(length, 97)]: length, tail: [length], [name(length, 65)]: { in: 1 } });
    }
    values.push(
      { "é": 1, "東京": 2, "😀": 3, "\ud800": 4, "a\udc00b": 5 },
      { "é": 1, "東京": 2, "😀": 3, "\ud800": 4, "a\udc00b": 5 },
      { __proto__: null, x: 1 },
      Object.assign(Object.create({ inherited: 1 }), { own: 2 }),
    );
    assertPacksAsMsgpackr({}, values);
    assertPacksAsMsgpackr({ variableMapSize: true }, values);
    for (const value of values) {
      assert.deepEqual(hexOf(pack(value)), hexOf(theirBytesOf(msgpackr, value)));
    }
    // the kept bytes of those names are well-formed UTF-8: U+FFFD for each lone surrogate
    const packr = new Packr({ useRecords: false });
    for (let round = 0; round < 6; round++) {
      assert.equal(
        hexOf(packr.pack({ "\ud800": 4, "a\udc00b": 5 })),
        "de0002a3efbfbd04a561efbfbd6205",
      );
    }
  });

  test("shapes that share prefixes, alternate and differ by one name", () => {
    const values = Array.from({ length: 40 }, (_, i) =>
      [
        { id: i, name: "n", tags: ["t"] },
        { id: i, name: "n", meta: { deep: { deeper: i } } },
        { other: true, id: i },
        { id: i, nam3: "x", tags: [] },
      ][i % 4]);
    assertPacksAsMsgpackr({}, [values]);
  });

  test("names copied while the output grows, into a buffer already partly used (useBuffer)", () => {
    const value = Array.from(
      { length: 300 },
      (_, i) => ({ alpha_beta: i, gamma: "g".repeat(i % 50), delta_epsilon_zeta: i }),
    );
    const expected = hexOf(msgpackr.pack(value));
    const packr = new Packr({ useRecords: false });
    for (let round = 0; round < 4; round++) {
      const buffer = new Uint8Array(256 + round * 1000);
      packr.useBuffer(buffer);
      packr.pack({ first: 1 }); // the next pack starts after this one, not at 0
      assert.equal(hexOf(packr.pack(value)), expected);
    }
    assert.equal(hexOf(pack(value)), expected);
  });

  test("bundleStrings: names are not copied (they may go into the bundle)", () => {
    const values = Array.from({ length: 12 }, (_, i) => ({ longer_name: `value ${i}`, n: i }));
    assertPacksAsMsgpackr({ bundleStrings: true }, values);
  });

  test("the encoder's tree is bounded and renewed", () => {
    for (let message = 0; message < 700; message++) {
      const keys = Array.from({ length: 6 }, (_, i) => `m${message}_${i}`);
      const object = Object.fromEntries(keys.map((key, i) => [key, i]));
      const bytes = pack([object, object, object]);
      assert.equal(hexOf(bytes), hexOf(msgpackr.pack([object, object, object])));
      assert.ok(objectShapes.size <= MAX_SHAPES);
    }
    for (let i = 0; i <= RUNS_BEFORE_RENEWAL; i++) pack({ again: 1 });
    assert.ok(objectShapes.size < MAX_SHAPES);
  });
});

test("the decoder's and the encoder's shape nodes begin with different properties", () => {
  // V8 gives literals of one property count one first map and adds properties in order: nodes
  // that begin alike would share hidden classes and field types across the two codecs
  const decoderFirst = Object.keys(mapShapes.root)[0];
  const encoderFirst = Object.keys(objectShapes.root)[0];
  assert.notEqual(decoderFirst, encoderFirst);
  assert.ok(
    !Object.hasOwn(objectShapes.root, decoderFirst),
    `the encoder's nodes have ${decoderFirst}`,
  );
});
