// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { type EncodeContext, type OutputBuffer, packWith, type ReusedBuffer } from "./encoder.ts";
import { globalExtensions } from "../_core/extensions.ts";
import type { PackrOptions, Structure } from "../_core/options.ts";
import { StructureEncoder } from "../_records/structures.ts";
import {
  applyDecodeSettings,
  decodeContextOf,
  DEFAULT_MAX_DEPTH,
  defineOptionAccessors,
  settingsOfInstance,
  Unpackr,
} from "../_decode/unpackr.ts";

/** The encode context fields that follow the options (see `Packr`'s option accessors). */
type EncodeFlags = Pick<
  EncodeContext,
  | "useFloat32"
  | "useTimestamp32"
  | "useInt64"
  | "onInvalidDate"
  | "undefinedAsNil"
  | "writeFunction"
  | "useToJSON"
  | "mapAsEmptyObject"
  | "setAsEmptyObject"
  | "largeBigIntToFloat"
  | "largeBigIntToString"
  | "bigIntExtension"
  | "moreTypes"
  | "structuredClone"
  | "bundleStrings"
  | "maxDepth"
>;

function encodeFlags(settings: PackrOptions): EncodeFlags {
  const moreTypes = settings.moreTypes ?? settings.structuredClone === true;
  return {
    useFloat32: settings.useFloat32 ?? 0,
    useTimestamp32: settings.useTimestamp32 === true,
    useInt64: settings.useInt64 === true,
    onInvalidDate: settings.onInvalidDate ?? null,
    undefinedAsNil: settings.encodeUndefinedAsNil === true,
    writeFunction: (settings.writeFunction as ((fn: never) => unknown) | undefined) ?? null,
    useToJSON: settings.useToJSON !== false,
    mapAsEmptyObject: settings.mapAsEmptyObject === true,
    setAsEmptyObject: settings.setAsEmptyObject === true,
    largeBigIntToFloat: settings.largeBigIntToFloat === true,
    largeBigIntToString: settings.largeBigIntToString === true,
    bigIntExtension: settings.useBigIntExtension === true || moreTypes,
    moreTypes,
    structuredClone: settings.structuredClone === true,
    bundleStrings: settings.bundleStrings === true,
    maxDepth: settings.maxDepth ?? DEFAULT_MAX_DEPTH,
  };
}

let contextOfPackr: (packr: Packr) => EncodeContext;

/**
 * The encode context of an instance (for the command line writer, which writes some records
 * itself during a pack: their ids come from the instance's structures).
 */
export function encodeContextOf(packr: Packr): EncodeContext {
  return contextOfPackr(packr);
}

/**
 * A MessagePack encoder (and decoder: a Packr is an {@linkcode Unpackr}) writing msgpackr's
 * format byte for byte. By default objects are written as records (docs/wire-format.md,
 * "Records"), which are smaller and faster to decode; `useRecords: false` writes plain maps that
 * any MessagePack decoder reads. Each instance has its own options, structures and extensions.
 *
 * `pack` returns a new `Uint8Array` of exactly the packed bytes (the internal arena is reused
 * for the next call). After {@linkcode Packr.useBuffer}, values are written into the given
 * buffer one after another and returned as views of it, without copying.
 *
 * @example Usage
 * ```ts
 * import { Packr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const packr = new Packr();
 * const bytes = packr.pack([{ a: 1 }, { a: 2 }]);
 * // one inline record definition, then a one-byte reference
 * assert.deepEqual([...bytes], [0x92, 0xd4, 0x72, 0x40, 0x91, 0xa1, 0x61, 0x01, 0x40, 0x02]);
 * assert.deepEqual(packr.unpack(bytes), [{ a: 1 }, { a: 2 }]);
 * ```
 */
export class Packr extends Unpackr {
  #context: EncodeContext;
  #output: OutputBuffer | null = null;
  /** The last buffer given to {@linkcode Packr.useBuffer}, as a `Uint8Array` and a DataView. */
  #given: { buffer: Uint8Array } & Omit<OutputBuffer, "position"> | null = null;

  static {
    contextOfPackr = (packr) => packr.#context;
  }

  // The encoding options, as msgpackr copies them onto the instance (the decoding ones are
  // Unpackr's). Assigning one of these changes what the next pack writes:
  /** The `useTimestamp32` option; assignable. */
  declare useTimestamp32: PackrOptions["useTimestamp32"];
  /** The `useInt64` option; assignable. */
  declare useInt64: PackrOptions["useInt64"];
  /** The `encodeUndefinedAsNil` option; assignable. */
  declare encodeUndefinedAsNil: PackrOptions["encodeUndefinedAsNil"];
  /** The `onInvalidDate` option; assignable. */
  declare onInvalidDate: PackrOptions["onInvalidDate"];
  /** The `writeFunction` option; assignable. */
  declare writeFunction: PackrOptions["writeFunction"];
  /** The `useToJSON` option; assignable. */
  declare useToJSON: PackrOptions["useToJSON"];
  /** The `mapAsEmptyObject` option; assignable. */
  declare mapAsEmptyObject: PackrOptions["mapAsEmptyObject"];
  /** The `setAsEmptyObject` option; assignable. */
  declare setAsEmptyObject: PackrOptions["setAsEmptyObject"];
  /** The `largeBigIntToFloat` option; assignable. */
  declare largeBigIntToFloat: PackrOptions["largeBigIntToFloat"];
  /** The `largeBigIntToString` option; assignable. */
  declare largeBigIntToString: PackrOptions["largeBigIntToString"];
  /** The `useBigIntExtension` option; assignable. */
  declare useBigIntExtension: PackrOptions["useBigIntExtension"];
  /** The `moreTypes` option; assignable. */
  declare moreTypes: PackrOptions["moreTypes"];
  /** The `bundleStrings` option; assignable. */
  declare bundleStrings: PackrOptions["bundleStrings"];
  // these are read at construction only: assigning one throws a TypeError
  /** The `maxOwnStructures` option; read-only (assigning it throws). */
  declare readonly maxOwnStructures: PackrOptions["maxOwnStructures"];
  /** The `variableMapSize` option; read-only (assigning it throws). */
  declare readonly variableMapSize: PackrOptions["variableMapSize"];
  /** The `coercibleKeyAsNumber` option; read-only (assigning it throws). */
  declare readonly coercibleKeyAsNumber: PackrOptions["coercibleKeyAsNumber"];
  /** The `skipValues` option; read-only (assigning it throws). */
  declare readonly skipValues: PackrOptions["skipValues"];
  /** The `saveStructures` option; read-only (assigning it throws). */
  declare readonly saveStructures: PackrOptions["saveStructures"];
  /** The `shouldShareStructure` option; read-only (assigning it throws). */
  declare readonly shouldShareStructure: PackrOptions["shouldShareStructure"];

  /**
   * Creates an encoder.
   *
   * @param options Encoding and decoding options; see {@linkcode PackrOptions}.
   */
  constructor(options: PackrOptions = {}) {
    const useRecords = options.useRecords;
    // a records Packr always has a structure table, shared by its encoder and decoder sides
    const table = options.structures ?? (useRecords !== false ? [] : undefined);
    super(table === options.structures ? options : { ...options, structures: table! });
    const flags = encodeFlags(options);
    this.#context = {
      owner: this,
      recordsPredicate: typeof useRecords === "function" ? useRecords : null,
      variableMap:
        !!(options.variableMapSize || options.coercibleKeyAsNumber || options.skipValues),
      structures: useRecords === false ? null : new StructureEncoder(
        options,
        table!,
        (shared) => decodeContextOf(this).records.replaceShared(shared),
      ),
      fixintsTo0x7f: useRecords === false,
      useFloat32: flags.useFloat32,
      useTimestamp32: flags.useTimestamp32,
      useInt64: flags.useInt64,
      onInvalidDate: flags.onInvalidDate,
      undefinedAsNil: flags.undefinedAsNil,
      coercibleKeyAsNumber: options.coercibleKeyAsNumber === true,
      skipValues: options.skipValues ?? null,
      writeFunction: flags.writeFunction,
      useToJSON: flags.useToJSON,
      mapAsEmptyObject: flags.mapAsEmptyObject,
      setAsEmptyObject: flags.setAsEmptyObject,
      largeBigIntToFloat: flags.largeBigIntToFloat,
      largeBigIntToString: flags.largeBigIntToString,
      bigIntExtension: flags.bigIntExtension,
      moreTypes: flags.moreTypes,
      structuredClone: flags.structuredClone,
      bundleStrings: flags.bundleStrings,
      maxDepth: flags.maxDepth,
      extensions: globalExtensions,
    };
    // Detached methods keep this instance (`const { pack } = new Packr(options)`, as msgpackr
    // code writes; see Unpackr): own properties doing what the prototype method does, or a
    // subclass's override bound.
    const base = Packr.prototype;
    const pack = this.pack === base.pack
      ? ((value: unknown, flags = 0) => {
        const context = this.#context;
        context.extensions = decodeContextOf(this).extensions;
        return packWith(context, value, flags, this.#output);
      }) as Packr["pack"]
      : this.pack.bind(this);
    this.pack = pack;
    this.encode = this.encode === base.encode ? pack : this.encode.bind(this);
  }

  /**
   * Packs a value into MessagePack bytes.
   *
   * @param value Any value: primitives, arrays, objects, Maps, Sets, Dates, typed arrays,
   * bigints, class instances (with extensions or `toJSON`), and more with `moreTypes`.
   * @param flags Optional buffer flags: `REUSE_BUFFER_MODE`, `RESET_BUFFER_MODE`,
   * `RESERVE_START_SPACE | n`.
   * @returns The packed bytes.
   *
   * @example Usage
   * ```ts
   * import { Packr } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * const packr = new Packr({ useRecords: false });
   * assert.deepEqual([...packr.pack({ a: 1 })], [0xde, 0x00, 0x01, 0xa1, 0x61, 0x01]);
   * ```
   */
  pack(value: unknown, flags?: number): Uint8Array<ArrayBuffer>;
  /**
   * Packs a value and returns the whole output buffer with `start` and `end` set.
   *
   * @param value The value.
   * @param flags `REUSE_BUFFER_MODE` (512), possibly with other flags.
   * @returns The buffer; the packed bytes are `buffer.subarray(start, end)`.
   */
  pack(value: unknown, flags: 512): ReusedBuffer;
  pack(value: unknown, flags = 0): Uint8Array<ArrayBuffer> {
    const context = this.#context;
    context.extensions = decodeContextOf(this).extensions;
    return packWith(context, value, flags, this.#output);
  }

  /**
   * Alias of {@linkcode Packr.pack}.
   *
   * @param value The value.
   * @param flags Optional buffer flags.
   * @returns The packed bytes.
   *
   * @example Usage
   * ```ts
   * import { Encoder } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual([...new Encoder().encode("a")], [0xa1, 0x61]);
   * ```
   */
  encode(value: unknown, flags = 0): Uint8Array<ArrayBuffer> {
    return this.pack(value, flags);
  }

  /**
   * Writes the following packs into `buffer`, one after another (8-byte aligned), returning
   * views of it instead of copies: arena allocation under your control. Call it again with the
   * same buffer once the previous results are done with. When fewer than 2 KiB of it are
   * left, the next pack starts a new buffer of the same size (at least 8 KiB), as msgpackr does,
   * and later packs go on there; a value that does not fit continues in a new, larger buffer.
   * Either way the results kept so far stay intact.
   *
   * @param buffer The buffer to write into.
   *
   * @example Usage
   * ```ts
   * import { Packr } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * const buffer = new Uint8Array(4096);
   * const packr = new Packr({ useRecords: false });
   * packr.useBuffer(buffer);
   * const bytes = packr.pack("hi");
   * assert.equal(bytes.buffer, buffer.buffer);
   * ```
   */
  useBuffer(buffer: Uint8Array<ArrayBuffer>): void {
    let given = this.#given;
    // the same buffer again (its previous results are done with) keeps its DataView: making one
    // costs more than a small pack. A detached buffer (length 0) is checked anew.
    if (given === null || given.buffer !== buffer || buffer.length === 0) {
      const bytes = buffer.constructor === Uint8Array
        ? buffer
        : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
      given = this.#given = {
        buffer,
        bytes,
        view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      };
    }
    this.#output = { bytes: given.bytes, view: given.view, position: 0 };
  }

  /** Where the next pack writes in the buffer given to {@linkcode Packr.useBuffer} (0 without). */
  get position(): number {
    return this.#output === null ? 0 : this.#output.position;
  }

  /** Moves where the next pack writes in the buffer given to {@linkcode Packr.useBuffer}. */
  set position(value: number) {
    if (this.#output !== null) this.#output.position = value;
  }

  /** msgpackr's name for {@linkcode Packr.position}. */
  get offset(): number {
    return this.position;
  }

  /**
   * The live shared structures table (the `structures` option's array, or the loaded one); new
   * shared shapes are appended to it, and its `sharedLength` (as msgpackr's) follows. Assigning
   * a table (msgpackr code does, to reset or load one) makes all of its structures the shared
   * ones for packing and unpacking, as if given to the constructor. Empty for
   * `useRecords: false` without `structures`.
   */
  override get structures(): Structure[] & { sharedLength?: number } {
    return this.#context.structures?.shared ?? super.structures ?? [];
  }

  /** Replaces the shared structures table (see the getter). */
  override set structures(table: Structure[]) {
    const structures = this.#context.structures;
    if (structures === null) {
      super.structures = table;
      return;
    }
    if (!Array.isArray(table)) throw new TypeError("structures must be an array of structures");
    structures.replaceShared(table);
  }

  /**
   * Forgets all shared structures, starting again with an empty table.
   *
   * @example Usage
   * ```ts
   * import { Packr } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * const packr = new Packr({ structures: [] });
   * packr.pack({ a: 1 });
   * assert.equal(packr.structures.length, 1);
   * packr.clearSharedData();
   * assert.equal(packr.structures.length, 0);
   * ```
   */
  clearSharedData(): void {
    const structures = this.#context.structures;
    if (structures === null) return;
    structures.replaceShared([]);
    structures.lastSavedLength = 0;
  }
}

/** Rewrites the decode and encode flags of a Packr from its settings (an option was assigned). */
function applyPackrSettings(unpackr: Unpackr): void {
  const flags = encodeFlags(settingsOfInstance(unpackr));
  applyDecodeSettings(unpackr);
  Object.assign(encodeContextOf(unpackr as Packr), flags);
}

defineOptionAccessors(
  Packr.prototype,
  [
    // Unpackr's, which a Packr applies to its encoder too
    "mapsAsObjects",
    "int64AsType",
    "useFloat32",
    "copyBuffers",
    "structuredClone",
    "allowArraysInMapKeys",
    "trusted",
    "fatal",
    "maxDepth",
    // the encoder's
    "useTimestamp32",
    "useInt64",
    "encodeUndefinedAsNil",
    "onInvalidDate",
    "writeFunction",
    "useToJSON",
    "mapAsEmptyObject",
    "setAsEmptyObject",
    "largeBigIntToFloat",
    "largeBigIntToString",
    "useBigIntExtension",
    "moreTypes",
    "bundleStrings",
  ],
  [
    "maxOwnStructures",
    "variableMapSize",
    "coercibleKeyAsNumber",
    "skipValues",
    "saveStructures",
    "shouldShareStructure",
  ],
  applyPackrSettings,
);

const defaultPackr = new Packr({ useRecords: false });

/**
 * Alias of {@linkcode Packr} (the same class).
 * @example Usage
 * ```ts
 * import { Encoder, Packr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * assert.equal(Encoder, Packr);
 * const encoder: Encoder = new Encoder({ useRecords: false });
 * assert.deepEqual([...encoder.encode(1)], [1]);
 * ```
 */
export const Encoder: typeof Packr = Packr;
/**
 * Alias of {@linkcode Packr}, as a type.
 * @example Usage
 * ```ts
 * import { type Encoder, Packr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const encoder: Encoder = new Packr();
 * assert.ok(encoder instanceof Packr);
 * ```
 */
export type Encoder = Packr;

/**
 * Packs a value as standard MessagePack (objects as maps, no records), readable by any
 * MessagePack decoder; byte-identical to msgpackr's `pack`.
 *
 * @param value The value to pack.
 * @param flags Optional buffer flags, as for {@linkcode Packr.pack}.
 * @returns A new `Uint8Array` with exactly the packed bytes.
 *
 * @example Usage
 * ```ts
 * import { pack, unpack } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const bytes = pack({ greeting: "hello", list: [1, 2, 3] });
 * assert.deepEqual(unpack(bytes), { greeting: "hello", list: [1, 2, 3] });
 * ```
 */
export function pack(value: unknown, flags?: number): Uint8Array<ArrayBuffer> {
  return defaultPackr.pack(value, flags);
}

/**
 * Alias of {@linkcode pack} (the same function).
 *
 * @example Usage
 * ```ts
 * import { decode, encode } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * assert.equal(decode(encode("hi")), "hi");
 * ```
 */
export const encode: typeof pack = pack;
