// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Who writes a string's bytes when the encoder does not write them itself: up to
// MANUAL_UTF8_MAX units the encoder writes UTF-8 in JavaScript, longer strings go to the engine.
// The threshold is where the engine's fixed cost per call is repaid by its speed per character.
// V8's `encodeInto` costs much more per call than Bun's `Buffer.prototype.utf8Write` (which also
// writes into a plain Uint8Array), and on Deno it is a JavaScript wrapper around an op, so V8
// writes longer strings by hand. Every writer writes the same bytes (well-formed UTF-8, an
// unpaired surrogate as U+FFFD), so the threshold changes no byte.
// Browsers get `_strings/utf8_writer_browser.ts` (package.json "browser"): `encodeInto`.
// Chosen by measurement: npm run bench:paired:deno / :bun (strings2.json).

import {
  MANUAL_UTF8_MAX_WITH_ENCODE_INTO,
  MANUAL_UTF8_MAX_WITH_UTF8_WRITE,
} from "../_core/thresholds.ts";

/** A `Buffer.prototype.utf8Write`: writes `text` at `offset`, returns the bytes written. */
export type Utf8Write = (this: Uint8Array, text: string, offset: number, length: number) => number;

const runtime = globalThis as {
  Bun?: unknown;
  Buffer?: { prototype: { utf8Write?: unknown } };
};
const bufferUtf8Write = runtime.Buffer?.prototype.utf8Write;
/** Bun's `Buffer.prototype.utf8Write` (the native writer pays off there), else `null`. */
export const nativeUtf8Write: Utf8Write | null =
  runtime.Bun !== undefined && typeof bufferUtf8Write === "function"
    ? bufferUtf8Write as Utf8Write
    : null;
/** Longest string (in UTF-16 units) the encoder writes in JavaScript. */
export const MANUAL_UTF8_MAX: number = nativeUtf8Write !== null
  ? MANUAL_UTF8_MAX_WITH_UTF8_WRITE
  : MANUAL_UTF8_MAX_WITH_ENCODE_INTO;
