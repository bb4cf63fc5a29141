// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import {
  type EncodeContext,
  ObjectMode,
  type OutputBuffer,
  packWith,
  type ReusedBuffer,
} from "./encoder.ts";
import { type Extension, globalExtensions } from "../_core/extensions.ts";
import type { PackrOptions, Structure } from "../_core/options.ts";
import { StructureEncoder } from "../_records/structures.ts";
import { decodeContextOf, DEFAULT_MAX_DEPTH, Unpackr } from "../_decode/unpackr.ts";

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
    const plainMode = options.variableMapSize || options.coercibleKeyAsNumber || options.skipValues
      ? ObjectMode.VariableMap
      : ObjectMode.Map16;
    const moreTypes = options.moreTypes ?? options.structuredClone === true;
    this.#context = {
      owner: this,
      objectMode: useRecords === false
        ? plainMode
        : typeof useRecords === "function"
        ? ObjectMode.RecordsIf
        : ObjectMode.Records,
      recordsPredicate: typeof useRecords === "function" ? useRecords : null,
      plainMode,
      structures: useRecords === false ? null : new StructureEncoder(
        options,
        table!,
        (shared) => decodeContextOf(this).records.replaceShared(shared),
      ),
      fixintsTo0x7f: useRecords === false,
      useFloat32: options.useFloat32 ?? 0,
      useTimestamp32: options.useTimestamp32 === true,
      onInvalidDate: options.onInvalidDate ?? null,
      undefinedAsNil: options.encodeUndefinedAsNil === true,
      coercibleKeyAsNumber: options.coercibleKeyAsNumber === true,
      skipValues: options.skipValues ?? null,
      writeFunction: (options.writeFunction as ((fn: never) => unknown) | undefined) ?? null,
      useToJSON: options.useToJSON !== false,
      mapAsEmptyObject: options.mapAsEmptyObject === true,
      setAsEmptyObject: options.setAsEmptyObject === true,
      largeBigIntToFloat: options.largeBigIntToFloat === true,
      largeBigIntToString: options.largeBigIntToString === true,
      bigIntExtension: options.useBigIntExtension === true || moreTypes,
      moreTypes,
      structuredClone: options.structuredClone === true,
      bundleStrings: options.bundleStrings === true,
      maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
      extensions: globalExtensions,
    };
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
   * shared shapes are appended to it. Empty for `useRecords: false`.
   */
  get structures(): Structure[] {
    return this.#context.structures?.shared ?? [];
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

/**
 * Registers an extension for every Packr and Unpackr, existing and future (msgpackr's global
 * registry). To keep an extension to one instance, use `packr.addExtension` instead. A later
 * registration for the same class or type wins.
 *
 * @param extension The extension: `Class` and `type` with `pack`/`unpack` (raw payload bytes)
 * or `write`/`read` (a value packed in its place).
 *
 * @example Usage
 * ```ts
 * import { addExtension, Packr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * class Money {
 *   constructor(public cents: number) {}
 * }
 * addExtension({
 *   Class: Money,
 *   type: 40,
 *   pack: (money: Money) => new Uint8Array(new Uint32Array([money.cents]).buffer),
 *   unpack: (bytes) => new Money(new Uint32Array(bytes.slice().buffer)[0]),
 * });
 * const packr = new Packr();
 * assert.equal(packr.unpack(packr.pack(new Money(1234))).cents, 1234);
 * ```
 */
// deno-lint-ignore no-explicit-any
export function addExtension<T = any>(extension: Extension<T>): void {
  globalExtensions.add(extension as Extension);
}
