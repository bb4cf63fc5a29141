// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * A well-behaved decoder's speed before and after a hostile load on the caches every decoder
 * shares (generated readers, the builder pool, the shape trees): nothing one sender's input fills
 * may slow down the rest of the process.
 *
 *   deno run -A bench/hostile.ts [--decodes=<n>] [--rounds=<n>]    (npm run bench:hostile:deno)
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
 * Times are medians of `--rounds` slices of 5 ms (after warm-up slices that let a renewed tree
 * or pool learn the shapes again), every candidate of a phase taken in turn; the ratios are the
 * time after over the time before (1.00×: as fast).
 */

import { pack, Packr, unpack, Unpackr } from "../mod.ts";
import { collectGarbage, compilingLoadMessage, poolingLoadMessage } from "../tests/_hostile.ts";
import { formatTime, medianSlices } from "./_measure.ts";
import { payloads } from "./_payloads.ts";
import { option, RUNTIME } from "./_runtime.ts";

/** Hostile messages decoded between the two measurements. */
const DECODES = Number(option("decodes") ?? 10_000);
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
    "| read | before | right after | / before | after a collection | / before |",
    "|---|---:|---:|---:|---:|---:|",
    ...Object.keys(before).map((name) =>
      `| ${name} | ${formatTime(before[name])} | ${formatTime(after[name])} | ${
        (after[name] / before[name]).toFixed(2)
      }× | ${formatTime(collected[name])} | ${(collected[name] / before[name]).toFixed(2)}× |`
    ),
    "",
  ].join("\n"),
);
