// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * Decoding with and without `bundleStrings` (docs/wire-format.md, "Bundled strings"). msgpackr's
 * README claims bundled strings decode 30–50 % faster in browsers, because all strings of a bundle
 * are decoded with one TextDecoder call. This measures decode time of the same payload packed both
 * ways, for our decoder, msgpackr's default build (native string extractor where it loads) and
 * msgpackr's pure-JS browser build, bytes to value, with mitata.
 *
 *   deno run -A bench/bundle_strings.ts [--quick]
 *   bun bench/bundle_strings.ts [--quick]
 *
 * "bundled gain" = plain time / bundled time: above 1× the bundled bytes decode faster.
 */

import { measure } from "mitata";
import * as msgpackr from "msgpackr";
import { Packr, type PackrOptions, unpack, Unpackr } from "../mod.ts";
import { random } from "../tests/_util.ts";
import { formatTime } from "./_measure.ts";
import { testdataFile } from "./_payloads.ts";
import { ARGS, RUNTIME } from "./_runtime.ts";
import { msgpackrBrowser } from "./_msgpackr_browser.ts";

const quick = ARGS.includes("--quick");

/** 1,000 objects with 5 string fields: ASCII, accented Latin, CJK, Cyrillic and emoji. */
function people(): unknown {
  const next = random(42);
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
  const first = ["Ana", "Björn", "Chloé", "Dmitri", "Émile", "Fatima", "Günther", "Hiroshi"];
  const last = [
    "García",
    "Müller",
    "Nakamura",
    "Ivanov",
    "O'Brien",
    "Søndergaard",
    "Li",
    "Kowalski",
  ];
  const cities = ["São Paulo", "Zürich", "東京", "Москва", "Kraków", "Reykjavík", "서울", "Paris"];
  const notes = [
    "Prefers email 📧 over phone",
    "VIP customer ⭐ since 2019",
    "Ordered twice this week",
    "住所変更のお知らせあり",
    "Просит перезвонить завтра",
    "No notes",
  ];
  return Array.from({ length: 1000 }, (_, i) => ({
    name: `${pick(first)} ${pick(last)}`,
    email: `user${i}@example.com`,
    city: pick(cities),
    note: pick(notes),
    status: pick(["active", "inactive", "pending"]),
  }));
}

const payloads: [string, unknown][] = [
  ["strings2.json", testdataFile("strings2.json")],
  ["sample-large.json", testdataFile("sample-large.json")],
  ["1,000 people (5 strings, non-ASCII)", people()],
];

interface Decoder {
  name: string;
  decode(bytes: Uint8Array, records: boolean): unknown;
}

const ourRecords = new Unpackr();
const theirRecords = new msgpackr.Unpackr();
const browserRecords = new msgpackrBrowser.Unpackr();
const decoders: Decoder[] = [
  { name: "ours", decode: (bytes, records) => records ? ourRecords.unpack(bytes) : unpack(bytes) },
  {
    name: "msgpackr",
    decode: (bytes, records) => records ? theirRecords.unpack(bytes) : msgpackr.unpack(bytes),
  },
  {
    name: "msgpackr pure-JS",
    decode: (bytes, records) =>
      records ? browserRecords.unpack(bytes) : msgpackrBrowser.unpack(bytes),
  },
];

async function time(fn: () => unknown): Promise<number> {
  const stats = await measure(fn, { min_cpu_time: quick ? 50e6 : 300e6 });
  return stats.p50;
}

const rows: string[] = [];
for (const [name, value] of payloads) {
  for (const records of [false, true]) {
    const base: PackrOptions = records ? {} : { useRecords: false };
    const plainBytes = new Packr(base).pack(value);
    const bundledBytes = new Packr({ ...base, bundleStrings: true }).pack(value);
    const mode = records ? "records" : "maps";
    for (const decoder of decoders) {
      // both forms must decode to the same value before we time them
      const expected = JSON.stringify(decoder.decode(plainBytes, records));
      if (JSON.stringify(decoder.decode(bundledBytes, records)) !== expected) {
        throw new Error(`${decoder.name} decodes the bundled ${name} differently`);
      }
      const plain = await time(() => decoder.decode(plainBytes, records));
      const bundled = await time(() => decoder.decode(bundledBytes, records));
      const row = `| ${name} | ${mode} | ${decoder.name} | ${formatTime(plain)} | ${
        formatTime(bundled)
      } | ${(plain / bundled).toFixed(2)}× | ${plainBytes.length} → ${bundledBytes.length} |`;
      rows.push(row);
      console.error(row);
    }
  }
}

console.log(
  [
    `### bundleStrings decoding, ${RUNTIME}`,
    "",
    "Median decode time; bundled gain = plain / bundled (above 1× = bundled decodes faster).",
    "",
    "| payload | objects as | decoder | plain | bundled | bundled gain | bytes plain → bundled |",
    "|---|---|---|---:|---:|---:|---:|",
    ...rows,
  ].join("\n"),
);
