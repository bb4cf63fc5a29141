// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import type { Float32Option } from "../_format/float32.ts";

/**
 * A record structure: the ordered property names of one object shape.
 * @example Usage
 * ```ts
 * import { Packr, type Structure } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const structures: Structure[] = [["id", "name"]];
 * const bytes = new Packr({ structures }).pack({ id: 1, name: "a" });
 * assert.equal(bytes[0], 0x40); // shared structure 0
 * ```
 */
export type Structure = string[];

/**
 * How 64-bit integers (`cf` uint64, `d3` int64) are decoded; smaller integers are always numbers.
 * `"auto"` gives a number within ±2^53 and a bigint beyond.
 *
 * @example Usage
 * ```ts
 * import { type Int64Type, Unpackr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const int64AsType: Int64Type = "auto";
 * const bytes = new Uint8Array([0xd3, 0, 0, 0, 0, 0, 0, 0, 9]);
 * assert.equal(new Unpackr({ int64AsType }).unpack(bytes), 9);
 * assert.equal(new Unpackr().unpack(bytes), 9n);
 * ```
 */
export type Int64Type = "bigint" | "number" | "string" | "auto";

/**
 * Options of {@linkcode Unpackr}, and the decoding half of the options of {@linkcode Packr}.
 * Unknown option names are ignored at run time, as msgpackr does; TypeScript flags them.
 *
 * @example Usage
 * ```ts
 * import { Unpackr, type UnpackrOptions } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const options: UnpackrOptions = { mapsAsObjects: true, int64AsType: "number" };
 * const unpackr = new Unpackr(options);
 * assert.deepEqual(unpackr.unpack(new Uint8Array([0x81, 0xa1, 0x61, 0x01])), { a: 1 });
 * ```
 */
export interface UnpackrOptions {
  /**
   * Whether a packer writes objects as records. Decoders read records whatever this says; for a
   * decoder, `false` only makes `mapsAsObjects` default to `true`.
   * @default {true} for `Packr`/`Unpackr`, `false` for the exported `pack`/`unpack`
   */
  useRecords?: boolean | ((value: object) => boolean);
  /**
   * Decode MessagePack maps as plain objects (`true`) or as `Map`s (`false`).
   * @default {true} when `useRecords: false` is given, otherwise `false`
   */
  mapsAsObjects?: boolean;
  /**
   * Shared record structures known to both sides, an array of key arrays (docs/wire-format.md,
   * "Shared structures"). A packer appends new shared shapes to this very array, up to
   * `maxSharedStructures`.
   */
  structures?: Structure[];
  /** Loads the persisted shared structures; called lazily when an unknown record id appears. */
  getStructures?: () => Structure[] | undefined | null;
  /**
   * Record definitions persist from one message to the next (and a packer sends each shape once
   * per stream), so messages must be decoded in order by one decoder.
   * @default {false}
   */
  sequential?: boolean;
  /**
   * Keep the record structures that one message defines inline for the messages decoded after it
   * by this decoder, as msgpackr's `trusted` does: for a decoder with a structure table (the
   * `structures` or `getStructures` option, `sequential`, or a `Packr` writing records). Without
   * it each `unpack` sees the shared structures only, and a message that refers to a structure
   * an earlier one defined does not decode. `sequential` implies it unless `trusted: false`.
   * Only for messages from one trusted sender, decoded in order.
   * @default {false}, or `true` with `sequential`
   */
  trusted?: boolean;
  /**
   * Most shared structures; up to 8160. More than 32 switches record ids to two bytes.
   * @default {32} with `structures`, `getStructures` or `saveStructures`, else 0
   */
  maxSharedStructures?: number;
  /**
   * Float32 handling: a decoder with `DECIMAL_ROUND` (3) or `DECIMAL_FIT` (4) rounds every
   * float32 it reads to its significant decimal digits. See {@linkcode FLOAT32_OPTIONS}.
   * @default {0}
   */
  useFloat32?: Float32Option;
  /**
   * Type used for 64-bit integers when decoding.
   * @default {"bigint"}
   */
  int64AsType?: Int64Type;
  /**
   * What timestamps (ext -1) decode to: `"date"`, the `Date` of the millisecond that holds the
   * instant (toward the past, also before 1970); `"timestamp"`, a {@linkcode Timestamp} with the
   * exact seconds and nanoseconds (nanoseconds beyond 999999999 are then a `DecodeError`).
   * msgpackr's invalid-Date marker (`d4 ff ff`) is an invalid Date either way.
   * @default {"date"}
   */
  timestamps?: "date" | "timestamp";
  /**
   * Decode 64-bit integers as numbers (may lose precision beyond 2^53).
   * @deprecated Use `int64AsType: "number"`.
   */
  int64AsNumber?: boolean;
  /**
   * Copy binary values out of the input instead of returning views of it.
   * @default {false}
   */
  copyBuffers?: boolean;
  /**
   * Keep shared and cyclic references (ext "i"/"p") and turn on `moreTypes`. A decoder with
   * `structuredClone: false` rejects reference extensions; unset, it accepts them.
   */
  structuredClone?: boolean;
  /**
   * Decode plain data only, for input from senders you do not trust. Refused, with a
   * `DecodeError` naming the extension and its offset, at the extension's header before anything
   * of it is built:
   * - structured clone references (ext "i" and "p"): they build shared references and cycles, a
   *   graph that can be exponentially larger as a tree than its bytes (a reference to a reference,
   *   twice per level, 40 levels in under 1 KB), so the first `JSON.stringify` or walk over it
   *   never returns;
   * - `RegExp` (ext "x"): a pattern of the sender's choosing, which can take exponential time to
   *   match;
   * - `Error` (ext "e"): an object with behaviour (a `cause` chain, a `name` the sender sets).
   *
   * Everything else decodes: the MessagePack types, timestamps, `undefined`, big integers (ext
   * "B"), records, bundled strings, Sets and typed arrays (values and bytes, as arrays and binary
   * are), and extensions registered with `addExtension` (your own code). A msgpackr client using
   * `new Packr()` sends nothing this refuses. Overrides `structuredClone: true`.
   * `@x/msgpackr/http` decodes with it unless told otherwise.
   * @default {false}
   */
  plainDataOnly?: boolean;
  /**
   * Write Set, Error, RegExp, typed arrays, ArrayBuffer and DataView as msgpackr's typed
   * extensions, and bigints beyond 64 bits as ext "B".
   * @default {false}, or `true` with `structuredClone`
   */
  moreTypes?: boolean;
  /**
   * Gather strings into bundles (ext "b") that decode with one `TextDecoder` call each.
   * @default {false}
   */
  bundleStrings?: boolean;
  /**
   * Freeze decoded records and arrays.
   * @default {false}
   */
  freezeData?: boolean;
  /**
   * When maps decode to objects, accept array keys of strings, numbers, booleans or bigints and
   * use their comma-joined text as the property name.
   * @default {false}
   */
  allowArraysInMapKeys?: boolean;
  /**
   * Reject ill-formed UTF-8 in strings with a `DecodeError` (like `TextDecoder`'s `fatal`)
   * instead of replacing it with U+FFFD. Note that msgpackr writes a lone surrogate in a string
   * shorter than 64 units in its 3-byte form, which is ill-formed UTF-8.
   * @default {false}
   */
  fatal?: boolean;
  /**
   * Deepest nesting of arrays, maps, records and extensions accepted when decoding and encoding;
   * deeper input fails with a clear error instead of a stack overflow.
   * @default {1000}
   */
  maxDepth?: number;
  /**
   * Let the default build generate record readers (with the Function constructor) once a shape
   * has been read a few times (the no-eval build never does). `false` keeps this instance on the
   * interpreted reader.
   * @default {true}
   */
  compileRecordReaders?: boolean;
}

/**
 * What `saveStructures` receives as its second argument (docs/wire-format.md, "Saving and
 * reloading"): call it with the currently stored structures inside your store's transaction;
 * `false` means the store holds a newer table (already merged into the Packr), so do not write it
 * and return `false`.
 * @example Usage
 * ```ts
 * import { type IsCompatible, Packr, type Structure } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * let stored: Structure[] | undefined;
 * const packr = new Packr({
 *   getStructures: () => stored,
 *   saveStructures(structures: Structure[], isCompatible: IsCompatible) {
 *     if (!isCompatible(stored)) return false;
 *     stored = structures.map((keys) => [...keys]);
 *   },
 * });
 * packr.pack({ a: 1 });
 * assert.deepEqual(stored, [["a"]]);
 * ```
 */
export type IsCompatible = (existingStructures: Structure[] | undefined | null) => boolean;

/**
 * Options of {@linkcode Packr}: the {@linkcode UnpackrOptions} (a Packr also decodes) plus the
 * encoding options.
 *
 * @example Usage
 * ```ts
 * import { Packr, type PackrOptions } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const options: PackrOptions = { useRecords: false, variableMapSize: true };
 * assert.deepEqual([...new Packr(options).pack({ a: 1 })], [0x81, 0xa1, 0x61, 0x01]);
 * ```
 */
export interface PackrOptions extends UnpackrOptions {
  /**
   * Called after a `pack` that added shared structures, with the whole shared table. Return
   * `false` when the store already holds a newer table (check with `isCompatible` inside the
   * store's transaction): the packer then reloads with `getStructures` and packs again.
   */
  saveStructures?: (structures: Structure[], isCompatible: IsCompatible) => boolean | void;
  /** Decides whether a new shape may join the shared structures. */
  shouldShareStructure?: (keys: Structure) => boolean;
  /**
   * Most structures defined inline per message (or per stream in sequential mode).
   * @default {32} with shared structures or `sequential`, else 64
   */
  maxOwnStructures?: number;
  /**
   * Write dates in the 32-bit timestamp form, dropping milliseconds.
   * @default {false}
   */
  useTimestamp32?: boolean;
  /**
   * Write a `number` that is a safe integer beyond 32 bits (`Number.isSafeInteger`) as int64
   * (`d3`, negative) or uint64 (`cf`, positive) instead of float64, so that the integer fields of
   * other languages (Go's `int64`, Python's `int`) receive an integer. Other numbers and bigints
   * are written as without it. msgpackr writes float64 there.
   * @default {false}, or `true` with `canonical`
   */
  useInt64?: boolean;
  /**
   * Canonical bytes: the same data always gives the same bytes, for hashing, signing,
   * deduplicating or caching by the encoded form (docs/wire-format.md, "Canonical encoding").
   * Object keys and `Map` entries are sorted (string keys by UTF-16 code units, the order of
   * `Object.keys(o).sort()` and of `@msgpack/msgpack`'s `sortKeys`, so that both libraries write
   * the same bytes), every map, array, string and number takes its smallest header (safe
   * integers beyond 32 bits as int64/uint64, as `useInt64`; bigints as uint64 from 0 and int64
   * below), an object and a `Map` with the same string keys give the same bytes, and NaN is one
   * bit pattern. Plain maps only: records are off (also on a `Packr`), and asking for records
   * (`useRecords: true` or a function), shared structures (`structures`, `getStructures`,
   * `saveStructures`), `structuredClone` or `bundleStrings` with it is a `TypeError`. Read at
   * construction: it decides whether the instance has records at all.
   * @default {false}
   */
  canonical?: boolean;
  /** Value written in place of an invalid `Date`; without it, `d4 ff ff` is written. */
  onInvalidDate?: () => unknown;
  /**
   * Write `undefined` as nil instead of the `d4 00 00` extension.
   * @default {false}
   */
  encodeUndefinedAsNil?: boolean;
  /**
   * Smallest map header for objects written as maps (otherwise always map16, as msgpackr).
   * @default {false}
   */
  variableMapSize?: boolean;
  /**
   * Write object keys that `Number()` accepts as numbers (with the smallest map header).
   * @default {false}
   */
  coercibleKeyAsNumber?: boolean;
  /** Property values that make a property be left out of a map (`[undefined]` mimics JSON). */
  skipValues?: { includes(value: unknown): boolean };
  /** Value written in place of a function; without it, functions are written as `undefined`. */
  writeFunction?: (fn: (...args: never[]) => unknown) => unknown;
  /**
   * Call `toJSON()` of class instances that have no extension and write its result.
   * @default {true}
   */
  useToJSON?: boolean;
  /**
   * Write every `Map` as an empty map.
   * @default {false}
   */
  mapAsEmptyObject?: boolean;
  /**
   * Write every `Set` as an empty object.
   * @default {false}
   */
  setAsEmptyObject?: boolean;
  /**
   * Write bigints beyond 64 bits as float64.
   * @default {false}
   */
  largeBigIntToFloat?: boolean;
  /**
   * Write bigints beyond 64 bits as decimal strings.
   * @default {false}
   */
  largeBigIntToString?: boolean;
  /**
   * Write bigints beyond 64 bits with the "B" extension.
   * @default {false}
   */
  useBigIntExtension?: boolean;
}

/**
 * msgpackr's name for the options of its classes: {@linkcode PackrOptions}, which holds the
 * decoding ones too.
 * @example Usage
 * ```ts
 * import { type Options, Packr, Unpackr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const options: Options = { useRecords: false, mapsAsObjects: true };
 * const bytes = new Packr(options).pack({ a: 1 });
 * assert.deepEqual(new Unpackr(options).unpack(bytes), { a: 1 });
 * ```
 */
export type Options = PackrOptions;

/**
 * The options an instance reads only when it is made: on a `Packr` or `Unpackr` they are
 * read-only properties, and assigning one throws a TypeError (give it to the constructor). Every
 * other option may be assigned to the instance, as msgpackr code does, and applies from the next
 * call.
 * @example Usage
 * ```ts
 * import { type ConstructionOption, Packr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const fixed: ConstructionOption = "useRecords";
 * const packr = new Packr({ useRecords: false });
 * assert.throws(() => Object.assign(packr, { [fixed]: true }), TypeError);
 * packr.useFloat32 = 1; // assignable: the next pack writes float32
 * ```
 */
export type ConstructionOption =
  | "useRecords"
  | "structures"
  | "getStructures"
  | "sequential"
  | "maxSharedStructures"
  | "int64AsNumber"
  | "freezeData"
  | "compileRecordReaders"
  | "saveStructures"
  | "shouldShareStructure"
  | "maxOwnStructures"
  | "variableMapSize"
  | "coercibleKeyAsNumber"
  | "skipValues"
  | "canonical";
