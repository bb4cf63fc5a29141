// Copyright 2026 the @x/msgpackr authors. MIT license.
// Slices of calls timed back to back, for benches that interleave their own rounds. No imports:
// the browser benchmark's page bundles this module.

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
 * Nanoseconds per call of an asynchronous `run`, awaited one call after another in batches of 8
 * for `milliseconds` of wall time (each call's promise settles before the next starts).
 */
export async function timeSliceAsync(
  run: () => Promise<unknown>,
  milliseconds: number,
): Promise<number> {
  let calls = 0;
  const started = performance.now();
  let now = started;
  while (now - started < milliseconds) {
    for (let i = 0; i < 8; i++) await run();
    calls += 8;
    now = performance.now();
  }
  return (now - started) * 1e6 / calls;
}

/** The element at quantile `q` of a sorted list. */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.round(q * (sorted.length - 1))];
}

/** What {@linkcode pairedSlices} measures of two functions. */
export interface PairedTimes {
  /** Quartiles and median of the pairs' ratios, `rival` time / `mine` time (above 1: `mine` wins). */
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
  const oursTimes: number[] = [];
  const rivalTimes: number[] = [];
  for (let i = 0; i < pairs; i++) {
    if (i % 2 === 0) {
      oursTimes.push(timeSlice(mine, sliceMs));
      rivalTimes.push(timeSlice(rival, sliceMs));
    } else {
      rivalTimes.push(timeSlice(rival, sliceMs));
      oursTimes.push(timeSlice(mine, sliceMs));
    }
  }
  return pairedTimes(oursTimes, rivalTimes);
}

/** {@linkcode pairedSlices} of asynchronous functions (each call awaited before the next). */
export async function pairedSlicesAsync(
  mine: () => Promise<unknown>,
  rival: () => Promise<unknown>,
  pairs: number,
  sliceMs: number,
  warmUpPairs: number,
): Promise<PairedTimes> {
  for (let i = 0; i < warmUpPairs; i++) {
    await timeSliceAsync(mine, sliceMs);
    await timeSliceAsync(rival, sliceMs);
  }
  const oursTimes: number[] = [];
  const rivalTimes: number[] = [];
  for (let i = 0; i < pairs; i++) {
    if (i % 2 === 0) {
      oursTimes.push(await timeSliceAsync(mine, sliceMs));
      rivalTimes.push(await timeSliceAsync(rival, sliceMs));
    } else {
      rivalTimes.push(await timeSliceAsync(rival, sliceMs));
      oursTimes.push(await timeSliceAsync(mine, sliceMs));
    }
  }
  return pairedTimes(oursTimes, rivalTimes);
}

/** The quartiles of the pairs' ratios and the median times of each side. */
function pairedTimes(oursTimes: number[], rivalTimes: number[]): PairedTimes {
  const ratios = oursTimes.map((ours, i) => rivalTimes[i] / ours);
  for (const list of [ratios, oursTimes, rivalTimes]) list.sort((a, b) => a - b);
  return {
    low: quantile(ratios, 0.25),
    median: quantile(ratios, 0.5),
    high: quantile(ratios, 0.75),
    oursNs: quantile(oursTimes, 0.5),
    rivalNs: quantile(rivalTimes, 0.5),
  };
}
