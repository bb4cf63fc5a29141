// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Code generation for the default build's two compilers (record readers, `_records/compiler.ts`;
// writers, `_encode/writer_compiler.ts`), tried on behalf of both: the first `new Function` that
// throws (a Content-Security-Policy without 'unsafe-eval', Trusted Types, a runtime that forbids
// it) turns code generation off for both, for good, so a page gets at most one violation report,
// and none after it. Nothing is tried at import: each compiler asks when a shape is due. Only the
// compilers import this module; `no_eval.ts` never reaches it.

let allowed = true;

/**
 * `new Function(...parameters, body)`. After the first refusal, throws an `EvalError` without
 * trying again; the refusal itself is rethrown as it came.
 */
export function generateFunction(
  parameters: readonly string[],
  body: string,
): (...args: never[]) => unknown {
  if (!allowed) throw new EvalError("Code generation from strings was refused here before");
  try {
    return new Function(...parameters, body) as (...args: never[]) => unknown;
  } catch (error) {
    allowed = false;
    throw error;
  }
}
