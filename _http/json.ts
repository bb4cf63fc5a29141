// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The JSON side of the negotiation: how values become JSON text, and how JSON bodies are read.

/**
 * A `JSON.stringify` replacer: called with each key and value (after the value's `toJSON`),
 * `this` being the object that holds the key.
 *
 * @example Usage
 * ```ts
 * import { type JsonReplacer, respond } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * const replacer: JsonReplacer = (_key, value) => value instanceof Set ? [...value] : value;
 * const response = respond(new Request("http://localhost/"), new Set([1, 2]), { replacer });
 * assert.equal(await response.text(), "[1,2]");
 * ```
 */
export type JsonReplacer = (this: unknown, key: string, value: unknown) => unknown;

/**
 * The JSON text of a value: `JSON.stringify(value, replacer)`, except that a bigint is written
 * as a string of its decimal digits (where `JSON.stringify` throws) and a value that has no JSON
 * form at the top level (`undefined`, a function) is written as `null`.
 *
 * @param value The value.
 * @param replacer Applied first, as `JSON.stringify` applies it.
 * @returns The JSON text.
 */
export function stringifyJson(value: unknown, replacer?: JsonReplacer): string {
  let text: string | undefined;
  if (replacer === undefined) {
    try {
      // the engine's fast path: no replacer
      text = JSON.stringify(value);
    } catch (error) {
      // a bigint (retried below) or a cycle (which throws again below)
      if (!(error instanceof TypeError)) throw error;
      text = JSON.stringify(value, bigintAsString);
    }
  } else {
    text = JSON.stringify(value, function (this: unknown, key: string, value: unknown) {
      const replaced = replacer.call(this, key, value);
      return typeof replaced === "bigint" ? replaced.toString() : replaced;
    });
  }
  return text ?? "null";
}

function bigintAsString(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

/**
 * A {@linkcode JsonReplacer} that writes what MessagePack carries and JSON does not, by fixed
 * rules, for the JSON side of {@linkcode respond} and {@linkcode fetchValue} (`replacer`
 * option):
 *
 * - a bigint: a string of its decimal digits;
 * - a `Uint8Array` (a Node `Buffer` too), an `ArrayBuffer` or a `DataView`: a base64 string
 *   (RFC 4648, with padding) of its bytes;
 * - any other typed array: an array of its elements (a string per element of a
 *   `BigInt64Array` or `BigUint64Array`);
 * - a `Map`: an object, each key written as `String(key)` (a key that is not a string, number,
 *   bigint or boolean throws a `TypeError`);
 * - a `Set`: an array of its values.
 *
 * Everything else is written as `JSON.stringify` writes it (a `Date` as its ISO string through
 * `toJSON`). A replacer makes `JSON.stringify` leave the engine's fast path: use it where
 * such values occur.
 *
 * @param this The object holding `key` (`{ "": value }` for the top-level value).
 * @param key The property name (`""` for the top-level value).
 * @param value The value, after its `toJSON`.
 * @returns The value to write.
 *
 * @example Usage
 * ```ts
 * import { jsonReplacer, respond } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * const value = {
 *   id: 2n ** 64n,
 *   key: new Uint8Array([1, 2, 3]),
 *   tags: new Set(["a"]),
 *   counts: new Map([["x", 1]]),
 * };
 * const response = respond(new Request("http://localhost/"), value, { replacer: jsonReplacer });
 * assert.deepEqual(await response.json(), {
 *   id: "18446744073709551616",
 *   key: "AQID",
 *   tags: ["a"],
 *   counts: { x: 1 },
 * });
 * ```
 */
export function jsonReplacer(this: unknown, key: string, value: unknown): unknown {
  // the holder's own value: before `toJSON`, which a Node Buffer has
  const raw = (this as Record<string, unknown>)[key];
  if (typeof raw === "bigint") return raw.toString();
  if (typeof raw !== "object" || raw === null) return value;
  if (raw instanceof Uint8Array) return base64(raw);
  if (raw instanceof ArrayBuffer) return base64(new Uint8Array(raw));
  if (ArrayBuffer.isView(raw)) {
    if (raw instanceof DataView) {
      return base64(new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength));
    }
    return Array.from(
      raw as unknown as ArrayLike<number | bigint>,
      (element) => typeof element === "bigint" ? element.toString() : element,
    );
  }
  if (raw instanceof Map) {
    const object: Record<string, unknown> = {};
    for (const [mapKey, mapValue] of raw) {
      const type = typeof mapKey;
      if (type !== "string" && type !== "number" && type !== "bigint" && type !== "boolean") {
        throw new TypeError(`Cannot write a Map key of type ${type} as a JSON property name`);
      }
      // defineProperty: a "__proto__" key is an own property, as JSON.parse makes it
      Object.defineProperty(object, String(mapKey), {
        value: mapValue,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return object;
  }
  if (raw instanceof Set) return [...raw];
  return value;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Standard base64 with padding (RFC 4648, section 4). */
function base64(bytes: Uint8Array): string {
  let text = "";
  const whole = bytes.length - (bytes.length % 3);
  for (let i = 0; i < whole; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    text += BASE64[n >> 18] + BASE64[(n >> 12) & 63] + BASE64[(n >> 6) & 63] + BASE64[n & 63];
  }
  if (bytes.length - whole === 1) {
    const n = bytes[whole] << 16;
    text += BASE64[n >> 18] + BASE64[(n >> 12) & 63] + "==";
  } else if (bytes.length - whole === 2) {
    const n = (bytes[whole] << 16) | (bytes[whole + 1] << 8);
    text += BASE64[n >> 18] + BASE64[(n >> 12) & 63] + BASE64[(n >> 6) & 63] + "=";
  }
  return text;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Decodes UTF-8 bytes (a byte order mark is dropped; ill-formed UTF-8 throws a `TypeError`).
 *
 * @param bytes The bytes.
 * @returns The text.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

/**
 * The values of NDJSON text, parsed line by line: one JSON text per line (`\n` or `\r\n`);
 * blank lines are skipped. A malformed line throws its `SyntaxError` (its message prefixed with
 * the line number) after the values of the lines before it.
 *
 * @param text The text.
 * @param firstLine The line number of the text's first line, for error messages.
 * @returns A generator of the values.
 */
export function* jsonLines(text: string, firstLine = 1): Generator<unknown, void, undefined> {
  let start = 0;
  let line = firstLine;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const content = text.slice(start, end);
    if (content.trim() !== "") {
      let value: unknown;
      try {
        value = JSON.parse(content);
      } catch (error) {
        if (error instanceof SyntaxError) error.message = `Line ${line}: ${error.message}`;
        throw error;
      }
      yield value;
    }
    start = end + 1;
    line++;
  }
}
