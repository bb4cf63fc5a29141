// Copyright 2026 the @x/msgpackr authors. MIT license.
// Run by record_builders_test.ts in a fresh process, so that the interpreted reader's pools start
// empty: decodes records of many shapes with no_eval.ts (every shape on the interpreted reader,
// the first ones on pooled builders, the later ones on the loop until the pool is renewed) and
// with msgpackr, and prints JSON: { cases, mismatches, pools }, `pools` holding the pool's
// generation and its count of shapes with a builder after each shape of the first two groups.

import * as msgpackr from "msgpackr";
import { Packr, Unpackr } from "../../no_eval.ts";
import { builderPoolState } from "../../_records/builder_pool.ts";
import { recordBytes } from "./_record_bytes.ts";
import { random } from "../_util.ts";

const mismatches: string[] = [];
let cases = 0;

/** Objects as [whether the prototype is Object.prototype, [key, value] pairs in order]. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value === null || typeof value !== "object") return value;
  return [
    Object.getPrototypeOf(value) === Object.prototype,
    Object.entries(value).map(([key, item]) => [key, normalize(item)]),
  ];
}

/** Our value and msgpackr's must be equal, with the same keys in the same order, plain objects. */
function compare(label: string, ours: unknown, theirs: unknown): void {
  cases++;
  if (JSON.stringify(normalize(ours)) !== JSON.stringify(normalize(theirs))) mismatches.push(label);
}

const unpackr = new Unpackr();
const theirs = new msgpackr.Unpackr();
const pools: [number, number][] = [];

// one record of every size from 1 to 70 keys (sizes past 8 use template copies and chunks)
for (let size = 1; size <= 70; size++) {
  const keys = Array.from({ length: size }, (_, i) => `field${size}_${i}`);
  const bytes = recordBytes(
    keys,
    keys.map((_, i) => i % 3 === 0 ? `v${i}` : i % 3 === 1 ? i * 1.5 : [i]),
  );
  for (let read = 0; read < 4; read++) {
    compare(`${size} keys`, unpackr.unpack(bytes), theirs.unpack(bytes));
  }
  pools.push([builderPoolState().generation, builderPoolState().shapes]);
}

// repeated, integer-like and __proto__ keys, in small and template-copied shapes
const special = [
  ["a", "b", "a"],
  [...Array.from({ length: 12 }, (_, i) => `k${i}`), "k3"],
  ["name0", "3", "name2", "1"],
  Array.from({ length: 12 }, (_, i) => i % 2 === 0 ? `name${i}` : `${12 - i}`),
  ["p0", "__proto__", "p2"],
  Array.from({ length: 14 }, (_, i) => i === 1 ? "__proto__" : `p${i}`),
];
for (const keys of special) {
  const bytes = recordBytes(keys, keys.map((_, i) => i + 100));
  for (let read = 0; read < 4; read++) {
    compare(keys.join(), unpackr.unpack(bytes), theirs.unpack(bytes));
  }
  pools.push([builderPoolState().generation, builderPoolState().shapes]);
}

// 400 shapes of 1 to 30 keys, 20 per message, three times over: redefined in every message, so
// each record type is read once and keeps the loop
const next = random(7);
const objects = Array.from({ length: 400 }, (_, shape) => {
  const object: Record<string, unknown> = {};
  const size = 1 + Math.floor(next() * 30);
  for (let i = 0; i < size; i++) object[`s${shape}_${i}`] = next() < 0.5 ? i : `text ${i}`;
  return object;
});
const packr = new Packr();
for (let round = 0; round < 3; round++) {
  for (let start = 0; start < objects.length; start += 20) {
    const bytes = packr.pack(objects.slice(start, start + 20));
    compare(
      `shapes ${start}.. round ${round}`,
      unpackr.unpack(bytes),
      objects.slice(start, start + 20),
    );
  }
}

console.log(JSON.stringify({ cases, mismatches, pools }));
