// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Which of msgpackr's built-in extensions a decoder refuses (docs/wire-format.md, "Extension
// types"): the structured clone references with `structuredClone: false`, and with
// `plainDataOnly` also the extensions that build objects with behaviour. One bit mask per decoder
// (`DecodeContext.disabledExtensions`), read by the decoder at the header of each of these
// extensions (no other value pays for it) and by the stream's value scanner, so both refuse the
// same bytes. Extensions registered with
// `addExtension` are the application's own code and are never refused.

import type { UnpackrOptions } from "../_core/options.ts";

/** Structured clone ids and pointers (ext "i", "p"): shared references and cycles. */
const REFERENCES = 1;
/** `Error` (ext "e"). */
const ERRORS = 2;
/** `RegExp` (ext "x"). */
const REGEXPS = 4;
/** The bits were set by `plainDataOnly` (else by `structuredClone: false`): named in messages. */
const BY_PLAIN_DATA_ONLY = 8;

/** The built-in extensions a decoder may refuse, by type byte: the bit that refuses each, its name. */
const REFUSABLE: Record<number, readonly [number, string]> = {
  0x69: [REFERENCES, "Structured clone reference"],
  0x70: [REFERENCES, "Structured clone reference"],
  0x65: [ERRORS, "Error"],
  0x78: [REGEXPS, "RegExp"],
};

/**
 * What every refusal's message says after the extension's name, so that `_http/` can tell a
 * refused extension (a body the server does not accept) from malformed bytes.
 */
export const DISABLED_EXTENSION = " extension is disabled (";

/**
 * The bit mask of the extensions a decoder with these settings refuses (0: none, the default).
 *
 * @param settings The decoder's options.
 * @returns The mask for `DecodeContext.disabledExtensions`.
 */
export function disabledExtensionsOf(settings: UnpackrOptions): number {
  if (settings.plainDataOnly === true) return REFERENCES | ERRORS | REGEXPS | BY_PLAIN_DATA_ONLY;
  return settings.structuredClone === false ? REFERENCES : 0;
}

/**
 * The reason a decoder refuses a built-in extension type, as the start of its error message
 * (`RegExp extension is disabled (plainDataOnly)`), or `null` when it decodes it.
 *
 * @param type The extension type byte.
 * @param disabled The decoder's mask (from {@linkcode disabledExtensionsOf}).
 * @returns The message, or `null`.
 */
export function disabledExtension(type: number, disabled: number): string | null {
  const entry = REFUSABLE[type];
  if (entry === undefined || (disabled & entry[0]) === 0) return null;
  const option = (disabled & BY_PLAIN_DATA_ONLY) !== 0 ? "plainDataOnly" : "structuredClone: false";
  return `${entry[1]}${DISABLED_EXTENSION}${option})`;
}
