// Copyright 2026 the @x/msgpackr authors. MIT license.
// Checks of timestamps to the nanosecond against a peer that writes and reads them (Go's
// time.Time in go_peer_test.ts, Python's msgpack.Timestamp in python_peer_test.ts): the spec's
// smallest form, the peer's instant through `timestamps: "timestamp"` and its bytes back, and the
// instants we send it, as Timestamps and (where the runtime has them) Temporal.Instants.

import assert from "node:assert/strict";
import { pack, Timestamp, Unpackr } from "../mod.ts";
import { decodeIter } from "../stream.ts";
import { concatBytes } from "../_core/bytes.ts";
import { hex } from "./_util.ts";

/** A timestamp the peer wrote: its instant and its bytes. */
export interface PeerTime {
  name: string;
  seconds: bigint;
  nanoseconds: number;
  bytes: Uint8Array;
}

/** An instant: seconds since 1970 and nanoseconds. */
export type Instant = readonly [bigint, number];

/** Timestamp extensions of a length the spec has no form for (5, 16 and 0 bytes of data). */
export const BAD_TIMESTAMPS: readonly string[] = [
  "c7 05 ff 00 00 00 00 00",
  "d8 ff" + " 00".repeat(16),
  "c7 00 ff",
];

const exact = new Unpackr({ timestamps: "timestamp" });

/** The spec's smallest timestamp header for an instant: `d6 ff`, `d7 ff` or `c7 0c ff`. */
export function smallestHeader(seconds: bigint, nanoseconds: number): string {
  if (nanoseconds === 0 && seconds >= 0n && seconds < 2n ** 32n) return "d6 ff";
  return seconds >= 0n && seconds < 2n ** 34n ? "d7 ff" : "c7 0c ff";
}

/** Asserts each time is in the spec's smallest form for its instant. */
export function assertSmallestForms(times: readonly PeerTime[]): void {
  for (const time of times) {
    const header = smallestHeader(time.seconds, time.nanoseconds);
    assert.ok(hex(time.bytes).startsWith(header + " "), `${time.name}: ${hex(time.bytes)}`);
  }
}

/**
 * Asserts `timestamps: "timestamp"` decodes the time to the peer's instant, and `pack` writes the
 * peer's bytes back from it and from a new Timestamp of that instant; returns the Timestamp.
 */
export function assertSameInstant(time: PeerTime): Timestamp {
  const value = exact.unpack(time.bytes);
  assert.ok(value instanceof Timestamp, time.name);
  assert.equal(value.seconds, time.seconds, time.name);
  assert.equal(value.nanoseconds, time.nanoseconds, time.name);
  assert.equal(hex(pack(value)), hex(time.bytes), `${time.name}: byte for byte`);
  assert.equal(hex(pack(new Timestamp(time.seconds, time.nanoseconds))), hex(time.bytes));
  return value;
}

/**
 * Asserts decodeIter, fed the times one byte at a time, gives the peer's instants; returns the
 * Timestamps and the bytes of all the times.
 */
export function assertBytewise(
  times: readonly PeerTime[],
): { iterated: Timestamp[]; all: Uint8Array } {
  const all = concatBytes(times.map((time) => time.bytes));
  const bytewise = [...all].map((byte) => Uint8Array.of(byte));
  const iterated = [...decodeIter(bytewise, { timestamps: "timestamp" })] as Timestamp[];
  assert.deepEqual(
    iterated.map((value) => [value.seconds, value.nanoseconds]),
    times.map((time) => [time.seconds, time.nanoseconds]),
  );
  return { iterated, all };
}

/**
 * Our bytes of each instant as a Timestamp, then, where the runtime has Temporal, of each instant
 * within a Date's range as a Temporal.Instant; `expected` is the instant of each payload.
 */
export function instantPayloads(
  instants: readonly Instant[],
): { payloads: Uint8Array[]; expected: Instant[] } {
  const payloads = instants.map(([seconds, nanoseconds]) =>
    pack(new Timestamp(seconds, nanoseconds))
  );
  const temporal = (globalThis as {
    Temporal?: { Instant: { fromEpochNanoseconds(ns: bigint): unknown } };
  }).Temporal;
  if (temporal === undefined) return { payloads, expected: [...instants] };
  const inRange = instants.filter(([seconds]) =>
    seconds >= -8640000000000n && seconds < 8640000000000n
  );
  for (const [seconds, nanoseconds] of inRange) {
    const instant = temporal.Instant.fromEpochNanoseconds(
      seconds * 1000000000n + BigInt(nanoseconds),
    );
    payloads.push(pack(instant));
  }
  return { payloads, expected: [...instants, ...inRange] };
}
