// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * Values to a byte stream, against msgpackr 2.1.3's Node `PackrStream`: 100,000 small records
 * (`{ id, name, email, active, score }`) packed as sequential records (msgpackr's `PackrStream`
 * always packs with `sequential: true`; ours by default) and read to the end, in each form this
 * library offers, from two sources: an array held in memory, and an async generator (a database
 * cursor, a queue).
 *
 *   npm run bench:streams            (both runtimes)
 *   npm run bench:streams:deno       (deno run -A bench/stream_encode.ts)
 *   npm run bench:streams:bun        (bun bench/stream_encode.ts)
 *   options: --count=<n> records (default 100000), --rounds=<n> (default 15)
 *
 * msgpackr's `PackrStream` is a Node Transform stream, run here through the runtime's node:stream
 * compatibility as a Node program uses it: each value written (`write`, waiting for `drain` when it
 * says so), the output collected from its `data` events. Ours:
 *
 * - `pipeThrough`: `ReadableStream.from(source).pipeThrough(new PackrStream())`, read to the end.
 * - `PackrStream.from`: `PackrStream.from(source)`, read to the end.
 * - `encodeIter`: the chunks of `encodeIter(source)` (synchronous for the array).
 * - `respond`: the streamed body of `respond()` (http.ts) to a client asking for MessagePack,
 *   with `packrOptions: { useRecords: true }` (records, as the others; its default is plain maps),
 *   read to the end.
 * - `Web Streams floor`: `ReadableStream.from(source).pipeThrough(new TransformStream())`, each
 *   value read at the end: what a `pipeThrough` costs per value without packing anything, the
 *   floor of the `pipeThrough` form.
 *
 * Every form but the floor gives the same bytes as msgpackr (checked before timing). The forms take turns round
 * after round, in one process (after two unmeasured rounds), so a slow spell of the shared machine
 * falls on all of them; a ratio is msgpackr's time over ours in the same round (above 1× we are
 * faster), and the table gives the median over the rounds.
 */

import * as msgpackr from "msgpackr";
import { encodeIter, PackrStream } from "../mod.ts";
import { respond } from "../http.ts";
import { concatBytes } from "../_core/bytes.ts";
import { option, RUNTIME } from "./_runtime.ts";

const COUNT = Number(option("count") ?? 100_000);
const ROUNDS = Number(option("rounds") ?? 15);
const WARM_UP_ROUNDS = 2;

interface Row {
  id: number;
  name: string;
  email: string;
  active: boolean;
  score: number;
}

const ROWS: readonly Row[] = Array.from({ length: COUNT }, (_, id) => ({
  id,
  name: `name ${id}`,
  email: `user${id}@example.com`,
  active: id % 2 === 0,
  score: id * 0.25,
}));

/** The two sources, made afresh for each run. */
const SOURCES = {
  array: {
    what: "an array of the records",
    make: (): Iterable<Row> => ROWS,
  },
  "async generator": {
    what: "an async generator yielding the records",
    make: async function* (): AsyncGenerator<Row> {
      for (const row of ROWS) yield row;
    },
  },
} as const;
type SourceName = keyof typeof SOURCES;
type Source = Iterable<Row> | AsyncIterable<Row>;

/** A form consumes a source and hands each output chunk to `sink`. */
type Form = (source: Source, sink: (chunk: Uint8Array) => void) => Promise<void>;

const MSGPACKR = "msgpackr PackrStream";

const FLOOR = "Web Streams floor";
const ONE_BYTE = new Uint8Array(1);

const FORMS: Record<string, { what: string; run: Form }> = {
  [MSGPACKR]: { what: "new msgpackr.PackrStream(): write, on data", run: msgpackrStream },
  "pipeThrough": {
    what: "ReadableStream.from(source).pipeThrough(new PackrStream())",
    run: (source, sink) =>
      readAll(ReadableStream.from(source).pipeThrough(new PackrStream()), sink),
  },
  "PackrStream.from": {
    what: "PackrStream.from(source)",
    run: (source, sink) => readAll(PackrStream.from(source), sink),
  },
  "encodeIter": {
    what: "encodeIter(source)",
    run: async (source, sink) => {
      if (Symbol.iterator in source) {
        for (const chunk of encodeIter(source)) sink(chunk);
      } else {
        for await (const chunk of encodeIter(source)) sink(chunk);
      }
    },
  },
  "respond": {
    what: "respond(request, source, { packrOptions: { useRecords: true } }).body",
    run: (source, sink) => {
      const iterable = Symbol.iterator in source ? source[Symbol.iterator]() : source;
      const response = respond(REQUEST, iterable, { packrOptions: { useRecords: true } });
      return readAll(response.body!, sink);
    },
  },
  [FLOOR]: {
    what: "ReadableStream.from(source).pipeThrough(new TransformStream()), no packing",
    run: (source, sink) =>
      readAll(ReadableStream.from(source).pipeThrough(new TransformStream()), () => sink(ONE_BYTE)),
  },
};

const REQUEST = new Request("http://localhost/", { headers: { accept: "application/msgpack" } });

async function readAll(
  stream: ReadableStream<Uint8Array>,
  sink: (chunk: Uint8Array) => void,
): Promise<void> {
  const reader = stream.getReader();
  for (;;) {
    const step = await reader.read();
    if (step.done) return;
    sink(step.value);
  }
}

/** msgpackr's Node PackrStream as a Node program drives it. */
function msgpackrStream(source: Source, sink: (chunk: Uint8Array) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const stream = new msgpackr.PackrStream();
    stream.on("data", sink);
    stream.on("end", resolve);
    stream.on("error", reject);
    const drained = () => new Promise((done) => stream.once("drain", done));
    (async () => {
      if (Symbol.iterator in source) {
        const iterator = source[Symbol.iterator]();
        for (;;) {
          let step = iterator.next();
          while (!step.done && stream.write(step.value)) step = iterator.next();
          if (step.done) break;
          await drained();
        }
      } else {
        for await (const value of source) if (!stream.write(value)) await drained();
      }
      stream.end();
    })().catch(reject);
  });
}

/** Checks that every form writes msgpackr's bytes for the source. */
async function checkBytes(sourceName: SourceName): Promise<void> {
  const outputs: Record<string, Uint8Array> = {};
  for (const [name, form] of Object.entries(FORMS)) {
    if (name === FLOOR) continue;
    const chunks: Uint8Array[] = [];
    await form.run(SOURCES[sourceName].make(), (chunk) => chunks.push(chunk));
    outputs[name] = concatBytes(chunks);
  }
  const expected = outputs[MSGPACKR];
  for (const [name, bytes] of Object.entries(outputs)) {
    const same = bytes.length === expected.length && bytes.every((byte, i) => byte === expected[i]);
    if (!same) throw new Error(`${name} (${sourceName}) does not write msgpackr's bytes`);
  }
}

async function time(form: Form, source: Source): Promise<number> {
  let bytes = 0;
  const start = performance.now();
  await form(source, (chunk) => bytes += chunk.length);
  const ms = performance.now() - start;
  if (bytes < COUNT) throw new Error("no output");
  return ms;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

// a tree without `PackrStream.from` (an older commit, for a before-and-after) skips that form
if (typeof (PackrStream as { from?: unknown }).from !== "function") {
  delete FORMS["PackrStream.from"];
}
const names = Object.keys(FORMS);
const lines = [
  `### ${RUNTIME}, ${COUNT.toLocaleString("en")} records`,
  "",
  `Median of ${ROUNDS} rounds. Ratio: msgpackr's time / ours in the same round (above 1× we are ` +
  "faster).",
  "",
  "| source | form | what | ms | M records/s | vs msgpackr |",
  "|---|---|---|---:|---:|---:|",
];
for (const sourceName of Object.keys(SOURCES) as SourceName[]) {
  await checkBytes(sourceName);
  const times = new Map<string, number[]>(names.map((name) => [name, []]));
  const ratios = new Map<string, number[]>(names.map((name) => [name, []]));
  for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++) {
    // a rotating order, so that no form always runs right after the same other
    const order = names.map((_, i) => names[(i + round) % names.length]);
    const ms: Record<string, number> = {};
    for (const name of order) ms[name] = await time(FORMS[name].run, SOURCES[sourceName].make());
    if (round < WARM_UP_ROUNDS) continue;
    for (const name of names) {
      times.get(name)!.push(ms[name]);
      ratios.get(name)!.push(ms[MSGPACKR] / ms[name]);
    }
  }
  for (const name of names) {
    const ms = median(times.get(name)!);
    const ratio = name === MSGPACKR ? "" : `${median(ratios.get(name)!).toFixed(2)}×`;
    lines.push(
      `| ${sourceName} | ${name} | \`${FORMS[name].what}\` | ${ms.toFixed(1)} | ${
        (COUNT / ms / 1000).toFixed(2)
      } | ${ratio} |`,
    );
  }
}
console.log(lines.join("\n"));
