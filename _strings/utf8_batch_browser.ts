// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// `_strings/utf8_batch.ts` as browsers get it (package.json "browser" maps the npm build's module
// to this one): batches are made on Bun and Deno only, so in browsers every string is decoded on
// its own. Same exports, with batches off.

import { decodeString } from "./utf8.ts";

/** Browsers have no `Buffer.prototype.utf8Slice`. */
export const utf8Slice: null = null;

/** No batches here. */
export const UTF8_BATCHES = false;

/**
 * Never called here (`UTF8_BATCHES` is false): the string alone.
 *
 * @returns The decoded string.
 */
export function nonAsciiString(
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
export function batchedString(bytes: Uint8Array, start: number, end: number): string {
  return decodeString(bytes, start, end);
}

/** Nothing to close here. */
export function closeUtf8Batch(): void {}

/**
 * No batches are made here.
 *
 * @returns Zero counts.
 */
export function utf8BatchCounts(): { batches: number; lookaheads: number } {
  return { batches: 0, lookaheads: 0 };
}
