// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// `_strings/latin1_window.ts` as browsers get it (package.json "browser" maps the npm build's
// module to this one): browsers have no `latin1Slice`, so there the window is never opened and
// strings go to the decoder's other paths. Same exports, with the window off.

/** Browsers have no `Buffer.prototype.latin1Slice`. */
export const latin1Slice: null = null;

/** Shortest string a window would take (kept for the decoder's range test). */
export { MIN_SLICED } from "../_core/thresholds.ts";
/** No string is taken from a window here. */
export const MAX_SLICED = 0;

/**
 * Never called here (`MAX_SLICED` is 0).
 *
 * @returns `null`.
 */
export function sliceAsciiString(
  _bytes: Uint8Array,
  _view: DataView | null,
  _start: number,
  _end: number,
  _limit: number,
): string | null {
  return null;
}

/**
 * No window is ever open here.
 *
 * @returns `null`.
 */
export function sliceLongFromWindow(
  _bytes: Uint8Array,
  _view: DataView | null,
  _start: number,
  _end: number,
): string | null {
  return null;
}

/** Nothing to close here. */
export function closeLatin1Window(): void {}
