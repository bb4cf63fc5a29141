// Copyright 2026 the @x/msgpackr authors. MIT license.
// Messages between fuzz/fuzz.ts and its worker.

/** Message from fuzz.ts that starts the loop. */
export interface StartMessage {
  type: "start";
  seed: number;
  /** Int32 [0] heartbeat, [1] input length; bytes from offset 16 hold the input. */
  shared: SharedArrayBuffer;
}

/** Messages to fuzz.ts. */
export type WorkerMessage =
  | { type: "stats"; counts: Counts }
  | { type: "failure"; signature: string; detail: string; hex: string; kind: string };

/** What was run. */
export interface Counts {
  /** Fuzz cases (one input checked by every decoder configuration, or one round trip). */
  cases: number;
  /** Single decodes (one input, one configuration). */
  decodes: number;
  mutated: number;
  random: number;
  structured: number;
  roundTrips: number;
  streams: number;
  large: number;
  /** Inputs decoded by both our decoder and msgpackr's (fuzz/_differential.ts). */
  differential: number;
}

/** Counts of nothing run yet. */
export function emptyCounts(): Counts {
  return {
    cases: 0,
    decodes: 0,
    mutated: 0,
    random: 0,
    structured: 0,
    roundTrips: 0,
    streams: 0,
    large: 0,
    differential: 0,
  };
}

/** Bytes of shared memory for the input being decoded (longer inputs are cut in the report). */
export const SHARED_INPUT_BYTES = 1 << 20;
