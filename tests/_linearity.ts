// Copyright 2026 the @x/msgpackr authors. MIT license.
// A linearity check without wall-clock absolutes: the time of a job of size n and of size 2n,
// each the best of several interleaved runs, must keep a ratio close to 2. Built for a busy
// machine: other processes only ever make a run slower, so the best run estimates the job's own
// time, interleaving keeps a change of load from favouring one size, and a measurement that
// fails is taken again before the check fails. Work that grows as n² doubles to 4×, far above
// the bound.

import assert from "node:assert/strict";

/** Makes the job of one size (building its input outside the timing) and returns it. */
export type SizedJob = (size: number) => () => unknown;

/** Settings of {@linkcode assertLinear}. */
export interface LinearityOptions {
  /** Highest accepted time(2n) / time(n). @default {2.5} */
  maxRatio?: number;
  /** Runs of each size per measurement; the best counts. @default {5} */
  rounds?: number;
  /** Measurements before the check fails. @default {3} */
  attempts?: number;
}

/** Milliseconds `job` takes. */
function timed(job: () => unknown): number {
  const started = performance.now();
  job();
  return performance.now() - started;
}

/**
 * Asserts that `makeJob(2n)` takes at most `maxRatio` times as long as `makeJob(n)`, and returns
 * what the job of size 2n returned (for the caller to check). A job of n/10 runs twice first, so
 * both sizes are timed with optimized code.
 */
export function assertLinear(
  label: string,
  makeJob: SizedJob,
  n: number,
  options: LinearityOptions = {},
): unknown {
  const { maxRatio = 2.5, rounds = 5, attempts = 3 } = options;
  const warmUp = makeJob(Math.max(1, Math.floor(n / 10)));
  warmUp();
  warmUp();
  const small = makeJob(n);
  const large = makeJob(2 * n);
  let result: unknown;
  const ratios: string[] = [];
  for (let attempt = 0; attempt < attempts; attempt++) {
    let bestSmall = Infinity;
    let bestLarge = Infinity;
    for (let round = 0; round < rounds; round++) {
      bestSmall = Math.min(bestSmall, timed(small));
      const started = performance.now();
      result = large();
      bestLarge = Math.min(bestLarge, performance.now() - started);
    }
    const ratio = bestLarge / bestSmall;
    ratios.push(`${bestSmall.toFixed(1)} ms → ${bestLarge.toFixed(1)} ms (${ratio.toFixed(2)}×)`);
    if (ratio <= maxRatio) return result;
  }
  assert.fail(`${label}: ${n} → ${2 * n} is not linear: ${ratios.join(", ")}`);
}
