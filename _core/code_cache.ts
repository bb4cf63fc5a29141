// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Code generation for the default build's two compilers (object builders, `_records/compiler.ts`;
// writers, `_encode/writer_compiler.ts`), and the one cache of what they generate. The first
// `new Function` that throws (a Content-Security-Policy without 'unsafe-eval', Trusted Types, a
// runtime that forbids it) turns code generation off for both, for good, so a page gets at most
// one violation report, and none after it. Nothing is tried at import: each compiler asks when a
// shape is due. Only the compilers import this module; `no_eval.ts` never reaches it.
//
// A generated function depends only on its signature (a builder's value reader and names, a
// writer's kind, names and value types), so every decoder and encoder shares it, through a cache
// that input cannot exhaust. It holds two generations: a lookup tries the current one, then the
// previous one, whose hit moves into the current one; when the current one is full (in functions,
// or in characters of signature) it becomes the previous one and the previous one is dropped. So
// the cache holds at most twice a generation whatever the input, a function in use stays (every
// use renews it), and those that input made once and never again fall out: a flood of new shapes
// (hostile, or generated keys) cannot keep other shapes from compiling later. Functions that fall
// out stay valid for whoever holds them.

/** Most functions in one generation. */
export const GENERATION_SHAPES = 2048;
/** Most characters of signature in one generation: 1 MiB of strings. */
export const GENERATION_CHARS = 1 << 19;

/** The first refusal, rethrown for every later attempt; `null` while there is none. */
let refusal: { error: unknown } | null = null;
/** Functions generated so far: a name of its own for each. */
let generated = 0;
let current = new Map<string, unknown>();
let previous = new Map<string, unknown>();
let currentChars = 0;

/**
 * `new Function(...parameters, body)`. After the first refusal, throws that refusal again
 * without trying.
 */
export function generateFunction(
  parameters: readonly string[],
  body: string,
): (...args: never[]) => unknown {
  if (refusal !== null) throw refusal.error;
  try {
    return new Function(...parameters, body) as (...args: never[]) => unknown;
  } catch (error) {
    refusal = { error };
    throw error;
  } finally {
    generated++;
  }
}

/** Functions generated so far (a number for the next one's name). */
export function generatedCount(): number {
  return generated;
}

/** The function cached for `signature`, or `undefined`. */
export function cachedFunction<F>(signature: string): F | undefined {
  let found = current.get(signature);
  if (found === undefined && (found = previous.get(signature)) !== undefined) {
    previous.delete(signature);
    cacheFunction(signature, found);
  }
  return found as F | undefined;
}

/** Caches `generated` for `signature`, starting a new generation first if this one is full. */
export function cacheFunction(signature: string, generated: unknown): void {
  if (current.size >= GENERATION_SHAPES || currentChars + signature.length > GENERATION_CHARS) {
    previous = current;
    current = new Map();
    currentChars = 0;
  }
  current.set(signature, generated);
  currentChars += signature.length;
}

/** Functions cached, and their characters of signature (for tests). */
export function codeCacheSize(): { functions: number; chars: number } {
  let chars = currentChars;
  for (const signature of previous.keys()) chars += signature.length;
  return { functions: current.size + previous.size, chars };
}
