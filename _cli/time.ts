// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Timestamps (docs/wire-format.md, "Timestamps") as ISO 8601 text in UTC, to the nanosecond:
// the fraction has 3 digits when the nanoseconds are whole milliseconds, else 9
// ("2024-01-31T12:00:00.000Z", "2024-01-31T12:00:00.123456789Z"). Years outside 0000..9999 take
// the six-digit signed form of `Date.prototype.toISOString` ("+010000-01-01T00:00:00.000Z").

import { timestampText } from "../_core/timestamp.ts";

/** Seconds a `Date` can hold, on either side of 1970 (its range is ±8.64e15 ms). */
const DATE_SECONDS = 8640000000000n;

const ISO = /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z$/;

/**
 * The ISO text of a timestamp (the library's `Timestamp` text, with 3 fraction digits for whole
 * milliseconds), or `null` outside the range of a `Date`, which {@linkcode parseTimestampIso}
 * reads back, or past 999999999 ns.
 */
export function timestampIso(seconds: bigint, nanoseconds: number): string | null {
  if (seconds <= -DATE_SECONDS || seconds >= DATE_SECONDS || nanoseconds >= 1e9) return null;
  const text = timestampText(seconds, nanoseconds);
  return nanoseconds % 1000000 === 0 ? `${text.slice(0, -7)}Z` : text;
}

/**
 * Seconds and nanoseconds of an ISO text in UTC (`Z`) with up to 9 fraction digits, or `null`
 * when the text is not one.
 */
export function parseTimestampIso(
  text: string,
): { seconds: bigint; nanoseconds: number } | null {
  const match = ISO.exec(text);
  if (match === null) return null;
  const [, year, month, day, hour, minute, second, fraction = ""] = match;
  if (year === "-000000") return null;
  const whole = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}Z`);
  if (Number.isNaN(whole)) return null;
  const iso = new Date(whole).toISOString();
  // Date.parse accepts days past the end of the month: only dates that print back are valid
  if (iso.slice(0, -5) !== `${year}-${month}-${day}T${hour}:${minute}:${second}`) return null;
  return {
    seconds: BigInt(whole / 1000),
    nanoseconds: Number(fraction.padEnd(9, "0")),
  };
}
