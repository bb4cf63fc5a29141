// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The timestamp extension (type -1; docs/wire-format.md, "Timestamps"): its three payloads, read
// as a `Date` (the millisecond that holds the instant) or as exact seconds and nanoseconds, and
// written from a `Date` (msgpackr's choice of form) or from exact seconds and nanoseconds (the
// smallest form the MessagePack specification allows).
//
// | length | payload                                       |
// |-------:|-----------------------------------------------|
// |      4 | u32 seconds                                   |
// |      8 | 30-bit nanoseconds, then 34-bit seconds       |
// |     12 | u32 nanoseconds, then i64 seconds             |
// |      1 | msgpackr's invalid Date (`d4 ff ff`)          |
//
// Any other length is not a timestamp: readers refuse it from its header, before its payload.

/** Whether a timestamp extension of `length` payload bytes can be read (4, 8, 12, or 1). */
export function isTimestampLength(length: number): boolean {
  return length === 4 || length === 8 || length === 12 || length === 1;
}

/** The message of a timestamp extension whose length is not one of the timestamp's. */
export function timestampLengthProblem(length: number): string {
  return `Invalid timestamp extension length ${length} (a timestamp has 4, 8 or 12 bytes)`;
}

/**
 * Decodes the payload of a timestamp extension into the `Date` of the millisecond that holds the
 * instant: `seconds · 1000 + floor(nanoseconds / 1e6)` in exact integer arithmetic, so toward the
 * past on both sides of 1970 (-1 s + 999999999 ns is `Date(-1)`). An instant outside the range
 * of a Date, and the 1-byte invalid marker, give an invalid Date. `length` is 4, 8, 12 or 1
 * ({@linkcode isTimestampLength}).
 */
export function decodeTimestamp(bytes: Uint8Array, start: number, length: number): Date {
  const b = bytes;
  const p = start;
  const word = b[p] * 0x1000000 + ((b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3]);
  if (length === 4) return new Date(word * 1000);
  if (length !== 8 && length !== 12) return new Date(NaN);
  // 8 bytes: 30-bit nanoseconds, 34-bit seconds (< 2^34, so seconds · 1000 < 2^44: every step is
  // exact). 12 bytes: u32 nanoseconds, i64 seconds, exact while |high| < 2^21 (|seconds| <
  // 2^53); a larger one is far outside the ±8.64e15 ms of a Date, where rounding cannot bring it
  // back, and `Date` makes it an invalid Date.
  const nanoseconds = length === 8 ? Math.floor(word / 4) : word;
  const high = length === 8
    ? b[p + 3] & 0x3
    : (b[p + 4] << 24) | (b[p + 5] << 16) | (b[p + 6] << 8) | b[p + 7]; // signed
  const q = p + length - 4; // the low 32 bits of the seconds
  const seconds = high * 0x100000000 + b[q] * 0x1000000 +
    ((b[q + 1] << 16) | (b[q + 2] << 8) | b[q + 3]);
  return new Date(seconds * 1000 + Math.floor(nanoseconds / 1000000));
}

/**
 * The exact seconds and the nanoseconds field of a timestamp payload of 4, 8 or 12 bytes. The
 * field holds up to 2^30 - 1 (8 bytes) or 2^32 - 1 (12 bytes); the specification allows up to
 * 999999999, and the caller judges more.
 */
export function timestampParts(
  bytes: Uint8Array,
  start: number,
  length: number,
): [seconds: bigint, nanoseconds: number] {
  const view = new DataView(bytes.buffer, bytes.byteOffset + start, length);
  if (length === 4) return [BigInt(view.getUint32(0)), 0];
  if (length === 8) return [view.getBigUint64(0) & 0x3ffffffffn, view.getUint32(0) >>> 2];
  return [view.getBigInt64(4), view.getUint32(0)];
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

const NANOS_PER_SECOND = 1000000000n;

/**
 * The whole seconds (toward the past) of an instant given in nanoseconds since 1970; its
 * nanoseconds after them are `nanoseconds - seconds · 1e9`, from 0 to 999999999.
 */
export function epochSecondsOf(nanoseconds: bigint): bigint {
  const seconds = nanoseconds / NANOS_PER_SECOND; // toward zero
  return seconds * NANOS_PER_SECOND > nanoseconds ? seconds - 1n : seconds;
}

/**
 * Writes an instant given in nanoseconds since 1970 (a `Timestamp`'s or `Temporal.Instant`'s
 * `epochNanoseconds`) as a timestamp extension in the smallest form the MessagePack
 * specification allows; returns the new write position. `target` must have room for 15 bytes at
 * `position`. Seconds beyond 64 bits are a RangeError, before anything is written.
 *
 * | condition | bytes |
 * |---|---|
 * | ns = 0 and 0 ≤ s < 2^32 | `d6 ff` u32(s) |
 * | 0 ≤ s < 2^34 | `d7 ff` u64(ns << 34 \| s) |
 * | otherwise | `c7 0c ff` u32(ns) i64(s) |
 */
export function writeExactTimestamp(
  target: Uint8Array,
  view: DataView,
  position: number,
  epochNanoseconds: bigint,
): number {
  const seconds = epochSecondsOf(epochNanoseconds);
  const nanoseconds = Number(epochNanoseconds - seconds * NANOS_PER_SECOND);
  if (seconds >= 0n && seconds < 0x400000000n) {
    target[position + 1] = 0xff;
    if (nanoseconds === 0 && seconds < 0x100000000n) {
      target[position] = 0xd6;
      view.setUint32(position + 2, Number(seconds));
      return position + 6;
    }
    target[position] = 0xd7;
    view.setBigUint64(position + 2, (BigInt(nanoseconds) << 34n) | seconds);
    return position + 10;
  }
  if (BigInt.asIntN(64, seconds) !== seconds) {
    throw new RangeError(`Timestamp seconds ${seconds} do not fit in 64 bits`);
  }
  target[position] = 0xc7;
  target[position + 1] = 12;
  target[position + 2] = 0xff;
  view.setUint32(position + 3, nanoseconds);
  view.setBigInt64(position + 7, seconds);
  return position + 15;
}
