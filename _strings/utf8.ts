// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// UTF-8 for the hot paths. The JavaScript decoder gives exactly what `TextDecoder` (fatal: false)
// gives: every ill-formed sequence becomes U+FFFD per "maximal subpart" (WHATWG Encoding), so a
// string decodes the same whichever path its length selects. A leading BOM is kept (ignoreBOM),
// so a string that starts with U+FEFF round-trips.

/** Shared decoder for long strings; keeps a leading BOM like the JavaScript path does. */
export const textDecoder: TextDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
/** Shared encoder for long strings. */
export const textEncoder: TextEncoder = new TextEncoder();

const fromCharCode = String.fromCharCode;

// ---- the string decoder used for every MessagePack string ---------------------------------------
//
// Each way of making a string has its own cost, and a string takes the cheapest for its length
// and runtime: `TextDecoder.decode` has a large fixed cost before it reads a byte;
// `String.fromCharCode` with explicit arguments is cheap on V8 and dear on JavaScriptCore, where
// appending single characters is faster for short strings; the Buffer methods that Deno, Bun and
// Node provide as a global (`latin1Slice`, `utf8Slice`) cost one flat call up to a few hundred
// bytes. So: short ASCII strings in JavaScript, longer ASCII strings with `latin1Slice` (ASCII is
// the same in Latin-1 and UTF-8), other strings with `utf8Slice` where it decodes exactly as
// `TextDecoder` does (Deno and Bun, every ill-formed sequence included), else `TextDecoder` or the
// JavaScript decoder below. tests/internal/utf8_test.ts checks every path against `TextDecoder`.
// Chosen by measurement: npm run bench:paired:deno / :bun (sample-large.json, unicode text).

type SliceMethod = (this: Uint8Array, start: number, end: number) => string;

const runtime = globalThis as {
  Bun?: unknown;
  Deno?: unknown;
  Buffer?: { prototype: { latin1Slice?: unknown; utf8Slice?: unknown } };
};
const bufferMethods = runtime.Buffer?.prototype;
/** `Buffer.prototype.latin1Slice` where the runtime has it (Deno, Bun, Node), else `null`. */
export const latin1Slice: SliceMethod | null = typeof bufferMethods?.latin1Slice === "function"
  ? bufferMethods.latin1Slice as SliceMethod
  : null;
/**
 * `Buffer.prototype.utf8Slice` on Deno and Bun, where it decodes as `TextDecoder` does, else
 * `null`.
 */
export const utf8Slice: SliceMethod | null =
  (runtime.Bun !== undefined || runtime.Deno !== undefined) &&
    typeof bufferMethods?.utf8Slice === "function"
    ? bufferMethods.utf8Slice as SliceMethod
    : null;
/** JavaScriptCore (Bun) builds short strings fastest one character at a time. */
const APPEND_SHORT = runtime.Bun !== undefined;
/** ASCII strings up to this length are built in JavaScript. */
const SHORT_LIMIT = APPEND_SHORT ? 8 : latin1Slice !== null ? 24 : 32;
/**
 * Deno's `utf8Slice` has its own ASCII fast path and costs about what scanning for ASCII and
 * calling `latin1Slice` does, so medium strings go straight to it there.
 */
const UTF8_SLICE_FIRST = utf8Slice !== null && runtime.Deno !== undefined;
/**
 * Strings longer than this are long: their cost is in copying the bytes, and each runtime has its
 * own fastest copy. On Deno, `utf8Slice` copies ASCII several times slower than a scan for ASCII
 * followed by `latin1Slice`, so a long string is scanned (stopping at its first non-ASCII byte)
 * and copied as Latin-1 when it is ASCII; one that is not goes to `TextDecoder`, which converts
 * well-formed text several times faster than Deno's `utf8Slice` (and ill-formed text slower,
 * linear either way). On Bun, `utf8Slice` is the fastest copy, so a long string goes straight to
 * it.
 */
const LONG_STRING = 256;
/** Bun: long strings straight to `utf8Slice` (see above). */
const UTF8_SLICE_LONG = utf8Slice !== null && runtime.Bun !== undefined;

/** The bytes `isAscii` last scanned, and a view of them (kept from call to call). */
let scannedBytes: Uint8Array | null = null;
let scannedView: DataView | null = null;

/**
 * Gives `isAscii` the decoder's view of its input (`view` of `bytes`), so that the scan of a long
 * string does not pay for a second view of the same bytes.
 */
export function shareScanView(bytes: Uint8Array, view: DataView): void {
  scannedBytes = bytes;
  scannedView = view;
}

/** Lets the bytes `isAscii` last scanned be collected (a decode calls it when it ends). */
export function forgetScannedBytes(): void {
  scannedBytes = null;
  scannedView = null;
}

/**
 * Whether `b[start, end)` is all ASCII, for callers without a view of `b` (one is kept from call
 * to call): see {@linkcode isAsciiIn}.
 */
function isAscii(b: Uint8Array, start: number, end: number): boolean {
  if (b !== scannedBytes) {
    scannedBytes = b;
    scannedView = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }
  return isAsciiIn(scannedView!, b, start, end);
}

/**
 * Whether `b[start, end)` is all ASCII, read through `view` (a DataView of `b`): sixteen bytes at
 * a time, stopping at the first group with a byte that is not, then four at a time, and the last
 * one to three bytes as the word that ends the range (overlapping bytes already seen).
 */
export function isAsciiIn(view: DataView, b: Uint8Array, start: number, end: number): boolean {
  let i = start;
  for (; i + 16 <= end; i += 16) {
    const any = view.getInt32(i) | view.getInt32(i + 4) | view.getInt32(i + 8) |
      view.getInt32(i + 12);
    if ((any & 0x80808080) !== 0) return false;
  }
  for (; i + 4 <= end; i += 4) {
    if ((view.getInt32(i) & 0x80808080) !== 0) return false;
  }
  if (i === end) return true;
  if (end - start >= 4) return (view.getInt32(end - 4) & 0x80808080) === 0;
  for (; i < end; i++) if (b[i] > 0x7f) return false;
  return true;
}

/**
 * Whether `b[start, end)` is all ASCII, read one byte at a time (short ranges), eight
 * bytes to a test, so that text which is not stops early.
 */
function isAsciiBytes(b: Uint8Array, start: number, end: number): boolean {
  let i = start;
  for (; i + 8 <= end; i += 8) {
    if (
      (b[i] | b[i + 1] | b[i + 2] | b[i + 3] | b[i + 4] | b[i + 5] | b[i + 6] | b[i + 7]) >= 0x80
    ) return false;
  }
  let any = 0;
  for (; i < end; i++) any |= b[i];
  return any < 0x80;
}

function appendAscii(b: Uint8Array, start: number, length: number): string | null {
  let result = "";
  for (let i = start; i < start + length; i++) {
    const c = b[i];
    if (c > 0x7f) return null;
    result += fromCharCode(c);
  }
  return result;
}

/**
 * `b[start, end)` as a string when it is ASCII and a fast path takes it: JavaScript for short
 * strings, `latin1Slice` for longer ones (ASCII is the same in Latin-1); otherwise `null`.
 */
function fastAscii(b: Uint8Array, start: number, end: number): string | null {
  const length = end - start;
  if (length <= SHORT_LIMIT) {
    return APPEND_SHORT ? appendAscii(b, start, length) : decodeShortAscii(b, start, length);
  }
  return latin1Slice !== null && isAscii(b, start, end) ? latin1Slice.call(b, start, end) : null;
}

/** Decodes the UTF-8 bytes `b[start, end)` exactly as `TextDecoder` (fatal: false, ignoreBOM). */
export function decodeString(b: Uint8Array, start: number, end: number): string {
  const length = end - start;
  if (length > LONG_STRING && utf8Slice !== null) {
    if (UTF8_SLICE_LONG || latin1Slice === null) return utf8Slice.call(b, start, end);
    if (isAscii(b, start, end)) return latin1Slice.call(b, start, end);
    return textDecoder.decode(b.subarray(start, end)); // Deno (see LONG_STRING)
  }
  if (UTF8_SLICE_FIRST && length > SHORT_LIMIT) return utf8Slice!.call(b, start, end);
  const ascii = fastAscii(b, start, end);
  if (ascii !== null) return ascii;
  // not ASCII. Short: V8 builds it in JavaScript faster than a `utf8Slice` call does;
  // JavaScriptCore does not, so Bun takes `utf8Slice` at every length
  if (utf8Slice !== null && (APPEND_SHORT || length > SHORT_LIMIT)) {
    return utf8Slice.call(b, start, end);
  }
  if (length > SHORT_ASCII_MAX) return textDecoder.decode(b.subarray(start, end));
  return decodeUtf8(b, start, end);
}

const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Decodes the UTF-8 bytes `b[start, end)`, or returns `null` when they are ill-formed (the
 * `fatal` option): ASCII takes the same fast paths as {@linkcode decodeString}, anything else a
 * fatal `TextDecoder`.
 */
export function decodeStringStrict(b: Uint8Array, start: number, end: number): string | null {
  const ascii = fastAscii(b, start, end);
  if (ascii !== null) return ascii;
  try {
    return strictDecoder.decode(b.subarray(start, end));
  } catch {
    return null;
  }
}

/** Longest string `decodeShortAscii` builds with one `fromCharCode` call. */
const SHORT_ASCII_MAX = 32;

/**
 * Decodes `length` (≤ 32) bytes at `p` when they are all ASCII; returns `null` otherwise (the
 * caller falls back to the general decoder). One `fromCharCode` call with explicit arguments per
 * length: V8 builds the string directly from the arguments, with no array or loop.
 */
function decodeShortAscii(b: Uint8Array, p: number, length: number): string | null {
  if (!isAsciiBytes(b, p, p + length)) return null;
  switch (length) {
    case 0:
      return "";
    case 1:
      return fromCharCode(b[p]);
    case 2:
      return fromCharCode(b[p], b[p + 1]);
    case 3:
      return fromCharCode(b[p], b[p + 1], b[p + 2]);
    case 4:
      return fromCharCode(b[p], b[p + 1], b[p + 2], b[p + 3]);
    case 5:
      return fromCharCode(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4]);
    case 6:
      return fromCharCode(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5]);
    case 7:
      return fromCharCode(b[p], b[p + 1], b[p + 2], b[p + 3], b[p + 4], b[p + 5], b[p + 6]);
    case 8:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
      );
    case 9:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
      );
    case 10:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
      );
    case 11:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
      );
    case 12:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
      );
    case 13:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
        b[p + 12],
      );
    case 14:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
        b[p + 12],
        b[p + 13],
      );
    case 15:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
        b[p + 12],
        b[p + 13],
        b[p + 14],
      );
    case 16:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
        b[p + 12],
        b[p + 13],
        b[p + 14],
        b[p + 15],
      );
    case 17:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
        b[p + 12],
        b[p + 13],
        b[p + 14],
        b[p + 15],
        b[p + 16],
      );
    case 18:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
        b[p + 12],
        b[p + 13],
        b[p + 14],
        b[p + 15],
        b[p + 16],
        b[p + 17],
      );
    case 19:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
        b[p + 12],
        b[p + 13],
        b[p + 14],
        b[p + 15],
        b[p + 16],
        b[p + 17],
        b[p + 18],
      );
    case 20:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
        b[p + 12],
        b[p + 13],
        b[p + 14],
        b[p + 15],
        b[p + 16],
        b[p + 17],
        b[p + 18],
        b[p + 19],
      );
    case 21:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
        b[p + 12],
        b[p + 13],
        b[p + 14],
        b[p + 15],
        b[p + 16],
        b[p + 17],
        b[p + 18],
        b[p + 19],
        b[p + 20],
      );
    case 22:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
        b[p + 12],
        b[p + 13],
        b[p + 14],
        b[p + 15],
        b[p + 16],
        b[p + 17],
        b[p + 18],
        b[p + 19],
        b[p + 20],
        b[p + 21],
      );
    case 23:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
        b[p + 12],
        b[p + 13],
        b[p + 14],
        b[p + 15],
        b[p + 16],
        b[p + 17],
        b[p + 18],
        b[p + 19],
        b[p + 20],
        b[p + 21],
        b[p + 22],
      );
    case 24:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
        b[p + 12],
        b[p + 13],
        b[p + 14],
        b[p + 15],
        b[p + 16],
        b[p + 17],
        b[p + 18],
        b[p + 19],
        b[p + 20],
        b[p + 21],
        b[p + 22],
        b[p + 23],
      );
    case 25:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
        b[p + 12],
        b[p + 13],
        b[p + 14],
        b[p + 15],
        b[p + 16],
        b[p + 17],
        b[p + 18],
        b[p + 19],
        b[p + 20],
        b[p + 21],
        b[p + 22],
        b[p + 23],
        b[p + 24],
      );
    case 26:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
        b[p + 12],
        b[p + 13],
        b[p + 14],
        b[p + 15],
        b[p + 16],
        b[p + 17],
        b[p + 18],
        b[p + 19],
        b[p + 20],
        b[p + 21],
        b[p + 22],
        b[p + 23],
        b[p + 24],
        b[p + 25],
      );
    case 27:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
        b[p + 12],
        b[p + 13],
        b[p + 14],
        b[p + 15],
        b[p + 16],
        b[p + 17],
        b[p + 18],
        b[p + 19],
        b[p + 20],
        b[p + 21],
        b[p + 22],
        b[p + 23],
        b[p + 24],
        b[p + 25],
        b[p + 26],
      );
    case 28:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
        b[p + 12],
        b[p + 13],
        b[p + 14],
        b[p + 15],
        b[p + 16],
        b[p + 17],
        b[p + 18],
        b[p + 19],
        b[p + 20],
        b[p + 21],
        b[p + 22],
        b[p + 23],
        b[p + 24],
        b[p + 25],
        b[p + 26],
        b[p + 27],
      );
    case 29:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
        b[p + 12],
        b[p + 13],
        b[p + 14],
        b[p + 15],
        b[p + 16],
        b[p + 17],
        b[p + 18],
        b[p + 19],
        b[p + 20],
        b[p + 21],
        b[p + 22],
        b[p + 23],
        b[p + 24],
        b[p + 25],
        b[p + 26],
        b[p + 27],
        b[p + 28],
      );
    case 30:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
        b[p + 12],
        b[p + 13],
        b[p + 14],
        b[p + 15],
        b[p + 16],
        b[p + 17],
        b[p + 18],
        b[p + 19],
        b[p + 20],
        b[p + 21],
        b[p + 22],
        b[p + 23],
        b[p + 24],
        b[p + 25],
        b[p + 26],
        b[p + 27],
        b[p + 28],
        b[p + 29],
      );
    case 31:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
        b[p + 12],
        b[p + 13],
        b[p + 14],
        b[p + 15],
        b[p + 16],
        b[p + 17],
        b[p + 18],
        b[p + 19],
        b[p + 20],
        b[p + 21],
        b[p + 22],
        b[p + 23],
        b[p + 24],
        b[p + 25],
        b[p + 26],
        b[p + 27],
        b[p + 28],
        b[p + 29],
        b[p + 30],
      );
    case 32:
      return fromCharCode(
        b[p],
        b[p + 1],
        b[p + 2],
        b[p + 3],
        b[p + 4],
        b[p + 5],
        b[p + 6],
        b[p + 7],
        b[p + 8],
        b[p + 9],
        b[p + 10],
        b[p + 11],
        b[p + 12],
        b[p + 13],
        b[p + 14],
        b[p + 15],
        b[p + 16],
        b[p + 17],
        b[p + 18],
        b[p + 19],
        b[p + 20],
        b[p + 21],
        b[p + 22],
        b[p + 23],
        b[p + 24],
        b[p + 25],
        b[p + 26],
        b[p + 27],
        b[p + 28],
        b[p + 29],
        b[p + 30],
        b[p + 31],
      );
  }
  return null;
}

/**
 * Decodes UTF-8 from `start` to `end` in JavaScript, with `TextDecoder`'s replacement rules:
 * lead bytes c0, c1 and f5..ff and stray continuation bytes give one U+FFFD each; e0 needs a0..bf
 * next, ed needs 80..9f (no surrogates), f0 needs 90..bf, f4 needs 80..8f; a sequence cut short
 * gives one U+FFFD for its valid prefix and decoding resumes at the offending byte.
 */
export function decodeUtf8(b: Uint8Array, start: number, end: number): string {
  const units: number[] = [];
  let result = "";
  let p = start;
  while (p < end) {
    const byte1 = b[p++];
    if (byte1 < 0x80) {
      units.push(byte1);
    } else if (byte1 < 0xc2 || byte1 > 0xf4) {
      units.push(0xfffd); // continuation byte without a lead, or a lead that is never valid
    } else if (byte1 < 0xe0) {
      const byte2 = p < end ? b[p] : 0;
      if ((byte2 & 0xc0) !== 0x80) {
        units.push(0xfffd);
      } else {
        p++;
        units.push(((byte1 & 0x1f) << 6) | (byte2 & 0x3f));
      }
    } else if (byte1 < 0xf0) {
      const byte2 = p < end ? b[p] : 0;
      const low = byte1 === 0xe0 ? 0xa0 : 0x80;
      const high = byte1 === 0xed ? 0x9f : 0xbf;
      if (byte2 < low || byte2 > high) {
        units.push(0xfffd);
      } else {
        p++;
        const byte3 = p < end ? b[p] : 0;
        if ((byte3 & 0xc0) !== 0x80) {
          units.push(0xfffd);
        } else {
          p++;
          units.push(((byte1 & 0x0f) << 12) | ((byte2 & 0x3f) << 6) | (byte3 & 0x3f));
        }
      }
    } else {
      const byte2 = p < end ? b[p] : 0;
      const low = byte1 === 0xf0 ? 0x90 : 0x80;
      const high = byte1 === 0xf4 ? 0x8f : 0xbf;
      if (byte2 < low || byte2 > high) {
        units.push(0xfffd);
      } else {
        p++;
        const byte3 = p < end ? b[p] : 0;
        if ((byte3 & 0xc0) !== 0x80) {
          units.push(0xfffd);
        } else {
          p++;
          const byte4 = p < end ? b[p] : 0;
          if ((byte4 & 0xc0) !== 0x80) {
            units.push(0xfffd);
          } else {
            p++;
            const codePoint = (((byte1 & 0x07) << 18) | ((byte2 & 0x3f) << 12) |
              ((byte3 & 0x3f) << 6) | (byte4 & 0x3f)) - 0x10000;
            units.push(0xd800 | (codePoint >> 10), 0xdc00 | (codePoint & 0x3ff));
          }
        }
      }
    }
    if (units.length >= 0x1000) {
      result += fromCharCode.apply(String, units);
      units.length = 0;
    }
  }
  return units.length > 0 ? result + fromCharCode.apply(String, units) : result;
}

/**
 * Writes the leading ASCII run of `string` at `position` and returns its length in characters
 * (`string.length` when the whole string is ASCII). Four characters go in one little-endian 32-bit
 * store through `view`, a DataView of `target`'s bytes with the same indices: both engines write
 * text faster that way than with one store a character. `target` must have room for the whole
 * string.
 */
export function writeAsciiRun(
  target: Uint8Array,
  view: DataView,
  position: number,
  string: string,
): number {
  const length = string.length;
  let i = 0;
  for (; i <= length - 4; i += 4) {
    const c0 = string.charCodeAt(i);
    const c1 = string.charCodeAt(i + 1);
    const c2 = string.charCodeAt(i + 2);
    const c3 = string.charCodeAt(i + 3);
    if ((c0 | c1 | c2 | c3) >= 0x80) break;
    view.setInt32(position + i, c0 | (c1 << 8) | (c2 << 16) | (c3 << 24), true);
  }
  for (; i < length; i++) {
    const c = string.charCodeAt(i);
    if (c >= 0x80) break;
    target[position + i] = c;
  }
  return i;
}

/**
 * Writes `string` as UTF-8 at `position` and returns the position after it. Lone surrogates are
 * written in their 3-byte (WTF-8) form, as msgpackr does for strings under 64 code units, so our
 * bytes equal its bytes (docs/wire-format.md, "Strings"). `target` must have room for 3 bytes per UTF-16 code unit, and `view` is
 * a DataView of its bytes with the same indices (for {@linkcode writeAsciiRun}, which writes the
 * leading ASCII run).
 */
export function encodeUtf8Manually(
  target: Uint8Array,
  view: DataView,
  position: number,
  string: string,
): number {
  const length = string.length;
  let i = writeAsciiRun(target, view, position, string);
  if (i === length) return position + length;
  position += i;
  for (; i < length; i++) {
    let c = string.charCodeAt(i);
    if (c < 0x80) {
      target[position++] = c;
    } else if (c < 0x800) {
      target[position++] = (c >> 6) | 0xc0;
      target[position++] = (c & 0x3f) | 0x80;
    } else if ((c & 0xfc00) === 0xd800 && (string.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      c = 0x10000 + ((c & 0x03ff) << 10) + (string.charCodeAt(++i) & 0x03ff);
      target[position++] = (c >> 18) | 0xf0;
      target[position++] = ((c >> 12) & 0x3f) | 0x80;
      target[position++] = ((c >> 6) & 0x3f) | 0x80;
      target[position++] = (c & 0x3f) | 0x80;
    } else {
      target[position++] = (c >> 12) | 0xe0;
      target[position++] = ((c >> 6) & 0x3f) | 0x80;
      target[position++] = (c & 0x3f) | 0x80;
    }
  }
  return position;
}
