// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Floats read from bytes without a DataView. Making a DataView costs more than several floats read
// through these eight scratch bytes (more still when the input array has no ArrayBuffer object
// yet), so an input that holds a few floats only is read this way.

/** Whether this platform stores numbers least significant byte first (all current JS engines). */
export const LITTLE_ENDIAN: boolean = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Eight scratch bytes: `FLOAT64[0]` reads all eight, `FLOAT32[0]` the first four. The readers
 * below store the bytes one by one, written out, because one loop shared by both widths is slower
 * on V8.
 */
const FLOAT_BYTES = new Uint8Array(8);
const FLOAT64 = new Float64Array(FLOAT_BYTES.buffer);
const FLOAT32 = new Float32Array(FLOAT_BYTES.buffer);

/**
 * The big-endian float64 at `at` (MessagePack's `cb` payload: sign, 11-bit exponent, 52-bit
 * fraction, most significant byte first). The caller checks that 8 bytes are there.
 */
export function float64At(bytes: Uint8Array, at: number): number {
  if (LITTLE_ENDIAN) {
    FLOAT_BYTES[0] = bytes[at + 7]!;
    FLOAT_BYTES[1] = bytes[at + 6]!;
    FLOAT_BYTES[2] = bytes[at + 5]!;
    FLOAT_BYTES[3] = bytes[at + 4]!;
    FLOAT_BYTES[4] = bytes[at + 3]!;
    FLOAT_BYTES[5] = bytes[at + 2]!;
    FLOAT_BYTES[6] = bytes[at + 1]!;
    FLOAT_BYTES[7] = bytes[at]!;
  } else {
    for (let i = 0; i < 8; i++) FLOAT_BYTES[i] = bytes[at + i]!;
  }
  return FLOAT64[0]!;
}

/**
 * The big-endian float32 at `at` (MessagePack's `ca` payload: sign, 8-bit exponent, 23-bit
 * fraction, most significant byte first). The caller checks that 4 bytes are there.
 */
export function float32At(bytes: Uint8Array, at: number): number {
  if (LITTLE_ENDIAN) {
    FLOAT_BYTES[0] = bytes[at + 3]!;
    FLOAT_BYTES[1] = bytes[at + 2]!;
    FLOAT_BYTES[2] = bytes[at + 1]!;
    FLOAT_BYTES[3] = bytes[at]!;
  } else {
    for (let i = 0; i < 4; i++) FLOAT_BYTES[i] = bytes[at + i]!;
  }
  return FLOAT32[0]!;
}
