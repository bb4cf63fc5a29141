// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The default build's record reader compiler: a shape read often gets a reader that returns an
// object literal, `{ id: r(), name: r() }`, which engines build far faster than a loop of
// assignments. Only the default entry modules import this module; `no_eval.ts` never does.
// Compiling is tried lazily (never at import), and `_records/reader.ts` stops trying for good if
// it throws, as it does under a Content-Security-Policy without 'unsafe-eval'.

import {
  installRecordReaderCompiler,
  type RecordBodyReader,
  takeCompileAllowance,
} from "./reader.ts";

const IDENTIFIER = /^[a-zA-Z_$][a-zA-Z\d_$]*$/;
/**
 * Compiled readers by value reader (the decoder's `read` for records, the map value stack's for
 * plain maps) and shape: they depend on nothing else, so every decoder can share them.
 */
const compiled = new Map<() => unknown, Map<string, RecordBodyReader>>();
let compiledCount = 0;
/**
 * Most distinct shapes compiled in a process. Beyond it new shapes stay interpreted: input with
 * endless new shapes (hostile, or generated keys) cannot keep the compiler busy or grow memory.
 */
const MAX_COMPILED_SHAPES = 4096;

function compileRecordReader(
  names: readonly string[],
  read: () => unknown,
  freeze: boolean,
): RecordBodyReader | null {
  const signature = (freeze ? "F" : "") + JSON.stringify(names);
  let byShape = compiled.get(read);
  let reader = byShape?.get(signature);
  if (reader === undefined) {
    if (compiledCount >= MAX_COMPILED_SHAPES || !takeCompileAllowance()) return null;
    if (byShape === undefined) compiled.set(read, byShape = new Map());
    // names are property names already (no "__proto__"); others than identifiers are quoted
    const properties = names.map((name) =>
      (IDENTIFIER.test(name) ? name : `[${JSON.stringify(name)}]`) + ":r()"
    );
    const literal = `{${properties.join(",")}}`;
    // The function's name tells the value readers apart: engines cache the code of identical
    // source text, and its `r()` calls would then see both readers (a record type and plain
    // maps of the same keys), which no engine inlines well
    const body = `return function read${compiled.size}(){return ${
      freeze ? `Object.freeze(${literal})` : literal
    }}`;
    reader = new Function("r", body)(read) as RecordBodyReader;
    byShape.set(signature, reader);
    compiledCount++;
  }
  return reader;
}

installRecordReaderCompiler(compileRecordReader);
