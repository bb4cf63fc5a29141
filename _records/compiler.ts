// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The default build's record reader compiler: a shape read often gets a reader that returns an
// object literal, `{ id: r(), name: r() }`, which engines build far faster than a loop of
// assignments. Only the default entry modules import this module; `no_eval.ts` never does.
// Compiling is tried lazily (never at import) through `_core/eval_allowed.ts`, which the writer
// compiler shares: the first refusal (a Content-Security-Policy without 'unsafe-eval') turns both
// off, and `_records/reader.ts` stops asking for good.

import { generateFunction } from "../_core/eval_allowed.ts";
import {
  installRecordReaderCompiler,
  type RecordBodyReader,
  takeCompileAllowance,
} from "./reader.ts";

const IDENTIFIER = /^[a-zA-Z_$][a-zA-Z\d_$]*$/;

// Compiled readers depend only on their value reader (the decoder's `read` for records, the map
// value stack's for plain maps) and their shape, so every decoder shares them, through a cache
// that input cannot exhaust. It holds two generations: a lookup tries the current one, then the
// previous one, whose hit moves into the current one; when the current one is full (in shapes,
// or in characters of shape text) it becomes the previous one and the previous one is dropped.
// So the cache holds at most twice a generation whatever the input, a shape in use stays (every
// use renews it), and shapes that input made once and never again fall out: a flood of new shapes
// (hostile, or generated keys) cannot keep other shapes from compiling later. What a flood costs
// in compiling is bounded per decode (`MAX_COMPILES_PER_DECODE` in `_records/reader.ts`).
// Readers that fall out stay valid for the record types and map shapes that hold them.

/** Most shapes in one generation. */
export const GENERATION_SHAPES = 2048;
/** Most characters of shape text (the `signature`s) in one generation: 1 MiB of strings. */
export const GENERATION_CHARS = 1 << 19;
/** A shape with a longer text (thousands of keys, or very long ones) is never compiled. */
const MAX_SIGNATURE_CHARS = 1 << 14;

let current = new Map<string, RecordBodyReader>();
let previous = new Map<string, RecordBodyReader>();
let currentChars = 0;
/** A number per value reader, for the signature and the readers' names. */
const readerIds = new Map<() => unknown, number>();

/** Shapes held by the cache, and their characters of shape text (for tests). */
export function compiledCacheSize(): { shapes: number; chars: number } {
  let chars = 0;
  for (const signature of previous.keys()) chars += signature.length;
  return { shapes: current.size + previous.size, chars: currentChars + chars };
}

/** Adds a reader to the current generation, starting a new one first if it is full. */
function remember(signature: string, reader: RecordBodyReader): void {
  if (current.size >= GENERATION_SHAPES || currentChars + signature.length > GENERATION_CHARS) {
    previous = current;
    current = new Map();
    currentChars = 0;
  }
  current.set(signature, reader);
  currentChars += signature.length;
}

function compileRecordReader(
  names: readonly string[],
  read: () => unknown,
  freeze: boolean,
): RecordBodyReader | null {
  let readerId = readerIds.get(read);
  if (readerId === undefined) readerIds.set(read, readerId = readerIds.size);
  const signature = `${readerId}${freeze ? "F" : ""}${JSON.stringify(names)}`;
  let reader = current.get(signature);
  if (reader !== undefined) return reader;
  reader = previous.get(signature);
  if (reader !== undefined) {
    previous.delete(signature);
    remember(signature, reader);
    return reader;
  }
  if (signature.length > MAX_SIGNATURE_CHARS || !takeCompileAllowance()) return null;
  // names are property names already (no "__proto__"); others than identifiers are quoted
  const properties = names.map((name) =>
    (IDENTIFIER.test(name) ? name : `[${JSON.stringify(name)}]`) + ":r()"
  );
  const literal = `{${properties.join(",")}}`;
  // The function's name tells the value readers apart: engines cache the code of identical
  // source text, and its `r()` calls would then see both readers (a record type and plain
  // maps of the same keys), which no engine inlines well
  const body = `return function read${readerId}(){return ${
    freeze ? `Object.freeze(${literal})` : literal
  }}`;
  reader = generateFunction(["r"], body)(read as never) as RecordBodyReader;
  remember(signature, reader);
  return reader;
}

installRecordReaderCompiler(compileRecordReader);
