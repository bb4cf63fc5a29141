// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The MessagePack reader. The state of the decode in progress lives in module-level variables,
// so that the hot paths read it without passing it around: the input (`src`, `srcEnd`,
// `position`, `view`), the settings of the instance that runs it (`context`, and what is copied
// out of it: `recordTypes`, `sharedStructuresPossible`, `fatalStrings`, `extensionDecoders`), the
// limits (`budget`, `heapAllowance`, `depth`) and the extensions' state (`bundle`, `references`).
//
// Invariants:
// - One decode owns that state from `begin` to `finish`, and `decoding` is true exactly then.
//   Only code running under that decode touches it: the read functions, the record readers (they
//   call `read`), and the extension and `getStructures` code they call.
// - A decode that starts while another runs (an extension or `getStructures` calling `unpack`)
//   runs inside `withSavedState`: the hot variables are copied by `saveHot` and written back by
//   `restoreHot` in a `finally`, and the rest of the decode's state is the `session` object,
//   swapped for a fresh one and back. A new module-level variable of the decode in progress joins
//   `saveHot` (the type check then asks `restoreHot` for it) or the session, or the list of
//   variables that need no saving in tests/saved_state_test.ts, with the reason.
// - Everything that belongs to an instance (settings, record table, extensions) is reached
//   through the `DecodeContext` the instance passes in, so instances never affect each other.
//   What all instances share (the string caches, the shape tree) holds no reference to an input
//   and gives every instance the same answers.
// - The record definitions of a nested decode of the same instance never outlive it
//   (`decodeOne`).

import { C1 } from "../_core/c1.ts";
import { DecodeError, IncompleteDataError } from "../_core/errors.ts";
import type { Extension } from "../_core/extensions.ts";
import { DECIMAL_MULTIPLIERS } from "../_format/float32.ts";
import { float32At, float64At } from "../_format/float_bytes.ts";
import {
  builderSources,
  type CompileAllowance,
  createRecordType,
  type RecordType,
} from "../_records/reader.ts";
import {
  builderOf,
  type MapShape,
  mapShapes,
  objectFrom,
  renewMapShapesIfFull,
  shapeNames,
} from "../_records/map_shapes.ts";
import { RecordTable } from "../_records/table.ts";
import { decodeBigIntPayload } from "../_format/bigint_ext.ts";
import { disabledExtension } from "./extension_policy.ts";
import {
  decodeTimestamp,
  isTimestampLength,
  timestampLengthProblem,
} from "../_format/timestamp.ts";
import { decodeTypedArray, typedArrayPayloadProblem } from "../_format/typed_array_ext.ts";
import { decodeString, decodeStringStrict } from "../_strings/utf8.ts";
import { shortWordAt, wordAt } from "../_core/bytes.ts";
import {
  EAGER_VIEW_MIN_INPUT,
  FLOATS_BEFORE_VIEW,
  KEPT_VIEW_MAX_BUFFER,
  MAX_COMPILES_PER_DECODE,
  MAX_SHAPED_KEYS,
  MIN_SLICED,
} from "../_core/thresholds.ts";
import {
  cachedString,
  cachedStringMiss,
  ENTRY_HASH_A,
  ENTRY_HASH_B,
  keyCache,
  restMatches,
  valueCache,
  valueHit,
} from "../_strings/string_cache.ts";
import {
  closeInputWindow,
  InputWindow,
  longString,
  MAX_SLICED,
  nonAsciiString,
  sliceAsciiString,
  UTF8_BATCHES,
} from "../_strings/input_window.ts";
import type { Structure } from "../_core/options.ts";
import type { DecodeContext } from "./context.ts";

// ---- state of the decode in progress -----------------------------------------------------------

const EMPTY = new Uint8Array(0);
let src: Uint8Array = EMPTY;
let srcEnd = 0;
let position = 0;
/**
 * A DataView of `src`: the one kept by a previous decode of the same array (see `keptView`), else
 * one made when the decode starts for an input of {@linkcode EAGER_VIEW_MIN_INPUT} bytes or more,
 * else one made when first needed (`view ?? makeView()`); null until then, and between decodes.
 * Each reader tests it first: without a view it reads the bytes themselves, or makes the view.
 */
let view: DataView | null = null;
let context: DecodeContext;
let recordTypes: (RecordType | undefined)[] = [];
/** The `fatal` option of the decoding instance. */
let fatalStrings = false;
/**
 * Values that the containers of the top-level value may still announce: it starts at the bytes
 * the value may take, and every array element, map key and value and record field announced
 * takes one, since each needs at least one byte. So headers nested in each other that all claim
 * the same trailing bytes are refused together, however each looks alone.
 */
let budget = 0;
let depth = 0;
/**
 * The shape node of the key whose value is being read by `readShapedMap`, null elsewhere: a map
 * read as that value predicts its first key from the node's `valueHot`. Only a prediction (the
 * key's bytes are still compared), so a map that is not that value and takes it costs a miss.
 * Cleared when the outermost decode ends, succeeded or not, so no node of a tree renewed before
 * the next decode is ever compared (its key slots are reused).
 */
let valueKey: MapShape | null = null;

/**
 * The state of the decode in progress that is read once per decode or once per value of a kind
 * (an extension, a record slot not yet defined, a Map, a bundle, a reference), never per byte:
 * one object, so a decode nested in another swaps in a fresh one and swaps the outer one back in
 * one assignment. The state read per value or per container stays in the module-level variables
 * above, which `saveHot` lists.
 */
interface DecodeSession {
  /**
   * `true` from `begin` to `finish`, and in the session of a decode nested in another: a decode
   * that starts meanwhile runs in `withSavedState`, and is not the outermost one.
   */
  decoding: boolean;
  /** The decoding instance has shared structures or `getStructures`: empty slots may resolve. */
  sharedStructuresPossible: boolean;
  extensionDecoders: readonly (Extension | undefined)[];
  /**
   * Heap bytes that values much larger than their smallest encoding may still take (see
   * `chargeHeap`); set per decode call from the input size.
   */
  heapAllowance: number;
  bundle: StringBundle | null;
  references: Map<number, Reference> | null;
  /**
   * Shapes this decode may still compile (`_records/reader.ts`): MAX_COMPILES_PER_DECODE for an
   * outermost decode, handed on to the decodes nested in it and back.
   */
  compilesLeft: number;
  /** The Latin-1 window and the UTF-8 batch over this decode's input. */
  readonly window: InputWindow;
}

function newDecodeSession(nested: boolean, compilesLeft: number): DecodeSession {
  return {
    decoding: nested,
    sharedStructuresPossible: false,
    extensionDecoders: [],
    heapAllowance: 0,
    bundle: null,
    references: null,
    compilesLeft,
    window: new InputWindow(),
  };
}

let session: DecodeSession = newDecodeSession(false, MAX_COMPILES_PER_DECODE);

/** The allowance a shape's builder compiles with: the session's, if the instance compiles. */
function compileAllowance(): CompileAllowance | null {
  return context.compileRecordReaders ? session : null;
}

interface StringBundle {
  /** Strings with non-ASCII characters (referenced by `c1` + a negative or zero count). */
  readonly nonAscii: string;
  /** Pure-ASCII strings (referenced by `c1` + a positive count). */
  readonly ascii: string;
  nonAsciiPosition: number;
  asciiPosition: number;
  /** Where the bundle's strings start: the value must end exactly here. */
  readonly stringsStart: number;
  /** Where reading continues once the top-level value is done: after the bundle's strings. */
  readonly end: number;
}

interface Reference {
  target: unknown;
  used: boolean;
}

// ---- readers only options reach ----------------------------------------------------------------
// The exported `unpack` has no options (its context is fixed: `_decode/unpack.ts`), so the code
// that only options reach is installed by `installOptionReaders`, which `_decode/context.ts`
// (where every decoder that takes options makes its context) calls. A program that only calls
// `unpack` ships none of it: the bundler drops what only `installOptionReaders` names. Each is
// called only where its option is set, so a value that no option changes never calls one.

/** Under `fatal`: a string whose ill-formed UTF-8 is invalid data. */
let strictString: (start: number, end: number) => string;
/** Under `mapsAsObjects: false`: a map as a `Map`. */
let readMapAsMap: (length: number) => Map<unknown, unknown>;
/** Under an `int64AsType` other than "bigint": the 64-bit integer at `position`, not skipped. */
let readInt64As: (signed: boolean, dv: DataView) => number | bigint | string;
/** Under `useFloat32` DECIMAL_ROUND or DECIMAL_FIT: the float32 `value` at `position`, rounded. */
let roundedFloat32: (value: number) => number;
/** Under `allowArraysInMapKeys`: an array key's text, or null when it holds a non-primitive. */
let arrayKey: (key: unknown[]) => string | null;
/**
 * Under `structuredClone: false` or `plainDataOnly`: throws when the decoder refuses this
 * built-in extension, at its header, before anything of it is read or built.
 */
let refuseIfDisabled: (type: number, headerOffset: number) => void;
/**
 * With shared structures or `getStructures`: the type of a slot without one, when it is a shared
 * structure, perhaps after loading them; `undefined` in a context without either, as before they
 * are installed (the exported `unpack` has neither).
 */
let resolveRecordSlot: (slot: number) => RecordType | undefined = noRecordType;
/** With `getStructures`: the structure of a dispatcher slot met with high byte 0, if loaded. */
let reloadForDispatcherSlot: (slot: number) => RecordType | undefined = noRecordType;

function noRecordType(): undefined {
  return undefined;
}

/** Installs the readers that only options reach (see above). */
export function installOptionReaders(): void {
  strictString = checkedString;
  readMapAsMap = readEntriesAsMap;
  readInt64As = int64OfType;
  roundedFloat32 = roundFloat32At;
  arrayKey = arrayKeyText;
  refuseIfDisabled = refuseDisabled;
  resolveRecordSlot = resolveSharedSlot;
  reloadForDispatcherSlot = reloadSharedForDispatcher;
}

// ---- errors ------------------------------------------------------------------------------------

/** The input ends before the value: `needEnd` is the least end offset a length header promised. */
function incomplete(needEnd = 0): IncompleteDataError {
  const missing = needEnd > srcEnd && position <= srcEnd ? needEnd - srcEnd : undefined;
  const detail = missing === undefined ? "" : `: ${missing} more bytes needed`;
  // the offset is where the input ran out
  const message = `Unexpected end of MessagePack data at offset ${srcEnd}${detail}`;
  return new IncompleteDataError(message, srcEnd, missing);
}

// Heap allowance. Most values take at most ~56 bytes of heap per byte of input (an empty object
// from one `80` byte is the worst); a few take far more: an empty Map (one byte, ~200 bytes of
// heap), an Error, a RegExp, a record definition's keys, a copied binary or typed array. These
// are charged against an allowance of max(16 MiB, 40 bytes per input byte) per decode call, so no
// input under 1 MB can make a decode keep 100 MB (40 + 56 bytes per input byte at most). A record
// type is not charged: the record table keeps one per slot, and one undo entry per slot between
// two undo points (`RecordTable.mark`), so the types that a value or a sequence of new shapes
// defines and replaces are garbage at once, never kept, however many there are.
const HEAP_ALLOWANCE_FLOOR = 16 * 1024 * 1024;
const HEAP_ALLOWANCE_PER_INPUT_BYTE = 40;
const MAP_HEAP = 200;
const SET_HEAP = 200;
const ERROR_HEAP = 600;
const REGEXP_HEAP = 300;
const DEFINITION_KEY_HEAP = 16;
const BUFFER_HEAP = 200;

function chargeHeap(cost: number, offset: number): void {
  if ((session.heapAllowance -= cost) < 0) {
    throw invalid(
      `Input would allocate more memory than allowed for its size (${HEAP_ALLOWANCE_PER_INPUT_BYTE} bytes per input byte, at least 16 MiB)`,
      offset,
    );
  }
}

function invalid(message: string, offset: number): DecodeError {
  return new DecodeError(`${message} at offset ${offset}`, offset);
}

/**
 * Floats that an input without a view reads from its bytes (`float64At`, `float32At`) before it
 * makes one: such a read costs a little more than a read through a view, and making the view
 * costs as much as several such reads, so a small input with a few floats never makes one. Set
 * when a decode starts; a nested decode leaves its own count behind, which only moves the moment
 * the outer decode makes its view (either way its floats read the same).
 */
let floatsBeforeView = FLOATS_BEFORE_VIEW;

/**
 * Makes `view` (callers test `view` first: an inline null check costs less than this call), and
 * keeps it for the next decode of the same array when its buffer is small enough.
 */
function makeView(): DataView {
  view = new DataView(src.buffer, src.byteOffset, src.byteLength);
  if (src.buffer.byteLength <= KEPT_VIEW_MAX_BUFFER) {
    keptViewInput = src;
    keptViewLength = src.byteLength;
    keptView = view;
  }
  return view;
}

/**
 * The view made for the last input whose buffer has at most KEPT_VIEW_MAX_BUFFER bytes, with that
 * input and its length, kept for the next decode of the same array: an input array that is filled
 * and decoded again and again (one buffer that each read is copied into, as msgpackr recommends)
 * makes its view once. The length is compared too: an array over a buffer that was detached or
 * resized in between has another length (a detached one has 0). The kept input stays referenced
 * until another one replaces it or `clearSource` forgets it.
 * Chosen by measurement: npm run bench:paired:bun (unicode text, sample-large.json).
 */
let keptViewInput: Uint8Array | null = null;
let keptViewLength = 0;
let keptView: DataView | null = null;

/** Forgets the kept view and its input, so that can be collected (msgpackr's `clearSource`). */
export function forgetLastSource(): void {
  keptViewInput = null;
  keptViewLength = 0;
  keptView = null;
}

// ---- the reader --------------------------------------------------------------------------------

/** Reads one value at `position`. */
export function read(): unknown {
  const token = src[position++];
  if (token < 0xa0) {
    if (token < 0x80) {
      if (token < 0x40) return token; // positive fixint
      return readRecordOrInteger(token); // 0x40..0x7f: record id, or fixint when none is defined
    }
    if (token < 0x90) return readMap(token - 0x80); // fixmap
    return readArray(token - 0x90); // fixarray
  }
  if (token < 0xc0) { // fixstr
    const length = token - 0xa0;
    if (length > 0 && length <= VALUE_CACHE_MAX && view !== null && !fatalStrings) {
      if (length > srcEnd - position) throw incomplete(position + length);
      position += length;
      const start = position - length;
      const first = length >= 4 ? view.getInt32(start, true) : shortWordAt(src, start, length);
      const last = length >= 4 ? view.getInt32(start + length - 4, true) : 0;
      const salt = length > 8 ? view.getInt32(start + 4, true) ^ length : length;
      const entry = valueEntry(first, last, salt);
      return valueHit(entry, length, first, last, salt, view, start)
        ? VALUE_STRINGS[entry]
        : cachedStringMiss(valueCache, entry, src, start, length, first, last);
    }
    return readString(length);
  }
  if (token >= 0xe0) return token - 0x100; // negative fixint
  // 0xc0..0xdf: one switch in this function, so a typed value costs no further call
  let length: number;
  const offset = position - 1;
  switch (token) {
    case 0xc0:
      return null;
    case 0xc1:
      return session.bundle === null ? C1 : readBundledString();
    case 0xc2:
      return false;
    case 0xc3:
      return true;
    case 0xc4: // bin8
      return readBinary(readLength1());
    case 0xc5: // bin16
      return readBinary(readLength2());
    case 0xc6: // bin32
      return readBinary(readLength4());
    case 0xc7: // ext8
      return readExtension(readLength1(), offset);
    case 0xc8: // ext16
      return readExtension(readLength2(), offset);
    case 0xc9: // ext32
      return readExtension(readLength4(), offset);
    case 0xca: // float32
      return readFloat32();
    case 0xcb: { // float64
      if (position + 8 > srcEnd) throw incomplete(position + 8);
      if (view === null) return readFloat64WithoutView();
      const value = view.getFloat64(position);
      position += 8;
      return value;
    }
    case 0xcc: // uint8
      return src[position++];
    case 0xcd: // uint16
      length = (src[position] << 8) | src[position + 1];
      position += 2;
      return length;
    case 0xce: // uint32
      length = src[position] * 0x1000000 +
        ((src[position + 1] << 16) | (src[position + 2] << 8) | src[position + 3]);
      position += 4;
      return length;
    case 0xcf: // uint64
      return readInt64(false);
    case 0xd0: // int8
      return (src[position++] << 24) >> 24;
    case 0xd1: // int16
      length = ((src[position] << 24) >> 16) | src[position + 1];
      position += 2;
      return length;
    case 0xd2: // int32
      length = (src[position] << 24) | (src[position + 1] << 16) | (src[position + 2] << 8) |
        src[position + 3];
      position += 4;
      return length;
    case 0xd3: // int64
      return readInt64(true);
    case 0xd4: // fixext1
      return readFixExt1(offset);
    case 0xd5: // fixext2
      return src[position] === 0x72 ? readTwoByteDefinition(offset) : readExtension(2, offset);
    case 0xd6: // fixext4
      return readExtension(4, offset);
    case 0xd7: // fixext8
      return readExtension(8, offset);
    case 0xd8: // fixext16
      return readExtension(16, offset);
    case 0xd9: // str8
      return readString(readLength1());
    case 0xda: // str16
      return readString(readLength2());
    case 0xdb: // str32
      return readString(readLength4());
    case 0xdc: // array16
      return readArray(readLength2());
    case 0xdd: // array32
      return readArray(readLength4());
    case 0xde: // map16
      return readMap(readLength2());
    case 0xdf: // map32
      return readMap(readLength4());
  }
  if (token === undefined) throw incomplete();
  throw invalid(`Unknown MessagePack token 0x${token.toString(16)}`, offset);
}

function readLength1(): number {
  if (position >= srcEnd) throw incomplete(position + 1);
  return src[position++];
}

function readLength2(): number {
  if (position + 2 > srcEnd) throw incomplete(position + 2);
  const length = (src[position] << 8) | src[position + 1];
  position += 2;
  return length;
}

function readLength4(): number {
  if (position + 4 > srcEnd) throw incomplete(position + 4);
  const length = src[position] * 0x1000000 +
    ((src[position + 1] << 16) | (src[position + 2] << 8) | src[position + 3]);
  position += 4;
  return length;
}

/**
 * A float64 in an input that has no view (a small one: see EAGER_VIEW_MIN_INPUT): from its bytes
 * while {@linkcode floatsBeforeView} lasts, then from a view made for this and the rest.
 */
function readFloat64WithoutView(): number {
  const value = --floatsBeforeView >= 0
    ? float64At(src, position)
    : makeView().getFloat64(position);
  position += 8;
  return value;
}

function readFloat32(): number {
  if (position + 4 > srcEnd) throw incomplete(position + 4);
  const value = view !== null
    ? view.getFloat32(position)
    : --floatsBeforeView >= 0
    ? float32At(src, position)
    : makeView().getFloat32(position);
  if (context.roundFloat32) return roundedFloat32(value);
  position += 4;
  return value;
}

/** {@linkcode roundedFloat32}: rounds to the significant decimal digits float32 holds. */
function roundFloat32At(value: number): number {
  // exponent = bits 30..23
  const multiplier = DECIMAL_MULTIPLIERS[((src[position] & 0x7f) << 1) | (src[position + 1] >> 7)];
  position += 4;
  return ((multiplier * value + (value > 0 ? 0.5 : -0.5)) >> 0) / multiplier;
}

function readInt64(signed: boolean): number | bigint | string {
  if (position + 8 > srcEnd) throw incomplete(position + 8);
  const dv = view ?? makeView();
  const value = context.int64 !== 0
    ? readInt64As(signed, dv)
    : signed
    ? dv.getBigInt64(position)
    : dv.getBigUint64(position);
  position += 8;
  return value;
}

/** {@linkcode readInt64As}: the 64-bit integer at `position` as number, string or auto. */
function int64OfType(signed: boolean, dv: DataView): number | bigint | string {
  if (context.int64 === 1) {
    return (signed ? dv.getInt32(position) : dv.getUint32(position)) * 0x100000000 +
      dv.getUint32(position + 4);
  }
  const big = signed ? dv.getBigInt64(position) : dv.getBigUint64(position);
  if (context.int64 === 2) return big.toString();
  return big >= -0x20000000000000n && big <= 0x20000000000000n ? Number(big) : big;
}

function readString(length: number): string {
  if (length > srcEnd - position) throw incomplete(position + length);
  const start = position;
  position += length;
  if (fatalStrings) return strictString(start, position);
  if (length <= VALUE_CACHE_MAX && length > 0) {
    // here only for an input without a view, or a short string in a str8/16/32: a fixstr in an
    // input with a view takes the lookup in `read` and `readStringElements` (see `valueEntry`)
    return cachedString(valueCache, src, start, length);
  }
  if (length >= MIN_SLICED && length <= MAX_SLICED) {
    // no view (a small input): its ASCII test reads bytes rather than make one
    const text = sliceAsciiString(session.window, src, view, start, position, srcEnd);
    if (text !== null) return text;
  }
  return UTF8_BATCHES ? otherString(start, position) : decodeString(src, start, position);
}

/**
 * A string that neither cache nor window takes (so a medium one is not ASCII), where there are
 * batches (Bun, Deno): from a batch of the non-ASCII strings around it
 * (`_strings/input_window.ts`). A function of its own, so that `readString`'s path for cached and
 * windowed strings stays as short as without batches (with this code inside it, JavaScriptCore
 * decodes every string slower).
 */
function otherString(start: number, end: number): string {
  const length = end - start;
  if (length >= MIN_SLICED && length <= MAX_SLICED) {
    return nonAsciiString(session.window, src, view, start, end, srcEnd);
  }
  if (length <= MAX_SLICED) return decodeString(src, start, end);
  return longString(session.window, src, view, start, end);
}

// Short string values often repeat (statuses, names, enum-like fields), and a cache hit saves
// the allocation.
const VALUE_CACHE_MAX = valueCache.maxBytes;
// A short fixstr in an input with a view (`read`, so every string field of a record, and
// `readStringElements`) is looked up here rather than by `cachedString`: its words read through
// the view (one load a word instead of four), the entry from `valueEntry`, then the value cache's
// one hit test (`valueHit`, layout in `_strings/string_cache.ts`), and the miss sent on to
// `cachedStringMiss`. Both engines inline `valueEntry` and `valueHit` there, and the word loads
// are three lines at each site; neither engine keeps a function with all of it inlined into `read`
// (JavaScriptCore's FTL finds it too large, and V8's budget for `read` is spent on `readString`
// first). The hash's constants are copied into this module: V8 does not treat imported bindings
// as the constants they are, and a hash over them costs more than a call.
// Chosen by measurement: npm run bench:paired:deno / :bun (strings2.json, 1,000 log events).
const VALUE_SHIFT = valueCache.shift;
const VALUE_HASH_A = ENTRY_HASH_A;
const VALUE_HASH_B = ENTRY_HASH_B;
const VALUE_STRINGS = valueCache.strings;

/** The value cache's entry for a string's first and last words and salt (`cachedString`'s hash). */
function valueEntry(first: number, last: number, salt: number): number {
  return Math.imul(first ^ Math.imul(last + salt, VALUE_HASH_A), VALUE_HASH_B) >>> VALUE_SHIFT;
}

/** {@linkcode strictString}: ill-formed UTF-8 is invalid data. */
function checkedString(start: number, end: number): string {
  const text = decodeStringStrict(src, start, end);
  if (text === null) throw invalid("Invalid UTF-8 in string", start);
  return text;
}

function readBinary(length: number): Uint8Array {
  if (length > srcEnd - position) throw incomplete(position + length);
  const start = position;
  position += length;
  // a plain Uint8Array even when the input is a Node Buffer
  if (!context.copyBuffers) return new Uint8Array(src.buffer, src.byteOffset + start, length);
  chargeHeap(BUFFER_HEAP + length, start);
  return src.slice(start, position);
}

function enterContainer(): void {
  if (++depth > context.maxDepth) {
    throw invalid(`Nesting deeper than maxDepth (${context.maxDepth})`, position - 1);
  }
}

/**
 * The containers read so far announce more values than the top-level value's bytes can hold (see
 * `budget`): at least `-budget` more bytes are needed, and `needEnd` (the announcing header's own
 * least end) may say more.
 */
function overBudget(needEnd: number): IncompleteDataError {
  return incomplete(Math.max(needEnd, srcEnd - budget));
}

function readArray(length: number): unknown[] {
  // every element takes at least one byte: check before allocating, and charge the budget so
  // nested arrays cannot pre-allocate more slots than the input has bytes
  if (length > srcEnd - position) throw incomplete(position + length);
  if ((budget -= length) < 0) throw overBudget(position + length);
  enterContainer();
  const array = new Array(length);
  const first = src[position];
  if (first >= 0xa0 && first < 0xc0) readStringElements(array, length);
  else if (first < 0x40 || first >= 0xe0 || (first >= 0xca && first <= 0xd3)) {
    readNumberElements(array, length);
  } else for (let i = 0; i < length; i++) array[i] = read();
  depth--;
  return context.freezeData ? Object.freeze(array) as unknown[] : array;
}

/**
 * The elements of an array that starts with a fixstr (a list of names, tags, words): a fixstr is
 * read here without the call to `read`. JavaScriptCore inlines `read` into the array loop only
 * while `read` has seen few kinds of token; in a process that decodes varied data it stops, and
 * every element would pay a call. Taken when the first element is a fixstr, so arrays of numbers
 * or maps keep the plain loop (testing every element's token slows numeric arrays).
 *
 * A short fixstr takes the value cache's lookup written out (see `valueEntry`), rather than a
 * call to `readString`. V8 inlines a function that already has optimized code only if its
 * bytecode plus everything that code inlined fits the caller's budget; in a process that decoded
 * other data first, `readString` is optimized on its own with the Latin-1 window and the lookup
 * inside, which does not fit, so every element would pay a call.
 */
function readStringElements(array: unknown[], count: number): void {
  // The input, its view, its end and the read position are held in locals while strings hit the
  // cache, so the loop does not load and store module variables for each element (they live in
  // memory, and are loaded again after any call). `position` is written back before any call
  // that reads it (`readString`, `read`, an error) and read back after.
  const bytes = src;
  const dv = view;
  const end = srcEnd;
  // the hit test needs the view and lenient strings
  const cacheable = dv !== null && !fatalStrings;
  let at = position;
  for (let i = 0; i < count; i++) {
    const token = bytes[at];
    const length = token - 0xa0; // a fixstr's length when token is one
    if (length > 0 && length <= VALUE_CACHE_MAX && cacheable) {
      if (length >= end - at) {
        position = at;
        throw incomplete(at + 1 + length);
      }
      const start = at + 1;
      at = start + length;
      const first = length >= 4 ? dv!.getInt32(start, true) : shortWordAt(bytes, start, length);
      const last = length >= 4 ? dv!.getInt32(at - 4, true) : 0;
      const salt = length > 8 ? dv!.getInt32(start + 4, true) ^ length : length;
      const entry = valueEntry(first, last, salt);
      array[i] = valueHit(entry, length, first, last, salt, dv!, start)
        ? VALUE_STRINGS[entry]
        : cachedStringMiss(valueCache, entry, bytes, start, length, first, last);
    } else {
      position = at;
      if (token >= 0xa0 && token < 0xc0) {
        position++;
        array[i] = readString(length);
      } else {
        array[i] = read();
      }
      at = position;
    }
  }
  position = at;
}

/**
 * The elements of an array that starts with a number (measurements, ids, vectors). The four
 * most common number tokens are read here without the call to `read`, which neither engine
 * inlines into an element loop (it is too large):
 *
 * - positive fixint `0xxxxxxx` below 0x40 (0x40..0x7f may be record ids: those go to `read`)
 * - float64 `cb` + 8 bytes big-endian, when the input has its view (inputs of 512 bytes and more)
 * - uint32 `ce` + 4 bytes and uint16 `cd` + 2 bytes, big-endian
 *
 * Every other token goes to `read`, and so does a float64 whose bytes run past the input (the view
 * would throw a RangeError). A uint cut short reads `undefined` bytes as `read` does, and the
 * decode then fails on `position > srcEnd` as it would there.
 *
 * Taken when the first element is a number, as `readStringElements` is for a fixstr.
 * Chosen by measurement: npm run bench:paired:deno / :bun (numeric arrays).
 */
function readNumberElements(array: unknown[], length: number): void {
  // locals, as in readStringElements: `position` is written back before `read` and read after
  const bytes = src;
  const dv = view;
  const end = srcEnd;
  let at = position;
  for (let i = 0; i < length; i++) {
    const token = bytes[at];
    if (token < 0x40) {
      at++;
      array[i] = token;
    } else if (token === 0xcb && dv !== null && at + 9 <= end) {
      array[i] = dv.getFloat64(at + 1);
      at += 9;
    } else if (token === 0xce) {
      array[i] = bytes[at + 1] * 0x1000000 +
        ((bytes[at + 2] << 16) | (bytes[at + 3] << 8) | bytes[at + 4]);
      at += 5;
    } else if (token === 0xcd) {
      array[i] = (bytes[at + 1] << 8) | bytes[at + 2];
      at += 3;
    } else {
      position = at;
      array[i] = read();
      at = position;
    }
  }
  position = at;
}

function readMap(length: number): unknown {
  // every entry takes at least two bytes, a key and a value, each charged to the budget
  if (length > (srcEnd - position) / 2) throw incomplete(position + 2 * length);
  if ((budget -= 2 * length) < 0) throw overBudget(position + 2 * length);
  enterContainer();
  // kept small (the forms are functions of their own) so engines can inline it into `read`
  // without spending their inlining budget there
  const result = !context.mapsAsObjects
    ? readMapAsMap(length)
    : length <= MAX_SHAPED_KEYS && length > 0
    ? readShapedMap(length)
    : storeEntries(objectFrom(mapShapes.root), length);
  depth--;
  return result;
}

/** {@linkcode readMapAsMap}. */
function readEntriesAsMap(length: number): Map<unknown, unknown> {
  chargeHeap(MAP_HEAP, position);
  const map = new Map();
  for (let i = 0; i < length; i++) map.set(read(), read());
  return map;
}

/**
 * Reads `count` map entries into `object`, one store each, and returns it (maps the shape tree
 * does not follow, and the rest of a map it stops following).
 */
function storeEntries(object: Record<string, unknown>, count: number): Record<string, unknown> {
  for (let i = 0; i < count; i++) object[readKey()] = read();
  return object;
}

// ---- the value stack ---------------------------------------------------------------------------
//
// A map's values wait here, from `base` up, while its keys are followed; a map inside a value
// uses the slots above. Its shape's builder reads them with `popValue`. Slots are cleared after
// each top-level decode (`endOutermost`), so the stack keeps no decoded value alive.

/** Values of the maps being read. */
export const valueStack: unknown[] = [];
/** Next free slot. */
let stackTop = 0;
/** One past the highest slot written since the stack was last cleared. */
let stackUsed = 0;
/** The slot a shape's builder reads next. */
let stackNext = 0;

/** The next value for a map shape's builder (the value reader each is made with). */
function popValue(): unknown {
  return valueStack[stackNext++];
}

/**
 * A map of 1..MAX_SHAPED_KEYS entries as an object, built when its last value is read: its keys
 * are followed down the shape tree and its values wait on the value stack, so a key sequence
 * seen often is built by its shape's builder (see `_records/map_shapes.ts`).
 */
function readShapedMap(length: number): object {
  const base = stackTop;
  // before reading: a decode that fails midway is cleared too
  if (base + length > stackUsed) stackUsed = base + length;
  const tree = mapShapes;
  let shape = tree.root;
  const words = tree.keyWords;
  // Keys are compared with kept bytes except under `fatal` (the kept bytes may come from a
  // lenient decode); through the view, or from byte loads in a small input that has none (see
  // EAGER_VIEW_MIN_INPUT).
  const compare = !fatalStrings;
  const dv = view; // read once: calls inside the loop keep the engines from caching `view`
  // the key this map is the value of, if the map around it said so: it predicts the first key
  const parentKey = valueKey;
  let hot = parentKey !== null && parentKey.valueHot !== null ? parentKey.valueHot : shape.hot;
  for (let i = 0; i < length; i++) {
    // Is the next key the one this shape met last? Compare the input with its encoded bytes
    // (layout in `_records/shape_tree.ts`), four at a time; if equal, step over them: no decoding.
    // Inline, not a call: JavaScriptCore does not inline one here, and every key would pay it.
    let same = false;
    if (hot !== null && compare) {
      const keyLength = hot.keyLength;
      const at = hot.keyAt;
      const p = position;
      if (keyLength === 0 || p + keyLength > srcEnd) {
        // no kept bytes (another encoding), or not enough input: decode the key
      } else if (keyLength >= 4) {
        if (dv !== null) {
          same = dv.getInt32(p, true) === words[at] &&
            dv.getInt32(p + keyLength - 4, true) === words[at + 1];
          for (let offset = 4, word = at + 2; same && offset < keyLength - 4; offset += 4) {
            same = dv.getInt32(p + offset, true) === words[word++];
          }
        } else {
          // a small input: byte loads, and the string caches' comparison of the middle words
          same = wordAt(src, p) === words[at] && wordAt(src, p + keyLength - 4) === words[at + 1] &&
            restMatches(words, at + 2, src, null, p, keyLength);
        }
      } else {
        same = shortWordAt(src, p, keyLength) === words[at];
      }
      if (same) position = p + keyLength;
    }
    if (same) {
      shape = hot!;
    } else {
      const keyStart = position;
      const key = readKey();
      const next = hot !== null && hot.key === key ? hot : tree.step(shape, key);
      if (next === null) {
        valueKey = null;
        return readUnshapedRest(shape, base, i, key, length);
      }
      // the key's bytes are kept where keys are compared (not under `fatal`: they were not checked)
      if (next.keyLength === 0 && compare) tree.keepKey(next, src, keyStart, position);
      if (i === 0 && parentKey !== null) parentKey.valueHot = next;
      shape = next;
    }
    valueKey = shape;
    valueStack[stackTop++] = read(); // the slot is taken before a nested map reads
    hot = shape.hot;
  }
  valueKey = null;
  stackTop = base;
  stackNext = base;
  return (shape.build ?? builderOf(shape, popValue, compileAllowance))();
}

/**
 * Finishes a map with plain stores when the shape tree has no node for its next key (the key's
 * first sighting there, or a full tree): the `count` values read so far (under the keys of
 * `shape`), then `key` and the entries after it.
 */
function readUnshapedRest(
  shape: MapShape,
  base: number,
  count: number,
  key: string,
  length: number,
): object {
  stackTop = base;
  const names = shapeNames(shape);
  const object = objectFrom(shape);
  for (let i = 0; i < count; i++) object[names[i]] = valueStack[base + i];
  object[key] = read();
  return storeEntries(object, length - count - 1);
}

/**
 * Reads a map key as a property name; fixstr keys come from the key cache. `__proto__` becomes
 * `__proto_` (msgpackr's rule; docs/wire-format.md, "__proto__"), so a decoded map can never
 * replace an object's prototype.
 */
function readKey(): string {
  let key: string;
  const token = src[position];
  if (token >= 0xa0 && token < 0xc0) {
    const length = token - 0xa0;
    if (length >= srcEnd - position) throw incomplete(position + 1 + length);
    position += 1 + length;
    // the key cache is shared with lenient decoders: strict keys are checked, not cached
    key = fatalStrings
      ? strictString(position - length, position)
      : length === 0
      ? ""
      : length > keyCache.maxBytes
      ? decodeString(src, position - length, position)
      : cachedString(keyCache, src, position - length, length);
  } else {
    const offset = position;
    key = toPropertyKey(read(), offset);
  }
  return key === "__proto__" ? "__proto_" : key;
}

/**
 * Property name for a decoded key (docs/wire-format.md, "Maps and keys"): numbers, booleans and
 * bigints become their text, null and undefined "null"/"undefined", arrays of those their
 * comma-joined text when `allowArraysInMapKeys` is set; anything else is an error.
 */
function toPropertyKey(key: unknown, offset: number): string {
  switch (typeof key) {
    case "string":
      return key;
    case "number":
    case "boolean":
    case "bigint":
      return String(key);
    case "undefined":
      return "undefined";
  }
  if (key === null) return "null";
  if (context.allowArraysInMapKeys && Array.isArray(key)) {
    const text = arrayKey(key);
    if (text !== null) return text;
  }
  throw invalid(
    `Invalid property type for record: ${typeof key}. A MessagePack map with non-string keys can be decoded as a Map with mapsAsObjects: false`,
    offset,
  );
}

/** {@linkcode arrayKey}. */
function arrayKeyText(key: unknown[]): string | null {
  const flat = key.flat();
  return flat.every((item) => PRIMITIVE_KEY_TYPES.has(typeof item)) ? flat.toString() : null;
}
const PRIMITIVE_KEY_TYPES = new Set(["string", "number", "boolean", "bigint"]);

// ---- records (docs/wire-format.md, "Records") ---------------------------------------------------

function readRecordOrInteger(token: number): unknown {
  const slot = token & 0x3f;
  let type = recordTypes[slot];
  if (type === undefined) {
    // plain MessagePack from any encoder: without shared structures it is just the integer
    if (!session.sharedStructuresPossible) return token;
    type = resolveRecordSlot(slot);
    if (type === undefined) return token;
  }
  return type.twoByte ? readTwoByteRecord(slot, type) : readRecord(type);
}

/** A slot without a type: maybe a shared structure, perhaps after loading them. */
function resolveSharedSlot(slot: number): RecordType | undefined {
  const records = context.records;
  const type = records.resolve(slot);
  if (type !== undefined || records.getStructures === null || records.triedLoading) return type;
  records.triedLoading = true;
  loadSharedStructures(records);
  return records.types[slot] ?? records.resolve(slot);
}

/**
 * Slot `slot` (32..63) only reads second bytes and was met with high byte 0: it holds no
 * structure, so, like any empty slot, it may be a shared structure added since the table was
 * loaded. Loads with `getStructures` (once per decode) and returns the slot's type: a structure,
 * a dispatcher again (no `keys`) or `undefined`. A dispatcher defined inline gives way to a
 * loaded shared structure, which reads second bytes too.
 */
function reloadSharedForDispatcher(slot: number): RecordType | undefined {
  const records = context.records;
  if (records.getStructures === null || records.triedLoading) return undefined;
  records.triedLoading = true;
  loadSharedStructures(records);
  const type = records.types[slot];
  return type !== undefined && type.keys !== null ? type : records.resolve(slot);
}

function loadSharedStructures(records: RecordTable): void {
  const loaded = withSavedState(() => records.getStructures!());
  if (loaded == null) return;
  if (!Array.isArray(loaded)) {
    throw new TypeError("getStructures() must return an array of structures");
  }
  // a frozen table (from a cache, say) is copied, so the packer can append to it
  records.replaceShared(Object.isFrozen(loaded) ? loaded.map((keys) => keys.slice()) : loaded);
  recordTypes = records.types;
}

function readRecord(type: RecordType): object {
  if ((budget -= type.size) < 0) throw overBudget(position + type.size);
  enterContainer();
  const object = type.read();
  depth--;
  return object;
}

/**
 * First byte 0x60..0x7f in two-byte mode: a high byte follows (docs/wire-format.md,
 * "Two-byte ids").
 */
function readTwoByteRecord(firstSlot: number, firstType: RecordType): object {
  if (position >= srcEnd) throw incomplete(position + 1);
  const high = src[position++];
  const slot = firstSlot + (high << 5);
  const type = high !== 0
    ? recordTypes[slot] ?? resolveRecordSlot(slot)
    : firstType.keys !== null
    ? firstType
    : reloadForDispatcherSlot(firstSlot);
  if (type === undefined || type.keys === null) {
    throw invalid(`Record id is not defined for ${slot}`, position - 2);
  }
  return readRecord(type);
}

/**
 * `d5 72 LO HI` ⟨keys⟩ ⟨values⟩: defines slot 32 + (LO & 0x1f) + 32·HI (docs/wire-format.md,
 * "Two-byte ids").
 */
function readTwoByteDefinition(headerOffset: number): object {
  if (position + 3 > srcEnd) throw incomplete(position + 3);
  const low = src[position + 1];
  const high = src[position + 2];
  position += 3;
  if ((low & 0x3f) < 32) {
    throw invalid(`Invalid two-byte record id 0x${low.toString(16)}`, headerOffset);
  }
  const dispatchSlot = 32 + (low & 0x1f);
  if (high !== 0) context.records.ensureDispatcher(dispatchSlot);
  return defineAndReadRecord(dispatchSlot + (high << 5), high === 0);
}

function defineAndReadRecord(slot: number, twoByte: boolean): object {
  const keysOffset = position;
  const keys = read();
  if (!Array.isArray(keys)) {
    throw invalid("Record definition keys must be an array", keysOffset);
  }
  chargeHeap(DEFINITION_KEY_HEAP * keys.length, keysOffset);
  const records = context.records;
  // keys are usually the key cache's strings, so an unchanged shape compares by identity
  const previous = records.previousDefinition(slot, keys, twoByte);
  const type = previous !== undefined
    ? records.define(slot, previous.keys!, twoByte, previous)
    : records.define(slot, keys.map((key) => toPropertyKey(key, keysOffset)), twoByte);
  recordTypes = records.types;
  return readRecord(type);
}

/**
 * A record table whose types read with the module's `read`, freezing their records when `freeze`
 * and compiling their readers when the decoding instance does (`compileAllowance`).
 */
export function createRecordTable(
  shared: Structure[] | null,
  getStructures: (() => Structure[] | undefined | null) | null,
  freeze: boolean,
): RecordTable {
  return new RecordTable(
    shared,
    getStructures,
    (keys, twoByte, shared) =>
      createRecordType(keys, read, { twoByte, shared, freeze, allowance: compileAllowance }),
  );
}

// ---- extensions (docs/wire-format.md, "Extension types", "Custom extensions") -------------------

function readFixExt1(headerOffset: number): unknown {
  if (position + 2 > srcEnd) throw incomplete(position + 2);
  const type = src[position];
  if (type === 0x72) { // `d4 72 ID` ⟨keys⟩ ⟨values⟩: defines slot ID & 0x3f, reads the first record
    position += 2;
    return defineAndReadRecord(src[position - 1] & 0x3f, false);
  }
  const custom = session.extensionDecoders[type];
  if (custom !== undefined && !custom.unpack && custom.read) {
    position += 2; // type and the filler byte: the extension's data is the next value
    const data = readNested();
    return runExtension(() => custom.read!(data), headerOffset);
  }
  return readExtension(1, headerOffset);
}

/** An ext of `length` payload bytes; `position` is at its type byte. */
function readExtension(length: number, headerOffset: number): unknown {
  if (length + 1 > srcEnd - position) {
    // a timestamp's header says all there is to judge: a wrong length is refused before its
    // payload is waited for (a stream fed `c9 80 00 00 00 ff` does not wait for 2 GiB)
    if (
      position < srcEnd && src[position] === 0xff &&
      session.extensionDecoders[0xff] === undefined &&
      !isTimestampLength(length)
    ) {
      throw invalid(timestampLengthProblem(length), headerOffset);
    }
    throw incomplete(position + 1 + length);
  }
  const type = src[position++];
  const start = position;
  position += length;
  const custom = session.extensionDecoders[type];
  if (custom !== undefined) return readCustomExtension(custom, type, start, length, headerOffset);
  switch (type) {
    case 0x00: // undefined (the notepack convention)
      return undefined;
    case 0xff: // timestamp
      if (!isTimestampLength(length)) throw invalid(timestampLengthProblem(length), headerOffset);
      return context.exactTimestamps && length !== 1
        ? context.readTimestamp!(src, start, length, headerOffset)
        : decodeTimestamp(src, start, length);
    case 0x42: // "B": bigint beyond 64 bits
      return decodeBigIntPayload(src, start, length);
    case 0x62: // "b": string bundle
      return readBundle(start, length);
    case 0x69: // "i": the next value is object #id
      if (context.disabledExtensions !== 0) refuseIfDisabled(type, headerOffset);
      return readIdentified(start, length, headerOffset);
    case 0x70: // "p": object #id again
      if (context.disabledExtensions !== 0) refuseIfDisabled(type, headerOffset);
      return readPointer(start, length, headerOffset);
    case 0x73: // "s": Set; the payload is a filler, the elements follow as an array
      chargeHeap(SET_HEAP, headerOffset);
      return new Set(readTagged(headerOffset, "Set"));
    case 0x65: // "e": Error
      if (context.disabledExtensions !== 0) refuseIfDisabled(type, headerOffset);
      return readError(headerOffset);
    case 0x78: // "x": RegExp
      if (context.disabledExtensions !== 0) refuseIfDisabled(type, headerOffset);
      return readRegExp(headerOffset);
    case 0x74: // "t": typed array, ArrayBuffer or DataView
      return readTypedArray(start, length, headerOffset);
  }
  throw invalid(
    // msgpackr's two wordings: the short one only for the fixext1 header
    src[headerOffset] === 0xd4 ? `Unknown extension ${type}` : `Unknown extension type ${type}`,
    headerOffset,
  );
}

/** {@linkcode refuseIfDisabled}. */
function refuseDisabled(type: number, headerOffset: number): void {
  const refusal = disabledExtension(type, context.disabledExtensions);
  if (refusal !== null) throw invalid(refusal, headerOffset);
}

function readCustomExtension(
  extension: Extension,
  type: number,
  start: number,
  length: number,
  headerOffset: number,
): unknown {
  if (extension.unpack) {
    const payload = new Uint8Array(src.buffer, src.byteOffset + start, length);
    const end = position;
    let open = true;
    // msgpackr's second argument: decodes the value at an offset of the input, then carries on
    // after this ext; only while `unpack` runs (the input is this decode's)
    const readValueAt = (offset: number): unknown => {
      if (!open) throw new TypeError("readValueAt() called after the extension's unpack returned");
      if (!Number.isInteger(offset) || offset < 0 || offset >= srcEnd) {
        throw invalid(`readValueAt(${offset}) is outside the input`, headerOffset);
      }
      position = offset;
      try {
        return readNested();
      } finally {
        position = end;
      }
    };
    try {
      return runExtension(() => extension.unpack!(payload, readValueAt), headerOffset);
    } finally {
      open = false;
    }
  }
  // a read-style extension is only written as the fixext1 tag `d4 type 00` before its value
  throw invalid(`Extension ${type} expects its value after a one-byte tag`, headerOffset);
}

/**
 * Runs an extension's decoding code. Its input is complete (the payload length was checked), so
 * an incomplete-data error from inside it (a nested `unpack` of bad bytes) is invalid data that
 * more input cannot fix: it becomes a plain DecodeError, as msgpackr clears `incomplete` there.
 */
function runExtension(decodeWith: () => unknown, headerOffset: number): unknown {
  try {
    return decodeWith();
  } catch (error) {
    if (error instanceof IncompleteDataError) {
      const wrapped = invalid(`Extension data is truncated (${error.message})`, headerOffset);
      wrapped.cause = error;
      throw wrapped;
    }
    throw error;
  }
}

/** Reads a value that extension code receives; a value nested in an extension counts as a level. */
function readNested(): unknown {
  enterContainer();
  const value = read();
  depth--;
  return value;
}

/** The value after a tag extension (Set, Error, RegExp): must be an array. */
function readTagged(headerOffset: number, what: string): unknown[] {
  const value = readNested();
  if (!Array.isArray(value)) {
    throw invalid(`${what} extension must be followed by an array`, headerOffset);
  }
  return value;
}

// the classes that a decoded `name` picks by their own name (AggregateError aside: its arguments
// differ)
const ERRORS = [Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError];

/**
 * An Error as msgpackr builds it from `[name, message, cause]`: a known class name makes that
 * class; any other name (a string, undefined, a number…) makes an Error whose `name` is set to it
 * as it is. An undefined message leaves the message empty; another primitive becomes its text.
 */
function readError(headerOffset: number): Error {
  chargeHeap(ERROR_HEAP, headerOffset);
  const [name, message, cause] = readTagged(headerOffset, "Error");
  const text = fieldText(message, "message", headerOffset, "Error");
  fieldText(name, "name", headerOffset, "Error");
  const options = cause === undefined ? undefined : { cause };
  // a decoded Error has no use for the decoder's stack, and capturing one costs far more time
  // and heap than building the Error (engines without the setting have no `stackTraceLimit`)
  const errorClass = Error as { stackTraceLimit?: number };
  const limit = errorClass.stackTraceLimit;
  if (limit !== undefined) errorClass.stackTraceLimit = 0;
  try {
    if (name === "AggregateError" && typeof AggregateError === "function") {
      return new AggregateError([], text, options);
    }
    const Type = ERRORS.find((type) => type.name === name);
    if (Type !== undefined) return new Type(text, options);
    const error = new Error(text, options);
    (error as { name: unknown }).name = name;
    return error;
  } finally {
    if (limit !== undefined) errorClass.stackTraceLimit = limit;
  }
}

/**
 * The text of an Error or RegExp field, `undefined` when absent: strings and other primitives. An
 * object is invalid data: its conversion can run a hostile `toString`, or take exponential time
 * on a graph of references.
 */
function fieldText(value: unknown, field: string, headerOffset: number, what: string) {
  if (value !== null && (typeof value === "object" || typeof value === "function")) {
    throw invalid(`${what} extension ${field} must be a string`, headerOffset);
  }
  return value === undefined ? undefined : String(value);
}

/** A RegExp as msgpackr builds it from `[source, flags]`: an undefined field is absent. */
function readRegExp(headerOffset: number): RegExp {
  chargeHeap(REGEXP_HEAP, headerOffset);
  const [source, flags] = readTagged(headerOffset, "RegExp");
  const pattern = fieldText(source, "source", headerOffset, "RegExp") ?? "";
  const flagText = fieldText(flags, "flags", headerOffset, "RegExp") ?? "";
  try {
    return new RegExp(pattern, flagText);
  } catch (error) {
    throw invalid(`Invalid RegExp extension (${(error as Error).message})`, headerOffset);
  }
}

function readTypedArray(start: number, length: number, headerOffset: number): unknown {
  const problem = length === 0
    ? "Empty typed array extension"
    : typedArrayPayloadProblem(src[start], length - 1);
  if (problem !== null) throw invalid(problem, headerOffset);
  chargeHeap(BUFFER_HEAP + length, headerOffset);
  return decodeTypedArray(src, start, length);
}

// ---- structured clone references (docs/wire-format.md, "References and cycles") -----------------

function referenceId(start: number, length: number, headerOffset: number, what: string): number {
  if (length !== 4) throw invalid(`Invalid ${what} extension length ${length}`, headerOffset);
  return src[start] * 0x1000000 + ((src[start + 1] << 16) | (src[start + 2] << 8) | src[start + 3]);
}

function readIdentified(start: number, length: number, headerOffset: number): unknown {
  const id = referenceId(start, length, headerOffset, "reference id");
  // a placeholder of the right kind, so a cycle through it sees the object being built
  const next = src[position];
  const target: object = (next >= 0x90 && next < 0xa0) || next === 0xdc || next === 0xdd
    ? []
    : (next >= 0x80 && next < 0x90) || next === 0xde || next === 0xdf
    ? context.mapsAsObjects ? {} : new Map()
    : extensionTypeAt(position) === 0x73
    ? new Set()
    : {};
  const entry: Reference = { target, used: false };
  (session.references ??= new Map()).set(id, entry);
  const value = readNested();
  if (!entry.used) return entry.target = value;
  // a cycle: the placeholder was handed out, so fill it with what was read (a value of its kind,
  // but for a Set that an extension for type 0x73 replaces)
  if (target instanceof Map) {
    if (value instanceof Map) value.forEach((v, k) => target.set(k, v));
  } else if (target instanceof Set) {
    if (value instanceof Set) value.forEach((item) => target.add(item));
  } else if (value !== null && typeof value === "object") Object.assign(target, value);
  return target;
}

/** The type byte of an ext whose header is at `offset`, or -1 when it is not an ext. */
function extensionTypeAt(offset: number): number {
  const token = src[offset];
  if (token >= 0xd4 && token <= 0xd8) return src[offset + 1]; // fixext: type after the token
  // ext8, ext16, ext32: after 1, 2 or 4 length bytes
  return token >= 0xc7 && token <= 0xc9 ? src[offset + 1 + (1 << (token - 0xc7))] : -1;
}

function readPointer(start: number, length: number, headerOffset: number): unknown {
  const id = referenceId(start, length, headerOffset, "reference pointer");
  const entry = session.references?.get(id);
  if (entry === undefined) throw invalid(`Reference to undefined id ${id}`, headerOffset);
  entry.used = true;
  return entry.target;
}

// ---- string bundles (docs/wire-format.md, "Bundled strings") ------------------------------------

function readBundle(start: number, length: number): unknown {
  if (length < 4) throw invalid("Invalid string bundle extension", start - 2);
  const after = position;
  position = start;
  const stringsStart = start + readLength4(); // the payload is the strings' offset from here
  if (stringsStart > srcEnd) throw incomplete(stringsStart);
  if (stringsStart < after) throw invalid("String bundle offset out of range", start);
  position = stringsStart;
  const nonAscii = readBundleString();
  const ascii = readBundleString();
  const end = position;
  session.bundle = { nonAscii, ascii, nonAsciiPosition: 0, asciiPosition: 0, stringsStart, end };
  position = after;
  return readNested(); // a bundle can precede another bundle: each counts as a level
}

/** A bundle's strings are always `str` values. */
function readBundleString(): string {
  const offset = position;
  const token = src[position++];
  let length: number;
  if (token >= 0xa0 && token < 0xc0) length = token - 0xa0;
  else if (token === 0xd9) length = readLength1();
  else if (token === 0xda) length = readLength2();
  else if (token === 0xdb) length = readLength4();
  else if (token === undefined || offset >= srcEnd) throw incomplete(offset + 1);
  else throw invalid("Expected string", offset);
  if (length > srcEnd - position) throw incomplete(position + length);
  const start = position;
  position += length;
  return fatalStrings ? strictString(start, position) : decodeString(src, start, position);
}

/** `c1` + count inside a bundle: the next `count` UTF-16 units of one of the bundle's strings. */
function readBundledString(): string {
  const offset = position - 1;
  // the count is almost always a fixint; anything else is read as a value (c1 c1 c1 … chains
  // count as levels)
  const token = src[position];
  const count = token < 0x80 || token >= 0xe0 ? (src[position++] << 24) >> 24 : readNested();
  const active = session.bundle!;
  if (typeof count !== "number" || !Number.isInteger(count)) {
    throw invalid("Bundled string length must be an integer", offset);
  }
  if (count > 0) {
    const end = active.asciiPosition + count;
    if (end > active.ascii.length) throw invalid("Bundled string out of range", offset);
    return active.ascii.slice(active.asciiPosition, active.asciiPosition = end);
  }
  const end = active.nonAsciiPosition - count;
  if (end > active.nonAscii.length) throw invalid("Bundled string out of range", offset);
  return active.nonAscii.slice(active.nonAsciiPosition, active.nonAsciiPosition = end);
}

// ---- entry points ------------------------------------------------------------------------------

/**
 * The module-level variables of the decode in progress that a decode nested in it saves and
 * restores, besides `session` and `triedLoading` of its record table: their one list.
 * `HotState` is its type and `restoreHot` takes every field, so a field missing there fails
 * `deno check`; tests/saved_state_test.ts checks that every module-level variable is listed here,
 * is `session`, or is named there as needing no saving: `floatsBeforeView` (it only decides when
 * the outer decode makes its view), `valueKey` (a prediction: the key's bytes are compared
 * anyway), the value stack's `stackTop` (maps take and give back slots in nesting order, and the
 * slots above it are free), `stackUsed` (it only rises until the outermost decode clears the
 * stack) and `stackNext` (set before each build, which reads no input), and the kept view (kept
 * across decodes by design; `view` itself is saved). The Latin-1 window and the UTF-8 batch are
 * the session's (`window`), of its decode's input.
 */
function saveHot() {
  // deno-fmt-ignore
  return { src, srcEnd, position, view, context, recordTypes, fatalStrings, budget, depth };
}

type HotState = ReturnType<typeof saveHot>;

function restoreHot(saved: HotState): void {
  // Takes what the list leaves over: its type holds no field, so a field of HotState missing
  // from the list fails `deno check`.
  let _unrestored: { [field: string]: never };
  // deno-fmt-ignore
  ({ src, srcEnd, position, view, context, recordTypes, fatalStrings, budget, depth, ..._unrestored } = saved);
}

/** Saves the decode in progress, runs `action`, and restores it, whether `action` throws or not. */
function withSavedState<T>(action: () => T): T {
  const saved = saveHot();
  const outerSession = session;
  // whether this decode has called `getStructures` yet
  const triedLoading = context?.records.triedLoading;
  session = newDecodeSession(true, outerSession.compilesLeft);
  try {
    return action();
  } finally {
    outerSession.compilesLeft = session.compilesLeft;
    session = outerSession;
    restoreHot(saved);
    if (context !== undefined) context.records.triedLoading = triedLoading;
  }
}

function begin(ctx: DecodeContext, bytes: Uint8Array, start: number, end: number): void {
  src = bytes;
  if (bytes === keptViewInput && bytes.byteLength === keptViewLength) view = keptView;
  else if (end - start < EAGER_VIEW_MIN_INPUT) view = null;
  else makeView();
  floatsBeforeView = FLOATS_BEFORE_VIEW;
  srcEnd = end;
  position = start;
  session.decoding = true;
  context = ctx;
  ctx.records.syncShared();
  ctx.records.triedLoading = false;
  session.heapAllowance = Math.max(
    HEAP_ALLOWANCE_FLOOR,
    (end - start) * HEAP_ALLOWANCE_PER_INPUT_BYTE,
  );
  recordTypes = ctx.records.types;
  session.sharedStructuresPossible = ctx.records.shared !== null ||
    ctx.records.getStructures !== null;
  fatalStrings = ctx.fatal;
  session.extensionDecoders = ctx.extensions.decoders(); // bundle and references: null (finish)
  closeInputWindow(session.window); // of the input, which changes here
}

function finish(): void {
  session.decoding = false;
  session.references = null;
  session.bundle = null;
  // let the input be collected (but for the kept view's input: see keptViewInput)
  src = EMPTY;
  view = null;
  closeInputWindow(session.window);
}

/** Reads one top-level value at `position` with a fresh budget and depth. */
function readTopLevel(): unknown {
  budget = srcEnd - position;
  depth = 0;
  let value: unknown;
  try {
    value = read();
  } catch (error) {
    throw classify(error);
  }
  if (position > srcEnd) throw incomplete(); // before a bundle's jump below would hide it
  const bundle = session.bundle;
  if (bundle !== null) {
    // the last bundle's strings follow the value directly (as msgpackr writes them); a pointer
    // into the value, or past a gap, would let reading overlap the strings or skip bytes
    if (position !== bundle.stringsStart) {
      throw invalid("String bundle does not start where the value ends", bundle.stringsStart);
    }
    position = bundle.end; // skip the bundle's strings
    session.bundle = null;
  }
  session.references = null;
  return value;
}

/** Engine errors from deep recursion become a clear error; ours pass through. */
function classify(error: unknown): unknown {
  if (error instanceof DecodeError) return error;
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return invalid(
      "Nesting too deep for the call stack (lower maxDepth)",
      Math.min(position, srcEnd),
    );
  }
  return error;
}

/**
 * Decodes exactly one value from `bytes[start, end)`; trailing bytes are an error. A decode
 * started while another runs (from an extension, say) saves and restores the state around it
 * (`withSavedState`); when it is the same instance that is decoding, it is nested, and its record
 * definitions never outlive it.
 */
export function decodeOne(
  ctx: DecodeContext,
  bytes: Uint8Array,
  start: number,
  end: number,
): unknown {
  return decode(ctx, bytes, start, end, false, undefined);
}

/** Before a decode that no other decode is running around (whoever runs inside it). */
function startOutermost(): void {
  session.compilesLeft = MAX_COMPILES_PER_DECODE;
  renewMapShapesIfFull();
  builderSources.pool?.renewIfDue();
}

/** After that decode, whether it succeeded or not: the value stack keeps nothing alive. */
function endOutermost(): void {
  stackTop = 0;
  valueKey = null; // see valueKey: the tree may be renewed before the next decode
  // a few slots in a loop: on V8 a call to `fill` costs as much as decoding a small map
  if (stackUsed > 16) valueStack.fill(undefined, 0, stackUsed);
  else for (let i = 0; i < stackUsed; i++) valueStack[i] = undefined;
  stackUsed = 0;
}

function trailingBytes(value: unknown): DecodeError {
  let preview: string;
  try {
    let nodes = 0; // a graph of shared references is exponential as a tree: 200 nodes at most
    preview = JSON.stringify(
      value,
      (_, v) => ++nodes > 200 ? "…" : typeof v === "bigint" ? `${v}n` : v,
    )?.slice(0, 100) ?? String(value);
  } catch (error) {
    preview = `(JSON view not available ${error})`;
  }
  return invalid(`Data read, but end of buffer not reached ${preview}`, position);
}

/**
 * Decodes consecutive values from `bytes[start, end)`. With `forEach`, calls it with each value
 * and its byte range and stops when it returns `false`; without, returns the values. Record
 * definitions persist from one value to the next (and past the call when the context says so).
 * An error carries `lastPosition` (where the failed value started) and `values` (decoded so
 * far, without `forEach`); the definitions of the failed value are undone, so a retry with more
 * bytes sees the table as it was.
 */
export function decodeMany(
  ctx: DecodeContext,
  bytes: Uint8Array,
  start: number,
  end: number,
  forEach?: (value: unknown, start: number, end: number) => unknown,
): unknown[] | undefined {
  return decode(ctx, bytes, start, end, true, forEach) as unknown[] | undefined;
}

/** `run`, inside `withSavedState` when another decode is running around it. */
function decode(
  ctx: DecodeContext,
  bytes: Uint8Array,
  start: number,
  end: number,
  many: boolean,
  forEach: ((value: unknown, start: number, end: number) => unknown) | undefined,
): unknown {
  if (!session.decoding) return run(ctx, bytes, start, end, many, forEach);
  return withSavedState(() => run(ctx, bytes, start, end, many, forEach));
}

/**
 * The one driver of `decodeOne` (`many` false: one value, then the end) and `decodeMany`. A value
 * kept past the call commits its definitions: per value of a sequence when the context keeps a
 * sequence's, at the end of one value when it keeps definitions, never in a nested decode.
 */
function run(
  ctx: DecodeContext,
  bytes: Uint8Array,
  start: number,
  end: number,
  many: boolean,
  forEach: ((value: unknown, start: number, end: number) => unknown) | undefined,
): unknown {
  const records = ctx.records;
  // nested only when this instance is decoding already: another instance decoding inside an
  // extension runs its own outermost decode of its table (its sequential definitions persist)
  const nested = records.decodes > 0;
  const callMark = records.mark();
  const commit = !nested &&
    (many ? ctx.sequential || ctx.persistInMultiple : ctx.keepDefinitions);
  const outermost = !session.decoding;
  if (outermost) startOutermost();
  begin(ctx, bytes, start, end);
  records.decodes++;
  const values: unknown[] | undefined = many && !forEach ? [] : undefined;
  let valueStart = start;
  let valueMark = callMark;
  try {
    if (!many) {
      const value = readTopLevel();
      if (position < srcEnd) throw trailingBytes(value);
      if (commit) records.commit();
      else records.rollback(callMark);
      return value;
    }
    if (start >= end) throw incomplete();
    while (position < srcEnd) {
      valueStart = position;
      // a value's own undo point is only needed when each value's definitions are kept; a mark
      // per value would also log every slot again for each value (see RecordTable.mark)
      if (commit) valueMark = records.mark();
      const value = readTopLevel();
      if (commit) records.commit();
      if (values) values.push(value);
      else if (forEach!(value, valueStart, position) === false) break;
    }
    if (!commit) records.rollback(callMark);
    return values;
  } catch (error) {
    records.rollback(commit ? valueMark : callMark);
    if (many && error instanceof DecodeError) {
      error.lastPosition = valueStart;
      if (values) error.values = values;
    }
    throw error;
  } finally {
    records.decodes--;
    finish();
    if (outermost) endOutermost();
  }
}
