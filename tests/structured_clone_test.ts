// Copyright 2026 the @x/msgpackr authors. MIT license.
// structuredClone: ext "i" (0x69, "the next value is object #id") and "p" (0x70, "object #id
// again"), docs/wire-format.md, "References and cycles". Ids count from 1 in order of first
// back-reference; the "i" markers are inserted before first occurrences after the value is written.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { DecodeError, Packr, type PackrOptions, unpack, Unpackr } from "../mod.ts";
import { fromHex, hex } from "./_util.ts";
import { ourUnpack, packBoth, random, sameBytes, theirUnpack } from "./_types_util.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const CLONE = { structuredClone: true } as const;
const CLONE_MAPS = { structuredClone: true, useRecords: false } as const;
const CLONE_BUNDLES = { structuredClone: true, bundleStrings: true } as const;

function selfReferencing(): Any {
  const object: Any = { a: 1 };
  object.self = object;
  return object;
}

/** A graph sharing objects between arrays, objects, Maps and Sets, with cycles. */
function graph(): Any {
  const shared = { k: "v" };
  const list = [1, 2];
  const map = new Map<unknown, unknown>([["shared", shared]]);
  map.set("self", map);
  const set = new Set<unknown>([shared, list]);
  set.add(set);
  const root: Any = {
    shared,
    list,
    again: shared,
    map,
    set,
    lists: [list, list],
    date: new Date(0),
  };
  root.dates = [root.date, root.date];
  root.self = root;
  map.set("root", root);
  return root;
}

/** Checks every identity of {@linkcode graph} in a decoded copy (records: objects stay objects). */
function assertGraph(copy: Any): void {
  assert.equal(copy.self, copy);
  assert.equal(copy.again, copy.shared);
  assert.deepEqual(copy.shared, { k: "v" });
  assert.equal(copy.lists[0], copy.list);
  assert.equal(copy.lists[1], copy.list);
  assert.ok(copy.map instanceof Map);
  assert.equal(copy.map.get("self"), copy.map);
  assert.equal(copy.map.get("shared"), copy.shared);
  assert.equal(copy.map.get("root"), copy);
  assert.ok(copy.set instanceof Set);
  const items = [...copy.set];
  assert.equal(items.length, 3);
  assert.equal(items[0], copy.shared);
  assert.equal(items[1], copy.list);
  assert.equal(items[2], copy.set);
  assert.ok(copy.date instanceof Date);
  assert.equal(copy.dates[0], copy.date);
  assert.equal(copy.dates[1], copy.date);
}

describe("structuredClone references", () => {
  test("Packr.pack() writes msgpackr's bytes for a self-referencing object", () => {
    assert.equal(
      sameBytes(selfReferencing(), CLONE),
      "d6 69 00 00 00 01 d4 72 40 92 a1 61 a4 73 65 6c 66 01 d6 70 00 00 00 01",
    );
  });

  test("Unpackr.unpack() keeps a cycle: copy.self === copy", () => {
    const bytes = new Packr(CLONE).pack(selfReferencing());
    const copy = ourUnpack(bytes, CLONE);
    assert.equal(copy.self, copy);
    assert.equal(copy.a, 1);
    // the exported unpack accepts references without any option
    const plainCopy = unpack(bytes);
    assert.equal(plainCopy.self, plainCopy);
  });

  test("Packr.pack() numbers ids in order of first back-reference, as msgpackr", () => {
    const a = { x: 1 };
    const b = { y: 2 };
    assert.equal(
      sameBytes([a, b, b, a], CLONE),
      "94 d6 69 00 00 00 02 d4 72 40 91 a1 78 01 d6 69 00 00 00 01 d4 72 41 91 a1 79 02 " +
        "d6 70 00 00 00 01 d6 70 00 00 00 02",
    );
    const copy = ourUnpack(fromHex(sameBytes([a, b, b, a], CLONE)));
    assert.equal(copy[0], copy[3]);
    assert.equal(copy[1], copy[2]);
    assert.notEqual(copy[0], copy[1]);
  });

  test("Packr.pack() with useRecords: false writes msgpackr's bytes (map16 objects)", () => {
    assert.equal(
      sameBytes(selfReferencing(), CLONE_MAPS),
      "d6 69 00 00 00 01 de 00 02 a1 61 01 a4 73 65 6c 66 d6 70 00 00 00 01",
    );
    const shared = [1];
    assert.equal(
      sameBytes({ p: shared, q: shared }, CLONE_MAPS),
      "de 00 02 a1 70 d6 69 00 00 00 01 91 01 a1 71 d6 70 00 00 00 01",
    );
  });

  test("Packr.pack() keeps identity across arrays, objects, Maps and Sets (msgpackr's bytes)", () => {
    const bytes = fromHex(sameBytes(graph(), CLONE));
    assertGraph(ourUnpack(bytes, CLONE));
  });

  test("Unpackr.unpack() reads msgpackr's structured clone output with every identity", () => {
    const theirs = new Uint8Array(new msgpackr.Packr({ structuredClone: true }).pack(graph()));
    assertGraph(ourUnpack(theirs, CLONE));
  });

  test("msgpackr reads our structured clone output with every identity", () => {
    const ours = new Packr(CLONE).pack(graph());
    assertGraph(theirUnpack(ours, CLONE));
  });

  test("Packr.pack() keeps a Map that contains itself as key and value", () => {
    const map = new Map<unknown, unknown>();
    map.set(map, "key is the map");
    map.set("value", map);
    const bytes = fromHex(sameBytes(map, CLONE));
    for (const copy of [ourUnpack(bytes, CLONE), theirUnpack(bytes, CLONE)]) {
      assert.ok(copy instanceof Map);
      assert.equal(copy.get(copy), "key is the map");
      assert.equal(copy.get("value"), copy);
    }
  });

  test("Packr.pack() keeps a Set that contains itself", () => {
    const set = new Set<unknown>([1]);
    set.add(set);
    const hexBytes = sameBytes(set, CLONE);
    assert.equal(hexBytes, "d6 69 00 00 00 01 d4 73 00 92 01 d6 70 00 00 00 01");
    for (const copy of [ourUnpack(fromHex(hexBytes)), theirUnpack(fromHex(hexBytes))]) {
      assert.ok(copy instanceof Set);
      assert.deepEqual([...copy][0], 1);
      assert.equal([...copy][1], copy);
    }
  });

  test("Packr.pack() keeps an array that contains itself", () => {
    const array: unknown[] = ["x"];
    array.push(array);
    const hexBytes = sameBytes(array, CLONE);
    assert.equal(hexBytes, "d6 69 00 00 00 01 92 a1 78 d6 70 00 00 00 01");
    for (const copy of [ourUnpack(fromHex(hexBytes)), theirUnpack(fromHex(hexBytes))]) {
      assert.ok(Array.isArray(copy));
      assert.equal(copy[1], copy);
    }
  });

  test("Unpackr with mapsAsObjects: false keeps cycles of useRecords: false output as Maps", () => {
    const bytes = new Packr(CLONE_MAPS).pack(graph());
    const copy = ourUnpack(bytes, { mapsAsObjects: false });
    assert.ok(copy instanceof Map);
    assert.equal(copy.get("self"), copy);
    assert.equal(copy.get("again"), copy.get("shared"));
    assert.equal(copy.get("map").get("self"), copy.get("map"));
    assert.equal(copy.get("map").get("root"), copy);
    assert.equal([...copy.get("set")][2], copy.get("set"));
    // msgpackr agrees
    const theirs = theirUnpack(bytes, { mapsAsObjects: false });
    assert.equal(theirs.get("self"), theirs);
    assert.equal(theirs.get("map").get("root"), theirs);
  });

  test("unpack() keeps a cycle of a useRecords: false object as a plain object", () => {
    // an "i" placeholder followed by a map header must be a plain object when maps decode to
    // objects (msgpackr 2.1.3 throws "targetProperties.entries is not a function" here)
    const bytes = new Packr(CLONE_MAPS).pack(selfReferencing());
    for (const copy of [unpack(bytes), ourUnpack(bytes, CLONE_MAPS)]) {
      assert.equal(Object.getPrototypeOf(copy), Object.prototype);
      assert.equal(copy.a, 1);
      assert.equal(copy.self, copy);
    }
    assert.throws(() => theirUnpack(bytes, CLONE_MAPS), TypeError);
  });

  test("unpack() turns a cyclic Map into a cyclic object when maps decode to objects", () => {
    const map = new Map<unknown, unknown>([["a", 1]]);
    map.set("self", map);
    const bytes = new Packr(CLONE_MAPS).pack(map);
    const copy = unpack(bytes);
    assert.equal(copy.a, 1);
    assert.equal(copy.self, copy);
  });

  test("Packr.pack() with structuredClone and records shares record objects", () => {
    const user = { id: 1, name: "ann" };
    const rows = [{ user, role: "admin" }, { user, role: "owner" }, user];
    const hexBytes = sameBytes(rows, CLONE);
    assert.equal(
      hexBytes,
      "93 d4 72 40 92 a4 75 73 65 72 a4 72 6f 6c 65 d6 69 00 00 00 01 d4 72 41 92 a2 69 64 " +
        "a4 6e 61 6d 65 01 a3 61 6e 6e a5 61 64 6d 69 6e 40 d6 70 00 00 00 01 a5 6f 77 6e 65 72 " +
        "d6 70 00 00 00 01",
    );
    for (const copy of [ourUnpack(fromHex(hexBytes)), theirUnpack(fromHex(hexBytes))]) {
      assert.equal(copy[0].user, copy[1].user);
      assert.equal(copy[2], copy[0].user);
      assert.deepEqual(copy[2], user);
    }
  });

  test("Packr.pack() with structuredClone and bundleStrings writes msgpackr's bytes", () => {
    const strings = ["hello world", "héllo wörld", "short", "日本語のテキスト"];
    const value: Any = { strings, again: strings, name: "abcdefgh", child: { name: "ijklmnop" } };
    value.child.parent = value;
    const hexBytes = sameBytes(value, CLONE_BUNDLES);
    // the bundle field was corrected for the inserted "i" markers: both decoders read it
    for (const copy of [ourUnpack(fromHex(hexBytes)), theirUnpack(fromHex(hexBytes))]) {
      assert.equal(copy.again, copy.strings);
      assert.equal(copy.child.parent, copy);
      assert.deepEqual(copy.strings, strings);
      assert.equal(copy.child.name, "ijklmnop");
    }
    // useRecords: false (msgpackr cannot decode this cycle as objects, see above)
    const maps = fromHex(sameBytes(value, { ...CLONE_BUNDLES, useRecords: false }));
    const copy = unpack(maps);
    assert.equal(copy.child.parent, copy);
    assert.deepEqual(copy.again, strings);
    assert.equal(copy.again, copy.strings);
  });

  test("Packr.pack() with structuredClone and several bundles fixes every bundle field", () => {
    // ~30 KiB of strings (two bundles) with shared objects before, between and after bundles
    const shared = { tag: "shared object" };
    const items = Array.from({ length: 1500 }, (_, i) => ({
      text: (i % 2 ? "texte numéro " : "text number ") + i,
      ref: i % 100 === 0 ? shared : null,
    }));
    const value = { first: shared, items, last: shared, list: [items[0], items[0]] };
    for (const options of [CLONE_BUNDLES, { ...CLONE_BUNDLES, useRecords: false }]) {
      const { ours, theirs } = packBoth(value, options);
      assert.equal(hex(ours), hex(theirs));
      assert.ok(hex(ours).includes("c8"), "a later bundle opener (ext16) is present");
      for (const copy of [ourUnpack(ours, options), theirUnpack(ours, options)]) {
        const get = (object: Any, key: string) =>
          object instanceof Map ? object.get(key) : object[key];
        const copyItems = get(copy, "items");
        assert.equal(get(copy, "last"), get(copy, "first"));
        assert.equal(get(copyItems[0], "ref"), get(copy, "first"));
        assert.equal(get(copyItems[1400], "ref"), get(copy, "first"));
        assert.equal(get(copy, "list")[1], copyItems[0]);
        assert.equal(get(copyItems[1499], "text"), "texte numéro 1499");
      }
    }
  });

  test("Packr.pack() matches msgpackr on random graphs with structuredClone and bundleStrings", () => {
    const letters = ["a", "b", "z", "é", "ü", "日", "😀", " "];
    const generate = (next: () => number, pool: object[], depth: number): unknown => {
      const roll = next();
      if (pool.length > 0 && roll < 0.15) return pool[Math.floor(next() * pool.length)];
      if (depth > 4 || roll < 0.5) {
        if (next() < 0.7) {
          const length = Math.floor(next() ** 3 * 3000);
          const ascii = next() < 0.5;
          let text = "";
          for (let i = 0; i < length; i++) {
            text += ascii ? "abcdefgh"[i % 8] : letters[Math.floor(next() * letters.length)];
          }
          return text;
        }
        return Math.floor(next() * 1000);
      }
      const kind = next();
      if (kind < 0.4) {
        const array: unknown[] = [];
        pool.push(array);
        for (let i = Math.floor(next() * 6); i > 0; i--) {
          array.push(generate(next, pool, depth + 1));
        }
        return array;
      }
      if (kind < 0.75) {
        const object: Record<string, unknown> = {};
        pool.push(object);
        for (let i = Math.floor(next() * 5); i > 0; i--) {
          object["k" + Math.floor(next() * 8)] = generate(next, pool, depth + 1);
        }
        return object;
      }
      if (kind < 0.9) {
        const map = new Map<unknown, unknown>();
        pool.push(map);
        for (let i = Math.floor(next() * 4); i > 0; i--) {
          map.set("m" + i, generate(next, pool, depth + 1));
        }
        return map;
      }
      const set = new Set<unknown>();
      pool.push(set);
      for (let i = Math.floor(next() * 4); i > 0; i--) set.add(generate(next, pool, depth + 1));
      return set;
    };
    for (let seed = 1; seed <= 60; seed++) {
      const value = generate(random(seed), [], 0);
      const optionSets: PackrOptions[] = [CLONE_BUNDLES, CLONE, {
        ...CLONE_BUNDLES,
        useRecords: false,
      }];
      for (const options of optionSets) {
        const { ours, theirs } = packBoth(value, options);
        assert.equal(hex(ours), hex(theirs), `seed ${seed} ${JSON.stringify(options)}`);
        if (options.useRecords === false) continue;
        // decoding and packing again gives the same bytes: every identity survived
        assert.equal(hex(new Packr(options).pack(ourUnpack(ours, options))), hex(ours));
        assert.equal(hex(new Packr(options).pack(theirUnpack(ours, options))), hex(ours));
      }
    }
  });

  test("Packr.pack() shares Dates and typed arrays by identity", () => {
    const date = new Date(1000);
    const floats = new Float64Array([1.5]);
    const hexBytes = sameBytes([date, floats, date, floats], CLONE);
    assert.equal(
      hexBytes,
      "94 d6 69 00 00 00 01 d6 ff 00 00 00 01 d6 69 00 00 00 02 c7 09 74 08 00 00 00 00 00 00 " +
        "f8 3f d6 70 00 00 00 01 d6 70 00 00 00 02",
    );
    for (const copy of [ourUnpack(fromHex(hexBytes)), theirUnpack(fromHex(hexBytes))]) {
      assert.ok(copy[0] instanceof Date);
      assert.equal(copy[2], copy[0]);
      assert.ok(copy[1] instanceof Float64Array);
      assert.equal(copy[3], copy[1]);
    }
  });

  test("Unpackr.unpack() returns {} for an Error that is its own cause, as msgpackr", () => {
    // the "i" placeholder of an Error is a plain object; an Error has no enumerable properties to
    // copy into it (a quirk: docs/wire-format.md, "References and cycles")
    const error: Any = new Error("loop");
    error.cause = error;
    const hexBytes = sameBytes(error, CLONE);
    assert.equal(
      hexBytes,
      "d6 69 00 00 00 01 d4 65 00 93 a5 45 72 72 6f 72 a4 6c 6f 6f 70 d6 70 00 00 00 01",
    );
    assert.deepEqual(ourUnpack(fromHex(hexBytes)), {});
    assert.deepEqual(theirUnpack(fromHex(hexBytes)), {});
  });

  test("Packr.pack() without structuredClone writes shared objects twice", () => {
    const shared = { a: 1 };
    assert.equal(
      sameBytes([shared, shared], { useRecords: false }),
      "92 de 00 01 a1 61 01 de 00 01 a1 61 01",
    );
    const copy = unpack(new Packr({ useRecords: false }).pack([shared, shared]));
    assert.notEqual(copy[0], copy[1]);
    assert.deepEqual(copy[0], copy[1]);
  });

  test("Packr.pack() without structuredClone rejects a cyclic value with a RangeError", () => {
    assert.throws(() => new Packr().pack(selfReferencing()), RangeError);
    assert.throws(() => new Packr({ useRecords: false }).pack(selfReferencing()), RangeError);
  });
});

describe("structuredClone options", () => {
  test("Packr with structuredClone turns on moreTypes unless moreTypes is false", () => {
    const set = new Set([1]);
    assert.equal(sameBytes(set, CLONE), "d4 73 00 91 01");
    assert.equal(sameBytes(set, { structuredClone: true, moreTypes: false }), "91 01");
    assert.equal(sameBytes(new Int8Array([5]), CLONE), "c7 02 74 00 05");
    assert.equal(
      sameBytes(2n ** 64n, CLONE),
      "d8 42 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00",
    );
  });

  test("Unpackr with structuredClone: false rejects an id marker", () => {
    const bytes = fromHex("d6 69 00 00 00 01 91 01");
    assert.throws(
      () => new Unpackr({ structuredClone: false }).unpack(bytes),
      (error: unknown) =>
        error instanceof DecodeError &&
        error.message ===
          "Structured clone reference extension is disabled (structuredClone: false) at offset 0" &&
        error.offset === 0,
    );
    assert.throws(() => theirUnpack(bytes, { structuredClone: false }), {
      message: "Structured clone extension is disabled",
    });
  });

  test("Unpackr with structuredClone: false rejects a pointer", () => {
    const bytes = fromHex("91 d6 70 00 00 00 01");
    assert.throws(
      () => new Unpackr({ structuredClone: false }).unpack(bytes),
      (error: unknown) =>
        error instanceof DecodeError &&
        error.message ===
          "Structured clone reference extension is disabled (structuredClone: false) at offset 1" &&
        error.offset === 1,
    );
  });

  test("Unpackr without the structuredClone option accepts references", () => {
    const bytes = fromHex("92 d6 69 00 00 00 01 91 01 d6 70 00 00 00 01");
    for (const copy of [new Unpackr().unpack(bytes), unpack(bytes), theirUnpack(bytes)]) {
      assert.deepEqual(copy, [[1], [1]]);
      assert.equal(copy[0], copy[1]);
    }
  });

  test("Unpackr.unpack() rejects a pointer to an undefined id with a DecodeError", () => {
    const bytes = fromHex("91 d6 70 00 00 00 01");
    assert.throws(
      () => unpack(bytes),
      (error: unknown) =>
        error instanceof DecodeError && !(error instanceof TypeError) &&
        /^Reference to undefined id 1/.test(error.message) && error.offset === 1,
    );
    // msgpackr 2.1.3 fails here with a raw TypeError
    assert.throws(() => theirUnpack(bytes), TypeError);
    // an id defined in this message but not the one pointed at
    assert.throws(
      () => unpack(fromHex("92 d6 69 00 00 00 01 90 d6 70 00 00 00 02")),
      (error: unknown) =>
        error instanceof DecodeError && /^Reference to undefined id 2/.test(error.message),
    );
  });

  test("Unpackr.unpack() forgets ids between messages", () => {
    const unpackr = new Unpackr(CLONE);
    assert.deepEqual(unpackr.unpack(fromHex("d6 69 00 00 00 01 91 01")), [1]);
    assert.throws(() => unpackr.unpack(fromHex("d6 70 00 00 00 01")), DecodeError);
  });
});
