// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * A/B: two trees of this library in one process, timed in alternating slices as `paired.ts`
 * times ours against msgpackr, for every payload, plain and records, pack and unpack. It measures
 * what a change to the codec is worth: B is a copy of the tree with the change (a worktree of a
 * branch), A the tree without it. An A/A run (B a plain copy of A) shows the noise.
 *
 *   deno run -A bench/ab.ts --b=<dir> [--a=<dir>] [--payload=<substring>] [--pairs=<n>] [--json]
 *   bun bench/ab.ts --b=<dir> [...]
 *
 * `<dir>` holds the tree's `mod.ts`; A defaults to this repository. Each cell is the median of the
 * pairs' ratios A time / B time (above 1×: B is faster), quartiles in brackets.
 */

import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type Library, type Prepared, prepareLibrary } from "./_codecs.ts";
import { pairedSlices, type PairedTimes } from "./_measure.ts";
import { payloads } from "./_payloads.ts";
import { ARGS, option, RUNTIME } from "./_runtime.ts";

const PAIRS = Number(option("pairs") ?? 40);
const SLICE_MS = 3;
const WARM_UP_PAIRS = 15;
const payloadFilter = option("payload");

/** `mod.ts` of the tree in `dir`. */
async function load(dir: string): Promise<Library> {
  return await import(pathToFileURL(resolve(dir, "mod.ts")).href) as Library;
}

const dirB = option("b");
if (dirB === undefined) throw new Error("Usage: bench/ab.ts --b=<dir> [--a=<dir>]");
const a = await load(option("a") ?? new URL("..", import.meta.url).pathname);
const b = await load(dirB);
if (a === b) throw new Error("A and B are the same module: give B a tree of its own");

/** One cell: a payload, plain or records, pack or unpack. */
interface AbCell extends PairedTimes {
  payload: string;
  records: boolean;
  operation: "pack" | "unpack";
}

const cells: AbCell[] = [];
for (const payload of payloads()) {
  if (payloadFilter && !payload.name.includes(payloadFilter)) continue;
  for (const records of [false, true]) {
    const sides: [Prepared, Prepared] = [
      prepareLibrary(a, records, payload.value),
      prepareLibrary(b, records, payload.value),
    ];
    for (const operation of ["pack", "unpack"] as const) {
      const [runA, runB] = sides.map((side) => operation === "pack" ? side.encode : side.decode);
      // pairedSlices gives rival time / mine time: B is "mine", so above 1 B is faster
      const times = pairedSlices(runB, runA, PAIRS, SLICE_MS, WARM_UP_PAIRS);
      const cell = { payload: payload.name, records, operation, ...times };
      cells.push(cell);
      console.error(`${payload.name} ${records ? "records " : ""}${operation}: ${text(cell)}`);
    }
  }
}

/** A cell's median ratio with its quartiles. */
function text(cell: PairedTimes): string {
  return `${cell.median.toFixed(3)}× (${cell.low.toFixed(2)}–${cell.high.toFixed(2)})`;
}

if (ARGS.includes("--json")) {
  console.log(JSON.stringify({ runtime: RUNTIME, pairs: PAIRS, cells }));
} else {
  const lines = [
    `### ${RUNTIME}: A time / B time (above 1× = B is faster), median of ${PAIRS} pairs`,
    "",
    "| payload | pack | unpack | records pack | records unpack |",
    "|---|---:|---:|---:|---:|",
  ];
  const rows = new Map<string, string[]>();
  for (const cell of cells) rows.set(cell.payload, [...rows.get(cell.payload) ?? [], text(cell)]);
  for (const [payload, texts] of rows) lines.push(`| ${[payload, ...texts].join(" | ")} |`);
  console.log(lines.join("\n"));
}
