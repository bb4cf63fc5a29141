// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * Streams benchmark: small records ({ id, name, active, score }) through our Web Streams
 * (`PackrStream`, `PackrStream.from`, `UnpackrStream`, `decodeIter`) and through msgpackr 2.1.3's
 * Node streams and `unpackMultiple`, at 10^5 and 10^6 records. Reports objects per second (median
 * of several repetitions, wall clock with `performance.now()`) and peak resident memory. For the
 * speed of values to bytes against msgpackr, in paired rounds, see `bench/stream_encode.ts`
 * (`npm run bench:streams`).
 *
 *   deno run -A bench/streams.ts [--counts=100000,1000000] [--reps=3] [--scenario=<substring>]
 *   bun bench/streams.ts [...]
 *
 * Each (scenario, count) runs in a child process of the same runtime, so peak memory belongs to
 * that scenario alone. Memory is sampled every 5 ms (and read from the OS peak where the runtime
 * offers `process.resourceUsage()`). The streaming scenarios keep no values: their memory should
 * not grow with the count. Decode scenarios read a byte stream made of one block that defines the
 * record shape followed by a block of references repeated as often as needed, in 64 KiB chunks,
 * so the input is not held in memory either; `unpackMultiple` needs the whole input in one buffer.
 */

import process from "node:process";
import { spawnSync } from "node:child_process";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import * as msgpackr from "msgpackr";
import { decodeIter, encodeIter, Packr, PackrStream, Unpackr, UnpackrStream } from "../mod.ts";
import { concatBytes } from "../_core/bytes.ts";
import { option, RUNTIME } from "./_runtime.ts";

interface Row {
  id: number;
  name: string;
  active: boolean;
  score: number;
}

function row(id: number): Row {
  return { id, name: `name ${id}`, active: id % 2 === 0, score: id * 0.25 };
}

function* rows(count: number, report = false): Generator<Row> {
  for (let id = 0; id < count; id++) {
    if (report) progress(id + 1);
    yield row(id);
  }
}

/** Live-heap probe: called with the running object count; samples at each quarter of the run. */
let probe: ((count: number) => void) | null = null;

function progress(count: number): void {
  if ((count & 0x3fff) === 0 && probe !== null) probe(count);
}

const CHUNK = 65536;
const BLOCK = 10000;

/** A sequential record stream of `count` rows, in 64 KiB chunks, built from two blocks. */
function* encodedChunks(count: number): Generator<Uint8Array> {
  const packr = new Packr({ sequential: true });
  const block = (start: number) =>
    concatBytes(Array.from({ length: BLOCK }, (_, i) => packr.pack(row(start + i))));
  const first = block(0); // defines the shape
  const repeated = block(BLOCK); // only references: can be repeated
  if (count % BLOCK !== 0) throw new RangeError("The count must be a multiple of 10000");
  for (let produced = 0; produced < count; produced += BLOCK) {
    const bytes = produced === 0 ? first : repeated;
    for (let offset = 0; offset < bytes.length; offset += CHUNK) {
      yield bytes.subarray(offset, offset + CHUNK);
    }
  }
}

/** Resolves with the number of objects a Node object stream emits. */
function countNodeStream(stream: NodeJS.ReadableStream): Promise<number> {
  return new Promise((resolve, reject) => {
    let count = 0;
    stream.on("data", () => progress(++count));
    stream.on("end", () => resolve(count));
    stream.on("error", reject);
  });
}

/** Resolves with the number of bytes a Node byte stream emits. */
function countNodeBytes(stream: NodeJS.ReadableStream): Promise<number> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    stream.on("data", (chunk: Uint8Array) => bytes += chunk.length);
    stream.on("end", () => resolve(bytes));
    stream.on("error", reject);
  });
}

async function countStream(stream: ReadableStream<unknown>): Promise<number> {
  const reader = stream.getReader();
  let count = 0;
  for (;;) {
    const { done } = await reader.read();
    if (done) return count;
    progress(++count);
  }
}

async function countBytes(stream: ReadableStream<Uint8Array>): Promise<number> {
  const reader = stream.getReader();
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    bytes += value.length;
  }
}

/** A ReadableStream over a generator, one item per pull (like a network body). */
function streamOf<T>(source: Iterator<T>): ReadableStream<T> {
  return new ReadableStream<T>({
    pull(controller) {
      const step = source.next();
      if (step.done) controller.close();
      else controller.enqueue(step.value);
    },
  });
}

/** Each scenario returns how many objects it produced (checked against the count). */
const SCENARIOS: Record<string, { what: string; run: (count: number) => Promise<number> }> = {
  "ours pipeline": {
    what: "PackrStream → UnpackrStream",
    run: (count) =>
      countStream(
        streamOf(rows(count)).pipeThrough(new PackrStream()).pipeThrough(new UnpackrStream()),
      ),
  },
  "msgpackr pipeline": {
    what: "Node PackrStream → UnpackrStream",
    run: (count) =>
      countNodeStream(
        Readable.from(rows(count)).pipe(new msgpackr.PackrStream()).pipe(
          new msgpackr.UnpackrStream(),
        ),
      ),
  },
  "ours encode": {
    what: "PackrStream",
    run: async (count) => {
      const bytes = await countBytes(streamOf(rows(count, true)).pipeThrough(new PackrStream()));
      return bytes > count ? count : -1;
    },
  },
  "ours from": {
    what: "PackrStream.from(generator)",
    run: async (count) => {
      const bytes = await countBytes(PackrStream.from(rows(count, true)));
      return bytes > count ? count : -1;
    },
  },
  "ours encodeIter": {
    what: "encodeIter(generator)",
    run: async (count) => {
      let bytes = 0;
      for await (const chunk of encodeIter(rows(count, true))) bytes += chunk.length;
      return bytes > count ? count : -1;
    },
  },
  "msgpackr encode": {
    what: "Node PackrStream",
    run: async (count) => {
      const bytes = await countNodeBytes(
        Readable.from(rows(count, true)).pipe(new msgpackr.PackrStream()),
      );
      return bytes > count ? count : -1;
    },
  },
  "ours decode": {
    what: "UnpackrStream, 64 KiB chunks",
    run: (count) => countStream(streamOf(encodedChunks(count)).pipeThrough(new UnpackrStream())),
  },
  "ours decodeIter": {
    what: "decodeIter, 64 KiB chunks",
    run: async (count) => {
      let decoded = 0;
      for await (const _ of decodeIter(encodedChunks(count))) progress(++decoded);
      return decoded;
    },
  },
  "msgpackr decode": {
    what: "Node UnpackrStream, 64 KiB chunks",
    run: (count) =>
      countNodeStream(Readable.from(encodedChunks(count)).pipe(new msgpackr.UnpackrStream())),
  },
  "msgpackr unpackMultiple": {
    what: "unpackMultiple(whole buffer)",
    run: (count) => {
      const whole = concatBytes([...encodedChunks(count)]);
      let decoded = 0;
      msgpackr.unpackMultiple(whole, () => {
        progress(++decoded);
      });
      return Promise.resolve(decoded);
    },
  },
  "ours unpackMultiple": {
    what: "Unpackr.unpackMultiple(whole buffer)",
    run: (count) => {
      const whole = concatBytes([...encodedChunks(count)]);
      let decoded = 0;
      new Unpackr({ sequential: true }).unpackMultiple(whole, () => {
        progress(++decoded);
      });
      return Promise.resolve(decoded);
    },
  },
};

function rss(): number {
  return typeof Deno !== "undefined" ? Deno.memoryUsage().rss : process.memoryUsage().rss;
}

interface Measurement {
  medianMs: number;
  allMs: number[];
  peakRss: number;
  /**
   * Largest live heap (JS heap + external memory) after a full GC, sampled at each quarter of an
   * extra run (-1: no GC available).
   */
  liveHeap: number;
}

/** JS heap in use plus memory outside it (ArrayBuffers such as a whole input buffer). */
function heapUsed(): number {
  const usage = typeof Deno !== "undefined" ? Deno.memoryUsage() : process.memoryUsage();
  return usage.heapUsed + (usage.external ?? 0);
}

/** A full garbage collection, where the runtime offers one (Deno with --expose-gc, Bun). */
function collectGarbage(): boolean {
  const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
  if (bun !== undefined) {
    bun.gc(true);
    return true;
  }
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) return false;
  gc();
  return true;
}

/** Child process: runs one scenario `reps` times and prints the measurement as JSON. */
async function child(name: string, count: number, reps: number): Promise<void> {
  const scenario = SCENARIOS[name];
  let peak = rss();
  const sampler = setInterval(() => peak = Math.max(peak, rss()), 5);
  const times: number[] = [];
  for (let rep = 0; rep < reps; rep++) {
    const start = performance.now();
    const produced = await scenario.run(count);
    times.push(performance.now() - start);
    if (produced !== count) throw new Error(`${name} produced ${produced} of ${count} objects`);
    peak = Math.max(peak, rss());
  }
  clearInterval(sampler);
  try {
    // the OS peak (kilobytes on Linux), where available
    const maxRss = (process as { resourceUsage?: () => { maxRSS: number } }).resourceUsage?.()
      .maxRSS;
    if (maxRss) peak = Math.max(peak, maxRss * 1024);
  } catch {
    // not offered by this runtime
  }
  // an extra run that measures the live heap (after a full GC) at each quarter of the stream
  let liveHeap = -1;
  if (collectGarbage()) {
    let next = count / 4;
    probe = (done) => {
      if (done < next) return;
      next += count / 4;
      collectGarbage();
      liveHeap = Math.max(liveHeap, heapUsed());
    };
    await scenario.run(count);
    probe = null;
  }
  const sorted = [...times].sort((a, b) => a - b);
  const measurement: Measurement = {
    medianMs: sorted[Math.floor(sorted.length / 2)],
    allMs: times,
    peakRss: peak,
    liveHeap,
  };
  console.log(JSON.stringify(measurement));
}

/** Parent: runs every (scenario, count) in a child process and prints a markdown table. */
function parent(): void {
  const counts = (option("counts") ?? "100000,1000000").split(",").map(Number);
  const reps = Number(option("reps") ?? 3);
  const filter = option("scenario");
  const script = fileURLToPath(import.meta.url);
  const command = typeof Deno !== "undefined"
    ? [Deno.execPath(), "run", "-A", "--v8-flags=--expose-gc", script]
    : [process.execPath, script];
  const lines = [
    `### ${RUNTIME}, ${new Date().toISOString().slice(0, 10)}`,
    "",
    `Objects per second: median of ${reps} runs. Peak RSS: of the child process running the ` +
    "scenario (includes the runtime, ~40-60 MiB). Live heap: largest heap in use (JS heap + " +
    "external buffers) after a full GC at each quarter of an extra run: what the scenario keeps.",
    "",
    `| scenario | what | ${
      counts.map((count) => {
        const n = count.toLocaleString("en");
        return `${n}: objects/s | ${n}: peak RSS | ${n}: live heap`;
      }).join(" | ")
    } |`,
    `|---|---|${counts.map(() => "---:|---:|---:").join("|")}|`,
  ];
  for (const [name, scenario] of Object.entries(SCENARIOS)) {
    if (filter && !name.includes(filter)) continue;
    const cells: string[] = [];
    for (const count of counts) {
      const result = spawnSync(command[0], [
        ...command.slice(1),
        `--child=${name}`,
        `--count=${count}`,
        `--reps=${reps}`,
      ], { encoding: "utf8", maxBuffer: 1 << 20 });
      if (result.status !== 0) {
        console.error(result.stderr);
        cells.push("failed", "", "");
        continue;
      }
      const measurement = JSON.parse(result.stdout.trim().split("\n").pop()!) as Measurement;
      const perSecond = count / (measurement.medianMs / 1000);
      const mib = (bytes: number) => bytes < 0 ? "–" : `${(bytes / 2 ** 20).toFixed(1)} MiB`;
      cells.push(
        `${(perSecond / 1e6).toFixed(2)} M`,
        mib(measurement.peakRss),
        mib(measurement.liveHeap),
      );
      console.error(
        `${name} ${count}: ${measurement.allMs.map((ms) => ms.toFixed(0)).join(", ")} ms, ` +
          `peak RSS ${mib(measurement.peakRss)}, live heap ${mib(measurement.liveHeap)}`,
      );
    }
    lines.push(`| ${name} | ${scenario.what} | ${cells.join(" | ")} |`);
  }
  console.log(lines.join("\n"));
}

const childName = option("child");
if (childName !== undefined) {
  await child(childName, Number(option("count")), Number(option("reps") ?? 3));
} else {
  parent();
}
