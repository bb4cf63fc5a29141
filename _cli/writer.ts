// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The command line tool's encoder: writes tagged JSON (see `_cli/tagged_json.ts`) as MessagePack.
// Untagged values get exactly the bytes `Packr.pack` writes for the same JavaScript values
// (docs/wire-format.md, "What the encoder writes"): numbers, strings, bigints and dates are packed
// by a library `Packr` with the same options; arrays get minimal headers; objects become map16 or
// records, with ids decided by the library's own `StructureEncoder`, so they are the ids a Packr
// with the same options picks; strings may be bundled (docs/wire-format.md, "Bundled strings").
// Tags add what JSON cannot say and, when a tag names a wire format (`uint16`,
// `"header": "str8"`), that exact format, so that decoded bytes encode back to themselves.
// Numbers kept as text (`JsonNumber`, from a parse with exact numbers: `fetch -d`) are written as
// other services write JSON numbers: an integer as the smallest integer format up to 64 bits (past
// that, msgpackr's bigint extension), any other number as float64.

import { concatBytes } from "../_core/bytes.ts";
import { JsonInputError, JsonNumber, JsonObject, type JsonValue } from "./json.ts";
import { fromBase64, fromHex } from "./text.ts";
import { parseTimestampIso } from "./time.ts";
import { FORMAT_NAMES, TYPED_ARRAY_NAMES } from "./wire.ts";
import type { Float32Option } from "../_format/float32.ts";
import type { Structure } from "../_core/options.ts";
import { StructureEncoder } from "../_records/structures.ts";
import { MAX_BUNDLE_SIZE, NON_ASCII } from "../_encode/encoder.ts";
import { Packr } from "../_encode/packr.ts";
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

interface Bundle {
  nonAscii: string;
  ascii: string;
  size: number;
  /** Offset of this bundle's 4-byte field, -1 before the first bundle opens. */
  field: number;
}

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

/** Writes tagged JSON values as MessagePack, one top-level value at a time. */
export class TaggedWriter {
  readonly #settings: WriterSettings;
  readonly #structures: StructureEncoder | null;
  #buffer = new Uint8Array(8192);
  #view = new DataView(this.#buffer.buffer);
  #pos = 0;
  #depth = 0;
  #bundle: Bundle | null = null;
  /** Index in the text of the innermost object being written, for error messages. */
  #at = -1;

  constructor(settings: WriterSettings) {
    this.#settings = settings;
    if (!settings.records) {
      this.#structures = null;
      return;
    }
    const shared = settings.structures;
    // a copy: the table may grow while packing (it never does with shapes kept inline)
    const table = shared === null ? [] : shared.map((keys) => [...keys]);
    this.#structures = new StructureEncoder(
      shared === null ? { sequential: settings.sequential } : {
        sequential: settings.sequential,
        structures: table,
        maxSharedStructures: Math.max(32, table.length),
        // the structures file is only read: new shapes are defined inline, so the output
        // decodes with the same file
        shouldShareStructure: () => false,
      },
      table,
      () => {},
    );
  }

  /** Encodes every value, one after another. */
  encodeAll(values: readonly JsonValue[]): Uint8Array {
    return concatBytes(values.map((value) => this.encode(value)));
  }

  /** Encodes one top-level value. */
  encode(value: JsonValue): Uint8Array {
    this.#pos = 0;
    this.#depth = 0;
    this.#at = -1;
    this.#bundle = this.#settings.bundleStrings && typeof value !== "string"
      ? { nonAscii: "", ascii: "", size: Infinity, field: -1 }
      : null;
    const structures = this.#structures;
    structures?.beginPack();
    try {
      this.#value(value);
      const bundle = this.#bundle as Bundle | null;
      if (bundle !== null && bundle.field >= 0) this.#bundleStrings(bundle);
    } finally {
      this.#bundle = null;
      structures?.endPack();
    }
    return this.#buffer.slice(0, this.#pos);
  }

  // ---- output ----------------------------------------------------------------------------------

  #room(bytes: number): void {
    const need = this.#pos + bytes;
    if (need <= this.#buffer.length) return;
    const grown = new Uint8Array(Math.max(need, this.#buffer.length * 2));
    grown.set(this.#buffer.subarray(0, this.#pos));
    this.#buffer = grown;
    this.#view = new DataView(grown.buffer);
  }

  #byte(byte: number): void {
    this.#room(1);
    this.#buffer[this.#pos++] = byte;
  }

  #bytes(bytes: Uint8Array): void {
    this.#room(bytes.length);
    this.#buffer.set(bytes, this.#pos);
    this.#pos += bytes.length;
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

  /** A header of `format` for `length`; checks that the format can hold it. */
  #header(format: string, length: number): void {
    this.#room(5);
    const t = this.#buffer;
    const view = this.#view;
    let p = this.#pos;
    const fits = (max: number) => {
      if (length > max) this.#fail(`Header ${format} cannot hold length ${length}`);
    };
    const token = FORMAT_NAMES.indexOf(format); // for a fix format, its first byte with length 0
    switch (format) {
      case "fixstr":
        fits(0x1f);
        t[p++] = token | length;
        break;
      case "fixarray":
      case "fixmap":
        fits(0xf);
        t[p++] = token | length;
        break;
      case "str8":
      case "bin8":
      case "ext8":
        fits(0xff);
        t[p++] = token;
        t[p++] = length;
        break;
      case "str16":
      case "bin16":
      case "ext16":
      case "array16":
      case "map16":
        fits(0xffff);
        t[p++] = token;
        view.setUint16(p, length);
        p += 2;
        break;
      case "str32":
      case "bin32":
      case "ext32":
      case "array32":
      case "map32":
        fits(0xffffffff);
        t[p++] = token;
        view.setUint32(p, length);
        p += 4;
        break;
      default: {
        const size = FIXEXT_SIZES[format];
        if (size === undefined) this.#fail(`Unknown header format ${JSON.stringify(format)}`);
        if (length !== size) this.#fail(`Header ${format} cannot hold ${length} bytes`);
        t[p++] = token;
      }
    }
    this.#pos = p;
  }

  /** A header of `family`: the one a tag names in `"header"`, else the smallest. */
  #familyHeader(
    family: "str" | "bin" | "array" | "map" | "ext",
    forced: string | undefined,
    length: number,
  ): void {
    if (forced !== undefined) {
      const ok = family === "ext"
        ? forced in FIXEXT_SIZES || /^ext(8|16|32)$/.test(forced)
        : forced === `fix${family}` || new RegExp(`^${family}(8|16|32)$`).test(forced);
      if (!ok || forced === "fixbin" || forced === "array8" || forced === "map8") {
        this.#fail(`Header ${JSON.stringify(forced)} is not a ${family} format`);
      }
      this.#header(forced, length);
      return;
    }
    this.#header(minimalFormat(family, length), length);
  }

  // ---- values ----------------------------------------------------------------------------------

  #value(value: JsonValue): void {
    switch (typeof value) {
      case "string":
        this.#string(value);
        return;
      case "number":
        this.#bytes(numberBytes(value, !this.#settings.records, this.#settings.float32));
        return;
      case "boolean":
        this.#byte(value ? 0xc3 : 0xc2);
        return;
    }
    if (value === null) {
      this.#byte(0xc0);
    } else if (value instanceof JsonNumber) {
      this.#exactNumber(value);
    } else if (Array.isArray(value)) {
      this.#array(value, undefined);
    } else {
      const outer = this.#at;
      this.#at = value.at;
      if (value.keys.includes(TAG)) this.#tag(value);
      else this.#object(value.keys, value.values);
      this.#at = outer;
    }
  }

  /** A number given as text: the smallest integer format, or float64. */
  #exactNumber(number: JsonNumber): void {
    if (!number.isInteger) {
      this.#room(9);
      this.#buffer[this.#pos] = 0xcb;
      this.#view.setFloat64(this.#pos + 1, Number(number.text));
      this.#pos += 9;
      return;
    }
    const value = BigInt(number.text);
    if (value >= -0x80000000n && value <= 0xffffffffn) {
      this.#bytes(numberBytes(Number(value), !this.#settings.records, 0));
    } else if (value >= 0n && value <= 0xffffffffffffffffn) {
      this.#room(9);
      this.#buffer[this.#pos] = 0xcf;
      this.#view.setBigUint64(this.#pos + 1, value);
      this.#pos += 9;
    } else if (value < 0n && value >= -0x8000000000000000n) {
      this.#room(9);
      this.#buffer[this.#pos] = 0xd3;
      this.#view.setBigInt64(this.#pos + 1, value);
      this.#pos += 9;
    } else {
      // past 64 bits: msgpackr's bigint extension, as a Packr writes the bigint
      this.#bytes(libraryPackr(true, 0).pack(value));
    }
  }

  #array(array: readonly JsonValue[], format: string | undefined): void {
    this.#familyHeader("array", format, array.length);
    this.#enter();
    for (let i = 0; i < array.length; i++) this.#value(array[i]);
    this.#depth--;
  }

  #string(value: string): void {
    if (this.#bundle !== null && value.length >= 4 && value.length < 0x1000) {
      this.#bundledString(value);
      return;
    }
    this.#rawString(value, undefined);
  }

  /** A string with its own bytes (never bundled): the UTF-8 bytes `Packr` writes for it. */
  #rawString(value: string, format: string | undefined): void {
    const packed = libraryPackr(true, 0).pack(value);
    const bytes = packed.subarray(HEADER_SIZE[packed[0]]);
    this.#familyHeader("str", format, bytes.length);
    this.#bytes(bytes);
  }

  #object(keys: readonly string[], values: readonly JsonValue[]): void {
    if (this.#structures !== null) this.#record(keys, values);
    else this.#map16Object(keys, values);
  }

  #map16Object(keys: readonly string[], values: readonly JsonValue[]): void {
    if (keys.length > 0xffff) {
      this.#fail(
        'Object is too large to serialize with fast 16-bit map size, use the "variableMapSize" option to serialize this object',
      );
    }
    this.#header("map16", keys.length);
    this.#enter();
    for (let i = 0; i < keys.length; i++) {
      this.#string(keys[i]);
      this.#value(values[i]);
    }
    this.#depth--;
  }

  /** A record, as `Packr` writes one (the shape trie and ids of the library's encoder). */
  #record(keys: readonly string[], values: readonly JsonValue[]): void {
    const structures = this.#structures!;
    const node = structures.nodeFor(keys);
    const newNodes = structures.newNodes;
    let recordId = node.recordId;
    if (recordId !== 0) {
      this.#recordId(structures, recordId);
    } else {
      const shape = node.keys ?? [...keys];
      recordId = structures.allocate(node, shape, newNodes);
      if (recordId === 0) {
        this.#map16Object(keys, values);
        return;
      }
      if (recordId < structures.sharedLimitId) {
        this.#recordId(structures, recordId);
      } else {
        // the definition inline: fixext1 or fixext2 of type "r" holding the id, then the keys
        this.#byte(recordId >= 0x60 && structures.twoByte ? 0xd5 : 0xd4);
        this.#byte(0x72);
        this.#recordId(structures, recordId);
        this.#array(shape, undefined);
      }
    }
    this.#enter();
    for (let i = 0; i < values.length; i++) this.#value(values[i]);
    this.#depth--;
  }

  #recordId(structures: StructureEncoder, recordId: number): void {
    if (recordId >= 0x60 && structures.twoByte) {
      this.#byte(((recordId - 0x60) & 0x1f) + 0x60);
      this.#byte((recordId - 0x60) >> 5);
    } else {
      this.#byte(recordId);
    }
  }

  // ---- string bundles --------------------------------------------------------------------------

  /**
   * A bundled string (docs/wire-format.md, "Bundled strings"): `c1` and its length, negative for
   * non-ASCII text; its text goes to the open bundle, and a new bundle opens when that one would
   * pass MAX_BUNDLE_SIZE units.
   */
  #bundledString(value: string): void {
    const open = this.#bundle!;
    const length = value.length;
    if ((open.size += length) > MAX_BUNDLE_SIZE) {
      let field: number;
      if (open.field >= 0) {
        // a later bundle: an ext whose payload is its field and the previous bundle's strings;
        // ext16 when it fits (msgpackr's form), else ext32
        this.#room(10);
        const headerStart = this.#pos;
        this.#buffer[headerStart] = 0xc9;
        this.#pos += 5;
        this.#buffer[this.#pos++] = 0x62;
        field = this.#pos;
        this.#pos += 4;
        this.#bundleStrings(open);
        const payloadLength = this.#pos - field;
        if (payloadLength <= 0xffff) {
          this.#buffer.copyWithin(headerStart + 3, headerStart + 5, this.#pos);
          this.#pos -= 2;
          field -= 2;
          // the previous field points at strings that moved 2 bytes closer
          this.#view.setUint32(open.field, this.#view.getUint32(open.field) - 2);
          this.#buffer[headerStart] = 0xc8;
          this.#view.setUint16(headerStart + 1, payloadLength);
        } else {
          this.#view.setUint32(headerStart + 1, payloadLength);
        }
      } else {
        this.#room(6);
        this.#buffer[this.#pos++] = 0xd6;
        this.#buffer[this.#pos++] = 0x62;
        field = this.#pos;
        this.#pos += 4;
      }
      this.#bundle = { nonAscii: "", ascii: "", size: 0, field };
    }
    const current = this.#bundle!;
    const nonAscii = NON_ASCII.test(value);
    if (nonAscii) current.nonAscii += value;
    else current.ascii += value;
    this.#byte(0xc1);
    this.#value(nonAscii ? -length : length);
  }

  /** Points `open`'s field here and writes its two strings. */
  #bundleStrings(open: Bundle): void {
    this.#view.setUint32(open.field, this.#pos - open.field);
    this.#bundle = null;
    this.#rawString(open.nonAscii, undefined);
    this.#rawString(open.ascii, undefined);
  }

  // ---- tags ------------------------------------------------------------------------------------

  #tag(object: JsonObject): void {
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
        this.#object(value.keys, value.values);
        return;
      }
      case "map":
        this.#mapTag(object);
        return;
      case "array": {
        const value = this.#member(object, "value");
        if (!Array.isArray(value)) this.#fail('Tag "array" needs an array "value"');
        this.#array(value, this.#format(object));
        return;
      }
      case "str":
        this.#strTag(object);
        return;
      case "bin": {
        const bytes = this.#payload(object, true)!;
        this.#familyHeader("bin", this.#format(object), bytes.length);
        this.#bytes(bytes);
        return;
      }
      case "bigint":
        this.#bytes(libraryPackr(true, 0).pack(this.#bigintMember(object)));
        return;
      case "uint8":
      case "uint16":
      case "uint32":
      case "uint64":
      case "int8":
      case "int16":
      case "int32":
      case "int64":
        this.#fixedInt(object, name);
        return;
      case "float32":
      case "float64":
        this.#float(object, name);
        return;
      case "undefined":
        this.#ext(0, new Uint8Array(1), this.#format(object));
        return;
      case "c1":
        this.#byte(0xc1);
        return;
      case "date":
        this.#date(object);
        return;
      case "timestamp":
        this.#timestamp(object);
        return;
      case "set":
      case "error":
      case "regexp": {
        const type = name === "set" ? 0x73 : name === "error" ? 0x65 : 0x78;
        this.#ext(type, this.#payload(object, false) ?? new Uint8Array(1), this.#format(object));
        this.#enter();
        this.#value(this.#member(object, "value"));
        this.#depth--;
        return;
      }
      case "typed":
        this.#typed(object);
        return;
      case "id":
      case "ref": {
        const id = this.#scalar(object, "id");
        if (typeof id !== "number" || !(id >>> 0 === id)) {
          this.#fail(`Tag ${JSON.stringify(name)} needs an "id" from 0 to 4294967295`);
        }
        const payload = new Uint8Array(4);
        new DataView(payload.buffer).setUint32(0, id);
        this.#ext(name === "id" ? 0x69 : 0x70, payload, this.#format(object));
        if (name === "id") {
          this.#enter();
          this.#value(this.#member(object, "value"));
          this.#depth--;
        }
        return;
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
        this.#ext(type & 0xff, payload, format);
        return;
      }
    }
    this.#fail(
      `Unknown tag ${JSON.stringify(name)} (to keep a "${TAG}" key, use the "object" tag)`,
    );
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

  #mapTag(object: JsonObject): void {
    const format = this.#format(object);
    const value = object.get("value");
    if (value instanceof JsonObject) {
      this.#familyHeader("map", format, value.keys.length);
      this.#enter();
      for (let i = 0; i < value.keys.length; i++) {
        this.#string(value.keys[i]);
        this.#value(value.values[i]);
      }
      this.#depth--;
      return;
    }
    const entries = object.get("entries");
    if (!Array.isArray(entries)) {
      this.#fail('Tag "map" needs an object "value" or an "entries" array of [key, value] pairs');
    }
    this.#familyHeader("map", format, entries.length);
    this.#enter();
    for (const entry of entries) {
      if (!Array.isArray(entry) || entry.length !== 2) {
        this.#fail('Each item of "entries" must be a [key, value] pair');
      }
      this.#value(entry[0]);
      this.#value(entry[1]);
    }
    this.#depth--;
  }

  #strTag(object: JsonObject): void {
    const format = this.#format(object);
    const value = object.get("value");
    if (typeof value === "string") {
      this.#rawString(value, format);
      return;
    }
    const bytes = this.#payload(object, false);
    if (bytes === null) this.#fail('Tag "str" needs a string "value", or "base64" or "hex"');
    this.#familyHeader("str", format, bytes.length);
    this.#bytes(bytes);
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

  #fixedInt(object: JsonObject, format: string): void {
    const value = this.#bigintMember(object);
    const bits = BigInt(Number(format.slice(format.startsWith("u") ? 4 : 3)));
    const signed = !format.startsWith("u");
    const min = signed ? -(1n << (bits - 1n)) : 0n;
    const max = signed ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n;
    if (value < min || value > max) this.#fail(`${value} does not fit in ${format}`);
    this.#room(9);
    const t = this.#buffer;
    const view = this.#view;
    const p = this.#pos;
    const n = Number(value);
    switch (format) {
      case "uint8":
        t[p] = 0xcc;
        t[p + 1] = n;
        break;
      case "uint16":
        t[p] = 0xcd;
        view.setUint16(p + 1, n);
        break;
      case "uint32":
        t[p] = 0xce;
        view.setUint32(p + 1, n);
        break;
      case "uint64":
        t[p] = 0xcf;
        view.setBigUint64(p + 1, value);
        break;
      case "int8":
        t[p] = 0xd0;
        view.setInt8(p + 1, n);
        break;
      case "int16":
        t[p] = 0xd1;
        view.setInt16(p + 1, n);
        break;
      case "int32":
        t[p] = 0xd2;
        view.setInt32(p + 1, n);
        break;
      default:
        t[p] = 0xd3;
        view.setBigInt64(p + 1, value);
    }
    this.#pos = p + 1 + Number(bits) / 8;
  }

  #float(object: JsonObject, format: "float32" | "float64"): void {
    const size = format === "float32" ? 4 : 8;
    this.#room(9);
    const bits = object.get("bits");
    if (bits !== undefined) {
      const bytes = typeof bits === "string" ? fromHex(bits) : null;
      if (bytes === null || bytes.length !== size) {
        this.#fail(`"bits" of ${format} must be ${size * 2} hex digits`);
      }
      this.#byte(format === "float32" ? 0xca : 0xcb);
      this.#bytes(bytes);
      return;
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
    const p = this.#pos;
    if (format === "float32") {
      this.#buffer[p] = 0xca;
      this.#view.setFloat32(p + 1, number);
    } else {
      this.#buffer[p] = 0xcb;
      this.#view.setFloat64(p + 1, number);
    }
    this.#pos = p + 1 + size;
  }

  /** An ext: the tag's `"header"` (checked against the length) or the smallest. */
  #ext(type: number, payload: Uint8Array, format: string | undefined): void {
    this.#familyHeader("ext", format, payload.length);
    this.#byte(type & 0xff);
    this.#bytes(payload);
  }

  #date(object: JsonObject): void {
    const value = this.#member(object, "value");
    let date = new Date(NaN);
    if (value !== "Invalid Date" && value !== null) {
      date = typeof value === "string" ? new Date(value) : date;
      if (isNaN(date.getTime())) {
        this.#fail('"value" of a date must be an ISO 8601 date ("2024-01-31T12:00:00.000Z")');
      }
    }
    this.#bytes(libraryPackr(true, 0).pack(date));
  }

  #timestamp(object: JsonObject): void {
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
    this.#ext(0xff, payload, format);
  }

  #typed(object: JsonObject): void {
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
    this.#ext(0x74, payload, format);
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
