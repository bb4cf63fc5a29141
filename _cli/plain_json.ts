// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Items read by `_cli/wire.ts` as the JSON the sending service would print (the default form of
// `decode` and `fetch`). It shows values, not how they were written: a map with string keys is an
// object whatever its header, an integer prints its exact digits whatever its width, a float
// prints the shortest text that reads back as the same double, with `.0` when it is integral
// (`1.0`, `-0.0`, `1e+21`), so integers and floats stay apart as in Python's `json`. A float32
// prints as the double it widens to (`0.10000000149011612`), as every decoder returns it, unless
// `--float32 decimal-round` / `decimal-fit` asks for the library decoder's rounding.
//
// What JSON cannot show is a tag object, in the vocabulary of the exact form
// (`_cli/tagged_json.ts`) where the meaning is the same: `bin` and `ext` (base64), `timestamp`
// (ISO text to the nanosecond, or `seconds` and `nanoseconds` outside the range of a `Date`),
// `map` with `entries` (keys that are not all strings, or a key that repeats), `float64` /
// `float32` with `"NaN"`, `"Infinity"`, `"-Infinity"`, `undefined`, `c1`, `str` with `base64`
// (bytes that are not UTF-8), msgpackr's `set`, `error`, `regexp`, `typed` (with the numbers in
// `value`), `id` / `ref` (structured clone) and `object` (an object with a `$msgpack` key of its
// own). Records, shared structures, bundled strings and the bigint extension are read for their
// values: objects, strings and integers.

import { floatText, JsonNumber, JsonObject, type JsonValue } from "./json.ts";
import { propertyName, specialNumber, tag } from "./tagged_json.ts";
import { toBase64 } from "./text.ts";
import { timestampIso } from "./time.ts";
import type { TimestampValue, WireNode } from "./wire.ts";
import { TAG } from "./writer.ts";
import { type Float32Option, roundFloat32 } from "../_format/float32.ts";
import { decodeTypedArray } from "../_format/typed_array_ext.ts";

/** Settings of the conversion (the decoding options of the tool). */
export interface PlainSettings {
  /** `--no-records`: every map is an object, keys made strings as the library decoder does. */
  mapsAsObjects: boolean;
  /** `useFloat32`: 3 and 4 show float32 values rounded to decimal digits, as the decoder does. */
  float32: Float32Option;
}

/** Converts the items of a walk to plain JSON. */
export class PlainConverter {
  readonly #bytes: Uint8Array;
  readonly #settings: PlainSettings;

  constructor(bytes: Uint8Array, settings: PlainSettings) {
    this.#bytes = bytes;
    this.#settings = settings;
  }

  /** The plain JSON of one item. */
  convert(node: WireNode): JsonValue {
    switch (node.kind) {
      case "nil":
        return null;
      case "bool":
        return node.value as boolean;
      case "int":
      case "bigint":
        return new JsonNumber(String(node.value as number | bigint));
      case "float":
        return this.#float(node);
      case "str":
        if (node.encoding === "invalid") return tag("str", ["base64", this.#base64(node)]);
        return node.value as string;
      case "bundled":
        return node.value as string;
      case "bin":
        return tag("bin", ["base64", this.#base64(node)]);
      case "array":
        return node.children!.map((child) => this.convert(child));
      case "map":
        return this.#map(node);
      case "record":
        return this.#object(node.keys!, node.children!.map((child) => this.convert(child)));
      case "c1":
        return tag("c1");
      case "bundle":
        return this.convert(node.children![0]);
      case "undefined":
        if (node.format === "fixext1" && this.#bytes[node.payloadStart] === 0) {
          return tag("undefined");
        }
        return this.#ext(node);
      case "timestamp":
        return this.#timestamp(node);
      case "typed":
        return this.#typed(node);
      case "set":
      case "error":
      case "regexp":
        return tag(node.kind, ["value", this.convert(node.children![0])]);
      case "id":
        return tag("id", ["id", node.value as number], ["value", this.convert(node.children![0])]);
      case "ref":
        return tag("ref", ["id", node.value as number]);
      default:
        return this.#ext(node);
    }
  }

  #payload(node: WireNode): Uint8Array {
    return this.#bytes.subarray(node.payloadStart, node.payloadStart + node.count);
  }

  #base64(node: WireNode): string {
    return toBase64(this.#payload(node));
  }

  #ext(node: WireNode): JsonObject {
    const type = node.extType > 127 ? node.extType - 256 : node.extType;
    return tag("ext", ["type", type], ["base64", this.#base64(node)]);
  }

  #float(node: WireNode): JsonValue {
    let value = node.value as number;
    if (node.format === "float32" && this.#settings.float32 > 2) value = roundFloat32(value);
    const text = floatText(value);
    if (text === null) return tag(node.format, ["value", specialNumber(value)!]);
    return new JsonNumber(text);
  }

  #map(node: WireNode): JsonValue {
    const children = node.children!;
    const keys: string[] = [];
    const values: JsonValue[] = [];
    let stringKeys = true;
    for (let i = 0; i < children.length; i += 2) {
      const key = children[i];
      const name = this.#settings.mapsAsObjects ? propertyName(key) : stringKey(key);
      if (name === null) {
        stringKeys = false;
        break;
      }
      keys.push(name);
      values.push(this.convert(children[i + 1]));
    }
    if (stringKeys) return this.#object(keys, values);
    return this.#entries(children.map((child) => this.convert(child)));
  }

  /** A map as `[key, value]` pairs, from its items converted one after another. */
  #entries(items: JsonValue[]): JsonObject {
    const entries: JsonValue[] = [];
    for (let i = 0; i < items.length; i += 2) entries.push([items[i], items[i + 1]]);
    return tag("map", ["entries", entries]);
  }

  /**
   * An object; a key that repeats makes it a `map` with entries (JSON parsers keep one of the
   * members), a `$msgpack` key of its own wraps it in the `object` tag.
   */
  #object(keys: string[], values: JsonValue[]): JsonValue {
    if (new Set(keys).size !== keys.length) {
      return this.#entries(keys.flatMap((key, i) => [key, values[i]]));
    }
    const object = new JsonObject(keys, values);
    return keys.includes(TAG) ? tag("object", ["value", object]) : object;
  }

  #timestamp(node: WireNode): JsonValue {
    const value = node.value as TimestampValue | null;
    if (value === null) {
      // msgpackr's invalid Date: a 1-byte timestamp payload
      if (node.format === "fixext1" && this.#bytes[node.payloadStart] === 0xff) {
        return tag("date", ["value", "Invalid Date"]);
      }
      return this.#ext(node);
    }
    const { seconds, nanoseconds } = value;
    const iso = timestampIso(seconds, nanoseconds);
    if (iso !== null) return tag("timestamp", ["value", iso]);
    return tag("timestamp", ["seconds", String(seconds)], ["nanoseconds", nanoseconds]);
  }

  #typed(node: WireNode): JsonValue {
    const array = decodeTypedArray(this.#bytes, node.payloadStart, node.count);
    const name = node.value as string;
    if (ArrayBuffer.isView(array) && !(array instanceof DataView)) {
      const numbers: JsonValue[] = [];
      const floats = name.startsWith("Float");
      for (const item of array as unknown as Iterable<number | bigint>) {
        const text = floats ? floatText(item as number) : String(item);
        if (text === null) break; // NaN or an infinity: the bytes say it
        numbers.push(new JsonNumber(text));
      }
      if (numbers.length === (array as unknown as ArrayLike<unknown>).length) {
        return tag("typed", ["type", name], ["value", numbers]);
      }
    }
    return tag("typed", ["type", name], ["base64", toBase64(this.#payload(node).subarray(1))]);
  }
}

/** A key that is a string, or `null`. */
function stringKey(key: WireNode): string | null {
  if (key.kind === "bundle") return stringKey(key.children![0]);
  if ((key.kind === "str" && key.encoding !== "invalid") || key.kind === "bundled") {
    return key.value as string;
  }
  return null;
}
