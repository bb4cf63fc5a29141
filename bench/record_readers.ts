// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * Record decoding: the generated record reader (`new Function`, the default) against the
 * interpreted one (`compileRecordReaders: false`, what no_eval.ts and CSP-restricted pages get),
 * with msgpackr 2.1.3's records decoding (its default build, and its pure-JS browser build) as a
 * reference. Payloads: every testdata/ file and a homogeneous array of 1,000 records,
 * each packed once with inline structures (`new Packr()`) and once with shared structures
 * (`new Packr({ structures })`). Inline shapes are compiled only when a shape occurs 4+ times in
 * one message; shared ones after their first reads, so the shared rows show the readers' speed.
 *
 *   deno run -A bench/record_readers.ts
 *   bun bench/record_readers.ts
 *
 * Ends with a table of "interpreted speed / generated speed" (generated median time divided by
 * interpreted median time: 1.00× = as fast, 0.80× = the interpreted reader takes 25% longer).
 */

import { bench, do_not_optimize, group, run, summary } from "mitata";
import * as msgpackr from "msgpackr";
import { Packr, type Structure, Unpackr } from "../mod.ts";
// the no-eval build's record builders, for the interpreted reader (no_eval.ts installs them)
import "../_records/builder_pool.ts";
import { TESTDATA_FILES } from "../tests/_testdata_files.ts";
import { testdataFile } from "./_payloads.ts";
import { RUNTIME } from "./_runtime.ts";
import { msgpackrBrowser } from "./_msgpackr_browser.ts";

const payloads: [string, unknown][] = TESTDATA_FILES.map((name) => [name, testdataFile(name)]);
payloads.push([
  "1000 records",
  Array.from({ length: 1000 }, (_, id) => ({
    id,
    name: `user ${id}`,
    email: `user${id}@example.com`,
    active: id % 3 !== 0,
    score: id * 1.5,
    tags: ["a", "b"],
  })),
]);

/** Every bench as registered, in order: its group and name. */
const registered: { group: string; name: string }[] = [];

const copy = (structures: Structure[]) => structures.map((keys) => keys.slice());

for (const [name, value] of payloads) {
  for (const mode of ["inline", "shared"] as const) {
    const structures: Structure[] = [];
    const bytes = mode === "inline"
      ? new Packr().pack(value)
      : new Packr({ structures }).pack(value);
    const options = mode === "inline" ? {} : { structures: copy(structures) };
    const generated = new Unpackr({ ...options });
    const interpreted = new Unpackr({ ...options, compileRecordReaders: false });
    const theirs = new msgpackr.Unpackr(mode === "inline" ? {} : { structures: copy(structures) });
    const theirsJs = new msgpackrBrowser.Unpackr(
      mode === "inline" ? {} : { structures: copy(structures) },
    );
    // the readers must agree before they are timed
    const expected = JSON.stringify(value);
    for (const decoder of [generated, interpreted, theirs, theirsJs]) {
      for (let i = 0; i < 5; i++) {
        if (JSON.stringify(decoder.unpack(bytes)) !== expected) {
          throw new Error(`${name} ${mode}: a decoder disagrees`);
        }
      }
    }
    const label = `${name} ${mode}`;
    const decoders = [
      ["generated", generated],
      ["interpreted", interpreted],
      ["msgpackr", theirs],
      ["msgpackr pure-JS", theirsJs],
    ] as const;
    group(`${label} (${bytes.length} B)`, () => {
      summary(() => {
        for (const [benchName, decoder] of decoders) {
          registered.push({ group: label, name: benchName });
          const registeredBench = bench(benchName, () => do_not_optimize(decoder.unpack(bytes)));
          if (benchName === "generated") registeredBench.baseline();
        }
      });
    });
  }
}

const { benchmarks } = await run();

// median time by group, then by bench name (mitata reports the benches in registration order)
const medians = new Map<string, Map<string, number>>();
benchmarks.forEach((trial, index) => {
  const { group: label, name } = registered[index];
  const stats = trial.runs[0]?.stats;
  if (trial.alias !== name || stats === undefined) {
    throw new Error(`unexpected trial ${trial.alias}`);
  }
  if (!medians.has(label)) medians.set(label, new Map());
  medians.get(label)!.set(name, stats.p50);
});

const lines = [
  "",
  `### Record readers, ${RUNTIME}`,
  "",
  "Median time per unpack; speed ratios relative to the generated reader (above 1× = faster).",
  "",
  "| payload | generated | interpreted | interpreted/generated speed | msgpackr | msgpackr pure-JS |",
  "|---|---:|---:|---:|---:|---:|",
];
const format = (ns: number | undefined) =>
  ns === undefined
    ? "–"
    : ns < 1e3
    ? `${ns.toFixed(0)} ns`
    : ns < 1e6
    ? `${(ns / 1e3).toFixed(2)} µs`
    : `${(ns / 1e6).toFixed(2)} ms`;
for (const [label, row] of medians) {
  const generated = row.get("generated");
  const interpreted = row.get("interpreted");
  const ratio = generated !== undefined && interpreted !== undefined
    ? `${(generated / interpreted).toFixed(2)}×`
    : "–";
  lines.push(
    `| ${label} | ${format(generated)} | ${format(interpreted)} | ${ratio} | ${
      format(row.get("msgpackr"))
    } | ${format(row.get("msgpackr pure-JS"))} |`,
  );
}
console.log(lines.join("\n"));
