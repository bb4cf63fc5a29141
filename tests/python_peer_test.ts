// Copyright 2026 the @x/msgpackr authors. MIT license.
// Python's `msgpack` (Debian's python3-msgpack under /usr/bin/python3; CI installs it, and
// without it these tests fail) as the peer for timestamps to the nanosecond: tests/python/peer.py
// packs `msgpack.Timestamp`s of every era and form (before 1970, the edges of the 32-bit and
// 34-bit seconds, beyond a Date's years, the ends of int64 seconds), and decodes ours. Checked
// under the runtime running the tests (Deno or Bun):
//
// - Python writes the spec's smallest form; `timestamps: "timestamp"` decodes each to Python's
//   seconds and nanoseconds, and `pack` writes Python's bytes back, byte for byte (also one byte at
//   a time through `decodeIter`);
// - Python decodes what we pack for a `Timestamp` (and a `Temporal.Instant`, where the runtime
//   has it) to the same instant, and packs that instant again into our very bytes;
// - both refuse a timestamp of another length.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pack, unpack } from "../mod.ts";
import { concatBytes } from "../_core/bytes.ts";
import { ROOT, text } from "./_cli.ts";
import { run } from "./_process.ts";
import { PYTHON, pythonOutput } from "./_python.ts";
import {
  assertBytewise,
  assertSameInstant,
  assertSmallestForms,
  BAD_TIMESTAMPS,
  type Instant,
  instantPayloads,
  type PeerTime,
} from "./_timestamp_peer.ts";
import { base64Bytes, base64Text, fromHex, hex } from "./_util.ts";

const SCRIPT = join(ROOT, "tests", "python", "peer.py");

/** The corpus, from Python; a clear failure when Debian's python3-msgpack is missing. */
function loadTimes(): PeerTime[] {
  return pythonOutput(SCRIPT, ["times"]).trimEnd().split("\n").map((line) => {
    const entry = JSON.parse(line);
    return {
      name: entry.name,
      seconds: BigInt(entry.seconds),
      nanoseconds: entry.nanoseconds,
      bytes: base64Bytes(entry.msgpack),
    };
  });
}

const times = loadTimes();

/** What Python decodes from each payload: the instant and its own bytes for it, or its error. */
async function pythonDecodes(
  payloads: readonly Uint8Array[],
): Promise<({ seconds: bigint; nanoseconds: number; repacked: Uint8Array } | { error: string })[]> {
  const result = await run(PYTHON, [SCRIPT, "decode"], payloads.map(base64Text).join("\n") + "\n");
  assert.equal(result.code, 0, result.stderr);
  return text(result.stdout).trimEnd().split("\n").map((line) => {
    const entry = JSON.parse(line);
    if ("error" in entry) return { error: entry.error as string };
    return {
      seconds: BigInt(entry.seconds),
      nanoseconds: entry.nanoseconds,
      repacked: base64Bytes(entry.repacked),
    };
  });
}

describe("Python's msgpack.Timestamp with nanoseconds, both ways", () => {
  test("Python writes the spec's smallest form, in every era", () => {
    assert.ok(times.length >= 15, `${times.length} times`);
    for (const header of ["d6 ff", "d7 ff", "c7 0c ff"]) {
      assert.ok(times.some((time) => hex(time.bytes).startsWith(header)), header);
    }
    assertSmallestForms(times);
  });

  test("timestamps: \"timestamp\" gives Python's instant, and packs Python's bytes back", () => {
    for (const time of times) assertSameInstant(time);
    const { iterated, all } = assertBytewise(times);
    assert.equal(
      hex(pack(iterated)),
      hex(concatBytes([Uint8Array.of(0xdc, 0, times.length), all])),
    );
  });

  test("Python decodes our Timestamps and Temporal.Instants to the same instant, and our bytes", async () => {
    const instants: Instant[] = [
      ...times.map((time) => [time.seconds, time.nanoseconds] as const),
      [-62135596801n, 999999999], // the last nanosecond before year 1
      [3n * 2n ** 32n, 249999999],
      [-(2n ** 40n), 5],
    ];
    const { payloads, expected } = instantPayloads(instants);
    const results = await pythonDecodes(payloads);
    assert.equal(results.length, expected.length);
    results.forEach((result, i) => {
      const [seconds, nanoseconds] = expected[i];
      assert.ok(!("error" in result), "error" in result ? result.error : "");
      assert.equal(result.seconds, seconds, `${seconds} s`);
      assert.equal(result.nanoseconds, nanoseconds, `${seconds} s`);
      assert.equal(hex(result.repacked), hex(payloads[i]), `${seconds} s: Python's bytes`);
    });
  });

  test("Python refuses a timestamp of another length, as we do", async () => {
    const results = await pythonDecodes(BAD_TIMESTAMPS.map(fromHex));
    BAD_TIMESTAMPS.forEach((hexText, i) => {
      assert.ok("error" in results[i], hexText);
      assert.throws(() => unpack(fromHex(hexText)), /Invalid timestamp extension length/);
    });
  });
});
