// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// `Timestamp`: an instant to the nanosecond, as the MessagePack timestamp extension holds it
// (docs/wire-format.md, "Timestamps"), and its ISO 8601 text. The encoder knows a Timestamp by
// `TIMESTAMP_BRAND` rather than by `instanceof`, so that a program that only packs does not ship
// this class unless it uses it.

import { DecodeError } from "./errors.ts";
import { epochSecondsOf, timestampParts } from "../_format/timestamp.ts";

/** Marks a {@linkcode Timestamp} for the encoder (a getter of the prototype, not of instances). */
export const TIMESTAMP_BRAND: unique symbol = Symbol("@x/msgpackr Timestamp");

const NANOS_PER_SECOND = 1000000000n;
/** Seconds of 400 Gregorian years, after which the calendar repeats. */
const CYCLE_SECONDS = 12622780800n;

/**
 * The ISO 8601 text in UTC of an instant, to the nanosecond (9 fraction digits): the proleptic
 * Gregorian calendar, years 0000..9999 in four digits and others with a sign and at least six
 * (`+275760-09-13T00:00:00.000000000Z`), as `Date.prototype.toISOString` writes them. Exact for
 * any seconds, also beyond the range of a Date. `nanoseconds` is 0..999999999.
 */
export function timestampText(seconds: bigint, nanoseconds: number): string {
  // the calendar repeats every 400 years: the date of the same second in 1970..2369, whole
  // cycles of 400 years added to its year
  let cycles = seconds / CYCLE_SECONDS;
  if (cycles * CYCLE_SECONDS > seconds) cycles--;
  const text = new Date(Number(seconds - cycles * CYCLE_SECONDS) * 1000).toISOString();
  const year = BigInt(text.slice(0, 4)) + cycles * 400n;
  const yearText = year >= 0n && year <= 9999n
    ? String(year).padStart(4, "0")
    : (year < 0n ? "-" : "+") + String(year < 0n ? -year : year).padStart(6, "0");
  return `${yearText}${text.slice(4, 19)}.${String(nanoseconds).padStart(9, "0")}Z`;
}

/**
 * An instant to the nanosecond: what the MessagePack timestamp extension holds, and what a
 * `Date` (milliseconds) cannot. Go's `time.Time`, Python's `msgpack.Timestamp` and Java's
 * `Instant` send nanoseconds; decode with `timestamps: "timestamp"` to get them as Timestamps,
 * and pack a Timestamp to send them back. Packing writes the smallest of the specification's
 * three forms that holds it: 32-bit (`d6 ff`) for whole seconds from 0 to 2^32 - 1, 64-bit
 * (`d7 ff`) for seconds from 0 to 2^34 - 1, else 96-bit (`c7 0c ff`); seconds beyond 64 bits are
 * a RangeError when packed.
 *
 * `seconds` is a bigint (seconds since 1970-01-01T00:00:00Z, negative before), so every value of
 * the 96-bit form's 64-bit seconds is exact; the constructor also takes a safe integer number.
 * `nanoseconds` is the fraction of that second, an integer from 0 to 999999999, so the instant
 * is `seconds + nanoseconds / 1e9` also before 1970 (-0.5 s is seconds -1, nanoseconds
 * 500000000). Timestamps are immutable.
 *
 * @example Decoding nanoseconds, and packing them back byte for byte
 * ```ts
 * import { pack, Timestamp, Unpackr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * // what Go sends for time.Unix(1700000000, 123456789)
 * const bytes = new Uint8Array([0xd7, 0xff, 0x1d, 0x6f, 0x34, 0x54, 0x65, 0x53, 0xf1, 0x00]);
 * const time = new Unpackr({ timestamps: "timestamp" }).unpack(bytes) as Timestamp;
 * assert.equal(time.seconds, 1700000000n);
 * assert.equal(time.nanoseconds, 123456789);
 * assert.equal(time.toString(), "2023-11-14T22:13:20.123456789Z");
 * assert.deepEqual(pack(time), bytes);
 * assert.deepEqual(pack(new Timestamp(1700000000, 123456789)), bytes);
 * ```
 */
export class Timestamp {
  /** Whole seconds since 1970-01-01T00:00:00Z (negative before), toward the past. */
  readonly seconds: bigint;
  /** Nanoseconds after {@linkcode Timestamp.seconds}: an integer from 0 to 999999999. */
  readonly nanoseconds: number;

  /**
   * An instant from its whole seconds since 1970 and the nanoseconds after them.
   *
   * @param seconds A bigint, or a safe integer number (RangeError for any other number).
   * @param nanoseconds An integer from 0 to 999999999 (RangeError otherwise).
   * @example Usage
   * ```ts
   * import { Timestamp } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * const before1970 = new Timestamp(-1, 500000000); // half a second before 1970
   * assert.equal(before1970.seconds, -1n);
   * assert.equal(before1970.toString(), "1969-12-31T23:59:59.500000000Z");
   * assert.throws(() => new Timestamp(0, 1e9), RangeError);
   * assert.throws(() => new Timestamp(0.5), RangeError);
   * ```
   */
  constructor(seconds: bigint | number, nanoseconds: number = 0) {
    if (typeof seconds === "number") {
      if (!Number.isSafeInteger(seconds)) {
        throw new RangeError(`Timestamp seconds ${seconds}: not a safe integer`);
      }
      seconds = BigInt(seconds);
    } else if (typeof seconds !== "bigint") {
      throw new TypeError(`Timestamp seconds: not a bigint or number`);
    }
    if (typeof nanoseconds !== "number") throw new TypeError("Timestamp nanoseconds: not a number");
    if (!Number.isInteger(nanoseconds) || nanoseconds < 0 || nanoseconds > 999999999) {
      throw new RangeError(`Timestamp nanoseconds ${nanoseconds}: not an integer 0..999999999`);
    }
    this.seconds = seconds;
    this.nanoseconds = nanoseconds;
  }

  /** The encoder's mark of a Timestamp. */
  get [TIMESTAMP_BRAND](): true {
    return true;
  }

  /**
   * The instant from a `Date` (exact: a Date holds whole milliseconds).
   *
   * @param date A valid Date (RangeError for an invalid one).
   * @returns The Timestamp of the same instant.
   * @example Usage
   * ```ts
   * import { Timestamp } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * const time = Timestamp.fromDate(new Date(-1)); // 1 ms before 1970
   * assert.equal(time.seconds, -1n);
   * assert.equal(time.nanoseconds, 999000000);
   * ```
   */
  static fromDate(date: Date): Timestamp {
    const time = date.getTime();
    if (Number.isNaN(time)) throw new RangeError("Timestamp of an invalid Date");
    const milliseconds = ((time % 1000) + 1000) % 1000;
    return new Timestamp((time - milliseconds) / 1000, milliseconds * 1000000);
  }

  /**
   * The instant `nanoseconds` after 1970-01-01T00:00:00Z (before it when negative), as
   * `Temporal.Instant.fromEpochNanoseconds` takes it.
   *
   * @param nanoseconds Nanoseconds since 1970, a bigint.
   * @returns The Timestamp of that instant.
   * @example Usage
   * ```ts
   * import { Timestamp } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * const time = Timestamp.fromEpochNanoseconds(-1n);
   * assert.equal(time.seconds, -1n);
   * assert.equal(time.nanoseconds, 999999999);
   * ```
   */
  static fromEpochNanoseconds(nanoseconds: bigint): Timestamp {
    if (typeof nanoseconds !== "bigint") throw new TypeError("Epoch nanoseconds: not a bigint");
    const seconds = epochSecondsOf(nanoseconds);
    return new Timestamp(seconds, Number(nanoseconds - seconds * NANOS_PER_SECOND));
  }

  /**
   * Compares two instants, for sorting: negative when `a` is earlier, 0 when equal, positive
   * when later.
   *
   * @param a A Timestamp.
   * @param b Another Timestamp.
   * @returns -1, 0 or 1.
   * @example Usage
   * ```ts
   * import { Timestamp } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * const times = [new Timestamp(1, 5), new Timestamp(-1), new Timestamp(1)];
   * times.sort(Timestamp.compare);
   * assert.deepEqual(times.map(String), [
   *   "1969-12-31T23:59:59.000000000Z",
   *   "1970-01-01T00:00:01.000000000Z",
   *   "1970-01-01T00:00:01.000000005Z",
   * ]);
   * ```
   */
  static compare(a: Timestamp, b: Timestamp): -1 | 0 | 1 {
    if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
    return a.nanoseconds === b.nanoseconds ? 0 : a.nanoseconds < b.nanoseconds ? -1 : 1;
  }

  /**
   * Nanoseconds since 1970-01-01T00:00:00Z (negative before), exactly: what
   * `Temporal.Instant`'s `epochNanoseconds` gives for the same instant.
   *
   * @example Usage
   * ```ts
   * import { Timestamp } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new Timestamp(-1, 999999999).epochNanoseconds, -1n);
   * ```
   */
  get epochNanoseconds(): bigint {
    return this.seconds * NANOS_PER_SECOND + BigInt(this.nanoseconds);
  }

  /**
   * The `Date` of the millisecond that holds the instant (the nanoseconds past it are dropped,
   * toward the past also before 1970); an invalid Date outside the range of a Date (about
   * ±273,790 years around 1970).
   *
   * @returns A new Date.
   * @example Usage
   * ```ts
   * import { Timestamp } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new Timestamp(1, 999999999).toDate().getTime(), 1999);
   * assert.equal(new Timestamp(-1, 999999999).toDate().getTime(), -1);
   * assert.ok(Number.isNaN(new Timestamp(2n ** 62n).toDate().getTime()));
   * ```
   */
  toDate(): Date {
    // beyond ±2^53 / 1000 seconds the product rounds, but is then far outside a Date's range
    return new Date(Number(this.seconds) * 1000 + Math.floor(this.nanoseconds / 1000000));
  }

  /**
   * Whether `other` is a Timestamp of the same instant.
   *
   * @param other Any value.
   * @returns `true` for a Timestamp with the same seconds and nanoseconds.
   * @example Usage
   * ```ts
   * import { Timestamp } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * assert.ok(new Timestamp(5, 1).equals(new Timestamp(5n, 1)));
   * assert.ok(!new Timestamp(5, 1).equals(new Timestamp(5, 2)));
   * ```
   */
  equals(other: unknown): boolean {
    return other instanceof Timestamp && other.seconds === this.seconds &&
      other.nanoseconds === this.nanoseconds;
  }

  /**
   * The instant as ISO 8601 text in UTC with 9 fraction digits; years outside 0000..9999 with a
   * sign and six digits or more, as `Date.prototype.toISOString` writes them.
   *
   * @returns The text, such as `"2023-11-14T22:13:20.123456789Z"`.
   * @example Usage
   * ```ts
   * import { Timestamp } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * assert.equal(String(new Timestamp(0)), "1970-01-01T00:00:00.000000000Z");
   * assert.equal(`${new Timestamp(253402300799, 999999999)}`, "9999-12-31T23:59:59.999999999Z");
   * ```
   */
  toString(): string {
    return timestampText(this.seconds, this.nanoseconds);
  }

  /**
   * The same text as {@linkcode Timestamp.toString}, for `JSON.stringify` (a bigint has no JSON).
   *
   * @returns The ISO 8601 text.
   * @example Usage
   * ```ts
   * import { Timestamp } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * assert.equal(
   *   JSON.stringify({ at: new Timestamp(1700000000, 5) }),
   *   '{"at":"2023-11-14T22:13:20.000000005Z"}',
   * );
   * ```
   */
  toJSON(): string {
    return this.toString();
  }
}

/**
 * The {@linkcode Timestamp} of a timestamp payload of 4, 8 or 12 bytes at `start`, what a decoder
 * with `timestamps: "timestamp"` returns; nanoseconds beyond 999999999 (the 64-bit form's field
 * holds up to 2^30 - 1, the 96-bit form's up to 2^32 - 1) are a DecodeError at `offset`, the
 * extension's header.
 */
export function timestampOfPayload(
  bytes: Uint8Array,
  start: number,
  length: number,
  offset: number,
): Timestamp {
  const [seconds, nanoseconds] = timestampParts(bytes, start, length);
  if (nanoseconds > 999999999) {
    throw new DecodeError(
      `Invalid timestamp: ${nanoseconds} nanoseconds (at most 999999999) at offset ${offset}`,
      offset,
    );
  }
  return new Timestamp(seconds, nanoseconds);
}
