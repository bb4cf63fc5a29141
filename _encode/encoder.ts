// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The MessagePack writer. Bytes go into one output arena owned by the pack in progress
// (module-level `target`/`position`, with a 10-byte `safeEnd` margin so scalar writes never check
// bounds one by one); a pack started while another runs (from an extension) saves that state
// and writes into a fresh buffer. What belongs to an instance (options, structures, extensions)
// comes from the `EncodeContext` the Packr passes in. Byte choices follow msgpackr 2.1.3 exactly
// (docs/wire-format.md, "What the encoder writes").

import { concatBytes } from "../_core/bytes.ts";
import { C1Type } from "../_core/c1.ts";
import { encodeBigIntPayload } from "../_format/bigint_ext.ts";
import type { Extension, WriteTarget } from "../_core/extensions.ts";
import { DECIMAL_MULTIPLIERS } from "../_format/float32.ts";
import type { Structure } from "../_core/options.ts";
import type { StructureEncoder } from "../_records/structures.ts";
import { type CreateNode, type KeyNode, ShapeTree } from "../_records/shape_tree.ts";
import { writeExactTimestamp, writeTimestamp } from "../_format/timestamp.ts";
import { TIMESTAMP_BRAND } from "../_core/timestamp.ts";
import type { EncodeContext } from "./context.ts";
import { typedArrayCode } from "../_format/typed_array_ext.ts";
import { encodeUtf8Manually, textEncoder, toWellFormed } from "../_strings/utf8.ts";
import { MANUAL_UTF8_MAX, nativeUtf8Write } from "../_strings/utf8_writer.ts";
import {
  ARENA_KEEP_LIMIT,
  ARENA_SIZE,
  GROW_DOUBLE_MAX,
  GROW_FOURFOLD_MAX,
  GROW_MIN_STEP,
  LARGE_BYTES_MIN,
  MAX_COMPILES_PER_PACK,
  MAX_WRITER_PROPERTIES,
  WRITES_BEFORE_COMPILE,
} from "../_core/thresholds.ts";

/** A caller-provided output buffer (`useBuffer`) and where the next pack writes in it. */
export interface OutputBuffer {
  bytes: Bytes;
  view: DataView<ArrayBuffer>;
  position: number;
}

/**
 * `pack(value, REUSE_BUFFER_MODE)`: return the whole output buffer with `start` and `end` set
 * instead of a copy of the packed bytes.
 * @example Usage
 * ```ts
 * import { Packr, REUSE_BUFFER_MODE } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const packr = new Packr({ useRecords: false });
 * const whole = packr.pack("hi", REUSE_BUFFER_MODE);
 * assert.deepEqual([...whole.subarray(whole.start, whole.end)], [0xa2, 0x68, 0x69]);
 * ```
 */
export const REUSE_BUFFER_MODE = 512;
/**
 * `pack(value, RESET_BUFFER_MODE)`: the next pack into a `useBuffer` buffer starts where this
 * one started, overwriting it.
 * @example Usage
 * ```ts
 * import { Packr, RESET_BUFFER_MODE } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const packr = new Packr({ useRecords: false });
 * packr.useBuffer(new Uint8Array(4096));
 * const first = packr.pack(1, RESET_BUFFER_MODE);
 * const second = packr.pack(2);
 * assert.equal(first.byteOffset, second.byteOffset);
 * ```
 */
export const RESET_BUFFER_MODE = 1024;
/**
 * `pack(value, RESERVE_START_SPACE | n)`: leave `n` (≤ 255) zero bytes before the value, for a
 * header of your own.
 * @example Usage
 * ```ts
 * import { Packr, RESERVE_START_SPACE } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const bytes = new Packr({ useRecords: false }).pack(7, RESERVE_START_SPACE | 2);
 * assert.deepEqual([...bytes], [0, 0, 7]);
 * ```
 */
export const RESERVE_START_SPACE = 2048;

/**
 * Internal flag (not for users): the result is a view of the shared arena, valid only until the
 * next pack, for a caller that copies it at once (`new Response(bytes)` copies its body), so the
 * pack does not make an exact-size copy that is copied again.
 */
export const BORROW_ARENA = 0x10000;

/**
 * A buffer returned with `REUSE_BUFFER_MODE`: the value is `buffer.subarray(start, end)`.
 * @example Usage
 * ```ts
 * import { Packr, REUSE_BUFFER_MODE, type ReusedBuffer } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const whole: ReusedBuffer = new Packr().pack(null, REUSE_BUFFER_MODE);
 * assert.equal(whole[whole.start], 0xc0);
 * ```
 */
export type ReusedBuffer = Uint8Array<ArrayBuffer> & { start: number; end: number };

const MAX_BUFFER_SIZE = 0x7fd00000;
/** Most UTF-16 units of bundled strings per bundle (keeps msgpackr's bundle boundaries). */
const MAX_BUNDLE_SIZE = 0x5500;
const NON_ASCII = /[\u0080-\uFFFF]/;

// ---- state of the pack in progress -------------------------------------------------------------

/** Bytes written by `pack` (always ArrayBuffer-backed, so usable as a `BufferSource`). */
export type Bytes = Uint8Array<ArrayBuffer>;

let arena: Bytes = new Uint8Array(ARENA_SIZE);
let arenaView: DataView<ArrayBuffer> = new DataView(arena.buffer);
let target: Bytes = arena;
let targetView: DataView<ArrayBuffer> = arenaView;
let position = 0;
/** Where the output of the pack in progress begins in `target`. */
let start = 0;
let safeEnd = target.length - 10;
let context: EncodeContext;
let references: Map<unknown, Reference> | null = null;
let bundle: Bundle | null = null;
let depth = 0;

/**
 * The state of the pack in progress that is read once per pack or once per value of a kind (an
 * extension's class, a reference id, a bundle, a large binary), never per byte: one object, so a
 * pack nested in another swaps in a fresh one and swaps the outer one back in one assignment. The
 * state read per value or per container stays in the module-level variables above, which
 * `saveHot` lists.
 */
function newEncodeSession() {
  return {
    /** `true` from the start of a pack to its end; a pack that starts meanwhile is nested. */
    encoding: false,
    customEncoders: [] as readonly Extension[],
    idsToInsert: null as Reference[] | null,
    closedBundles: [] as Bundle[],
    /** Whether this pack may gather large binary values (`writeBytes`): see `gatherOutput`. */
    gatherLargeBytes: false,
    /** The large binary values this pack gathered so far; null while there are none. */
    largeBytes: null as GatheredBytes[] | null,
  };
}

let session: ReturnType<typeof newEncodeSession> = newEncodeSession();

export interface Reference {
  /** Offset (from `start`) of the object's first byte. */
  offset: number;
  /** Id from the first back-reference; 0 = referenced once so far. */
  id: number;
}

/**
 * A binary value of at least LARGE_BYTES_MIN bytes that `pack()` copies straight from the caller's
 * memory into its exact-size output, instead of into the arena first and then out again.
 */
interface GatheredBytes {
  bytes: Uint8Array;
  /** Offset (from `start`) in the arena where its bytes belong (after its header). */
  offset: number;
  /** Its length when it was reached: a value detached since then is an error. */
  length: number;
}

export interface Bundle {
  nonAscii: string;
  ascii: string;
  /**
   * UTF-16 units bundled since this bundle opened (msgpackr's count; docs/wire-format.md,
   * "Bundled strings").
   */
  size: number;
  /** Offset (from `start`) of the 4-byte field that points at this bundle's strings. */
  field: number;
  /** Offset (from `start`) where this bundle's strings were written; -1 while open. */
  strings: number;
}

// ---- buffer management -------------------------------------------------------------------------

/**
 * Grows the output so `end` fits, keeping the bytes of the pack in progress. New sizes follow
 * msgpackr's (docs/wire-format.md, "Output buffers").
 */
function makeRoom(end: number): void {
  const used = end - start;
  let newSize: number;
  if (end > GROW_FOURFOLD_MAX) {
    if (used > MAX_BUFFER_SIZE) {
      throw new RangeError("Packed buffer would be larger than maximum buffer size");
    }
    newSize = Math.min(
      MAX_BUFFER_SIZE,
      Math.round(Math.max(used * (end > GROW_DOUBLE_MAX ? 1.25 : 2), GROW_MIN_STEP) / 0x1000) *
        0x1000,
    );
  } else {
    newSize = ((Math.max(used << 2, target.length - 1) >> 12) + 1) << 12;
  }
  const grown = new Uint8Array(newSize);
  grown.set(target.subarray(start, Math.min(position, target.length)));
  position -= start;
  start = 0; // offsets kept relative to start (references, bundles) stay valid
  setTarget(grown);
}

/** Writes into `bytes` (`view` its DataView) from here on, scalars up to its `safeEnd`. */
function setTarget(bytes: Bytes, view: DataView<ArrayBuffer> = new DataView(bytes.buffer)): void {
  target = bytes;
  targetView = view;
  safeEnd = bytes.length - 10;
}

// ---- values ------------------------------------------------------------------------------------

/** Writes any value at `position`. */
function writeValue(value: unknown): void {
  if (position > safeEnd) makeRoom(position);
  switch (typeof value) {
    case "string":
      writeString(value);
      return;
    case "number":
      writeNumber(value);
      return;
    case "object":
      if (value === null) target[position++] = 0xc0;
      else writeObjectValue(value);
      return;
    case "boolean":
      target[position++] = value ? 0xc3 : 0xc2;
      return;
    case "undefined":
      if (context.encodeUndefinedAsNil) {
        target[position++] = 0xc0;
      } else {
        // fixext1 type 0, data 0: the common JS convention for undefined
        target[position++] = 0xd4;
        target[position++] = 0;
        target[position++] = 0;
      }
      return;
    case "bigint":
      writeBigInt(value);
      return;
    case "function":
      writeObjectValue(value);
      return;
  }
  throw new TypeError(`Unknown type: ${typeof value}`);
}

/**
 * Strings: the header is guessed from the UTF-16 length (the UTF-8 length is at least that),
 * the bytes written after it, and the bytes moved up with `copyWithin` when the guess was short.
 * Strings under 32 units are written by hand at once after a one-byte header (a fixstr when
 * ASCII, as most short strings are). The bytes are always well-formed UTF-8, what `TextEncoder`
 * writes: an unpaired surrogate is U+FFFD whoever writes it (msgpackr writes it in its 3-byte
 * WTF-8 form under 64 units; docs/wire-format.md, "Strings"). Who writes them: see
 * MANUAL_UTF8_MAX below.
 */
function writeString(value: string): void {
  const length = value.length;
  if (bundle !== null && length >= 4 && length < 0x1000) {
    context.features!.writeBundledString(value);
    return;
  }
  if (length < 0x20) {
    // under 32 units: a fixstr unless the UTF-8 is 32 bytes or more (at most 93: a str8)
    if (position + 0x60 > safeEnd) makeRoom(position + 0x60); // may move the output
    const at = position;
    const end = encodeUtf8Manually(target, targetView, at + 1, value);
    const byteLength = end - at - 1;
    if (byteLength < 0x20) {
      target[at] = 0xa0 | byteLength;
      position = end;
    } else {
      target.copyWithin(at + 2, at + 1, end);
      target[at] = 0xd9;
      target[at + 1] = byteLength;
      position = end + 1;
    }
    return;
  }
  const headerSize = length < 0x100 ? 2 : length < 0x10000 ? 3 : 5;
  const maxBytes = length * 3;
  if (position + maxBytes > safeEnd) makeRoom(position + maxBytes);
  const dataStart = position + headerSize;
  const byteLength = length <= MANUAL_UTF8_MAX
    ? encodeUtf8Manually(target, targetView, dataStart, value) - dataStart
    : encodeUtf8Natively(value, dataStart);
  // 32 units or more: at least 32 bytes (UTF-8 has at least as many bytes as UTF-16 has units)
  if (byteLength < 0x100) {
    target[position++] = 0xd9;
    target[position++] = byteLength;
  } else if (byteLength < 0x10000) {
    if (headerSize < 3) {
      target.copyWithin(position + 3, position + headerSize, position + headerSize + byteLength);
    }
    target[position++] = 0xda;
    target[position++] = byteLength >> 8;
    target[position++] = byteLength & 0xff;
  } else {
    if (headerSize < 5) {
      target.copyWithin(position + 5, position + headerSize, position + headerSize + byteLength);
    }
    target[position++] = 0xdb;
    targetView.setUint32(position, byteLength);
    position += 4;
  }
  position += byteLength;
}

// Who writes a string's bytes: under 32 units, JavaScript (`writeString`'s first branch); up to
// MANUAL_UTF8_MAX units, JavaScript; longer, the engine (`_strings/utf8_writer.ts` says which).

/**
 * Writes `value` (longer than MANUAL_UTF8_MAX units) as UTF-8 at `start` with the engine's
 * encoder and returns the byte length. Both engine writers write an unpaired surrogate as U+FFFD
 * (`ef bf bd`), as `encodeUtf8Manually` does.
 */
function encodeUtf8Natively(value: string, start: number): number {
  return nativeUtf8Write !== null
    ? nativeUtf8Write.call(target, value, start, target.length - start)
    : textEncoder.encodeInto(value, target.subarray(start)).written;
}

function writeNumber(value: number): void {
  if (value >>> 0 === value) {
    // 0 ≤ value < 2^32 (and -0)
    if (value < 0x40 || (value < 0x80 && context.fixintsTo0x7f)) {
      target[position++] = value;
    } else if (value < 0x100) {
      target[position++] = 0xcc;
      target[position++] = value;
    } else if (value < 0x10000) {
      target[position++] = 0xcd;
      target[position++] = value >> 8;
      target[position++] = value & 0xff;
    } else {
      target[position++] = 0xce;
      targetView.setUint32(position, value);
      position += 4;
    }
  } else if (value >> 0 === value) {
    // -2^31 ≤ value < 0
    if (value >= -0x20) {
      target[position++] = 0x100 + value;
    } else if (value >= -0x80) {
      target[position++] = 0xd0;
      target[position++] = value + 0x100;
    } else if (value >= -0x8000) {
      target[position++] = 0xd1;
      targetView.setInt16(position, value);
      position += 2;
    } else {
      target[position++] = 0xd2;
      targetView.setInt32(position, value);
      position += 4;
    }
  } else if (context.useInt64 && Number.isSafeInteger(value)) {
    writeInt64(value);
  } else {
    writeFloat(value);
  }
}

/**
 * A safe integer beyond 32 bits, under `useInt64`: uint64 `cf` when positive, int64 `d3` when
 * negative, then the 8 bytes big-endian. The high word is `floor(value / 2^32)` (a division by a
 * power of two is exact) and the low word `value mod 2^32`, which `>>> 0` gives for any integer.
 */
function writeInt64(value: number): void {
  target[position] = value > 0 ? 0xcf : 0xd3;
  targetView.setInt32(position + 1, Math.floor(value / 0x100000000));
  targetView.setUint32(position + 5, value >>> 0);
  position += 9;
}

/**
 * Fractions, NaN, ±Infinity and integers outside [-2^31, 2^32) (but for safe integers under
 * `useInt64`): float64, or float32 (docs/wire-format.md, "Float32 modes").
 */
function writeFloat(value: number): void {
  const useFloat32 = context.useFloat32;
  if (useFloat32 > 0 && value < 0x100000000 && value >= -0x80000000) {
    target[position] = 0xca;
    targetView.setFloat32(position + 1, value);
    if (useFloat32 < 4 || context.features!.keepsDecimals(value, target, position)) {
      position += 5;
      return;
    }
  }
  target[position] = 0xcb;
  if (value === value || !context.canonical) {
    targetView.setFloat64(position + 1, value);
  } else {
    // one NaN: V8 writes a NaN's own sign and payload bits, JavaScriptCore one pattern
    targetView.setUint32(position + 1, 0x7ff80000);
    targetView.setUint32(position + 5, 0);
  }
  position += 9;
}

/**
 * Bigints: int64 `d3` within [-2^63, 2^63), uint64 `cf` up to 2^64, else float64, a string or
 * the "B" extension as the options say (docs/wire-format.md, "Integers and bigints"). With
 * `canonical`, every bigint from 0 up to 2^64 is `cf`, as `@msgpack/msgpack`'s `useBigInt64`
 * writes it.
 */
function writeBigInt(value: bigint): void {
  if (
    value < 0x8000000000000000n && value >= -0x8000000000000000n &&
    !(value >= 0 && context.canonical)
  ) {
    target[position] = 0xd3;
    targetView.setBigInt64(position + 1, value);
  } else if (value < 0x10000000000000000n && value >= 0) {
    target[position] = 0xcf;
    targetView.setBigUint64(position + 1, value);
  } else if (context.largeBigIntToFloat) {
    target[position] = 0xcb;
    targetView.setFloat64(position + 1, Number(value));
  } else if (context.largeBigIntToString) {
    return writeString(value.toString());
  } else if (context.bigIntExtension) {
    return writeExtensionData(context.features!.encodeBigIntPayload(value), 0x42);
  } else {
    throw new RangeError(
      `${value} was too large to fit in MessagePack 64-bit integer format, use useBigIntExtension, or set largeBigIntToFloat to convert to float-64, or set largeBigIntToString to convert to string`,
    );
  }
  position += 9;
}

function enter(): void {
  if (++depth > context.maxDepth) {
    throw new RangeError(
      `Nesting deeper than maxDepth (${context.maxDepth}): is the value cyclic? Use structuredClone: true to pack cyclic values`,
    );
  }
}

/** Objects, arrays, maps, class instances and functions. */
function writeObjectValue(value: object): void {
  if (references !== null) {
    const reference = references.get(value);
    if (reference !== undefined) {
      // "p" pointer: the object again (ids count from 1 in order of first back-reference)
      if (reference.id === 0) reference.id = (session.idsToInsert ??= []).push(reference);
      target[position++] = 0xd6;
      target[position++] = 0x70;
      targetView.setUint32(position, reference.id);
      position += 4;
      return;
    }
    references.set(value, { offset: position - start, id: 0 });
  }
  const constructor = value.constructor;
  if (constructor === Object) writeObject(value as Record<string, unknown>);
  else if (constructor === Array) writeArray(value as unknown[]);
  else if (constructor === Map) writeMap(value as Map<unknown, unknown>);
  else writeClassInstance(value);
}

function writeArray(array: readonly unknown[]): void {
  const length = array.length;
  if (length < 0x10) target[position++] = 0x90 | length;
  else writeLength16(length, 0xdc);
  enter();
  const first = length > 0 ? array[0] : undefined;
  // (not `canonical`: its NaN is written by `writeFloat`)
  if (typeof first === "number" && context.useFloat32 === 0 && !context.canonical) {
    writeNumberElements(array, length);
  } else if (mapWriters && typeof first === "object" && first !== null) {
    writeObjectElements(array, length);
  } else {
    for (let i = 0; i < length; i++) {
      const item = array[i];
      // numbers (vectors, series) and strings straight to their writers: these call sites only
      // ever see one type, so the engine keeps them fast whatever else `writeValue` has seen
      if (typeof item === "number" && position <= safeEnd) writeNumber(item);
      else if (typeof item === "string") writeString(item);
      else writeValue(item);
    }
  }
  depth--;
}

/**
 * The elements of an array that starts with a number, when floats are written as float64
 * (`useFloat32` off, not `canonical`): the output, its view, its safe end and the position in
 * locals, as the decoder's `readNumberElements` keeps them (no loads and stores of module
 * variables per element). The two commonest forms are written here: a positive fixint
 * `0xxxxxxx` below 0x40, and a float64 `cb` + 8 bytes big-endian for a number that is neither a
 * uint32 nor an int32 (what `writeFloat` writes without float32) and not a safe integer under
 * `useInt64`. Every other
 * number goes to `writeNumber`, every other value to `writeValue`, with `position` written back
 * first and the locals read back after (an element may have moved the output to a larger
 * buffer). Arrays that start with anything else keep the loop in `writeArray`.
 */
function writeNumberElements(array: readonly unknown[], length: number): void {
  let bytes = target;
  let view = targetView;
  let end = safeEnd;
  let at = position;
  const int64 = context.useInt64;
  for (let i = 0; i < length; i++) {
    const item = array[i];
    if (typeof item === "number" && at <= end) {
      if (item >>> 0 === item) {
        if (item < 0x40) {
          bytes[at++] = item;
          continue;
        }
      } else if (item >> 0 !== item && !(int64 && Number.isSafeInteger(item))) {
        bytes[at] = 0xcb;
        view.setFloat64(at + 1, item);
        at += 9;
        continue;
      }
      position = at;
      writeNumber(item);
      at = position;
    } else {
      position = at;
      writeValue(item);
      at = position;
      bytes = target;
      view = targetView;
      end = safeEnd;
    }
  }
  position = at;
}

/**
 * The elements of an array that starts with an object, in a pack whose plain objects are maps
 * (`mapWriters`): a plain object goes straight to the generated writer its shape had at this depth
 * last (which checks its keys), without the dispatch of `writeValue`; anything else, and an object
 * that writer refuses, to `writeValue`, which learns the writer for the next element.
 */
function writeObjectElements(array: readonly unknown[], length: number): void {
  for (let i = 0; i < length; i++) {
    const item = array[i];
    const writer = predictedWriters[depth];
    if (
      writer !== undefined && typeof item === "object" && item !== null &&
      item.constructor === Object && !mayHaveInheritedKeys(item) &&
      writer(item as Record<string, unknown>)
    ) continue;
    writeValue(item);
  }
}

function writeMapHeader(length: number): void {
  if (length < 0x10) target[position++] = 0x80 | length;
  else writeLength16(length, 0xde);
}

/**
 * A length after a type byte: `code` and one byte under 2^8, else as {@linkcode writeLength16}
 * with `code + 1` (bin8/16/32 from `c4`, ext8/16/32 from `c7`).
 */
function writeLength8(length: number, code: number): void {
  if (length < 0x100) {
    target[position++] = code;
    target[position++] = length;
  } else writeLength16(length, code + 1);
}

/** `code` and two bytes under 2^16, else `code + 1` and four (array16/32 `dc`, map16/32 `de`). */
function writeLength16(length: number, code: number): void {
  if (length < 0x10000) {
    target[position++] = code;
    target[position++] = length >> 8;
    target[position++] = length & 0xff;
  } else {
    target[position++] = code + 1;
    targetView.setUint32(position, length);
    position += 4;
  }
}

function writeMap(map: Map<unknown, unknown>): void {
  if (context.mapAsEmptyObject) {
    target[position++] = 0x80;
    return;
  }
  // `canonical`: the same entries in canonical order
  if (context.canonical) map = context.features!.canonicalEntries(map);
  writeMapHeader(map.size);
  enter();
  for (const [key, entry] of map) {
    writeValue(key);
    writeValue(entry);
  }
  depth--;
}

// ---- plain objects and records -----------------------------------------------------------------

/** msgpackr's default map form: always map16, the count back-patched after the entries. */
function writeMap16Object(object: Record<string, unknown>): void {
  // the generated writer of the shape last written at this depth: it checks the keys itself
  // and writes nothing (returning false) when they are not its own
  const predicted = mapWriters ? predictedWriters[depth] : undefined;
  if (predicted !== undefined && !mayHaveInheritedKeys(object) && predicted(object)) return;
  target[position++] = 0xde;
  const sizeOffset = position - start; // relative to start: makeRoom may move the output
  position += 2;
  let size = 0;
  let shape = bundle === null ? objectShapes.root : null;
  enter();
  // for-in walks the engine's cached key list without building an array; inherited enumerable
  // keys (rare) are skipped, tested per key only when the object can have any
  const mayInherit = mayHaveInheritedKeys(object);
  for (const key in object) {
    if (mayInherit && !hasOwn(object, key)) continue;
    const value = object[key];
    if (inheritedAfterDelete(object, key, value)) continue;
    shape = writeObjectKey(shape, key);
    writeValue(value);
    size++;
  }
  depth--;
  if (size > 0xffff) {
    throw new RangeError(
      'Object is too large to serialize with fast 16-bit map size, use the "variableMapSize" option to serialize this object',
    );
  }
  target[start + sizeOffset] = size >> 8;
  target[start + sizeOffset + 1] = size & 0xff;
  // shapes are learned where their writers may be used: in packs of plain maps
  if (mapWriters) {
    if (shape !== null) learnMapShape(shape, object);
    else lastWriter = undefined;
  }
}
const hasOwn = Object.hasOwn;
const getPrototypeOf = Object.getPrototypeOf;
const objectPrototype = Object.prototype;

/**
 * Whether a for-in over `object` may yield inherited keys: it may unless its prototype is
 * `Object.prototype` and that has no enumerable property (its own prototype is null). Asked per
 * object, not per pack, so a getter that adds one during a pack is seen. This test once per
 * object is far cheaper on V8 than `hasOwn` for every key.
 */
function mayHaveInheritedKeys(object: object): boolean {
  if (getPrototypeOf(object) !== objectPrototype) return true;
  for (const _ in objectPrototype) return true;
  return false;
}

/**
 * Whether `value`, just read as `object[key]` for a key a for-in gave, is inherited because a
 * getter deleted the own property meanwhile: V8's for-in still gives a deleted key that the
 * prototype has (`toString`, `__proto__`: `key in object` holds), JavaScriptCore's does not. What
 * Object.prototype gives is a function, Object.prototype itself (`__proto__`), or `undefined`
 * (Deno's `__proto__`), so other values cost a type test or two.
 */
function inheritedAfterDelete(object: object, key: string, value: unknown): boolean {
  return (typeof value === "function" || value === undefined || value === objectPrototype) &&
    !hasOwn(object, key);
}

/**
 * Smallest map header; `skipValues` leaves properties out, `coercibleKeyAsNumber` numbers keys,
 * `canonical` sorts them (see {@linkcode canonicalEntries}).
 */
function writeVariableMapObject(object: Record<string, unknown>): void {
  const skipValues = context.skipValues;
  let keys = Object.keys(object);
  if (context.canonical) keys.sort();
  if (skipValues !== undefined) keys = keys.filter((key) => !skipValues.includes(object[key]));
  const length = keys.length;
  const asNumbers = context.coercibleKeyAsNumber;
  writeMapHeader(length);
  enter();
  let shape = bundle === null ? objectShapes.root : null;
  for (let i = 0; i < length; i++) {
    const key = keys[i];
    // a key a number reads back from is written as that number (`coercibleKeyAsNumber`)
    const number = asNumbers ? Number(key) : NaN;
    if (number === number) writeValue(number);
    else shape = writeObjectKey(shape, key);
    writeValue(object[key]);
  }
  depth--;
}

/**
 * A key sequence of objects being packed, as plain objects (`objectShapes`) or as records (a
 * Packr's tree, `StructureEncoder`), with its generated writer once it has one.
 */
export interface KeyShape extends KeyNode<KeyShape> {
  /** Objects of exactly this key sequence written so far without a generated writer. */
  writes: number;
  /** The generated writer of objects of exactly this key sequence; null until compiled. */
  writer: ObjectWriter | null;
  /** Records: the id of the shape that ends here, 0 for none. */
  recordId: number;
  /** Records: the keys of the shape that ends here (kept when its id is evicted). */
  keys: Structure | undefined;
}

/** The encoder's node literal, not shared with the decoder's (see `CreateNode`). */
export const createKeyShape: CreateNode<KeyShape> = (id, key, parent, size, keyAt) => ({
  id,
  key,
  parent,
  size,
  hot: null,
  children: null,
  keyAt,
  keyLength: 0,
  writes: 0,
  writer: null,
  recordId: 0,
  keys: undefined,
});

/**
 * The encoder's tree of the key sequences of plain objects (`_records/shape_tree.ts`): a property
 * name met where it was met last (same object shape, same place) is copied from the bytes kept in
 * the tree instead of being encoded again. Not used while bundling strings (names may go into the
 * bundle then).
 */
export const objectShapes: ShapeTree<KeyShape> = new ShapeTree<KeyShape>(createKeyShape);
const keptKeyWords = objectShapes.keyWords;

/**
 * Writes `key`, the next property name of an object whose names so far led to `shape`, and
 * returns the shape that includes it (`null`: the tree does not follow this object further).
 * The kept bytes are copied four at a time (word layout in `_records/shape_tree.ts`); a name
 * written for the first time is kept (if it is a fixstr).
 */
function writeObjectKey(shape: KeyShape | null, key: string): KeyShape | null {
  if (shape !== null) {
    const hot = shape.hot;
    shape = hot !== null && hot.key === key ? hot : objectShapes.step(shape, key);
  }
  if (shape !== null && shape.keyLength !== 0) {
    const length = shape.keyLength;
    if (position + length > safeEnd) makeRoom(position + length);
    const at = shape.keyAt;
    if (length >= 4) {
      targetView.setInt32(position, keptKeyWords[at], true);
      targetView.setInt32(position + length - 4, keptKeyWords[at + 1], true);
      for (let offset = 4, word = at + 2; offset < length - 4; offset += 4) {
        targetView.setInt32(position + offset, keptKeyWords[word++], true);
      }
    } else {
      const packed = keptKeyWords[at];
      for (let i = 0; i < length; i++) target[position + i] = packed >> (8 * i);
    }
    position += length;
    return shape;
  }
  const keyOffset = position - start; // relative to start: makeRoom may move the output
  writeString(key);
  if (shape !== null) objectShapes.keepKey(shape, target, start + keyOffset, position);
  return shape;
}

/** A plain object: a record when records are on and `useRecords` accepts it, else a map. */
function writeObject(object: Record<string, unknown>): void {
  const predicate = context.recordsPredicate;
  if (context.records !== null && (predicate === null || predicate(object))) {
    context.features!.writeRecord(object);
  } else {
    writePlainObject(object);
  }
}

function writePlainObject(object: Record<string, unknown>): void {
  if (context.variableMap) context.features!.writeVariableMapObject(object);
  else writeMap16Object(object);
}

/**
 * A record (docs/wire-format.md, "Records"): walk the Packr's shape tree with the keys; a known
 * shape writes its id (one byte, or two in two-byte mode for ids ≥ 0x60), a new shape gets an id
 * from the structure policy — shared (id only) or own (inline definition `d4 72 id` / `d5 72 lo
 * hi` + keys) — then the values.
 *
 * The keys come from two for-in loops (the walk, then the values), not from `Object.keys`: for-in
 * builds no array, and `object[key]` inside it is a load from the key's slot on both engines,
 * where a load by a key taken from an array is a keyed lookup. The tree's `hot` child, tested
 * inline, makes the walk of a shape met again one comparison a key.
 * Chosen by measurement: npm run bench:paired:deno / :bun (example4.json).
 */
function writeRecord(object: Record<string, unknown>): void {
  const structures = context.records!;
  const shapes = structures.shapes!;
  const made = shapes.size; // the nodes a new shape adds weigh its id (`allocate`)
  // inherited enumerable keys (rare) are skipped, as in `writeMap16Object`
  const mayInherit = mayHaveInheritedKeys(object);
  let node = shapes.root;
  let count = 0;
  for (const key in object) {
    if (mayInherit && !hasOwn(object, key)) continue;
    const hot = node.hot;
    // a records tree is unbounded: `step` always gives a node
    node = hot !== null && hot.key === key ? hot : shapes.step(node, key)!;
    count++;
  }
  const recordId = node.recordId;
  if (recordId !== 0) writeRecordId(recordId, structures.twoByte);
  else if (!writeNewRecordHeader(structures, node, object, shapes.size - made)) {
    writePlainObject(object);
    return;
  }
  enter();
  const writer = node.writer;
  if (writer !== null) {
    // `false`: a getter deleted a property meanwhile; the generic loop below finds it missing
    const at = position - start; // relative to start: makeRoom may move the output
    if (writer(object) !== false) {
      depth--;
      return;
    }
    position = start + at;
  }
  if (writerCompiler !== null && dueForWriter(node)) {
    node.writer = compileWriter(node, node.keys ?? Object.keys(object), null, object);
  }
  for (const key in object) {
    if (mayInherit && !hasOwn(object, key)) continue;
    const value = object[key];
    if (inheritedAfterDelete(object, key, value)) continue;
    writeValue(value);
    count--;
  }
  depth--;
  // a getter that added or deleted properties of its own object: the values do not match the
  // record's keys
  if (count !== 0) throw new Error("An object's properties changed while it was being packed");
}

/**
 * A record id as a record starts with it, and as the data of its inline definition: one byte
 * 0x40..0x7f, or in two-byte mode an id ≥ 0x60 as 0x60 + its low five bits, then the rest shifted
 * down (`(id - 0x60) >> 5`; docs/wire-format.md, "Two-byte ids").
 */
function writeRecordId(recordId: number, twoByte: boolean): void {
  if (recordId >= 0x60 && twoByte) {
    target[position++] = (recordId & 0x1f) + 0x60;
    target[position++] = (recordId - 0x60) >> 5;
  } else {
    target[position++] = recordId;
  }
}

/**
 * Gives the shape at `node` (reached with `object`'s keys, making `newNodes` nodes) an id from the
 * structure policy and writes it. `false`: the object is to be written as a plain map instead.
 */
function writeNewRecordHeader(
  structures: StructureEncoder,
  node: KeyShape,
  object: Record<string, unknown>,
  newNodes: number,
): boolean {
  const keys = node.keys ?? Object.keys(object);
  const recordId = structures.allocate(node, keys, newNodes);
  if (recordId === 0) return false;
  if (recordId < structures.sharedLimitId) {
    // shared: only the id; the structure is known to both sides (saved after this pack)
    writeRecordId(recordId, structures.twoByte);
    return true;
  }
  // own: the definition inline, an ext of type "r" whose data is the id (fixext1, or fixext2
  // for a two-byte id), then the keys
  target[position++] = recordId >= 0x60 && structures.twoByte ? 0xd5 : 0xd4;
  target[position++] = 0x72;
  writeRecordId(recordId, structures.twoByte);
  // with structuredClone the keys array is an object of the pack like any other, as msgpackr
  // packs it: a shape defined again in the same pack (its own id was reused) points to the keys
  // of its first definition (docs/wire-format.md, "References and cycles")
  if (references !== null) writeObjectValue(keys);
  else writeArray(keys);
  return true;
}

// ---- generated writers (docs/architecture.md, "Why it is fast") -------------------------------
//
// A shape written often gets a writer made by code generation, by the compiler the default build
// installs (`_encode/writer_compiler.ts`; the no-eval build installs none, and then none of this
// runs): for a plain object, a function that checks the object's keys against its own, then
// writes the map16 header and each key's bytes as constants, and loads each value by name; for a
// record, a function that loads the values by name once `writeRecord` has walked the keys. Each
// value takes the writer of the type it held when the writer was made (a string to
// `writeString`, a number to `writeNumber`), anything else `writeValue`, so the bytes are
// exactly the generic path's. The writers reach this module's state only through
// `WRITER_HELPERS`, which the compiler receives with each shape: a program that streams values
// in but packs none ships the compiler's module (its entry installs it) but none of the writer.

/**
 * Writes the object a generated writer was made for. `false`: it wrote nothing that stays, and the
 * caller writes the object on the generic path (a plain object whose keys are not the writer's, or
 * an object that lost a property to a getter while it was being written).
 */
export type ObjectWriter = (object: Record<string, unknown>) => boolean | void;

/**
 * Makes a generated writer: for the property `names` of a shape (1 to 16 of them), with
 * `keyBytes` (the encoded bytes of each key: a plain-object writer) or `null` (a record's values
 * writer), taking the type of each value from `sample`. May throw where code generation is
 * forbidden.
 */
export type WriterCompiler = (
  names: readonly string[],
  keyBytes: readonly Uint8Array[] | null,
  sample: Record<string, unknown>,
  helpers: WriterHelpers,
) => ObjectWriter;

let writerCompiler: WriterCompiler | null = null;

/** Installs the generated-writer compiler (default build only). */
export function installWriterCompiler(compiler: WriterCompiler): void {
  writerCompiler = compiler;
}

// MAX_COMPILES_PER_PACK: making a writer costs far more than writing an object, so a value with
// thousands of new shapes cannot keep the compiler busy.
let compilesLeft = MAX_COMPILES_PER_PACK;

/**
 * The writer of the plain-object shape written at each nesting depth by the last two objects
 * there (elements of one array share a depth): tried first for the next object there.
 */
let predictedWriters: (ObjectWriter | undefined)[] = [];
/** The shape of the plain object written last at each nesting depth (by the generic path). */
let lastShapes: (KeyShape | undefined)[] = [];
/** The writer of the plain object the generic path wrote last, if its shape has one. */
let lastWriter: ObjectWriter | undefined;
/**
 * This pack writes plain objects as map16 with nothing in between (no records, no variable-size
 * maps, no reference ids, no bundle), so a plain-object writer may write them: set when the pack
 * starts, and only where a writer compiler is installed.
 */
let mapWriters = false;

// MAX_WRITER_PROPERTIES: a larger shape's writer is too large for the engines to inline its
// helpers into, and writes slower than the generic path.
/** `writes` of a shape that never gets a writer. */
const NEVER = -0x40000000;

/**
 * Counts a write of a shape without a writer; true when it should get one now: it has been
 * written `WRITES_BEFORE_COMPILE` times since it last asked, and this pack may still compile.
 */
function dueForWriter(node: { writes: number }): boolean {
  if (++node.writes < WRITES_BEFORE_COMPILE) return false;
  node.writes = 0; // asks again after as many writes if it gets none now
  return compilesLeft > 0;
}

/**
 * The generated writer of `node`'s shape, or `null`: none for this shape, ever (`node` is marked
 * so), or none anywhere (code generation is forbidden here).
 */
function compileWriter(
  node: { writes: number },
  names: readonly string[],
  keyBytes: readonly Uint8Array[] | null,
  sample: Record<string, unknown>,
): ObjectWriter | null {
  if (writerCompiler === null) return null;
  if (names.length === 0 || names.length > MAX_WRITER_PROPERTIES) {
    node.writes = NEVER;
    return null;
  }
  compilesLeft--;
  try {
    return writerCompiler(names, keyBytes, sample, WRITER_HELPERS);
  } catch {
    // code generation is forbidden here (CSP, Trusted Types): stop trying, for good
    writerCompiler = null;
    return null;
  }
}

/**
 * After the generic path wrote `object`, a plain object whose keys led to `shape`: counts it, makes
 * the shape's writer once it has been written often, keeps it as `lastWriter` (for the field that
 * held the object), and predicts it for the next object at this depth.
 */
function learnMapShape(shape: KeyShape, object: Record<string, unknown>): void {
  let writer = shape.writer;
  if (writer === null && dueForWriter(shape)) {
    const keyBytes = shapeKeys(shape);
    // a long key: the writer's key calls are for short ones
    if (keyBytes === null) shape.writes = NEVER;
    else writer = shape.writer = compileWriter(shape, keyBytes.names, keyBytes.bytes, object);
  }
  lastWriter = writer ?? undefined;
  // predicted only for a shape that came twice in a row here: where shapes take turns, a writer
  // tried first would only refuse each object
  if (lastShapes[depth] === shape) predictedWriters[depth] = lastWriter;
  else {
    lastShapes[depth] = shape;
    predictedWriters[depth] = undefined;
  }
}

/**
 * The keys of `shape` and their encoded bytes, as `writeString` writes them (a key of fewer than
 * 32 UTF-16 units goes its short path), or `null` when a key is longer.
 */
function shapeKeys(shape: KeyShape): { names: string[]; bytes: Uint8Array[] } | null {
  const names: string[] = [];
  const bytes: Uint8Array[] = [];
  for (let node = shape; node.parent !== null; node = node.parent) {
    const key = node.key;
    if (key.length >= 0x20) return null;
    const end = encodeUtf8Manually(keyScratch, keyScratchView, 2, key);
    const length = end - 2;
    // a fixstr, or a str8 for 32 bytes and more (as in `writeString`)
    if (length < 0x20) keyScratch[1] = 0xa0 | length;
    else keyScratch.set([0xd9, length]);
    names.push(key);
    bytes.push(keyScratch.slice(length < 0x20 ? 1 : 0, end));
  }
  return { names: names.reverse(), bytes: bytes.reverse() };
}
/** Room for one key's bytes: a str8 header and 3 bytes per unit of fewer than 32. */
const keyScratch = new Uint8Array(0x60);
const keyScratchView = new DataView(keyScratch.buffer);

/**
 * What generated writers call: each is small, so engines inline it into the writer. Handed to the
 * compiler with each shape, so that the compiler's module refers to none of the writer's code.
 * - `head(count)`: a map16 header for `count` entries, and one nesting level; returns where it
 *   starts (from `start`, which stays valid when the output grows);
 * - `undo(at)`: back to `at` and out of the level (the object changed while being written);
 * - `leave()`: out of the level;
 * - `key3(packed, length)`: a key of 1 to 3 bytes, byte i at bits 8i;
 * - `key8(a, last, length)`, `key16(a, b, c, last, length)`: a key of 4 to 8, or 9 to 16, bytes as
 *   little-endian words at offsets 0, 4, 8 (over 12 bytes) and the last at `length - 4` (which may
 *   overlap the one before), so nothing is written past the key (a longer key takes several);
 * - `str`, `num`, `val`: a value (string, number, anything); `obj(value, slots, index)` a value
 *   that was a plain object, tried first with the writer its field's slot remembers.
 */
const WRITER_HELPERS = {
  head(count: number): number {
    const at = position - start;
    target[position] = 0xde;
    target[position + 1] = count >> 8;
    target[position + 2] = count & 0xff;
    position += 3;
    enter();
    return at;
  },
  undo(at: number): boolean {
    position = start + at;
    depth--;
    return false;
  },
  leave(): boolean {
    depth--;
    return true;
  },
  key3(packed: number, length: number): void {
    if (position + 40 > safeEnd) makeRoom(position + 40);
    for (let i = 0; i < length; i++) target[position + i] = packed >> (8 * i);
    position += length;
  },
  key8(a: number, last: number, length: number): void {
    if (position + 40 > safeEnd) makeRoom(position + 40);
    targetView.setInt32(position, a, true);
    targetView.setInt32(position + length - 4, last, true);
    position += length;
  },
  key16(a: number, b: number, c: number, last: number, length: number): void {
    if (position + 40 > safeEnd) makeRoom(position + 40);
    targetView.setInt32(position, a, true);
    targetView.setInt32(position + 4, b, true);
    if (length > 12) targetView.setInt32(position + 8, c, true);
    targetView.setInt32(position + length - 4, last, true);
    position += length;
  },
  str: writeString,
  num(value: number): void {
    if (position > safeEnd) makeRoom(position);
    writeNumber(value);
  },
  val: writeValue,
  obj(value: Record<string, unknown>, slots: (ObjectWriter | undefined)[], index: number): void {
    // a plain object in a plain-maps pack: the writer its shape had when this field last held one
    const writer = slots[index];
    if (
      writer !== undefined && mapWriters && value.constructor === Object &&
      !mayHaveInheritedKeys(value) && writer(value)
    ) return;
    writeValue(value);
    // the writer `learnMapShape` found for the value, if it was a plain object written as one
    slots[index] = value.constructor === Object ? lastWriter : undefined;
  },
};

/** What generated writers call (see `WRITER_HELPERS`), passed to the compiler with each shape. */
export type WriterHelpers = typeof WRITER_HELPERS;

// ---- class instances and extensions ------------------------------------------------------------

const dateToJSON = Date.prototype.toJSON;
// Node's and Bun's Buffer has a toJSON of its own; a Buffer is still binary, as in msgpackr
const bufferToJSON = (globalThis as { Buffer?: { prototype: { toJSON?: unknown } } }).Buffer
  ?.prototype.toJSON;
const TypedArray = Object.getPrototypeOf(Uint8Array);

/**
 * Anything that is not a plain object, plain array or plain Map: custom extensions first (newest
 * first), then msgpackr's built-ins (Date, Set, Error, RegExp, ArrayBuffer, typed arrays,
 * DataView, C1) and ours (Timestamp, Temporal.Instant), then arrays and Maps of subclasses, then
 * `toJSON`, then functions, and last the object's own properties.
 */
function writeClassInstance(value: object): void {
  const customEncoders = session.customEncoders;
  for (let i = 0; i < customEncoders.length; i++) {
    const extension = customEncoders[i];
    if (value instanceof extension.Class!) return writeWithExtension(value, extension);
  }
  if (writeBuiltIn(value)) return;
  if (Array.isArray(value)) return writeArray(value);
  if (value instanceof Map && hasBrand(value, mapSize)) return writeMap(value);
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (context.useToJSON && typeof toJSON === "function") {
    const json = toJSON.call(value);
    if (json !== value) return writeValue(json);
  }
  if (typeof value === "function") return writeValue(context.writeFunction?.(value as never));
  writeObject(value as Record<string, unknown>);
}

/**
 * Whether `value` (an `instanceof builtIn`) is written as that built-in: it has the brand
 * `brandedGetter` checks, when given, and no `toJSON` of its own, since a built-in subclass with
 * one goes through `toJSON` (msgpackr 2.x).
 */
function isBuiltIn(
  value: object,
  builtIn: unknown,
  brandedGetter: ((this: never) => unknown) | null,
): boolean {
  if (brandedGetter !== null && !hasBrand(value, brandedGetter)) return false;
  if (value.constructor === builtIn || !context.useToJSON) return true;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  return toJSON === undefined || toJSON === dateToJSON || toJSON === bufferToJSON;
}

// Brand checks: `instanceof` follows the prototype chain, so `Object.create(new Map())` passes it
// without being a Map, and the built-in methods would throw on it. Such objects are written as
// plain objects. These run only for class instances, never for plain objects, arrays or Maps.
const getTime = Date.prototype.getTime;
const mapSize = Object.getOwnPropertyDescriptor(Map.prototype, "size")!.get!;
const setSize = Object.getOwnPropertyDescriptor(Set.prototype, "size")!.get!;
const regExpSource = Object.getOwnPropertyDescriptor(RegExp.prototype, "source")!.get!;
const arrayBufferLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "byteLength")!
  .get!;

function hasBrand(value: object, brandedGetter: (this: never) => unknown): boolean {
  try {
    brandedGetter.call(value as never);
    return true;
  } catch {
    return false;
  }
}

/**
 * msgpackr's built-in classes, and Timestamp and Temporal.Instant (docs/wire-format.md, "What the
 * encoder writes" and "moreTypes codes"); false when `value` is none of them.
 */
function writeBuiltIn(value: object): boolean {
  if (value instanceof Date) {
    if (!isBuiltIn(value, Date, getTime)) return false;
    writeDate(value);
  } else if (value instanceof Set) {
    if (!isBuiltIn(value, Set, setSize)) return false;
    if (context.setAsEmptyObject) writeValue({});
    else if (context.canonical) {
      writeTagged(0x73, [...context.features!.canonicalEntries(value.entries()).keys()]);
    } else writeTagged(0x73, Array.from(value));
  } else if (value instanceof Error) {
    if (!isBuiltIn(value, Error, null)) return false;
    writeTagged(0x65, [value.name, value.message, (value as { cause?: unknown }).cause]);
  } else if (value instanceof RegExp) {
    if (!isBuiltIn(value, RegExp, regExpSource)) return false;
    writeTagged(0x78, [value.source, value.flags]);
  } else if (value instanceof ArrayBuffer) {
    if (!isBuiltIn(value, ArrayBuffer, arrayBufferLength)) return false;
    writeBytes(new Uint8Array(value), 0x10);
  } else if (ArrayBuffer.isView(value)) {
    if (!isBuiltIn(value, value instanceof DataView ? DataView : TypedArray, null)) return false;
    // the typed array code is needed only with `moreTypes`, a feature of a Packr's context
    const code = value instanceof Uint8Array || !context.moreTypes
      ? -1
      : context.features!.typedArrayCode(value);
    writeBytes(new Uint8Array(value.buffer, value.byteOffset, value.byteLength), code);
  } else if (value instanceof C1Type) {
    target[position++] = 0xc1;
  } else if (
    (value as { [TIMESTAMP_BRAND]?: unknown })[TIMESTAMP_BRAND] === true ||
    (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === "Temporal.Instant"
  ) {
    // a Timestamp, or a Temporal.Instant (native or a polyfill) known by its brand, so nothing
    // is imported and a runtime without Temporal never gets here: their exact nanoseconds in the
    // smallest timestamp form (docs/wire-format.md, "Timestamps")
    const nanoseconds = (value as { epochNanoseconds?: unknown }).epochNanoseconds;
    if (typeof nanoseconds !== "bigint") return false;
    if (position + 15 > safeEnd) makeRoom(position + 15);
    position = writeExactTimestamp(target, targetView, position, nanoseconds);
  } else {
    return false;
  }
  return true;
}

function writeDate(date: Date): void {
  if (isNaN(date.getTime())) {
    // msgpackr's invalid date: a 1-byte timestamp (type -1), which is no time
    if (context.onInvalidDate !== undefined) writeValue(context.onInvalidDate());
    else writeFixext1(0xff, 0xff);
    return;
  }
  if (position + 15 > safeEnd) makeRoom(position + 15);
  position = writeTimestamp(target, targetView, position, date, context.useTimestamp32);
}

/** Set / Error / RegExp: with `moreTypes` a `d4 type 00` tag, then the array. */
function writeTagged(type: number, array: unknown[]): void {
  if (context.moreTypes) writeFixext1(type, 0);
  writeArray(array);
}

/** A fixext1 `d4 type data`: a tag before a value, or a whole value. */
function writeFixext1(type: number, data: number): void {
  target[position++] = 0xd4;
  target[position++] = type;
  target[position++] = data;
}

/**
 * Binary data. With `moreTypes`, typed arrays (other than Uint8Array), ArrayBuffer and DataView
 * are the "t" extension: ext8/16/32 by byteLength + 1 (never fixext) with the code byte first.
 * Otherwise bin8/16/32 of the raw memory bytes. msgpackr writes truncated element values there
 * instead; raw bytes are still a plain bin, so msgpackr reads ours (docs/wire-format.md, "What the
 * encoder writes").
 */
function writeBytes(bytes: Uint8Array, code: number): void {
  const length = bytes.length;
  const gathered = session.gatherLargeBytes && length >= LARGE_BYTES_MIN;
  const end = position + (gathered ? 0 : length) + 7;
  if (end > safeEnd) makeRoom(end);
  if (code >= 0 && context.moreTypes) {
    writeLength8(length + 1, 0xc7);
    target[position++] = 0x74;
    target[position++] = code;
  } else writeLength8(length, 0xc4);
  if (gathered) {
    (session.largeBytes ??= []).push({ bytes, offset: position - start, length });
    return;
  }
  target.set(bytes, position);
  position += length;
}

// LARGE_BYTES_MIN: binary values from 16 KiB on are not copied into the arena when `pack()` will
// copy the output out of it anyway: the header is written, the value is noted in `largeBytes`,
// and `gatherOutput` copies it straight into the exact-size result. That saves one copy of every
// such byte and keeps the arena small. Below this size the two extra `set` calls of a gathered
// value cost more than copying it twice.

/** An ext with the smallest header: fixext for 1/2/4/8/16 bytes, else ext8/16/32. */
function writeExtensionData(payload: Uint8Array, type: number): void {
  const length = payload.length;
  if (position + length + 6 > safeEnd) makeRoom(position + length + 6);
  // fixext1/2/4/8/16: d4 + log2(length)
  if (length > 0 && length <= 16 && (length & (length - 1)) === 0) {
    target[position++] = 0xd4 + 31 - Math.clz32(length);
  } else writeLength8(length, 0xc7);
  target[position++] = type & 0xff;
  target.set(payload, position);
  position += length;
}

function writeWithExtension(value: object, extension: Extension): void {
  const owner = context.owner;
  if (extension.write) {
    if (extension.type) writeFixext1(extension.type & 0xff, 0); // a tag, then the written value
    const written = extension.write.call(owner, value);
    enter();
    if (written !== value) writeValue(written);
    // the extension packs the object as it is: avoid calling it again
    else if (Array.isArray(value)) writeArray(value);
    else writeObject(value as Record<string, unknown>);
    depth--;
    return;
  }
  // msgpackr's signature: pack(value, allocateForWrite, pack). An extension that writes its own
  // bytes reserves them with `allocateForWrite` (and packs values in place with the third
  // argument) and returns nothing; one that returns bytes has them written as its payload.
  let wrote = false;
  const allocateForWrite = (size: number): WriteTarget => {
    if (!Number.isInteger(size) || size < 0) {
      throw new RangeError(`Extension ${extension.type} allocateForWrite(${size}): not a size`);
    }
    if (position + size > safeEnd) makeRoom(position + size);
    wrote = true;
    const at = position;
    position += size;
    return { target, targetView, position: at };
  };
  const packInPlace = (inner: unknown): void => {
    wrote = true;
    enter();
    writeValue(inner);
    depth--;
  };
  const payload = extension.pack!.call(owner, value, allocateForWrite, packInPlace);
  if (payload instanceof Uint8Array) {
    writeExtensionData(payload, extension.type!);
  } else if (payload != null || !wrote) {
    throw new TypeError(
      `Extension ${extension.type} pack() must return a Uint8Array or write with allocateForWrite`,
    );
  }
}

// ---- string bundles (docs/wire-format.md, "Bundled strings") -----------------------------------

/**
 * A string of 4..4095 units while bundling: `c1` + count (+N from the ASCII string, −N from the
 * non-ASCII one), the text appended to the open bundle. The first bundle opens with `d6 62` and
 * a 4-byte field; each later one with an ext whose payload is its own field plus the previous
 * bundle's strings. msgpackr always writes ext16 there and corrupts bundles over 64 KiB; we write
 * ext32 when the payload is larger (msgpackr reads it).
 */
function writeBundledString(value: string): void {
  if (position > safeEnd) makeRoom(position);
  const open = bundle!;
  const length = value.length;
  if ((open.size += length) > MAX_BUNDLE_SIZE) {
    // the header takes at most 10 bytes, which `safeEnd` leaves
    let field: number;
    if (open.field >= 0) {
      const wide = open.nonAscii.length * 3 + open.ascii.length + 10 > 0xffff;
      const headerOffset = position - start; // relative to start: makeRoom may move the output
      target[position] = wide ? 0xc9 : 0xc8;
      position += wide ? 5 : 3;
      target[position++] = 0x62;
      field = position - start;
      position += 4;
      writeBundleStrings(open);
      const headerStart = start + headerOffset;
      let payloadLength = position - start - field;
      if (wide && payloadLength <= 0xffff) {
        // fits after all: msgpackr's ext16 form, so our bytes equal its bytes
        target.copyWithin(headerStart + 3, headerStart + 5, position);
        position -= 2;
        field -= 2;
        open.strings -= 2;
        target[headerStart] = 0xc8;
        targetView.setUint32(open.field + start, targetView.getUint32(open.field + start) - 2);
        payloadLength = position - start - field;
      }
      if (target[headerStart] === 0xc8) targetView.setUint16(headerStart + 1, payloadLength);
      else targetView.setUint32(headerStart + 1, payloadLength);
    } else {
      target[position++] = 0xd6;
      target[position++] = 0x62;
      field = position - start;
      position += 4;
    }
    bundle = { nonAscii: "", ascii: "", size: 0, field, strings: -1 };
  }
  const current = bundle!;
  const nonAscii = NON_ASCII.test(value);
  // well-formed before it joins the others (same UTF-16 length, which the count gives the
  // decoder): a lone high surrogate at its end must not pair with a low one opening the next
  if (nonAscii) current.nonAscii += toWellFormed(value);
  else current.ascii += value;
  target[position++] = 0xc1;
  writeNumber(nonAscii ? -length : length);
}

/**
 * `DECIMAL_FIT`: whether the float32 just written at `at` (`ca` + 4 bytes) keeps the decimal
 * digits of `value` (its exponent read from the bytes).
 */
function keepsDecimals(value: number, bytes: Uint8Array, at: number): boolean {
  const scaled = value * DECIMAL_MULTIPLIERS[((bytes[at + 1] & 0x7f) << 1) | (bytes[at + 2] >> 7)];
  return scaled >> 0 === scaled;
}

/**
 * Points `open`'s field at `position` and writes its two strings there (not bundled): when a
 * bundle closes and the next opens, and for the bundle open when the value ends.
 */
function writeBundleStrings(open: Bundle): void {
  const maxBytes = open.nonAscii.length * 3 + open.ascii.length + 10;
  if (position + maxBytes > safeEnd) makeRoom(position + maxBytes);
  targetView.setUint32(open.field + start, position - start - open.field);
  open.strings = position - start;
  session.closedBundles.push(open);
  bundle = null;
  writeString(open.nonAscii);
  writeString(open.ascii);
}

// ---- canonical bytes (docs/wire-format.md, "Canonical encoding") -------------------------------

/** A Map entry being ordered: its key's class (0 numbers, 1 strings, 2 the rest) and bytes. */
interface OrderedEntry {
  key: unknown;
  value: unknown;
  rank: number;
  /** For the rest: the key's canonical bytes, then the value's. */
  bytes: [Uint8Array, Uint8Array] | null;
}

/**
 * A Map's entries (or a Set's, each element its own value) as a Map in canonical order (a Map
 * keeps the order its entries are set in): number and bigint keys first, by value (a number
 * before an equal bigint, NaN last); then string keys by UTF-16 code units, the order of
 * `Object.keys(o).sort()` (so an object and a Map of the same string keys give the same bytes,
 * and `@msgpack/msgpack`'s `sortKeys` the same order); then every other
 * key (booleans, null, undefined, objects) by its canonical bytes, two keys of equal bytes by
 * their values' bytes. Those bytes come from packs of their own with this pack's context
 * (`packWith` saves this pack's state), made only for such keys.
 */
function canonicalEntries(pairs: Iterable<[unknown, unknown]>): Map<unknown, unknown> {
  const entries: OrderedEntry[] = [];
  for (const [key, value] of pairs) {
    const type = typeof key;
    const rank = type === "string" ? 1 : type === "number" || type === "bigint" ? 0 : 2;
    const bytes: OrderedEntry["bytes"] = rank === 2
      ? [packWith(context, key, 0, null), packWith(context, value, 0, null)]
      : null;
    entries.push({ key, value, rank, bytes });
  }
  return new Map(entries.sort(compareEntries).map((entry) => [entry.key, entry.value]));
}

function compareEntries(a: OrderedEntry, b: OrderedEntry): number {
  if (a.rank !== b.rank) return a.rank - b.rank;
  if (a.bytes !== null) {
    return compareBytes(a.bytes[0], b.bytes![0]) || compareBytes(a.bytes[1], b.bytes![1]);
  }
  const x = a.key as number | bigint | string;
  const y = b.key as number | bigint | string;
  if (x < y) return -1;
  if (x > y) return 1;
  // equal, or NaN (one NaN key at most): NaN last, then a number before an equal bigint
  return x !== x ? 1 : y !== y ? -1 : typeof x === "bigint" ? 1 : -1;
}

/** Bytewise, a prefix first. */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

// ---- structured clone ids (docs/wire-format.md, "References and cycles") -----------------------

/**
 * Inserts a `d6 69 id` marker before the first occurrence of every object that was referenced
 * again, shifting the bytes after it, and corrects each bundle field that an insertion moved
 * away from its strings.
 */
function insertReferenceIds(ids: Reference[]): void {
  ids.sort((a, b) => a.offset - b.offset);
  for (const closed of session.closedBundles) {
    let shift = 0;
    for (const id of ids) if (id.offset > closed.field && id.offset <= closed.strings) shift += 6;
    const field = closed.field + start;
    targetView.setUint32(field, targetView.getUint32(field) + shift);
  }
  const total = ids.length * 6;
  if (position + total > safeEnd) makeRoom(position + total);
  let end = position;
  let distance = total;
  for (let i = ids.length - 1; i >= 0; i--) {
    const offset = ids[i].offset + start;
    target.copyWithin(offset + distance, offset, end);
    distance -= 6;
    target[offset + distance] = 0xd6;
    target[offset + distance + 1] = 0x69;
    targetView.setUint32(offset + distance + 2, ids[i].id);
    end = offset;
  }
  position += total;
}

// ---- entry points ------------------------------------------------------------------------------

/**
 * The module-level variables of the pack in progress that a pack nested in it saves and
 * restores, besides `session`: its one list. `HotState` is its type and `restoreHot` takes every
 * field, so a field missing there fails `deno check`; tests/saved_state_test.ts checks that every
 * module-level variable is listed here, is `session`, or is named there as needing no saving.
 */
function saveHot() {
  // deno-fmt-ignore
  return { target, targetView, position, safeEnd, start, context, references, bundle, depth, mapWriters };
}

type HotState = ReturnType<typeof saveHot>;

function restoreHot(saved: HotState): void {
  // Takes what the list leaves over: its type holds no field, so a field of HotState missing
  // from the list fails `deno check`.
  let _unrestored: { [field: string]: never };
  // deno-fmt-ignore
  ({ target, targetView, position, safeEnd, start, context, references, bundle, depth, mapWriters, ..._unrestored } = saved);
}

/**
 * Packs `value` for the Packr whose context is `ctx`. With `output` (from `useBuffer`) the value
 * is written into that buffer and a view of it returned; otherwise into the shared arena and an
 * exact-size copy returned. A pack that starts while another runs writes into a fresh buffer.
 */
export function packWith(
  ctx: EncodeContext,
  value: unknown,
  flags: number,
  output: OutputBuffer | null,
): Bytes {
  if (!session.encoding) return encodeTopLevel(ctx, value, flags, output);
  const saved = saveHot();
  const outerSession = session;
  const structures = ctx.records;
  const nestedSave = structures !== null && structures.packing ? structures.saveForNested() : null;
  let succeeded = false;
  try {
    session = newEncodeSession();
    setTarget(new Uint8Array(ARENA_SIZE));
    const result = encodeValue(ctx, value, flags, null, true);
    succeeded = true;
    return result;
  } finally {
    session = outerSession;
    restoreHot(saved);
    if (nestedSave !== null) structures!.restoreAfterNested(nestedSave, succeeded);
  }
}

function encodeTopLevel(
  ctx: EncodeContext,
  value: unknown,
  flags: number,
  output: OutputBuffer | null,
): Bytes {
  if (output !== null) setTarget(output.bytes, output.view);
  else setTarget(arena, arenaView);
  if (objectShapes.renewIfFull()) {
    predictedWriters = [];
    lastShapes = [];
  }
  compilesLeft = MAX_COMPILES_PER_PACK;
  try {
    return encodeValue(ctx, value, flags, output, false);
  } finally {
    session.encoding = false;
    session.largeBytes = null;
    if (target.length <= ARENA_KEEP_LIMIT && output === null && !(flags & REUSE_BUFFER_MODE)) {
      arena = target;
      arenaView = targetView;
    } else if (output === null) {
      arena = new Uint8Array(ARENA_SIZE);
      arenaView = new DataView(arena.buffer);
    }
  }
}

function encodeValue(
  ctx: EncodeContext,
  value: unknown,
  flags: number,
  output: OutputBuffer | null,
  insideAnotherPack: boolean,
): Bytes {
  start = output !== null ? (output.position + 7) & ~7 : 0; // word-aligned, as msgpackr
  if (output !== null && safeEnd - start < 0x800) {
    // too close to the end: continue in a new buffer of the same size
    setTarget(new Uint8Array(Math.max(target.length, ARENA_SIZE)));
    start = 0;
  }
  position = start;
  if (flags & RESERVE_START_SPACE) {
    position += flags & 0xff;
    target.fill(0, start, position); // not bytes left over from a previous pack
  }
  session.encoding = true;
  context = ctx;
  session.customEncoders = ctx.extensions.encoders();
  references = ctx.structuredClone ? new Map() : null;
  session.idsToInsert = null;
  bundle = ctx.bundleStrings && typeof value !== "string"
    ? { nonAscii: "", ascii: "", size: Infinity, field: -1, strings: -1 }
    : null;
  session.closedBundles = [];
  depth = 0;
  // see `mapWriters`: plain objects are map16 maps with nothing inserted among their bytes
  mapWriters = writerCompiler !== null && ctx.records === null && !ctx.variableMap &&
    references === null && bundle === null;
  // large binaries are gathered only into a result of its own (not `useBuffer`'s buffer, nor the
  // shared one of REUSE_BUFFER_MODE or BORROW_ARENA), and not when bytes may still move after
  // they are written (reference ids, bundles: offsets shift)
  session.gatherLargeBytes = output === null && !(flags & (REUSE_BUFFER_MODE | BORROW_ARENA)) &&
    references === null && bundle === null;
  session.largeBytes = null;
  const structures = ctx.records;
  if (structures === null) return finishValue(value, flags, output);
  structures.beginPack();
  const wasPacking = structures.packing;
  structures.packing = true;
  let failed = true;
  try {
    const result = finishValue(value, flags, output);
    failed = false;
    // only this Packr packing inside itself is nested (docs/wire-format.md, "Packs inside
    // packs"); another Packr packing inside an extension of this one is that Packr's outermost
    // pack, and saves its structures as usual
    return wasPacking
      ? result
      : ctx.features!.afterPack(structures, result, ctx, value, flags, output, insideAnotherPack);
  } finally {
    structures.packing = wasPacking;
    if (failed || wasPacking) structures.endPack();
  }
}

/** Writes the value, closes bundles, inserts reference ids and returns the output bytes. */
function finishValue(value: unknown, flags: number, output: OutputBuffer | null): Bytes {
  try {
    writeValue(value);
  } catch (error) {
    // the engine's stack may end before maxDepth (a deep caller, a small stack): same advice
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      throw new RangeError(
        "Nesting too deep for the call stack: is the value cyclic? Use structuredClone: true to pack cyclic values, or lower maxDepth",
      );
    }
    throw error;
  }
  if (bundle !== null && bundle.field >= 0) context.features!.writeBundleStrings(bundle);
  bundle = null;
  if (session.idsToInsert !== null) context.features!.insertReferenceIds(session.idsToInsert);
  references = null;
  session.idsToInsert = null;
  if (output !== null) {
    // the next pack into `useBuffer`'s buffer goes on where this one ends (in the buffer it grew
    // into, if it did), or starts where it started
    output.bytes = target;
    output.view = targetView;
    output.position = flags & RESET_BUFFER_MODE ? start : position;
  }
  if (flags & REUSE_BUFFER_MODE) {
    const whole = target as ReusedBuffer;
    whole.start = start;
    whole.end = position;
    return whole;
  }
  if (session.largeBytes !== null) return gatherOutput(session.largeBytes); // never `output`'s
  // a view of `useBuffer`'s buffer, or of the arena (BORROW_ARENA); else an exact-size copy
  if (output !== null || flags & BORROW_ARENA) return target.subarray(start, position);
  return target.slice(start, position);
}

/**
 * The exact-size result of a pack that gathered large binary values: the arena's bytes with each
 * gathered value's bytes copied in at its offset. Its bytes are read now, when the pack ends, so
 * a getter or `toJSON` that changed an already packed Uint8Array later in the same pack would
 * change the output; one that detached or shrank it is an error rather than missing bytes.
 */
function gatherOutput(gathered: readonly GatheredBytes[]): Bytes {
  const parts: Uint8Array[] = [];
  let from = start;
  for (const { bytes, offset, length } of gathered) {
    if (bytes.length !== length) {
      throw new TypeError(
        `A binary value of ${length} bytes was detached or resized while being packed`,
      );
    }
    parts.push(target.subarray(from, start + offset), bytes);
    from = start + offset;
  }
  parts.push(target.subarray(from, position));
  return concatBytes(parts);
}

/**
 * The writer's features that only options ask for: records, string bundles, structured-clone
 * ids, variable-size maps, `useFloat32`'s decimal test, the payloads of `moreTypes` and
 * `useBigIntExtension`, and the entry order of `canonical`. The writer reaches them through its context's `features`, which a
 * `Packr` (and the streams' encoder) sets to {@linkcode ENCODER_FEATURES} and the exported `pack`
 * leaves null, so a program that only packs ships none of this code (its bundler drops what only
 * this object refers to).
 */
export interface EncoderFeatures {
  writeRecord: (object: Record<string, unknown>) => void;
  afterPack: typeof afterPack;
  writeBundledString: (value: string) => void;
  writeBundleStrings: (open: Bundle) => void;
  insertReferenceIds: (ids: Reference[]) => void;
  writeVariableMapObject: (object: Record<string, unknown>) => void;
  /** `moreTypes`: the code of a typed array's "t" extension. */
  typedArrayCode: (value: ArrayBufferView) => number;
  /** `useBigIntExtension`: the payload of a bigint's "B" extension. */
  encodeBigIntPayload: (value: bigint) => Uint8Array;
  /** `useFloat32: DECIMAL_FIT` (see {@linkcode keepsDecimals}). */
  keepsDecimals: (value: number, bytes: Uint8Array, at: number) => boolean;
  /** `canonical`: a Map's or a Set's entries in canonical order ({@linkcode canonicalEntries}). */
  canonicalEntries: (pairs: Iterable<[unknown, unknown]>) => Map<unknown, unknown>;
}

/**
 * After the outermost pack of a records Packr: forget own ids, promote shapes from nested packs,
 * and save new shared structures. A declined save (`false`) reloads the table and packs again;
 * a save that throws rolls the table back (docs/wire-format.md, "Saving and reloading").
 */
function afterPack(
  structures: StructureEncoder,
  result: Bytes,
  ctx: EncodeContext,
  value: unknown,
  flags: number,
  output: OutputBuffer | null,
  insideAnotherPack: boolean,
): Bytes {
  structures.endPack();
  structures.promotePending();
  const save = structures.saveStructures;
  if (!structures.hasSharedUpdate || save === null) return result;
  const table = structures.shared;
  const sharedLength = table.length;
  let declined: boolean;
  try {
    declined = save.call(ctx.owner, table, structures.isCompatible) === false;
  } catch (error) {
    structures.rollbackShared();
    throw error;
  }
  if (declined) {
    // a newer table is stored: pack again against it (merged by isCompatible, or reloaded)
    if (structures.shared === table) {
      if (structures.getStructures) structures.uninitialized = true;
      else structures.rollbackShared();
    }
    // pack again as a fresh outermost pack, so the retry saves what it shares
    structures.packing = false;
    if (insideAnotherPack) {
      // the pack around this one owns the arena: pack again into a fresh buffer
      setTarget(new Uint8Array(ARENA_SIZE));
      return encodeValue(ctx, value, flags, null, true);
    }
    session.encoding = false;
    return encodeTopLevel(ctx, value, flags, output);
  }
  structures.lastSavedLength = sharedLength;
  return result;
}

/** The features a Packr's context has (see {@linkcode EncoderFeatures}). */
export const ENCODER_FEATURES: EncoderFeatures = {
  writeRecord,
  afterPack,
  writeBundledString,
  writeBundleStrings,
  insertReferenceIds,
  writeVariableMapObject,
  typedArrayCode,
  encodeBigIntPayload,
  keepsDecimals,
  canonicalEntries,
};
