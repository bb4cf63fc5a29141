// Copyright 2026 the @x/msgpackr authors. MIT license.
// Payloads from a producer no one here wrote: Python's `msgpack` (Debian's python3-msgpack, run
// with /usr/bin/python3; CI installs it, and without it these tests fail). tests/cli/
// python_corpus.py packs a varied corpus and says, for each payload, what `msgpackr decode` must
// print: `json.dumps` of what Python decodes for values JSON can show, the documented tag form
// for the rest. Checked here under the runtime running the tests (Deno or Bun):
//
// - `msgpackr decode` (pretty and --ndjson) of the whole corpus as one sequence prints exactly
//   that JSON. Both texts are parsed into exact values and compared with member order and
//   structure: integers as BigInt, floats as numbers (so -0.0 differs from 0.0), and an integer
//   never equals a float. The tool prints integral floats with `.0`, as Python does, so float
//   1.0 and integer 1 stay apart; only the text of a number may differ (`1e+16` in Python,
//   `10000000000000000.0` here), never its kind or value.
// - `decode --exact | encode` gives back every payload byte for byte;
// - `--base64` and `--hex` read payloads as logs show them;
// - the library: `new Unpackr({ mapsAsObjects: false, int64AsType: "bigint" })` decodes each
//   payload, `new Packr({ useRecords: false })` packs it again, and Python decodes the result to
//   the value it decoded from its own payload (python_corpus.py check says how floats compare);
// - a Packr with `useInt64` sends safe integers beyond 32 bits that Python reads as `int` (where
//   msgpackr's float64 reads as `float`), Uint8Arrays as `bytes` and Dates as `datetime`.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pack, Packr, Unpackr } from "../mod.ts";
import { decodeToJson, encodeFromJson } from "../cli.ts";
import { concatBytes } from "../_core/bytes.ts";
import { ROOT, runCli, text } from "./_cli.ts";
import { type Exact, parseExact } from "./_exact_json.ts";
import { run } from "./_process.ts";
import { PYTHON, pythonOutput } from "./_python.ts";
import { base64Bytes, base64Text, hex } from "./_util.ts";

const SCRIPT = join(ROOT, "tests", "cli", "python_corpus.py");

interface Case {
  name: string;
  msgpack: string;
  json: string;
  plain: boolean;
  library: boolean;
}

/** The corpus, from Python; a clear failure when Debian's python3-msgpack is missing. */
function loadCorpus(): Case[] {
  return pythonOutput(SCRIPT, ["corpus"]).trimEnd().split("\n").map((line) =>
    JSON.parse(line) as Case
  );
}

const corpus = loadCorpus();
const payloads = corpus.map((entry) => base64Bytes(entry.msgpack));

/** Asserts the tool's documents equal the corpus's expected JSON, case by case. */
function assertSameJson(output: string, form: string): void {
  const documents = parseExact(output);
  assert.equal(documents.length, corpus.length, `${form}: one document per payload`);
  corpus.forEach((entry, i) => {
    const [expected] = parseExact(entry.json);
    assert.deepStrictEqual(documents[i], expected, `${form}: ${entry.name}`);
  });
}

describe("Python's msgpack as the producer", () => {
  test("the corpus has every kind of case, plain and tagged", () => {
    assert.ok(corpus.length > 90, `${corpus.length} cases`);
    assert.ok(corpus.filter((entry) => entry.plain).length > 70);
    for (const tag of ["bin", "ext", "timestamp", "map", "float64", "float32"]) {
      assert.ok(
        corpus.some((entry) => entry.json.includes(`{"$msgpack": "${tag}"`)),
        `a case with the ${tag} tag`,
      );
    }
  });

  test("msgpackr decode prints Python's JSON for every payload, pretty and NDJSON", async () => {
    const temp = mkdtempSync(join(tmpdir(), "msgpackr-python-"));
    try {
      const file = join(temp, "corpus.mp");
      writeFileSync(file, concatBytes(payloads));
      const [pretty, ndjson] = await Promise.all([
        runCli(["decode", file]),
        runCli(["decode", "--ndjson", file]),
      ]);
      for (const run of [pretty, ndjson]) {
        assert.equal(run.stderr, "");
        assert.equal(run.code, 0);
      }
      assertSameJson(text(pretty.stdout), "pretty");
      const lines = text(ndjson.stdout).trimEnd().split("\n");
      assert.equal(lines.length, corpus.length, "one line per value");
      assertSameJson(text(ndjson.stdout), "--ndjson");
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });

  test("decodeToJson() of each payload equals Python's JSON (the issue's example too)", () => {
    corpus.forEach((entry, i) => {
      const [expected] = parseExact(entry.json);
      assert.deepStrictEqual(parseExact(decodeToJson(payloads[i]))[0], expected, entry.name);
    });
    const example = payloads[corpus.findIndex((entry) => entry.name === "issue example")];
    assert.equal(
      decodeToJson(example, { ndjson: true }),
      '{"id":5000000000,"name":"Ada","tags":["x","y"],"nested":{"a":1}}\n',
    );
  });

  test("decode --exact | encode gives back every payload byte for byte", async () => {
    corpus.forEach((entry, i) => {
      const json = decodeToJson(payloads[i], { exact: true });
      assert.ok(hex(encodeFromJson(json)) === hex(payloads[i]), entry.name);
    });
    const all = concatBytes(payloads);
    const decoded = await runCli(["decode", "--exact", "--ndjson"], all);
    assert.equal(decoded.code, 0);
    const encoded = await runCli(["encode"], decoded.stdout);
    assert.equal(encoded.code, 0);
    assert.ok(encoded.stdout.length === all.length && encoded.stdout.every((b, i) => b === all[i]));
  });

  test("msgpackr decode --base64 and --hex read Python's payloads as logs show them", async () => {
    const index = corpus.findIndex((entry) => entry.name === "issue example");
    const bytes = payloads[index];
    const wrapped = base64Text(bytes).replace(/.{20}/g, "$&\n");
    const dump = "0x" + hex(bytes).replace(/ /g, "");
    const spaced = hex(bytes).replace(/(.{24}) /g, "$1\n");
    const runs = await Promise.all([
      runCli(["decode", "--ndjson", "--base64"], wrapped),
      runCli(["decode", "--ndjson", "--hex"], dump),
      runCli(["decode", "--ndjson", "--hex"], spaced),
    ]);
    for (const run of runs) {
      assert.equal(run.stderr, "");
      assert.equal(
        text(run.stdout),
        '{"id":5000000000,"name":"Ada","tags":["x","y"],"nested":{"a":1}}\n',
      );
    }
  });

  test("the library decodes Python's payloads and packs values Python reads back equal", async () => {
    class RawExt {
      constructor(readonly type: number, readonly data: Uint8Array) {}
    }
    const types = [1, 5, 100, 127];
    const classes = new Map(types.map((type) => [type, class extends RawExt {}]));
    const unpackr = new Unpackr({ mapsAsObjects: false, int64AsType: "bigint" });
    const packr = new Packr({ useRecords: false });
    for (const [type, Class] of classes) {
      unpackr.addExtension({ type, unpack: (data) => new Class(type, data.slice()) });
      packr.addExtension({ Class, type, pack: (value: RawExt) => value.data });
    }
    const lines: string[] = [];
    let checked = 0;
    corpus.forEach((entry, i) => {
      if (!entry.library) return;
      const value = unpackr.unpack(payloads[i]);
      lines.push(JSON.stringify({ name: entry.name, msgpack: base64Text(packr.pack(value)) }));
      checked++;
    });
    const report = await run(PYTHON, [SCRIPT, "check"], lines.join("\n") + "\n");
    const out = `${new TextDecoder().decode(report.stdout)}\n${report.stderr}`;
    const failures = out.split("\n").filter((line) => !line.startsWith("ok ") && line);
    assert.deepEqual(failures, []);
    assert.equal(report.code, 0);
    assert.equal(out.split("\n").filter((line) => line.startsWith("ok ")).length, checked);
    assert.ok(checked > 90, `${checked} payloads`);
  });

  test("useInt64 reaches Python as int; Uint8Array as bytes, Date as datetime", async () => {
    const at = Date.now();
    const value = {
      at,
      id: 2 ** 53 - 1,
      neg: -(2 ** 40),
      small: 5,
      ratio: 0.5,
      unsafe: 2 ** 53,
      data: new Uint8Array([1, 255]),
      when: new Date(1700000000123),
    };
    const packed = [new Packr({ useRecords: false, useInt64: true }).pack(value), pack(value)];
    const report = await run(PYTHON, [SCRIPT, "types"], packed.map(base64Text).join("\n") + "\n");
    assert.equal(report.code, 0, report.stderr);
    const [withInt64, withFloats] = parseExact(text(report.stdout)).map((line) =>
      Object.fromEntries((line as { members: [string, Exact][] }).members)
    );
    assert.deepStrictEqual(withInt64, {
      at: ["int", BigInt(at)],
      id: ["int", 2n ** 53n - 1n],
      neg: ["int", -(2n ** 40n)],
      small: ["int", 5n],
      ratio: ["float", 0.5],
      // not a safe integer: float64, as without the option
      unsafe: ["float", 2 ** 53],
      data: ["bytes", "01ff"],
      when: ["datetime", "2023-11-14T22:13:20.123000+00:00"],
    });
    // msgpackr's bytes: Python gets floats
    assert.deepStrictEqual(withFloats.at, ["float", at]);
    assert.deepStrictEqual(withFloats.neg, ["float", -(2 ** 40)]);
  });
});
