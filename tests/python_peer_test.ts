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
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pack, Timestamp, unpack, Unpackr } from "../mod.ts";
import { decodeIter } from "../stream.ts";
import { concatBytes } from "../_core/bytes.ts";
import { ROOT, text } from "./_cli.ts";
import { run } from "./_process.ts";
import { base64Bytes, base64Text, fromHex, hex } from "./_util.ts";

const PYTHON = "/usr/bin/python3";
const SCRIPT = join(ROOT, "tests", "python", "peer.py");

interface PythonTime {
  name: string;
  seconds: bigint;
  nanoseconds: number;
  bytes: Uint8Array;
}

/** The corpus, from Python; a clear failure when Debian's python3-msgpack is missing. */
function loadTimes(): PythonTime[] {
  assert.ok(
    existsSync(PYTHON),
    `${PYTHON} is missing: these tests need Debian's python3 and python3-msgpack`,
  );
  let output: string;
  try {
    output = execFileSync(PYTHON, [SCRIPT, "times"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "");
    assert.fail(`${PYTHON} ${SCRIPT} times failed (is python3-msgpack installed?)\n${stderr}`);
  }
  return output.trimEnd().split("\n").map((line) => {
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

/** The spec's smallest timestamp header for an instant. */
function smallestHeader(seconds: bigint, nanoseconds: number): string {
  if (nanoseconds === 0 && seconds >= 0n && seconds < 2n ** 32n) return "d6 ff";
  return seconds >= 0n && seconds < 2n ** 34n ? "d7 ff" : "c7 0c ff";
}

describe("Python's msgpack.Timestamp with nanoseconds, both ways", () => {
  const exact = new Unpackr({ timestamps: "timestamp" });

  test("Python writes the spec's smallest form, in every era", () => {
    assert.ok(times.length >= 15, `${times.length} times`);
    for (const header of ["d6 ff", "d7 ff", "c7 0c ff"]) {
      assert.ok(times.some((time) => hex(time.bytes).startsWith(header)), header);
    }
    for (const time of times) {
      const header = smallestHeader(time.seconds, time.nanoseconds);
      assert.ok(hex(time.bytes).startsWith(header + " "), `${time.name}: ${hex(time.bytes)}`);
    }
  });

  test("timestamps: \"timestamp\" gives Python's instant, and packs Python's bytes back", () => {
    for (const time of times) {
      const value = exact.unpack(time.bytes);
      assert.ok(value instanceof Timestamp, time.name);
      assert.equal(value.seconds, time.seconds, time.name);
      assert.equal(value.nanoseconds, time.nanoseconds, time.name);
      assert.equal(hex(pack(value)), hex(time.bytes), `${time.name}: byte for byte`);
      assert.equal(hex(pack(new Timestamp(time.seconds, time.nanoseconds))), hex(time.bytes));
    }
    const all = concatBytes(times.map((time) => time.bytes));
    const bytewise = [...all].map((byte) => Uint8Array.of(byte));
    const iterated = [...decodeIter(bytewise, { timestamps: "timestamp" })] as Timestamp[];
    assert.deepEqual(
      iterated.map((value) => [value.seconds, value.nanoseconds]),
      times.map((time) => [time.seconds, time.nanoseconds]),
    );
    assert.equal(
      hex(pack(iterated)),
      hex(concatBytes([Uint8Array.of(0xdc, 0, times.length), all])),
    );
  });

  test("Python decodes our Timestamps and Temporal.Instants to the same instant, and our bytes", async () => {
    const instants: (readonly [bigint, number])[] = [
      ...times.map((time) => [time.seconds, time.nanoseconds] as const),
      [-62135596801n, 999999999], // the last nanosecond before year 1
      [3n * 2n ** 32n, 249999999],
      [-(2n ** 40n), 5],
    ];
    const payloads = instants.map(([seconds, nanoseconds]) =>
      pack(new Timestamp(seconds, nanoseconds))
    );
    const temporal = (globalThis as {
      Temporal?: { Instant: { fromEpochNanoseconds(ns: bigint): unknown } };
    }).Temporal;
    const inRange = instants.filter(([seconds]) =>
      seconds >= -8640000000000n && seconds < 8640000000000n
    );
    if (temporal !== undefined) {
      for (const [seconds, nanoseconds] of inRange) {
        const instant = temporal.Instant.fromEpochNanoseconds(
          seconds * 1000000000n + BigInt(nanoseconds),
        );
        payloads.push(pack(instant));
      }
    }
    const expected = temporal !== undefined ? [...instants, ...inRange] : instants;
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
    const bad = ["c7 05 ff 00 00 00 00 00", "d8 ff" + " 00".repeat(16), "c7 00 ff"];
    const results = await pythonDecodes(bad.map(fromHex));
    bad.forEach((hexText, i) => {
      assert.ok("error" in results[i], hexText);
      assert.throws(() => unpack(fromHex(hexText)), /Invalid timestamp extension length/);
    });
  });
});
