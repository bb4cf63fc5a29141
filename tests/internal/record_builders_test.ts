// Copyright 2026 the @x/msgpackr authors. MIT license.
// The interpreted record reader's object building (_records/builders.ts, _records/builder_pool.ts):
// each shape gets its own builder (and continuation chunks) from a pool, shapes of more than 16
// properties (MOST_PROPERTIES_WITHOUT_TEMPLATE) start from a template copy, and once the pools are
// spent new shapes use a loop.
// Every path must build exactly the object msgpackr builds: same keys in the same order, same
// values, Object.prototype, and the same answers for duplicate, integer-like and __proto__ keys.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { pack, Unpackr } from "../../mod.ts";
import { RECORD_BUILDERS, STORE_CHUNKS, STORES_PER_CHUNK } from "../../_records/builders.ts";
import { createObjectBuilder } from "../../_records/reader.ts";
import { MOST_PROPERTIES_WITHOUT_TEMPLATE } from "../../_core/thresholds.ts";
import { recordBytes } from "./_record_bytes.ts";
import { scriptArgs } from "../_util.ts";

const interpreted = () => new Unpackr({ compileRecordReaders: false });

function assertSameObject(actual: unknown, expected: unknown, message?: string): void {
  assert.deepEqual(actual, expected, message);
  assert.deepEqual(Object.keys(actual as object), Object.keys(expected as object), message);
  assert.equal(Object.getPrototypeOf(actual), Object.prototype, message);
}

describe("interpreted record reader: object building", () => {
  test("no_eval.ts decodes 476 shapes like msgpackr, on pooled builders, the loop, and again pooled", () => {
    // a fresh process, so the pools start empty (test files share one process)
    const probe = fileURLToPath(new URL("./_builder_probe.ts", import.meta.url));
    const child = spawnSync(process.execPath, scriptArgs(probe), {
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
    assert.equal(child.status, 0, child.stderr);
    const { cases, mismatches, pools } = JSON.parse(child.stdout) as {
      cases: number;
      mismatches: string[];
      pools: [generation: number, pooledShapes: number][];
    };
    assert.deepEqual(mismatches, []);
    assert.equal(cases, 70 * 4 + 6 * 4 + 20 * 3);
    // Which shapes got builders of their own: in decode order, shapes of 1..70 properties, then the
    // six special shapes (3, 13, 4, 12, 3 and 14 properties), each read four times (the fourth
    // read earns the builder: USES_BEFORE_BUILDER); the 400 shapes
    // are redefined in every message, so their types are read once and keep the loop. A shape gets
    // a builder while one is left with its chunks (one per 8 properties after the first 8), in
    // the pool's first generation.
    const sizes = [...Array.from({ length: 70 }, (_, i) => i + 1), 3, 13, 4, 12, 3, 14];
    assert.equal(pools.length, sizes.length);
    let builders = 0;
    let chunks = 0;
    let shape = 0;
    for (; shape < sizes.length && pools[shape][0] === 0; shape++) {
      const needed = Math.ceil(sizes[shape] / STORES_PER_CHUNK) - 1;
      if (builders < RECORD_BUILDERS.length && chunks + needed <= STORE_CHUNKS.length) {
        builders++;
        chunks += needed;
      }
      assert.equal(pools[shape][1], builders, `after ${sizes[shape]} keys`);
    }
    // the chunks ran out, so both ways of building (pooled and the loop) were exercised; the
    // spent pool was renewed (64 decodes later), and the shapes after got builders again
    assert.ok(chunks > STORE_CHUNKS.length - 4, `${chunks} chunks`);
    assert.ok(shape < sizes.length, "the pool was renewed");
    assert.ok(pools.slice(shape).some(([, pooled]) => pooled > 0), "builders lent again");
  });

  test("the pools are what the reader assumes: distinct functions, stores of 8 at most", () => {
    assert.equal(STORES_PER_CHUNK, 8);
    assert.equal(MOST_PROPERTIES_WITHOUT_TEMPLATE, 16, "the sizes the freeze test straddles");
    assert.ok(RECORD_BUILDERS.length >= 32);
    assert.ok(STORE_CHUNKS.length >= 32);
    assert.equal(new Set(RECORD_BUILDERS).size, RECORD_BUILDERS.length, "each its own function");
    assert.equal(new Set(STORE_CHUNKS).size, STORE_CHUNKS.length, "each its own function");
    const object: Record<string, unknown> = {};
    let value = 0;
    const reached = STORE_CHUNKS[0](object, ["a", "b", "c"], 1, 3, () => ++value);
    assert.equal(reached, 3);
    assert.deepEqual(object, { b: 1, c: 2 });
    const names = Array.from({ length: 20 }, (_, i) => `k${i}`);
    assert.equal(STORE_CHUNKS[1]({}, names, 4, 20, () => 0), 12, "stops after 8 stores");
  });

  test("createObjectBuilder() builds small, large and empty shapes, one builder per shape", () => {
    let value = 0;
    const read = () => value++;
    const small = createObjectBuilder(["x", "y"], read);
    // pooled while the pools last (bun test runs every file in one process, so they may be spent)
    if (RECORD_BUILDERS.includes(small)) {
      assert.equal(
        createObjectBuilder(["x", "y"], read),
        small,
        "the same shape shares its builder",
      );
    }
    assertSameObject(small(), { x: 0, y: 1 });
    assertSameObject(small(), { x: 2, y: 3 });
    const names = Array.from({ length: 19 }, (_, i) => `large${i}`);
    const large = createObjectBuilder(names, read);
    const first = large();
    assertSameObject(first, Object.fromEntries(names.map((name, i) => [name, 4 + i])));
    assert.notEqual(large(), first, "a new object every time");
    assertSameObject(createObjectBuilder([], read)(), {});
    // the same shape read by another value reader is built right too (by the loop)
    const other = createObjectBuilder(["x", "y"], () => "other");
    assertSameObject(other(), { x: "other", y: "other" });
    assertSameObject(small(), { x: 42, y: 43 });
  });

  test("Unpackr({freezeData: true}) freezes records of every size on the interpreted reader", () => {
    const unpackr = new Unpackr({ freezeData: true, compileRecordReaders: false });
    // one chunk, two chunks from `{}`, and a template: either side of the template's threshold
    for (const size of [2, 9, 16, 17, 30]) {
      const keys = Array.from({ length: size }, (_, i) => `z${size}_${i}`);
      const bytes = recordBytes(keys, keys.map((_, i) => i));
      // the first reads build with the loop, the fourth with the shape's pooled builder
      for (let read = 0; read < 4; read++) {
        const object = unpackr.unpack(bytes) as object;
        assert.ok(Object.isFrozen(object));
        assert.deepEqual(Object.keys(object), keys);
      }
    }
  });

  test("the template of a large shape is never handed out or changed by decoding", () => {
    const keys = Array.from({ length: 20 }, (_, i) => `t${i}`);
    const bytes = recordBytes(keys, keys.map((_, i) => i));
    const unpackr = interpreted();
    const first = unpackr.unpack(bytes) as Record<string, unknown>;
    first.t0 = "changed";
    const second = unpackr.unpack(bytes) as Record<string, unknown>;
    assert.notEqual(first, second);
    assert.equal(second.t0, 0);
    assert.deepEqual(Object.values(second), keys.map((_, i) => i));
    // a value that fails to decode leaves nothing half-built behind for the next record
    const broken = recordBytes(keys, keys.map((_, i) => i)).subarray(0, 20);
    assert.throws(() => unpackr.unpack(broken));
    assert.deepEqual(unpackr.unpack(bytes), second);
    assert.deepEqual(pack(second), pack(unpackr.unpack(bytes)));
  });
});
