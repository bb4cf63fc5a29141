// Copyright 2026 the @x/msgpackr authors. MIT license.
// The command line tool's depth limit: `decode`, `inspect` and `encode` refuse input nested
// deeper than `maxDepth` (the library's option, default 1000; `--max-depth N` on the command
// line) with a one-line message and exit status 1, for a 100,000-deep input too, never with a
// stack overflow; JSON text is refused past 4 levels per level of `maxDepth` (tagged JSON nests
// deeper than the bytes it stands for) before it is converted. Run as a subprocess under the
// runtime running the tests (Deno or Bun), and through the exported functions.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { DecodeError, pack, Packr, unpack } from "../mod.ts";
import { decodeToJson, encodeFromJson, inspectBytes } from "../cli.ts";
import { runCli, text } from "./_cli.ts";

/** `depth` nested fixarrays around nil: 91 91 … c0. */
function deepArrays(depth: number): Uint8Array {
  const bytes = new Uint8Array(depth + 1).fill(0x91);
  bytes[depth] = 0xc0;
  return bytes;
}

/** `depth` nested one-entry fixmaps with key "" around nil: 81 a0 81 a0 … c0. */
function deepMaps(depth: number): Uint8Array {
  const bytes = new Uint8Array(2 * depth + 1);
  for (let i = 0; i < depth; i++) bytes.set([0x81, 0xa0], 2 * i);
  bytes[2 * depth] = 0xc0;
  return bytes;
}

const jsonArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const jsonObjects = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

/** The one line a refused input leaves on standard error (no stack trace). */
function oneLine(stderr: string): string {
  const lines = stderr.split("\n");
  assert.equal(lines.length, 2, stderr.slice(0, 500));
  assert.equal(lines[1], "");
  return lines[0];
}

describe("command line: 100,000-deep input is a clear error, exit status 1", () => {
  test("decode and inspect of 100,000 nested arrays (91 91 91 …)", async () => {
    const input = deepArrays(100_000);
    const decoded = await runCli(["decode"], input);
    assert.equal(decoded.code, 1);
    assert.equal(decoded.stdout.length, 0);
    assert.equal(
      oneLine(decoded.stderr),
      "error: nesting deeper than maxDepth (1000) at offset 1000 (0x3e8)",
    );
    const inspected = await runCli(["inspect"], input);
    assert.equal(inspected.code, 1);
    assert.equal(oneLine(inspected.stderr), oneLine(decoded.stderr));
    // the dump up to the array that goes too deep, then the error at its offset
    const lines = text(inspected.stdout).trimEnd().split("\n");
    assert.equal(lines.length, 1002);
    assert.match(lines[1000], /^0003e8 {2}91 {2,}fixarray {2}1 item$/);
    assert.equal(
      lines[1001],
      "0003e8  error: nesting deeper than maxDepth (1000) at offset 1000 (0x3e8)",
    );
  });

  test("decode and inspect of 100,000 nested maps (81 a0 81 a0 …), hex input too", async () => {
    const input = deepMaps(100_000);
    for (
      const args of [["decode"], ["inspect"], ["decode", "--exact"], ["decode", "--no-records"]]
    ) {
      const run = await runCli(args, input);
      assert.equal(run.code, 1, args.join(" "));
      assert.equal(
        oneLine(run.stderr),
        "error: nesting deeper than maxDepth (1000) at offset 2000 (0x7d0)",
      );
    }
    const hexDump = Array.from(input.subarray(0, 4001), (b) => b.toString(16).padStart(2, "0"));
    const fromHex = await runCli(["decode", "--hex"], hexDump.join(" "));
    assert.equal(fromHex.code, 1);
    assert.match(oneLine(fromHex.stderr), /nesting deeper than maxDepth \(1000\) at offset 2000/);
  });

  test("encode of 100,000 nested JSON arrays and objects", async () => {
    for (
      const [input, column] of [[jsonArrays(100_000), 4001], [jsonObjects(100_000), 20001]] as const
    ) {
      const run = await runCli(["encode", "--hex"], input);
      assert.equal(run.code, 1);
      assert.equal(run.stdout.length, 0);
      assert.equal(
        oneLine(run.stderr),
        `error: nesting deeper than 4000 JSON levels (4 per level of maxDepth 1000) at line 1, column ${column}`,
      );
    }
  });

  test("encode of JSON deeper than maxDepth but within the JSON levels", async () => {
    const run = await runCli(["encode", "--hex"], jsonArrays(1500));
    assert.equal(run.code, 1);
    assert.equal(oneLine(run.stderr), "error: nesting deeper than maxDepth (1000)");
    // tags nest deeper in JSON than in the bytes: 999 Sets of Sets (2 JSON levels each) are fine
    const sets = '{"$msgpack":"set","value":['.repeat(499) + "]}".repeat(499);
    const encoded = await runCli(["encode", "--hex"], sets);
    assert.equal(encoded.code, 0, encoded.stderr);
  });
});

describe("command line: --max-depth", () => {
  test("lowers the limit for decode, inspect and encode", async () => {
    for (
      const [command, input] of [["decode", deepArrays(6)], ["inspect", deepArrays(6)]] as const
    ) {
      const refused = await runCli([command, "--max-depth", "5"], input);
      assert.equal(refused.code, 1);
      assert.match(
        oneLine(refused.stderr),
        /^error: nesting deeper than maxDepth \(5\) at offset 5 /,
      );
      const accepted = await runCli([command, "--max-depth=6"], input);
      assert.equal(accepted.code, 0, accepted.stderr);
    }
    const refused = await runCli(["encode", "--hex", "--max-depth", "5"], jsonArrays(6));
    assert.equal(refused.code, 1);
    assert.equal(oneLine(refused.stderr), "error: nesting deeper than maxDepth (5)");
    const accepted = await runCli(["encode", "--hex", "--max-depth", "6"], jsonArrays(6));
    assert.equal(accepted.code, 0, accepted.stderr);
    assert.equal(text(accepted.stdout), "919191919190\n");
  });

  test("raises it: 1500 levels decode and encode with --max-depth 2000", async () => {
    const decoded = await runCli(["decode", "--ndjson", "--max-depth", "2000"], deepArrays(1500));
    assert.equal(decoded.code, 0, decoded.stderr);
    assert.equal(text(decoded.stdout), "[".repeat(1500) + "null" + "]".repeat(1500) + "\n");
    const encoded = await runCli(["encode", "--max-depth", "2000"], jsonArrays(1500));
    assert.equal(encoded.code, 0, encoded.stderr);
    const packr = new Packr({ useRecords: false, maxDepth: 2000 });
    assert.deepEqual(encoded.stdout, packr.pack(JSON.parse(jsonArrays(1500))));
  });

  test("far above the stack: a clear error, never a stack trace", async () => {
    for (
      const [args, input] of [
        [["decode", "--max-depth", "100000"], deepArrays(99_999)],
        [["inspect", "--max-depth", "100000"], deepMaps(99_999)],
        [["encode", "--max-depth", "100000"], jsonArrays(99_999)],
      ] as const
    ) {
      const run = await runCli(args, input);
      // a runtime whose stack holds it all succeeds; otherwise one line says what to do
      if (run.code === 0) continue;
      assert.equal(run.code, 1, args.join(" "));
      assert.match(
        oneLine(run.stderr),
        /^error: nesting too deep for the call stack \(lower (maxDepth \/ )?--max-depth\)/,
      );
    }
  });

  test("a value that is not a whole number from 1 is a usage error", async () => {
    for (const value of ["0", "-1", "1.5", "x", ""]) {
      const run = await runCli(["decode", "--max-depth", value], deepArrays(1));
      assert.equal(run.code, 2, value);
      assert.match(run.stderr, /^error: --max-depth needs a whole number from 1 to 999999999/);
    }
  });
});

describe("the depth limit of decodeToJson, inspectBytes and encodeFromJson", () => {
  test("they apply maxDepth (default 1000) with the library's message", () => {
    const deep = deepArrays(1001);
    for (const decode of [() => decodeToJson(deep), () => unpack(deep)]) {
      assert.throws(decode, (error: unknown) => {
        assert.ok(error instanceof DecodeError);
        assert.match(error.message, /^Nesting deeper than maxDepth \(1000\) at offset 1000/);
        assert.equal(error.offset, 1000);
        return true;
      });
    }
    assert.equal(decodeToJson(deepArrays(1000), { ndjson: true }).length, 2000 + 4 + 1);
    const inspected = inspectBytes(deepMaps(1001));
    assert.ok(inspected.error instanceof DecodeError);
    assert.equal(inspected.error.offset, 2000);
    assert.throws(() => encodeFromJson(jsonArrays(1001)), (error: unknown) => {
      assert.ok(error instanceof SyntaxError);
      assert.equal(error.message, "Nesting deeper than maxDepth (1000)");
      return true;
    });
    assert.deepEqual(encodeFromJson(jsonArrays(1000)), pack(JSON.parse(jsonArrays(1000))));
  });

  test("they take maxDepth as an option", () => {
    assert.throws(() => decodeToJson(deepArrays(3), { maxDepth: 2 }), /maxDepth \(2\) at offset 2/);
    assert.equal(decodeToJson(deepArrays(3), { maxDepth: 3, ndjson: true }), "[[[null]]]\n");
    assert.equal(inspectBytes(deepMaps(3), { maxDepth: 2 }).error?.offset, 4);
    assert.throws(() => encodeFromJson("[[[]]]", { maxDepth: 2 }), /maxDepth \(2\)/);
    assert.throws(() => encodeFromJson("[[[[[[[[[]]]]]]]]]", { maxDepth: 2 }), /8 JSON levels/);
    for (const maxDepth of [0, -1, 1.5, NaN]) {
      assert.throws(() => decodeToJson(deepArrays(1), { maxDepth }), RangeError);
    }
  });
});
