// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * Floors: what the fastest primitives of this runtime cost for the work that two of the JSON
 * targets of the performance issue require, set against the time those targets allow.
 *
 *   deno run -A bench/floors.ts [--rounds=<n>]
 *   bun bench/floors.ts [...]
 *
 * 1. Records decoding of the unicode text at 2× `JSON.parse` (bytes to value). Any decoder of the
 *    MessagePack form must turn the strings' UTF-8 bytes into JavaScript strings. The floor is the
 *    runtime's fastest conversion of all those bytes in one call, plus the cheapest way measured to
 *    cut that text into the payload's separate strings. Neither reads a MessagePack byte nor builds
 *    an object, so a decoder can only be slower.
 * 2. Plain packing of strings2.json at 1× `JSON.stringify` + `TextEncoder` (an array of 522
 *    strings, so the work is writing their bytes). The floor is the cheapest of four ways to write
 *    every string's bytes into a reused buffer with no MessagePack header and no type dispatch: one
 *    code unit at a time from JavaScript (what encoders do for short strings), four code units a
 *    32-bit store (`writeAsciiRun`, what ours does for ASCII), one `TextEncoder.encodeInto` per
 *    string, and one `encodeInto` of all of them joined (whose headers would then still have to be
 *    patched in).
 *
 * 4. Packing of the service payloads at 1.25× the speed of `JSON.stringify` + `TextEncoder`:
 *    the cost of writing every key and string value's bytes alone, as in 2, against the time that
 *    target allows.
 *
 * 3. Records decoding of every payload JSON can hold at 2× `JSON.parse`: the cost of building the
 *    payload's objects and arrays alone, from values already made. A function generated for the
 *    payload builds it with object literals (a loop over one literal for a homogeneous list,
 *    `slice` for a list of plain values), so no byte is read and no string is made; any decoder
 *    also builds those objects, so it can only be slower. The unicode text's floor in 1 adds this
 *    to converting and cutting its strings.
 *
 * Every candidate is timed in rounds of one slice each, in turn, and its median slice is kept, so a
 * slow spell of the host falls on all of them alike. The table says how much of the allowed time
 * the floor alone takes, and so how much is left for all the rest (reading or writing MessagePack
 * headers, dispatch on each value, building the objects): above 100%, nothing written with these
 * primitives can meet the target. The cut "by lengths" is given the strings' UTF-16 lengths, which
 * a decoder does not know without counting them, so that floor is lower than any decoder's.
 */

import { pack, Packr, Unpackr } from "../mod.ts";
import { writeAsciiRun } from "../_strings/utf8.ts";
import { utf8Slice } from "../_strings/input_window.ts";
import { formatTime, medianSlices } from "./_measure.ts";
import { payloads, testdataFile } from "./_payloads.ts";
import { option, RUNTIME } from "./_runtime.ts";

/** Rounds: each candidate is timed once per round. */
const ROUNDS = Number(option("rounds") ?? 31);
/** Milliseconds of calls one slice times. */
const SLICE_MS = 5;
/** Unmeasured rounds first: the JIT and the allocator settle. */
const WARM_UP_ROUNDS = 5;

/** The median slice (ns a call) of each candidate, timed in turn round after round. */
function medians(candidates: Record<string, () => unknown>): Record<string, number> {
  return medianSlices(candidates, ROUNDS, SLICE_MS, WARM_UP_ROUNDS);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const percent = (part: number, whole: number) => `${Math.round(100 * part / whole)}%`;
const lines = [`### ${RUNTIME}, floors`, ""];

/**
 * A function that builds a value of `value`'s structure from its leaves (every value that is not a
 * plain object or array), passed to it as one array: the cheapest way we know to make the objects
 * and arrays a decoder must make. A list of 8 or more objects with the same keys and only leaves
 * in them is built by a loop over one object literal (a function of 1,000 literals is too large
 * for the engines to optimize), a list of 8 or more leaves by one `slice`.
 */
function objectBuilder(
  value: unknown,
): { build: (leaves: unknown[]) => unknown; leaves: unknown[] } {
  const leaves: unknown[] = [];
  const isLeaf = (item: unknown) =>
    item === null || typeof item !== "object" || item instanceof Uint8Array;
  /** A plain object whose values are all leaves: an element of a homogeneous list. */
  const isFlatObject = (item: unknown): item is Record<string, unknown> =>
    !isLeaf(item) && !Array.isArray(item) && Object.values(item as object).every(isLeaf);
  const leaf = (item: unknown) => `l[${leaves.push(item) - 1}]`;
  const literal = (keys: string[], at: (key: string, index: number) => string) =>
    `{${keys.map((key, index) => `${JSON.stringify(key)}:${at(key, index)}`).join(",")}}`;
  const expression = (item: unknown): string => {
    if (isLeaf(item)) return leaf(item);
    if (Array.isArray(item)) {
      if (item.length >= 8 && item.every(isLeaf)) {
        const first = leaves.length;
        leaves.push(...item);
        return `l.slice(${first},${leaves.length})`;
      }
      const keys = item.length >= 8 && isFlatObject(item[0]) ? Object.keys(item[0]) : null;
      if (
        keys !== null &&
        item.every((element) =>
          isFlatObject(element) && Object.keys(element).join() === keys.join()
        )
      ) {
        const first = leaves.length;
        for (const element of item) leaves.push(...Object.values(element));
        const element = literal(keys, (_, index) => `l[at+${index}]`);
        return `(()=>{const a=new Array(${item.length});for(let i=0,at=${first};i<${item.length};i++,at+=${keys.length})a[i]=${element};return a})()`;
      }
      return `[${item.map(expression).join(",")}]`;
    }
    const object = item as Record<string, unknown>;
    return literal(Object.keys(object), (key) => expression(object[key]));
  };
  const body = `return ${expression(value)}`;
  return { build: new Function("l", body) as (leaves: unknown[]) => unknown, leaves };
}

/**
 * `value` packed as records, and an Unpackr for them: shared structures trained by one pack, as in
 * the main bench.
 */
function asRecords(value: unknown): { recordBytes: Uint8Array; unpackr: Unpackr } {
  const structures: string[][] = [];
  const packr = new Packr({ structures });
  packr.pack(value);
  return { recordBytes: new Uint8Array(packr.pack(value)), unpackr: new Unpackr({ structures }) };
}

// ---- 1. records decoding of the unicode text against 2× JSON.parse ----------------------------

{
  const value = payloads().find((payload) => payload.name === "unicode text")!.value as Record<
    string,
    unknown
  >[];
  const strings: string[] = [];
  for (const item of value) {
    for (const field of Object.values(item)) if (typeof field === "string") strings.push(field);
  }
  const jsonBytes = encoder.encode(JSON.stringify(value));
  const { recordBytes, unpackr } = asRecords(value);
  // the strings' bytes back to back, and with a 0 byte after each (for one `split`)
  const stringBytes = encoder.encode(strings.join(""));
  const separated = encoder.encode(strings.join("\0"));
  const lengths = strings.map((text) => text.length);
  const candidates: Record<string, () => unknown> = {
    "JSON bytes to value": () => JSON.parse(decoder.decode(jsonBytes)),
    "ours, records": () => unpackr.unpack(recordBytes),
    "convert: TextDecoder, one call": () => decoder.decode(stringBytes),
    "convert and cut: one call, split at U+0000": () => decoder.decode(separated).split("\0"),
    "convert and cut: one call, indexOf and slice": () => {
      const text = decoder.decode(separated);
      const pieces = new Array<string>(lengths.length);
      let at = 0;
      for (let i = 0; i < lengths.length - 1; i++) {
        const end = text.indexOf("\0", at);
        pieces[i] = text.slice(at, end);
        at = end + 1;
      }
      pieces[lengths.length - 1] = text.slice(at);
      return pieces;
    },
    "convert and cut: one call, slice by lengths": () => {
      const text = decoder.decode(stringBytes);
      const pieces = new Array<string>(lengths.length);
      let at = 0;
      for (let i = 0; i < lengths.length; i++) pieces[i] = text.slice(at, at += lengths[i]);
      return pieces;
    },
  };
  const builder = objectBuilder(value);
  candidates["build the objects from values already made"] = () => builder.build(builder.leaves);
  if (utf8Slice !== null) {
    candidates["convert: Buffer utf8Slice, one call"] = () =>
      utf8Slice!.call(stringBytes, 0, stringBytes.length);
  }
  const time = medians(candidates);
  const budget = time["JSON bytes to value"] / 2;
  const convert = Math.min(
    time["convert: TextDecoder, one call"],
    time["convert: Buffer utf8Slice, one call"] ?? Infinity,
  );
  const cut = Math.min(
    time["convert and cut: one call, split at U+0000"],
    time["convert and cut: one call, indexOf and slice"],
    time["convert and cut: one call, slice by lengths"],
  );
  const build = time["build the objects from values already made"];
  lines.push(
    `#### Unicode text: records decoding against 2× JSON.parse`,
    "",
    `${strings.length} strings, ${stringBytes.length} bytes of UTF-8 (${jsonBytes.length} bytes as JSON, ${recordBytes.length} as records). The time allowed is half of JSON's.`,
    "",
    "| work | time | of the time allowed |",
    "|---|---:|---:|",
    ...Object.entries(time).map(([name, ns]) =>
      `| ${name} | ${formatTime(ns)} | ${percent(ns, budget)} |`
    ),
    `| **allowed (JSON / 2)** | **${formatTime(budget)}** | 100% |`,
    "",
    `Floor: converting alone ${
      percent(convert, budget)
    } of the time allowed; converting and cutting ${
      percent(cut, budget)
    }; with building the ${value.length} objects ${percent(cut + build, budget)}, leaving ${
      percent(Math.max(0, budget - cut - build), budget)
    } for reading MessagePack and putting the strings in their places.`,
    "",
  );
}

// ---- 2. plain packing of strings2.json against JSON.stringify ---------------------------------

{
  const value = testdataFile("strings2.json") as string[];
  const output = new Uint8Array(1 << 20);
  const outputView = new DataView(output.buffer);
  const joined = value.join("\x01");
  const candidates: Record<string, () => unknown> = {
    "JSON.stringify + TextEncoder": () => encoder.encode(JSON.stringify(value)),
    "ours, pack()": () => pack(value),
    "write: code units from JavaScript": () => {
      let at = 0;
      for (const text of value) {
        for (let i = 0; i < text.length; i++) output[at++] = text.charCodeAt(i);
      }
      return at;
    },
    "write: four code units a store": () => {
      let at = 0;
      for (const text of value) at += writeAsciiRun(output, outputView, at, text);
      return at;
    },
    "write: encodeInto per string": () => {
      let at = 0;
      for (const text of value) at += encoder.encodeInto(text, output.subarray(at)).written;
      return at;
    },
    "write: join, one encodeInto": () => encoder.encodeInto(value.join("\x01"), output).written,
  };
  const time = medians(candidates);
  const budget = time["JSON.stringify + TextEncoder"];
  const floor = Math.min(
    time["write: code units from JavaScript"],
    time["write: four code units a store"],
    time["write: encodeInto per string"],
    time["write: join, one encodeInto"],
  );
  lines.push(
    `#### strings2.json: plain pack against JSON.stringify`,
    "",
    `${value.length} strings, ${
      encoder.encode(joined).length - value.length + 1
    } bytes of UTF-8 (the code-unit loop is right only for ASCII, which these are but for a few). The time allowed is JSON's.`,
    "",
    "| work | time | of the time allowed |",
    "|---|---:|---:|",
    ...Object.entries(time).map(([name, ns]) =>
      `| ${name} | ${formatTime(ns)} | ${percent(ns, budget)} |`
    ),
    "",
    `Floor: writing the strings' bytes alone ${
      percent(floor, budget)
    } of the time allowed, leaving ${
      percent(Math.max(0, budget - floor), budget)
    } for ${value.length} headers and the dispatch on each value.`,
    "",
  );
}

// ---- 3. records decoding of every payload JSON can hold against 2× JSON.parse -------------------

{
  const rows: string[] = [];
  for (const payload of payloads()) {
    if (!payload.json) continue;
    const jsonBytes = encoder.encode(JSON.stringify(payload.value));
    const { recordBytes, unpackr } = asRecords(payload.value);
    const builder = objectBuilder(payload.value);
    const time = medians({
      json: () => JSON.parse(decoder.decode(jsonBytes)),
      records: () => unpackr.unpack(recordBytes),
      build: () => builder.build(builder.leaves),
    });
    const budget = time.json / 2;
    rows.push(
      `| ${payload.name} | ${formatTime(budget)} | ${formatTime(time.records)} (${
        percent(time.records, budget)
      }) | ${formatTime(time.build)} (${percent(time.build, budget)}) |`,
    );
  }
  lines.push(
    `#### Records decoding against 2× JSON.parse: building the objects alone`,
    "",
    "The time allowed is half of JSON's (bytes to value). Building is the payload's objects and arrays made from values already made (percentages: of the time allowed).",
    "",
    "| payload | allowed (JSON / 2) | ours, records | build the objects |",
    "|---|---:|---:|---:|",
    ...rows,
    "",
  );
}

// ---- 4. packing of the pack targets against 1.25× JSON.stringify ------------------------------

{
  const targets = ["example4.json", "sample-large.json", "service response", "1,000 log events"];
  const output = new Uint8Array(1 << 20);
  const outputView = new DataView(output.buffer);
  const rows: string[] = [];
  for (const payload of payloads()) {
    if (!targets.some((name) => payload.name.startsWith(name))) continue;
    // every string the packer writes: the keys of every object and the string values
    const strings: string[] = [];
    const collect = (item: unknown): void => {
      if (typeof item === "string") strings.push(item);
      else if (Array.isArray(item)) item.forEach(collect);
      else if (item !== null && typeof item === "object") {
        for (const [key, field] of Object.entries(item)) {
          strings.push(key);
          collect(field);
        }
      }
    };
    collect(payload.value);
    const structures: string[][] = [];
    const packr = new Packr({ structures });
    packr.pack(payload.value);
    const time = medians({
      json: () => encoder.encode(JSON.stringify(payload.value)),
      pack: () => pack(payload.value),
      records: () => packr.pack(payload.value),
      stores: () => {
        let at = 0;
        for (const text of strings) at += writeAsciiRun(output, outputView, at, text);
        return at;
      },
      join: () => encoder.encodeInto(strings.join("\x01"), output).written,
    });
    const allowed = time.json / 1.25;
    const floor = Math.min(time.stores, time.join);
    rows.push(
      `| ${payload.name} | ${strings.length} | ${formatTime(allowed)} | ${formatTime(time.pack)} (${
        percent(time.pack, allowed)
      }) | ${formatTime(time.records)} (${percent(time.records, allowed)}) | ${
        formatTime(floor)
      } (${percent(floor, allowed)}) |`,
    );
  }
  lines.push(
    `#### Packing against 1.25× JSON.stringify + TextEncoder: writing the strings alone`,
    "",
    "The time allowed is JSON's / 1.25. The floor writes every key and string value of the payload into a reused buffer with no header and no dispatch: four code units a store (`writeAsciiRun`, what ours does for ASCII up to 63 units on V8) or one `encodeInto` of them all joined, the cheaper of the two (percentages: of the time allowed).",
    "",
    "| payload | strings | allowed (JSON / 1.25) | ours, pack | ours, records | write the strings |",
    "|---|---:|---:|---:|---:|---:|",
    ...rows,
    "",
  );
}

console.log(lines.join("\n"));
