// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

/**
 * Decoding: {@linkcode Unpackr}, {@linkcode unpack}, {@linkcode unpackMultiple}, their aliases,
 * and the error classes.
 *
 * @example Usage
 * ```ts
 * import { unpack } from "@x/msgpackr/unpack";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(unpack(new Uint8Array([0x92, 0x01, 0xa1, 0x61])), [1, "a"]);
 * ```
 *
 * @module
 */

import "./_records/compiler.ts";

export * from "./_decode/exports.ts";
