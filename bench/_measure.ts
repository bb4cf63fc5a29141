// Copyright 2026 the @x/msgpackr authors. MIT license.
// Timing on a shared host: each function's fastest median over several interleaved mitata passes
// (`bench.ts`), and the median of slices taken in turn (`_slices.ts` times the slices).

import { measure } from "mitata";
import { timeSlice } from "./_slices.ts";

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
