// Copyright 2026 the @x/msgpackr authors. MIT license.
// The tables of paired ratios by payload: `report.ts` writes one per runtime into
// bench/RESULTS.md, and `browser.ts` one per build of the browser bundles.

import type { Operation } from "./_behind.ts";
import { formatTime } from "./_measure.ts";
import type { BrowserRun } from "./browser.ts";
import type { PairedCell } from "./paired.ts";

/** The columns of a table, in order. */
export const OPERATIONS: readonly Operation[] = [
  "pack",
  "unpack",
  "records pack",
  "records unpack",
];
/** The rivals a cell compares us with. */
export type Rival = "msgpackr" | "JSON";
/** The rivals, in the order of a table's columns. */
export const RIVALS: readonly Rival[] = ["msgpackr", "JSON"];

/** The column a cell belongs to, and its rival's kind. */
export function columnOf(cell: PairedCell): [Operation, Rival] {
  const operation = cell.mine === "ours records" ? `records ${cell.operation}` : cell.operation;
  return [operation as Operation, cell.rival === "JSON" ? "JSON" : "msgpackr"];
}

/** Cells by payload, then by operation and rival. */
function byPayload(cells: readonly PairedCell[]): Map<string, Map<string, PairedCell>> {
  const rows = new Map<string, Map<string, PairedCell>>();
  for (const cell of cells) {
    if (!rows.has(cell.payload)) rows.set(cell.payload, new Map());
    rows.get(cell.payload)!.set(columnOf(cell).join(" vs "), cell);
  }
  return rows;
}

/** Whether a ratio is below 1.0× as the page prints it (to two decimals): we are behind. */
export function behind(ratio: number): boolean {
  return Math.round(ratio * 100) < 100;
}

/** "1.23×", bold below 1.0× (we are behind). */
function ratio(value: number): string {
  const text = `${value.toFixed(2)}×`;
  return behind(value) ? `**${text}**` : text;
}

/** A table of cells: a row per payload; per operation our time and the two ratios. */
export function ratiosTable(cells: readonly PairedCell[]): string[] {
  const header = ["payload"];
  for (const operation of OPERATIONS) header.push(operation, "vs msgpackr", "vs JSON");
  const lines = [
    `| ${header.join(" | ")} |`,
    `| --- | ${header.slice(1).map(() => "---:").join(" | ")} |`,
  ];
  for (const [payload, row] of byPayload(cells)) {
    const texts = [payload];
    for (const operation of OPERATIONS) {
      const mine = row.get(`${operation} vs msgpackr`);
      const json = row.get(`${operation} vs JSON`);
      texts.push(
        mine === undefined ? "–" : formatTime(mine.oursNs),
        mine === undefined ? "–" : ratio(mine.median),
        json === undefined ? "–" : ratio(json.median),
      );
    }
    lines.push(`| ${texts.join(" | ")} |`);
  }
  return lines;
}

/**
 * The browser benchmark's section: how it measured, then a table per build. `heading` is the
 * section's heading marks ("##" in bench/RESULTS.md); each build's heading is one level below.
 */
export function browserSection(run: BrowserRun, heading: string): string[] {
  const timer = run.crossOriginIsolated
    ? "the pages are cross-origin isolated, which gives them the finer `performance.now()`"
    : "the pages were **not** cross-origin isolated: `performance.now()` was the coarse one";
  return [
    `${heading} ${run.browser}`,
    "",
    "bench/browser.ts: the browser bundles of `dist/` in headless Chromium, each build on a page " +
    "of its own served from 127.0.0.1, against msgpackr's browser build of the same kind and JSON, " +
    "on the payloads of bench/_payloads.ts, plain and as records. The page times them as " +
    "bench/paired.ts does: " +
    `median of ${run.pairs} paired ratios (the rival's time / ours), slices of ${run.sliceMs} ms, ` +
    `a time is ours per call; ${timer}.`,
    "",
    ...run.builds.flatMap((build) => [
      `${heading}# ${build.name}: \`${build.bundle}\` against msgpackr's \`${build.rival}\`, ${
        build.csp === undefined ? "no CSP" : `\`Content-Security-Policy: ${build.csp}\``
      }`,
      "",
      ...ratiosTable(build.cells),
      "",
    ]),
  ];
}
