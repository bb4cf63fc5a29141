// Copyright 2026 the @x/msgpackr authors. MIT license.
// Nothing one sender's input fills degrades the process for everyone else: the caches shared by
// every decoder (generated readers, the builder pool, the shape trees of both codecs) stay bounded
// under 10,000 hostile decodes, and a well-behaved decoder, old or new, still reads its records
// with a generated reader (or a pooled builder when it does not generate) and its plain maps with
// their builders. Memory and reader kinds, not time: the speed before and after such a load is
// what `npm run bench:hostile:deno` / `:bun` shows.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { GENERATION_CHARS, GENERATION_SHAPES } from "../../_core/code_cache.ts";
import { MAX_LOANS } from "../../_records/builder_pool.ts";
import { RECORD_BUILDERS } from "../../_records/builders.ts";
import { MAX_SHAPES } from "../../_records/shape_tree.ts";
import { scriptArgs } from "../_util.ts";

interface Readers {
  inline: string;
  shared: string;
  map: string;
  nestedMap: string;
}

interface ProbeResult {
  decodes: number;
  mismatches: number;
  caches: {
    compiled: { functions: number; chars: number };
    mapShapes: number;
    objectShapes: number;
    pooledShapes: number;
    loans: number;
    longKeyNodes: number;
  };
  heap: { before: number; midway: number; afterLoad: number };
  before: Record<"generating" | "interpreted", Readers>;
  after: Record<"generating" | "interpreted" | "newGenerating" | "newInterpreted", Readers>;
}

const GENERATED: Readers = {
  inline: "generated",
  shared: "generated",
  map: "generated",
  nestedMap: "generated",
};
const POOLED: Readers = { inline: "pooled", shared: "pooled", map: "pooled", nestedMap: "pooled" };
const MB = 1024 * 1024;

describe("process-wide caches under hostile input", () => {
  let probed: ProbeResult | undefined;
  /** The probe's result, run once, by the first test that asks. */
  const result = (): ProbeResult => {
    if (probed !== undefined) return probed;
    // a fresh process: the caches start empty and the heap holds nothing of other tests
    const probe = fileURLToPath(new URL("./_cache_probe.ts", import.meta.url));
    const child = spawnSync(process.execPath, scriptArgs(probe), {
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
    assert.equal(child.status, 0, child.stderr);
    return probed = JSON.parse(child.stdout) as ProbeResult;
  };

  test("10,000 hostile decodes, and every decode gives what was packed", () => {
    const { decodes, mismatches } = result();
    assert.equal(decodes, 10_000);
    assert.equal(mismatches, 0);
  });

  test("the caches stay within their bounds", () => {
    const { caches } = result();
    const shapes = caches.compiled.functions;
    assert.ok(shapes <= 2 * GENERATION_SHAPES, `${shapes} shapes`);
    assert.ok(caches.compiled.chars <= 2 * GENERATION_CHARS, `${caches.compiled.chars} chars`);
    assert.ok(shapes > 0, "the hostile shapes were compiled, then fell out");
    assert.ok(caches.mapShapes <= MAX_SHAPES, `${caches.mapShapes} map shapes`);
    assert.ok(caches.objectShapes <= MAX_SHAPES, `${caches.objectShapes} object shapes`);
    assert.ok(caches.pooledShapes <= RECORD_BUILDERS.length, `${caches.pooledShapes} pooled`);
    assert.ok(caches.loans <= MAX_LOANS, `${caches.loans} loans`);
    assert.equal(caches.longKeyNodes, 0, "no tree keeps a node for a 300-character key");
  });

  test("the heap grows by a few MB at most, and not with more decodes", () => {
    const { heap } = result();
    const total = heap.afterLoad - heap.before;
    const lastThreeQuarters = heap.afterLoad - heap.midway;
    assert.ok(total < 48 * MB, `${(total / MB).toFixed(1)} MB over the load`);
    assert.ok(lastThreeQuarters < 16 * MB, `${(lastThreeQuarters / MB).toFixed(1)} MB after 2,500`);
  });

  test("well-behaved decoders keep their generated readers and pooled builders", () => {
    const { before, after } = result();
    assert.deepEqual(before, { generating: GENERATED, interpreted: POOLED });
    assert.deepEqual(after.generating, GENERATED);
    assert.deepEqual(after.interpreted, POOLED);
  });

  test("a new decoder with shapes first seen after the load gets them too", () => {
    const { after } = result();
    assert.deepEqual(after.newGenerating, GENERATED);
    assert.deepEqual(after.newInterpreted, POOLED);
  });
});
