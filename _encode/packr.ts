// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { BORROW_ARENA, type ReusedBuffer } from "./encoder.ts";
import { applyEncodeSettings, type EncodeContext } from "./context.ts";
import { checkCanonical, encoderSettings, Packer } from "./packer.ts";
import type { Extension } from "../_core/extensions.ts";
import type { ConstructionOption, PackrOptions, Structure } from "../_core/options.ts";
import { DECODER, defineOptionAccessors, ENCODER } from "../_core/option_table.ts";
import { applyDecodeSettings, decodeContextOf } from "../_decode/context.ts";
import { ownMethods, settingsOfInstance, Unpackr } from "../_decode/unpackr.ts";

/** Reads an instance's private packer (set once, by the class's static block). */
const hidden = {} as { packerOf(packr: Packr): Packer };

/**
 * Packs `value` with `packr` into a view of the shared arena, valid only until the next pack: for
 * a caller that copies the bytes at once (`respond`, whose `new Response` copies its body), which
 * saves the exact-size copy `pack` makes.
 */
export function packBorrowed(packr: Packr, value: unknown): Uint8Array<ArrayBuffer> {
  return hidden.packerOf(packr).pack(value, BORROW_ARENA);
}

/**
 * The encode context of an instance (for the command line writer, which writes some records
 * itself during a pack: their ids come from the instance's structures).
 */
export function encodeContextOf(packr: Packr): EncodeContext {
  return hidden.packerOf(packr).context;
}

/**
 * The encoding and decoding options of a {@linkcode Packr}, as properties of the instance (see
 * {@linkcode Unpackr}'s); the {@linkcode ConstructionOption}s are read-only.
 *
 * @example Usage
 * ```ts
 * import { Packr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const packr = new Packr({ useRecords: false });
 * packr.useFloat32 = 1; // the next pack writes float32
 * assert.deepEqual([...packr.pack(1.5)], [0xca, 0x3f, 0xc0, 0, 0]);
 * assert.throws(() => Object.assign(packr, { useRecords: true }), TypeError);
 * ```
 */
export interface Packr
  extends
    Omit<PackrOptions, ConstructionOption>,
    Readonly<Omit<Pick<PackrOptions, ConstructionOption>, "structures">> {}

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
  #packer: Packer;

  static {
    hidden.packerOf = (packr) => packr.#packer;
  }

  /**
   * Creates an encoder.
   *
   * @param options Encoding and decoding options; see {@linkcode PackrOptions}.
   */
  constructor(options: PackrOptions = {}) {
    // with `canonical`, records off for both halves (and a TypeError for what it excludes)
    super(encoderSettings(options));
    const settings = settingsOfInstance(this);
    // a records Packr always has a structure table, shared by its encoder and decoder sides
    let table = settings.structures;
    if (table === undefined && settings.useRecords !== false) super.structures = table = [];
    const packer = this.#packer = new Packer(
      settings,
      this,
      table,
      (shared) => decodeContextOf(this).records.replaceShared(shared),
    );
    // Detached methods keep this instance (`const { pack } = new Packr(options)`; see Unpackr)
    ownMethods(this, Packr.prototype, {
      pack: (value: unknown, flags = 0) => packer.pack(value, flags),
      encode: "pack",
    });
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
    return this.#packer.pack(value, flags);
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
    this.#packer.useBuffer(buffer);
  }

  /** Where the next pack writes in the buffer given to {@linkcode Packr.useBuffer} (0 without). */
  get position(): number {
    return this.#packer.position;
  }

  /** Moves where the next pack writes in the buffer given to {@linkcode Packr.useBuffer}. */
  set position(value: number) {
    this.#packer.position = value;
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
    return this.#packer.context.records?.shared ?? super.structures ?? [];
  }

  /** Replaces the shared structures table (see the getter). */
  override set structures(table: Structure[]) {
    const structures = this.#packer.context.records;
    // the decoding half's setter, alone or (it throws first) to refuse what is not an array
    if (structures === null || !Array.isArray(table)) super.structures = table;
    else structures.replaceShared(table);
  }

  /**
   * Registers an extension for this instance only, for packing and unpacking alike (see
   * {@linkcode Unpackr.addExtension}).
   *
   * @param extension The extension: its class and writer, its type and reader.
   *
   * @example Usage
   * ```ts
   * import { Packr } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * class Money {
   *   constructor(public cents: number) {}
   * }
   * const packr = new Packr({ useRecords: false });
   * packr.addExtension({
   *   Class: Money,
   *   type: 13,
   *   write: (money: Money) => money.cents,
   *   read: (cents) => new Money(cents as number),
   * });
   * assert.equal(packr.unpack(packr.pack(new Money(250))).cents, 250);
   * ```
   */
  // deno-lint-ignore no-explicit-any
  override addExtension<T = any>(extension: Extension<T>): void {
    super.addExtension(extension);
    // the encoder reads the registry the decoding half keeps for this instance's own extensions
    this.#packer.context.extensions = decodeContextOf(this).extensions;
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
    const structures = this.#packer.context.records;
    if (structures === null) return;
    structures.replaceShared([]);
    structures.lastSavedLength = 0;
  }
}

defineOptionAccessors(
  Packr.prototype as Packr,
  DECODER | ENCODER,
  settingsOfInstance,
  (packr) => {
    const settings = settingsOfInstance(packr);
    // before either half changes: `structuredClone` or `bundleStrings` assigned to a canonical one
    checkCanonical(settings);
    applyDecodeSettings(decodeContextOf(packr), settings);
    applyEncodeSettings(hidden.packerOf(packr).context, settings);
  },
);

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
