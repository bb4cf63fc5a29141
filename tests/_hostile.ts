// Copyright 2026 the @x/msgpackr authors. MIT license.
// Helpers for the hostile-input tests: exact error expectations, heap measurement, builders of
// big crafted inputs, and the messages of a hostile load on the shared caches (also used by
// bench/hostile.ts).

import assert from "node:assert/strict";
import v8 from "node:v8";
import vm from "node:vm";
import { DecodeError, IncompleteDataError, pack, type Packr } from "../mod.ts";
import { heapBytes } from "../fuzz/_fuzz.ts";
import { concatBytes } from "../_core/bytes.ts";

/** The error a crafted input must produce. */
export interface ExpectedError {
  type: typeof DecodeError | typeof IncompleteDataError;
  /** A substring of the message. */
  message: string;
  offset: number;
  /** `missingBytes` of an IncompleteDataError (`undefined` = must be absent). */
  missingBytes?: number | undefined;
}

/** Runs `decode` and asserts it throws exactly the expected error; returns the time it took. */
export function assertDecodeError(
  decode: () => unknown,
  expected: ExpectedError,
  label: string,
): number {
  const started = performance.now();
  let caught: unknown;
  let value: unknown;
  try {
    value = decode();
  } catch (error) {
    caught = error;
  }
  const elapsed = performance.now() - started;
  if (caught === undefined) assert.fail(`${label}: decoded to ${String(value).slice(0, 80)}`);
  const name = caught instanceof Error ? caught.constructor.name : typeof caught;
  assert.ok(caught instanceof DecodeError, `${label}: threw ${name}: ${String(caught)}`);
  assert.equal(
    caught instanceof IncompleteDataError,
    expected.type === IncompleteDataError,
    `${label}: ${name}: ${caught.message}`,
  );
  assert.equal(caught.incomplete, expected.type === IncompleteDataError, label);
  assert.ok(
    caught.message.includes(expected.message),
    `${label}: message ${JSON.stringify(caught.message)} lacks ${JSON.stringify(expected.message)}`,
  );
  assert.match(caught.message, /\boffset \d+/, `${label}: the message says where`);
  assert.equal(caught.offset, expected.offset, `${label}: offset (${caught.message})`);
  if (expected.type === IncompleteDataError) {
    assert.equal(
      (caught as IncompleteDataError).missingBytes,
      expected.missingBytes,
      `${label}: missingBytes`,
    );
  }
  return elapsed;
}

/** Bytes from hex ("d4 72 40", spaces optional). */
export function bytesOf(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, "");
  const bytes = new Uint8Array(clean.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** `unit` repeated to fill `size` bytes (after `prefix`), then `suffix`. */
export function repeated(
  unit: readonly number[],
  size: number,
  prefix: readonly number[] = [],
  suffix: readonly number[] = [],
): Uint8Array {
  const count = Math.floor((size - prefix.length - suffix.length) / unit.length);
  const bytes = new Uint8Array(prefix.length + count * unit.length + suffix.length);
  bytes.set(prefix);
  for (let i = 0; i < count; i++) bytes.set(unit, prefix.length + i * unit.length);
  bytes.set(suffix, prefix.length + count * unit.length);
  return bytes;
}

/** An array32 header for `count` elements. */
export function array32(count: number): number[] {
  return [0xdd, count >>> 24, (count >> 16) & 0xff, (count >> 8) & 0xff, count & 0xff];
}

/** A fixstr, str8 or str16 of the UTF-8 of `text`. */
export function str(text: string): number[] {
  const bytes = [...new TextEncoder().encode(text)];
  if (bytes.length < 32) return [0xa0 | bytes.length, ...bytes];
  if (bytes.length < 256) return [0xd9, bytes.length, ...bytes];
  return [0xda, bytes.length >> 8, bytes.length & 0xff, ...bytes];
}

/**
 * A value that is a DAG `depth` levels deep through structured-clone references: level k is
 * `[level k-1, level k-1]`, written once with ext "i" and then pointed to with ext "p". Small
 * (19 bytes per level) but 2^depth nodes when walked as a tree.
 */
export function referenceDag(depth: number): number[] {
  let bytes = [0xd6, 0x69, 0, 0, 0, 1, 0x92, 0xc0, 0xc0];
  for (let level = 2; level <= depth; level++) {
    bytes = [
      0xd6,
      0x69,
      0,
      0,
      level >> 8,
      level & 0xff,
      0x92,
      ...bytes,
      0xd6,
      0x70,
      0,
      0,
      (level - 1) >> 8,
      (level - 1) & 0xff,
    ];
  }
  return bytes;
}

let collector: (() => void) | null | undefined;

/** A full garbage collection when the runtime offers one (Bun.gc, or V8's gc via node:v8). */
export function collectGarbage(): void {
  if (collector === undefined) {
    collector = null;
    const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
    if (bun !== undefined) {
      collector = () => bun.gc(true);
    } else {
      try {
        v8.setFlagsFromString("--expose-gc");
        collector = vm.runInNewContext("gc") as () => void;
      } catch {
        collector = null;
      }
    }
  }
  collector?.();
}

/**
 * Heap growth caused by `action`: `peak` just after it returns (also counting garbage not yet
 * collected; a lower bound of the true peak), and, with `retained`, after a full collection with
 * the result still referenced (what the decoded value keeps). Full collections take a while on a
 * big heap, so `peak` alone skips them.
 */
export function measureHeap(
  action: () => unknown,
  retained = false,
): { peak: number; retained: number } {
  if (retained) collectGarbage();
  const before = heapBytes();
  holder.value = action();
  const peak = heapBytes() - before;
  let kept = Number.NaN;
  if (retained) {
    collectGarbage();
    kept = heapBytes() - before;
  }
  holder.value = null;
  return { peak, retained: kept };
}

/** Keeps a measured result alive until it has been measured. */
const holder: { value: unknown } = { value: null };

// ---- a hostile load on the caches every decoder shares ------------------------------------------

/** A key longer than the shape trees keep (300 units). */
export const LONG_KEY = "k".repeat(300);

/**
 * Hostile message `n` for a decoder that generates readers: record shapes never seen before, each
 * read often enough to earn a generated reader (one of them with long keys), and new map key sets
 * (one with a long key), each repeated to earn a builder. Records are packed by `packr`, maps by
 * `pack`: two values, for `unpackMultiple`.
 */
export function compilingLoadMessage(n: number, packr: Packr): Uint8Array {
  const records: unknown[] = [];
  for (let shape = 0; shape < 3; shape++) {
    for (let copy = 0; copy < 4; copy++) {
      records.push({ [`r${n}_${shape}a`]: copy, [`r${n}_${shape}b`]: "x" });
    }
  }
  for (let copy = 0; copy < 4; copy++) {
    records.push({ [`${LONG_KEY}${n}a`]: 1, [`${LONG_KEY}${n}b`]: 2 });
  }
  const maps: unknown[] = [];
  for (let shape = 0; shape < 2; shape++) {
    for (let copy = 0; copy < 5; copy++) {
      maps.push({ [`m${n}_${shape}a`]: copy, [`m${n}_${shape}b`]: 1 });
    }
  }
  for (let copy = 0; copy < 5; copy++) maps.push({ [`${LONG_KEY}${n}`]: copy, short: 1 });
  return concatBytes([packr.pack(records), pack(maps)]);
}

/**
 * Hostile message `n` for a decoder that does not generate readers: more new record shapes than
 * the builder pool has builders, each read four times (which earns a pooled builder), in two
 * values of up to 60 shapes (a message defines at most 64), then new map key sets.
 */
export function poolingLoadMessage(n: number, packr: Packr): Uint8Array {
  const records: unknown[] = [];
  for (let shape = 0; shape < 70; shape++) {
    for (let copy = 0; copy < 4; copy++) {
      records.push({ [`p${n}_${shape}`]: copy, [`q${shape}`]: 0 });
    }
  }
  const maps: unknown[] = [];
  for (let copy = 0; copy < 5; copy++) maps.push({ [`n${n}a`]: copy, [`n${n}b`]: 1 });
  return concatBytes([
    packr.pack(records.slice(0, 240)),
    packr.pack(records.slice(240)),
    pack(maps),
  ]);
}

/**
 * Body `n` of a load of new shapes, as a server decodes bodies from many clients: 32 objects,
 * each with three keys never seen before (from `random`), for `unpack(pack(body))` and
 * `new Unpackr().unpack(new Packr().pack(body))`. Engines keep the hidden classes of such objects
 * until a full collection; this library must not slow down on new shapes meanwhile.
 */
export function newShapesBody(random: () => number): Record<string, number>[] {
  return Array.from({ length: 32 }, () => {
    const object: Record<string, number> = {};
    for (let key = 0; key < 3; key++) {
      object[`k${Math.floor(random() * 2 ** 31).toString(36)}`] = key;
    }
    return object;
  });
}
