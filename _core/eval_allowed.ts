// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Code generation for the default build's two compilers (record readers, `_records/compiler.ts`;
// writers, `_encode/writer_compiler.ts`), tried on behalf of both: the first `new Function` that
// throws (a Content-Security-Policy without 'unsafe-eval', Trusted Types, a runtime that forbids
// it) turns code generation off for both, for good, so a page gets at most one violation report,
// and none after it. Nothing is tried at import: each compiler asks when a shape is due. Only the
// compilers import this module; `no_eval.ts` never reaches it.

let refused = false;
/** The first refusal, rethrown for every later attempt. */
let refusal: unknown;

/**
 * `new Function(...parameters, body)`. After the first refusal, throws that refusal again
 * without trying.
 */
export function generateFunction(
  parameters: readonly string[],
  body: string,
): (...args: never[]) => unknown {
  if (refused) throw refusal;
  try {
    return new Function(...parameters, body) as (...args: never[]) => unknown;
  } catch (error) {
    refused = true;
    throw refusal = error;
  }
}
