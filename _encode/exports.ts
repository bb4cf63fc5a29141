// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Everything the encoding entry points export; shared by `pack.ts` and `no_eval.ts`. The float32
// constants are literals (their examples check them against FLOAT32_OPTIONS), so that a program
// that only packs does not carry the float32 module.

export { Encoder, Packr } from "./packr.ts";
export { encode, pack } from "./pack.ts";
// msgpackr's `pack` entry declares the decoder too (a Packr is an Unpackr)
export { Decoder, Unpackr } from "../_decode/unpackr.ts";
export { decode, unpack } from "../_decode/unpack.ts";
export {
  RESERVE_START_SPACE,
  RESET_BUFFER_MODE,
  REUSE_BUFFER_MODE,
  type ReusedBuffer,
} from "./encoder.ts";
export { C1, C1Type } from "../_core/c1.ts";
export { Timestamp } from "../_core/timestamp.ts";
export { FLOAT32_OPTIONS, type Float32Option, roundFloat32 } from "../_format/float32.ts";
export {
  addExtension,
  type Extension,
  type ExtensionClass,
  type WriteTarget,
} from "../_core/extensions.ts";
export type {
  ConstructionOption,
  IsCompatible,
  PackrOptions,
  Structure,
} from "../_core/options.ts";

/**
 * `useFloat32` value: never write float32 (the default) (`FLOAT32_OPTIONS.NEVER`).
 * @example Usage
 * ```ts
 * import { NEVER, FLOAT32_OPTIONS } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * assert.equal(NEVER, FLOAT32_OPTIONS.NEVER);
 * assert.equal(NEVER, 0);
 * ```
 */
export const NEVER = 0 as const;
/**
 * `useFloat32` value: write non-integers in [-2^31, 2^32) as float32 (`FLOAT32_OPTIONS.ALWAYS`).
 * @example Usage
 * ```ts
 * import { ALWAYS, FLOAT32_OPTIONS } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * assert.equal(ALWAYS, FLOAT32_OPTIONS.ALWAYS);
 * assert.equal(ALWAYS, 1);
 * ```
 */
export const ALWAYS = 1 as const;
/**
 * `useFloat32` value: float32, and round float32 values to decimal digits when decoding
 * (`FLOAT32_OPTIONS.DECIMAL_ROUND`).
 * @example Usage
 * ```ts
 * import { DECIMAL_ROUND, FLOAT32_OPTIONS } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * assert.equal(DECIMAL_ROUND, FLOAT32_OPTIONS.DECIMAL_ROUND);
 * assert.equal(DECIMAL_ROUND, 3);
 * ```
 */
export const DECIMAL_ROUND = 3 as const;
/**
 * `useFloat32` value: float32 only when the decimal digits survive, else float64
 * (`FLOAT32_OPTIONS.DECIMAL_FIT`).
 * @example Usage
 * ```ts
 * import { DECIMAL_FIT, FLOAT32_OPTIONS } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * assert.equal(DECIMAL_FIT, FLOAT32_OPTIONS.DECIMAL_FIT);
 * assert.equal(DECIMAL_FIT, 4);
 * ```
 */
export const DECIMAL_FIT = 4 as const;
