// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * Writes bench/RESULTS.md from one run at one commit: `paired.ts --json` on Deno and then on Bun,
 * one table per runtime (our time per operation, and the paired ratios against msgpackr and JSON),
 * the ranges of those ratios, the browser bundles in Chromium (`browser.ts --json`, which builds
 * them first), and every Deno and Bun cell behind with its reason from `_behind.ts`.
 *
 *   deno run -A bench/report.ts [--pairs=<n>] [--payload=<substring>] [--out=<file>]
 *   (npm run bench:report)
 *
 * It runs on Deno and starts each runtime as a process of its own (`node_modules/.bin/deno` and
 * `node_modules/.bin/bun`, or the ones on PATH), so the measuring is `paired.ts`'s, the same as
 * `npm run bench:paired:deno` / `:bun` and `npm run bench:browser`; this script only describes the
 * machine and formats. The file it writes is formatted with `deno fmt`. `--payload` and `--pairs`
 * are passed to `paired.ts` and `browser.ts` (the page says so when they are given); `--out`
 * writes elsewhere than bench/RESULTS.md.
 */

import { type Operation, reasonFor, REASONS } from "./_behind.ts";
import {
  behind,
  browserSection,
  columnOf,
  OPERATIONS,
  ratiosTable,
  type Rival,
  RIVALS,
} from "./_results_table.ts";
import { option } from "./_runtime.ts";
import type { BrowserRun } from "./browser.ts";
import { type PairedCell, type PairedRun, SERVER_RIVALS } from "./paired.ts";
import { formatTime } from "./_measure.ts";

/** The repository's root directory (this file is in bench/). */
const ROOT = decodeURIComponent(new URL("..", import.meta.url).pathname);
const OUT = option("out");
/** The page's absolute path. */
const OUTPUT = OUT === undefined
  ? `${ROOT}bench/RESULTS.md`
  : OUT.startsWith("/")
  ? OUT
  : `${Deno.cwd()}/${OUT}`;
const PASSED = ["pairs", "payload"].flatMap((name) => {
  const value = option(name);
  return value === undefined ? [] : [`--${name}=${value}`];
});
/** The page is one screen of tables and a list: past this it is a log again. */
const MAX_LINES = 300;

/** The standard output of `command args`, run in the repository; throws when it fails. */
async function run(
  command: string,
  args: string[],
  stderr: "inherit" | "null" = "null",
): Promise<string> {
  const output = await new Deno.Command(command, { args, cwd: ROOT, stdout: "piped", stderr })
    .output();
  if (!output.success) throw new Error(`${command} ${args.join(" ")} exited with ${output.code}`);
  return new TextDecoder().decode(output.stdout).trim();
}

/** `node_modules/.bin/<name>` when the install has it, else `name` from PATH. */
function binary(name: string): string {
  const local = `${ROOT}node_modules/.bin/${name}`;
  try {
    Deno.statSync(local);
    return local;
  } catch {
    return name;
  }
}

/** A text file's contents, or "" when it cannot be read. */
function readOrEmpty(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return "";
  }
}

/** "Intel(R) Xeon(R) ..., 2 cores, 7.8 GiB; Debian GNU/Linux 12 (bookworm), Linux 6.1.0 x86_64". */
function machine(): string {
  const cpuinfo = readOrEmpty("/proc/cpuinfo");
  const model = cpuinfo.match(/^model name\s*:\s*(.+)$/m)?.[1].trim() ?? "CPU model unknown";
  const cores = cpuinfo.match(/^processor\s*:/gm)?.length ?? navigator.hardwareConcurrency;
  const memory = `${(Deno.systemMemoryInfo().total / 2 ** 30).toFixed(1)} GiB`;
  const distribution = readOrEmpty("/etc/os-release").match(/^PRETTY_NAME="?([^"\n]*)"?$/m)?.[1];
  const kernel = `${Deno.build.os === "linux" ? "Linux" : Deno.build.os} ${Deno.osRelease()}`;
  const os = [distribution, `${kernel} ${Deno.build.arch}`].filter(Boolean).join(", ");
  return `${model}, ${cores} cores, ${memory} of memory; ${os}`;
}

/** The `version` of the first of these folders under node_modules that holds a package. */
function packageVersion(...paths: string[]): string {
  for (const path of paths) {
    const text = readOrEmpty(`${ROOT}node_modules/${path}/package.json`);
    if (text !== "") return JSON.parse(text).version;
  }
  return "(not installed)";
}

/** The runtime's name alone: "Deno" or "Bun". */
function shortName(run: PairedRun): string {
  return run.runtime.split(" ")[0];
}

/** The lowest and highest median ratio of one column against one rival, "0.74–1.60×". */
function range(run: PairedRun, operation: Operation, rival: Rival): string {
  const medians = run.cells.filter((cell) => columnOf(cell).join() === [operation, rival].join())
    .map((cell) => cell.median);
  if (medians.length === 0) return "–";
  return `${Math.min(...medians).toFixed(2)}–${Math.max(...medians).toFixed(2)}×`;
}

/** The table of ranges: one row per runtime, each column against msgpackr and JSON. */
function rangesTable(runs: readonly PairedRun[]): string[] {
  const lines = [
    `| runtime | ${OPERATIONS.join(" | ")} |`,
    `| --- | ${OPERATIONS.map(() => "---").join(" | ")} |`,
  ];
  for (const run of runs) {
    const cells = OPERATIONS.map((operation) =>
      RIVALS.map((rival) => `${range(run, operation, rival)} ${rival}`).join(", ")
    );
    lines.push(`| ${shortName(run)} | ${cells.join(" | ")} |`);
  }
  return lines;
}

/** Packs into a buffer given to `useBuffer`: only the list of cells behind shows them. */
function useBufferCells(run: PairedRun): PairedCell[] {
  return run.cells.filter((cell) => cell.mine.endsWith(" useBuffer"));
}

/** Whether a cell is one of the comparisons a server makes (its table: `serverTable`). */
function serverCell(cell: PairedCell): boolean {
  return (SERVER_RIVALS as readonly string[]).includes(cell.rival);
}

/** The cells of the tables: all but {@linkcode useBufferCells} and the server's comparisons. */
function tableCells(run: PairedRun): PairedRun {
  return {
    ...run,
    cells: run.cells.filter((cell) => !cell.mine.endsWith(" useBuffer") && !serverCell(cell)),
  };
}

/**
 * The comparisons a server makes, one row per payload: `pack` against `JSON.stringify` alone,
 * and unpacking a body against `Response.json()` and `Request.json()` (bench/paired.ts).
 */
function serverTable(run: PairedRun): string[] {
  const header = ["payload", ...SERVER_RIVALS.flatMap((rival) => ["ours", `vs ${rival}`])];
  const lines = [
    `| ${header.join(" | ")} |`,
    `| --- | ${header.slice(1).map(() => "---:").join(" | ")} |`,
  ];
  const payloads = [...new Set(run.cells.filter(serverCell).map((cell) => cell.payload))];
  for (const payload of payloads) {
    const texts = [payload];
    for (const rival of SERVER_RIVALS) {
      const cell = run.cells.find((each) => each.payload === payload && each.rival === rival);
      const ratio = cell === undefined ? "–" : `${cell.median.toFixed(2)}×`;
      texts.push(
        cell === undefined ? "–" : formatTime(cell.oursNs),
        cell !== undefined && behind(cell.median) ? `**${ratio}**` : ratio,
      );
    }
    lines.push(`| ${texts.join(" | ")} |`);
  }
  return lines;
}

/**
 * The cells below 1.0×: a bullet per runtime and rival, under it one per reason with its cells by
 * operation, then the reason (or "no measured cause yet").
 */
function behindList(runs: readonly PairedRun[]): string[] {
  const lines: string[] = [];
  for (const run of runs) {
    for (const rival of RIVALS) {
      // reason -> operation -> cell texts, in the order met
      const groups = new Map<string, Map<Operation, string[]>>();
      for (const cell of tableCells(run).cells) {
        const [operation, cellRival] = columnOf(cell);
        if (cellRival !== rival || !behind(cell.median)) continue;
        const reason = reasonFor(run.runtime, operation, rival, cell.payload) ??
          "no measured cause yet.";
        if (!groups.has(reason)) groups.set(reason, new Map());
        const group = groups.get(reason)!;
        const quartiles = `${cell.low.toFixed(2)}–${cell.high.toFixed(2)}`;
        // a pack behind msgpackr, and the same pack into a buffer given to `useBuffer`
        const viewed = rival === "msgpackr" && cell.operation === "pack"
          ? useBufferCells(run).find((other) =>
            other.payload === cell.payload && other.mine === `${cell.mine} useBuffer`
          )
          : undefined;
        const text = `${cell.payload} ${cell.median.toFixed(2)}× (${quartiles})` +
          (viewed === undefined ? "" : `, with \`useBuffer\` ${viewed.median.toFixed(2)}×`);
        group.set(operation, [...group.get(operation) ?? [], text]);
      }
      const heading = `- **${shortName(run)}, against ${rival}**`;
      if (groups.size === 0) lines.push(`${heading}: no cell behind.`);
      else lines.push(`${heading}:`);
      // the reasons in the table's order (most specific first), the unknown last; the operations
      // in the table's column order
      const rank = (reason: string) => {
        const index = REASONS.findIndex((known) => known.reason === reason);
        return index < 0 ? REASONS.length : index;
      };
      for (const [reason, group] of [...groups].sort(([a], [b]) => rank(a) - rank(b))) {
        const cells = OPERATIONS.filter((operation) => group.has(operation))
          .map((operation) => `${operation}: ${group.get(operation)!.join(", ")}`);
        lines.push(`  - ${cells.join("; ")}. Why: ${reason}`);
      }
    }
  }
  return lines;
}

/** Where msgpackr's addon loaded: "loaded on Deno and on Bun", "**not loaded** on Bun", ... */
function nativeStatus(runs: readonly PairedRun[]): string {
  const parts = [true, false].flatMap((loaded) => {
    const names = runs.filter((run) => run.msgpackrNative === loaded).map(shortName);
    if (names.length === 0) return [];
    return [`${loaded ? "loaded" : "**not loaded**"} on ${names.join(" and on ")}`];
  });
  return parts.join(", and ");
}

/** Runs `paired.ts --json` under one runtime; its progress goes to this process's stderr. */
async function measure(command: string, args: string[]): Promise<PairedRun> {
  console.error(`${command} ${args.join(" ")}`);
  return JSON.parse(
    await run(command, [...args, "bench/paired.ts", "--json", ...PASSED], "inherit"),
  );
}

const commit = await run("git", ["rev-parse", "--short", "HEAD"]);
// uncommitted changes but the page itself (a page left from an earlier run)
const outputInRepository = OUTPUT.startsWith(ROOT)
  ? [`:(exclude)${OUTPUT.slice(ROOT.length)}`]
  : [];
const changes = (await run("git", ["status", "--porcelain", "--", ".", ...outputInRepository]))
  .split("\n").filter((line) => line !== "");
const runs = [
  await measure(binary("deno"), ["run", "-A"]),
  await measure(binary("bun"), []),
];
console.error("deno run -A bench/browser.ts");
const browserRun = JSON.parse(
  await run(binary("deno"), ["run", "-A", "bench/browser.ts", "--json", ...PASSED], "inherit"),
) as BrowserRun;
const first = runs[0];

const page = [
  "# Benchmark results",
  "",
  `Written by \`npm run bench:report\` (bench/report.ts) on ${
    new Date().toISOString().slice(0, 10)
  } from one run at commit \`${commit}\`${
    changes.length === 0 ? "" : `, with uncommitted changes (${changes.length} files)`
  }. The history stays in git.`,
  "",
  `- **Machine**: ${machine()}.`,
  `- **Runtimes**: ${runs.map((run) => run.runtime).join("; ")}.`,
  `- **msgpackr** ${packageVersion("msgpackr")}, its default path. Its native addon ` +
  `msgpackr-extract ${
    packageVersion("msgpackr/node_modules/msgpackr-extract", "msgpackr-extract")
  }, which makes ` +
  `the strings of its unpacking (its packing is JavaScript), was ${nativeStatus(runs)} ` +
  "(msgpackr's own `isNativeAccelerationEnabled`).",
  "- **JSON**: `TextEncoder.encode(JSON.stringify(value))` and " +
  "`JSON.parse(TextDecoder.decode(bytes))`, bytes to bytes, on payloads JSON can represent.",
  "- **Records**: ours `new Packr({ structures })` / `new Unpackr({ structures })` against " +
  "msgpackr's, the shapes learnt before timing; the same value through JSON.",
  `- **Method** (bench/paired.ts): ours and the rival are timed in ${first.pairs} pairs of ` +
  `${first.sliceMs} ms slices of calls, back to back, the order alternating from pair to pair, so ` +
  "a slow spell of the host falls on both. A ratio is the rival's time / ours (above 1.0× we are " +
  "faster); a cell is the median ratio of its pairs, a time our median time per call." +
  (PASSED.length === 0 ? "" : ` This run was given \`${PASSED.join(" ")}\`.`),
  "",
  "How to re-run: `npm ci && npm run bench:report` (both runtimes and Chromium, a few minutes, " +
  "on a quiet machine); `npm run bench:paired:deno` or `npm run bench:paired:bun` prints one " +
  "runtime's ratios with their quartiles, `npm run bench:browser` the Chromium tables.",
  "",
  "## Ranges",
  "",
  "Lowest and highest ratio of each column over the payloads; bold cells below are behind.",
  "",
  ...rangesTable(runs.map(tableCells)),
  "",
  ...runs.flatMap((run) => [
    `## ${run.runtime}`,
    "",
    ...ratiosTable(tableCells(run).cells),
    "",
  ]),
  "## What a server compares",
  "",
  "A server sends JSON as a string (the runtime writes its UTF-8: no `TextEncoder`) and reads it " +
  "with `Request.json()` or `Response.json()`. Here `pack` is timed against `JSON.stringify` " +
  "alone, and `unpack(new Uint8Array(await body.arrayBuffer()))` against `body.json()`, the " +
  "Response or Request made from the bytes in each call on both sides; a time is ours per call, " +
  "a ratio JSON's time / ours (bench/paired.ts, the same pairs).",
  "",
  ...runs.flatMap((run) => [`### ${run.runtime}`, "", ...serverTable(run), ""]),
  ...browserSection(browserRun, "##"),
  "## Where we are behind, and why",
  "",
  "Every Deno and Bun cell below 1.0×, with the quartiles of its pair ratios in brackets (an upper quartile " +
  "above 1.0× is within this run's noise), and its measured cause (bench/_behind.ts). A pack " +
  "behind msgpackr has beside it the same pack into a buffer given to `useBuffer` (its results " +
  "are views of that buffer, as msgpackr's are of its own).",
  "",
  ...behindList(runs),
  "",
].join("\n");

await Deno.writeTextFile(OUTPUT, page);
await run(binary("deno"), ["fmt", "--quiet", "--config", `${ROOT}deno.json`, OUTPUT]);
const lines = (await Deno.readTextFile(OUTPUT)).split("\n").length - 1;
console.error(`${OUTPUT}: ${lines} lines`);
if (lines > MAX_LINES) console.error(`More than ${MAX_LINES} lines: shorten the page.`);
