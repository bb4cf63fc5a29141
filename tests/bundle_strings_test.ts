// Copyright 2026 the @x/msgpackr authors. MIT license.
// bundleStrings (ext "b", 0x62; docs/wire-format.md, "Bundled strings"): strings of 4..4095 UTF-16
// units are written as `c1` + a count and gathered into two bundle strings per bundle (non-ASCII,
// ASCII), so a decoder needs one TextDecoder call per bundle string. Below 64 KiB per bundle our
// bytes are msgpackr's bytes; above, msgpackr's ext16 length wraps and its output is corrupt, so we
// write ext32, which msgpackr reads.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { DecodeError, Packr, type PackrOptions, unpack, unpackMultiple, Unpackr } from "../mod.ts";
import { fromHex, hex } from "./_util.ts";
import { concat, ourUnpack, packBoth, random, sameBytes, theirUnpack } from "./_types_util.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const BUNDLES = { bundleStrings: true, useRecords: false } as const;
const BUNDLED_RECORDS = { bundleStrings: true } as const;

/** Our bytes equal msgpackr's, and both decoders give `value` back. */
function identicalAndReadable(
  value: unknown,
  options: PackrOptions,
  decode: PackrOptions = options,
): Uint8Array {
  const { ours, theirs } = packBoth(value, options);
  assert.equal(hex(ours), hex(theirs));
  assert.deepEqual(ourUnpack(ours, decode), value);
  assert.deepEqual(theirUnpack(ours, decode), value);
  return ours;
}

/** `count` strings from `alphabet` (code points), each `minLength..maxLength` UTF-16 units. */
function strings(
  next: () => number,
  count: number,
  minLength: number,
  maxLength: number,
  alphabet: (next: () => number) => string,
): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const length = minLength + Math.floor(next() * (maxLength - minLength + 1));
    let text = "";
    while (text.length < length) {
      const char = alphabet(next);
      if (text.length + char.length > length) break;
      text += char;
    }
    while (text.length < length) text += "x";
    out.push(text);
  }
  return out;
}

/** CJK ideographs (3 UTF-8 bytes), Hangul, and emoji (surrogate pairs, 4 bytes). */
function cjkAndEmoji(next: () => number): string {
  const roll = next();
  if (roll < 0.6) return String.fromCodePoint(0x4e00 + Math.floor(next() * 0x5200));
  if (roll < 0.75) return String.fromCodePoint(0xac00 + Math.floor(next() * 0x2ba4));
  return String.fromCodePoint(0x1f300 + Math.floor(next() * 0x300));
}

describe("bundleStrings bytes", () => {
  test("Packr.pack() writes the bundled strings example exactly (useRecords: false)", () => {
    const value = ["abcd", "héllo", "xy", "efgh"];
    assert.equal(
      sameBytes(value, BUNDLES),
      "94 d6 62 00 00 00 0d c1 04 c1 fb a2 78 79 c1 04 a6 68 c3 a9 6c 6c 6f " +
        "a8 61 62 63 64 65 66 67 68",
    );
    identicalAndReadable(value, BUNDLES);
  });

  test("Packr.pack() writes the bundled records example exactly: the opener sits in the keys", () => {
    const value = [{ name: "abcd" }, { name: "efgh" }];
    assert.equal(
      sameBytes(value, BUNDLED_RECORDS),
      "92 d4 72 40 91 d6 62 00 00 00 0b c1 04 c1 04 40 c1 04 a0 " +
        "ac 6e 61 6d 65 61 62 63 64 65 66 67 68",
    );
    identicalAndReadable(value, BUNDLED_RECORDS, { mapsAsObjects: true });
  });

  test("Packr.pack() bundles only strings of 4..4095 UTF-16 units", () => {
    const value = ["abc", "abcd", "x".repeat(4095), "y".repeat(4096)];
    const bytes = fromHex(sameBytes(value, BUNDLES));
    // "abc" is a fixstr before the bundle opens; "abcd" opens it; 4096 units are a str16
    assert.equal(hex(bytes.subarray(0, 17)), "94 a3 61 62 63 d6 62 00 00 10 0d c1 04 c1 cd 0f ff");
    assert.equal(hex(bytes.subarray(17, 20)), "da 10 00");
    assert.deepEqual(unpack(bytes), value);
    assert.deepEqual(msgpackr.unpack(bytes), value);
  });

  test("Packr.pack() bundles map keys and writes no bundle without an eligible string", () => {
    const value = { long_key_name: "value string", k: 1 };
    assert.equal(
      sameBytes(value, BUNDLES),
      "de 00 02 d6 62 00 00 00 0b c1 0d c1 0c a1 6b 01 a0 " +
        "b9 6c 6f 6e 67 5f 6b 65 79 5f 6e 61 6d 65 76 61 6c 75 65 20 73 74 72 69 6e 67",
    );
    identicalAndReadable(value, BUNDLES);
    assert.equal(sameBytes([1, 2, "abc"], BUNDLES), "93 01 02 a3 61 62 63");
  });

  test("Packr.pack() does not bundle a top-level string", () => {
    assert.equal(
      sameBytes("top level string", BUNDLES),
      "b0 74 6f 70 20 6c 65 76 65 6c 20 73 74 72 69 6e 67",
    );
  });

  test("Packr.pack() opens a new bundle after 0x5500 units with an ext16 opener (msgpackr's bytes)", () => {
    const next = random(11);
    const value = [
      ...strings(next, 900, 4, 60, () => "abcdefghij"[Math.floor(next() * 10)]),
      ...strings(next, 900, 4, 60, () => "àéîõü日本"[Math.floor(next() * 7)]),
    ];
    const bytes = identicalAndReadable(value, BUNDLES);
    // two later-bundle openers: "c8 LL LL 62"
    const openers = hex(bytes).match(/c8 .. .. 62/g) ?? [];
    assert.ok(openers.length >= 2, `${openers.length} later bundles`);
  });

  test("Packr.pack() with records and several bundles writes msgpackr's bytes", () => {
    const next = random(12);
    const names = strings(next, 2000, 4, 40, () => "abcdefgh"[Math.floor(next() * 8)]);
    const cities = strings(next, 2000, 4, 20, () => "zürichköln東京"[Math.floor(next() * 12)]);
    const value = names.map((name, i) => ({ id: i, name, city: cities[i], short: "ab" }));
    identicalAndReadable(value, BUNDLED_RECORDS, { mapsAsObjects: true });
  });

  test("Packr.pack() with bundleStrings and structuredClone writes msgpackr's bytes", () => {
    const shared = { label: "shared label" };
    const value: Any = { a: shared, b: [shared, "bundled string", "ünïcödé"], c: shared };
    value.self = value;
    const options = { bundleStrings: true, structuredClone: true } as const;
    const bytes = fromHex(sameBytes(value, options));
    for (const copy of [ourUnpack(bytes), theirUnpack(bytes)]) {
      assert.equal(copy.self, copy);
      assert.equal(copy.a, copy.c);
      assert.equal(copy.b[0], copy.a);
      assert.deepEqual(copy.b.slice(1), ["bundled string", "ünïcödé"]);
    }
  });
});

describe("bundleStrings sequential mode", () => {
  const messages = [
    { name: "alice smith", city: "Zürich" },
    { name: "bob jones", city: "Köln", tags: ["x", "long tag"] },
    { name: "carol", city: "Paris" },
    "a top-level string",
    [{ name: "dave", city: "東京都" }, { name: "erin", city: "Oslo" }],
  ];

  test("Packr({ sequential, bundleStrings }) writes msgpackr's bytes message by message", () => {
    const ours = new Packr({ sequential: true, bundleStrings: true });
    const theirs = new msgpackr.Packr({ sequential: true, bundleStrings: true });
    const expected = [
      "d4 72 40 92 d6 62 00 00 00 0c c1 04 c1 04 c1 0b c1 fa a7 5a c3 bc 72 69 63 68 " +
      "b3 6e 61 6d 65 63 69 74 79 61 6c 69 63 65 20 73 6d 69 74 68",
    ];
    const bytes = messages.map((message) => ours.pack(message));
    assert.equal(hex(bytes[0]), expected[0]);
    for (let i = 0; i < messages.length; i++) {
      assert.equal(hex(bytes[i]), hex(theirs.pack(messages[i])), `message ${i}`);
    }
  });

  test("unpackMultiple() reads a stream of sequential bundled messages", () => {
    const packr = new Packr({ sequential: true, bundleStrings: true });
    const stream = concat(messages.map((message) => packr.pack(message)));
    const expected = messages.map((message) =>
      Array.isArray(message) ? message.map((item) => ({ ...item })) : message
    );
    assert.deepEqual(unpackMultiple(stream), expected);
    assert.deepEqual(new Unpackr({ sequential: true }).unpackMultiple(stream), expected);
    assert.deepEqual(msgpackr.unpackMultiple(stream), expected);
    // message by message with one sequential decoder
    const unpackr = new Unpackr({ sequential: true });
    const one = new Packr({ sequential: true, bundleStrings: true });
    for (const message of messages) {
      assert.deepEqual(unpackr.unpack(one.pack(message)), message);
    }
  });

  test("Unpackr.unpackMultiple() reads msgpackr's sequential bundled messages", () => {
    const theirs = new msgpackr.Packr({ sequential: true, bundleStrings: true });
    const stream = concat(messages.map((message) => new Uint8Array(theirs.pack(message))));
    assert.deepEqual(new Unpackr({ sequential: true }).unpackMultiple(stream), messages);
    // byte ranges: each value ends where the next message begins
    const ends: number[] = [];
    unpackMultiple(stream, (_value, _start, end) => ends.push(end));
    assert.equal(ends.at(-1), stream.length);
    assert.equal(ends.length, messages.length);
  });
});

describe("bundleStrings over 64 KiB", () => {
  // 8 strings of 4000 "€" (12,000 bytes each) fill a bundle far beyond 64 KiB
  const euros = Array.from({ length: 8 }, (_, i) => "€".repeat(4000 - i));
  const value = [...euros, "tail string", ...euros.map((text) => text + "!")];

  test("Packr.pack() writes an ext32 opener that our decoder and msgpackr's read", () => {
    const bytes = new Packr(BUNDLES).pack(value);
    // ext32 with a payload of 0x1xxxx bytes
    assert.ok(/c9 00 01 .. .. 62/.test(hex(bytes)));
    assert.deepEqual(unpack(bytes), value);
    assert.deepEqual(msgpackr.unpack(bytes), value);
    const records = new Packr(BUNDLED_RECORDS).pack(value.map((text) => ({ text })));
    assert.deepEqual(
      msgpackr.unpack(records),
      value.map((text) => ({ text })),
    );
    assert.deepEqual(unpack(records), value.map((text) => ({ text })));
  });

  test("msgpackr's own bytes for the same value are corrupt (the bug we fix)", () => {
    const theirs = new Uint8Array(new msgpackr.Packr({ ...BUNDLES }).pack(value));
    let roundTrips = false;
    try {
      roundTrips = JSON.stringify(msgpackr.unpack(theirs)) === JSON.stringify(value);
    } catch {
      roundTrips = false;
    }
    assert.equal(roundTrips, false);
    // the 16-bit length wrapped: our decoder rejects the bytes instead of returning garbage
    assert.throws(() => unpack(theirs), DecodeError);
  });

  test("Packr.pack() writes msgpackr's ext16 opener when a bundle just fits in 64 KiB", () => {
    // 218 strings of 100 three-byte units: 65,400 bytes of strings in the first bundle
    const fits = Array.from({ length: 300 }, () => "日".repeat(100));
    const bytes = identicalAndReadable(fits, BUNDLES);
    assert.ok(/^dc 01 2c d6 62 .. .. .. .. c1 d0 9c/.test(hex(bytes.subarray(0, 12))));
    // payload: 4-byte field, da + 65,400 bytes, a0 (no ASCII strings) = 0xff80
    assert.ok(/c8 ff 80 62/.test(hex(bytes)));
  });

  test("Packr.pack() writes ext16 when the size estimate is over 64 KiB but the bundle is not", () => {
    // 25,795 units of two-byte "é": estimated at 3 bytes a unit (> 64 KiB), 51,590 bytes in fact
    const value = ["é".repeat(4095), ...Array.from({ length: 300 }, () => "é".repeat(100))];
    const bytes = identicalAndReadable(value, BUNDLES);
    assert.ok(/c8 .. .. 62/.test(hex(bytes)));
    assert.ok(!/c9 .. .. .. .. 62/.test(hex(bytes)));
  });
});

describe("bundleStrings 1 MiB of CJK and emoji", () => {
  test("Packr.pack() packs 1 MiB of long CJK and emoji strings that both decoders read", () => {
    const next = random(2026);
    const texts: string[] = [];
    let bytes = 0;
    while (bytes < 1024 * 1024) {
      const [text] = strings(next, 1, 4, 4095, cjkAndEmoji);
      texts.push(text);
      bytes += new TextEncoder().encode(text).length;
    }
    const value = texts.map((text, i) => ({ i, text, ascii: `ascii ${i}` }));
    const packed = new Packr(BUNDLED_RECORDS).pack(value);
    assert.ok(packed.length > 1024 * 1024);
    assert.deepEqual(ourUnpack(packed, { mapsAsObjects: true }), value);
    assert.deepEqual(msgpackr.unpack(packed), value);
    const plainPacked = new Packr(BUNDLES).pack(texts);
    assert.deepEqual(unpack(plainPacked), texts);
    assert.deepEqual(msgpackr.unpack(plainPacked), texts);
  });

  test("unpack() reads msgpackr's 1 MiB bundled output where msgpackr's bundles stay valid", () => {
    // strings of 100 units keep every bundle under 64 KiB, so msgpackr's bytes are valid
    const next = random(7);
    const texts = strings(next, 4200, 100, 100, cjkAndEmoji);
    const { ours, theirs } = packBoth(texts, BUNDLES);
    assert.ok(theirs.length > 1024 * 1024);
    assert.equal(hex(ours), hex(theirs));
    assert.deepEqual(unpack(theirs), texts);
    assert.deepEqual(msgpackr.unpack(theirs), texts);
  });
});

describe("bundleStrings decoding errors", () => {
  test("unpack() rejects bundle strings that are not strings", () => {
    // the field points at 0x01 instead of a str
    assert.throws(
      () => unpack(fromHex("91 d6 62 00 00 00 06 c1 04 01 a0")),
      (error: unknown) => error instanceof DecodeError && /^Expected string/.test(error.message),
    );
  });

  test("unpack() rejects a bundled string beyond its bundle", () => {
    // c1 05 asks for 5 units of the 4-unit ASCII bundle
    assert.throws(
      () => unpack(fromHex("91 d6 62 00 00 00 06 c1 05 a0 a4 61 62 63 64")),
      DecodeError,
    );
    assert.deepEqual(unpack(fromHex("91 d6 62 00 00 00 06 c1 04 a0 a4 61 62 63 64")), ["abcd"]);
  });
});
