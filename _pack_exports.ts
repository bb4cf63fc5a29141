// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Everything the encoding entry points export; shared by `pack.ts` and `no_eval.ts`.

import { FLOAT32_OPTIONS } from "./_float32.ts";

export { addExtension, encode, Encoder, pack, Packr } from "./_packr.ts";
export {
  RESERVE_START_SPACE,
  RESET_BUFFER_MODE,
  REUSE_BUFFER_MODE,
  type ReusedBuffer,
} from "./_encoder.ts";
export { C1, C1Type } from "./_c1.ts";
export { FLOAT32_OPTIONS, type Float32Option, roundFloat32 } from "./_float32.ts";
export type { Extension, ExtensionClass } from "./_extensions.ts";
export type { IsCompatible, PackrOptions, Structure } from "./_options.ts";

/** `useFloat32` value: never write float32 (the default). */
export const NEVER: 0 = FLOAT32_OPTIONS.NEVER;
/** `useFloat32` value: write non-integers in [-2^31, 2^32) as float32. */
export const ALWAYS: 1 = FLOAT32_OPTIONS.ALWAYS;
/** `useFloat32` value: float32, and round float32 values to decimal digits when decoding. */
export const DECIMAL_ROUND: 3 = FLOAT32_OPTIONS.DECIMAL_ROUND;
/** `useFloat32` value: float32 only when the decimal digits survive, else float64. */
export const DECIMAL_FIT: 4 = FLOAT32_OPTIONS.DECIMAL_FIT;
