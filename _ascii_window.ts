// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Fast strings without native code. Creating a JavaScript string from bytes one by one costs
// tens of nanoseconds per character; a `TextDecoder` call costs ~100 ns before it reads a byte.
// Instead we decode a window of the input once as windows-1252, a single-byte encoding (byte i
// is character i), and slice each ASCII string out of it: ASCII is identical in windows-1252
// and UTF-8, so the slice is the exact string. Callers check that the bytes are ASCII.
//
// Engines may keep a slice as a view of the window's text, so a long-lived string can keep its
// window (at most WINDOW_BYTES, or the string itself when longer) alive.

const latin1 = new TextDecoder("windows-1252");

/** Bytes decoded per window: large enough to amortise the call, small enough to bound waste. */
export const WINDOW_BYTES = 4096;

let windowSource: Uint8Array | null = null;
let windowStart = 0;
let windowEnd = 0;
let windowText = "";

/** Forgets the window (a new decode starts; the same bytes object may hold new content). */
export function resetAsciiWindow(): void {
  windowSource = null;
  windowText = "";
  windowStart = windowEnd = 0;
}

/**
 * The string of the ASCII bytes `bytes[start, end)`, decoding a new window (never past `limit`)
 * when the current one does not cover them.
 */
export function sliceAscii(bytes: Uint8Array, start: number, end: number, limit: number): string {
  if (bytes !== windowSource || start < windowStart || end > windowEnd) {
    windowSource = bytes;
    windowStart = start;
    windowEnd = Math.min(limit, start + (end - start > WINDOW_BYTES ? end - start : WINDOW_BYTES));
    windowText = latin1.decode(bytes.subarray(windowStart, windowEnd));
  }
  return windowText.slice(start - windowStart, end - windowStart);
}
