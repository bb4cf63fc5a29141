// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

/**
 * Decodes the payload of a timestamp extension (type -1; docs/wire-format.md, "Timestamps") into a
 * `Date`.
 *
 * - 4 bytes: u32 seconds.
 * - 8 bytes: 30-bit nanoseconds, then 34-bit seconds.
 * - 12 bytes: u32 nanoseconds, then i64 seconds (exact within ±2^48 seconds, which covers every
 *   valid Date).
 * - anything else (msgpackr writes `d4 ff ff` for an invalid Date): an invalid Date.
 */
export function decodeTimestamp(bytes: Uint8Array, start: number, length: number): Date {
  const b = bytes;
  const p = start;
  if (length === 4) {
    return new Date((b[p] * 0x1000000 + ((b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3])) * 1000);
  }
  if (length === 8) {
    const nanoseconds = (b[p] << 22) + (b[p + 1] << 14) + (b[p + 2] << 6) + (b[p + 3] >> 2);
    const seconds = (b[p + 3] & 0x3) * 0x100000000 + b[p + 4] * 0x1000000 +
      ((b[p + 5] << 16) | (b[p + 6] << 8) | b[p + 7]);
    return new Date(nanoseconds / 1000000 + seconds * 1000);
  }
  if (length === 12) {
    const nanoseconds = b[p] * 0x1000000 + ((b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3]);
    const seconds = ((b[p + 4] & 0x80) ? -0x1000000000000 : 0) + b[p + 6] * 0x10000000000 +
      b[p + 7] * 0x100000000 + b[p + 8] * 0x1000000 +
      ((b[p + 9] << 16) | (b[p + 10] << 8) | b[p + 11]);
    return new Date(nanoseconds / 1000000 + seconds * 1000);
  }
  return new Date(NaN);
}

/**
 * Writes a Date as a timestamp extension, with msgpackr's choice of form (docs/wire-format.md,
 * "Timestamps").
 * Returns the new write position. `target` must have room for 15 bytes at `position`.
 *
 * | condition | bytes |
 * |---|---|
 * | (no milliseconds or `useTimestamp32`) and 0 ≤ s < 2^32 | `d6 ff` u32(s) |
 * | else 0 < s < 2^32 | `d7 ff` u32(ms · 4 000 000) u32(s) |
 * | otherwise | `c7 0c ff` u32(ms · 1 000 000) i64(floor(s)) |
 *
 * Invalid dates are handled by the caller (`onInvalidDate` or `d4 ff ff`).
 */
export function writeTimestamp(
  target: Uint8Array,
  view: DataView,
  position: number,
  date: Date,
  useTimestamp32: boolean,
): number {
  const time = date.getTime();
  const seconds = time / 1000;
  const milliseconds = date.getMilliseconds();
  if ((useTimestamp32 || milliseconds === 0) && seconds >= 0 && seconds < 0x100000000) {
    target[position] = 0xd6;
    target[position + 1] = 0xff;
    view.setUint32(position + 2, seconds);
    return position + 6;
  }
  if (seconds > 0 && seconds < 0x100000000) {
    target[position] = 0xd7;
    target[position + 1] = 0xff;
    // seconds < 2^32, so the two high bits of the 34-bit seconds field are always zero
    view.setUint32(position + 2, milliseconds * 4000000);
    view.setUint32(position + 6, seconds);
    return position + 10;
  }
  target[position] = 0xc7;
  target[position + 1] = 12;
  target[position + 2] = 0xff;
  view.setUint32(position + 3, milliseconds * 1000000);
  view.setBigInt64(position + 7, BigInt(Math.floor(seconds)));
  return position + 15;
}
