// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { valueCache } from "./string_cache.ts";
import { decodeString, isAsciiIn, type SliceMethod, textDecoder } from "./utf8.ts";
import {
  BATCH_BYTES,
  BATCH_LONGEST as LONGEST,
  BATCH_LOOKAHEAD as LOOKAHEAD,
  FILL_GAP,
  MAX_GAP,
  MAX_SLICED_WITH_LATIN1,
  MIN_SLICED,
  NEAR_BYTES,
  WINDOW_BYTES,
} from "../_core/thresholds.ts";
import { HEADER_SIZE, lengthAt } from "../_format/tokens.ts";
import { tokenSize } from "../_format/token_walker.ts";

// Medium-length strings sliced out of a larger decoded piece of the decoder's input: ASCII ones
// from a Latin-1 window, non-ASCII ones from a UTF-8 batch (Deno, Bun; Node has the window only).
//
// Making a string from bytes costs a call into the runtime (`utf8Slice` / `latin1Slice`, about
// the same whatever the length up to a few hundred bytes), while slicing a string that already
// exists is an engine builtin, several times cheaper, that shares the characters instead of
// copying them (V8: slices of 13 characters or more; JavaScriptCore: all). msgpackr's native
// addon does the same: it makes the strings of a stretch of input as one Latin-1 string and its
// JavaScript slices them. Both pieces are of one decode's input and live in an `InputWindow` of
// its session (`_decode/decoder.ts`): the decoder closes it (`closeInputWindow`) when a decode
// starts and ends, and a decode nested in another runs with a session, so a window, of its own.
//
// The cost of sharing: a kept string is a slice of its piece, so a string kept after the decode
// keeps up to WINDOW_BYTES of Latin-1 text or BATCH_BYTES UTF-16 units alive (msgpackr's blocks
// reach 6,000 bytes), never the input itself. Chosen by measurement: npm run bench:paired:deno /
// :bun (sample-large.json, 1,000 log events; unicode text).
//
// ---- the Latin-1 window ----
//
// `sliceAsciiString` turns up to WINDOW_BYTES of the input, from a string that needs it, into one
// Latin-1 string with one `latin1Slice` call, and slices the following ASCII strings out of it
// while they lie inside (ASCII reads the same in Latin-1 and UTF-8; the headers and other values
// between them are in the window too, and never read). A window costs about two calls' worth (the
// call and the copy), so one is opened only for a string that comes within NEAR_BYTES of the
// previous medium string: a lone one is made on its own (a window for each of a few strings
// scattered through the input costs more than it saves). A window's call costs mostly a fixed
// amount, whatever its length up to a few KiB, so an open window reaches WINDOW_BYTES, four times
// NEAR_BYTES: a large payload takes a few large windows instead of many small ones. Strings longer
// than MAX_SLICED are made on their own, unless an open window covers them (`longString`).
//
// ---- the UTF-8 batch ----
//
// Making a string from non-ASCII UTF-8 costs a runtime call each, and for strings of a few dozen
// bytes the fixed cost of the call is most of it; one call over many strings' bytes pays it once.
// So when the decoder meets a non-ASCII string of medium length (shorter ones come from the value
// cache, ASCII ones from the Latin-1 window) within MAX_GAP bytes of the previous one,
// `nonAsciiString` looks ahead through the input for the next non-ASCII strings of
// SHORTEST..LONGEST bytes, copies the stretch of input from the first to the last with one `set`,
// turns every byte between two of them (headers, keys, other values: the gaps) into 0, puts a 0
// after the last, decodes that with one call and finds where each string ends by the U+0000 after
// it (one `indexOf` each): its gap's zeros follow, as many as the gap has bytes, and then the next
// string. The decoder then slices each string out of that text when it reaches it. A lone
// non-ASCII string is decoded on its own, with no lookahead. One copy of the stretch with zeros in
// its gaps costs less than copying each string's bytes into place.
//
// Every string is what decoding its bytes alone gives: a 0 byte is ASCII, so it ends any UTF-8
// sequence before it and starts none, and ill-formed bytes at the end of one string or the start
// of the next become the same U+FFFD as alone (WHATWG "maximal subparts"). A string that holds
// U+0000 itself makes its `indexOf` stop early; every later string is then found early too (the
// zero just before each string's start is found first), so the last one does not end at the
// final 0, and the batch is dropped and its strings decoded alone (see `cutText`).
// Ill-formed bytes send both engines' decoders down a slow path for the whole call, so a batch
// that holds one ill-formed string costs several times more than a well-formed one: linear in
// the input still, and ill-formed text is rare.
//
// The lookahead is a flat walk of tokens, sized by `tokenSize` of `_format/token_walker.ts` (the
// walk that follows nesting, which the lookahead does not): container headers are stepped over
// (their elements follow as tokens), str/bin/ext skip their payload, and the other tokens have
// fixed sizes. It does not know map keys from values, nor what an extension will read, and it
// need not: the decoder takes a batched string only at the same start and length, so a string is
// always the decoding of exactly the bytes the decoder asked for, and one it never asks for is
// simply not used.

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

/** Longest string taken from a window; 0 where there is no `latin1Slice` (browsers). */
export const MAX_SLICED: number = latin1Slice !== null ? MAX_SLICED_WITH_LATIN1 : 0;

/**
 * Decodes `stretch[0, length)`: with `utf8Slice` on Bun; with `TextDecoder` on Deno, whose
 * `utf8Slice` converts non-ASCII text more slowly. No batches elsewhere: browsers have no Latin-1
 * window to find the first string, and batches are measured on Bun and Deno only.
 */
const decodeStretch: ((length: number) => string) | null =
  runtime.Bun !== undefined && utf8Slice !== null
    ? (length) => utf8Slice!.call(stretch, 0, length)
    : runtime.Deno !== undefined
    ? (length) => textDecoder.decode(stretch.subarray(0, length))
    : null;

/** Whether non-ASCII strings are decoded in batches here (Bun, Deno). */
export const UTF8_BATCHES: boolean = decodeStretch !== null;

/** Shortest string the lookahead takes: shorter ones come from the value cache. */
const SHORTEST = valueCache.maxBytes + 1;
/**
 * Strings one batch can hold, given its span: the first has at least MIN_SLICED bytes, and each
 * later one a header byte and at least SHORTEST bytes. So the span alone bounds the count.
 */
const MAX_STRINGS = 1 + Math.floor((BATCH_BYTES - MIN_SLICED) / (1 + SHORTEST));
// MAX_GAP: a non-ASCII string opens a batch only when the previous one ended at most this far
// before it, and the lookahead stops this far past the last string it took: a lone non-ASCII
// string among ASCII text (sample-large.json has two) costs no walk.

/**
 * The Latin-1 window and the UTF-8 batch of one decode, over its input: the decoder's session holds
 * one, so a decode nested in another has its own and the outer one finds its own intact after it.
 */
export class InputWindow {
  /** The input's bytes [start, end) as Latin-1. */
  text = "";
  start = 0;
  end = 0;
  /** Where the last ASCII medium string ended (-Infinity: none since the window was closed). */
  asciiEnd: number = -Infinity;
  /** The batch's decoded text: its strings, each followed by as many U+0000 as its gap has bytes. */
  batchText = "";
  /**
   * Four numbers a string of the batch: its start and end in the input, and in `batchText` (up to
   * the U+0000 after it). Made with the window's first batch.
   */
  pieces: Int32Array | null = null;
  count = 0;
  /** The next string to hand out. */
  next = 0;
  /** Where the batch's last string starts (-1: no batch). */
  lastStart = -1;
  /** Where the last lookahead stopped: strings before it are not looked for again. */
  walkedTo = -1;
  /** Where the last non-ASCII string the decoder asked for ended. */
  nonAsciiEnd: number = -Infinity;
}

/**
 * The batch's stretch of input with 0 in its gaps, and a 0 after it: scratch, written and decoded
 * within one `openBatch`, so it holds nothing of a decode between calls.
 */
const stretch = new Uint8Array(BATCH_BYTES + 1);
/** Batches made and lookaheads walked so far in this process (for tests). */
const counts = { batches: 0, lookaheads: 0 };

/**
 * Forgets the window and the batch: called whenever the decoder's input changes (the same bytes
 * may hold another message by the next call), and when a decode ends, so both can be collected.
 */
export function closeInputWindow(w: InputWindow): void {
  w.text = w.batchText = "";
  w.start =
    w.end =
    w.count =
    w.next =
      0;
  w.asciiEnd = w.nonAsciiEnd = -Infinity;
  w.lastStart = w.walkedTo = -1;
}

/**
 * `bytes[start, end)` (the decoder's input, `view` a DataView of it or null;
 * MIN_SLICED ≤ length ≤ MAX_SLICED, inside `bytes[0, limit)`) when it is all ASCII: a slice of
 * the current window, opening a window at `start` when the string lies outside the current one
 * and near the previous medium string, or a string of its own when it is not near one. `null`
 * when it is not ASCII (the caller decodes it as UTF-8).
 */
export function sliceAsciiString(
  w: InputWindow,
  bytes: Uint8Array,
  view: DataView | null,
  start: number,
  end: number,
  limit: number,
): string | null {
  if (!isAsciiIn(view, bytes, start, end)) return null;
  const previousEnd = w.asciiEnd;
  w.asciiEnd = end;
  if (start < w.start || end > w.end) {
    // a lone string: made on its own, except in a small input (no view), whose window covers
    // all the rest of it (under 512 bytes) for about the cost of the string's own call
    if (start - previousEnd > NEAR_BYTES && view !== null) {
      return latin1Slice!.call(bytes, start, end);
    }
    w.start = start;
    w.end = Math.min(limit, start + WINDOW_BYTES);
    w.text = latin1Slice!.call(bytes, start, w.end);
  }
  return w.text.slice(start - w.start, end - w.start);
}

/**
 * `bytes[start, end)` (the decoder's input, `view` a DataView of it, `limit` the end of its
 * data; MIN_SLICED ≤ length ≤ MAX_SLICED), which is not all ASCII, decoded as UTF-8: from the
 * current batch, or from a new one starting at it, or alone. `view` is null for an input without
 * one (a small input: see EAGER_VIEW_MIN_INPUT in `_core/thresholds.ts`), whose bytes are then read one
 * at a time. Call only where {@linkcode UTF8_BATCHES}.
 */
export function nonAsciiString(
  w: InputWindow,
  bytes: Uint8Array,
  view: DataView | null,
  start: number,
  end: number,
  limit: number,
): string {
  if (start <= w.lastStart) return batchedString(w, bytes, start, end);
  const near = start - w.nonAsciiEnd <= MAX_GAP;
  w.nonAsciiEnd = end;
  if (near && start >= w.walkedTo) {
    const text = openBatch(w, bytes, view, start, end, limit);
    if (text !== null) return text;
  }
  return decodeString(bytes, start, end);
}

/**
 * `bytes[start, end)` (the decoder's input, `view` a DataView of it or null; a long string: over
 * MAX_SLICED bytes) decoded as UTF-8: a slice of the open window when it lies inside it and is
 * ASCII, else from the current batch when it holds that string, else alone. A long string never
 * opens a window or a batch, but one that an open window already covers costs its ASCII test and
 * a slice instead of a call that copies it again, and a batch opened at a shorter string may
 * hold it. Call only where {@linkcode UTF8_BATCHES}.
 */
export function longString(
  w: InputWindow,
  bytes: Uint8Array,
  view: DataView | null,
  start: number,
  end: number,
): string {
  if (start >= w.start && end <= w.end && isAsciiIn(view, bytes, start, end)) {
    return w.text.slice(start - w.start, end - w.start);
  }
  return batchedString(w, bytes, start, end);
}

/** Batches made and lookaheads walked so far in this process (for tests). */
export function utf8BatchCounts(): { batches: number; lookaheads: number } {
  return { ...counts };
}

/**
 * `bytes[start, end)` (the decoder's input) decoded as UTF-8: from the current batch when it
 * holds that string (the same start and end), else alone.
 */
function batchedString(w: InputWindow, bytes: Uint8Array, start: number, end: number): string {
  if (start <= w.lastStart) {
    const pieces = w.pieces!;
    let i = w.next;
    while (i < w.count && pieces[4 * i] < start) i++;
    w.next = i;
    if (i < w.count && pieces[4 * i] === start && pieces[4 * i + 1] === end) {
      w.nonAsciiEnd = end;
      w.next = i + 1;
      return w.batchText.slice(pieces[4 * i + 2], pieces[4 * i + 3]);
    }
  }
  return decodeString(bytes, start, end);
}

/**
 * Collects the string at `start` and the non-ASCII strings of SHORTEST..LONGEST bytes after
 * it, decodes them in one call and returns the first; `null` when no other string was found or
 * one of them holds U+0000.
 */
function openBatch(
  w: InputWindow,
  bytes: Uint8Array,
  view: DataView | null,
  start: number,
  end: number,
  limit: number,
): string | null {
  counts.lookaheads++;
  const pieces = w.pieces ??= new Int32Array(4 * MAX_STRINGS);
  pieces[0] = start;
  pieces[1] = end;
  let found = 1;
  const walkEnd = Math.min(limit, end + LOOKAHEAD);
  let p = end;
  let lastEnd = end;
  while (p < walkEnd && p - lastEnd <= MAX_GAP) {
    const token = bytes[p];
    let at: number; // the string's first byte
    let length: number;
    if (token >= 0xa0 && token <= 0xbf) { // fixstr: the low five bits (a mask beats a table load)
      at = p + 1;
      length = token & 0x1f;
    } else if (token === 0xd9 || token === 0xda) { // str8, str16
      at = p + HEADER_SIZE[token];
      length = lengthAt(bytes, p);
    } else {
      const size = tokenSize(bytes, p);
      if (!(size > 0)) break; // a stop, or NaN: a length byte lies past the input
      p += size;
      continue;
    }
    if (!(at + length <= walkEnd)) break; // (also when a length byte lies past the input)
    if (length >= SHORTEST && length <= LONGEST && !isAsciiIn(view, bytes, at, at + length)) {
      // full: this string will be the next batch's first (the span also bounds the count)
      if (at + length - start > BATCH_BYTES) break;
      pieces[4 * found] = at;
      pieces[4 * found++ + 1] = lastEnd = at + length;
    }
    p = at + length;
  }
  w.walkedTo = p;
  if (found === 1) return null;
  // the stretch in one copy, then 0 over each gap (a store a byte: gaps between strings are mostly
  // a few bytes; long ones by one `fill`) and after the last string
  stretch.set(bytes.subarray(start, lastEnd));
  for (let i = 1; i < found; i++) {
    const gapStart = pieces[4 * i - 3] - start;
    const gapEnd = pieces[4 * i] - start;
    if (gapEnd - gapStart >= FILL_GAP) stretch.fill(0, gapStart, gapEnd);
    else for (let j = gapStart; j < gapEnd; j++) stretch[j] = 0;
  }
  stretch[lastEnd - start] = 0;
  const decoded = decodeStretch!(lastEnd - start + 1);
  if (!cutText(pieces, decoded, found)) return null; // a string holds U+0000: decode them alone
  w.batchText = decoded;
  w.count = found;
  w.next = 1;
  w.lastStart = pieces[4 * found - 4];
  counts.batches++;
  return decoded.slice(pieces[2], pieces[3]);
}

/**
 * Finds where each of a batch's `found` strings starts and ends in its decoded text (`pieces`
 * 4i + 2 and 4i + 3): each ends at the first U+0000 after its start, and the next starts as many
 * units later as the gap between them has bytes. False when a string holds U+0000: its end is
 * then found too early, and so is every later string's start and end (before each start lies a
 * zero of its gap, so the search from a start that came early stops early too); the last string
 * then does not end at the text's final U+0000.
 * One `indexOf` a string costs less than one `split` of the text (V8 makes its pieces one by one
 * in its runtime), and each string is sliced only when the decoder asks for it.
 */
function cutText(pieces: Int32Array, decoded: string, found: number): boolean {
  let pieceEnd = 0;
  for (let i = 0; i < 4 * found; i += 4) {
    const pieceStart = i === 0 ? 0 : pieceEnd + pieces[i] - pieces[i - 3];
    pieces[i + 2] = pieceStart;
    pieces[i + 3] = pieceEnd = decoded.indexOf("\0", pieceStart);
  }
  return pieceEnd === decoded.length - 1;
}
