// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * A well-behaved decoder's speed before and after a hostile load on the caches every decoder
 * shares (generated readers, the builder pool, the shape trees): nothing one sender's input fills
 * may slow down the rest of the process.
 *
 *   deno run -A bench/hostile.ts [--decodes=<n>] [--bodies=<n>] [--rounds=<n>]
 *     (npm run bench:hostile:deno)
 *   bun bench/hostile.ts [...]                                      (npm run bench:hostile:bun)
 *
 * The well-behaved side reads the ~5 KB service response: as records (inline structures, what
 * `new Packr()` writes) with the generated reader and with the interpreted one
 * (`compileRecordReaders: false`, the no-eval build's), and as plain maps (`unpack`). Each is
 * timed twice before the load, right after it, and after a full garbage collection: a decoder
 * made before the load reading the shapes it knows, and a decoder made at that moment reading
 * shapes never seen before (the same response with its keys renamed), the case a load that
 * exhausted the caches would slow down for good. Right after the load, until the engine's next
 * full collection, what the engine keeps of the hostile objects' shapes can slow down objects of
 * new shapes built by keyed stores (on V8, the interpreted reader's); the collection clears that,
 * and none of this library's caches, so the last column shows what the load leaves behind.
 * The load is `--decodes` hostile messages (10,000 by default; tests/_hostile.ts): each full of
 * record shapes and map key sets never seen before, repeated to earn generated readers and
 * pooled builders, and long keys, half of them for a decoder that generates readers and half for
 * one that does not, as a server decodes every request with one decoder.
 *
 * The second load is what a server meets from many clients: `--bodies` bodies (10,000 by
 * default) of 32 objects with three keys never seen before each (tests/_hostile.ts,
 * `newShapesBody`), each decoded by `unpack(pack(body))` and by
 * `new Unpackr().unpack(new Packr().pack(body))`. The engines keep the hidden classes of those
 * objects until their next full collection (which may not come for a long time); a decoder of a
 * shape never seen before, reading 200 records (or plain maps) of it per decode, is timed before
 * the load, right after it, after 20,000 more such decodes, and after a forced collection,
 * without a collection forced before the first three, beside a decoder made before the load of a
 * shape it knows.
 *
 * Times are medians of `--rounds` slices of 5 ms (after warm-up slices that let a renewed tree
 * or pool learn the shapes again), every candidate of a phase taken in turn; the ratios are the
 * time before over the time after (1.00×: as fast; 0.50×: half as fast).
 */

import { pack, Packr, unpack, Unpackr } from "../mod.ts";
import {
  collectGarbage,
  compilingLoadMessage,
  newShapesBody,
  poolingLoadMessage,
} from "../tests/_hostile.ts";
import { random } from "../tests/_util.ts";
import { formatTime, medianSlices } from "./_measure.ts";
import { payloads } from "./_payloads.ts";
import { option, RUNTIME } from "./_runtime.ts";

/** Hostile messages decoded between the two measurements. */
const DECODES = Number(option("decodes") ?? 10_000);
/** Bodies of new shapes in the second load. */
const BODIES = Number(option("bodies") ?? 10_000);
/** Decodes of the well-behaved shapes between "right after" and "later" in the second load. */
const LATER_DECODES = 20_000;
/** Slices timed per candidate and phase. */
const ROUNDS = Number(option("rounds") ?? 15);
/** Milliseconds of calls one slice times. */
const SLICE_MS = 5;
/** Unmeasured rounds first: the JIT settles, and renewed trees and pools learn the shapes. */
const WARM_UP_ROUNDS = 20;

const response = payloads().find((payload) => payload.name === "service response (20 items)")!
  .value;

/** `value` with every property name prefixed: the same data in shapes never seen before. */
function renamed(value: unknown, prefix: string): unknown {
  if (Array.isArray(value)) return value.map((item) => renamed(item, prefix));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [`${prefix}${key}`, renamed(item, prefix)]),
  );
}

/** The well-behaved reads of a decoder made now, on `value`'s shapes. */
function reads(value: unknown): Record<string, () => unknown> {
  const records = new Packr().pack(value);
  const maps = pack(value);
  const generated = new Unpackr();
  const interpreted = new Unpackr({ compileRecordReaders: false });
  return {
    "records, generated reader": () => generated.unpack(records),
    "records, interpreted reader": () => interpreted.unpack(records),
    "plain maps (unpack)": () => unpack(maps),
  };
}

/** Times the reads of a decoder made before the load and of one made now, on new shapes. */
function measure(established: Record<string, () => unknown>, prefix: string) {
  const candidates: Record<string, () => unknown> = {};
  for (const [name, run] of Object.entries(established)) candidates[`${name}, known shapes`] = run;
  for (const [name, run] of Object.entries(reads(renamed(response, prefix)))) {
    candidates[`${name}, new decoder and shapes`] = run;
  }
  return medianSlices(candidates, ROUNDS, SLICE_MS, WARM_UP_ROUNDS);
}

const established = reads(response);
const before = measure(established, "before_");

const started = performance.now();
const hostilePackr = new Packr();
const hostileGenerating = new Unpackr({ mapsAsObjects: true });
const hostileInterpreted = new Unpackr({ mapsAsObjects: true, compileRecordReaders: false });
for (let n = 0; n < DECODES; n++) {
  if (n % 2 === 0) hostileGenerating.unpackMultiple(compilingLoadMessage(n, hostilePackr));
  else hostileInterpreted.unpackMultiple(poolingLoadMessage(n, hostilePackr));
}
const loadMs = performance.now() - started;

const after = measure(established, "after_");
collectGarbage();
const collected = measure(established, "collected_");

console.log(
  [
    `### ${RUNTIME}, a well-behaved decoder before and after ${
      DECODES.toLocaleString("en")
    } hostile decodes`,
    "",
    `The load (packing and decoding) took ${(loadMs / 1000).toFixed(1)} s. Median of ${ROUNDS} ` +
    `slices of ${SLICE_MS} ms per candidate, after ${WARM_UP_ROUNDS} unmeasured rounds.`,
    "",
    "| read | before | right after | speed | after a collection | speed |",
    "|---|---:|---:|---:|---:|---:|",
    ...Object.keys(before).map((name) =>
      `| ${name} | ${formatTime(before[name])} | ${formatTime(after[name])} | ${
        (before[name] / after[name]).toFixed(2)
      }× | ${formatTime(collected[name])} | ${(before[name] / collected[name]).toFixed(2)}× |`
    ),
    "",
  ].join("\n"),
);

// ---- the second load: bodies of new shapes ------------------------------------------------------

let batches = 0;
/** 200 objects of a shape never seen before (three keys). */
function batch(): Record<string, unknown>[] {
  const prefix = `fresh${batches++}_`;
  return Array.from({ length: 200 }, (_, i) => ({
    [`${prefix}id`]: i,
    [`${prefix}name`]: `item ${i}`,
    [`${prefix}ok`]: i % 2 === 0,
  }));
}

/** Decoders made now, of a shape never seen before: what the table times. */
function newShapeReads(): Record<string, () => unknown> {
  const value = batch();
  const records = new Packr().pack(value);
  const maps = pack(value);
  const generated = new Unpackr();
  const interpreted = new Unpackr({ compileRecordReaders: false });
  return {
    "200 records, generated reader": () => generated.unpack(records),
    "200 records, interpreted reader": () => interpreted.unpack(records),
    "200 plain maps (unpack)": () => unpack(maps),
  };
}

/** Decoders made before the load, of shapes they know: what the host's own drift does to them. */
const known = newShapeReads();
/** The known decoders, and decoders made now of a shape never seen before. */
function measureNew(): Record<string, number> {
  const candidates: Record<string, () => unknown> = {};
  for (const [name, run] of Object.entries(known)) candidates[`${name}, known shape`] = run;
  for (const [name, run] of Object.entries(newShapeReads())) candidates[`${name}, new shape`] = run;
  return medianSlices(candidates, ROUNDS, SLICE_MS, WARM_UP_ROUNDS);
}
const fresh = measureNew();
const shapes = random(53);
const loadStarted = performance.now();
for (let n = 0; n < BODIES; n++) {
  const body = newShapesBody(shapes);
  unpack(pack(body));
  new Unpackr().unpack(new Packr().pack(body));
}
const shapesLoadMs = performance.now() - loadStarted;
const rightAfter = measureNew();
const later = newShapeReads();
for (let n = 0; n < LATER_DECODES; n++) {
  for (const read of Object.values(later)) read();
}
const afterMore = measureNew();
collectGarbage();
const afterCollection = measureNew();

const speed = (time: number, name: string) => (fresh[name] / time).toFixed(2);
console.log(
  [
    `### ${RUNTIME}, decoders of a new shape before and after ${
      BODIES.toLocaleString("en")
    } bodies of new shapes`,
    "",
    `The load took ${(shapesLoadMs / 1000).toFixed(1)} s. Each column times the decoders made ` +
    `before the load, of the shape they know (what the host's own drift does), and decoders made ` +
    `then, of a shape never seen before; no collection is forced before the last. "Later": after ` +
    `${LATER_DECODES.toLocaleString("en")} more decodes by each new decoder.`,
    "",
    "| read | before | right after | speed | later | speed | after a collection | speed |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...Object.keys(fresh).map((name) =>
      `| ${name} | ${formatTime(fresh[name])} | ${formatTime(rightAfter[name])} | ${
        speed(rightAfter[name], name)
      }× | ${formatTime(afterMore[name])} | ${speed(afterMore[name], name)}× | ${
        formatTime(afterCollection[name])
      } | ${speed(afterCollection[name], name)}× |`
    ),
    "",
  ].join("\n"),
);
