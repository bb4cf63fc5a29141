// Copyright 2026 the @x/msgpackr authors. MIT license.
// Every string the encoder writes is well-formed UTF-8: an unpaired surrogate becomes U+FFFD
// (`ef bf bd`), exactly as `TextEncoder` writes it, whoever writes the bytes (the short path under
// 32 units, the JavaScript writer up to MANUAL_UTF8_MAX, the engine's writer above it), wherever
// the string is (a value, a map key, a record key, the key bytes kept in the shape tree and the
// generated writers, a string bundle, the payload of an extension we write, the CLI's `encode`).
// Python's msgpack, which refuses ill-formed UTF-8, decodes what we write. The decoder still
// reads msgpackr's 3-byte surrogate form as before.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import * as msgpackr from "msgpackr";
import { pack, Packr, Unpackr } from "../mod.ts";
import { decodeToJson, encodeFromJson, inspectBytes } from "../cli.ts";
import { wellFormedInJavaScript } from "../_strings/utf8.ts";
import { MANUAL_UTF8_MAX } from "../_strings/utf8_writer.ts";
import { runCli } from "./_cli.ts";
import { run } from "./_process.ts";
import { asciiText } from "./_corpus.ts";
import { compilesDuring, fromHex, hex } from "./_util.ts";

const encoder = new TextEncoder();

/** The str header for `length` bytes: fixstr, str8, str16 or str32. */
function strHeader(length: number): number[] {
  if (length < 0x20) return [0xa0 | length];
  if (length < 0x100) return [0xd9, length];
  if (length < 0x10000) return [0xda, length >> 8, length & 0xff];
  return [0xdb, length >>> 24, (length >> 16) & 0xff, (length >> 8) & 0xff, length & 0xff];
}

/** `text` as a MessagePack str: the right header, then what `TextEncoder` writes. */
function strBytes(text: string): number[] {
  const utf8 = encoder.encode(text);
  return [...strHeader(utf8.length), ...utf8];
}

/** The same bytes, as hex (for short strings: the assertion shows where they differ). */
function strHex(text: string): string {
  return hex(Uint8Array.from(strBytes(text)));
}

/**
 * Asserts `actual` is `before`, then `text` as a str ({@linkcode strBytes}), then `after`:
 * compared byte by byte, shown as hex only when they differ (hex of long strings is slow).
 */
function assertStr(
  actual: Uint8Array,
  text: string,
  label: string,
  before: number[] = [],
  after: number[] = [],
): void {
  const expected = Uint8Array.from([...before, ...strBytes(text), ...after]);
  if (actual.length === expected.length && actual.every((byte, i) => byte === expected[i])) return;
  assert.equal(hex(actual), hex(expected), label);
}

/** Every lone-surrogate pattern: each unpaired unit becomes one U+FFFD. */
const PATTERNS: readonly [string, string][] = [
  ["a lone high surrogate", "\ud800"],
  ["a lone low surrogate", "\udc00"],
  ["a high surrogate followed by a non-low unit", "\ud83db"],
  ["a reversed pair", "\ude00\ud83d"],
  ["two high surrogates, then a low one", "\ud800\udbff\udc00"],
  ["a pair, then a lone high surrogate", "\u{1F600}\ud83d"],
  ["the last high and the last low surrogate alone", "\udbff\u00e9\udfff"],
];

/**
 * Strings of `length` UTF-16 units holding `pattern` at the start, in the middle and at the end,
 * around ASCII text or around non-ASCII text (so the ASCII run ends before the pattern or not).
 */
function stringsWith(pattern: string, length: number): string[] {
  const rest = Math.max(0, length - pattern.length);
  const strings = new Set<string>();
  for (const fill of [asciiText, (n: number) => "\u00e9\u20ac".repeat(n).slice(0, n)]) {
    const text = fill(rest);
    const half = rest >> 1;
    strings.add(pattern + text);
    strings.add(text.slice(0, half) + pattern + text.slice(half));
    strings.add(text + pattern);
  }
  return [...strings];
}

/** UTF-16 lengths across every writer and header boundary. */
const LENGTHS = [
  ...Array.from({ length: 70 }, (_, i) => i + 1), // 1..31 short, 32..63 JS / engine, 64..70
  100,
  127,
  128,
  255,
  256,
  1000,
  21845,
  21846, // 3 bytes a unit: str16 / str32 around here
  65535,
  65536,
  70000,
];

/** Every test string: each pattern at each length (the long ones once per pattern). */
function allStrings(): string[] {
  const strings: string[] = [];
  for (const [, pattern] of PATTERNS) {
    for (const length of LENGTHS) {
      const made = stringsWith(pattern, length);
      strings.push(...(length > 1000 ? made.slice(0, 2) : made));
    }
  }
  return strings;
}

const STRINGS = allStrings();
const SHORT = STRINGS.filter((text) => text.length < 0x20);

/** Whether every str payload of `bytes` is well-formed: a fatal decoder decodes it all. */
const strict = new Unpackr({ fatal: true, useRecords: false, mapsAsObjects: false });

describe("well-formed UTF-8 in values", () => {
  test("the writers' threshold is between the short path and the engine", () => {
    assert.ok(MANUAL_UTF8_MAX >= 31 && MANUAL_UTF8_MAX < 70, "the lengths above cross it");
  });

  for (const [name, pattern] of PATTERNS) {
    test(`${name} is U+FFFD, as TextEncoder writes it, at every length and writer`, () => {
      const packr = new Packr({ useRecords: false });
      const records = new Packr();
      const buffered = new Packr({ useRecords: false });
      // a small buffer used from where the last pack ended: packs outgrow it mid-string
      buffered.useBuffer(new Uint8Array(300).subarray(5));
      for (const length of LENGTHS) {
        for (const text of stringsWith(pattern, length)) {
          const label = `${text.length} units`;
          assertStr(pack(text), text, label);
          assertStr(packr.pack(text), text, label);
          assertStr(records.pack(text), text, label);
          assertStr(buffered.pack(text), text, label);
          // in an array (its own string loop) and as a map value
          assertStr(pack([text, 1]), text, label, [0x92], [1]);
          assertStr(pack({ v: text }), text, label, [0xde, 0, 1, 0xa1, 0x76]);
          assert.equal(strict.unpack(pack(text)), text.toWellFormed(), label);
        }
      }
    });
  }

  test("a well-formed string keeps its bytes: pairs at every offset stay 4-byte sequences", () => {
    for (const length of [1, 2, 3, 4, 5, 30, 31, 32, 33, 62, 63, 64, 65, 300]) {
      for (let at = 0; at <= length; at += Math.max(1, length >> 2)) {
        const ascii = asciiText(length);
        const text = ascii.slice(0, at) + "\u{10FFFF}\u{1F600}" + ascii.slice(at);
        assertStr(pack(text), text, `${length} units`);
        assert.equal(text.toWellFormed(), text);
      }
    }
  });

  test("random strings of any UTF-16 units are written as TextEncoder writes them", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 120 }), (text) => {
        assertStr(pack(text), text, JSON.stringify(text));
      }),
      { numRuns: 2000, seed: 52 },
    );
  });

  test("strings of extensions we write: Error, RegExp, Set, a custom extension", () => {
    class Tagged {
      constructor(readonly text: string) {}
    }
    for (const moreTypes of [false, true]) {
      const packr = new Packr({ moreTypes, useRecords: false });
      packr.addExtension({
        Class: Tagged,
        type: 52,
        write: (value: Tagged) => [value.text],
        read: (data) => new Tagged((data as string[])[0]),
      });
      for (const text of SHORT) {
        const error = new Error(text);
        error.name = text;
        // [name, message, cause]: the cause is undefined (d4 00 00)
        const expectedError = [0x93, ...strBytes(text), ...strBytes(text), 0xd4, 0, 0];
        const errorBytes = packr.pack(error);
        assert.equal(
          hex(errorBytes),
          hex(Uint8Array.from(
            moreTypes ? [0xd4, 0x65, 0, ...expectedError] : expectedError,
          )),
        );
        const set = packr.pack(new Set([text]));
        assert.equal(
          hex(set),
          hex(Uint8Array.from([...(moreTypes ? [0xd4, 0x73, 0] : []), 0x91, ...strBytes(text)])),
        );
        const tagged = packr.pack(new Tagged(text));
        assert.equal(hex(tagged), hex(Uint8Array.from([0xd4, 52, 0, 0x91, ...strBytes(text)])));
      }
    }
    // a RegExp's source: a lone surrogate is an atom of a pattern
    const regExp = new RegExp("a\ud800|\udc00");
    const bytes = new Packr({ moreTypes: true }).pack(regExp);
    assert.equal(
      hex(bytes),
      hex(Uint8Array.from([0xd4, 0x78, 0, 0x92, ...strBytes(regExp.source), 0xa0])),
    );
  });
});

describe("well-formed UTF-8 in keys", () => {
  const keys = [...SHORT, ...STRINGS.filter((text) => text.length >= 32 && text.length < 300)];

  test("object keys: pack(), useRecords: false, variableMapSize, Map keys", () => {
    const maps = new Packr({ useRecords: false });
    const variable = new Packr({ useRecords: false, variableMapSize: true });
    for (const key of keys) {
      const value = { [key]: 1 };
      const keyHex = strHex(key);
      // twice: the second copies the key's bytes kept in the shape tree
      for (let round = 0; round < 2; round++) {
        assert.equal(hex(pack(value)), `de 00 01 ${keyHex} 01`);
        assert.equal(hex(maps.pack(value)), `de 00 01 ${keyHex} 01`);
        assert.equal(hex(variable.pack(value)), `81 ${keyHex} 01`);
        assert.equal(hex(maps.pack(new Map([[key, key]]))), `81 ${keyHex} ${keyHex}`);
      }
    }
  });

  test("record keys: inline definitions and shared structures", () => {
    for (const key of keys) {
      const keyHex = strHex(key);
      // an inline definition: d4 72 40, the keys array, then the values
      assert.equal(hex(new Packr().pack({ [key]: 1 })), `d4 72 40 91 ${keyHex} 01`);
      const structures: string[][] = [];
      const shared = new Packr({ structures });
      assert.equal(hex(shared.pack({ [key]: 2 })), "40 02");
      // the table holds the key as given; packing the table (as a store might) writes U+FFFD
      assert.deepEqual(structures, [[key]]);
      assert.equal(hex(pack(structures)), `91 91 ${keyHex}`);
    }
  });

  test("generated writers (a shape written four times and more) copy well-formed key bytes", () => {
    // keys under 32 units get writers: plain maps (useRecords: false) and records
    const shortKeys = SHORT.filter((key) => key !== "");
    for (let i = 0; i < shortKeys.length; i += 3) {
      const names = shortKeys.slice(i, i + 3);
      if (new Set(names).size !== names.length) continue;
      const rows = Array.from(
        { length: 20 },
        (_, n) => Object.fromEntries(names.map((name, k) => [name, n * 3 + k])),
      );
      const entries = (n: number) =>
        names.map((name, k) => `${strHex(name)} ${hexByte(n * 3 + k)}`);
      const expectedMaps = `dc 00 14 ${
        rows.map((_, n) => `de 00 ${hexByte(names.length)} ${entries(n).join(" ")}`).join(" ")
      }`;
      const maps = new Packr({ useRecords: false });
      for (let round = 0; round < 3; round++) {
        const { result, compiles } = compilesDuring(() => maps.pack(rows));
        assert.equal(hex(result), expectedMaps, JSON.stringify(names));
        if (round === 0) assert.ok(compiles > 0, "the shape got a generated writer");
        assert.equal(hex(pack(rows)), expectedMaps);
      }
      const records = new Packr();
      const definition = `d4 72 40 9${names.length} ${names.map(strHex).join(" ")}`;
      const values = (n: number) => names.map((_, k) => hexByte(n * 3 + k)).join(" ");
      const expectedRecords = `dc 00 14 ${definition} ${values(0)} ${
        rows.slice(1).map((_, n) => `40 ${values(n + 1)}`).join(" ")
      }`;
      for (let round = 0; round < 3; round++) {
        assert.equal(hex(records.pack(rows)), expectedRecords, JSON.stringify(names));
      }
    }
  });

  test("the decoder of a well-formed key reads it back as U+FFFD, the same key each time", () => {
    const packr = new Packr({ useRecords: false });
    const rows = Array.from({ length: 8 }, (_, n) => ({ "\ud800": n, "a\udc00": n }));
    const decoded = strict.unpack(packr.pack(rows)) as Map<string, number>[];
    for (const [n, row] of decoded.entries()) {
      assert.deepEqual([...row], [["\ufffd", n], ["a\ufffd", n]]);
    }
  });
});

/** A byte as two hex digits. */
function hexByte(value: number): string {
  return value.toString(16).padStart(2, "0");
}

describe("well-formed UTF-8 in string bundles", () => {
  test("each string is made well-formed before it joins the bundle", () => {
    // a lone high surrogate ending one string, a lone low one opening the next: joined as they
    // are they would make a pair, and the decoder (which slices by UTF-16 length) would give
    // back both surrogates
    const values = ["abcd\ud800", "\udc00efgh", "ijk\ud83d", "\ude00lmn", "opqr\udbff"];
    const bytes = new Packr({ bundleStrings: true }).pack(values);
    const expected = values.map((text) => text.toWellFormed());
    assert.deepEqual(strict.unpack(bytes), expected);
    assert.deepEqual(new Unpackr().unpack(bytes), expected);
    assert.deepEqual(new msgpackr.Unpackr().unpack(bytes), expected);
    // the bundle's non-ASCII string: what TextEncoder writes for the well-formed strings joined
    const joined = strHex(expected.join(""));
    assert.ok(hex(bytes).includes(joined), hex(bytes));
    assert.ok(!/ed [ab][0-9a-f]/.test(hex(bytes)), "no 3-byte surrogate form");
  });

  test("bundled strings of every pattern and length round trip as well-formed text", () => {
    const values = STRINGS.filter((text) => text.length < 0x1000);
    for (const useRecords of [true, false]) {
      const packr = new Packr({ bundleStrings: true, useRecords });
      const bytes = packr.pack(values.map((text) => ({ text, next: text })));
      const decoded = new Unpackr({ fatal: true, mapsAsObjects: true }).unpack(bytes) as {
        text: string;
      }[];
      assert.deepEqual(
        decoded.map((row) => row.text),
        values.map((text) => text.toWellFormed()),
      );
    }
  });

  test("the fallback without String.prototype.toWellFormed gives the same strings", () => {
    for (const text of STRINGS) assert.equal(wellFormedInJavaScript(text), text.toWellFormed());
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (text) => {
        assert.equal(wellFormedInJavaScript(text), text.toWellFormed());
      }),
      { numRuns: 5000, seed: 52 },
    );
    const same = "no surrogate here: \u00e9\u{1F600}";
    assert.equal(wellFormedInJavaScript(same), same);
  });
});

describe("well-formed UTF-8 for other implementations", () => {
  test("Python's msgpack (raw=False, which refuses ill-formed UTF-8) decodes our strings", async () => {
    const values: unknown[] = STRINGS.filter((text) => text.length <= 1000);
    const objects = values.filter((text) => (text as string).length < 40)
      .map((text) => ({ [text as string]: text, k: [text] }));
    const packr = new Packr({ useRecords: false });
    const stream = [...values, ...objects].map((value) => packr.pack(value));
    // one value a line: Python decodes each and prints it as JSON with \u escapes
    const script = [
      "import json, sys, msgpack",
      "for line in sys.stdin.buffer.read().split(b'\\n'):",
      "    if line:",
      "        value = msgpack.unpackb(bytes.fromhex(line.decode()), raw=False)",
      "        print(json.dumps(value, ensure_ascii=True))",
    ].join("\n");
    const input = stream.map((bytes) => hex(bytes).replaceAll(" ", "")).join("\n");
    const { code, stdout, stderr } = await run("/usr/bin/python3", ["-c", script], input);
    assert.equal(code, 0, stderr);
    const lines = new TextDecoder().decode(stdout).trimEnd().split("\n");
    assert.equal(lines.length, stream.length);
    const expected = [...values, ...objects].map((value) =>
      JSON.parse(
        JSON.stringify(value, (_, item) => typeof item === "string" ? item.toWellFormed() : item),
      )
    );
    // object keys too: JSON.stringify's replacer sees values only
    const wellFormedKeys = (value: unknown): unknown =>
      value !== null && typeof value === "object" && !Array.isArray(value)
        ? Object.fromEntries(
          Object.entries(value).map(([key, item]) => [key.toWellFormed(), wellFormedKeys(item)]),
        )
        : value;
    lines.forEach((line, i) => assert.deepEqual(JSON.parse(line), wellFormedKeys(expected[i])));
    // and msgpackr's short form is what Python refuses
    const refused = await run(
      "/usr/bin/python3",
      ["-c", "import sys, msgpack; msgpack.unpackb(bytes.fromhex(sys.stdin.read()), raw=False)"],
      hex(msgpackr.pack("\ud800")).replaceAll(" ", ""),
    );
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /UnicodeDecodeError|surrogates not allowed/);
  });
});

describe("the command line tool", () => {
  test("encode writes JSON's lone surrogates (\\ud800 escapes) as U+FFFD", async () => {
    const json = '["\\ud800", {"a\\udc00": "x\\ud83dy"}, "' + asciiText(70) + '\\udfff"]';
    const value = JSON.parse(json);
    const expected = hex(pack(value));
    assert.ok(expected.includes(strHex("a\ufffd")));
    assert.equal(hex(encodeFromJson(json, {})), expected);
    const { code, stdout, stderr } = await runCli(["encode"], json);
    assert.equal(code, 0, stderr);
    assert.equal(hex(stdout), expected);
  });

  test("decode --exact | encode gives back msgpackr's 3-byte surrogate form byte for byte", () => {
    const theirs = msgpackr.pack(["\ud800", { "k\udc00": "\ude00\ud83d" }, "ok"]);
    assert.ok(hex(theirs).includes("ed a0 80"));
    const json = decodeToJson(theirs, { exact: true });
    assert.equal(hex(encodeFromJson(json, {})), hex(theirs));
    // shown for what it is
    assert.match(inspectBytes(msgpackr.pack("\ud800")).text, /\(lone surrogate\)/);
  });
});

describe("the decoder reads msgpackr's surrogate bytes as before", () => {
  test("the 3-byte form decodes as TextDecoder decodes it (three U+FFFD), or fails when fatal", () => {
    for (const length of [1, 20, 40, 63]) {
      const text = asciiText(length - 1) + "\ud800";
      const theirs = msgpackr.pack(text);
      assert.ok(hex(theirs).endsWith("ed a0 80"), `${length} units`);
      assert.equal(new Unpackr().unpack(theirs), asciiText(length - 1) + "\ufffd\ufffd\ufffd");
      assert.throws(() => strict.unpack(theirs), /Invalid UTF-8/);
      // ours, for the same string: one U+FFFD
      assert.equal(new Unpackr().unpack(pack(text)), asciiText(length - 1) + "\ufffd");
    }
    assert.equal(new Unpackr().unpack(fromHex("a3 ed a0 80")), "\ufffd\ufffd\ufffd");
    assert.equal(new Unpackr().unpack(fromHex("a3 ef bf bd")), "\ufffd");
  });
});
