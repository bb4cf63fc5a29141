// Copyright 2026 the @x/msgpackr authors. MIT license.
// Why a cell of bench/RESULTS.md is behind its rival: the measured causes, one reviewed table.
// `report.ts` prints, for every cell below 1.0×, the first reason here that matches it, or "no
// measured cause yet". A reason names its cause and, where one shows it, the bench command; it
// states no figures, which belong to the run that prints them. Add a reason only with the
// measurement behind it.

/** A column of the report: plain or records, packing or unpacking. */
export type Operation = "pack" | "unpack" | "records pack" | "records unpack";

/** A known reason for cells behind a rival, and the cells it covers. */
export interface Reason {
  /** The runtime it was measured on ("Deno" or "Bun"); both when absent. */
  runtime?: "Deno" | "Bun";
  operations: readonly Operation[];
  rival: "msgpackr" | "JSON";
  /** The payloads (names of `_payloads.ts`) it was measured on; every payload when absent. */
  payloads?: readonly string[];
  reason: string;
}

const PACKS: readonly Operation[] = ["pack", "records pack"];
const UNPACKS: readonly Operation[] = ["unpack", "records unpack"];
const BLOBS = "binary blobs (16 × 64 KiB)";
const SMALL = "small RPC message";

/** The reasons, most specific first: the first that matches a cell is its reason. */
export const REASONS: readonly Reason[] = [
  {
    operations: PACKS,
    rival: "msgpackr",
    payloads: [BLOBS],
    reason: "`pack()` copies the result into a fresh exact-size 1 MiB buffer, whose pages are " +
      "faulted in; msgpackr returns a view of a buffer it keeps, and its time depends on whether " +
      "that buffer is already large, so this cell moves from run to run. `packr.useBuffer(buffer)` " +
      "returns views too.",
  },
  {
    runtime: "Deno",
    operations: PACKS,
    rival: "msgpackr",
    reason: "each `pack()` result gets a fresh exact-size `ArrayBuffer` of its own (safe to keep " +
      "or transfer), where msgpackr returns a view of its buffer. On Deno every new " +
      "`ArrayBuffer` comes from the system allocator, contended with V8's sweeper thread: for a " +
      "small message it costs more than msgpackr's whole call. `packr.useBuffer(buffer)` returns " +
      "views, as msgpackr does, and skips it (`npm run bench:allocation:deno`).",
  },
  {
    runtime: "Bun",
    operations: PACKS,
    rival: "msgpackr",
    reason: "each `pack()` result is copied into a fresh exact-size buffer of its own, where " +
      "msgpackr returns a view of its buffer; `packr.useBuffer(buffer)` skips the copy " +
      "(`npm run bench:allocation:bun`).",
  },
  {
    runtime: "Bun",
    operations: UNPACKS,
    rival: "msgpackr",
    payloads: [SMALL],
    reason: "Bun per-call fixed cost: on Bun each `unpack()` call costs more than msgpackr's " +
      "before it reads a byte (a single integer shows it), which a message this small does not " +
      "amortize.",
  },
  {
    runtime: "Deno",
    operations: ["records unpack"],
    rival: "msgpackr",
    reason: "medium ASCII strings: msgpackr's addon makes all the strings of a stretch of input " +
      "in one native call; we test each string for ASCII and slice it from a Latin-1 copy of the " +
      "input (CPU profiles). In a process that has decoded other payloads our decoding also " +
      "takes longer and msgpackr's does not; that part has no measured cause yet.",
  },
  {
    operations: PACKS,
    rival: "JSON",
    payloads: ["strings2.json"],
    runtime: "Deno",
    reason: "the payload is an array of strings: writing their bytes from JavaScript alone, with " +
      "no MessagePack header and no dispatch, already takes about as long as `JSON.stringify` + " +
      "`TextEncoder` (`npm run bench:floors:deno`).",
  },
  {
    operations: PACKS,
    rival: "JSON",
    reason: "`JSON.stringify` is one native pass over each object's properties; an encoder in " +
      "JavaScript pays a type dispatch per value and, per string, a length test and a write loop " +
      "or an `encodeInto` call.",
  },
  {
    operations: UNPACKS,
    rival: "JSON",
    payloads: ["unicode text"],
    reason:
      "unicode text decoding: `JSON.parse` converts the whole text natively in one pass; we " +
      "turn each string's UTF-8 into a string and cut it out, and converting the strings alone " +
      "(one call for all their bytes, cut at separators, nothing else read or built) already " +
      "takes about half of `JSON.parse`'s time (`npm run bench:floors:deno` / `:bun`).",
  },
  {
    runtime: "Bun",
    operations: UNPACKS,
    rival: "JSON",
    payloads: [SMALL],
    reason:
      "Bun per-call fixed cost: each `unpack()` call costs a fixed amount before it reads a " +
      "byte, and JavaScriptCore parses a message this small's JSON in a few hundred " +
      "nanoseconds; its two longer strings are each made from bytes by a call into the engine.",
  },
  {
    operations: UNPACKS,
    rival: "JSON",
    reason: "making strings: each string costs a call into the engine that makes it from bytes, " +
      "with a fixed cost whatever its length, where `JSON.parse` makes its strings inside the " +
      "engine from one input string; building the objects alone takes a small part of the time " +
      "(`npm run bench:floors:deno` / `:bun`).",
  },
];

/** The first of {@linkcode REASONS} that covers this cell, or undefined. */
export function reasonFor(
  runtime: string,
  operation: Operation,
  rival: "msgpackr" | "JSON",
  payload: string,
): string | undefined {
  return REASONS.find((reason) =>
    (reason.runtime === undefined || runtime.startsWith(reason.runtime)) &&
    reason.operations.includes(operation) && reason.rival === rival &&
    (reason.payloads === undefined || reason.payloads.includes(payload))
  )?.reason;
}
