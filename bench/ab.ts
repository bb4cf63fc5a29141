// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * A/B: two trees of this library in one process, timed in alternating slices as `paired.ts`
 * times ours against msgpackr, for every payload, plain and records, pack and unpack. It measures
 * what a change to the codec is worth: B is a copy of the tree with the change (a worktree of a
 * branch), A the tree without it. An A/A run (B a plain copy of A) shows the noise.
 *
 *   deno run -A bench/ab.ts --b=<dir> [--a=<dir>] [--payload=<substring>] [--pairs=<n>]
 *     [--runs=<n>] [--no-eval] [--fresh-inputs] [--json]
 *   bun bench/ab.ts --b=<dir> [...]
 *
 * `<dir>` holds the tree's `mod.ts`; A defaults to this repository. Each cell is the median of the
 * pairs' ratios A time / B time (above 1×: B is faster), quartiles in brackets.
 *
 * `--fresh-inputs` unpacks a new copy of the input in each call (`slice()`, on both sides alike),
 * as a service decodes each message it receives once; the default decodes the same array again
 * and again.
 *
 * `--no-eval` decodes records with the interpreted reader (`compileRecordReaders: false`, what
 * the no-eval entry uses) instead of the generated one.
 *
 * Within one process a cell can sit 10% or more off for the whole run (the engines' optimizing
 * decisions differ from process to process, even for two copies of the same tree), so
 * `--runs=<n>` (default 5) runs the comparison in n processes, one after another, and reports per
 * cell the median of their medians, with the lowest and highest median in brackets.
 */

import { execFileSync } from "node:child_process";
import process from "node:process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type Library, type Prepared, prepareLibrary } from "./_prepare.ts";
import { pairedSlices, type PairedTimes } from "./_slices.ts";
import { payloads } from "./_payloads.ts";
import { ARGS, option, RUNTIME } from "./_runtime.ts";

const PAIRS = Number(option("pairs") ?? 40);
const SLICE_MS = 3;
const WARM_UP_PAIRS = 15;
const payloadFilter = option("payload");
const RUNS = Number(option("runs") ?? 5);
const NO_EVAL = ARGS.includes("--no-eval");
const FRESH_INPUTS = ARGS.includes("--fresh-inputs");
/** Set in the child processes of a `--runs` comparison: measure once and print JSON. */
const CHILD = ARGS.includes("--child");

/** `mod.ts` of the tree in `dir` (`no_eval.ts` with `--no-eval`, so its pool is installed). */
async function load(dir: string): Promise<Library> {
  const entry = NO_EVAL ? "no_eval.ts" : "mod.ts";
  return await import(pathToFileURL(resolve(dir, entry)).href) as Library;
}

/** One cell: a payload, plain or records, pack or unpack. */
interface AbCell extends PairedTimes {
  payload: string;
  records: boolean;
  operation: "pack" | "unpack";
}

/** Every cell, measured in this process. */
async function measureHere(): Promise<AbCell[]> {
  const dirB = option("b");
  if (dirB === undefined) throw new Error("Usage: bench/ab.ts --b=<dir> [--a=<dir>]");
  const a = await load(option("a") ?? new URL("..", import.meta.url).pathname);
  const b = await load(dirB);
  if (a === b) throw new Error("A and B are the same module: give B a tree of its own");
  const cells: AbCell[] = [];
  for (const payload of payloads()) {
    if (payloadFilter && !payload.name.includes(payloadFilter)) continue;
    for (const records of [false, true]) {
      const sides: [Prepared, Prepared] = [
        prepareLibrary(a, records, payload.value, NO_EVAL),
        prepareLibrary(b, records, payload.value, NO_EVAL),
      ];
      for (const operation of ["pack", "unpack"] as const) {
        const [runA, runB] = sides.map((side) =>
          operation === "pack" ? side.encode : FRESH_INPUTS ? side.decodeCopy : side.decode
        );
        // pairedSlices gives rival time / mine time: B is "mine", so above 1 B is faster
        const times = pairedSlices(runB, runA, PAIRS, SLICE_MS, WARM_UP_PAIRS);
        cells.push({ payload: payload.name, records, operation, ...times });
      }
    }
  }
  return cells;
}

/**
 * Every cell, measured in RUNS child processes of this script: per cell the median of their
 * medians, and the lowest and highest median as the bracket.
 */
function measureInProcesses(): AbCell[] {
  const deno = (globalThis as { Deno?: unknown }).Deno !== undefined;
  const script = new URL(import.meta.url).pathname;
  const args = [...(deno ? ["run", "-A"] : []), script, ...ARGS, "--child"];
  const runs: AbCell[][] = [];
  for (let run = 0; run < RUNS; run++) {
    const output = execFileSync(process.execPath, args, { encoding: "utf8", stdio: "pipe" });
    runs.push(JSON.parse(output).cells);
    console.error(`run ${run + 1} of ${RUNS} done`);
  }
  return runs[0].map((first, index) => {
    const medians = runs.map((cells) => cells[index].median).sort((x, y) => x - y);
    return {
      ...first,
      low: medians[0],
      median: medians[medians.length >> 1],
      high: medians.at(-1)!,
    };
  });
}

const cells = CHILD || RUNS <= 1 ? await measureHere() : measureInProcesses();
for (const cell of cells) {
  const name = `${cell.payload} ${cell.records ? "records " : ""}${cell.operation}`;
  if (!CHILD) console.error(`${name}: ${text(cell)}`);
}

/** A cell's median ratio with its quartiles. */
function text(cell: PairedTimes): string {
  return `${cell.median.toFixed(3)}× (${cell.low.toFixed(2)}–${cell.high.toFixed(2)})`;
}

if (CHILD || ARGS.includes("--json")) {
  console.log(JSON.stringify({ runtime: RUNTIME, pairs: PAIRS, runs: CHILD ? 1 : RUNS, cells }));
} else {
  const lines = [
    `### ${RUNTIME}: A time / B time (above 1× = B is faster)`,
    "",
    RUNS > 1
      ? `Median over ${RUNS} processes of each one's median of ${PAIRS} pairs; lowest and highest in brackets.`
      : `Median of ${PAIRS} pairs; quartiles in brackets.`,
    "",
    "| payload | pack | unpack | records pack | records unpack |",
    "|---|---:|---:|---:|---:|",
  ];
  const rows = new Map<string, string[]>();
  for (const cell of cells) rows.set(cell.payload, [...rows.get(cell.payload) ?? [], text(cell)]);
  for (const [payload, texts] of rows) lines.push(`| ${[payload, ...texts].join(" | ")} |`);
  console.log(lines.join("\n"));
}
