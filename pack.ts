// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

/**
 * Encoding: {@linkcode Packr}, {@linkcode pack} and their aliases, `addExtension`, the float32
 * options and buffer flags. A Packr also decodes, so this entry includes the decoder it extends.
 *
 * @example Usage
 * ```ts
 * import { pack } from "@x/msgpackr/pack";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual([...pack([1, "a"])], [0x92, 0x01, 0xa1, 0x61]);
 * ```
 *
 * @module
 */

import "./_encode/writer_compiler.ts";

export * from "./_encode/exports.ts";
// what decodes comes with the record reader compiler (these take precedence over the same names
// of the line above)
export { decode, Decoder, Encoder, Packr, unpack, Unpackr } from "./_records/with_compiler.ts";
