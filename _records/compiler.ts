// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The default build's compiler of builders: a record type or a map shape used often gets a
// builder that returns an object literal, `{ id: r(), name: r() }`, which engines build far
// faster than a loop of assignments. Only the default entry modules import this module;
// `no_eval.ts` never does. Compiling is tried lazily (never at import) through
// `_core/code_cache.ts`, which the writer compiler shares: the first refusal (a
// Content-Security-Policy without 'unsafe-eval') turns both off, and `_records/reader.ts` stops
// asking for good. Builders depend only on their value reader (the decoder's `read` for records,
// the value stack's for plain maps) and their shape, so every decoder shares them through that
// module's cache; what a flood of new shapes costs in compiling is bounded per decode (the
// decoder's allowance, `MAX_COMPILES_PER_DECODE`).

import { cachedFunction, cacheFunction, generateFunction } from "../_core/code_cache.ts";
import { builderSources, type CompileAllowance, type ObjectBuilder } from "./reader.ts";

const IDENTIFIER = /^[a-zA-Z_$][a-zA-Z\d_$]*$/;

/** A shape with a longer text (thousands of keys, or very long ones) is never compiled. */
const MAX_SIGNATURE_CHARS = 1 << 14;

/** A number per value reader, for the signature and the builders' names. */
const readerIds = new Map<() => unknown, number>();

function compileBuilder(
  names: readonly string[],
  read: () => unknown,
  freeze: boolean,
  allowance: CompileAllowance,
): ObjectBuilder | null {
  let readerId = readerIds.get(read);
  if (readerId === undefined) readerIds.set(read, readerId = readerIds.size);
  const signature = `${readerId}${freeze ? "F" : ""}${JSON.stringify(names)}`;
  let build = cachedFunction<ObjectBuilder>(signature);
  if (build !== undefined) return build;
  if (signature.length > MAX_SIGNATURE_CHARS || allowance.compilesLeft-- <= 0) return null;
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
  build = generateFunction(["r"], body)(read as never) as ObjectBuilder;
  cacheFunction(signature, build);
  return build;
}

builderSources.compile = compileBuilder;
