// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

/**
 * Values of the `useFloat32` option (docs/wire-format.md, "Float32 modes").
 *
 * - `NEVER` (0): numbers with a fraction are written as float64.
 * - `ALWAYS` (1): non-integers in [-2^31, 2^32) are written as float32.
 * - `DECIMAL_ROUND` (3): as `ALWAYS`, and a decoder with this option rounds float32 values to
 *   their significant decimal digits.
 * - `DECIMAL_FIT` (4): float32 only when the decimal digits survive the round trip, else float64;
 *   decodes with the same rounding as `DECIMAL_ROUND`.
 *
 * @example Usage
 * ```ts
 * import { FLOAT32_OPTIONS, Packr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const packr = new Packr({ useFloat32: FLOAT32_OPTIONS.DECIMAL_FIT });
 * assert.equal(packr.pack(0.1).length, 5); // fits in float32
 * assert.equal(packr.unpack(packr.pack(0.1)), 0.1);
 * ```
 */
export const FLOAT32_OPTIONS: {
  readonly NEVER: 0;
  readonly ALWAYS: 1;
  readonly DECIMAL_ROUND: 3;
  readonly DECIMAL_FIT: 4;
} = Object.freeze({ NEVER: 0, ALWAYS: 1, DECIMAL_ROUND: 3, DECIMAL_FIT: 4 });

/**
 * One of the values of {@linkcode FLOAT32_OPTIONS}.
 * @example Usage
 * ```ts
 * import { type Float32Option, FLOAT32_OPTIONS, Packr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const mode: Float32Option = FLOAT32_OPTIONS.ALWAYS;
 * assert.equal(new Packr({ useFloat32: mode }).pack(0.5)[0], 0xca);
 * ```
 */
export type Float32Option = 0 | 1 | 3 | 4;

/**
 * Decimal multiplier per float32 biased exponent: `10^floor(45.15 - 0.30103 * e)`, chosen so
 * that `value * multiplier` keeps about 7 significant digits. Parsed from `"1e" + k` so the table
 * equals msgpackr's bit for bit.
 */
export const DECIMAL_MULTIPLIERS: Float64Array = new Float64Array(256);
for (let exponent = 0; exponent < 256; exponent++) {
  DECIMAL_MULTIPLIERS[exponent] = +("1e" + Math.floor(45.15 - exponent * 0.30103));
}

const scratchFloat = new Float32Array(1);
const scratchBits = new Uint32Array(scratchFloat.buffer);

/**
 * Rounds a float32 value to its significant decimal digits: the same rounding a decoder with
 * `useFloat32: DECIMAL_ROUND` or `DECIMAL_FIT` applies to every float32 it reads.
 *
 * @param float32Number A number stored as float32 (for example `Math.fround(0.1)`).
 * @returns The shortest-looking decimal the float32 stands for (for example 0.1).
 *
 * @example Usage
 * ```ts
 * import { roundFloat32 } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * assert.equal(roundFloat32(Math.fround(0.1)), 0.1);
 * assert.equal(roundFloat32(Math.fround(123.456)), 123.456);
 * ```
 */
export function roundFloat32(float32Number: number): number {
  scratchFloat[0] = float32Number;
  // indexed by the float32's 8-bit biased exponent: bits 30..23 (the same in either byte order)
  const multiplier = DECIMAL_MULTIPLIERS[(scratchBits[0]! >>> 23) & 0xff]!;
  return ((multiplier * float32Number + (float32Number > 0 ? 0.5 : -0.5)) >> 0) / multiplier;
}
