// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import {
  createRecordTable,
  type DecodeContext,
  type DecodeFlags,
  decodeMany,
  decodeOne,
  forgetLastSource,
  type Int64Mode,
} from "./decoder.ts";
import { type Extension, ExtensionRegistry, globalExtensions } from "../_core/extensions.ts";
import type { Structure, UnpackrOptions } from "../_core/options.ts";
import { toBytes } from "../_core/bytes.ts";
import { disabledExtensionsOf } from "./extension_policy.ts";
import { markSharedLength } from "../_records/table.ts";

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

/** Decoding defaults used when no option says otherwise. */
export const DEFAULT_MAX_DEPTH = 1000;

const INT64_MODES: Record<string, Int64Mode> = { bigint: 0, number: 1, string: 2, auto: 3 };

/** Options as given to the constructor, and as assigned to the instance since. */
export type Settings = Record<string, unknown>;

let contextOf: (unpackr: Unpackr) => DecodeContext;
let settingsOf: (unpackr: Unpackr) => Settings;
let setExtensions: (unpackr: Unpackr, registry: ExtensionRegistry) => void;

/**
 * The decode context fields that follow the options; `hasTable`: the decoder keeps a structure
 * table (only then can definitions persist, as in msgpackr).
 */
function decodeFlags(settings: UnpackrOptions, hasTable: boolean): DecodeFlags {
  const int64Type = settings.int64AsType ?? "bigint";
  if (!Object.hasOwn(INT64_MODES, int64Type)) {
    throw new TypeError(`Unknown int64AsType "${int64Type}"`);
  }
  const sequential = settings.sequential === true;
  return {
    mapsAsObjects: settings.mapsAsObjects ?? settings.useRecords === false,
    int64: INT64_MODES[int64Type],
    roundFloat32: (settings.useFloat32 ?? 0) > 2,
    copyBuffers: settings.copyBuffers === true,
    disabledExtensions: disabledExtensionsOf(settings),
    allowArraysInMapKeys: settings.allowArraysInMapKeys === true,
    fatal: settings.fatal === true,
    maxDepth: settings.maxDepth ?? DEFAULT_MAX_DEPTH,
    // msgpackr: `sequential` sets `trusted` unless it is `false`
    trusted: hasTable && (!!settings.trusted || (sequential && settings.trusted !== false)),
  };
}

/** Writes the decode flags of the current settings into the instance's context. */
export function applyDecodeSettings(unpackr: Unpackr): void {
  const context = contextOf(unpackr);
  const records = context.records;
  const hasTable = records.shared !== null || records.getStructures !== null ||
    context.sequential;
  Object.assign(context, decodeFlags(settingsOf(unpackr), hasTable));
}

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
  #settings: Settings;

  // The options, as msgpackr copies them onto the instance. Reading one gives it as given or last
  // assigned; assigning one of these changes what the next decode does:
  /** The `mapsAsObjects` option; assignable. */
  declare mapsAsObjects: UnpackrOptions["mapsAsObjects"];
  /** The `int64AsType` option; assignable. */
  declare int64AsType: UnpackrOptions["int64AsType"];
  /** The `useFloat32` option; assignable (the decoder rounds float32 values from 3 on). */
  declare useFloat32: UnpackrOptions["useFloat32"];
  /** The `copyBuffers` option; assignable. */
  declare copyBuffers: UnpackrOptions["copyBuffers"];
  /** The `structuredClone` option; assignable. */
  declare structuredClone: UnpackrOptions["structuredClone"];
  /** The `plainDataOnly` option; assignable. */
  declare plainDataOnly: UnpackrOptions["plainDataOnly"];
  /** The `allowArraysInMapKeys` option; assignable. */
  declare allowArraysInMapKeys: UnpackrOptions["allowArraysInMapKeys"];
  /** The `trusted` option; assignable. */
  declare trusted: UnpackrOptions["trusted"];
  /** The `fatal` option; assignable. */
  declare fatal: UnpackrOptions["fatal"];
  /** The `maxDepth` option; assignable. */
  declare maxDepth: UnpackrOptions["maxDepth"];
  // these are read at construction only: assigning one throws a TypeError
  /** The `useRecords` option; read-only (assigning it throws). */
  declare readonly useRecords: UnpackrOptions["useRecords"];
  /** The `getStructures` option; read-only (assigning it throws). */
  declare readonly getStructures: UnpackrOptions["getStructures"];
  /** The `sequential` option; read-only (assigning it throws). */
  declare readonly sequential: UnpackrOptions["sequential"];
  /** The `freezeData` option; read-only (assigning it throws). */
  declare readonly freezeData: UnpackrOptions["freezeData"];
  /** The `compileRecordReaders` option; read-only (assigning it throws). */
  declare readonly compileRecordReaders: UnpackrOptions["compileRecordReaders"];
  /** The `int64AsNumber` option; read-only (assigning it throws: assign `int64AsType`). */
  declare readonly int64AsNumber: UnpackrOptions["int64AsNumber"];
  /** The `maxSharedStructures` option; read-only (assigning it throws). */
  declare readonly maxSharedStructures: UnpackrOptions["maxSharedStructures"];

  static {
    contextOf = (unpackr) => unpackr.#context;
    settingsOf = (unpackr) => unpackr.#settings;
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
    const settings: Settings = { ...options };
    // msgpackr turns the deprecated flag into `int64AsType` once, here
    if (options.int64AsNumber) settings.int64AsType = "number";
    const hasTable = structures !== null || getStructures !== null || sequential;
    const flags = decodeFlags(settings, hasTable);
    this.#settings = settings;
    this.#context = {
      mapsAsObjects: flags.mapsAsObjects,
      int64: flags.int64,
      roundFloat32: flags.roundFloat32,
      copyBuffers: flags.copyBuffers,
      disabledExtensions: flags.disabledExtensions,
      allowArraysInMapKeys: flags.allowArraysInMapKeys,
      fatal: flags.fatal,
      maxDepth: flags.maxDepth,
      trusted: flags.trusted,
      freezeData,
      compileReaders,
      sequential,
      persistInMultiple: hasTable,
      records: createRecordTable(structures, getStructures, { freezeData, compileReaders }),
      extensions: globalExtensions,
    };
    // Detached methods keep this instance (`const { unpack } = unpackr`, as msgpackr code
    // writes): each is also an own property, made once here, calling what the prototype method
    // calls. A method a subclass overrides is bound instead.
    const base = Unpackr.prototype;
    const unpack = this.unpack === base.unpack
      ? ((source: MessagePackSource, window?: UnpackWindow) => {
        if (window !== undefined) return unpackWindow(this.#context, source, window);
        const bytes = toBytes(source);
        return decodeOne(this.#context, bytes, 0, bytes.length);
      }) as Unpackr["unpack"]
      : this.unpack.bind(this);
    this.unpack = unpack;
    this.decode = this.decode === base.decode ? unpack : this.decode.bind(this);
    const unpackMultiple = this.unpackMultiple === base.unpackMultiple
      ? ((source: MessagePackSource, forEach?: ForEach) =>
        unpackMany(this.#context, source, forEach)) as Unpackr["unpackMultiple"]
      : this.unpackMultiple.bind(this);
    this.unpackMultiple = unpackMultiple;
    this.decodeMultiple = this.decodeMultiple === base.decodeMultiple
      ? unpackMultiple
      : this.decodeMultiple.bind(this);
  }

  /**
   * The shared structures table this decoder reads records with: the `structures` option's
   * array, or what `getStructures` loaded (`undefined` without either). It carries
   * `sharedLength`, as in msgpackr. Assigning a table makes all of its structures the shared
   * ones, as if given to the constructor.
   */
  get structures(): (Structure[] & { sharedLength?: number }) | undefined {
    return this.#context.records.shared ?? undefined;
  }

  /** Replaces the shared structures table (see the getter). */
  set structures(table: Structure[]) {
    if (!Array.isArray(table)) throw new TypeError("structures must be an array of structures");
    markSharedLength(table);
    this.#context.records.replaceShared(table);
    applyDecodeSettings(this);
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
    return unpackWindow(this.#context, source, window) as T;
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
    return unpackMany(this.#context, source, forEach);
  }

  /**
   * Alias of {@linkcode Unpackr.unpackMultiple}.
   *
   * @param source The bytes.
   * @returns The values.
   *
   * @example Usage
   * ```ts
   * import { Unpackr } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * const { decodeMultiple } = new Unpackr();
   * assert.deepEqual(decodeMultiple(new Uint8Array([1, 2, 3])), [1, 2, 3]);
   * ```
   */
  // deno-lint-ignore no-explicit-any
  decodeMultiple(source: MessagePackSource): any[];
  /**
   * Alias of {@linkcode Unpackr.unpackMultiple} with a callback.
   *
   * @param source The bytes.
   * @param forEach Called with each value and its byte range.
   */
  decodeMultiple(
    source: MessagePackSource,
    // deno-lint-ignore no-explicit-any
    forEach: (value: any, start: number, end: number) => unknown,
  ): void;
  decodeMultiple(
    source: MessagePackSource,
    // deno-lint-ignore no-explicit-any
    forEach?: (value: any, start: number, end: number) => unknown,
    // deno-lint-ignore no-explicit-any
  ): any[] | void {
    return forEach ? this.unpackMultiple(source, forEach) : this.unpackMultiple(source);
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

// deno-lint-ignore no-explicit-any
type ForEach = (value: any, start: number, end: number) => unknown;

/** `unpack` of an instance whose context is `context`. */
function unpackWindow(
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

/** `unpackMultiple` of an instance whose context is `context`. */
// deno-lint-ignore no-explicit-any
function unpackMany(context: DecodeContext, source: MessagePackSource, forEach?: ForEach): any {
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

/** The decode context of an instance (for `Packr` and the stream decoder). */
export function decodeContextOf(unpackr: Unpackr): DecodeContext {
  return contextOf(unpackr);
}

/** The settings of an instance (for `Packr`'s option accessors). */
export function settingsOfInstance(unpackr: Unpackr): Settings {
  return settingsOf(unpackr);
}

/**
 * Defines the option accessors of a class (msgpackr copies its options onto the instance, and
 * code written for it reads and assigns them there). Reading gives the option as given or last
 * assigned. Assigning one of `live` stores it and calls `apply`, which rewrites the instance's
 * context in place, so the next call uses it at no cost per call; assigning one of `fixed`, read
 * only at construction, throws rather than being ignored.
 */
export function defineOptionAccessors(
  prototype: object,
  live: readonly string[],
  fixed: readonly string[],
  apply: (unpackr: Unpackr) => void,
): void {
  for (const name of live) {
    Object.defineProperty(prototype, name, {
      get(this: Unpackr): unknown {
        return settingsOf(this)[name];
      },
      set(this: Unpackr, value: unknown): void {
        const settings = settingsOf(this);
        const previous = settings[name];
        settings[name] = value;
        try {
          apply(this);
        } catch (error) {
          settings[name] = previous;
          throw error;
        }
      },
      configurable: true,
    });
  }
  for (const name of fixed) {
    Object.defineProperty(prototype, name, {
      get(this: Unpackr): unknown {
        return settingsOf(this)[name];
      },
      set(this: Unpackr): void {
        const className = this.constructor.name;
        throw new TypeError(
          `${name} is read when the ${className} is made: pass it to new ${className}({ ${name} })`,
        );
      },
      configurable: true,
    });
  }
}

defineOptionAccessors(
  Unpackr.prototype,
  [
    "mapsAsObjects",
    "int64AsType",
    "useFloat32",
    "copyBuffers",
    "structuredClone",
    "plainDataOnly",
    "allowArraysInMapKeys",
    "trusted",
    "fatal",
    "maxDepth",
  ],
  [
    "useRecords",
    "getStructures",
    "sequential",
    "freezeData",
    "compileRecordReaders",
    "int64AsNumber",
    "maxSharedStructures",
  ],
  applyDecodeSettings,
);

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
 * from its main entry). An `Unpackr` gives `Map`s unless told `mapsAsObjects: true` (or `useRecords: false`).
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
