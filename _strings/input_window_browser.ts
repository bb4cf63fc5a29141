// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// `_strings/input_window.ts` as browsers get it (package.json "browser" maps the npm build's
// module to this one): browsers have no `latin1Slice` nor `utf8Slice`, so there no window is
// opened and no batch made, and every string goes to the decoder's other paths or is decoded on
// its own. Same exports, with both mechanisms off.

import { decodeString } from "./utf8.ts";

/** Browsers have no `Buffer.prototype.latin1Slice`. */
export const latin1Slice: null = null;
/** Browsers have no `Buffer.prototype.utf8Slice`. */
export const utf8Slice: null = null;

/** No string is taken from a window here. */
export const MAX_SLICED = 0;
/** No batches here. */
export const UTF8_BATCHES = false;

/** A window that holds nothing: no window is opened here. */
export class InputWindow {}

/** Nothing to close here. */
export function closeInputWindow(_w: InputWindow): void {}

/**
 * Never called here (`MAX_SLICED` is 0).
 *
 * @returns `null`.
 */
export function sliceAsciiString(
  _w: InputWindow,
  _bytes: Uint8Array,
  _view: DataView | null,
  _start: number,
  _end: number,
  _limit: number,
): string | null {
  return null;
}

/**
 * Never called here (`UTF8_BATCHES` is false): the string alone.
 *
 * @returns The decoded string.
 */
export function nonAsciiString(
  _w: InputWindow,
  bytes: Uint8Array,
  _view: DataView | null,
  start: number,
  end: number,
  _limit: number,
): string {
  return decodeString(bytes, start, end);
}

/**
 * Never called here (`UTF8_BATCHES` is false): the string alone.
 *
 * @returns The decoded string.
 */
export function longString(
  _w: InputWindow,
  bytes: Uint8Array,
  _view: DataView | null,
  start: number,
  end: number,
): string {
  return decodeString(bytes, start, end);
}

/**
 * No batches are made here.
 *
 * @returns Zero counts.
 */
export function utf8BatchCounts(): { batches: number; lookaheads: number } {
  return { batches: 0, lookaheads: 0 };
}
