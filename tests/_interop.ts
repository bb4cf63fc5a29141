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

/**
 * `value` with every string made well-formed (`toWellFormed`: an unpaired surrogate becomes
 * U+FFFD, the UTF-16 length stays), recursively through arrays, Maps (keys and values), Sets,
 * Errors (name, message, cause) and plain objects (keys and values); other objects are kept as
 * they are. Our encoder writes a lone
 * surrogate as U+FFFD where msgpackr writes it in its 3-byte WTF-8 form (under 64 units), the one
 * documented difference between their strings (docs/migrating-from-msgpackr.md): our bytes for
 * `value` are msgpackr's bytes for this copy. Throws when two keys of one object or Map become
 * the same key (the copy would have fewer entries than the bytes).
 */
export function withWellFormedStrings(value: unknown): unknown {
  return wellFormedCopy(value, new Map());
}

function wellFormedCopy(value: unknown, memo: Map<object, unknown>): unknown {
  if (typeof value === "string") return value.toWellFormed();
  if (value === null || typeof value !== "object") return value;
  if (memo.has(value)) return memo.get(value);
  const copy = (item: unknown) => wellFormedCopy(item, memo);
  if (Array.isArray(value) && value.constructor === Array) {
    const array: unknown[] = [];
    memo.set(value, array);
    for (const item of value) array.push(copy(item));
    return array;
  }
  if (value.constructor === Map) {
    const map = new Map();
    memo.set(value, map);
    for (const [key, item] of value as Map<unknown, unknown>) map.set(copy(key), copy(item));
    if (map.size !== (value as Map<unknown, unknown>).size) {
      throw new Error("two keys of a Map differ only in lone surrogates");
    }
    return map;
  }
  if (value.constructor === Set) {
    const set = new Set();
    memo.set(value, set);
    for (const item of value as Set<unknown>) set.add(copy(item));
    return set;
  }
  if (value instanceof Error) {
    // what both encoders write of it: name, message and cause
    const error = Object.create(Object.getPrototypeOf(value));
    memo.set(value, error);
    for (const key of ["name", "message", "cause"] as const) {
      if (Object.hasOwn(value, key)) error[key] = copy(value[key]);
    }
    return error;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  const object: Record<string, unknown> = {};
  memo.set(value, object);
  const keys = Object.keys(value);
  for (const key of keys) {
    Object.defineProperty(object, key.toWellFormed(), {
      value: copy((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  if (Object.keys(object).length !== keys.length) {
    throw new Error("two keys of an object differ only in lone surrogates");
  }
  return object;
}

/** msgpackr's bytes for `value` with its strings made well-formed ({@linkcode withWellFormedStrings}). */
export function theirBytesOf(
  packr: { pack(value: unknown): Uint8Array },
  value: unknown,
): Uint8Array {
  return new Uint8Array(packr.pack(withWellFormedStrings(value)));
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
