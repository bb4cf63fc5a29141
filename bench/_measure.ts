// Copyright 2026 the @x/msgpackr authors. MIT license.
// Timing on a shared host: each function's fastest median over several interleaved mitata passes
// (`bench.ts`), and short slices of calls for benches that interleave their own rounds.

import { measure } from "mitata";

/**
 * Times each of `runs` and returns its nanoseconds per call. The host is shared and slows down
 * for seconds at a time; timing each function once, one after another, lets such a spell land on
 * one function and not on the one it is compared with. So after one unmeasured pass that warms
 * up the JIT and the allocator (large buffers are slow to get the first time), every function is
 * measured in `rounds` passes, each visiting all of them in turn for `budget` ns of CPU, and keeps
 * its fastest pass's median: a slow spell costs a function one pass, not its result.
 */
export async function fastestMedians(
  runs: readonly (() => unknown)[],
  rounds: number,
  budget: number,
): Promise<number[]> {
  // batches of 256 calls (mitata's default, 4,096, makes its minimum of 12 samples last seconds)
  const options = { min_cpu_time: budget, batch_samples: 256 };
  for (const run of runs) await measure(run, { ...options, min_cpu_time: budget / 5 });
  const best = runs.map(() => Infinity);
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < runs.length; i++) {
      best[i] = Math.min(best[i], (await measure(runs[i], options)).p50);
    }
  }
  return best;
}

/** A time in nanoseconds as the tables print it: "850 ns", "12.3 µs", "1.25 ms". */
export function formatTime(nanoseconds: number): string {
  if (nanoseconds < 1e3) return `${nanoseconds.toFixed(0)} ns`;
  if (nanoseconds < 1e6) return `${(nanoseconds / 1e3).toFixed(1)} µs`;
  return `${(nanoseconds / 1e6).toFixed(2)} ms`;
}

/**
 * Nanoseconds per call of `run`, called in batches of 8 for `milliseconds` of wall time. No
 * collection is forced before or between slices (mitata's `measure` forces one): benches that
 * alternate slices of two functions let each collect the garbage of both alike.
 */
export function timeSlice(run: () => unknown, milliseconds: number): number {
  let calls = 0;
  const started = performance.now();
  let now = started;
  while (now - started < milliseconds) {
    for (let i = 0; i < 8; i++) run();
    calls += 8;
    now = performance.now();
  }
  return (now - started) * 1e6 / calls;
}

/**
 * The median nanoseconds per call of each candidate, timed in slices of `sliceMs` taken in turn,
 * round after round (`warmUpRounds` unmeasured first: the JIT and the allocator settle), so a slow
 * spell of the host falls on all of them alike. A slice is a mean over back-to-back calls, so the
 * garbage a candidate leaves is collected within slices, its own or another's.
 */
export function medianSlices(
  candidates: Record<string, () => unknown>,
  rounds: number,
  sliceMs: number,
  warmUpRounds: number,
): Record<string, number> {
  const names = Object.keys(candidates);
  const times = new Map<string, number[]>(names.map((name) => [name, []]));
  for (let round = 0; round < warmUpRounds + rounds; round++) {
    for (const name of names) {
      const time = timeSlice(candidates[name], sliceMs);
      if (round >= warmUpRounds) times.get(name)!.push(time);
    }
  }
  const result: Record<string, number> = {};
  for (const [name, list] of times) {
    list.sort((a, b) => a - b);
    result[name] = list[list.length >> 1];
  }
  return result;
}

/** The element at quantile `q` of a sorted list. */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.round(q * (sorted.length - 1))];
}

/** What {@linkcode pairedSlices} measures of two functions. */
export interface PairedTimes {
  /** Quartiles and median of the pairs' ratios, `rival` time / `mine` time (above 1: `mine` faster). */
  low: number;
  median: number;
  high: number;
  /** Median nanoseconds per call of each side over its measured slices. */
  oursNs: number;
  rivalNs: number;
}

/**
 * `pairs` pairs of `sliceMs` slices of `mine` and `rival`, back to back, the order alternating
 * from pair to pair (after `warmUpPairs` unmeasured pairs): each pair gives one ratio, so a slow
 * spell of the host moves a few pairs, not the median.
 */
export function pairedSlices(
  mine: () => unknown,
  rival: () => unknown,
  pairs: number,
  sliceMs: number,
  warmUpPairs: number,
): PairedTimes {
  for (let i = 0; i < warmUpPairs; i++) timeSlice(mine, sliceMs), timeSlice(rival, sliceMs);
  const ratios: number[] = [];
  const oursTimes: number[] = [];
  const rivalTimes: number[] = [];
  for (let i = 0; i < pairs; i++) {
    let ours: number;
    let theirs: number;
    if (i % 2 === 0) {
      ours = timeSlice(mine, sliceMs);
      theirs = timeSlice(rival, sliceMs);
    } else {
      theirs = timeSlice(rival, sliceMs);
      ours = timeSlice(mine, sliceMs);
    }
    ratios.push(theirs / ours);
    oursTimes.push(ours);
    rivalTimes.push(theirs);
  }
  for (const list of [ratios, oursTimes, rivalTimes]) list.sort((a, b) => a - b);
  return {
    low: quantile(ratios, 0.25),
    median: quantile(ratios, 0.5),
    high: quantile(ratios, 0.75),
    oursNs: quantile(oursTimes, 0.5),
    rivalNs: quantile(rivalTimes, 0.5),
  };
}
