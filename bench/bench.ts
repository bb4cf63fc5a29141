// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * Pack and unpack benchmark: this library against msgpackr 2.1.3 (default path with its native
 * addon, and its pure-JS browser build), @msgpack/msgpack and JSON, bytes to bytes, measured
 * with mitata in one run. Prints markdown tables of median times and ratios (each cell the
 * fastest of several interleaved passes, see _measure.ts), then the binary payload's MB/s against a
 * plain `Uint8Array.set` copy (binary_throughput.ts).
 *
 *   deno run -A bench/bench.ts [--payload=<substring>] [--codec=<substring>] [--quick]
 *   bun bench/bench.ts [...]
 *
 * Ratios are "how many times faster than the rival" (rival time / our time; above 1 = we win).
 */

import { type Codec, codecs } from "./_codecs.ts";
import { fastestMedians, formatTime } from "./_measure.ts";
import { payloads } from "./_payloads.ts";
import { ARGS, option, RUNTIME } from "./_runtime.ts";
import { binaryThroughput } from "./binary_throughput.ts";

const payloadFilter = option("payload");
const codecFilter = option("codec");
const quick = ARGS.includes("--quick");

interface Cell {
  pack?: number;
  unpack?: number;
  size?: number;
}

// Each payload's cells are timed together, in ROUNDS interleaved passes (see _measure.ts); payloads
// run one after another, so one payload's buffers (1 MiB for the binary blobs) do not change the
// allocator state another payload is measured in.
const ROUNDS = quick ? 2 : 5;
const BUDGET = quick ? 30e6 : 100e6;

interface Job {
  cell: Cell;
  operation: "pack" | "unpack";
  run: () => unknown;
}

const selected = codecs.filter((codec) => !codecFilter || codec.name.includes(codecFilter));
const results = new Map<string, Map<string, Cell>>();

for (const payload of payloads()) {
  if (payloadFilter && !payload.name.includes(payloadFilter)) continue;
  const row = new Map<string, Cell>();
  results.set(payload.name, row);
  const jobs: Job[] = [];
  for (const codec of selected) {
    if (!codec.accepts(payload.json)) continue;
    const prepared = codec.prepare(payload.value);
    const cell: Cell = { size: prepared.bytes.length };
    row.set(codec.name, cell);
    jobs.push({ cell, operation: "pack", run: () => prepared.encode() });
    jobs.push({ cell, operation: "unpack", run: () => prepared.decode() });
  }
  const times = await fastestMedians(jobs.map((job) => job.run), ROUNDS, BUDGET);
  jobs.forEach((job, i) => job.cell[job.operation] = times[i]);
  for (const [codec, cell] of row) {
    console.error(
      `${payload.name} / ${codec}: pack ${format(cell.pack)}, unpack ${format(cell.unpack)}`,
    );
  }
}

function format(ns: number | undefined): string {
  return ns === undefined ? "–" : formatTime(ns);
}

function ratio(ours: number | undefined, theirs: number | undefined): string {
  if (ours === undefined || theirs === undefined) return "–";
  return `${(theirs / ours).toFixed(2)}×`;
}

/** The rival each of our codecs is compared with. */
const RIVALS: Record<string, string[]> = {
  "ours": ["msgpackr", "msgpackr pure-JS", "@msgpack/msgpack", "JSON"],
  "ours useBuffer": ["msgpackr", "JSON"],
  "ours records": ["msgpackr records", "JSON"],
  "ours records no-eval": ["msgpackr records", "ours records", "JSON"],
};

const lines: string[] = [];
lines.push(`### ${RUNTIME}`, "");
lines.push(
  `Median time per operation (the fastest of ${ROUNDS} interleaved passes); ratio = rival time / our time (above 1× = ours is faster).`,
  "",
);
for (const operation of ["pack", "unpack"] as const) {
  lines.push(`#### ${operation}`, "");
  const columns = selected.map((codec: Codec) => codec.name);
  lines.push(
    `| payload | ${columns.join(" | ")} |`,
    `|---|${columns.map(() => "---:").join("|")}|`,
  );
  for (const [name, row] of results) {
    lines.push(
      `| ${name} | ${columns.map((column) => format(row.get(column)?.[operation])).join(" | ")} |`,
    );
  }
  lines.push("");
  const comparisons = Object.entries(RIVALS).flatMap(([mine, rivals]) =>
    columns.includes(mine)
      ? rivals.filter((rival) => columns.includes(rival)).map((rival) => [mine, rival])
      : []
  );
  if (comparisons.length) {
    lines.push(
      `| payload | ${comparisons.map(([mine, rival]) => `${mine} vs ${rival}`).join(" | ")} |`,
      `|---|${comparisons.map(() => "---:").join("|")}|`,
    );
    for (const [name, row] of results) {
      lines.push(
        `| ${name} | ${
          comparisons.map(([mine, rival]) =>
            ratio(row.get(mine)?.[operation], row.get(rival)?.[operation])
          ).join(" | ")
        } |`,
      );
    }
    lines.push("");
  }
}
lines.push("#### encoded size (bytes)", "");
const columns = selected.map((codec) => codec.name);
lines.push(`| payload | ${columns.join(" | ")} |`, `|---|${columns.map(() => "---:").join("|")}|`);
for (const [name, row] of results) {
  lines.push(`| ${name} | ${columns.map((column) => row.get(column)?.size ?? "–").join(" | ")} |`);
}
// MB/s of the binary payload against a plain `Uint8Array.set` copy, the physical limit
if ([...results.keys()].some((name) => name.startsWith("binary"))) {
  lines.push("", ...await binaryThroughput(quick ? 1 : 3));
}
console.log(lines.join("\n"));
