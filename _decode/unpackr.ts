// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import {
  createRecordTable,
  type DecodeContext,
  decodeMany,
  decodeOne,
  type Int64Mode,
} from "./decoder.ts";
import { type Extension, ExtensionRegistry, globalExtensions } from "../_core/extensions.ts";
import type { UnpackrOptions } from "../_core/options.ts";
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

/** Decoding defaults used when no option says otherwise. */
export const DEFAULT_MAX_DEPTH = 1000;

const INT64_MODES: Record<string, Int64Mode> = { bigint: 0, number: 1, string: 2, auto: 3 };

let contextOf: (unpackr: Unpackr) => DecodeContext;
let setExtensions: (unpackr: Unpackr, registry: ExtensionRegistry) => void;

/**
 * A MessagePack decoder with msgpackr's extensions: records (shared or inline structures),
 * structured clone references, string bundles, typed arrays and the other extension types of
 * msgpackr's format (docs/wire-format.md).
 * Options, structures and extensions registered with {@linkcode Unpackr.addExtension} belong to
 * this instance.
 *
 * @example Usage
 * ```ts
 * import { Packr, Unpackr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const structures: string[][] = [];
 * const packr = new Packr({ structures });
 * const bytes = packr.pack({ id: 1, name: "ann" });
 *
 * const unpackr = new Unpackr({ structures });
 * assert.deepEqual(unpackr.unpack(bytes), { id: 1, name: "ann" });
 * ```
 */
export class Unpackr {
  #context: DecodeContext;

  static {
    contextOf = (unpackr) => unpackr.#context;
    setExtensions = (unpackr, registry) => {
      unpackr.#context = { ...unpackr.#context, extensions: registry };
    };
  }

  /**
   * Creates a decoder.
   *
   * @param options Decoding options; see {@linkcode UnpackrOptions}.
   */
  constructor(options: UnpackrOptions = {}) {
    const structures = options.structures ?? null;
    const getStructures = options.getStructures ?? null;
    const sequential = options.sequential === true;
    const freezeData = options.freezeData === true;
    const compileReaders = options.compileRecordReaders !== false;
    const int64Type = options.int64AsNumber ? "number" : options.int64AsType ?? "bigint";
    if (!(int64Type in INT64_MODES)) throw new TypeError(`Unknown int64AsType "${int64Type}"`);
    this.#context = {
      mapsAsObjects: options.mapsAsObjects ?? options.useRecords === false,
      int64: INT64_MODES[int64Type],
      roundFloat32: (options.useFloat32 ?? 0) > 2,
      copyBuffers: options.copyBuffers === true,
      rejectReferences: options.structuredClone === false,
      freezeData,
      allowArraysInMapKeys: options.allowArraysInMapKeys === true,
      fatal: options.fatal === true,
      maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
      compileReaders,
      sequential,
      persistInMultiple: structures !== null || getStructures !== null || sequential,
      records: createRecordTable(structures, getStructures, { freezeData, compileReaders }),
      extensions: globalExtensions,
    };
  }

  /**
   * Decodes one MessagePack value. Bytes after the value are an error; use
   * {@linkcode Unpackr.unpackMultiple} for a sequence.
   *
   * @param source The bytes (any ArrayBufferView, or an ArrayBuffer).
   * @param window An end offset, or `{ start, end }`, to decode part of `source`.
   * @returns The decoded value.
   *
   * @example Usage
   * ```ts
   * import { Unpackr } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * const unpackr = new Unpackr({ int64AsType: "auto" });
   * assert.equal(unpackr.unpack(new Uint8Array([0xd3, 0, 0, 0, 0, 0, 0, 0, 5])), 5);
   * ```
   */
  // deno-lint-ignore no-explicit-any
  unpack<T = any>(source: MessagePackSource, window?: UnpackWindow): T {
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
    return decodeOne(this.#context, bytes, start, end) as T;
  }

  /**
   * Alias of {@linkcode Unpackr.unpack}.
   *
   * @param source The bytes.
   * @param window An end offset, or `{ start, end }`.
   * @returns The decoded value.
   *
   * @example Usage
   * ```ts
   * import { Decoder } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new Decoder().decode(new Uint8Array([0xa1, 0x61])), "a");
   * ```
   */
  // deno-lint-ignore no-explicit-any
  decode<T = any>(source: MessagePackSource, window?: UnpackWindow): T {
    return this.unpack<T>(source, window);
  }

  /**
   * Decodes a sequence of values. Without `forEach` returns them all; with it, calls
   * `forEach(value, start, end)` for each (byte offsets in `source`) and stops early when it
   * returns `false`. Record definitions carry from one value to the next.
   *
   * @param source The bytes.
   * @param forEach Called with each value and its byte range.
   * @returns The values, when no `forEach` is given.
   *
   * @example Usage
   * ```ts
   * import { Unpackr } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * const unpackr = new Unpackr();
   * assert.deepEqual(unpackr.unpackMultiple(new Uint8Array([1, 2, 3])), [1, 2, 3]);
   * const seen: number[] = [];
   * unpackr.unpackMultiple(new Uint8Array([1, 2, 3]), (value, start, end) => {
   *   seen.push(start, end);
   *   return value !== 2; // stop after the second value
   * });
   * assert.deepEqual(seen, [0, 1, 1, 2]);
   * ```
   */
  // deno-lint-ignore no-explicit-any
  unpackMultiple(source: MessagePackSource): any[];
  /**
   * Calls `forEach(value, start, end)` for each value of a byte sequence, stopping early when
   * it returns `false`.
   *
   * @param source The bytes.
   * @param forEach Called with each value and its byte range.
   */
  unpackMultiple(
    source: MessagePackSource,
    // deno-lint-ignore no-explicit-any
    forEach: (value: any, start: number, end: number) => unknown,
  ): void;
  unpackMultiple(
    source: MessagePackSource,
    // deno-lint-ignore no-explicit-any
    forEach?: (value: any, start: number, end: number) => unknown,
    // deno-lint-ignore no-explicit-any
  ): any[] | void {
    const bytes = toBytes(source);
    return decodeMany(this.#context, bytes, 0, bytes.length, forEach);
  }

  /**
   * Registers an extension for this instance only (a `Packr` uses it for packing too). Use the
   * exported `addExtension` to register for every instance.
   *
   * @param extension The extension.
   *
   * @example Usage
   * ```ts
   * import { Packr } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * class Point {
   *   constructor(public x: number, public y: number) {}
   * }
   * const packr = new Packr();
   * packr.addExtension({
   *   Class: Point,
   *   type: 12,
   *   write: (point: Point) => [point.x, point.y],
   *   read: (data) => new Point(...(data as [number, number])),
   * });
   * const copy = packr.unpack(packr.pack(new Point(1, 2)));
   * assert.ok(copy instanceof Point);
   * ```
   */
  // deno-lint-ignore no-explicit-any
  addExtension<T = any>(extension: Extension<T>): void {
    let registry = this.#context.extensions;
    if (registry === globalExtensions) {
      registry = new ExtensionRegistry(globalExtensions);
      setExtensions(this, registry);
    }
    registry.add(extension as Extension);
  }
}

/** A window offset: an integer from 0 to `limit` (larger ends are clamped, as in msgpackr). */
function checkedOffset(offset: number, limit: number, name: string): number {
  if (!Number.isInteger(offset) || offset < 0) {
    throw new RangeError(`Cannot unpack with ${name} ${offset}: expected an integer offset >= 0`);
  }
  return Math.min(offset, limit);
}

/** The decode context of an instance (for `Packr` and the stream decoder). */
export function decodeContextOf(unpackr: Unpackr): DecodeContext {
  return contextOf(unpackr);
}

/**
 * Alias of {@linkcode Unpackr} (the same class).
 * @example Usage
 * ```ts
 * import { Decoder, Unpackr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * assert.equal(Decoder, Unpackr);
 * assert.equal(new Decoder().decode(new Uint8Array([0x07])), 7);
 * ```
 */
export const Decoder: typeof Unpackr = Unpackr;
/**
 * Alias of {@linkcode Unpackr}, as a type.
 * @example Usage
 * ```ts
 * import { type Decoder, Unpackr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const decoder: Decoder = new Unpackr();
 * assert.ok(decoder instanceof Unpackr);
 * ```
 */
export type Decoder = Unpackr;

const defaultUnpackr = new Unpackr({ useRecords: false });

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
  return defaultUnpackr.unpack<T>(source, window);
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
 * Decodes every value of a byte sequence; see {@linkcode Unpackr.unpackMultiple}.
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
  return forEach
    ? defaultUnpackr.unpackMultiple(source, forEach)
    : defaultUnpackr.unpackMultiple(source);
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
