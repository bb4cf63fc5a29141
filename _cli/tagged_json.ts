// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Items read by `_cli/wire.ts` as tagged JSON: the exact form of `decode --exact` and
// `fetch --exact` (the default form is `_cli/plain_json.ts`, with the same tag names where the
// meaning is the same). Plain JSON is used where it says everything: what `Packr` writes for that
// JSON value is exactly the bytes that were read (in records mode or not: an object is a record or
// a map16, an integer 64..127 is `40` or `cc 40`). Everything else becomes a tag object,
// `{"$msgpack": NAME, ...}`, that the writer (`_cli/writer.ts`) turns back into the same bytes. The
// tags are listed in the README ("Command line"); the rules of thumb:
//
// - values JSON has no type for: bigint, bin, date / timestamp, undefined, c1, Map (maps that
//   are not map16 objects, or have non-string keys), Set / Error / RegExp / typed arrays
//   (msgpackr's extensions), structured-clone ids and references, other extensions;
// - numbers whose wire format is not the one `Packr` picks: float64 1.0, float32 values,
//   NaN / ±Infinity / -0, uint16 5, uint64 5…;
// - headers that are not the smallest (`"header": "str16"`), strings that are not UTF-8;
// - an object with a `$msgpack` key of its own is wrapped in the `object` tag.

import { encodeBigIntPayload } from "../_format/bigint_ext.ts";
import { JsonObject, type JsonValue } from "./json.ts";
import { toBase64, toHex } from "./text.ts";
import { describeOffset, keyName, type TimestampValue, type WireNode } from "./wire.ts";
import { extFormat, minimalFormat, numberBytes, TAG, timestampFormat } from "./writer.ts";
import { DecodeError } from "../_core/errors.ts";
import { type Float32Option, roundFloat32 } from "../_format/float32.ts";
import { writeTimestamp } from "../_format/timestamp.ts";

/** Settings of the conversion (the decoding options of the tool). */
export interface TaggedSettings {
  /** `useRecords: false` on the decoder: every map is a plain object, keys made strings. */
  mapsAsObjects: boolean;
  /** `useFloat32` (3 and 4 round float32 values to their decimal digits, as the decoder does). */
  float32: Float32Option;
}

/** A tag object: `{"$msgpack": name, ...members}`. */
export function tag(name: string, ...members: [string, JsonValue][]): JsonObject {
  const object = new JsonObject([TAG], [name]);
  for (const [key, value] of members) object.add(key, value);
  return object;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The shortest decimal that is the same float32 (`0.1` for 0.10000000149011612). */
export function shortestFloat32(value: number): number {
  for (let precision = 1; precision < 10; precision++) {
    const candidate = Number(value.toPrecision(precision));
    if (Math.fround(candidate) === value) return candidate;
  }
  return value;
}

/** How a non-finite or negative-zero number appears in a float tag. */
export function specialNumber(value: number): string | null {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "Infinity";
  if (value === -Infinity) return "-Infinity";
  if (Object.is(value, -0)) return "-0";
  return null;
}

/** Converts the items of a walk to tagged JSON. */
export class TaggedConverter {
  readonly #bytes: Uint8Array;
  readonly #settings: TaggedSettings;

  constructor(bytes: Uint8Array, settings: TaggedSettings) {
    this.#bytes = bytes;
    this.#settings = settings;
  }

  /** The tagged JSON of one item. */
  convert(node: WireNode): JsonValue {
    switch (node.kind) {
      case "nil":
        return null;
      case "bool":
        return node.value as boolean;
      case "int":
        return this.#int(node);
      case "float":
        return this.#float(node);
      case "str":
        return this.#str(node);
      case "bin": {
        const bin = tag("bin", ["base64", toBase64(this.#payload(node))]);
        return this.#withHeader(bin, node, "bin");
      }
      case "array": {
        const items = node.children!.map((child) => this.convert(child));
        if (node.format === minimalFormat("array", node.count)) return items;
        return tag("array", ["header", node.format], ["value", items]);
      }
      case "map":
        return this.#map(node);
      case "record":
        return this.#plainObject(node.keys!, node.children!.map((child) => this.convert(child)));
      case "c1":
        return tag("c1");
      case "bundle":
        return this.convert(node.children![0]);
      case "bundled":
        return node.value as string;
      case "undefined": {
        const payload = this.#payload(node);
        if (node.format === "fixext1" && payload[0] === 0) return tag("undefined");
        return this.#ext(node);
      }
      case "timestamp":
        return this.#timestamp(node);
      case "bigint":
        return this.#bigint(node);
      case "typed": {
        const typed = tag(
          "typed",
          ["type", node.value as string],
          ["base64", toBase64(this.#payload(node).subarray(1))],
        );
        if (node.format !== extFormat(node.count)) typed.add("header", node.format);
        return typed;
      }
      case "set":
      case "error":
      case "regexp": {
        const payload = this.#payload(node);
        const tagged = tag(node.kind);
        if (node.format !== minimalFormat("ext", node.count)) tagged.add("header", node.format);
        if (node.count !== 1 || payload[0] !== 0) tagged.add("base64", toBase64(payload));
        return tagged.add("value", this.convert(node.children![0]));
      }
      case "id":
      case "ref": {
        const tagged = tag(node.kind, ["id", node.value as number]);
        if (node.format !== "fixext4") tagged.add("header", node.format);
        if (node.kind === "id") tagged.add("value", this.convert(node.children![0]));
        return tagged;
      }
      default:
        return this.#ext(node);
    }
  }

  #raw(node: WireNode): Uint8Array {
    return this.#bytes.subarray(node.offset, node.headerEnd);
  }

  #payload(node: WireNode): Uint8Array {
    return this.#bytes.subarray(node.payloadStart, node.payloadStart + node.count);
  }

  #withHeader(tagged: JsonObject, node: WireNode, family: "str" | "bin" | "ext"): JsonObject {
    if (node.format !== minimalFormat(family, node.count)) tagged.add("header", node.format);
    return tagged;
  }

  #ext(node: WireNode): JsonObject {
    const type = node.extType > 127 ? node.extType - 256 : node.extType;
    const ext = tag("ext", ["type", type], ["base64", toBase64(this.#payload(node))]);
    return this.#withHeader(ext, node, "ext");
  }

  #int(node: WireNode): JsonValue {
    const value = node.value as number | bigint;
    if (typeof value === "bigint") {
      // Packr writes every bigint below 2^63 as int64, and above as uint64
      if (node.format === "int64" || value >= 0x8000000000000000n) {
        return tag("bigint", ["value", String(value)]);
      }
      return tag("uint64", ["value", String(value)]);
    }
    const raw = this.#raw(node);
    // canonical in one of the two modes: 0x40..0x7f is a fixint without records, `cc` with
    if (
      sameBytes(numberBytes(value, true, 0), raw) || sameBytes(numberBytes(value, false, 0), raw)
    ) {
      return value;
    }
    return tag(node.format, ["value", value]);
  }

  #float(node: WireNode): JsonValue {
    const value = node.value as number;
    const raw = this.#raw(node);
    const float32 = this.#settings.float32;
    const candidates: number[] = [];
    if (node.format === "float64") {
      candidates.push(value);
    } else if (float32 > 2) {
      // the decoder's rounding to decimal digits (docs/wire-format.md, "Float32 modes")
      candidates.push(roundFloat32(value), shortestFloat32(value));
    } else if (float32 === 1) {
      candidates.push(shortestFloat32(value));
    }
    for (const candidate of candidates) {
      if (
        Number.isFinite(candidate) && !Object.is(candidate, -0) &&
        sameBytes(numberBytes(candidate, true, float32), raw)
      ) {
        return candidate;
      }
    }
    const shown = node.format === "float32" ? shortestFloat32(value) : value;
    const special = specialNumber(shown);
    const tagged = tag(node.format, ["value", special ?? shown]);
    // NaN payloads other than the one the writer produces need the exact bits
    const written = special === null ? shown : Number(special === "-0" ? -0 : special);
    const check = new DataView(new ArrayBuffer(8));
    if (node.format === "float32") check.setFloat32(0, written);
    else check.setFloat64(0, written);
    if (!sameBytes(new Uint8Array(check.buffer, 0, raw.length - 1), raw.subarray(1))) {
      return tag(node.format, ["bits", toHex(raw.subarray(1))]);
    }
    return tagged;
  }

  #str(node: WireNode): JsonValue {
    const text = node.value as string;
    // not UTF-8, or msgpackr's WTF-8 for a lone surrogate: the library writes U+FFFD for the
    // text, so only the bytes themselves give them back
    if (node.encoding !== "utf8") {
      const payload = this.#payload(node);
      return this.#withHeader(tag("str", ["base64", toBase64(payload)]), node, "str");
    }
    if (node.format === minimalFormat("str", node.count)) return text;
    return tag("str", ["header", node.format], ["value", text]);
  }

  #map(node: WireNode): JsonValue {
    const children = node.children!;
    if (this.#settings.mapsAsObjects) {
      const keys: string[] = [];
      const values: JsonValue[] = [];
      for (let i = 0; i < children.length; i += 2) {
        keys.push(propertyName(children[i]));
        values.push(this.convert(children[i + 1]));
      }
      return this.#plainObject(keys, values);
    }
    const converted = children.map((child) => this.convert(child));
    const stringKeys = converted.every((value, i) => i & 1 || typeof value === "string");
    const minimal = minimalFormat("map", node.count);
    if (stringKeys) {
      const keys = converted.filter((_, i) => !(i & 1)) as string[];
      const values = converted.filter((_, i) => i & 1);
      // map16 is how Packr writes a plain object without records: keep it plain
      if (node.format === "map16") return this.#plainObject(keys, values);
      const map = tag("map");
      if (node.format !== minimal) map.add("header", node.format);
      return map.add("value", new JsonObject(keys, values));
    }
    const entries: JsonValue[] = [];
    for (let i = 0; i < converted.length; i += 2) entries.push([converted[i], converted[i + 1]]);
    const map = tag("map");
    if (node.format !== minimal) map.add("header", node.format);
    return map.add("entries", entries);
  }

  #plainObject(keys: string[], values: JsonValue[]): JsonObject {
    const object = new JsonObject(keys, values);
    return keys.includes(TAG) ? tag("object", ["value", object]) : object;
  }

  #timestamp(node: WireNode): JsonValue {
    const value = node.value as TimestampValue | null;
    const raw = this.#raw(node);
    if (value === null) {
      if (node.format === "fixext1" && raw[2] === 0xff) {
        return tag("date", ["value", "Invalid Date"]);
      }
      return this.#ext(node);
    }
    const { seconds, nanoseconds } = value;
    if (nanoseconds % 1000000 === 0 && seconds > -8640000000000n && seconds < 8640000000000n) {
      const date = new Date(Number(seconds) * 1000 + nanoseconds / 1000000);
      if (!isNaN(date.getTime())) {
        const check = new Uint8Array(15);
        const end = writeTimestamp(check, new DataView(check.buffer), 0, date, false);
        if (sameBytes(check.subarray(0, end), raw)) {
          return tag("date", ["value", date.toISOString()]);
        }
      }
    }
    // the writer's forms: fixext4 = 32-bit, fixext8 = 64-bit, any other header = 96-bit
    const form = node.count === 4 ? "fixext4" : node.count === 8 ? "fixext8" : null;
    if (form !== null ? node.format !== form : node.format.startsWith("fixext")) {
      return this.#ext(node);
    }
    const tagged = tag("timestamp", ["seconds", String(seconds)], ["nanoseconds", nanoseconds]);
    if (node.format !== timestampFormat(seconds, nanoseconds)) tagged.add("header", node.format);
    return tagged;
  }

  #bigint(node: WireNode): JsonValue {
    const value = node.value as bigint;
    if (value < -0x8000000000000000n || value >= 0x10000000000000000n) {
      const payload = this.#payload(node);
      if (
        sameBytes(encodeBigIntPayload(value), payload) &&
        node.format === minimalFormat("ext", node.count)
      ) {
        return tag("bigint", ["value", String(value)]);
      }
    }
    return this.#ext(node);
  }
}

/**
 * A map key as a property name, as the decoder makes one with `mapsAsObjects`
 * (docs/wire-format.md, "Maps and keys").
 */
export function propertyName(key: WireNode): string {
  const name = keyName(key);
  if (name !== null) return name;
  throw new DecodeError(
    `Invalid property type for record: ${key.kind} at offset ${
      describeOffset(key.offset)
    } (decode without --no-records to see maps with such keys)`,
    key.offset,
  );
}
