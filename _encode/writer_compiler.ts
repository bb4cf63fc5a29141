// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The default build's writer compiler: a shape written often gets a writer made with
// `new Function` (`_encode/encoder.ts`, "generated writers", says what it writes and when). Only
// the default entry modules import this module; `no_eval.ts` never does. Nothing is compiled at
// import, and the encoder stops asking for good if compiling throws, as it does under a
// Content-Security-Policy without 'unsafe-eval'.

import { installWriterCompiler, type ObjectWriter, WRITER_HELPERS } from "./encoder.ts";

const IDENTIFIER = /^[a-zA-Z_$][a-zA-Z\d_$]*$/;
/** The helpers, in the order the generated functions take them as parameters. */
const HELPER_NAMES = Object.keys(WRITER_HELPERS) as (keyof typeof WRITER_HELPERS)[];
const HELPERS = HELPER_NAMES.map((name) => WRITER_HELPERS[name]);

/**
 * Writers by signature (kind, names and value types): they depend on nothing else, so every
 * encoder shares them. At most `MAX_WRITERS` are kept; when the cache is full it starts again
 * (writers already handed out keep working), so input with endless new shapes cannot grow it.
 */
const writers = new Map<string, ObjectWriter>();
const MAX_WRITERS = 1024;
/** Writers made so far: each gets a name of its own. */
let made = 0;

/** `name` as a property access and as a string literal. */
function access(name: string): { load: string; literal: string } {
  const literal = JSON.stringify(name);
  return { load: IDENTIFIER.test(name) ? `o.${name}` : `o[${literal}]`, literal };
}

/** Little-endian 32-bit word of `bytes` at `offset`. */
function wordAt(bytes: Uint8Array, offset: number): number {
  return bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) |
    (bytes[offset + 3] << 24);
}

/** The call that writes a key's encoded bytes (`B[index]` holds them for long keys). */
function keyCall(bytes: Uint8Array, index: number): string {
  const length = bytes.length;
  if (length < 4) {
    let packed = 0;
    for (let i = 0; i < length; i++) packed |= bytes[i] << (8 * i);
    return `key3(${packed},${length});`;
  }
  if (length > 16) return `keyBytes(B[${index}]);`;
  const last = wordAt(bytes, length - 4);
  if (length === 4) return `key4(${last});`;
  const words = [];
  for (let offset = 0; offset < length - 4; offset += 4) words.push(wordAt(bytes, offset));
  return `key${words.length * 4 + 4}(${words.join(",")},${last},${length});`;
}

/** The statement that writes the value in `x`, with the writer of the type `sample` has. */
function valueCall(sample: unknown): string {
  switch (typeof sample) {
    case "string":
      return `typeof x==="string"?str(x):val(x);`;
    case "number":
      return `typeof x==="number"?num(x):val(x);`;
    default:
      return `val(x);`;
  }
}

function compileWriter(
  names: readonly string[],
  keyBytes: readonly Uint8Array[] | null,
  sample: Record<string, unknown>,
): ObjectWriter {
  const count = names.length;
  const types = names.map((name) => typeof sample[name]);
  const signature = `${keyBytes === null ? "r" : "m"}${JSON.stringify(names)}${types}`;
  const known = writers.get(signature);
  if (known !== undefined) return known;
  if (writers.size >= MAX_WRITERS) writers.clear();
  const lines: string[] = [];
  if (keyBytes !== null) {
    // a plain object: its keys must be these, in this order, and nothing else
    lines.push(
      "var i=0,x;for(var k in o){if(k!==K[i++])return false}",
      `if(i!==${count})return false;var at=head(${count});`,
    );
  } else {
    lines.push("var x;");
  }
  for (let i = 0; i < count; i++) {
    const { load, literal } = access(names[i]);
    if (keyBytes !== null) lines.push(keyCall(keyBytes[i], i));
    // a getter deleted it meanwhile: a plain object starts again on the generic path, a record
    // fails as the generic path fails
    const missing = keyBytes !== null ? "return undo(at)" : "changed()";
    lines.push(
      `x=${load};if(x===undefined&&!(${literal} in o))${missing};`,
      valueCall(sample[names[i]]),
    );
  }
  if (keyBytes !== null) lines.push("return leave();");
  // the function's name tells writers apart: engines share the code of identical source text
  const body = `return function write${made++}(o){${lines.join("")}}`;
  const writer = new Function("K", "B", ...HELPER_NAMES, body)(
    names.slice(),
    keyBytes,
    ...HELPERS,
  ) as ObjectWriter;
  writers.set(signature, writer);
  return writer;
}

installWriterCompiler(compileWriter);
