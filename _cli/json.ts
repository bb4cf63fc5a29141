// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The JSON model of the command line tool: objects keep their members in text order, duplicates
// included (a `JSON.parse` object would move integer-like keys first and drop duplicates, and
// then re-encoding could not give the same bytes). The parser reads a sequence of JSON texts
// separated by white space (NDJSON, or pretty documents one after another); the printer writes
// one text, pretty (two-space indent) or compact.

import { DEFAULT_MAX_DEPTH } from "../_core/option_table.ts";

/**
 * A JSON value: objects are {@linkcode JsonObject}s; numbers are JavaScript numbers (packed as
 * `Packr` packs them) or {@linkcode JsonNumber}s (the exact text of the number).
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject | JsonNumber;

/**
 * A number kept as its JSON text, so that no digit is lost: integers of any size, and floats
 * printed in the form the tool chose (`1.0` for an integral float). The parser makes these when
 * asked for exact numbers; the writer packs an integer text as the smallest MessagePack integer
 * and any other as float64.
 */
export class JsonNumber {
  /** The number's JSON text ("-12", "1.5", "1e+300"). */
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  /** Whether the text is an integer (no fraction, no exponent). */
  get isInteger(): boolean {
    return !/[.eE]/.test(this.text);
  }
}

/** A JSON object with its members in order; keys may repeat. */
export class JsonObject {
  /** Member names, in order. */
  readonly keys: string[];
  /** Member values, parallel to `keys`. */
  readonly values: JsonValue[];
  /** Index in the source text of the opening brace, or -1 for a built object. */
  readonly at: number;

  constructor(keys: string[] = [], values: JsonValue[] = [], at = -1) {
    this.keys = keys;
    this.values = values;
    this.at = at;
  }

  /** Adds a member at the end. */
  add(key: string, value: JsonValue): this {
    this.keys.push(key);
    this.values.push(value);
    return this;
  }

  /** The value of the first member named `key`. */
  get(key: string): JsonValue | undefined {
    const index = this.keys.indexOf(key);
    return index < 0 ? undefined : this.values[index];
  }
}

/**
 * A float as JSON number text: the shortest text that reads back as the same double, with `.0`
 * when that text would look like an integer. `null` for NaN and the infinities.
 */
export function floatText(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  if (Object.is(value, -0)) return "-0.0";
  const text = String(value);
  return /^-?\d+$/.test(text) ? text + ".0" : text;
}

/** A JSON text that cannot be parsed, or tagged JSON that cannot be encoded. */
export class JsonInputError extends SyntaxError {
  /** Index in the text where the problem is (-1 when unknown). */
  readonly index: number;

  constructor(message: string, index: number) {
    super(message);
    this.name = "JsonInputError";
    this.index = index;
  }
}

/** Line and column (both from 1) of `index` in `text`. */
export function lineAndColumn(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: index - lineStart + 1 };
}

/**
 * JSON levels the parser accepts per level of `maxDepth`: tagged JSON nests deeper than the
 * bytes it stands for (a map with `entries` is three levels: the tag, the entries, a pair), and
 * the writer then checks `maxDepth` itself, with the place in the text.
 */
const JSON_LEVELS_PER_DEPTH = 4;

/**
 * Parses a sequence of JSON texts separated by white space (one text, NDJSON, or several pretty
 * texts). A leading byte order mark is skipped. Numbers are JavaScript numbers, as `JSON.parse`
 * makes them, or with `exactNumbers` {@linkcode JsonNumber}s holding their text. Nesting deeper
 * than 4 × `maxDepth` levels is a {@linkcode JsonInputError}, so a deep text never reaches the
 * engine's stack limit.
 */
export function parseJsonSequence(
  text: string,
  exactNumbers = false,
  maxDepth: number = DEFAULT_MAX_DEPTH,
): JsonValue[] {
  return new Parser(text, exactNumbers, maxDepth).sequence();
}

class Parser {
  readonly #text: string;
  readonly #exactNumbers: boolean;
  readonly #maxDepth: number;
  #pos = 0;
  #depth = 0;

  constructor(text: string, exactNumbers: boolean, maxDepth: number) {
    this.#text = text;
    this.#exactNumbers = exactNumbers;
    this.#maxDepth = maxDepth;
    if (text.charCodeAt(0) === 0xfeff) this.#pos = 1;
  }

  sequence(): JsonValue[] {
    const values: JsonValue[] = [];
    this.#space();
    while (this.#pos < this.#text.length) {
      values.push(this.#value());
      const end = this.#pos;
      this.#space();
      if (this.#pos === end && this.#pos < this.#text.length) {
        this.#fail("Expected white space or a new line between JSON texts");
      }
    }
    return values;
  }

  #fail(message: string, index: number = this.#pos): never {
    const { line, column } = lineAndColumn(this.#text, index);
    throw new JsonInputError(`${message} at line ${line}, column ${column}`, index);
  }

  #unexpected(): never {
    if (this.#pos >= this.#text.length) this.#fail("Unexpected end of JSON input");
    const char = this.#text[this.#pos];
    this.#fail(`Unexpected character ${JSON.stringify(char)}`);
  }

  #space(): void {
    const text = this.#text;
    let pos = this.#pos;
    for (; pos < text.length; pos++) {
      const code = text.charCodeAt(pos);
      if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) break;
    }
    this.#pos = pos;
  }

  #value(): JsonValue {
    const text = this.#text;
    const code = text.charCodeAt(this.#pos);
    switch (code) {
      case 0x7b: // {
        return this.#object();
      case 0x5b: // [
        return this.#array();
      case 0x22: // "
        return this.#string();
      case 0x74: // t
        return this.#literal("true", true);
      case 0x66: // f
        return this.#literal("false", false);
      case 0x6e: // n
        return this.#literal("null", null);
    }
    if (code === 0x2d || (code >= 0x30 && code <= 0x39)) return this.#number();
    this.#unexpected();
  }

  #literal<T extends JsonValue>(word: string, value: T): T {
    if (!this.#text.startsWith(word, this.#pos)) this.#unexpected();
    this.#pos += word.length;
    return value;
  }

  #enter(): void {
    if (++this.#depth > JSON_LEVELS_PER_DEPTH * this.#maxDepth) {
      this.#fail(
        `Nesting deeper than ${
          JSON_LEVELS_PER_DEPTH * this.#maxDepth
        } JSON levels (${JSON_LEVELS_PER_DEPTH} per level of maxDepth ${this.#maxDepth})`,
      );
    }
  }

  #object(): JsonObject {
    const object = new JsonObject([], [], this.#pos);
    this.#enter();
    this.#pos++;
    this.#space();
    if (this.#text.charCodeAt(this.#pos) === 0x7d) {
      this.#pos++;
      this.#depth--;
      return object;
    }
    while (true) {
      if (this.#text.charCodeAt(this.#pos) !== 0x22) this.#unexpected();
      const key = this.#string();
      this.#space();
      if (this.#text.charCodeAt(this.#pos) !== 0x3a) this.#unexpected();
      this.#pos++;
      this.#space();
      object.add(key, this.#value());
      this.#space();
      const next = this.#text.charCodeAt(this.#pos);
      this.#pos++;
      if (next === 0x7d) break;
      if (next !== 0x2c) {
        this.#pos--;
        this.#unexpected();
      }
      this.#space();
    }
    this.#depth--;
    return object;
  }

  #array(): JsonValue[] {
    const array: JsonValue[] = [];
    this.#enter();
    this.#pos++;
    this.#space();
    if (this.#text.charCodeAt(this.#pos) === 0x5d) {
      this.#pos++;
      this.#depth--;
      return array;
    }
    while (true) {
      array.push(this.#value());
      this.#space();
      const next = this.#text.charCodeAt(this.#pos);
      this.#pos++;
      if (next === 0x5d) break;
      if (next !== 0x2c) {
        this.#pos--;
        this.#unexpected();
      }
      this.#space();
    }
    this.#depth--;
    return array;
  }

  #string(): string {
    const text = this.#text;
    const start = ++this.#pos;
    let pos = start;
    // fast path: no escapes
    while (pos < text.length) {
      const code = text.charCodeAt(pos);
      if (code === 0x22) {
        this.#pos = pos + 1;
        return text.slice(start, pos);
      }
      if (code === 0x5c || code < 0x20) break;
      pos++;
    }
    let out = text.slice(start, pos);
    while (true) {
      if (pos >= text.length) this.#fail("Unterminated string", start - 1);
      const code = text.charCodeAt(pos);
      if (code === 0x22) break;
      if (code < 0x20) this.#fail("Control character in string", pos);
      if (code !== 0x5c) {
        const runStart = pos;
        while (pos < text.length) {
          const c = text.charCodeAt(pos);
          if (c === 0x22 || c === 0x5c || c < 0x20) break;
          pos++;
        }
        out += text.slice(runStart, pos);
        continue;
      }
      const escape = text[pos + 1];
      switch (escape) {
        case '"':
        case "\\":
        case "/":
          out += escape;
          break;
        case "b":
          out += "\b";
          break;
        case "f":
          out += "\f";
          break;
        case "n":
          out += "\n";
          break;
        case "r":
          out += "\r";
          break;
        case "t":
          out += "\t";
          break;
        case "u": {
          const hex = text.slice(pos + 2, pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.#fail("Invalid \\u escape", pos);
          out += String.fromCharCode(parseInt(hex, 16));
          pos += 4;
          break;
        }
        default:
          this.#fail("Invalid escape", pos);
      }
      pos += 2;
    }
    this.#pos = pos + 1;
    return out;
  }

  #number(): number | JsonNumber {
    const text = this.#text;
    const start = this.#pos;
    let pos = start;
    if (text.charCodeAt(pos) === 0x2d) pos++;
    const digits = (): void => {
      const from = pos;
      while (pos < text.length && text.charCodeAt(pos) >= 0x30 && text.charCodeAt(pos) <= 0x39) {
        pos++;
      }
      if (pos === from) {
        this.#pos = pos;
        this.#unexpected();
      }
    };
    if (text.charCodeAt(pos) === 0x30) pos++;
    else digits();
    if (text.charCodeAt(pos) === 0x2e) {
      pos++;
      digits();
    }
    const e = text.charCodeAt(pos);
    if (e === 0x65 || e === 0x45) {
      pos++;
      const sign = text.charCodeAt(pos);
      if (sign === 0x2b || sign === 0x2d) pos++;
      digits();
    }
    this.#pos = pos;
    const number = text.slice(start, pos);
    return this.#exactNumbers ? new JsonNumber(number) : Number(number);
  }
}

/** Whether a JSON value is an array or object (printed over several lines when pretty). */
function isContainer(value: JsonValue): value is JsonValue[] | JsonObject {
  return Array.isArray(value) || value instanceof JsonObject;
}

/**
 * Prints one JSON text. Pretty output indents by two spaces like `JSON.stringify(v, null, 2)`,
 * except that a tag object (`$msgpack` member) whose members are all scalars stays on one line,
 * and each `[key, value]` pair of a tag's `entries` starts on a line of its own.
 */
export function printJson(value: JsonValue, pretty: boolean, tagKey = "$msgpack"): string {
  const out: string[] = [];
  writeJson(value, pretty ? "\n" : null, tagKey, out);
  return out.join("");
}

function writeJson(value: JsonValue, newline: string | null, tagKey: string, out: string[]) {
  switch (typeof value) {
    case "string":
      out.push(JSON.stringify(value));
      return;
    case "number":
      if (!Number.isFinite(value)) throw new RangeError(`Cannot print ${value} as JSON`);
      out.push(String(value));
      return;
    case "boolean":
      out.push(value ? "true" : "false");
      return;
  }
  if (value === null) {
    out.push("null");
    return;
  }
  if (value instanceof JsonNumber) {
    out.push(value.text);
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push("[]");
      return;
    }
    const inner = newline === null ? null : newline + "  ";
    out.push("[");
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(",");
      if (inner !== null) out.push(inner);
      writeJson(value[i], inner, tagKey, out);
    }
    if (newline !== null) out.push(newline);
    out.push("]");
    return;
  }
  const { keys, values } = value;
  if (keys.length === 0) {
    out.push("{}");
    return;
  }
  const oneLine = newline !== null && keys.includes(tagKey) && !values.some(isContainer);
  const inner = newline === null || oneLine ? null : newline + "  ";
  out.push("{");
  for (let i = 0; i < keys.length; i++) {
    if (i > 0) out.push(oneLine ? ", " : ",");
    if (inner !== null) out.push(inner);
    out.push(JSON.stringify(keys[i]), newline === null ? ":" : ": ");
    const member = values[i];
    if (inner !== null && keys[i] === "entries" && isPairs(member) && keys.includes(tagKey)) {
      writePairs(member, inner, tagKey, out);
    } else {
      writeJson(member, inner, tagKey, out);
    }
  }
  if (inner !== null) out.push(newline!);
  out.push("}");
}

function isPairs(value: JsonValue): value is JsonValue[][] {
  return Array.isArray(value) && value.length > 0 &&
    value.every((pair) => Array.isArray(pair) && pair.length === 2);
}

/** The `entries` of a map tag, pretty: one `[key, value]` pair per line. */
function writePairs(pairs: JsonValue[][], newline: string, tagKey: string, out: string[]) {
  const inner = newline + "  ";
  out.push("[");
  for (let i = 0; i < pairs.length; i++) {
    out.push(i > 0 ? "," : "", inner, "[");
    writeJson(pairs[i][0], inner, tagKey, out);
    out.push(", ");
    writeJson(pairs[i][1], inner, tagKey, out);
    out.push("]");
  }
  out.push(newline, "]");
}
