// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * Paired ratios: this library against msgpackr (its default path) and JSON, timed in alternating
 * slices so that a slow spell of the shared host falls on both sides of a comparison.
 *
 *   deno run -A bench/paired.ts [--payload=<substring>] [--pairs=<n>] [--fresh-inputs]
 *   bun bench/paired.ts [...]
 *
 * `bench.ts` (mitata) gives the tables of times; its cells are the fastest of five passes, but a
 * spell that lasts a whole pass of one codec still moves a ratio by 10-30% on this host. Here each
 * comparison is measured as PAIRS pairs of SLICE_MS slices, ours and the rival back to back (the
 * order alternating from pair to pair), and each pair gives one ratio: rival time / our time.
 * The table shows the median of those ratios and, in brackets, their quartiles; a spell moves a
 * few pairs, not the median. Nothing forces a collection between slices, so each side's garbage
 * may be collected in the other's slice: both sides take turns, so neither is favoured.
 *
 * `--fresh-inputs` compares only unpacking against msgpackr, each call decoding a new copy of the
 * bytes (`slice()`, timed on both sides alike), as a service decodes each message it receives
 * once. The main tables decode the same array again and again, which favours msgpackr: it keeps
 * the `DataView` it makes for an input as a property of that array, so every later call on the
 * same array skips making one (and adding the property, which costs far more on V8).
 */

import { timeSlice } from "./_measure.ts";
import { codecNamed, type Prepared } from "./_codecs.ts";
import { payloads } from "./_payloads.ts";
import { ARGS, option, RUNTIME } from "./_runtime.ts";

const payloadFilter = option("payload");
const PAIRS = Number(option("pairs") ?? 40);
const FRESH_INPUTS = ARGS.includes("--fresh-inputs");
/** Milliseconds of calls one slice times. */
const SLICE_MS = 3;
/** Unmeasured pairs first: the JIT and the allocator settle. */
const WARM_UP_PAIRS = 15;

/** Our codec and its rival: msgpackr always, JSON too unless `--fresh-inputs`. */
const AGAINST_MSGPACKR: [mine: string, rival: string][] = [
  ["ours", "msgpackr"],
  ["ours records", "msgpackr records"],
];
const COMPARISONS: [mine: string, rival: string][] = FRESH_INPUTS
  ? AGAINST_MSGPACKR
  : [...AGAINST_MSGPACKR, ["ours", "JSON"], ["ours records", "JSON"]];
const OPERATIONS = FRESH_INPUTS ? ["unpack"] as const : ["pack", "unpack"] as const;

/** What one operation runs for a prepared codec. */
function runOf(codec: Prepared, operation: "pack" | "unpack"): () => unknown {
  if (operation === "pack") return codec.encode;
  return FRESH_INPUTS ? codec.decodeCopy : codec.decode;
}

/** The quartiles of PAIRS ratios of `rival` time to `mine` time (above 1: ours is faster). */
function pairedRatios(mine: () => unknown, rival: () => unknown): [number, number, number] {
  for (let i = 0; i < WARM_UP_PAIRS; i++) timeSlice(mine, SLICE_MS), timeSlice(rival, SLICE_MS);
  const ratios: number[] = [];
  for (let i = 0; i < PAIRS; i++) {
    let ours: number;
    let theirs: number;
    if (i % 2 === 0) {
      ours = timeSlice(mine, SLICE_MS);
      theirs = timeSlice(rival, SLICE_MS);
    } else {
      theirs = timeSlice(rival, SLICE_MS);
      ours = timeSlice(mine, SLICE_MS);
    }
    ratios.push(theirs / ours);
  }
  ratios.sort((a, b) => a - b);
  const at = (q: number) => ratios[Math.round(q * (ratios.length - 1))];
  return [at(0.25), at(0.5), at(0.75)];
}

const cells = new Map<string, string[]>(); // "mine vs rival" -> one row per payload
for (const payload of payloads()) {
  if (payloadFilter && !payload.name.includes(payloadFilter)) continue;
  const prepared = new Map<string, Prepared>();
  const prepare = (name: string) => {
    if (!prepared.has(name)) prepared.set(name, codecNamed(name).prepare(payload.value));
    return prepared.get(name)!;
  };
  for (const [mine, rival] of COMPARISONS) {
    if (!codecNamed(rival).accepts(payload.json)) continue;
    const row = [payload.name];
    for (const operation of OPERATIONS) {
      const ours = prepare(mine);
      const theirs = prepare(rival);
      const [low, median, high] = pairedRatios(runOf(ours, operation), runOf(theirs, operation));
      row.push(`${median.toFixed(2)}× (${low.toFixed(2)}–${high.toFixed(2)})`);
      console.error(`${payload.name} / ${mine} vs ${rival} ${operation}: ${row.at(-1)}`);
    }
    const key = `${mine} vs ${rival}`;
    cells.set(key, [...cells.get(key) ?? [], `| ${row.join(" | ")} |`]);
  }
}

const lines = [
  `### ${RUNTIME}, paired${FRESH_INPUTS ? ", a fresh copy of the input for each unpack" : ""}`,
  "",
  `Median of ${PAIRS} paired ratios (rival time / our time, above 1× = ours is faster), quartiles in brackets; slices of ${SLICE_MS} ms.`,
  "",
];
for (const [comparison, rows] of cells) {
  lines.push(
    `#### ${comparison}`,
    "",
    ...FRESH_INPUTS
      ? ["| payload | unpack (copy + decode) |", "|---|---:|"]
      : ["| payload | pack | unpack |", "|---|---:|---:|"],
    ...rows,
    "",
  );
}
console.log(lines.join("\n"));
