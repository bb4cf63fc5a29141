// Copyright 2026 the @x/msgpackr authors. MIT license.
// Strings decode exactly as `TextDecoder` (fatal: false, ignoreBOM: true) decodes their bytes:
// every ill-formed sequence (overlong forms, surrogates, code points past U+10FFFF, truncated
// sequences, stray continuation bytes) becomes U+FFFD per maximal subpart, in the JavaScript
// decoder (`decodeUtf8`, short strings) and through every decoder path: fixstr, str8, str16,
// `TextDecoder` for longer strings, the key cache, record keys, Map keys and string bundles.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { DecodeError, IncompleteDataError, pack, Packr, unpack, Unpackr } from "../../mod.ts";
import { decodeUtf8 } from "../../_strings/utf8.ts";
import { EAGER_VIEW_MIN_INPUT } from "../../_core/thresholds.ts";
import { mulberry32 } from "../../fuzz/_fuzz.ts";
import { bytesOf } from "../_hostile.ts";
import { encodeArray, strOf } from "../_util.ts";

const reference = new TextDecoder("utf-8", { ignoreBOM: true });

/** Code units as hex, for readable failures. */
function units(text: string): string {
  return Array.from(text, (c) => c.codePointAt(0)!.toString(16)).join(" ");
}

function hexOf(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(" ");
}

/** Asserts decodeUtf8 equals TextDecoder for `bytes[start, end)` (failures name the bytes). */
function assertSame(bytes: Uint8Array, start = 0, end = bytes.length): void {
  const ours = decodeUtf8(bytes, start, end);
  const theirs = reference.decode(bytes.subarray(start, end));
  if (ours !== theirs) {
    assert.fail(
      `${hexOf(bytes.subarray(start, end))}: decodeUtf8 gives ${units(ours)}, TextDecoder ${
        units(theirs)
      }`,
    );
  }
}

describe("decodeUtf8() equals TextDecoder", () => {
  test("decodeUtf8() decodes the documented ill-formed sequences to one U+FFFD per maximal subpart", () => {
    const cases: [string, string][] = [
      ["c0 af", "\ufffd\ufffd"], // overlong "/" (msgpackr #177)
      ["e0 80 af", "\ufffd\ufffd\ufffd"], // overlong 3-byte
      ["ed a0 80", "\ufffd\ufffd\ufffd"], // UTF-16 surrogate D800 in UTF-8
      ["ed bf bf", "\ufffd\ufffd\ufffd"], // surrogate DFFF
      ["f0 80 80 80", "\ufffd\ufffd\ufffd\ufffd"], // overlong 4-byte
      ["f4 90 80 80", "\ufffd\ufffd\ufffd\ufffd"], // past U+10FFFF
      ["f5 80 80 80", "\ufffd\ufffd\ufffd\ufffd"], // lead byte never valid
      ["e2 82", "\ufffd"], // truncated "€": one U+FFFD for the valid prefix
      ["e2 82 41", "\ufffdA"], // cut by an ASCII byte, which is kept
      ["f0 9f 98", "\ufffd"], // truncated emoji
      ["f0 9f 98 41", "\ufffdA"],
      ["80 bf", "\ufffd\ufffd"], // stray continuation bytes
      ["c2", "\ufffd"],
      ["ef bb bf 41", "\ufeffA"], // a BOM is kept (ignoreBOM)
      ["f4 8f bf bf", "\u{10ffff}"],
      ["ed 9f bf", "\ud7ff"],
      ["ee 80 80", "\ue000"],
    ];
    for (const [text, expected] of cases) {
      const bytes = bytesOf(text);
      assert.equal(units(decodeUtf8(bytes, 0, bytes.length)), units(expected), text);
      assert.equal(units(reference.decode(bytes)), units(expected), `TextDecoder ${text}`);
    }
  });

  test("decodeUtf8() equals TextDecoder for every 1- and 2-byte sequence", () => {
    const bytes = new Uint8Array(2);
    for (let a = 0; a < 256; a++) {
      bytes[0] = a;
      assertSame(bytes, 0, 1);
      for (let b = 0; b < 256; b++) {
        bytes[1] = b;
        assertSame(bytes);
      }
    }
  });

  test("decodeUtf8() equals TextDecoder for every 3-byte sequence starting e0..ef", () => {
    const bytes = new Uint8Array(3 * 65536);
    for (let lead = 0xe0; lead <= 0xef; lead++) {
      for (let i = 0; i < 65536; i++) bytes.set([lead, i >> 8, i & 0xff], i * 3);
      for (let i = 0; i < 65536; i++) {
        const start = i * 3;
        if (
          decodeUtf8(bytes, start, start + 3) !== reference.decode(bytes.subarray(start, start + 3))
        ) {
          assertSame(bytes, start, start + 3);
        }
      }
    }
  });

  test("decodeUtf8() equals TextDecoder for 4-byte sequences f0..f4 (all second and third bytes, boundary fourth bytes)", () => {
    const fourth = [0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0xbf, 0xc0, 0xc2, 0xe0, 0xf0, 0xff];
    const bytes = new Uint8Array(4 * 65536);
    for (let lead = 0xf0; lead <= 0xf4; lead++) {
      for (const last of fourth) {
        for (let i = 0; i < 65536; i++) bytes.set([lead, i >> 8, i & 0xff, last], i * 4);
        for (let i = 0; i < 65536; i++) {
          const start = i * 4;
          if (
            decodeUtf8(bytes, start, start + 4) !==
              reference.decode(bytes.subarray(start, start + 4))
          ) {
            assertSame(bytes, start, start + 4);
          }
        }
      }
    }
  });

  test("decodeUtf8() equals TextDecoder for 200000 random byte strings", () => {
    const random = mulberry32(0x5eed);
    const pool = [
      0x00,
      0x41,
      0x7f,
      0x80,
      0x8f,
      0x90,
      0x9f,
      0xa0,
      0xbf,
      0xc0,
      0xc1,
      0xc2,
      0xdf,
      0xe0,
      0xed,
      0xef,
      0xf0,
      0xf4,
      0xf5,
      0xff,
    ];
    const bytes = new Uint8Array(80);
    for (let n = 0; n < 200000; n++) {
      const length = Math.floor(random() * (n % 10 === 0 ? 80 : 12));
      const kind = n % 3;
      for (let i = 0; i < length; i++) {
        bytes[i] = kind === 0
          ? Math.floor(random() * 256)
          : kind === 1
          ? pool[Math.floor(random() * pool.length)]
          : 0x80 + Math.floor(random() * 0x80); // only non-ASCII bytes
      }
      if (decodeUtf8(bytes, 0, length) !== reference.decode(bytes.subarray(0, length))) {
        assertSame(bytes, 0, length);
      }
    }
  });

  test("decodeUtf8() decodes well-formed text of every plane as TextEncoder wrote it", () => {
    const random = mulberry32(77);
    for (let n = 0; n < 20000; n++) {
      let text = "";
      const length = 1 + Math.floor(random() * 20);
      for (let i = 0; i < length; i++) {
        let code = Math.floor(random() * 0x110000);
        if (code >= 0xd800 && code < 0xe000) code = 0xfffd;
        text += String.fromCodePoint(code);
      }
      const bytes = new TextEncoder().encode(text);
      assert.equal(decodeUtf8(bytes, 0, bytes.length), text);
    }
  });
});

/** Byte strings of `length` bytes of several kinds, for the decoder paths. */
function samples(length: number, random: () => number): Uint8Array[] {
  const ascii = new Uint8Array(length).map(() => 0x20 + Math.floor(random() * 0x5f));
  const any = new Uint8Array(length).map(() => Math.floor(random() * 256));
  const invalid = new Uint8Array(length).map(() =>
    [0xc0, 0xaf, 0xe0, 0x80, 0xed, 0xa0, 0xf0, 0xf4, 0x90, 0xff, 0x41][Math.floor(random() * 11)]
  );
  // well-formed text, cut to the length (often mid-sequence)
  const text = new TextEncoder().encode("é€😀a".repeat(length)).slice(0, length);
  // ASCII with one bad byte at the end, the start, or the middle
  const lateBad = ascii.slice();
  if (length > 0) lateBad[length - 1] = 0xc3;
  const earlyBad = ascii.slice();
  if (length > 0) earlyBad[0] = 0xed;
  const middleBad = ascii.slice();
  if (length > 0) middleBad[length >> 1] = 0xf0;
  return [ascii, any, invalid, text, lateBad, earlyBad, middleBad];
}

/** A str8 header even for short strings (the non-fixstr key path). */
function str8Of(bytes: Uint8Array): number[] {
  return bytes.length < 256 ? [0xd9, bytes.length, ...bytes] : strOf(bytes);
}

/** A string that takes an input past EAGER_VIEW_MIN_INPUT (the decode gets a DataView). */
const encoder = new TextEncoder();
const PAD = "p".repeat(EAGER_VIEW_MIN_INPUT);
const PAD_BYTES = encoder.encode(PAD);

describe("every string path of the decoder equals TextDecoder", () => {
  const random = mulberry32(2026);
  const cases: { length: number; bytes: Uint8Array; expected: string }[] = [];
  // every length to 300, and some long ones (scanned for ASCII sixteen bytes at a time)
  const lengths = [...Array.from({ length: 301 }, (_, i) => i), 511, 1024, 4099, 40000];
  for (const length of lengths) {
    for (const bytes of samples(length, random)) {
      cases.push({ length, bytes, expected: reference.decode(bytes) });
    }
  }
  const label = (entry: { length: number; bytes: Uint8Array }) =>
    `${entry.length} bytes: ${hexOf(entry.bytes.subarray(0, 40))}`;

  test("unpack() decodes string values of every length 0..300 (and longer) as TextDecoder", () => {
    const decoders = [unpack, (b: Uint8Array) => new Unpackr().unpack(b)];
    for (const entry of cases) {
      const bytes = new Uint8Array(strOf(entry.bytes));
      for (const decode of decoders) assert.equal(decode(bytes), entry.expected, label(entry));
      // inside an array, next to other strings (the string caches and scans see neighbours)
      const array = new Uint8Array([
        0x93,
        ...strOf(entry.bytes),
        0xa1,
        0x78,
        ...strOf(entry.bytes),
      ]);
      assert.deepEqual(unpack(array), [entry.expected, "x", entry.expected], label(entry));
      // the same in an input of EAGER_VIEW_MIN_INPUT bytes or more (the value cache reads it
      // through a DataView)
      const padded = new Uint8Array([0x94, ...array.subarray(1), ...strOf(PAD_BYTES)]);
      assert.deepEqual(
        unpack(padded),
        [entry.expected, "x", entry.expected, PAD],
        `${label(entry)} (padded)`,
      );
    }
  });

  test("a cached string is not returned for one that differs from it in any byte", () => {
    for (let length = 1; length <= 40; length++) {
      const base = Array.from({ length }, (_, i) => String.fromCharCode(65 + (i % 26))).join("");
      const texts = [base];
      for (let at = 0; at < length; at++) {
        texts.push(base.slice(0, at) + "#" + base.slice(at + 1));
      }
      for (const text of texts) {
        const value = new Uint8Array([
          0x92,
          ...strOf(encoder.encode(base)),
          ...strOf(encoder.encode(text)),
        ]);
        const key = new Uint8Array([
          0x82,
          ...strOf(encoder.encode(base)),
          1,
          ...strOf(encoder.encode(text)),
          2,
        ]);
        const padding = strOf(PAD_BYTES);
        for (let round = 0; round < 2; round++) {
          assert.deepEqual(unpack(value), [base, text]);
          assert.deepEqual(unpack(new Uint8Array([0x92, ...value, ...padding])), [
            [base, text],
            PAD,
          ]);
          assert.deepEqual(unpack(key), { [base]: 1, [text]: 2 });
          assert.deepEqual(unpack(new Uint8Array([0x92, ...key, ...padding])), [
            { [base]: 1, [text]: 2 },
            PAD,
          ]);
        }
      }
    }
  });

  test("an array that starts with a short string holds any kind of element after it", () => {
    // arrays whose first element is a fixstr take their own loop (readStringElements)
    const mixed = [
      "a",
      1,
      "bb",
      { x: "y", list: ["c", 2] },
      ["d", "e"],
      "a string longer than thirty-one bytes, so a str8",
      null,
      2.5,
      new Uint8Array([1, 2]),
      "é".repeat(12),
      -1,
      true,
      "",
      new Date(1700000000000),
    ];
    for (const value of [mixed, ["only", "short", "strings"], ["x", ...Array(40).fill(7)]]) {
      assert.deepEqual(unpack(pack(value)), value);
      assert.deepEqual(new Unpackr({ structures: [] }).unpack(new Packr().pack(value)), value);
    }
    // every fixstr length, then a cut inside the last element: incomplete, not a shorter array
    const strings = Array.from({ length: 32 }, (_, n) => "s".repeat(n));
    const bytes = pack(strings);
    assert.deepEqual(unpack(bytes), strings);
    for (let cut = bytes.length - 40; cut < bytes.length; cut++) {
      assert.throws(() => unpack(bytes.subarray(0, cut)), IncompleteDataError);
    }
  });

  test("a large array of short strings mixed with other values, nested arrays and cache misses", () => {
    // readStringElements keeps the read position in a local while strings hit the value cache and
    // hands it to `read` for any other element: a nested array of strings (which moves the
    // position itself), maps, numbers, long strings, cache hits and misses. Decoded as msgpackr
    // would: as packed.
    const random = mulberry32(62);
    const value: unknown[] = ["first"];
    for (let i = 0; value.length < 600; i++) {
      const kind = random();
      if (kind < 0.45) value.push(["red", "green", "blue", "amber"][i % 4]); // hits
      else if (kind < 0.7) value.push(`u${i}:${Math.floor(random() * 1e6)}`); // misses
      else if (kind < 0.78) value.push(["inner", `n${i}`, ["deeper", "red"]]);
      else if (kind < 0.84) value.push({ key: "red", other: i });
      else if (kind < 0.9) value.push(i * 1.5);
      else if (kind < 0.95) value.push("a longer string than the value cache keeps, " + i);
      else value.push("é".repeat(1 + (i % 8)));
    }
    const bytes = pack(value);
    assert.ok(bytes.length >= EAGER_VIEW_MIN_INPUT);
    for (let round = 0; round < 3; round++) assert.deepEqual(unpack(bytes), value);
    assert.deepEqual(new Unpackr({ fatal: true, mapsAsObjects: true }).unpack(bytes), value);
    // cut anywhere in the last 200 bytes: incomplete, never a shorter array
    for (let cut = bytes.length - 200; cut < bytes.length; cut += 7) {
      assert.throws(() => unpack(bytes.subarray(0, cut)), IncompleteDataError);
    }
  });

  test("short strings in a large input decode as TextDecoder, from both hit tests, with fatal and cut inputs", () => {
    // An input of EAGER_VIEW_MIN_INPUT bytes or more has its view from the start, and short
    // fixstrs then take the value cache's hit test that the array loop (readStringElements) and
    // `read` (every other fixstr value: after a number in an array, record fields) write out.
    const fatalDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    const wellFormed = (bytes: Uint8Array) => {
      try {
        fatalDecoder.decode(bytes);
        return true;
      } catch {
        return false;
      }
    };
    const random = mulberry32(61);
    const elements: Uint8Array[] = [];
    for (let total = 0; total < EAGER_VIEW_MIN_INPUT * 2;) {
      const length = Math.floor(random() * 17); // 0..16 bytes: the value cache's range
      const bytes = Uint8Array.from({ length }, () => {
        const kind = random();
        // mostly ASCII, some UTF-8 lead and continuation bytes (well-formed or not)
        return kind < 0.7 ? 0x61 + Math.floor(random() * 4) : 0x80 + Math.floor(random() * 0x70);
      });
      elements.push(bytes);
      total += 1 + length;
    }
    const strings = elements.map((bytes) => reference.decode(bytes));
    const strict = new Unpackr({ fatal: true });
    // [strings...] (the array loop) and [0, strings...] (a number first: each string via `read`)
    for (const lead of [[], [0x00]]) {
      const input = encodeArray([...lead.map((byte) => [byte]), ...elements.map(strOf)]);
      assert.ok(input.length >= EAGER_VIEW_MIN_INPUT);
      const expected = [...lead, ...strings];
      for (let round = 0; round < 3; round++) { // the second and third from the cache
        assert.deepEqual(unpack(input), expected);
        assert.deepEqual(new Unpackr({ structures: [] }).unpack(input), expected);
      }
      // fatal: the first ill-formed element is rejected at its offset, as readString does
      let offset = 3 + lead.length; // after the array16 header and the lead
      let firstBad = -1;
      for (const bytes of elements) {
        offset += 1;
        if (firstBad < 0 && !wellFormed(bytes)) firstBad = offset;
        offset += bytes.length;
      }
      assert.ok(firstBad > 0, "the sample holds an ill-formed element");
      assert.throws(() => strict.unpack(input), (error: unknown) => {
        assert.ok(error instanceof DecodeError && !(error instanceof IncompleteDataError));
        assert.equal(error.offset, firstBad);
        return true;
      });
      // cut anywhere in the last elements: incomplete, never a shorter array
      for (let cut = input.length - 40; cut < input.length; cut++) {
        assert.throws(() => unpack(input.subarray(0, cut)), IncompleteDataError);
      }
    }
    // record fields: the decoded strings (well-formed now) as records of two fields in one
    // large input; the fatal decoder accepts them and gives the same values
    const records = Array.from(
      { length: strings.length >> 1 },
      (_, i) => ({ a: strings[2 * i], b: strings[2 * i + 1] }),
    );
    const structures: string[][] = [];
    const packr = new Packr({ structures });
    const recordBytes = packr.pack(records);
    assert.ok(recordBytes.length >= EAGER_VIEW_MIN_INPUT);
    for (let round = 0; round < 3; round++) {
      assert.deepEqual(new Unpackr({ structures }).unpack(recordBytes), records);
      assert.deepEqual(new Unpackr({ structures, fatal: true }).unpack(recordBytes), records);
    }
  });

  test("unpack() decodes map keys of every length 0..300 (and longer) as TextDecoder (fixstr, str8, cached)", () => {
    for (const entry of cases) {
      const expected = entry.expected === "__proto__" ? "__proto_" : entry.expected;
      for (const key of [strOf(entry.bytes), str8Of(entry.bytes)]) {
        // twice: the second time the fixstr key comes from the key cache
        for (let i = 0; i < 2; i++) {
          const object = unpack(new Uint8Array([0x81, ...key, 0x01])) as Record<string, number>;
          assert.deepEqual(Object.keys(object), [expected], label(entry));
          const map = new Unpackr().unpack(new Uint8Array([0x81, ...key, 0x01])) as Map<
            string,
            number
          >;
          assert.deepEqual([...map.keys()], [entry.expected], label(entry));
        }
      }
    }
  });

  test("Unpackr.unpack() decodes record keys of every length 0..300 (and longer) as TextDecoder", () => {
    for (const entry of cases) {
      const expected = entry.expected === "__proto__" ? "__proto_" : entry.expected;
      // a definition with this key, then 4 references (the compiled reader too)
      const record = [0xd4, 0x72, 0x40, 0x91, ...strOf(entry.bytes), 0x01];
      const bytes = new Uint8Array([
        0x95,
        ...record,
        0x40,
        0x02,
        0x40,
        0x03,
        0x40,
        0x04,
        0x40,
        0x05,
      ]);
      const rows = new Unpackr().unpack(bytes) as Record<string, number>[];
      rows.forEach((row, i) =>
        assert.deepEqual(Object.keys(row), [expected], label(entry) + ` row ${i}`)
      );
      assert.equal(rows[4][expected], 5);
    }
  });

  test("unpack() decodes bundled strings of every length 0..300 (and longer) as TextDecoder", () => {
    for (const entry of cases) {
      // a bundle whose non-ASCII string is these bytes, read back whole by `c1` + -length
      const expected = entry.expected;
      const count = expected.length;
      const countBytes = count === 0
        ? [0x00]
        : count <= 32
        ? [0x100 - count]
        : count <= 128
        ? [0xd0, 0x100 - count]
        : count <= 0x8000
        ? [0xd1, ((-count) >> 8) & 0xff, (-count) & 0xff]
        : [
          0xd2,
          ((-count) >> 24) & 0xff,
          ((-count) >> 16) & 0xff,
          ((-count) >> 8) & 0xff,
          (-count) & 0xff,
        ];
      const value = [0xc1, ...countBytes];
      const strings = [...strOf(entry.bytes), 0xa0];
      const offset = 4 + value.length;
      const bytes = new Uint8Array([0xd6, 0x62, 0, 0, 0, offset, ...value, ...strings]);
      assert.equal(unpack(bytes), expected, label(entry));
    }
  });
});

describe("Unpackr({ fatal: true })", () => {
  const strict = new Unpackr({ fatal: true, mapsAsObjects: true });
  const strictError = (bytes: Uint8Array, offset: number) =>
    assert.throws(() => strict.unpack(bytes), (error: unknown) => {
      assert.ok(error instanceof DecodeError && !(error instanceof IncompleteDataError));
      assert.match(error.message, /^Invalid UTF-8 in string at offset \d+$/);
      assert.equal(error.offset, offset);
      return true;
    });

  test("Unpackr({ fatal: true }) rejects ill-formed UTF-8 in short and long string values", () => {
    strictError(Uint8Array.from([0xa2, 0xc0, 0xaf]), 1); // overlong "/"
    strictError(Uint8Array.from([0xa3, 0xed, 0xa0, 0x80]), 1); // a surrogate in UTF-8
    strictError(Uint8Array.from([0xa2, 0xe2, 0x82]), 1); // truncated sequence
    const long = new Uint8Array(2 + 100).fill(0x61);
    long.set([0xd9, 100]);
    long[60] = 0xff;
    strictError(long, 2);
  });

  test("Unpackr({ fatal: true }) checks map keys, record keys and bundle strings", () => {
    strictError(Uint8Array.from([0x81, 0xa1, 0x80, 0x01]), 2); // a fixstr key (no key cache)
    strictError(Uint8Array.from([0xd4, 0x72, 0x40, 0x91, 0xa1, 0xff, 0x01]), 5); // record keys
    const bundled = new Packr({ bundleStrings: true, useRecords: false }).pack(["héllo wörld"]);
    assert.deepEqual(strict.unpack(bundled), ["héllo wörld"]);
    const broken = bundled.slice();
    const at = broken.lastIndexOf(0xc3); // corrupt the é in the bundle's non-ASCII string
    broken[at] = 0xc0;
    assert.throws(() => strict.unpack(broken), DecodeError);
  });

  test("Unpackr({ fatal: true }) decodes valid text exactly as the default decoder", () => {
    const value = {
      ascii: "plain",
      long: "x".repeat(300),
      mixed: "Zürich 東京 😀",
      keys: { "ключ": 1, "ascii": 2 },
    };
    const bytes = pack(value);
    assert.deepEqual(strict.unpack(bytes), unpack(bytes));
    // a lenient decoder still replaces, and does not poison the strict one's keys
    const bad = Uint8Array.from([0x81, 0xa1, 0x80, 0x01]);
    assert.deepEqual(unpack(bad), { "\ufffd": 1 });
    strictError(bad, 2);
  });
});
