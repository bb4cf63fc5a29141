// Copyright 2026 the @x/msgpackr authors. MIT license.
// Helpers for comparing with npm msgpackr.

import * as msgpackr from "msgpackr";

/**
 * `value` with every byte view (msgpackr returns Node Buffers for bin) replaced by a plain
 * Uint8Array copy, recursively through arrays, Maps, Sets and plain objects, so that
 * `assert.deepEqual` compares contents and not classes.
 */
export function withPlainBytes(value: unknown): unknown {
  if (value instanceof Uint8Array) return new Uint8Array(value);
  if (Array.isArray(value)) return value.map(withPlainBytes);
  if (value instanceof Map) {
    return new Map([...value].map(([key, item]) => [withPlainBytes(key), withPlainBytes(item)]));
  }
  if (value instanceof Set) return new Set([...value].map(withPlainBytes));
  if (value !== null && typeof value === "object") {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return value;
    const copy: Record<string, unknown> = prototype === null ? Object.create(null) : {};
    for (const key of Object.keys(value)) {
      copy[key] = withPlainBytes((value as Record<string, unknown>)[key]);
    }
    return copy;
  }
  return value;
}

/** A msgpackr Packr with options its type declarations may not list (skipValues, "auto"…). */
export function theirPackr(options: Record<string, unknown>): msgpackr.Packr {
  return new msgpackr.Packr(options as msgpackr.Options);
}

/** A msgpackr Unpackr with options its type declarations may not list. */
export function theirUnpackr(options: Record<string, unknown>): msgpackr.Unpackr {
  return new msgpackr.Unpackr(options as msgpackr.Options);
}

/** What {@linkcode comparable} turns a Map into: its entries, in order, as a tagged class. */
export class MapEntries {
  constructor(readonly entries: [unknown, unknown][]) {}
}

/**
 * {@linkcode withPlainBytes}, and every Map replaced by its entries ({@linkcode MapEntries}).
 * Bun's `assert.deepEqual` takes time exponential in the nesting depth of Maps (a Map of a Map
 * 20 levels deep takes ~0.2 s, 200 levels never finishes), so decoded Maps are compared this way.
 * Entry order then matters, which is stricter.
 */
export function comparable(value: unknown): unknown {
  if (value instanceof Map) {
    return new MapEntries([...value].map(([key, item]) => [comparable(key), comparable(item)]));
  }
  if (value instanceof Uint8Array) return new Uint8Array(value);
  if (Array.isArray(value)) return value.map(comparable);
  if (value instanceof Set) return new Set([...value].map(comparable));
  if (value !== null && typeof value === "object") {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return value;
    const copy: Record<string, unknown> = prototype === null ? Object.create(null) : {};
    for (const key of Object.keys(value)) {
      copy[key] = comparable((value as Record<string, unknown>)[key]);
    }
    return copy;
  }
  return value;
}
