// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// `_strings/utf8_writer.ts` as browsers get it (package.json "browser" maps the npm build's module
// to this one): browsers have no `Buffer`, so strings longer than MANUAL_UTF8_MAX go to
// `TextEncoder.encodeInto`, as on Deno. Same exports.

import type { Utf8Write } from "./utf8_writer.ts";
import { MANUAL_UTF8_MAX_WITH_ENCODE_INTO } from "../_core/thresholds.ts";

export type { Utf8Write };

/** Browsers have no `Buffer.prototype.utf8Write`. */
export const nativeUtf8Write: Utf8Write | null = null;
/** Longest string (in UTF-16 units) the encoder writes in JavaScript, as on V8. */
export const MANUAL_UTF8_MAX: number = MANUAL_UTF8_MAX_WITH_ENCODE_INTO;
