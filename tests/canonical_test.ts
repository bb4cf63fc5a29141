// Copyright 2026 the @x/msgpackr authors. MIT license.
// `canonical: true`: the same data gives the same bytes. Checked against @msgpack/msgpack's
// `encode(value, { sortKeys: true })` on the testdata files and a random corpus of plain data;
// keys inserted in any order, and an object or a Map of the same string keys, give the same
// bytes; the options it excludes are TypeErrors; the bytes of a fixed corpus hash the same under
// Deno, Bun and Node (tests/_canonical_corpus.ts).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import fc from "fast-check";
import { decode, encode } from "@msgpack/msgpack";
import { Packr, PackrStream, Unpackr } from "../mod.ts";
import { BOUNDARY_INTEGERS, canonicalCorpus, canonicalCorpusHash } from "./_canonical_corpus.ts";
import { ROOT } from "./_cli.ts";
import { run } from "./_process.ts";
import { TESTDATA_FILES } from "./_testdata_files.ts";
import { compilesDuring, fromHex, hex, isDeno, readTestdata } from "./_util.ts";

/** The SHA-256 of the canonical bytes of tests/_canonical_corpus.ts, on every runtime. */
const CORPUS_HASH = "95b12838dccd9ffd7b583badf9ec26e9881be2c568b6bf4e6cb567df59561004";

const canonical = new Packr({ canonical: true });

/** Fast equality, and the hex of both only when they differ. */
function assertSameBytes(actual: Uint8Array, expected: Uint8Array, label: string): void {
  if (actual.length === expected.length && actual.every((byte, i) => byte === expected[i])) return;
  assert.equal(hex(actual), hex(expected), label);
}

/** `value` with every Map replaced by a plain object of its (string) keys, recursively. */
function mapsToObjects(value: unknown): unknown {
  if (value instanceof Map) {
    const object: Record<string, unknown> = {};
    for (const [key, item] of value) {
      Object.defineProperty(object, key as string, {
        value: mapsToObjects(item),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return object;
  }
  if (Array.isArray(value)) return value.map(mapsToObjects);
  if (value !== null && typeof value === "object" && !(value instanceof Uint8Array)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, mapsToObjects(item)]),
    );
  }
  return value;
}

/** `value` with every plain object replaced by a Map of its entries, in their order. */
function objectsToMaps(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(objectsToMaps);
  if (value instanceof Map) {
    return new Map([...value].map(([key, item]) => [key, objectsToMaps(item)]));
  }
  if (value !== null && typeof value === "object" && !(value instanceof Uint8Array)) {
    return new Map(Object.entries(value).map(([key, item]) => [key, objectsToMaps(item)]));
  }
  return value;
}

/** `value` with the keys of every object and the entries of every Map in another order. */
function reordered(value: unknown, next: () => number): unknown {
  const shuffle = <T>(items: T[]): T[] => {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  };
  if (Array.isArray(value)) return value.map((item) => reordered(item, next));
  if (value instanceof Map) {
    return new Map(shuffle([...value]).map(([key, item]) => [key, reordered(item, next)]));
  }
  if (value instanceof Set) return new Set(shuffle([...value]));
  if (value !== null && typeof value === "object" && !(value instanceof Uint8Array)) {
    const object: Record<string, unknown> = {};
    for (const [key, item] of shuffle(Object.entries(value))) {
      Object.defineProperty(object, key, {
        value: reordered(item, next),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return object;
  }
  return value;
}

/** The corpus's boundary integers, and safe integers beyond 32 bits that no power of two is. */
const INTEGERS: readonly number[] = [...BOUNDARY_INTEGERS, 2 ** 40 + 3, -(2 ** 40) - 3];

/** Plain data as @msgpack/msgpack writes it too: its Maps have string keys. */
const plainData: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.constantFrom(...INTEGERS),
    fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }),
    fc.maxSafeInteger(),
    fc.double({ noNaN: true }),
    fc.constant(NaN),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: "grapheme", maxLength: 80 }),
    fc.string({ unit: "binary", minLength: 20, maxLength: 300 }).map((text) => text.toWellFormed()),
    fc.constantFrom("", "x".repeat(31), "x".repeat(32), "é".repeat(128), "€".repeat(21846)),
    fc.uint8Array({ maxLength: 300 }),
    // containers weigh more, so that most values nest
    { weight: 4, arbitrary: fc.array(tie("value"), { maxLength: 20 }) },
    {
      weight: 4,
      arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), tie("value"), { maxKeys: 20 }),
    },
    {
      weight: 3,
      arbitrary: fc.uniqueArray(fc.tuple(fc.string({ maxLength: 10 }), tie("value")), {
        maxLength: 20,
        selector: ([key]) => key,
      }).map((entries) => new Map(entries)),
    },
  ),
})).value;

describe("canonical: true writes @msgpack/msgpack's sortKeys bytes", () => {
  for (const name of TESTDATA_FILES) {
    test(`testdata/${name}`, async () => {
      const data = await readTestdata(name);
      const expected = encode(data, { sortKeys: true });
      assertSameBytes(canonical.pack(data), expected, name);
      // and again: no state of the first pack changes the second
      assertSameBytes(canonical.pack(data), expected, name);
      assert.deepEqual(decode(canonical.pack(data)), data);
    });
  }

  test("a random corpus of plain data (Maps as the objects @msgpack/msgpack writes)", () => {
    fc.assert(
      fc.property(plainData, (value) => {
        const expected = encode(mapsToObjects(value), { sortKeys: true });
        assertSameBytes(canonical.pack(value), expected, "");
      }),
      { numRuns: 600, seed: 52 },
    );
  });

  test("numbers: -0 is 0, NaN is cb 7f f8 0..., integers in their smallest form", () => {
    const values = [-0, NaN, Infinity, 1.5, ...INTEGERS, 2 ** 53, -(2 ** 64)];
    for (const value of values) {
      assertSameBytes(canonical.pack(value), encode(value), String(value));
    }
    assert.equal(hex(canonical.pack(-0)), "00");
    assert.equal(hex(canonical.pack(0x40)), "40"); // a fixint: no records, no record ids
    assert.equal(hex(canonical.pack(2 ** 40)), "cf 00 00 01 00 00 00 00 00");
    assert.equal(hex(canonical.pack(-(2 ** 40))), "d3 ff ff ff 00 00 00 00 00");
    assert.equal(hex(canonical.pack(2 ** 53)), "cb 43 40 00 00 00 00 00 00"); // not safe: float64
    // a NaN with other bits, as V8 keeps them: the one pattern
    const nans = new Float64Array(new Uint32Array([1, 0x7ff00000, 0, 0xfff80000]).buffer);
    for (const nan of nans) assert.equal(hex(canonical.pack(nan)), "cb 7f f8 00 00 00 00 00 00");
    // in an array of numbers too (its own element loop), and in a map
    const nanBytes = "cb 7f f8 00 00 00 00 00 00";
    assert.equal(hex(canonical.pack([...nans, 1])), `93 ${nanBytes} ${nanBytes} 01`);
    assert.equal(hex(canonical.pack({ x: nans[1] })), `81 a1 78 ${nanBytes}`);
  });

  test("bigints: uint64 from 0, int64 below, as @msgpack/msgpack's useBigInt64 writes them", () => {
    const bigints = [
      0n,
      1n,
      5n,
      2n ** 40n,
      2n ** 63n,
      2n ** 64n - 1n,
      -1n,
      -(2n ** 40n),
      -(2n ** 63n),
    ];
    for (const value of bigints) {
      assertSameBytes(canonical.pack(value), encode(value, { useBigInt64: true }), `${value}n`);
      // both decoders read it back as the bigint
      assert.equal(decode(canonical.pack(value), { useBigInt64: true }), value);
      assert.equal(new Unpackr().unpack(canonical.pack(value)), value);
    }
    assert.equal(hex(canonical.pack(5n)), "cf 00 00 00 00 00 00 00 05");
    assert.equal(hex(canonical.pack(-5n)), "d3 ff ff ff ff ff ff ff fb");
    assert.throws(() => canonical.pack(2n ** 64n), RangeError);
    // msgpackr, and this library without canonical, write positive bigints below 2^63 as int64
    assert.equal(hex(new Packr({ useRecords: false }).pack(5n)), "d3 00 00 00 00 00 00 00 05");
  });
});

describe("canonical: true gives the same bytes for the same data", () => {
  test("keys and Map entries inserted in any order", () => {
    const next = (() => {
      let seed = 7;
      return () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000);
    })();
    fc.assert(
      fc.property(plainData, (value) => {
        const bytes = canonical.pack(value);
        for (let i = 0; i < 3; i++) {
          assertSameBytes(canonical.pack(reordered(value, next)), bytes, "");
        }
      }),
      { numRuns: 300, seed: 53 },
    );
    // integer-like keys, which objects enumerate first, sort as strings: "10" < "2" < "a"
    assert.equal(
      hex(canonical.pack({ a: 1, 2: 2, 10: 3 })),
      "83 a2 31 30 03 a1 32 02 a1 61 01",
    );
  });

  test("an object and a Map of the same string keys", () => {
    fc.assert(
      fc.property(plainData, (value) => {
        assertSameBytes(
          canonical.pack(objectsToMaps(value)),
          canonical.pack(mapsToObjects(value)),
          "",
        );
      }),
      { numRuns: 300, seed: 54 },
    );
    const keys = ["b", "a", "__proto__", "é", "\u{1F600}", "\uffff", "", "B", "aa"];
    const object: Record<string, number> = {};
    for (const [i, key] of keys.entries()) {
      Object.defineProperty(object, key, { value: i, enumerable: true });
    }
    const map = new Map(keys.map((key, i) => [key, i]));
    assert.equal(hex(canonical.pack(map)), hex(canonical.pack(object)));
    // UTF-16 code units: U+FFFF sorts after the pair of U+1F600 (d83d de00), unlike code points
    const sorted = [...keys].sort();
    assert.deepEqual(
      [...(new Unpackr({ mapsAsObjects: false }).unpack(canonical.pack(map)))]
        .map(([key]) => key),
      sorted,
    );
    assert.ok(sorted.indexOf("\u{1F600}") < sorted.indexOf("\uffff"));
  });

  test("Map keys that are not strings: numbers by value, then strings, then the rest by bytes", () => {
    const packr = new Packr({ canonical: true, useBigIntExtension: true });
    // the canonical order: numbers and bigints by value (a number before an equal bigint, NaN
    // last), strings by UTF-16 code units, then the rest by their bytes (91 01 < c0 < c2 < c3 <
    // c4 01 01)
    const ordered: [unknown, number][] = [
      [-1, 1],
      [1, 2],
      [1n, 3],
      [1.5, 4],
      [10, 5],
      [2n ** 70n, 6],
      [NaN, 7],
      ["a", 8],
      ["b", 9],
      [[1], 10],
      [null, 11],
      [false, 12],
      [true, 13],
      [new Uint8Array([1]), 14],
    ];
    const expected = `8e ${
      ordered.map(([key, value]) => `${hex(packr.pack(key))} ${hex(packr.pack(value))}`).join(" ")
    }`;
    const next = (() => {
      let seed = 11;
      return () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000);
    })();
    for (let i = 0; i < 20; i++) {
      assert.equal(hex(packr.pack(reordered(new Map(ordered), next))), expected, `order ${i}`);
    }
    // two keys of equal bytes (two empty objects) are ordered by their values' bytes
    const twins = (first: number, second: number) => new Map([[{}, first], [{}, second]]);
    assert.equal(hex(packr.pack(twins(2, 1))), "82 80 01 80 02");
    assert.equal(hex(packr.pack(twins(1, 2))), "82 80 01 80 02");
  });

  test("Set elements in the order of Map keys", () => {
    assert.equal(
      hex(canonical.pack(new Set(["b", 2, "a", 1]))),
      hex(canonical.pack(new Set([1, "a", 2, "b"]))),
    );
    assert.equal(hex(canonical.pack(new Set(["b", 2, "a", 1]))), "94 01 02 a1 61 a1 62");
    const moreTypes = new Packr({ canonical: true, moreTypes: true });
    assert.equal(hex(moreTypes.pack(new Set([3, 1]))), "d4 73 00 92 01 03");
  });

  test("the smallest headers: fixmap/map16/map32, fixarray/array16/array32, fixstr..str32", () => {
    for (const size of [0, 15, 16, 65535, 65536]) {
      const object: Record<string, number> = {};
      for (let i = 0; i < size; i++) object[`k${i}`] = 0;
      const bytes = canonical.pack(object);
      const header = size < 16 ? (0x80 | size).toString(16) : size < 0x10000 ? "de" : "df";
      assert.equal(hex(bytes.subarray(0, 1)), header, `map of ${size}`);
      assertSameBytes(bytes, encode(object, { sortKeys: true }), `map of ${size}`);
      const array = new Array(size).fill(0);
      assertSameBytes(canonical.pack(array), encode(array), `array of ${size}`);
    }
    for (const length of [0, 31, 32, 255, 256, 65535, 65536]) {
      const text = "x".repeat(length);
      assertSameBytes(canonical.pack(text), encode(text), `string of ${length}`);
    }
  });

  test("no records, no generated writers: a shape written a thousand times stays sorted", () => {
    const rows = Array.from({ length: 1000 }, (_, i) => i % 2 ? { z: i, a: i } : { a: i, z: i });
    const { result, compiles } = compilesDuring(() => canonical.pack(rows));
    assert.equal(compiles, 0, "no writer is generated for canonical maps");
    assert.ok(!hex(result).includes("d4 72"), "no record definition");
    assertSameBytes(result, encode(rows, { sortKeys: true }), "rows");
    assert.deepEqual(canonical.unpack(result), rows.map(({ a, z }) => ({ a, z })));
    assert.equal(canonical.useRecords, false);
  });

  test("through a PackrStream", async () => {
    const values = canonicalCorpus().slice(0, 60);
    const chunks: Uint8Array[] = [];
    const stream = ReadableStream.from(values).pipeThrough(new PackrStream({ canonical: true }));
    for await (const chunk of stream) chunks.push(chunk);
    const joined = hex(Uint8Array.from(chunks.flatMap((chunk) => [...chunk])));
    assert.equal(joined, values.map((value) => hex(canonical.pack(value))).join(" "));
  });
});

describe("canonical: true refuses what is not canonical", () => {
  const cases: [string, string, Record<string, unknown>][] = [
    ["useRecords", "true", { useRecords: true }],
    ["useRecords", "a function", { useRecords: () => true }],
    ["structuredClone", "true", { structuredClone: true }],
    ["bundleStrings", "true", { bundleStrings: true }],
    ["structures", "[]", { structures: [] }],
    ["saveStructures", "a function", { saveStructures: () => {} }],
    ["getStructures", "a function", { getStructures: () => [] }],
  ];
  for (const [name, given, options] of cases) {
    test(`with ${name}: ${given} it is a TypeError at construction, naming both`, () => {
      const message = new RegExp(`^canonical: true cannot be combined with ${name}$`);
      assert.throws(() => new Packr({ canonical: true, ...options }), {
        name: "TypeError",
        message,
      });
      assert.throws(() => new PackrStream({ canonical: true, ...options }), {
        name: "TypeError",
        message,
      });
    });
  }

  test("useRecords: false is canonical's own form; the options it excludes stay out when assigned", () => {
    const packr = new Packr({ canonical: true, useRecords: false, structuredClone: false });
    assert.equal(hex(packr.pack({ b: 1, a: 2 })), "82 a1 61 02 a1 62 01");
    assert.throws(() => Object.assign(packr, { bundleStrings: true }), TypeError);
    assert.throws(() => Object.assign(packr, { structuredClone: true }), TypeError);
    assert.equal(packr.bundleStrings, undefined);
    assert.equal(hex(packr.pack({ b: 1, a: 2 })), "82 a1 61 02 a1 62 01");
    // canonical is read at construction: assigning it throws
    assert.throws(() => Object.assign(packr, { canonical: false }), /read when the Packr is made/);
    assert.equal(packr.canonical, true);
  });

  test("without canonical, nothing changes: records and map16 as msgpackr", () => {
    assert.equal(hex(new Packr().pack({ b: 1, a: 2 })), "d4 72 40 92 a1 62 a1 61 01 02");
    assert.equal(hex(new Packr({ useRecords: false }).pack({ b: 1 })), "de 00 01 a1 62 01");
    assert.equal(hex(new Packr({ canonical: false }).pack(fromHex("01"))), "c4 01 01");
  });
});

describe("canonical bytes on every runtime", () => {
  test("the fixed corpus hashes to the checked-in SHA-256 here", async () => {
    assert.equal(await canonicalCorpusHash(), CORPUS_HASH);
  });

  test("the value tests/browser/page.js packs in Chromium gives these bytes here", () => {
    const nan = new Float64Array(new Uint32Array([0, 0xfff80000]).buffer)[0];
    const value = {
      z: [nan, 2 ** 40, -0, "\u00e9\ud800"],
      a: new Map<unknown, unknown>([["b", 1], [2, null], ["a", 5n]]),
    };
    assert.equal(
      hex(canonical.pack(value)).replaceAll(" ", ""),
      "82a1618302c0a161cf0000000000000005a16201a17a94cb7ff8000000000000cf000001000000000000a5c3a9efbfbd",
    );
  });

  test("and under Node, from a bundle of the same corpus script", async () => {
    const temp = mkdtempSync(join(tmpdir(), "msgpackr-canonical-"));
    try {
      const bundle = join(temp, "canonical_hash.mjs");
      const script = join(ROOT, "tests", "_canonical_hash.ts");
      // the runtime running the tests bundles it: `deno bundle` or `bun build`
      const built = isDeno
        ? await run(process.execPath, ["bundle", "--quiet", script, "-o", bundle])
        : await run(process.execPath, ["build", script, "--target=node", "--outfile", bundle]);
      assert.equal(built.code, 0, built.stderr);
      const node = await run("node", [bundle]);
      assert.equal(node.code, 0, node.stderr);
      assert.equal(new TextDecoder().decode(node.stdout).trim(), CORPUS_HASH);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
