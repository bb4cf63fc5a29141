// Copyright 2026 the @x/msgpackr authors. MIT license.
// Helpers for the structured clone, moreTypes, extension, bundle and bigint tests.

import * as msgpackr from "msgpackr";
import { Packr, Unpackr } from "../mod.ts";
import type { PackrOptions } from "../mod.ts";
import { hex } from "./_util.ts";

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

/** The bytes of several messages one after another. */
export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Small deterministic PRNG (mulberry32). */
export function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A copy of the bytes as a plain Uint8Array, for deepEqual against decoded bins and Buffers. */
export function bytesOf(value: unknown): number[] {
  return Array.from(value as Uint8Array);
}
