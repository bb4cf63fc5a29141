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
//   the value it decoded from its own payload (python_corpus.py check says how floats compare).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Packr, Unpackr } from "../mod.ts";
import { decodeToJson, encodeFromJson } from "../cli.ts";
import { concatBytes } from "../_core/bytes.ts";
import { ROOT, runCli, text } from "./_cli.ts";
import { run } from "./_process.ts";
import { hex } from "./_util.ts";

const PYTHON = "/usr/bin/python3";
const SCRIPT = join(ROOT, "tests", "cli", "python_corpus.py");

interface Case {
  name: string;
  msgpack: string;
  json: string;
  plain: boolean;
  library: boolean;
}

function base64Bytes(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

function base64Text(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** The corpus, from Python; a clear failure when Debian's python3-msgpack is missing. */
function loadCorpus(): Case[] {
  assert.ok(
    existsSync(PYTHON),
    `${PYTHON} is missing: these tests need Debian's python3 and python3-msgpack ` +
      "(apt-get install python3-msgpack)",
  );
  let output: string;
  try {
    output = execFileSync(PYTHON, [SCRIPT, "corpus"], {
      encoding: "utf8",
      maxBuffer: 1 << 28,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "");
    assert.fail(
      `${PYTHON} ${SCRIPT} corpus failed (is Debian's python3-msgpack installed?)\n${stderr}`,
    );
  }
  return output.trimEnd().split("\n").map((line) => JSON.parse(line) as Case);
}

const corpus = loadCorpus();
const payloads = corpus.map((entry) => base64Bytes(entry.msgpack));

/** A JSON value with exact numbers: integers as BigInt, objects as their members in order. */
type Exact = null | boolean | bigint | number | string | Exact[] | { members: [string, Exact][] };

/** Parses a sequence of JSON texts into {@linkcode Exact} values (independently of the tool). */
function parseExact(source: string): Exact[] {
  let pos = 0;
  const space = () => {
    while (pos < source.length && " \t\r\n".includes(source[pos])) pos++;
  };
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at ${pos}: ${JSON.stringify(source.slice(pos, pos + 20))}`);
  };
  const value = (): Exact => {
    space();
    const char = source[pos];
    if (char === "{") {
      pos++;
      const members: [string, Exact][] = [];
      space();
      if (source[pos] === "}") {
        pos++;
        return { members };
      }
      for (;;) {
        space();
        const key = value();
        if (typeof key !== "string") fail("expected a key");
        space();
        if (source[pos++] !== ":") fail("expected ':'");
        members.push([key as string, value()]);
        space();
        const next = source[pos++];
        if (next === "}") return { members };
        if (next !== ",") fail("expected ',' or '}'");
      }
    }
    if (char === "[") {
      pos++;
      const items: Exact[] = [];
      space();
      if (source[pos] === "]") {
        pos++;
        return items;
      }
      for (;;) {
        items.push(value());
        space();
        const next = source[pos++];
        if (next === "]") return items;
        if (next !== ",") fail("expected ',' or ']'");
      }
    }
    if (char === '"') {
      const match = /^"(?:[^"\\]|\\.)*"/.exec(source.slice(pos, pos + source.length));
      if (match === null) fail("bad string");
      pos += match![0].length;
      return JSON.parse(match![0]);
    }
    const number = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(source.slice(pos, pos + 400));
    if (number !== null) {
      pos += number[0].length;
      return number[1] === undefined && number[2] === undefined
        ? BigInt(number[0])
        : Number(number[0]);
    }
    for (const [word, result] of [["true", true], ["false", false], ["null", null]] as const) {
      if (source.startsWith(word, pos)) {
        pos += word.length;
        return result;
      }
    }
    return fail("unexpected text");
  };
  const values: Exact[] = [];
  space();
  while (pos < source.length) {
    values.push(value());
    space();
  }
  return values;
}

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
});
