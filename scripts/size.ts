// Copyright 2026 the @x/msgpackr authors. MIT license.

/**
 * What each entry costs a page: bundles one-line programs from the npm package as a user's bundler
 * does (`bun build --minify --target=browser`), measures the browser bundles of `dist/` as they
 * ship, and prints the minified and gzipped (level 9) bytes of each against its budget.
 *
 *   deno run -A scripts/size.ts [--no-build] [--json] [--modules=<entry>]
 *   (npm run size)
 *
 * - First it runs the build (`scripts/build.ts`: `dist/npm/` and the browser bundles); with
 *   `--no-build` it measures the `dist/` already there.
 * - The package is laid out as npm installs it, and each program is a file of a temporary project
 *   importing the package by its name, so the bundler resolves it through package.json as for a
 *   user (`exports`, `sideEffects`, `browser`): see `scripts/_bundle.ts`.
 * - Each program is one import and a use that keeps it alive (`globalThis.kept = unpack`).
 * - KB is 1,000 bytes, in the budgets and in the table.
 * - Budgets: every entry at its size of today with a small margin, so that a change that makes a
 *   page load more fails CI unless its budget is raised on purpose (and the README's Browser
 *   section says so).
 * - `--json` prints the measurements as one JSON object ({@linkcode Report}) instead of the table.
 * - `--modules=<entry>` measures that entry alone (its name in {@linkcode ENTRIES}) and lists the
 *   modules its bytes come from, largest first (bun's metafile: each module's minified bytes in the
 *   bundle). A shipped bundle is one file already: its list is that of the program bundling the
 *   same entry point whole.
 *
 * It always exits with 1 when an entry measured exceeds its budget, after printing the table and a
 * line per entry over budget on stderr, so CI fails on it; with 2 when it cannot measure (a wrong
 * argument, a failed build or bundle). Needs Deno, `node_modules` (bun, TypeScript) and npm.
 *
 * @module
 */

import { gzipSync } from "node:zlib";
import {
  buildPackage,
  bundleProgram,
  bundlerVersion,
  inInstalledProject,
  type ModuleBytes,
  PACKAGE_NAME,
  ROOT,
} from "./_bundle.ts";

export type { ModuleBytes };

/** Budgets are in KB of 1,000 bytes. */
const KB = 1000;

/** One measured thing: a program bundled from the package, or a file the package ships. */
interface Entry {
  /** The entry's name, for `--modules` and the JSON output. */
  name: string;
  /** A program's import statement (the program also keeps the import alive)… */
  program?: string;
  /** …or a shipped file (path in the package), measured as it is. */
  file?: string;
  /** For a shipped file: the program whose modules `--modules` lists for it. */
  modulesOf?: string;
  /** Budget of the minified bytes, in KB. */
  minKB: number;
  /** Budget of the gzipped bytes, in KB. */
  gzipKB: number;
}

/** What is measured, and its budget. */
const ENTRIES: readonly Entry[] = [
  {
    name: "unpack",
    program: `import { unpack } from "@x/msgpackr/unpack"`,
    minKB: 26.8,
    gzipKB: 10.8,
  },
  {
    name: "pack",
    program: `import { pack } from "@x/msgpackr/pack"`,
    minKB: 19.5,
    gzipKB: 7.8,
  },
  {
    name: "no-eval-stream",
    program: `import { UnpackrStream } from "@x/msgpackr/no-eval"`,
    minKB: 88,
    gzipKB: 18.6,
  },
  {
    name: "msgpackr.js",
    file: "dist/msgpackr.js",
    modulesOf: `import * as all from "@x/msgpackr"`,
    minKB: 80.5,
    gzipKB: 29.8,
  },
  {
    name: "all",
    program: `import * as all from "@x/msgpackr"`,
    minKB: 80.6,
    gzipKB: 29.8,
  },
  {
    name: "decode-iter",
    program: `import { decodeIter } from "@x/msgpackr/stream"`,
    minKB: 46.5,
    gzipKB: 18.0,
  },
  {
    name: "packr-stream",
    program: `import { PackrStream } from "@x/msgpackr/stream"`,
    minKB: 36,
    gzipKB: 13.5,
  },
  {
    name: "no-eval-unpack",
    program: `import { unpack } from "@x/msgpackr/no-eval"`,
    minKB: 71.3,
    gzipKB: 12.3,
  },
  {
    name: "msgpackr-no-eval.js",
    file: "dist/msgpackr-no-eval.js",
    modulesOf: `import * as all from "@x/msgpackr/no-eval"`,
    minKB: 124,
    gzipKB: 30.9,
  },
];

/** One entry measured. */
export interface Measured {
  name: string;
  /** What is measured: a program bundled from the package, or a file it ships. */
  kind: "program" | "file";
  /** The program's import statement, or the file's path in the package. */
  measures: string;
  minBytes: number;
  gzipBytes: number;
  budget: { minBytes: number; gzipBytes: number };
  /** Whether the minified or the gzipped bytes exceed the budget. */
  over: boolean;
  /** With `--modules`: where the bytes come from, largest first. */
  modules?: ModuleBytes[];
}

/** What `--json` prints. */
export interface Report {
  /** Bytes per KB in budgets: 1000. */
  kb: number;
  bundler: string;
  entries: Measured[];
  /** Whether any entry exceeds its budget (the script then exits non-zero). */
  over: boolean;
}

const JSON_OUTPUT = Deno.args.includes("--json");
const BUILD = !Deno.args.includes("--no-build");
const MODULES_OF = Deno.args.find((arg) => arg.startsWith("--modules="))?.slice(
  "--modules=".length,
);

const unknown = Deno.args.filter((arg) =>
  !["--json", "--no-build"].includes(arg) && !arg.startsWith("--modules=")
);
if (unknown.length > 0) fail(`unknown arguments: ${unknown.join(" ")}`);
const selected = MODULES_OF === undefined
  ? ENTRIES
  : ENTRIES.filter((entry) => entry.name === MODULES_OF);
if (selected.length === 0) {
  fail(`no entry named ${MODULES_OF}; entries: ${ENTRIES.map((entry) => entry.name).join(", ")}`);
}

function fail(message: string): never {
  console.error(`size: ${message}`);
  Deno.exit(2);
}

/** Measures one entry in `project`. */
async function measure(project: string, entry: Entry): Promise<Measured> {
  const bundled = entry.program === undefined
    ? undefined
    : await bundleProgram(project, entry.name, entry.program);
  const code = bundled?.code ??
    await Deno.readFile(`${project}/node_modules/${PACKAGE_NAME}/${entry.file}`);
  const minBytes = code.length;
  const gzipBytes = gzipSync(code, { level: 9 }).length;
  const budget = {
    minBytes: entry.minKB * KB,
    gzipBytes: entry.gzipKB * KB,
  };
  const measured: Measured = {
    name: entry.name,
    kind: entry.program === undefined ? "file" : "program",
    measures: entry.program ?? entry.file!,
    minBytes,
    gzipBytes,
    budget,
    over: minBytes > budget.minBytes || gzipBytes > budget.gzipBytes,
  };
  if (MODULES_OF !== undefined) {
    measured.modules = (bundled ?? await bundleProgram(project, entry.name, entry.modulesOf!))
      .modules;
  }
  return measured;
}

/** Bytes as KB to one decimal: "77.9 KB". */
function kb(bytes: number): string {
  return `${(bytes / KB).toFixed(1)} KB`;
}

/** Rows as a markdown table, columns padded to line up in a terminal. */
function table(header: string[], rows: string[][], right: boolean[]): string {
  const widths = header.map((cell, i) =>
    Math.max(cell.length, ...rows.map((row) => row[i].length))
  );
  const line = (row: string[]) =>
    `| ${
      row.map((cell, i) => right[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i])).join(" | ")
    } |`;
  const rule = `|${
    widths.map((width, i) => `${"-".repeat(width + 1)}${right[i] ? ":" : "-"}`).join("|")
  }|`;
  return [line(header), rule, ...rows.map(line)].join("\n");
}

/** The table of entries, then each entry's modules when asked. */
function markdown(measured: readonly Measured[]): string {
  const rows = measured.map((entry) => [
    entry.name,
    entry.kind === "program" ? `\`${entry.measures}\`` : entry.measures,
    kb(entry.minBytes),
    kb(entry.budget.minBytes),
    kb(entry.gzipBytes),
    kb(entry.budget.gzipBytes),
    entry.over ? "OVER" : "ok",
  ]);
  const lines = [
    table(
      ["name", "entry", "min", "budget", "gzip -9", "budget", ""],
      rows,
      [false, false, true, true, true, true, false],
    ),
    "",
    `KB = ${KB} bytes. Programs bundled with \`bun build --minify --target=browser\` from the npm package; files measured as shipped.`,
  ];
  for (const entry of measured) {
    if (entry.modules === undefined) continue;
    const total = entry.modules.reduce((sum, module) => sum + module.bytes, 0);
    const via = ENTRIES.find((candidate) => candidate.name === entry.name)?.modulesOf;
    lines.push(
      "",
      `Modules of ${entry.measures}${via === undefined ? "" : ` (as bundled from \`${via}\`)`}:`,
      "",
      table(
        ["module", "min bytes", "share"],
        [
          ...entry.modules.map((module) => [
            module.module,
            String(module.bytes),
            `${(100 * module.bytes / total).toFixed(1)}%`,
          ]),
          ["total", String(total), "100.0%"],
        ],
        [false, true, true],
      ),
    );
  }
  return lines.join("\n");
}

if (BUILD && !await buildPackage()) fail("the build (scripts/build.ts) failed");
// the npm build, and the shipped files measured
for (const built of ["dist/npm", ...selected.flatMap((entry) => entry.file ?? [])]) {
  try {
    await Deno.stat(`${ROOT}${built}`);
  } catch {
    fail(`${built} is missing: build it (deno run -A scripts/build.ts) or drop --no-build`);
  }
}
const measured = await inInstalledProject(async (project) => {
  const measured: Measured[] = [];
  for (const entry of selected) measured.push(await measure(project, entry));
  return measured;
}).catch((error) => fail(`cannot measure: ${error}`));
const bundler = await bundlerVersion();
const over = measured.filter((entry) => entry.over);
if (JSON_OUTPUT) {
  const report: Report = { kb: KB, bundler, entries: measured, over: over.length > 0 };
  console.log(JSON.stringify(report, null, 2));
} else {
  console.log(markdown(measured));
}
if (over.length > 0) {
  console.error(`\nsize: ${over.length} of ${measured.length} entries exceed their budgets:`);
  for (const entry of over) {
    const parts = [];
    if (entry.minBytes > entry.budget.minBytes) {
      parts.push(`min ${kb(entry.minBytes)} > ${kb(entry.budget.minBytes)}`);
    }
    if (entry.gzipBytes > entry.budget.gzipBytes) {
      parts.push(`gzip ${kb(entry.gzipBytes)} > ${kb(entry.budget.gzipBytes)}`);
    }
    console.error(`  ${entry.name} (${entry.measures}): ${parts.join(", ")}`);
  }
  Deno.exit(1);
}
