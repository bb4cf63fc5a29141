// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The exported decoding functions (`unpack`, `unpackMultiple`), which decode with a context of
// their own and no class around it, and what they share with `Unpackr`: the input types and the
// window and sequence helpers. A program that only unpacks ships no `Unpackr` class.

import { createRecordTable, decodeMany, decodeOne, forgetLastSource } from "./decoder.ts";
import type { DecodeContext } from "./context.ts";
import type { DECODER, OptionName, ResolvedOptions } from "../_core/option_table.ts";
import { contextObject } from "../_core/context_object.ts";
import { registeredExtensions } from "../_core/registered_extensions.ts";
import { toBytes } from "../_core/bytes.ts";

/**
 * Where in the input `unpack` reads: an end offset, or a `{ start, end }` window.
 * @example Usage
 * ```ts
 * import { unpack, type UnpackWindow } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const bytes = new Uint8Array([0x01, 0x02, 0x03]);
 * const window: UnpackWindow = { start: 1, end: 2 };
 * assert.equal(unpack(bytes, window), 2);
 * assert.equal(unpack(bytes, 1), 1); // an end offset
 * ```
 */
export type UnpackWindow = number | { start?: number; end?: number };

/**
 * msgpackr's name for {@linkcode UnpackWindow}: the second argument of `unpack`.
 * @example Usage
 * ```ts
 * import { unpack, type UnpackOptions } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const options: UnpackOptions = { start: 1 };
 * assert.equal(unpack(new Uint8Array([0x01, 0x02]), options), 2);
 * ```
 */
export type UnpackOptions = UnpackWindow;

/**
 * Input accepted by every decoder: bytes in any view, or an ArrayBuffer.
 * @example Usage
 * ```ts
 * import { type MessagePackSource, unpack } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const sources: MessagePackSource[] = [
 *   new Uint8Array([0x2a]),
 *   new Uint8Array([0x2a]).buffer,
 *   new DataView(new Uint8Array([0x2a]).buffer),
 * ];
 * for (const source of sources) assert.equal(unpack(source), 42);
 * ```
 */
export type MessagePackSource = Uint8Array | ArrayBufferView | ArrayBuffer;

/** Called by `unpackMultiple` with each value and its byte range. */
// deno-lint-ignore no-explicit-any
export type ForEach = (value: any, start: number, end: number) => unknown;

/** `unpack` of the decoder whose context is `context`. */
export function unpackWindow(
  context: DecodeContext,
  source: MessagePackSource,
  window: UnpackWindow | undefined,
): unknown {
  const bytes = toBytes(source);
  let start = 0;
  let end = bytes.length;
  if (typeof window === "number") {
    // an end offset; a negative one means the whole input, as in msgpackr
    if (window >= 0) end = checkedOffset(window, end, "end");
  } else if (window) {
    if (window.end !== undefined) end = checkedOffset(window.end, end, "end");
    if (window.start !== undefined) start = checkedOffset(window.start, end, "start");
  }
  return decodeOne(context, bytes, start, end);
}

/** `unpackMultiple` of the decoder whose context is `context`. */
export function unpackMany(
  context: DecodeContext,
  source: MessagePackSource,
  forEach?: ForEach,
  // deno-lint-ignore no-explicit-any
): any {
  const bytes = toBytes(source);
  return decodeMany(context, bytes, 0, bytes.length, forEach);
}

/** A window offset: an integer from 0 to `limit` (larger ends are clamped, as in msgpackr). */
function checkedOffset(offset: number, limit: number, name: string): number {
  if (!Number.isInteger(offset) || offset < 0) {
    throw new RangeError(`Cannot unpack with ${name} ${offset}: expected an integer offset >= 0`);
  }
  return Math.min(offset, limit);
}

/**
 * Forgets the last input the decoder still holds a reference to (the array whose DataView it keeps
 * for a next decode of the same array), so that it can be collected, as msgpackr's `clearSource`.
 * Decoding never needs it: call it when a large input decoded last should not stay alive.
 *
 * @example Usage
 * ```ts
 * import { clearSource, unpack } from "@x/msgpackr/unpack";
 * import assert from "node:assert/strict";
 *
 * assert.equal(unpack(new Uint8Array([0xa1, 0x61])), "a");
 * clearSource();
 * assert.equal(unpack(new Uint8Array([0xa1, 0x62])), "b");
 * ```
 */
export function clearSource(): void {
  forgetLastSource();
}

/** The options of the exported `unpack`: `useRecords: false`, so maps decode as objects. */
const defaultOptions: ResolvedOptions<typeof DECODER> = {
  useRecords: false,
  mapsAsObjects: true,
  structures: undefined,
  getStructures: undefined,
  sequential: false,
  trusted: false,
  maxSharedStructures: 0,
  useFloat32: 0,
  int64AsType: "bigint",
  timestamps: "date",
  int64AsNumber: false,
  copyBuffers: false,
  structuredClone: undefined,
  plainDataOnly: false,
  freezeData: false,
  allowArraysInMapKeys: false,
  fatal: false,
  maxDepth: 1000,
  compileRecordReaders: true,
};

/**
 * The context of the exported `unpack`: what `createDecodeContext({ useRecords: false })` makes,
 * written out so that a program that only unpacks ships neither the option table nor the readers
 * only options reach (tests/default_context_test.ts compares the two).
 */
export const defaultContext: DecodeContext = contextObject(
  defaultOptions,
  {
    int64: 0,
    exactTimestamps: false,
    roundFloat32: false,
    disabledExtensions: 0,
    keepDefinitions: false,
    persistInMultiple: false,
    records: createRecordTable(null, null, false),
    extensions: registeredExtensions,
    readTimestamp: null,
  } satisfies Omit<DecodeContext, OptionName<typeof DECODER>>,
);

/**
 * `false`: the exported `pack` writes objects as maps, not records (msgpackr exports this
 * constant from its main entry). A `Packr` writes records unless told `useRecords: false`.
 * @example Usage
 * ```ts
 * import { pack, useRecords } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * assert.equal(useRecords, false);
 * assert.deepEqual([...pack({ a: 1 })], [0xde, 0x00, 0x01, 0xa1, 0x61, 0x01]); // a map16
 * ```
 */
export const useRecords: false = false;

/**
 * `true`: the exported `unpack` decodes maps as plain objects (msgpackr exports this constant
 * from its main entry). An `Unpackr` gives `Map`s unless told `mapsAsObjects: true` (or
 * `useRecords: false`).
 * @example Usage
 * ```ts
 * import { mapsAsObjects, unpack } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * assert.equal(mapsAsObjects, true);
 * assert.deepEqual(unpack(new Uint8Array([0x81, 0xa1, 0x61, 0x01])), { a: 1 });
 * ```
 */
export const mapsAsObjects: true = true;

/**
 * Decodes one MessagePack value: maps become plain objects, 64-bit integers bigints, binary
 * values views of the input; records and msgpackr's extensions are understood.
 *
 * @param source The bytes (any ArrayBufferView, or an ArrayBuffer).
 * @param window An end offset, or `{ start, end }`, to decode part of `source`.
 * @returns The decoded value.
 *
 * @example Usage
 * ```ts
 * import { unpack } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(unpack(new Uint8Array([0x81, 0xa1, 0x61, 0x01])), { a: 1 });
 * ```
 */
// deno-lint-ignore no-explicit-any
export function unpack<T = any>(source: MessagePackSource, window?: UnpackWindow): T {
  return unpackWindow(defaultContext, source, window) as T;
}

/**
 * Alias of {@linkcode unpack} (the same function).
 *
 * @example Usage
 * ```ts
 * import { decode } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * assert.equal(decode(new Uint8Array([0x2a])), 42);
 * ```
 */
export const decode: typeof unpack = unpack;

/**
 * Decodes every value of a byte sequence; see {@linkcode Unpackr.unpackMultiple}. It decodes as
 * {@linkcode unpack} does: maps as plain objects, 64-bit integers as bigints. For a producer that
 * is not msgpackr (a Go or Python service), whose 64-bit integers are ordinary numbers, use
 * `new Unpackr({ mapsAsObjects: true, int64AsType: "auto" }).unpackMultiple(bytes)`: numbers
 * when they are safe integers, bigints beyond.
 *
 * @param source The bytes.
 * @returns The values.
 *
 * @example Usage
 * ```ts
 * import { unpackMultiple } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(unpackMultiple(new Uint8Array([1, 2, 0xa1, 0x78])), [1, 2, "x"]);
 * ```
 *
 * @example From a service that is not msgpackr (Go, Python)
 * ```ts
 * import { unpackMultiple, Unpackr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * // two values as a Go service packs struct { ID int64 `msgpack:"id"` }: maps, int64s
 * const bytes = new Uint8Array([
 *   ...[0x81, 0xa2, 0x69, 0x64, 0xd3, 0, 0, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x7b],
 *   ...[0x81, 0xa2, 0x69, 0x64, 0xd3, 0, 0, 0, 0, 0, 0, 0, 0x02],
 * ]);
 * const unpackr = new Unpackr({ mapsAsObjects: true, int64AsType: "auto" });
 * assert.deepEqual(unpackr.unpackMultiple(bytes), [{ id: 1700000000123 }, { id: 2 }]);
 * // the default: bigints
 * assert.deepEqual(unpackMultiple(bytes), [{ id: 1700000000123n }, { id: 2n }]);
 * ```
 */
// deno-lint-ignore no-explicit-any
export function unpackMultiple(source: MessagePackSource): any[];
/**
 * Calls `forEach(value, start, end)` for every value of a byte sequence, stopping early when it
 * returns `false`.
 *
 * @param source The bytes.
 * @param forEach Called with each value and its byte range.
 */
export function unpackMultiple(
  source: MessagePackSource,
  // deno-lint-ignore no-explicit-any
  forEach: (value: any, start: number, end: number) => unknown,
): void;
export function unpackMultiple(
  source: MessagePackSource,
  // deno-lint-ignore no-explicit-any
  forEach?: (value: any, start: number, end: number) => unknown,
  // deno-lint-ignore no-explicit-any
): any[] | void {
  return unpackMany(defaultContext, source, forEach);
}

/**
 * Always `false`: this library is pure TypeScript, with no native addon (msgpackr's flag for its
 * optional `msgpackr-extract` addon).
 * @example Usage
 * ```ts
 * import { isNativeAccelerationEnabled } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isNativeAccelerationEnabled, false);
 * ```
 */
export const isNativeAccelerationEnabled: boolean = false;
