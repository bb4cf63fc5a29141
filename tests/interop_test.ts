// Copyright 2026 the @x/msgpackr authors. MIT license.
// Interop with npm msgpackr 2.1.3: for a generated corpus (tests/_corpus.ts) our `pack` writes
// msgpackr's bytes, msgpackr decodes what we write and we decode what msgpackr writes; then the
// same for every encoding and decoding option of the standard codec.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import {
  ALWAYS,
  DECIMAL_FIT,
  DECIMAL_ROUND,
  DecodeError,
  type Float32Option,
  pack,
  Packr,
  type PackrOptions,
  unpack,
  Unpackr,
  type UnpackrOptions,
} from "../mod.ts";
import {
  allCases,
  asciiText,
  BIGINTS,
  DATES,
  expectedFromMsgpackr,
  expectedOf,
  FLOATS,
  INTEGERS,
  LARGE_BIGINTS,
  randomValue,
  standardCases,
  utf8Text,
} from "./_corpus.ts";
import { comparable, theirBytesOf, theirPackr, theirUnpackr, withPlainBytes } from "./_interop.ts";
import { fromHex, hex, random } from "./_util.ts";

/** A short printable label for assertion messages. */
function show(value: unknown): string {
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
  if (typeof value === "function") return `function ${value.name}`;
  if (value instanceof Date) return `Date(${value.getTime()})`;
  try {
    const text = JSON.stringify(value, (_, item) => typeof item === "bigint" ? `${item}n` : item);
    return (text ?? String(value)).slice(0, 80);
  } catch {
    return String(value).slice(0, 80);
  }
}

/**
 * Packs every value with our Packr and msgpackr's (both with `useRecords: false` and `options`),
 * asserts identical bytes (msgpackr's for the value with well-formed strings: `theirBytesOf`),
 * and asserts that our decoder reads msgpackr's bytes as msgpackr's decoder reads ours, both
 * configured with `decodeOptions` (default: the packing options). Returns our bytes.
 */
function assertLikeMsgpackr(
  options: PackrOptions,
  values: readonly unknown[],
  decodeOptions?: UnpackrOptions,
): Uint8Array[] {
  const packOptions = { useRecords: false, ...options };
  const ours = new Packr(packOptions);
  const theirs = theirPackr(packOptions);
  const ourDecoder = new Unpackr(decodeOptions ?? packOptions);
  const theirDecoder = theirUnpackr({ ...(decodeOptions ?? packOptions) });
  return values.map((value) => {
    const label = show(value);
    const bytes = ours.pack(value);
    const theirBytes = theirBytesOf(theirs, value);
    assert.equal(hex(bytes), hex(theirBytes), `bytes of ${label}`);
    const theirView = comparable(theirDecoder.unpack(bytes));
    assert.deepEqual(comparable(ourDecoder.unpack(theirBytes)), theirView, `decoding ${label}`);
    return bytes;
  });
}

/** Asserts that both libraries decode `bytes` alike with `options`. */
function assertDecodesLikeMsgpackr(options: UnpackrOptions, bytes: Uint8Array): unknown {
  const ours = new Unpackr(options).unpack(bytes);
  const theirs = theirUnpackr({ ...options }).unpack(bytes);
  assert.deepEqual(comparable(ours), comparable(theirs), hex(bytes).slice(0, 60));
  return ours;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A deterministic spread of floats: several magnitudes and digit counts. */
function manyFloats(): number[] {
  const values: number[] = [];
  for (let exponent = -45; exponent <= 40; exponent++) {
    for (const digits of [1, 1.5, 1.234, 3.14159265, 7.99, 9.999999]) {
      values.push(digits * 10 ** exponent, -digits * 10 ** exponent);
    }
  }
  for (let i = 1; i < 300; i++) values.push(i / 7, i * 0.37, i / 1024, 1 / i);
  return values;
}

/** float32 bytes (`ca` + 4) for a spread of exponents and mantissas, incl. NaN and Infinity. */
function float32Encodings(): Uint8Array[] {
  const encodings: Uint8Array[] = [];
  const view = new DataView(new ArrayBuffer(4));
  for (let exponent = 0; exponent < 256; exponent++) {
    for (const mantissa of [0, 1, 0x2aaaab, 0x400000, 0x4ccccd, 0x7fffff]) {
      for (const sign of [0, 1]) {
        view.setUint32(0, ((sign << 31) | (exponent << 23) | mantissa) >>> 0);
        encodings.push(new Uint8Array([0xca, ...new Uint8Array(view.buffer)]));
      }
    }
  }
  return encodings;
}

// Our bytes are msgpackr's for the value with its strings made well-formed (`theirBytesOf`): a
// lone surrogate is U+FFFD in ours, msgpackr's 3-byte WTF-8 form under 64 units in theirs, the
// one documented difference (docs/migrating-from-msgpackr.md); on well-formed strings the copy
// is the value itself.
describe("pack() and unpack() against msgpackr", () => {
  for (const entry of allCases()) {
    test(`pack() writes msgpackr's bytes for ${entry.name}`, () => {
      const bytes = pack(entry.value);
      assert.equal(hex(bytes), hex(theirBytesOf(msgpackr, entry.value)));
      assert.deepEqual(withPlainBytes(msgpackr.unpack(bytes)), expectedOf(entry));
    });
    test(`unpack() reads msgpackr's bytes for ${entry.name}`, () => {
      assert.deepEqual(unpack(msgpackr.pack(entry.value)), expectedFromMsgpackr(entry));
    });
  }
});

describe("Packr({ useRecords: false }) against msgpackr", () => {
  const ours = new Packr({ useRecords: false });
  const theirs = new msgpackr.Packr({ useRecords: false });
  const ourDecoder = new Unpackr({ useRecords: false });
  const theirDecoder = new msgpackr.Unpackr({ useRecords: false });
  for (const entry of allCases()) {
    test(`Packr.pack() and Unpackr.unpack() match msgpackr for ${entry.name}`, () => {
      const bytes = ours.pack(entry.value);
      assert.equal(hex(bytes), hex(theirBytesOf(theirs, entry.value)));
      assert.deepEqual(withPlainBytes(theirDecoder.unpack(bytes)), expectedOf(entry));
      const theirBytes = theirs.pack(entry.value);
      assert.deepEqual(ourDecoder.unpack(theirBytes), expectedFromMsgpackr(entry));
    });
  }
});

describe("pack() errors like msgpackr", () => {
  test("pack() throws RangeError for bigints beyond 64 bits, as msgpackr", () => {
    for (const value of LARGE_BIGINTS) {
      assert.throws(() => msgpackr.pack(value), RangeError);
      assert.throws(() => pack(value), {
        name: "RangeError",
        message: `${value} was too large to fit in MessagePack 64-bit integer format, use ` +
          "useBigIntExtension, or set largeBigIntToFloat to convert to float-64, or set " +
          "largeBigIntToString to convert to string",
      });
    }
  });

  test("pack() throws for a symbol, as msgpackr", () => {
    assert.throws(() => msgpackr.pack(Symbol("s")), /Unknown type: symbol/);
    assert.throws(() => pack(Symbol("s")), /Unknown type: symbol/);
    assert.throws(() => pack([1, { a: Symbol.iterator }]), /Unknown type: symbol/);
  });

  test("pack() refuses objects over 65535 keys without variableMapSize, as msgpackr", () => {
    const object: Record<string, number> = {};
    for (let i = 0; i < 65536; i++) object["k" + i] = i;
    const message = /Object is too large to serialize with fast 16-bit map size/;
    assert.throws(() => msgpackr.pack(object), message);
    assert.throws(() => pack(object), message);
    // and the arena is usable afterwards
    assert.equal(hex(pack({ a: 1 })), "de 00 01 a1 61 01");
  });
});

describe("strings against msgpackr", () => {
  test("pack() writes msgpackr's bytes for strings of every length 0..130 with one foreign unit anywhere", () => {
    // Strings are written by hand or by the engine depending on their length, ASCII strings four
    // characters a store: every length across those thresholds, all ASCII or with one non-ASCII
    // unit (2-, 3-byte, a pair, a lone surrogate) or U+007F (the last ASCII unit) at each
    // position class of the four-unit groups
    const foreign = ["\u00e9", "\u20ac", "\ud83d\ude00", "\ud800", "\udc00", "\u007f"];
    const packr = new Packr({ useRecords: false });
    const buffered = new Packr({ useRecords: false });
    // a small buffer used from where the last pack ended, its view 3 bytes in: packs outgrow it
    // at every offset, and the output moves to a new buffer while a string is written
    buffered.useBuffer(new Uint8Array(259).subarray(3));
    for (let length = 0; length <= 130; length++) {
      const ascii = asciiText(length);
      const values = [ascii];
      for (const unit of foreign) {
        for (const at of new Set([0, 1, 2, 3, length >> 1, length - 1, length])) {
          if (at >= 0 && at <= length) values.push(ascii.slice(0, at) + unit + ascii.slice(at));
        }
      }
      for (const value of values) {
        const expected = hex(theirBytesOf(msgpackr, value));
        const label = `${value.length} units: ${JSON.stringify(value)}`;
        assert.equal(hex(pack(value)), expected, label);
        assert.equal(
          hex(packr.pack([value, value])),
          hex(theirBytesOf(msgpackr, [value, value])),
          label,
        );
        assert.equal(hex(buffered.pack(value)), expected, label);
      }
      // over 8 KiB of strings in one pack: it outgrows the buffer while writing one of them
      const many = new Array(Math.ceil(9000 / ((length + 3) * values.length))).fill(values).flat();
      assert.equal(hex(buffered.pack(many)), hex(theirBytesOf(msgpackr, many)), `${length} units`);
    }
  });
});

describe("large values against msgpackr", () => {
  test("pack() grows its buffer and writes msgpackr's bytes around every size boundary", () => {
    const sizes = [2040, 2048, 2730, 2731, 8182, 8183, 8192, 16384, 65536, 100000, 1 << 20];
    for (const size of sizes) {
      const values = [
        asciiText(size),
        utf8Text(size, "€"),
        new Uint8Array(size).fill(3),
        [asciiText(size >> 1), utf8Text(size >> 1, "é")],
        { a: asciiText(size), b: new Uint8Array(size) },
      ];
      for (const value of values) {
        const bytes = pack(value);
        assert.ok(sameBytes(bytes, msgpackr.pack(value)), `size ${size}`);
        assert.ok(sameBytes(new Packr({ useRecords: false }).pack(value), bytes), `size ${size}`);
      }
    }
    // past 16 MiB the arena is dropped after the pack
    const huge = new Uint8Array(17_000_000).fill(9);
    const bytes = pack([huge, "end"]);
    assert.ok(sameBytes(bytes, msgpackr.pack([huge, "end"])));
    assert.equal(hex(pack({ a: 1 })), "de 00 01 a1 61 01");
  });
});

describe("deliberate differences from msgpackr stay readable by msgpackr", () => {
  test("pack() writes a Map subclass as a map (msgpackr writes an empty map16)", () => {
    class Registry extends Map<string, number> {}
    const bytes = pack(new Registry([["a", 1]]));
    assert.equal(hex(bytes), "81 a1 61 01");
    assert.deepEqual(msgpackr.unpack(bytes), { a: 1 });
  });

  test("pack() writes non-byte typed arrays and DataView as bin of their memory", () => {
    const memory = new Uint8Array([1, 0, 0xfe, 0xff, 9, 8, 7, 6]);
    for (
      const view of [
        new Int16Array(memory.buffer, 0, 2),
        new Uint32Array(memory.buffer),
        new Float64Array(memory.buffer),
        new DataView(memory.buffer, 2, 5),
      ]
    ) {
      const raw = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
      const bytes = pack(view);
      assert.equal(hex(bytes), `c4 ${raw.length.toString(16).padStart(2, "0")} ${hex(raw)}`);
      assert.deepEqual(withPlainBytes(msgpackr.unpack(bytes)), new Uint8Array(raw));
    }
  });
});

describe("decoding malformed or unusual standard data like msgpackr", () => {
  test("unpack() replaces invalid UTF-8 as msgpackr does, in short and long strings", () => {
    const sequences = [
      "c0 af",
      "e0 80 af",
      "ed a0 80",
      "ed bf bf",
      "f0 80 80 80",
      "f4 90 80 80",
      "f5 80 80 80",
      "ff",
      "80",
      "bf 41",
      "c2",
      "e2 82",
      "f0 9f 98",
      "41 f0 9f 98 41",
      "e2 28 a1",
      "c3 28",
      "ef bb bf 41", // a BOM, first
      "f0 9f 98 80", // valid astral
    ];
    for (const sequence of sequences) {
      const payload = fromHex(sequence);
      for (const padding of [0, 70]) {
        // ASCII after the sequence: a long string goes through TextDecoder
        const body = new Uint8Array([...payload, ...new TextEncoder().encode(asciiText(padding))]);
        const bytes = new Uint8Array([0xd9, body.length, ...body]);
        const ours = unpack(bytes);
        if (padding > 0 && sequence === "ef bb bf 41") {
          // deliberate: msgpackr's TextDecoder drops a leading BOM in long strings; we keep it
          assert.equal(ours, "\ufeffA" + asciiText(padding));
          continue;
        }
        assert.equal(ours, msgpackr.unpack(bytes), `${sequence} + ${padding}`);
      }
    }
  });

  test("unpack() reads non-minimal encodings of every type as msgpackr does", () => {
    const encodings = [
      "cc 05",
      "cd 00 05",
      "ce 00 00 00 05",
      "d0 05",
      "d1 00 05",
      "d2 00 00 00 05",
      "d0 80",
      "d1 80 00",
      "d2 80 00 00 00",
      "ce ff ff ff ff",
      "ca 3f 80 00 00",
      "ca 7f c0 00 00",
      "cb 7f f8 00 00 00 00 00 01",
      "d9 00",
      "da 00 01 61",
      "db 00 00 00 01 61",
      "c4 00",
      "c5 00 01 07",
      "c6 00 00 00 01 07",
      "dc 00 01 01",
      "dd 00 00 00 01 01",
      "de 00 01 a1 61 01",
      "df 00 00 00 01 a1 61 01",
      "80",
      "de 00 00",
      "81 01 02", // integer key
      "81 c0 01", // nil key
      "81 c3 01", // boolean key
      "81 cb 3f f8 00 00 00 00 00 00 01", // float key
      "81 d3 00 00 00 00 00 00 00 0a 01", // int64 key
      "82 a1 61 01 a1 61 02", // duplicate key: the last wins
      "d4 00 00", // undefined
      "d5 00 00 00",
      "c7 00 00",
      "c7 03 00 01 02 03",
    ];
    for (const text of encodings) assertDecodesLikeMsgpackr({ useRecords: false }, fromHex(text));
  });

  test("unpack() reads timestamps as msgpackr does, but for its rounding and its errors", () => {
    const same = [
      "d6 ff 00 00 00 00",
      "d6 ff ff ff ff ff",
      "d6 ff 80 00 00 00",
      "d7 ff 00 00 00 00 00 00 00 00",
      "d7 ff ff ff ff fc ff ff ff ff", // nanoseconds beyond one second
      "d7 ff 00 00 00 03 ff ff ff ff", // 34-bit seconds
      "c7 0c ff 00 00 00 00 00 00 00 00 00 00 00 00",
      "c7 0c ff 00 00 00 00 ff ff ff ff ff ff ff ff", // -1 s
      "c7 0c ff 00 0f 42 40 ff ff ff f1 86 8b 84 00", // year 0
      "c7 0c ff 00 00 00 00 00 00 00 3a ff f4 41 7f", // year 9999
      "c7 0c ff 00 00 00 00 00 00 7f ff ff ff ff ff", // 2^47 - 1 s: beyond a valid Date
      "c7 0c ff 00 00 00 00 80 00 00 00 00 00 00 00", // -2^63 s
      "d4 ff ff", // invalid marker
    ];
    for (const text of same) {
      const bytes = fromHex(text);
      const ours = unpack(bytes) as Date;
      const theirs = msgpackr.unpack(bytes) as Date;
      assert.ok(ours instanceof Date, text);
      assert.ok(Object.is(ours.getTime(), theirs.getTime()), `${text}: ${+ours} vs ${+theirs}`);
    }
    // ours is the millisecond that holds the instant; msgpackr's float64 arithmetic rounds up
    // near a whole second (and toward 1970 before it), and it reads 48 bits of the 64-bit seconds
    const differences: [string, number, number][] = [
      ["d7 ff ee 6b 27 fc ff ff ff ff", 4294967295999, 4294967296000], // 2^32 - 1 s + 999999999 ns
      ["d7 ff 3b 9a c9 ff 00 00 00 00", 12884901888249, 12884901888250], // 3 · 2^32 s + 249999999 ns
      ["c7 0c ff 3b 9a c9 ff ff ff ff ff ff ff ff ff", -1, 0], // -1 s + 999999999 ns
      ["c7 0c ff 00 00 00 00 00 01 00 00 00 00 00 05", NaN, 5000], // 2^48 + 5 s
    ];
    for (const [text, ours, theirs] of differences) {
      const bytes = fromHex(text);
      assert.ok(Object.is((unpack(bytes) as Date).getTime(), ours), text);
      assert.ok(Object.is((msgpackr.unpack(bytes) as Date).getTime(), theirs), text);
    }
    // other lengths are no timestamp: msgpackr returns an invalid Date, we a DecodeError
    const lengths: [string, number][] = [
      ["d5 ff 00 00", 2],
      ["c7 05 ff 00 00 00 00 00", 5],
      ["c7 00 ff", 0],
      ["d8 ff 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01", 16],
    ];
    for (const [text, length] of lengths) {
      const bytes = fromHex(text);
      assert.ok(Number.isNaN((msgpackr.unpack(bytes) as Date).getTime()), text);
      assert.throws(() => unpack(bytes), (error: unknown) => {
        assert.ok(error instanceof DecodeError, text);
        assert.match(error.message, new RegExp(`^Invalid timestamp extension length ${length} `));
        assert.equal(error.offset, 0);
        return true;
      });
    }
  });

  test("unpack() reads float32 like msgpackr (NaN payloads, subnormals, infinities)", () => {
    for (const bytes of float32Encodings()) {
      assert.ok(Object.is(unpack(bytes), msgpackr.unpack(bytes)), hex(bytes));
    }
  });
});

describe("options against msgpackr", () => {
  for (
    const [name, option] of [
      ["ALWAYS", ALWAYS],
      ["DECIMAL_ROUND", DECIMAL_ROUND],
      ["DECIMAL_FIT", DECIMAL_FIT],
    ] as [string, Float32Option][]
  ) {
    test(`Packr({ useFloat32: ${name} }) writes msgpackr's bytes and decodes alike`, () => {
      const values = [
        ...FLOATS,
        ...INTEGERS,
        ...manyFloats(),
        -0,
        1e-50,
        -1e-50,
        0xffffffff - 0.5,
        -(2 ** 31) + 0.25,
        { x: 0.1, list: [1.5, -2.25, 1e-7] },
      ];
      const bytes = assertLikeMsgpackr({ useFloat32: option }, values);
      const written = new Map(values.map((value, i) => [value, hex(bytes[i])]));
      assert.equal(written.get(0.5), "ca 3f 00 00 00");
      assert.equal(written.get(NaN), "cb 7f f8 00 00 00 00 00 00");
      assert.equal(written.get(Infinity), "cb 7f f0 00 00 00 00 00 00");
      assert.equal(written.get(0x100000000 + 0.5)!.slice(0, 2), "cb");
      if (option === DECIMAL_FIT) {
        assert.equal(written.get(0.1), "ca 3d cc cc cd");
        assert.equal(written.get(3.14159265), "cb 40 09 21 fb 53 c8 d4 f1");
        assert.equal(written.get(123456.789)!.slice(0, 2), "cb");
      } else {
        assert.equal(written.get(3.14159265), "ca 40 49 0f db");
      }
      const decoder = new Unpackr({ useFloat32: option });
      const expected = option === ALWAYS ? Math.fround(0.1) : 0.1;
      assert.equal(decoder.unpack(new Packr({ useFloat32: option }).pack(0.1)), expected);
    });
  }

  for (const option of [DECIMAL_ROUND, DECIMAL_FIT] as const) {
    test(`Unpackr({ useFloat32: ${option} }) rounds every float32 as msgpackr does`, () => {
      const ours = new Unpackr({ useFloat32: option });
      const theirs = theirUnpackr({ useFloat32: option });
      for (const bytes of float32Encodings()) {
        assert.ok(Object.is(ours.unpack(bytes), theirs.unpack(bytes)), hex(bytes));
      }
    });
  }

  test("Packr({ useTimestamp32: true }) writes msgpackr's bytes for every date", () => {
    const bytes = assertLikeMsgpackr({ useTimestamp32: true }, DATES);
    // milliseconds are dropped in [1970, 2106)
    assert.equal(hex(bytes[DATES.findIndex((date) => +date === 1500)]), "d6 ff 00 00 00 01");
    assert.equal(
      hex(new Packr({ useTimestamp32: true }).pack(new Date(-1))).slice(0, 8),
      "c7 0c ff",
    );
  });

  test("Packr({ onInvalidDate }) writes the function's result, as msgpackr", () => {
    const values = [new Date(NaN), [new Date("nope")], { at: new Date(NaN) }, new Date(5)];
    assertLikeMsgpackr({ onInvalidDate: () => "invalid date" }, values);
    assertLikeMsgpackr({ onInvalidDate: () => null }, values);
    assertLikeMsgpackr({ onInvalidDate: () => new Date(0) }, values);
    assert.equal(hex(new Packr({ onInvalidDate: () => 0 }).pack(new Date(NaN))), "00");
    assert.equal(hex(pack(new Date(NaN))), "d4 ff ff");
  });

  for (const type of ["bigint", "number", "string", "auto"] as const) {
    test(`Unpackr({ int64AsType: "${type}" }) decodes int64 and uint64 as msgpackr`, () => {
      const encodings = [
        ...BIGINTS.map((value) => pack(value)),
        fromHex("cf 00 00 00 00 00 00 00 05"),
        fromHex("cf 00 20 00 00 00 00 00 00"), // 2^53
        fromHex("cf 00 20 00 00 00 00 00 01"),
        fromHex("d3 ff e0 00 00 00 00 00 00"), // -2^53
        fromHex("d3 ff df ff ff ff ff ff ff"),
        fromHex("d3 ff ff ff ff ff ff ff fe"),
        fromHex("cf ff ff ff ff ff ff ff ff"),
        pack([1n, { n: -(2n ** 63n) }]),
      ];
      for (const bytes of encodings) assertDecodesLikeMsgpackr({ int64AsType: type }, bytes);
      assertLikeMsgpackr({}, BIGINTS, { int64AsType: type });
      const decoder = new Unpackr({ int64AsType: type });
      const decoded = [2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) - 1n, 2n ** 64n - 1n].map((value) =>
        decoder.unpack(pack(value))
      );
      const expected = {
        bigint: [2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) - 1n, 2n ** 64n - 1n],
        number: [2 ** 53, 2 ** 53, -(2 ** 53), 2 ** 64],
        string: [
          "9007199254740992",
          "9007199254740993",
          "-9007199254740993",
          "18446744073709551615",
        ],
        auto: [2 ** 53, 2n ** 53n + 1n, -(2n ** 53n) - 1n, 2n ** 64n - 1n],
      }[type];
      assert.deepEqual(decoded, expected);
      assert.equal(decoder.unpack(fromHex("d0 80")), -128); // smaller ints stay numbers
    });
  }

  test("Unpackr({ int64AsNumber: true }) is int64AsType number, as msgpackr", () => {
    for (const value of BIGINTS) assertDecodesLikeMsgpackr({ int64AsNumber: true }, pack(value));
    assert.equal(new Unpackr({ int64AsNumber: true }).unpack(pack(-1n)), -1);
  });

  test("Packr({ largeBigIntToFloat: true }) writes msgpackr's float64 for large bigints", () => {
    const bytes = assertLikeMsgpackr({ largeBigIntToFloat: true }, [
      ...LARGE_BIGINTS,
      ...BIGINTS,
      [2n ** 64n, { big: -(2n ** 100n) }],
    ]);
    assert.equal(hex(bytes[0]), "cb 43 f0 00 00 00 00 00 00");
    assert.equal(new Packr({ largeBigIntToFloat: true }).pack(2n ** 63n)[0], 0xcf);
  });

  test("Packr({ largeBigIntToString: true }) writes msgpackr's strings for large bigints", () => {
    const bytes = assertLikeMsgpackr({ largeBigIntToString: true }, [
      ...LARGE_BIGINTS,
      ...BIGINTS,
      [2n ** 64n, { big: -(2n ** 100n) }],
    ]);
    assert.equal(hex(bytes[0]), hex(pack("18446744073709551616")));
    assert.equal(unpack(bytes[LARGE_BIGINTS.length - 1]), "-1" + "0".repeat(400));
  });

  test("Packr({ encodeUndefinedAsNil: true }) writes nil for undefined, as msgpackr", () => {
    const bytes = assertLikeMsgpackr({ encodeUndefinedAsNil: true }, [
      undefined,
      [undefined, 1],
      { a: undefined },
      [1, , 3],
      () => 1,
    ]);
    assert.deepEqual(bytes.map(hex), [
      "c0",
      "92 c0 01",
      "de 00 01 a1 61 c0",
      "93 01 c0 03",
      "c0",
    ]);
  });

  test("Packr({ variableMapSize: true }) writes minimal map headers, as msgpackr", () => {
    const objects = [0, 1, 15, 16, 65535, 65536].map((count) => {
      const object: Record<string, number> = {};
      for (let i = 0; i < count; i++) object["k" + i] = i;
      return object;
    });
    const bytes = assertLikeMsgpackr({ variableMapSize: true }, [
      ...objects,
      { nested: { a: 1, b: [{ c: 2 }] } },
      Object.assign(Object.create({ inherited: 1 }), { own: 1 }),
    ]);
    assert.deepEqual(bytes.slice(0, 6).map((item) => hex(item.subarray(0, 5))), [
      "80",
      "81 a2 6b 30 00",
      "8f a2 6b 30 00",
      "de 00 10 a2 6b",
      "de ff ff a2 6b",
      "df 00 01 00 00",
    ]);
  });

  test("Unpackr({ mapsAsObjects }) decodes maps as objects or Maps, as msgpackr", () => {
    const mapValues = [
      new Map<unknown, unknown>([[1, "one"], ["a", { b: 2 }], [null, [new Map([[true, 1]])]]]),
      new Map([[[1, 2], "array key"]]),
      new Map([[new Map([[1, 2]]), "map key"]]),
      { a: new Map([[1.5, -1]]) },
    ];
    const corpus = standardCases().map((entry) => pack(entry.value));
    // maps decode to Map with mapsAsObjects false, and by default unless useRecords is false
    for (const options of [{ mapsAsObjects: false }, {}, { useRecords: true }]) {
      assertLikeMsgpackr({}, mapValues, options);
      for (const bytes of corpus) assertDecodesLikeMsgpackr(options, bytes);
    }
    const objectKeyed = mapValues.slice(0, 2).concat(mapValues.slice(3));
    for (const options of [{ mapsAsObjects: true }, { useRecords: false }]) {
      assertLikeMsgpackr({}, objectKeyed, { ...options, allowArraysInMapKeys: true });
      for (const bytes of corpus) assertDecodesLikeMsgpackr(options, bytes);
    }
    const decoded = new Unpackr().unpack(pack({ a: 1 }));
    assert.ok(decoded instanceof Map);
    assert.deepEqual(new Unpackr({ mapsAsObjects: true }).unpack(pack(mapValues[0])), {
      1: "one",
      a: { b: 2 },
      null: [{ true: 1 }],
    });
  });

  test("Unpackr({ copyBuffers: true }) returns copies with msgpackr's contents", () => {
    const source = pack([new Uint8Array([1, 2, 3]), { b: new Uint8Array(300).fill(7) }]);
    const copied: [Uint8Array, { b: Uint8Array }] = new Unpackr({
      useRecords: false,
      copyBuffers: true,
    }).unpack(
      source,
    );
    assert.deepEqual(
      copied,
      withPlainBytes(theirUnpackr({ useRecords: false, copyBuffers: true }).unpack(source)),
    );
    assert.notEqual(copied[0].buffer, source.buffer);
    assert.notEqual(copied[1].b.buffer, source.buffer);
    assert.equal(copied[0].constructor, Uint8Array);
    source[3] = 99; // changing the input does not change the copies
    assert.deepEqual(copied[0], new Uint8Array([1, 2, 3]));
    const viewed = unpack(source);
    assert.equal(viewed[0].buffer, source.buffer);
    assert.deepEqual(viewed[0], new Uint8Array([99, 2, 3]));
  });

  test("Packr({ skipValues }) leaves out matching properties, as msgpackr", () => {
    const values = [
      { a: undefined, b: 1, c: null, d: 0, e: "", f: false },
      { only: undefined },
      [{ a: undefined }, undefined],
      Object.assign(Object.create({ inherited: undefined }), { own: 1 }),
    ];
    const bytes = assertLikeMsgpackr({ skipValues: [undefined] }, values);
    assert.equal(hex(bytes[1]), "80");
    assert.equal(hex(bytes[2]), "92 80 d4 00 00");
    assertLikeMsgpackr({ skipValues: [null, 0, "", false] }, values);
    assertLikeMsgpackr({ skipValues: [] }, values);
  });

  test("Packr({ writeFunction }) writes the function's result, as msgpackr", () => {
    function namedFunction() {}
    const values = [namedFunction, [namedFunction], { fn: namedFunction, x: 1 }, class Klass {}];
    const bytes = assertLikeMsgpackr({ writeFunction: (fn) => `fn:${fn.name}` }, values);
    assert.equal(unpack(bytes[0]), "fn:namedFunction");
    assertLikeMsgpackr({ writeFunction: () => ({ code: null }) }, values);
    assertLikeMsgpackr({ writeFunction: () => undefined }, values);
    assertLikeMsgpackr({}, values);
  });

  test("Packr({ useToJSON }) calls toJSON unless false, as msgpackr", () => {
    class Temperature {
      constructor(readonly celsius: number) {}
      toJSON() {
        return `${this.celsius}°C`;
      }
    }
    class Loop {
      value = 1;
      toJSON() {
        return this; // returning itself: written as a plain object
      }
    }
    const values = [new Temperature(21.5), [new Temperature(-3)], new Loop(), new Date(1500)];
    for (const useToJSON of [true, false]) {
      const bytes = assertLikeMsgpackr({ useToJSON }, values);
      assert.deepEqual(unpack(bytes[0]), useToJSON ? "21.5°C" : { celsius: 21.5 });
      assert.equal(hex(bytes[3]).slice(0, 5), "d7 ff"); // dates stay timestamps
    }
    assertLikeMsgpackr({}, values);
  });

  test("Packr({ mapAsEmptyObject: true }) writes every Map as an empty map, as msgpackr", () => {
    const bytes = assertLikeMsgpackr({ mapAsEmptyObject: true }, [
      new Map([["a", 1]]),
      { m: new Map([[1, 2]]) },
      new Map(),
    ]);
    assert.equal(hex(bytes[0]), "80");
  });

  test("Packr({ setAsEmptyObject: true }) writes every Set as {}, as msgpackr", () => {
    const values = [new Set([1, 2]), { s: new Set(["a"]) }, new Set()];
    const bytes = assertLikeMsgpackr({ setAsEmptyObject: true }, values);
    assert.equal(hex(bytes[0]), "de 00 00");
    assert.deepEqual(unpack(bytes[1]), { s: {} });
    const minimal = assertLikeMsgpackr({ setAsEmptyObject: true, variableMapSize: true }, values);
    assert.equal(hex(minimal[0]), "80");
  });

  test("Unpackr({ allowArraysInMapKeys: true }) joins array keys, as msgpackr", () => {
    const values = [
      new Map<unknown, unknown>([[[1, 2], "a"], [["x", [true, 3n]], "b"], [[], "c"]]),
      new Map([[[1.5, "s"], { inner: new Map([[["k"], 1]]) }]]),
    ];
    const options = { allowArraysInMapKeys: true };
    assertLikeMsgpackr({}, values, { useRecords: false, ...options });
    assertLikeMsgpackr({}, values, { mapsAsObjects: true, ...options });
    assert.deepEqual(new Unpackr({ useRecords: false, ...options }).unpack(pack(values[0])), {
      "1,2": "a",
      "x,true,3": "b",
      "": "c",
    });
    // two levels of nesting, or a non-primitive element, are rejected by both
    for (const key of [[1, [2, [3]]], [{ a: 1 }]]) {
      const bytes = pack(new Map([[key, 1]]));
      assert.throws(() => theirUnpackr({ useRecords: false, ...options }).unpack(bytes));
      assert.throws(
        () => new Unpackr({ useRecords: false, ...options }).unpack(bytes),
        /Invalid property type for record: object/,
      );
    }
    // without the option an array key is an error, as in msgpackr
    const bytes = pack(values[0]);
    assert.throws(() => msgpackr.unpack(bytes), /Invalid property type/);
    assert.throws(() => unpack(bytes), /Invalid property type for record: object/);
  });

  test("Packr({ coercibleKeyAsNumber: true }) writes numeric keys as numbers, as msgpackr", () => {
    const values = [
      { "1": "a", b: 2, "": 3, "1.5": 4, " 2 ": 5, "0x10": 6, "-0": 7, Infinity: 8, "1e3": 9 },
      { nested: { "10": [{ "20": 1 }] } },
      { "4294967296": 1, "-1": 2, "NaN": 3 },
    ];
    const bytes = assertLikeMsgpackr({ coercibleKeyAsNumber: true }, values);
    assert.equal(hex(bytes[1].subarray(0, 1)), "81");
    assert.deepEqual(
      new Unpackr({ mapsAsObjects: false }).unpack(bytes[2]),
      new Map<unknown, number>([[4294967296, 1], [-1, 2], ["NaN", 3]]),
    );
  });

  test("Packr ignores unknown option names, as msgpackr", () => {
    const options = { notAnOption: true, useRecords: false } as PackrOptions;
    assertLikeMsgpackr(options, standardCases().slice(0, 40).map((entry) => entry.value));
  });

  test("Packr with several options combined writes msgpackr's bytes", () => {
    const options: PackrOptions = {
      useFloat32: DECIMAL_FIT,
      useTimestamp32: true,
      encodeUndefinedAsNil: true,
      variableMapSize: true,
      largeBigIntToString: true,
      mapAsEmptyObject: true,
      coercibleKeyAsNumber: true,
    };
    const values = [
      { "1": 0.1, when: new Date(1500), u: undefined, big: 2n ** 70n, m: new Map([[1, 1]]) },
      ...allCases().slice(0, 60).map((entry) => entry.value),
    ];
    assertLikeMsgpackr(options, values, { useFloat32: DECIMAL_FIT, int64AsType: "auto" });
  });

  test("strings at encoder thresholds match msgpackr in map keys and values", () => {
    const keys = [63, 64, 65].flatMap((units) => [
      asciiText(units),
      "é".repeat(units),
      asciiText(units - 1) + "\ud800",
      utf8Text(units * 3, "€"),
    ]);
    const object: Record<string, string> = {};
    for (const key of keys) object[key] = key;
    assertLikeMsgpackr({}, [object, keys, new Map(keys.map((key) => [key, key]))]);
  });
});

describe("random values against msgpackr", () => {
  const optionSets: [string, PackrOptions][] = [
    ["{ useRecords: false }", {}],
    ["{ variableMapSize: true }", { variableMapSize: true }],
    ["{ useFloat32: DECIMAL_FIT }", { useFloat32: DECIMAL_FIT }],
    ["{ useFloat32: ALWAYS }", { useFloat32: ALWAYS }],
    ["{ coercibleKeyAsNumber: true }", { coercibleKeyAsNumber: true }],
    ["{ skipValues: [undefined, null] }", { skipValues: [undefined, null] }],
    [
      "{ encodeUndefinedAsNil, useTimestamp32 }",
      { encodeUndefinedAsNil: true, useTimestamp32: true },
    ],
    ["{ mapAsEmptyObject, largeBigIntToString }", {
      mapAsEmptyObject: true,
      largeBigIntToString: true,
    }],
  ];
  for (const [name, options] of optionSets) {
    test(`Packr(${name}) writes msgpackr's bytes for 500 random values`, () => {
      const next = random(name.length * 7919);
      const ours = new Packr({ useRecords: false, ...options });
      const theirs = theirPackr({ useRecords: false, ...options });
      const decoders = [{ mapsAsObjects: false }, { useRecords: false, useFloat32: DECIMAL_FIT }]
        .map((decodeOptions) => [new Unpackr(decodeOptions), theirUnpackr(decodeOptions)] as const);
      for (let i = 0; i < 500; i++) {
        const value = randomValue(next);
        const bytes = ours.pack(value);
        const theirBytes = theirBytesOf(theirs, value);
        if (!sameBytes(bytes, theirBytes)) assert.equal(hex(bytes), hex(theirBytes), `value #${i}`);
        for (const [ourDecoder, theirDecoder] of decoders) {
          let expected: unknown;
          try {
            expected = comparable(theirDecoder.unpack(bytes));
          } catch (error) {
            // a Map with a non-string key cannot become an object: both libraries refuse
            assert.match(String(error), /Invalid property type/);
            assert.throws(() => ourDecoder.unpack(theirBytes), DecodeError);
            continue;
          }
          assert.deepEqual(
            comparable(ourDecoder.unpack(theirBytes)),
            expected,
            `value #${i}`,
          );
        }
      }
    });
  }
});
