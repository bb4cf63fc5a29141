// Copyright 2026 the @x/msgpackr authors. MIT license.
// Helpers for the structured clone, moreTypes, extension, bundle and bigint tests.

import * as msgpackr from "msgpackr";
import { Packr, Unpackr } from "../mod.ts";
import type { PackrOptions } from "../mod.ts";
import { concatBytes as concat } from "../_core/bytes.ts";
import { hex, random } from "./_util.ts";

export { concat, random };

/**
 * Packs `value` with our Packr and with msgpackr's Packr, each built from a fresh copy of
 * `options` (msgpackr writes `mapsAsObjects` into the options object it is given).
 */
export function packBoth(
  value: unknown,
  options: PackrOptions = {},
): { ours: Uint8Array; theirs: Uint8Array } {
  const ours = new Packr({ ...options }).pack(value);
  // deno-lint-ignore no-explicit-any
  const theirs = new Uint8Array(new msgpackr.Packr({ ...options } as any).pack(value));
  return { ours, theirs };
}

/** Our bytes for `value`, after asserting that msgpackr writes the same bytes. */
export function sameBytes(value: unknown, options: PackrOptions = {}): string {
  const { ours, theirs } = packBoth(value, options);
  if (hex(ours) !== hex(theirs)) {
    throw new Error(
      `msgpackr writes different bytes:\n  ours:     ${hex(ours)}\n  msgpackr: ${hex(theirs)}`,
    );
  }
  return hex(ours);
}

/** Decodes with our Unpackr built from a fresh copy of `options`. */
// deno-lint-ignore no-explicit-any
export function ourUnpack(bytes: Uint8Array, options: PackrOptions = {}): any {
  return new Unpackr({ ...options }).unpack(bytes);
}

/** Decodes with msgpackr's Unpackr built from a fresh copy of `options`. */
// deno-lint-ignore no-explicit-any
export function theirUnpack(bytes: Uint8Array, options: PackrOptions = {}): any {
  // deno-lint-ignore no-explicit-any
  return new msgpackr.Unpackr({ ...options } as any).unpack(bytes);
}

/** A copy of the bytes as a plain Uint8Array, for deepEqual against decoded bins and Buffers. */
export function bytesOf(value: unknown): number[] {
  return Array.from(value as Uint8Array);
}
