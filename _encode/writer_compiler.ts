// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The default build's writer compiler: a shape written often gets a writer made with
// `new Function` (`_encode/encoder.ts`, "generated writers", says what it writes and when). Only
// the default entry modules import this module; `no_eval.ts` never does. Nothing is compiled at
// import. Code is generated and cached by signature (kind, names and value types) through
// `_core/code_cache.ts`, which the builder compiler shares: the first refusal (a
// Content-Security-Policy without 'unsafe-eval') turns both off, and the encoder stops asking for
// good.

import {
  cachedFunction,
  cacheFunction,
  generatedCount,
  generateFunction,
} from "../_core/code_cache.ts";
import { wordAt } from "../_core/bytes.ts";
import { installWriterCompiler, type ObjectWriter, type WriterHelpers } from "./encoder.ts";

/** The calls that write a key's encoded bytes: 16 bytes at a time, the rest in one call. */
function keyCall(bytes: Uint8Array): string {
  const length = bytes.length;
  if (length > 16) return keyCall(bytes.subarray(0, 16)) + keyCall(bytes.subarray(16));
  if (length < 4) {
    let packed = 0;
    for (let i = 0; i < length; i++) packed |= bytes[i] << (8 * i);
    return `key3(${packed},${length});`;
  }
  const last = wordAt(bytes, length - 4);
  if (length <= 8) return `key8(${wordAt(bytes, 0)},${last},${length});`;
  const words = [0, 4, 8].map((offset) => offset + 4 <= length ? wordAt(bytes, offset) : 0);
  return `key16(${words},${last},${length});`;
}

function compileWriter(
  names: readonly string[],
  keyBytes: readonly Uint8Array[] | null,
  sample: Record<string, unknown>,
  helpers: WriterHelpers,
): ObjectWriter {
  const types = names.map((name) => typeof sample[name]);
  const signature = `${keyBytes === null ? "r" : "m"}${JSON.stringify(names)}${types}`;
  const known = cachedFunction<ObjectWriter>(signature);
  if (known !== undefined) return known;
  // a plain object's keys must be these, in this order, and nothing else
  let body = keyBytes === null ? "var x;" : "var i=0,x;for(var k in o)if(k!==K[i++])return false;" +
    `if(i!==${names.length})return false;var at=head(${names.length});`;
  for (let i = 0; i < names.length; i++) {
    // a constant key loads as `o.name` does; a getter that deleted it meanwhile sends the object
    // back to the generic path, which writes a plain object without it and fails a record
    const name = JSON.stringify(names[i]);
    const type = types[i] === "string" || types[i] === "number" ? types[i] : "";
    const field = sample[names[i]];
    // a plain object in a plain object: its own shape's writer, remembered per field
    const nested = keyBytes !== null && field !== null && typeof field === "object" &&
      Object.getPrototypeOf(field) === Object.prototype;
    // a name Object.prototype has (`toString`) is still `in` the object once deleted
    const missing = names[i] in Object.prototype
      ? `!H(o,${name})`
      : `x===undefined&&!(${name} in o)`;
    body += (keyBytes === null ? "" : keyCall(keyBytes[i])) +
      `x=o[${name}];if(${missing})` +
      (keyBytes === null ? "return false;" : "return undo(at);") +
      (nested
        ? `typeof x==="object"&&x!==null?obj(x,P,${i}):val(x);`
        : type === ""
        ? "val(x);"
        : `typeof x==="${type}"?${type.slice(0, 3)}(x):val(x);`);
  }
  if (keyBytes !== null) body += "return leave();";
  // the helpers are the function's parameters, by name, after K (the keys), P (the writers
  // nested plain objects had, by field) and H (`Object.hasOwn`); the function's own name tells
  // writers apart (engines share the code of identical source text)
  const helperNames = Object.keys(helpers) as (keyof WriterHelpers)[];
  const writer = generateFunction(
    ["K", "P", "H", ...helperNames],
    `return function write${generatedCount()}(o){${body}}`,
  )(
    names.slice() as never,
    [] as never,
    Object.hasOwn as never,
    ...helperNames.map((name) => helpers[name] as never),
  ) as ObjectWriter;
  cacheFunction(signature, writer);
  return writer;
}

installWriterCompiler(compileWriter);
