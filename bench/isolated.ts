// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * Isolated throughput: every codec, operation and payload in a process of its own, timed as the
 * mean over a stretch of back-to-back calls, so the cost of what a call leaves behind (garbage
 * to collect, backing stores to free) is counted where it is made.
 *
 *   deno run -A bench/isolated.ts [--payload=<substring>] [--seconds=<n>] [--runs=<n>]
 *   bun bench/isolated.ts [...]
 *
 * `bench.ts` (mitata) keeps the fastest pass's median per-call time of codecs measured side by
 * side in one process. Two things it leaves out can turn a ratio around:
 *
 * - **Costs that fall on a few calls.** A median skips the calls that pay for the allocator and
 *   the collector. On Deno, whose V8 keeps no typed array on its heap (rusty_v8 builds with
 *   `v8_typed_array_max_size_in_heap = 0`), each fresh `ArrayBuffer` takes its bytes from the
 *   system allocator, at 0.4–0.8 µs for a small one in a loop of allocations: an exact-size
 *   result per `pack()` pays that where msgpackr, returning views of a buffer it keeps, does not.
 * - **The other codecs in the process.** A codec measured after others runs in a heap and a JIT
 *   state that they shaped; msgpackr's packer is slower there than on its own.
 *
 * Here a child process (this script with `--child=`) prepares one codec for one payload, calls it
 * for WARM_MS, then counts the calls made in the next `--seconds` (default 1) and prints the mean.
 * The parent runs each job in `--runs` (default 3) processes, one after another, and keeps the
 * median of their means: where a fresh buffer's cost depends on the allocator's state, one
 * process can be several times as slow as the next (Deno's 1 MiB `pack()`: 84-616 µs). It
 * prints the ratios: rival time / our time, above 1× = ours is faster, as in the other tables.
 */

import { spawnSync } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { codecNamed } from "./_codecs.ts";
import { formatTime } from "./_measure.ts";
import { timeSlice } from "./_slices.ts";
import { payloads } from "./_payloads.ts";
import { option, RUNTIME } from "./_runtime.ts";

/** Unmeasured calls first: the JIT and the allocator settle. */
const WARM_MS = 700;
const MEASURE_MS = 1000 * Number(option("seconds") ?? 1);
/** Processes per job; the job's time is the median of their means. */
const RUNS = Number(option("runs") ?? 3);

type Operation = "pack" | "unpack";

/** One child's job, as passed on its command line: codec name, operation, payload name. */
interface Job {
  codec: string;
  operation: Operation;
  payload: string;
}

/** The comparisons printed: our codec, the rival, and the operations compared. */
const COMPARISONS: [mine: string, rival: string, operations: Operation[]][] = [
  ["ours", "msgpackr", ["pack", "unpack"]],
  // results as views of a buffer the Packr is given, as msgpackr's are views of one it keeps
  ["ours useBuffer", "msgpackr", ["pack"]],
  ["ours records", "msgpackr records", ["pack", "unpack"]],
  ["ours records no-eval", "msgpackr records", ["unpack"]], // its pack is `ours records`'
  ["ours", "JSON", ["pack", "unpack"]],
  ["ours records", "JSON", ["pack", "unpack"]],
];

/** In a child: times the job and prints its mean nanoseconds per call. */
function runChild(job: Job): void {
  const payload = payloads().find((candidate) => candidate.name === job.payload)!;
  const prepared = codecNamed(job.codec).prepare(payload.value);
  const run = job.operation === "pack" ? prepared.encode : prepared.decode;
  timeSlice(run, WARM_MS);
  console.log(JSON.stringify({ nanoseconds: timeSlice(run, MEASURE_MS) }));
}

/** The command that runs this script again, on the same runtime. */
function childCommand(job: Job): [string, string[]] {
  const script = fileURLToPath(import.meta.url);
  const args = [`--child=${encodeURIComponent(JSON.stringify(job))}`];
  const isDeno = (globalThis as { Deno?: unknown }).Deno !== undefined;
  return [process.execPath, isDeno ? ["run", "-A", script, ...args] : [script, ...args]];
}

/** Runs the job in RUNS processes of its own and returns the median of their means (ns/call). */
function medianOfProcesses(job: Job): number {
  const means: number[] = [];
  for (let i = 0; i < RUNS; i++) means.push(timeInChild(job));
  means.sort((a, b) => a - b);
  console.error(
    `${job.payload} / ${job.codec} ${job.operation}: ${means.map(formatTime).join(", ")}`,
  );
  return means[(RUNS - 1) >> 1];
}

/** Runs the job in a process of its own and returns its mean nanoseconds per call. */
function timeInChild(job: Job): number {
  const [command, args] = childCommand(job);
  const result = spawnSync(command, args, { encoding: "utf8" });
  const line = result.stdout.trim().split("\n").at(-1) ?? "";
  if (result.status !== 0 || !line.startsWith("{")) {
    throw new Error(`child ${JSON.stringify(job)} failed: ${result.stderr}`);
  }
  return JSON.parse(line).nanoseconds;
}

function runParent(): void {
  const payloadFilter = option("payload");
  const times = new Map<string, number>(); // `${codec}|${operation}|${payload}` -> ns per call
  const timeOf = (job: Job): number => {
    const key = `${job.codec}|${job.operation}|${job.payload}`;
    if (!times.has(key)) times.set(key, medianOfProcesses(job));
    return times.get(key)!;
  };
  const rows = new Map<string, string[]>(); // "mine vs rival" -> one row per payload
  for (const payload of payloads()) {
    if (payloadFilter && !payload.name.includes(payloadFilter)) continue;
    for (const [mine, rival, operations] of COMPARISONS) {
      if (!codecNamed(rival).accepts(payload.json)) continue;
      const cells = operations.map((operation) => {
        const ours = timeOf({ codec: mine, operation, payload: payload.name });
        const theirs = timeOf({ codec: rival, operation, payload: payload.name });
        return `${formatTime(ours)} | ${formatTime(theirs)} | ${(theirs / ours).toFixed(2)}×`;
      });
      const key = `${mine} vs ${rival}`;
      rows.set(key, [...rows.get(key) ?? [], `| ${payload.name} | ${cells.join(" | ")} |`]);
    }
  }
  const lines = [
    `### ${RUNTIME}, isolated`,
    "",
    `Mean time per call, each codec, operation and payload in a process of its own (${WARM_MS} ms of calls unmeasured, then ${MEASURE_MS} ms), the median of ${RUNS} such processes; ratio = rival time / our time (above 1× = ours is faster).`,
    "",
  ];
  for (const [mine, rival, operations] of COMPARISONS) {
    const header = operations.map((operation) => `${operation}: ours | ${rival} | ratio`);
    const rule = operations.map(() => "---:|---:|---:");
    lines.push(
      `#### ${mine} vs ${rival}`,
      "",
      `| payload | ${header.join(" | ")} |`,
      `|---|${rule.join("|")}|`,
      ...rows.get(`${mine} vs ${rival}`) ?? [],
      "",
    );
  }
  console.log(lines.join("\n"));
}

const child = option("child");
if (child !== undefined) runChild(JSON.parse(decodeURIComponent(child)));
else runParent();
