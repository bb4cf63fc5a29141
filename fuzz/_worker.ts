// Copyright 2026 the @x/msgpackr authors. MIT license.
// The fuzzing loop, run in a worker so that fuzz.ts can stop it when a case hangs. Before each
// decode the input is copied into shared memory with a heartbeat, so a hang or a crash can be
// reported with the input that caused it.

import fc from "fast-check";
import {
  applyMutation,
  checkDecode,
  checkStream,
  type DecodeTarget,
  decodeTargets,
  DEFAULT_LIMITS,
  type Failure,
  mulberry32,
  type OptionSet,
  optionSets,
  prototypeProblem,
  randomBytes,
  randomMutation,
  randomTokens,
  toHex,
  valueArbitrary,
  valuesDiffer,
} from "./_fuzz.ts";
import { checkDifferential, randomDifferentialInput } from "./_differential.ts";
import {
  emptyCounts,
  SHARED_INPUT_BYTES,
  type StartMessage,
  type WorkerMessage,
} from "./_protocol.ts";

interface Scope {
  onmessage: ((event: MessageEvent) => void) | null;
  postMessage(message: unknown): void;
}
const scope = globalThis as unknown as Scope;

scope.onmessage = (event: MessageEvent) => {
  const message = event.data as StartMessage;
  if (message.type === "start") run(message);
};

function run({ seed, shared }: StartMessage): void {
  const header = new Int32Array(shared, 0, 4);
  const input = new Uint8Array(shared, 16);
  const random = mulberry32(seed);
  const counts = emptyCounts();
  const sets = optionSets();
  const pools: unknown[][] = sets.map(() => []);
  let sampleSeed = seed;
  const valueFor = (index: number): unknown => {
    if (pools[index].length === 0) {
      pools[index] = fc.sample(valueArbitrary(sets[index].features), {
        numRuns: 100,
        seed: sampleSeed++,
      });
    }
    return pools[index].pop();
  };
  const reported = new Set<string>();
  const report = (failures: readonly Failure[], bytes: Uint8Array, kind: string) => {
    for (const failure of failures) {
      scope.postMessage(
        {
          type: "failure",
          signature: failure.signature,
          detail: failure.detail,
          hex: reported.has(failure.signature) ? "" : toHex(bytes.subarray(0, 4096)),
          kind,
        } satisfies WorkerMessage,
      );
      reported.add(failure.signature);
    }
    if (failures.some((failure) => failure.signature.endsWith("prototype"))) {
      // a changed prototype would fail every later case: start over in a fresh worker
      scope.postMessage({ type: "stats", counts } satisfies WorkerMessage);
      throw new Error("Stopping: a built-in prototype was modified");
    }
  };
  const publish = (bytes: Uint8Array) => {
    const length = Math.min(bytes.length, SHARED_INPUT_BYTES - 16);
    input.set(bytes.subarray(0, length));
    header[1] = bytes.length;
    Atomics.add(header, 0, 1);
  };
  let targets: DecodeTarget[] = decodeTargets();
  const decodeAll = (bytes: Uint8Array, kind: string) => {
    publish(bytes);
    // fresh instances now and then: sequential decoders keep definitions between cases
    if (counts.cases % 64 === 0) targets = decodeTargets();
    report(
      checkDecode(bytes, targets, { ...DEFAULT_LIMITS, measureHeap: bytes.length > 256 }),
      bytes,
      kind,
    );
    counts.decodes += targets.length;
  };
  let lastStats = performance.now();
  for (;;) {
    const choice = random();
    counts.cases++;
    if (choice < 0.4) {
      const index = Math.floor(random() * sets.length);
      let bytes: Uint8Array;
      try {
        bytes = sets[index].encode(valueFor(index));
      } catch {
        continue;
      }
      const mutations = 1 + Math.floor(random() * 4);
      for (let i = 0; i < mutations; i++) bytes = applyMutation(bytes, randomMutation(random));
      counts.mutated++;
      decodeAll(bytes, "mutated");
      if (random() < 0.2) streamCase(bytes);
    } else if (choice < 0.55) {
      // differential: a mutated msgpackr encoding decoded by both libraries
      counts.differential++;
      const { bytes, config } = randomDifferentialInput(random);
      decodeAll(bytes, "differential");
      const failure = checkDifferential(bytes, config);
      if (failure !== null) {
        report(
          [{ target: failure.config, signature: failure.signature, detail: failure.detail }],
          bytes,
          "differential",
        );
      }
      if (random() < 0.2) streamCase(bytes);
    } else if (choice < 0.65) {
      counts.random++;
      decodeAll(randomBytes(random, 1 + Math.floor(random() * 64)), "random");
    } else if (choice < 0.85) {
      counts.structured++;
      const bytes = randomTokens(random, 2 + Math.floor(random() * 8));
      decodeAll(bytes, "structured");
      if (random() < 0.2) streamCase(bytes);
    } else if (choice < 0.9995) {
      counts.roundTrips++;
      roundTrip(sets, Math.floor(random() * sets.length), valueFor);
    } else {
      counts.large++;
      decodeAll(largeCase(random), "large");
    }
    if ((counts.cases & 255) === 0 && performance.now() - lastStats > 1000) {
      lastStats = performance.now();
      scope.postMessage({ type: "stats", counts } satisfies WorkerMessage);
    }
  }

  function streamCase(bytes: Uint8Array): void {
    counts.streams++;
    publish(bytes);
    const sizes = Array.from({ length: 3 }, () => 1 + Math.floor(random() * 9));
    const failure = checkStream(bytes, sizes);
    if (failure !== null) report([failure], bytes, `stream in chunks of ${sizes.join(",")}`);
    const prototypes = prototypeProblem();
    if (prototypes !== null) {
      report(
        [{ target: "ChunkDecoder", signature: "prototype", detail: prototypes }],
        bytes,
        "stream",
      );
    }
  }

  function roundTrip(sets: OptionSet[], index: number, valueFor: (index: number) => unknown): void {
    const set = sets[index];
    const value = valueFor(index);
    publish(new Uint8Array(0));
    let problem: string | null;
    try {
      problem = valuesDiffer(set.roundTrip(value), set.expected(value), {
        identity: set.features.references,
      });
    } catch (error) {
      problem = `threw ${String(error).slice(0, 300)}`;
    }
    if (problem !== null) {
      let bytes: Uint8Array = new Uint8Array(0);
      try {
        bytes = set.encode(value);
      } catch {
        // reported with an empty input
      }
      report(
        [{
          target: set.name,
          signature: `${set.name}: round trip ${problem.replace(/\d+/g, "N").slice(0, 120)}`,
          detail: problem,
        }],
        bytes,
        "round trip",
      );
    }
  }
}

/**
 * A bigger hostile input (up to ~256 KiB): chains of nested headers, many record definitions,
 * long runs of one-byte containers, big forged lengths after real data.
 */
function largeCase(random: () => number): Uint8Array {
  const size = 1024 + Math.floor(random() * 256 * 1024);
  const bytes = new Uint8Array(size);
  const units = [
    [0xdc, 0x7f, 0xff],
    [0xde, 0x7f, 0xff],
    [0xdd, 0x00, 0x00, 0xff, 0xff],
    [0xd4, 0x72, 0x40, 0x90],
    [0xd4, 0x72, 0x40, 0x91, 0xa1, 0x61, 0x40],
    [0x91],
    [0x81, 0xa0],
    [0x80],
    [0xd4, 0x73, 0x00, 0x91],
    [0xd6, 0x69, 0x00, 0x00, 0x00, 0x01],
    [0xc1],
  ];
  const unit = units[Math.floor(random() * units.length)];
  let offset = 0;
  if (random() < 0.5) {
    // inside an array that claims every unit
    const count = Math.floor(size / unit.length);
    bytes.set([0xdd, count >>> 24, (count >> 16) & 0xff, (count >> 8) & 0xff, count & 0xff]);
    offset = 5;
  }
  for (; offset + unit.length <= size; offset += unit.length) bytes.set(unit, offset);
  return bytes;
}
