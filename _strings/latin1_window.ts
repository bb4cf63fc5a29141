// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { isAsciiIn, type SliceMethod } from "./utf8.ts";
import {
  MAX_SLICED_WITH_LATIN1,
  MIN_SLICED,
  NEAR_BYTES,
  WINDOW_BYTES,
} from "../_core/thresholds.ts";

// Medium-length ASCII strings sliced out of a Latin-1 window of the input.
//
// Making a string from bytes costs a call into the runtime (`utf8Slice` / `latin1Slice`, about
// the same whatever the length up to a few hundred bytes), while slicing a string that already
// exists is an engine builtin, several times cheaper, that shares the characters instead of
// copying them (V8: slices of 13 characters or more; JavaScriptCore: all). msgpackr's native
// addon does the same: it makes the strings of a stretch of input as one Latin-1 string and its
// JavaScript slices them. Here `sliceAsciiString` turns up to WINDOW_BYTES of the input, from a
// string that needs it, into one Latin-1 string with one `latin1Slice` call, and slices the
// following ASCII strings out of it while they lie inside (ASCII reads the same in Latin-1 and
// UTF-8; the headers and other values between them are in the window too, and never read). A
// window costs about two calls' worth (the call and the copy), so one is opened only for a
// string that comes within NEAR_BYTES of the previous medium string: a lone one is made on its
// own (a window for each of a few strings scattered through the input costs more than it saves).
//
// A window's call costs mostly a fixed amount, whatever its length up to a few KiB, so an open
// window reaches WINDOW_BYTES, four times NEAR_BYTES: a large payload takes a few large windows
// instead of many small ones.
// Chosen by measurement: npm run bench:paired:deno / :bun (sample-large.json, 1,000 log events).
//
// The cost of sharing: a kept slice keeps its window alive, so a string of 13..MAX_SLICED bytes
// kept after the decode can keep up to WINDOW_BYTES of Latin-1 text in memory (msgpackr's blocks
// reach 6,000 bytes), never the input itself. Longer strings are made on their own, unless an open
// window covers them (`sliceLongFromWindow`).

const bufferMethods = (globalThis as { Buffer?: { prototype: { latin1Slice?: unknown } } }).Buffer
  ?.prototype;
/** `Buffer.prototype.latin1Slice` where the runtime has it (Deno, Bun, Node), else `null`. */
export const latin1Slice: SliceMethod | null = typeof bufferMethods?.latin1Slice === "function"
  ? bufferMethods.latin1Slice as SliceMethod
  : null;

export { MIN_SLICED };
/** Longest string taken from a window; 0 where there is no `latin1Slice` (browsers). */
export const MAX_SLICED: number = latin1Slice !== null ? MAX_SLICED_WITH_LATIN1 : 0;

// The window is of the decoder's current input: the decoder closes it whenever its input
// changes (a decode starting, one inside it, and its end).
let windowText = "";
let windowStart = 0;
let windowEnd = 0;
/** Where the last ASCII medium string ended (-Infinity: none since the window was closed). */
let lastEnd = -Infinity;

/**
 * `bytes[start, end)` (the decoder's input, `view` a DataView of it or null;
 * MIN_SLICED ≤ length ≤ MAX_SLICED, inside `bytes[0, limit)`) when it is all ASCII: a slice of
 * the current window, opening a window at `start` when the string lies outside the current one
 * and near the previous medium string, or a string of its own when it is not near one. `null`
 * when it is not ASCII (the caller decodes it as UTF-8).
 */
export function sliceAsciiString(
  bytes: Uint8Array,
  view: DataView | null,
  start: number,
  end: number,
  limit: number,
): string | null {
  if (!isAsciiIn(view, bytes, start, end)) return null;
  const previousEnd = lastEnd;
  lastEnd = end;
  if (start < windowStart || end > windowEnd) {
    // a lone string: made on its own, except in a small input (no view), whose window covers
    // all the rest of it (under 512 bytes) for about the cost of the string's own call
    if (start - previousEnd > NEAR_BYTES && view !== null) {
      return latin1Slice!.call(bytes, start, end);
    }
    windowStart = start;
    windowEnd = Math.min(limit, start + WINDOW_BYTES);
    windowText = latin1Slice!.call(bytes, start, windowEnd);
  }
  return windowText.slice(start - windowStart, end - windowStart);
}

/**
 * `bytes[start, end)` (a long string: over MAX_SLICED bytes; `view` a DataView of `bytes` or null)
 * as a slice of the open window when it lies inside it and is ASCII, else `null`. A long string
 * never opens a window, but one that an open window already covers costs its ASCII test and a
 * slice instead of a call that copies it again.
 * Keeping the slice keeps the window alive, which is at most WINDOW_BYTES, as for medium strings.
 */
export function sliceLongFromWindow(
  bytes: Uint8Array,
  view: DataView | null,
  start: number,
  end: number,
): string | null {
  if (start < windowStart || end > windowEnd || !isAsciiIn(view, bytes, start, end)) return null;
  return windowText.slice(start - windowStart, end - windowStart);
}

/**
 * Forgets the window: called whenever the decoder's input changes (the same bytes may hold
 * another message by the next call), and when a decode ends, so the window can be collected.
 */
export function closeLatin1Window(): void {
  windowText = "";
  windowStart = windowEnd = 0;
  lastEnd = -Infinity;
}
