// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The command line tool's encoder: writes tagged JSON (see `_cli/tagged_json.ts`) as MessagePack.
// Every top-level value is one `pack` of a library `Packr` with the tool's options (records,
// `sequential`, shared structures, `useFloat32`, `bundleStrings`), so untagged values get exactly
// the bytes `Packr.pack` writes for the same JavaScript values (docs/wire-format.md, "What the
// encoder writes"): record ids from the Packr's own structures, strings bundled as it bundles them
// (docs/wire-format.md, "Bundled strings"). Tags whose bytes the library writes the same way
// become the JavaScript value it writes them from: `bigint`, `date`, `c1`, `undefined`, `bin`,
// `array` and `map` without a `"header"`, `object`.
// What is left is the part the library would write otherwise, the widths another producer chose:
// a tag's `"header"` (`"header": "str8"`), integer and float widths (`uint16`, `float64` with
// `bits`), strings that are not UTF-8, timestamps, typed arrays, extensions, the header and
// payload of the tags followed by a value (Set, Error, RegExp, structured-clone ids), and an
// object whose key order a JavaScript object cannot hold (integer-like keys after others, a key
// twice). Those bytes are built here and written in place during the same `pack`, through an
// extension of the Packr (`allocateForWrite`); the values inside them are packed in place after
// them, so record ids and bundles run through the whole value as the library's own.
// Numbers kept as text (`JsonNumber`, from a parse with exact numbers: `fetch -d`) are written as
// other services write JSON numbers: an integer as the smallest integer format up to 64 bits (past
// that, msgpackr's bigint extension), any other number as float64.

import { concatBytes } from "../_core/bytes.ts";
import { C1 } from "../_core/c1.ts";
import { JsonInputError, JsonNumber, JsonObject, type JsonValue } from "./json.ts";
import { fromBase64, fromHex } from "./text.ts";
import { parseTimestampIso } from "./time.ts";
import { FORMAT_NAMES, TYPED_ARRAY_NAMES } from "./wire.ts";
import type { Float32Option } from "../_format/float32.ts";
import type { Structure } from "../_core/options.ts";
import type { WriteTarget } from "../_core/extensions.ts";
import { encodeContextOf, Packr } from "../_encode/packr.ts";
import { HEADER_SIZE } from "../_format/tokens.ts";

/** The member that makes a JSON object a tag. */
export const TAG = "$msgpack";

/** Settings of a writer (the `Packr` options the tool supports). */
export interface WriterSettings {
  /** Objects as records (`new Packr()`), else as map16 (`pack()`). */
  records: boolean;
  /** `useFloat32`. */
  float32: Float32Option;
  /** Shared structures (read only: shapes not in it are defined inline), or null. */
  structures: readonly Structure[] | null;
  /** `sequential`: record ids persist from one value to the next. */
  sequential: boolean;
  /** `bundleStrings`. */
  bundleStrings: boolean;
  /** Deepest nesting accepted. */
  maxDepth: number;
  /** Where in the JSON text an index is (" at line 3, column 5"), for error messages. */
  locate?: (index: number) => string;
}

const TYPED_ARRAY_BY_NAME = new Map(
  [...TYPED_ARRAY_NAMES].map(([code, name]) => [name, code] as const),
);

const BYTES = ["base64", "hex"];
const HEADER = ["header"];
/** The members each tag may have (besides `$msgpack`). */
const TAG_MEMBERS: Record<string, readonly string[]> = {
  object: ["value"],
  map: ["value", "entries", ...HEADER],
  array: ["value", ...HEADER],
  str: ["value", ...BYTES, ...HEADER],
  bin: [...BYTES, ...HEADER],
  bigint: ["value"],
  uint8: ["value"],
  uint16: ["value"],
  uint32: ["value"],
  uint64: ["value"],
  int8: ["value"],
  int16: ["value"],
  int32: ["value"],
  int64: ["value"],
  float32: ["value", "bits"],
  float64: ["value", "bits"],
  undefined: HEADER,
  c1: [],
  date: ["value"],
  timestamp: ["value", "seconds", "nanoseconds", ...HEADER],
  set: ["value", ...BYTES, ...HEADER],
  error: ["value", ...BYTES, ...HEADER],
  regexp: ["value", ...BYTES, ...HEADER],
  typed: ["type", "value", ...BYTES, ...HEADER],
  id: ["id", "value", ...HEADER],
  ref: ["id", ...HEADER],
  ext: ["type", ...BYTES, ...HEADER],
};

/** The ext header formats and the payload sizes of the fixext ones. */
const FIXEXT_SIZES: Record<string, number> = {
  fixext1: 1,
  fixext2: 2,
  fixext4: 4,
  fixext8: 8,
  fixext16: 16,
};

/**
 * Packrs that write one value as the library does, by `fixintsTo0x7f` (records off: integers
 * 0x40..0x7f are fixints) and `useFloat32`; bigints beyond 64 bits as the "B" extension.
 */
const libraryPackrs = new Map<number, Packr>();

function libraryPackr(fixintsTo0x7f: boolean, useFloat32: Float32Option): Packr {
  const key = useFloat32 * 2 + (fixintsTo0x7f ? 1 : 0);
  let packr = libraryPackrs.get(key);
  if (packr === undefined) {
    packr = new Packr({ useRecords: !fixintsTo0x7f, useFloat32, useBigIntExtension: true });
    libraryPackrs.set(key, packr);
  }
  return packr;
}

/** The bytes `Packr` writes for a number. */
export function numberBytes(
  value: number,
  fixintsTo0x7f: boolean,
  useFloat32: Float32Option,
): Uint8Array {
  return libraryPackr(fixintsTo0x7f, useFloat32).pack(value);
}

/** The smallest header format of a family for a length. */
export function minimalFormat(
  family: "str" | "bin" | "array" | "map" | "ext",
  length: number,
): string {
  switch (family) {
    case "str":
      return length < 0x20
        ? "fixstr"
        : length < 0x100
        ? "str8"
        : length < 0x10000
        ? "str16"
        : "str32";
    case "bin":
      return length < 0x100 ? "bin8" : length < 0x10000 ? "bin16" : "bin32";
    case "array":
      return length < 0x10 ? "fixarray" : length < 0x10000 ? "array16" : "array32";
    case "map":
      return length < 0x10 ? "fixmap" : length < 0x10000 ? "map16" : "map32";
    default:
      for (const name in FIXEXT_SIZES) if (FIXEXT_SIZES[name] === length) return name;
      return extFormat(length);
  }
}

/** The smallest ext8/16/32 header for a payload length (the typed array extension's form). */
export function extFormat(length: number): string {
  return length < 0x100 ? "ext8" : length < 0x10000 ? "ext16" : "ext32";
}

/**
 * The smallest timestamp form that holds `seconds` and `nanoseconds` (docs/wire-format.md,
 * "Timestamps").
 */
export function timestampFormat(seconds: bigint, nanoseconds: number): string {
  return nanoseconds === 0 && seconds >= 0n && seconds < 0x100000000n
    ? "fixext4"
    : seconds >= 0n && seconds < 0x400000000n && nanoseconds < 0x40000000
    ? "fixext8"
    : "ext8";
}

/** Bytes a tag forces, then the values the Packr packs after them. */
class Forced {
  readonly head: Uint8Array;
  readonly values: readonly unknown[];

  constructor(head: Uint8Array, values: readonly unknown[] = []) {
    this.head = head;
    this.values = values;
  }
}

/**
 * An object of records mode whose keys a JavaScript object cannot hold in their order: a record
 * of those keys, its id from the Packr's structures as the encoder takes one (docs/wire-format.md,
 * "Choosing ids").
 */
class ForcedRecord {
  readonly keys: readonly string[];
  readonly values: readonly unknown[];

  constructor(keys: readonly string[], values: readonly unknown[]) {
    this.keys = keys;
    this.values = values;
  }
}

/** A map16 header. */
function map16(length: number): Uint8Array {
  return Uint8Array.of(0xde, length >> 8, length & 0xff);
}

/**
 * A record id: one byte, or two for ids ≥ 0x60 in two-byte mode (docs/wire-format.md, "Two-byte
 * ids").
 */
function recordIdBytes(recordId: number, twoByte: boolean): number[] {
  return recordId >= 0x60 && twoByte
    ? [((recordId - 0x60) & 0x1f) + 0x60, (recordId - 0x60) >> 5]
    : [recordId];
}

/** Keys and values as the entries of a map: key, value, key, value… */
function entries(keys: readonly unknown[], values: readonly unknown[]): unknown[] {
  const out = new Array<unknown>(keys.length * 2);
  for (let i = 0; i < keys.length; i++) {
    out[2 * i] = keys[i];
    out[2 * i + 1] = values[i];
  }
  return out;
}

/** Writes tagged JSON values as MessagePack, one top-level value at a time. */
export class TaggedWriter {
  readonly #settings: WriterSettings;
  readonly #packr: Packr;
  #depth = 0;
  /** Index in the text of the innermost object being written, for error messages. */
  #at = -1;

  constructor(settings: WriterSettings) {
    this.#settings = settings;
    const shared = settings.structures;
    // a copy: the table may grow while packing (it never does with shapes kept inline)
    const table = shared === null ? undefined : shared.map((keys) => [...keys]);
    const packr = this.#packr = new Packr({
      useRecords: settings.records,
      sequential: settings.sequential,
      useFloat32: settings.float32,
      bundleStrings: settings.bundleStrings,
      useBigIntExtension: true,
      // the tool's own depth check comes first, with the place in the text
      maxDepth: 2 * settings.maxDepth + 8,
      ...(table === undefined ? {} : {
        structures: table,
        maxSharedStructures: Math.max(32, table.length),
        // the structures file is only read: new shapes are defined inline, so the output
        // decodes with the same file
        shouldShareStructure: () => false,
      }),
    });
    packr.addExtension({
      Class: Forced,
      type: 1, // unused: the extension writes its bytes itself
      pack(forced: Forced, allocateForWrite, pack) {
        write(allocateForWrite, forced.head);
        for (const value of forced.values) pack(value);
      },
    });
    packr.addExtension({
      Class: ForcedRecord,
      type: 1,
      pack(record: ForcedRecord, allocateForWrite, pack) {
        // as the encoder writes a record, with the keys in this order
        const structures = encodeContextOf(packr).records!;
        const made = structures.shapes!.size;
        const node = structures.nodeFor(record.keys);
        let recordId = node.recordId;
        let keys: readonly string[] | null = null; // of an inline definition
        if (recordId === 0) {
          const shape = node.keys ?? [...record.keys];
          recordId = structures.allocate(node, shape, structures.shapes!.size - made);
          if (recordId === 0) {
            write(allocateForWrite, map16(record.keys.length));
            for (const value of entries(record.keys, record.values)) pack(value);
            return;
          }
          if (recordId >= structures.sharedLimitId) keys = shape;
        }
        const id = recordIdBytes(recordId, structures.twoByte);
        write(
          allocateForWrite,
          Uint8Array.from(keys === null ? id : [id.length === 2 ? 0xd5 : 0xd4, 0x72, ...id]),
        );
        if (keys !== null) pack(keys);
        for (const value of record.values) pack(value);
      },
    });
  }

  /** Encodes every value, one after another. */
  encodeAll(values: readonly JsonValue[]): Uint8Array {
    return concatBytes(values.map((value) => this.encode(value)));
  }

  /** Encodes one top-level value. */
  encode(value: JsonValue): Uint8Array {
    this.#depth = 0;
    this.#at = -1;
    return this.#packr.pack(this.#value(value));
  }

  #fail(message: string, at: number = this.#at): never {
    const where = at >= 0 && this.#settings.locate ? this.#settings.locate(at) : "";
    throw new JsonInputError(message + where, at);
  }

  #enter(): void {
    if (++this.#depth > this.#settings.maxDepth) {
      this.#fail(`Nesting deeper than maxDepth (${this.#settings.maxDepth})`);
    }
  }

  /** Values inside a container (or after a tag). */
  #inner(values: readonly JsonValue[]): unknown[] {
    this.#enter();
    const converted = values.map((value) => this.#value(value));
    this.#depth--;
    return converted;
  }

  /** A header of `format` for `length`; checks that the format can hold it. */
  #header(format: string, length: number): Uint8Array {
    const fits = (max: number) => {
      if (length > max) this.#fail(`Header ${format} cannot hold length ${length}`);
    };
    const token = FORMAT_NAMES.indexOf(format); // for a fix format, its first byte with length 0
    switch (format) {
      case "fixstr":
        fits(0x1f);
        return Uint8Array.of(token | length);
      case "fixarray":
      case "fixmap":
        fits(0xf);
        return Uint8Array.of(token | length);
      case "str8":
      case "bin8":
      case "ext8":
        fits(0xff);
        return Uint8Array.of(token, length);
      case "str16":
      case "bin16":
      case "ext16":
      case "array16":
      case "map16":
        fits(0xffff);
        return Uint8Array.of(token, length >> 8, length & 0xff);
      case "str32":
      case "bin32":
      case "ext32":
      case "array32":
      case "map32":
        fits(0xffffffff);
        return Uint8Array.of(
          token,
          length >>> 24,
          (length >> 16) & 0xff,
          (length >> 8) & 0xff,
          length & 0xff,
        );
    }
    const size = FIXEXT_SIZES[format];
    if (size === undefined) this.#fail(`Unknown header format ${JSON.stringify(format)}`);
    if (length !== size) this.#fail(`Header ${format} cannot hold ${length} bytes`);
    return Uint8Array.of(token);
  }

  /** A header of `family`: the one a tag names in `"header"`, else the smallest. */
  #familyHeader(
    family: "str" | "bin" | "array" | "map" | "ext",
    forced: string | undefined,
    length: number,
  ): Uint8Array {
    if (forced !== undefined) {
      const ok = family === "ext"
        ? forced in FIXEXT_SIZES || /^ext(8|16|32)$/.test(forced)
        : forced === `fix${family}` || new RegExp(`^${family}(8|16|32)$`).test(forced);
      if (!ok || forced === "fixbin" || forced === "array8" || forced === "map8") {
        this.#fail(`Header ${JSON.stringify(forced)} is not a ${family} format`);
      }
      return this.#header(forced, length);
    }
    return this.#header(minimalFormat(family, length), length);
  }

  // ---- values ----------------------------------------------------------------------------------

  /** The value to pack for a JSON value. */
  #value(value: JsonValue): unknown {
    switch (typeof value) {
      case "string":
      case "number":
      case "boolean":
        return value;
    }
    if (value === null) return null;
    if (value instanceof JsonNumber) return this.#exactNumber(value);
    if (Array.isArray(value)) return this.#inner(value);
    const outer = this.#at;
    this.#at = value.at;
    const packed = value.keys.includes(TAG)
      ? this.#tag(value)
      : this.#object(value.keys, value.values);
    this.#at = outer;
    return packed;
  }

  /** A number given as text: the smallest integer format, or float64. */
  #exactNumber(number: JsonNumber): unknown {
    if (!number.isInteger) {
      const float = Number(number.text);
      // the library writes float64 for a number that is not an integer (useFloat32 off)
      if (!Number.isInteger(float) && this.#settings.float32 === 0) return float;
      return new Forced(fixedBytes(0xcb, 8, (view) => view.setFloat64(1, float)));
    }
    const value = BigInt(number.text);
    if (value >= -0x80000000n && value <= 0xffffffffn) return Number(value);
    if (value > 0xffffffffn && value < 0x8000000000000000n) {
      // the library writes a bigint below 2^63 as int64
      return new Forced(fixedBytes(0xcf, 8, (view) => view.setBigUint64(1, value)));
    }
    // int64, uint64 from 2^63, and past 64 bits msgpackr's bigint extension
    return value;
  }

  /** An object: a plain object, or where its keys' order needs it, a map16 or a record of them. */
  #object(keys: readonly string[], values: readonly JsonValue[]): unknown {
    const records = this.#settings.records;
    if (!records && keys.length > 0xffff) {
      this.#fail(
        'Object is too large to serialize with fast 16-bit map size, use the "variableMapSize" option to serialize this object',
      );
    }
    const converted = this.#inner(values);
    const object: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      // a key "__proto__" is a property like any other (docs/wire-format.md, "__proto__")
      Object.defineProperty(object, keys[i], {
        value: converted[i],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    const order = Object.keys(object);
    if (order.length === keys.length && order.every((key, i) => key === keys[i])) return object;
    // integer-like keys after others, or a key twice: the order of the text
    return records
      ? new ForcedRecord(keys, converted)
      : new Forced(map16(keys.length), entries(keys, converted));
  }

  /** A string with its own bytes (never bundled): the UTF-8 bytes `Packr` writes for it. */
  #rawString(value: string, format: string | undefined): Uint8Array {
    const packed = libraryPackr(true, 0).pack(value);
    const bytes = packed.subarray(HEADER_SIZE[packed[0]]);
    return concatBytes([this.#familyHeader("str", format, bytes.length), bytes]);
  }

  // ---- tags ------------------------------------------------------------------------------------

  #tag(object: JsonObject): unknown {
    const name = object.get(TAG);
    const members = typeof name === "string" && Object.hasOwn(TAG_MEMBERS, name)
      ? TAG_MEMBERS[name]
      : null;
    if (members !== null) {
      for (const key of object.keys) {
        if (key !== TAG && !members.includes(key)) {
          this.#fail(`Tag ${JSON.stringify(name)} has no member ${JSON.stringify(key)}`);
        }
      }
    }
    switch (name) {
      case "object": {
        const value = this.#member(object, "value");
        if (!(value instanceof JsonObject)) this.#fail('Tag "object" needs an object "value"');
        return this.#object(value.keys, value.values);
      }
      case "map":
        return this.#mapTag(object);
      case "array": {
        const value = this.#member(object, "value");
        if (!Array.isArray(value)) this.#fail('Tag "array" needs an array "value"');
        const format = this.#format(object);
        if (format === undefined) return this.#inner(value);
        return new Forced(this.#familyHeader("array", format, value.length), this.#inner(value));
      }
      case "str":
        return new Forced(this.#strTag(object));
      case "bin": {
        const bytes = this.#payload(object, true)!;
        const format = this.#format(object);
        if (format === undefined) return bytes;
        return new Forced(concatBytes([this.#familyHeader("bin", format, bytes.length), bytes]));
      }
      case "bigint":
        return this.#bigintMember(object);
      case "uint8":
      case "uint16":
      case "uint32":
      case "uint64":
      case "int8":
      case "int16":
      case "int32":
      case "int64":
        return new Forced(this.#fixedInt(object, name));
      case "float32":
      case "float64":
        return new Forced(this.#float(object, name));
      case "undefined": {
        const format = this.#format(object);
        if (format === undefined) return undefined;
        return new Forced(this.#ext(0, new Uint8Array(1), format));
      }
      case "c1":
        return C1;
      case "date":
        return this.#date(object);
      case "timestamp":
        return new Forced(this.#timestamp(object));
      case "set":
      case "error":
      case "regexp": {
        const type = name === "set" ? 0x73 : name === "error" ? 0x65 : 0x78;
        const head = this.#ext(
          type,
          this.#payload(object, false) ?? new Uint8Array(1),
          this.#format(object),
        );
        return new Forced(head, [this.#tagged(object)]);
      }
      case "typed":
        return new Forced(this.#typed(object));
      case "id":
      case "ref": {
        const id = this.#scalar(object, "id");
        if (typeof id !== "number" || !(id >>> 0 === id)) {
          this.#fail(`Tag ${JSON.stringify(name)} needs an "id" from 0 to 4294967295`);
        }
        const payload = new Uint8Array(4);
        new DataView(payload.buffer).setUint32(0, id);
        const head = this.#ext(name === "id" ? 0x69 : 0x70, payload, this.#format(object));
        if (name === "ref") return new Forced(head);
        return new Forced(head, [this.#tagged(object)]);
      }
      case "ext": {
        const type = this.#scalar(object, "type");
        if (typeof type !== "number" || !Number.isInteger(type) || type < -128 || type > 255) {
          this.#fail('Tag "ext" needs a "type" from -128 to 255');
        }
        const payload = this.#payload(object, true)!;
        const format = this.#format(object) ?? minimalFormat("ext", payload.length);
        if ((type & 0xff) === 0x72 && (format === "fixext1" || format === "fixext2")) {
          this.#fail(`Ext type 114 in ${format} is a record definition: use records instead`);
        }
        return new Forced(this.#ext(type & 0xff, payload, format));
      }
    }
    this.#fail(
      `Unknown tag ${JSON.stringify(name)} (to keep a "${TAG}" key, use the "object" tag)`,
    );
  }

  /** The value a tag applies to (its `"value"`), one level down. */
  #tagged(object: JsonObject): unknown {
    this.#enter();
    const value = this.#value(this.#member(object, "value"));
    this.#depth--;
    return value;
  }

  #member(object: JsonObject, key: string): JsonValue {
    const value = object.get(key);
    if (value === undefined) {
      this.#fail(`Tag ${JSON.stringify(object.get(TAG))} needs a ${JSON.stringify(key)} member`);
    }
    return value;
  }

  /** A member that is a scalar, a number given as text made a JavaScript number. */
  #scalar(object: JsonObject, key: string): JsonValue {
    const value = this.#member(object, key);
    return value instanceof JsonNumber ? Number(value.text) : value;
  }

  /** The `"header"` member (a wire format name), if any. */
  #format(object: JsonObject): string | undefined {
    const format = object.get("header");
    if (format === undefined) return undefined;
    if (typeof format !== "string") this.#fail('"header" must be a format name such as "str8"');
    return format;
  }

  /** Bytes from a `"base64"` or `"hex"` member. */
  #payload(object: JsonObject, required: boolean): Uint8Array | null {
    const base64 = object.get("base64");
    if (base64 !== undefined) {
      const bytes = typeof base64 === "string" ? fromBase64(base64) : null;
      if (bytes === null) this.#fail('"base64" must be a base64 string');
      return bytes;
    }
    const hex = object.get("hex");
    if (hex !== undefined) {
      const bytes = typeof hex === "string" ? fromHex(hex) : null;
      if (bytes === null) this.#fail('"hex" must be a string of hex digits');
      return bytes;
    }
    if (required) {
      this.#fail(`Tag ${JSON.stringify(object.get(TAG))} needs a "base64" or "hex" member`);
    }
    return null;
  }

  /** A map: a `Map` when the library writes it so (smallest header, no key twice), else forced. */
  #mapTag(object: JsonObject): unknown {
    const format = this.#format(object);
    const value = object.get("value");
    const keys: unknown[] = [];
    const values: unknown[] = [];
    let header: Uint8Array;
    if (value instanceof JsonObject) {
      header = this.#familyHeader("map", format, value.keys.length);
      keys.push(...value.keys);
      values.push(...this.#inner(value.values));
    } else {
      const pairs = object.get("entries");
      if (!Array.isArray(pairs)) {
        this.#fail('Tag "map" needs an object "value" or an "entries" array of [key, value] pairs');
      }
      header = this.#familyHeader("map", format, pairs.length);
      this.#enter();
      for (const entry of pairs) {
        if (!Array.isArray(entry) || entry.length !== 2) {
          this.#fail('Each item of "entries" must be a [key, value] pair');
        }
        keys.push(this.#value(entry[0]));
        values.push(this.#value(entry[1]));
      }
      this.#depth--;
    }
    if (format === undefined) {
      const map = new Map(keys.map((key, i) => [key, values[i]]));
      if (map.size === keys.length) return map;
    }
    return new Forced(header, entries(keys, values));
  }

  #strTag(object: JsonObject): Uint8Array {
    const format = this.#format(object);
    const value = object.get("value");
    if (typeof value === "string") return this.#rawString(value, format);
    const bytes = this.#payload(object, false);
    if (bytes === null) this.#fail('Tag "str" needs a string "value", or "base64" or "hex"');
    return concatBytes([this.#familyHeader("str", format, bytes.length), bytes]);
  }

  #bigintMember(object: JsonObject, key = "value"): bigint {
    const value = this.#member(object, key);
    try {
      if (value instanceof JsonNumber && value.isInteger) return BigInt(value.text);
      if (typeof value === "string" && /^-?\d+$/.test(value)) return BigInt(value);
      if (typeof value === "number" && Number.isInteger(value)) return BigInt(value);
    } catch {
      // fall through
    }
    this.#fail(`${JSON.stringify(key)} must be an integer (a decimal string for big values)`);
  }

  #fixedInt(object: JsonObject, format: string): Uint8Array {
    const value = this.#bigintMember(object);
    const bits = BigInt(Number(format.slice(format.startsWith("u") ? 4 : 3)));
    const signed = !format.startsWith("u");
    const min = signed ? -(1n << (bits - 1n)) : 0n;
    const max = signed ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n;
    if (value < min || value > max) this.#fail(`${value} does not fit in ${format}`);
    const token = FORMAT_NAMES.indexOf(format);
    const n = Number(value);
    return fixedBytes(token, Number(bits) / 8, (view) => {
      switch (format) {
        case "uint8":
          return view.setUint8(1, n);
        case "uint16":
          return view.setUint16(1, n);
        case "uint32":
          return view.setUint32(1, n);
        case "uint64":
          return view.setBigUint64(1, value);
        case "int8":
          return view.setInt8(1, n);
        case "int16":
          return view.setInt16(1, n);
        case "int32":
          return view.setInt32(1, n);
        default:
          return view.setBigInt64(1, value);
      }
    });
  }

  #float(object: JsonObject, format: "float32" | "float64"): Uint8Array {
    const size = format === "float32" ? 4 : 8;
    const token = format === "float32" ? 0xca : 0xcb;
    const bits = object.get("bits");
    if (bits !== undefined) {
      const bytes = typeof bits === "string" ? fromHex(bits) : null;
      if (bytes === null || bytes.length !== size) {
        this.#fail(`"bits" of ${format} must be ${size * 2} hex digits`);
      }
      return concatBytes([Uint8Array.of(token), bytes]);
    }
    const value = this.#scalar(object, "value");
    let number: number;
    if (typeof value === "number") number = value;
    else if (value === "NaN") number = NaN;
    else if (value === "Infinity") number = Infinity;
    else if (value === "-Infinity") number = -Infinity;
    else if (value === "-0") number = -0;
    else {this.#fail(
        `"value" of ${format} must be a number, "NaN", "Infinity", "-Infinity" or "-0"`,
      );}
    return fixedBytes(
      token,
      size,
      (view) => size === 4 ? view.setFloat32(1, number) : view.setFloat64(1, number),
    );
  }

  /** An ext: the tag's `"header"` (checked against the length) or the smallest. */
  #ext(type: number, payload: Uint8Array, format: string | undefined): Uint8Array {
    const header = this.#familyHeader("ext", format, payload.length);
    return concatBytes([header, Uint8Array.of(type & 0xff), payload]);
  }

  #date(object: JsonObject): Date {
    const value = this.#member(object, "value");
    let date = new Date(NaN);
    if (value !== "Invalid Date" && value !== null) {
      date = typeof value === "string" ? new Date(value) : date;
      if (isNaN(date.getTime())) {
        this.#fail('"value" of a date must be an ISO 8601 date ("2024-01-31T12:00:00.000Z")');
      }
    }
    return date;
  }

  #timestamp(object: JsonObject): Uint8Array {
    let seconds: bigint;
    let nanoseconds: number;
    const iso = object.get("value");
    if (iso !== undefined) {
      const time = typeof iso === "string" ? parseTimestampIso(iso) : null;
      if (time === null || object.get("seconds") !== undefined) {
        this.#fail(
          '"value" of a timestamp must be an ISO 8601 time in UTC ' +
            '("2024-01-31T12:00:00.123456789Z"), without "seconds"',
        );
      }
      ({ seconds, nanoseconds } = time);
    } else {
      seconds = this.#bigintMember(object, "seconds");
      let nanosecondsMember = object.get("nanoseconds") ?? 0;
      if (nanosecondsMember instanceof JsonNumber) {
        nanosecondsMember = Number(nanosecondsMember.text);
      }
      if (
        typeof nanosecondsMember !== "number" || nanosecondsMember >>> 0 !== nanosecondsMember
      ) {
        this.#fail('"nanoseconds" must be an integer from 0 to 4294967295');
      }
      nanoseconds = nanosecondsMember;
    }
    const format = this.#format(object) ?? timestampFormat(seconds, nanoseconds);
    let payload: Uint8Array;
    if (format === "fixext4") {
      if (nanoseconds !== 0 || seconds < 0n || seconds >= 0x100000000n) {
        this.#fail("A 32-bit timestamp holds whole seconds from 0 to 4294967295");
      }
      payload = new Uint8Array(4);
      new DataView(payload.buffer).setUint32(0, Number(seconds));
    } else if (format === "fixext8") {
      if (seconds < 0n || seconds >= 0x400000000n || nanoseconds >= 0x40000000) {
        this.#fail("A 64-bit timestamp holds seconds from 0 to 2^34-1 and 30-bit nanoseconds");
      }
      payload = new Uint8Array(8);
      const view = new DataView(payload.buffer);
      view.setUint32(0, nanoseconds * 4 + Number(seconds >> 32n));
      view.setUint32(4, Number(seconds & 0xffffffffn));
    } else {
      if (seconds < -0x8000000000000000n || seconds >= 0x8000000000000000n) {
        this.#fail("A 96-bit timestamp holds 64-bit seconds");
      }
      payload = new Uint8Array(12);
      const view = new DataView(payload.buffer);
      view.setUint32(0, nanoseconds);
      view.setBigInt64(4, seconds);
    }
    return this.#ext(0xff, payload, format);
  }

  #typed(object: JsonObject): Uint8Array {
    const type = this.#member(object, "type");
    const code = typeof type === "string" ? TYPED_ARRAY_BY_NAME.get(type) : undefined;
    if (code === undefined) {
      this.#fail(
        `"type" of a typed array must be one of ${[...TYPED_ARRAY_BY_NAME.keys()].join(", ")}`,
      );
    }
    const bytes = object.get("value") !== undefined
      ? this.#typedValues(object, type as string)
      : this.#payload(object, true)!;
    const payload = new Uint8Array(bytes.length + 1);
    payload[0] = code;
    payload.set(bytes, 1);
    // msgpackr writes ext8/16/32 here, never fixext
    const format = this.#format(object) ?? extFormat(payload.length);
    return this.#ext(0x74, payload, format);
  }

  /** The bytes of a typed array given by its numbers (`"value"`), in this machine's order. */
  #typedValues(object: JsonObject, type: string): Uint8Array {
    const values = object.get("value");
    const Type = (globalThis as unknown as Record<string, unknown>)[type] as
      | (new (length: number) => ArrayBufferView & Record<number, number | bigint>)
      | undefined;
    if (!Array.isArray(values) || Type === undefined || !type.endsWith("Array")) {
      this.#fail(`"value" of a typed array must be an array of numbers (${type} takes "base64")`);
    }
    const array = new Type(values.length);
    const big = type.startsWith("Big");
    for (let i = 0; i < values.length; i++) {
      let item = values[i];
      if (item instanceof JsonNumber) item = item.text;
      else if (typeof item === "number") item = String(item);
      else if (typeof item === "string" && !/^-?Infinity$|^NaN$/.test(item)) item = null;
      try {
        if (typeof item !== "string") throw new TypeError();
        array[i] = big ? BigInt(item) : Number(item);
      } catch {
        this.#fail(`"value" of a ${type} must be an array of ${big ? "integers" : "numbers"}`);
      }
    }
    return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  }
}

/** Writes `bytes` where the Packr has made room for them. */
function write(allocateForWrite: (size: number) => WriteTarget, bytes: Uint8Array): void {
  const room = allocateForWrite(bytes.length);
  room.target.set(bytes, room.position);
}

/** A token of `size` bytes after its first byte `token`, filled by `fill` (at offset 1). */
function fixedBytes(token: number, size: number, fill: (view: DataView) => void): Uint8Array {
  const bytes = new Uint8Array(1 + size);
  bytes[0] = token;
  fill(new DataView(bytes.buffer));
  return bytes;
}
