// Copyright 2026 the @x/msgpackr authors. MIT license.
// Long-running fuzzer: `deno task fuzz 1800` (or `bun fuzz/fuzz.ts 1800`) fuzzes for 1800 seconds.
//
// A worker (fuzz/_worker.ts) decodes hostile inputs with every decoder configuration: mutations
// of valid encodings of random values from every option set, random bytes, structure-aware random
// token streams, big bombs; decodes mutated msgpackr encodings with msgpackr's decoder too and
// compares (fuzz/_differential.ts, with the table of intended differences fuzz/_differences.ts);
// streams inputs through the chunk decoder; and round-trips random values.
// Each case is checked against the rules of fuzz/_fuzz.ts (only DecodeError/IncompleteDataError
// with a sane offset and message, untouched built-in prototypes, no non-built-in prototypes in
// decoded values, bounded time and heap, the stream delivering exactly what a whole decode
// delivers, msgpackr decoding alike or a row of the table saying why not, round trips giving the
// expected value). This process watches the worker: a case that runs longer than HANG_SECONDS, or
// a worker that dies, is recorded with its input and the worker is restarted with a new seed.
// Every distinct failure is written (hex input + what failed) to fuzz-failures/<timestamp>.txt.
// Options: `--seed N` (the first worker's seed, printed at the start; the cases a seed makes do
// not depend on time, so a run replays with the seed it printed). Exits with 1 when it recorded
// any failure (CI relies on it), 2 on a bad argument.

import { appendFileSync, mkdirSync } from "node:fs";
import {
  type Counts,
  emptyCounts,
  SHARED_INPUT_BYTES,
  type StartMessage,
  type WorkerMessage,
} from "./_protocol.ts";

const HANG_SECONDS = 10;

const args = typeof Deno !== "undefined"
  ? Deno.args
  : (globalThis as unknown as { process: { argv: string[] } }).process.argv.slice(2);
const seedIndex = args.indexOf("--seed");
const seedArgument = seedIndex >= 0 ? args[seedIndex + 1] : undefined;
if (seedIndex >= 0 && !/^-?\d+$/.test(seedArgument ?? "")) {
  console.error(`--seed needs an integer, got ${seedArgument}`);
  (globalThis as unknown as { process: { exit(code: number): never } }).process.exit(2);
}
const seconds = Number(
  args.find((arg, i) => i !== seedIndex + 1 && /^\d+(\.\d+)?$/.test(arg)) ?? 60,
);
let seed = seedArgument !== undefined
  ? Number(seedArgument) | 0
  : Math.floor(Math.random() * 0x7fffffff);
const runtime = typeof Deno !== "undefined"
  ? `Deno ${Deno.version.deno} (V8 ${Deno.version.v8})`
  : `Bun ${(globalThis as unknown as { Bun: { version: string } }).Bun.version}`;

const failureDir = new URL("../fuzz-failures/", import.meta.url);
const failureFile = new URL(
  `${new Date().toISOString().replace(/[:.]/g, "-")}.txt`,
  failureDir,
);
let failureFileStarted = false;

const totals = emptyCounts();
/** Counts of workers that ended (hang, crash, prototype change); added to the live worker's. */
const finished = emptyCounts();
let live = emptyCounts();
const failures = new Map<string, { count: number; detail: string; kind: string }>();
const seeds: number[] = [];

function record(message: Extract<WorkerMessage, { type: "failure" }>): void {
  const known = failures.get(message.signature);
  if (known !== undefined) {
    known.count++;
    return;
  }
  failures.set(message.signature, { count: 1, detail: message.detail, kind: message.kind });
  if (!failureFileStarted) {
    mkdirSync(failureDir, { recursive: true });
    appendFileSync(failureFile, `# fuzz run on ${runtime}, seeds ${seeds.join(", ")}\n`);
    failureFileStarted = true;
  }
  appendFileSync(
    failureFile,
    `\n## ${message.signature}\nkind: ${message.kind}\ndetail: ${message.detail}\nhex: ${message.hex}\n`,
  );
  console.log(`FAILURE ${message.signature}\n  ${message.detail.slice(0, 300)}`);
  if (message.hex) console.log(`  input: ${message.hex.slice(0, 200)}`);
}

const shared = new SharedArrayBuffer(SHARED_INPUT_BYTES);
const header = new Int32Array(shared, 0, 4);
const input = new Uint8Array(shared, 16);
let worker: Worker | undefined;
let lastBeat = -1;
let lastBeatTime = performance.now();

function currentInputHex(): string {
  const length = Math.min(header[1], input.length, 4096);
  let text = "";
  for (let i = 0; i < length; i++) text += input[i].toString(16).padStart(2, "0");
  return text;
}

function addCounts(into: Counts, from: Counts): void {
  for (const key of Object.keys(into) as (keyof Counts)[]) into[key] += from[key];
}

function startWorker(): void {
  seeds.push(seed);
  live = { ...totals, cases: 0 };
  for (const key of Object.keys(live) as (keyof Counts)[]) live[key] = 0;
  worker = new Worker(new URL("./_worker.ts", import.meta.url).href, { type: "module" });
  worker.onmessage = (event: MessageEvent) => {
    const message = event.data as WorkerMessage;
    if (message.type === "stats") live = message.counts;
    else record(message);
  };
  worker.onerror = (event: ErrorEvent) => {
    event.preventDefault();
    restart(`worker died: ${event.message}`, "crash");
  };
  worker.postMessage({ type: "start", seed, shared } satisfies StartMessage);
  lastBeat = -1;
  lastBeatTime = performance.now();
}

function restart(detail: string, kind: string): void {
  const hex = currentInputHex();
  worker?.terminate();
  addCounts(finished, live);
  if (!/prototype was modified/.test(detail)) {
    record({
      type: "failure",
      signature: `${kind}: ${detail.replace(/\d+/g, "N")}`,
      detail,
      hex,
      kind,
    });
  }
  seed = (seed + 0x9e3779b9) | 0;
  startWorker();
}

const started = performance.now();
const deadline = started + seconds * 1000;
console.log(`Fuzzing for ${seconds} s on ${runtime}, first seed ${seed}`);
startWorker();

let lastReport = started;
await new Promise<void>((resolve) => {
  const timer = setInterval(() => {
    const now = performance.now();
    const beat = Atomics.load(header, 0);
    if (beat !== lastBeat) {
      lastBeat = beat;
      lastBeatTime = now;
    } else if (now - lastBeatTime > HANG_SECONDS * 1000) {
      restart(`a case ran longer than ${HANG_SECONDS} s`, "hang");
    }
    if (now - lastReport > 60000) {
      lastReport = now;
      const cases = finished.cases + live.cases;
      console.log(
        `${((now - started) / 1000).toFixed(0)} s: ${cases} cases (${
          (cases / ((now - started) / 1000)).toFixed(0)
        }/s), ${failures.size} distinct failures`,
      );
    }
    if (now >= deadline) {
      clearInterval(timer);
      resolve();
    }
  }, 500);
});

// the worker reports its counts every second; take the last report
await new Promise((resolve) => setTimeout(resolve, 1500));
worker?.terminate();
addCounts(finished, live);
const elapsed = (performance.now() - started) / 1000;
console.log(`\nDone on ${runtime} after ${elapsed.toFixed(0)} s (seeds ${seeds.join(", ")})`);
console.log(
  `cases: ${finished.cases} (${
    (finished.cases / elapsed).toFixed(0)
  }/s) = ${finished.mutated} mutated encodings + ${finished.differential} differential inputs (decoded by msgpackr too) + ${finished.random} random byte strings + ${finished.structured} structured token streams + ${finished.roundTrips} round trips + ${finished.large} large bombs; ${finished.streams} stream checks`,
);
console.log(`single decodes (input × decoder configuration): ${finished.decodes}`);
if (failures.size === 0) {
  console.log("no failures");
} else {
  console.log(`${failures.size} distinct failures, written to ${failureFile.pathname}:`);
  for (const [signature, { count, kind }] of failures) {
    console.log(`  ${count}× [${kind}] ${signature}`);
  }
}
(globalThis as unknown as { process: { exit(code: number): never } }).process.exit(
  failures.size === 0 ? 0 : 1,
);
