// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * Paired ratios: this library against msgpackr (its default path) and JSON, timed in alternating
 * slices so that a slow spell of the shared host falls on both sides of a comparison.
 *
 *   deno run -A bench/paired.ts [--payload=<substring>] [--pairs=<n>] [--fresh-inputs] [--json]
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
 *
 * Unless `--fresh-inputs`, each payload JSON can represent is also compared as a server sees it
 * (the SERVER_RIVALS): `pack` against `JSON.stringify` alone (a string body needs no
 * `TextEncoder`: the runtime writes its UTF-8), and unpacking a body against the runtime's own
 * `Response.json()` and `Request.json()`, a Response or a Request made from the bytes in each
 * call on both sides (ours: `unpack(new Uint8Array(await body.arrayBuffer()))`).
 *
 * `--json` prints one {@linkcode PairedRun} as JSON instead of the markdown tables: `report.ts`
 * runs this script on each runtime that way and writes bench/RESULTS.md from what it prints.
 */

import { pairedSlices, pairedSlicesAsync, type PairedTimes } from "./_slices.ts";
import { codecNamed, msgpackrNative } from "./_codecs.ts";
import type { Prepared } from "./_prepare.ts";
import { payloads } from "./_payloads.ts";
import { ARGS, option, RUNTIME } from "./_runtime.ts";
import { unpack } from "../mod.ts";

/**
 * The rivals of the comparisons a server makes (see above): they are not codecs of
 * `_codecs.ts`, and the tables against msgpackr and JSON leave them out.
 */
export const SERVER_RIVALS = ["JSON.stringify", "Response.json()", "Request.json()"] as const;

/** One comparison of one payload and operation: ours against a rival. */
export interface PairedCell extends PairedTimes {
  payload: string;
  /** Our codec: "ours" or "ours records", or either with " useBuffer" (pack only). */
  mine: string;
  /** The rival codec: "msgpackr", "msgpackr records" or "JSON", or one of SERVER_RIVALS. */
  rival: string;
  operation: "pack" | "unpack";
}

/** What `paired.ts --json` prints: the runtime, how it measured, and every cell. */
export interface PairedRun {
  /** As `_runtime.ts` names it, e.g. "Deno 2.9.5 (V8 15.0.245.2-rusty)". */
  runtime: string;
  /** Whether msgpackr loaded its native addon (msgpackr-extract) in this runtime. */
  msgpackrNative: boolean;
  pairs: number;
  sliceMs: number;
  freshInputs: boolean;
  cells: PairedCell[];
}

const payloadFilter = option("payload");
const PAIRS = Number(option("pairs") ?? 40);
const FRESH_INPUTS = ARGS.includes("--fresh-inputs");
const JSON_OUTPUT = ARGS.includes("--json");
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
/**
 * Packing into a buffer given to `useBuffer` (views of it, as msgpackr returns) against msgpackr:
 * shown beside the `pack` cells, whose results each get an exact-size buffer of their own.
 */
const USE_BUFFER: [mine: string, rival: string][] = FRESH_INPUTS ? [] : [
  ["ours useBuffer", "msgpackr"],
  ["ours records useBuffer", "msgpackr records"],
];

/** What one operation runs for a prepared codec. */
function runOf(codec: Prepared, operation: "pack" | "unpack"): () => unknown {
  if (operation === "pack") return codec.encode;
  return FRESH_INPUTS ? codec.decodeCopy : codec.decode;
}

const cells: PairedCell[] = [];
for (const payload of payloads()) {
  if (payloadFilter && !payload.name.includes(payloadFilter)) continue;
  const prepared = new Map<string, Prepared>();
  const prepare = (name: string) => {
    if (!prepared.has(name)) prepared.set(name, codecNamed(name).prepare(payload.value));
    return prepared.get(name)!;
  };
  const jobs = [
    ...COMPARISONS.flatMap(([mine, rival]) => OPERATIONS.map((op) => [mine, rival, op] as const)),
    ...USE_BUFFER.map(([mine, rival]) => [mine, rival, "pack"] as const),
  ];
  for (const [mine, rival, operation] of jobs) {
    if (!codecNamed(rival).accepts(payload.json)) continue;
    const ours = runOf(prepare(mine), operation);
    const theirs = runOf(prepare(rival), operation);
    const cell = {
      payload: payload.name,
      mine,
      rival,
      operation,
      ...pairedSlices(ours, theirs, PAIRS, SLICE_MS, WARM_UP_PAIRS),
    };
    cells.push(cell);
    console.error(`${payload.name} / ${mine} vs ${rival} ${operation}: ${ratioText(cell)}`);
  }
}

if (!FRESH_INPUTS) {
  for (const payload of payloads()) {
    if (!payload.json || (payloadFilter && !payload.name.includes(payloadFilter))) continue;
    const ours = codecNamed("ours").prepare(payload.value);
    const json = codecNamed("JSON").prepare(payload.value);
    const value = payload.value;
    const packed = ours.bytes;
    const text = json.bytes;
    const request = (body: Uint8Array) =>
      new Request("http://localhost/", { method: "POST", body: body.slice() });
    const server: [rival: string, operation: "pack" | "unpack", () => Promise<PairedTimes>][] = [
      [
        "JSON.stringify",
        "pack",
        () =>
          Promise.resolve(
            pairedSlices(ours.encode, () => JSON.stringify(value), PAIRS, SLICE_MS, WARM_UP_PAIRS),
          ),
      ],
      [
        "Response.json()",
        "unpack",
        () =>
          pairedSlicesAsync(
            async () => unpack(new Uint8Array(await new Response(packed.slice()).arrayBuffer())),
            () => new Response(text.slice()).json(),
            PAIRS,
            SLICE_MS,
            WARM_UP_PAIRS,
          ),
      ],
      [
        "Request.json()",
        "unpack",
        () =>
          pairedSlicesAsync(
            async () => unpack(new Uint8Array(await request(packed).arrayBuffer())),
            () => request(text).json(),
            PAIRS,
            SLICE_MS,
            WARM_UP_PAIRS,
          ),
      ],
    ];
    for (const [rival, operation, measure] of server) {
      const cell = { payload: payload.name, mine: "ours", rival, operation, ...await measure() };
      cells.push(cell);
      console.error(`${payload.name} / ours vs ${rival} ${operation}: ${ratioText(cell)}`);
    }
  }
}

/** A cell's median ratio with its quartiles in brackets. */
function ratioText(cell: PairedCell): string {
  return `${cell.median.toFixed(2)}× (${cell.low.toFixed(2)}–${cell.high.toFixed(2)})`;
}

/** The markdown tables: one per comparison, a row per payload, a column per operation. */
function markdown(): string {
  const lines = [
    `### ${RUNTIME}, paired${FRESH_INPUTS ? ", a fresh copy of the input for each unpack" : ""}`,
    "",
    `Median of ${PAIRS} paired ratios (rival time / our time, above 1× = ours is faster), quartiles in brackets; slices of ${SLICE_MS} ms.`,
    "",
  ];
  const rows = new Map<string, Map<string, string[]>>(); // "mine vs rival" -> payload -> cells
  for (const cell of cells) {
    const comparison = `${cell.mine} vs ${cell.rival}`;
    if (!rows.has(comparison)) rows.set(comparison, new Map());
    const byPayload = rows.get(comparison)!;
    byPayload.set(cell.payload, [...byPayload.get(cell.payload) ?? [], ratioText(cell)]);
  }
  for (const [comparison, byPayload] of rows) {
    lines.push(
      `#### ${comparison}`,
      "",
      ...FRESH_INPUTS
        ? ["| payload | unpack (copy + decode) |", "|---|---:|"]
        : comparison.includes("useBuffer") || comparison.endsWith("JSON.stringify")
        ? ["| payload | pack |", "|---|---:|"]
        : comparison.endsWith(".json()")
        ? ["| payload | unpack |", "|---|---:|"]
        : ["| payload | pack | unpack |", "|---|---:|---:|"],
      ...[...byPayload].map(([payload, texts]) => `| ${[payload, ...texts].join(" | ")} |`),
      "",
    );
  }
  return lines.join("\n");
}

if (JSON_OUTPUT) {
  const run: PairedRun = {
    runtime: RUNTIME,
    msgpackrNative,
    pairs: PAIRS,
    sliceMs: SLICE_MS,
    freshInputs: FRESH_INPUTS,
    cells,
  };
  console.log(JSON.stringify(run));
} else {
  console.log(markdown());
}
