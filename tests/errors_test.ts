// Copyright 2026 the @x/msgpackr authors. MIT license.
// Malformed input: truncation, unknown bytes and extensions, forged lengths, trailing bytes,
// `__proto__` keys, non-byte input. Every decode error is a catchable DecodeError with an offset.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import {
  C1,
  DecodeError,
  IncompleteDataError,
  pack,
  Packr,
  unpack,
  unpackMultiple,
  Unpackr,
} from "../mod.ts";
import { allCases } from "./_corpus.ts";
import { comparable } from "./_interop.ts";
import { fromHex, hex, random } from "./_util.ts";

/** Asserts that `action` throws an IncompleteDataError and returns it. */
function incompleteError(action: () => unknown, label = ""): IncompleteDataError {
  let caught: unknown;
  try {
    action();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof IncompleteDataError, `${label}: ${caught}`);
  assert.ok(caught instanceof DecodeError);
  assert.ok(caught instanceof SyntaxError);
  assert.equal(caught.incomplete, true);
  assert.equal(caught.name, "IncompleteDataError");
  return caught;
}

/** Asserts that `action` throws a DecodeError that is not incomplete, and returns it. */
function decodeError(action: () => unknown, label = ""): DecodeError {
  let caught: unknown;
  try {
    action();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof DecodeError, `${label}: ${caught}`);
  assert.ok(!(caught instanceof IncompleteDataError), `${label}: ${caught}`);
  assert.equal(caught.incomplete, false);
  assert.equal(caught.name, "DecodeError");
  return caught;
}

describe("truncated data", () => {
  const values = allCases().filter((entry) => pack(entry.value).length <= 400);

  test("unpack() throws IncompleteDataError at every cut of every corpus value, as msgpackr", () => {
    assert.ok(values.length > 200);
    for (const entry of values) {
      const bytes = pack(entry.value);
      for (let cut = 0; cut < bytes.length; cut++) {
        const prefix = bytes.slice(0, cut);
        const error = incompleteError(() => unpack(prefix), `${entry.name} cut at ${cut}`);
        assert.ok(Number.isInteger(error.offset), `${entry.name} cut at ${cut}`);
        assert.ok(error.offset >= 0 && error.offset <= cut, `${entry.name} cut at ${cut}`);
        if (error.missingBytes !== undefined) {
          assert.ok(error.missingBytes >= 1, `${entry.name} cut at ${cut}`);
          assert.ok(error.missingBytes <= bytes.length - cut, `${entry.name} cut at ${cut}`);
        }
        let theirs: unknown;
        try {
          msgpackr.unpack(prefix);
        } catch (error) {
          theirs = error;
        }
        assert.equal(
          (theirs as { incomplete?: boolean })?.incomplete,
          true,
          `${entry.name} cut at ${cut}`,
        );
      }
    }
  });

  test("Unpackr and unpackMultiple() throw IncompleteDataError for truncated values too", () => {
    const decoders = [new Unpackr(), new Unpackr({ useRecords: false }), new Packr()];
    const bytes = pack({
      list: [1, "two", 3.5, 2n ** 63n, new Date(1500)],
      bin: new Uint8Array(3),
    });
    for (let cut = 0; cut < bytes.length; cut++) {
      for (const decoder of decoders) incompleteError(() => decoder.unpack(bytes.subarray(0, cut)));
      if (cut > 0) incompleteError(() => unpackMultiple(bytes.subarray(0, cut)));
    }
  });

  test("IncompleteDataError.missingBytes says how many bytes a length header still needs", () => {
    const cases: [string, number][] = [
      ["da 00 ff 41", 254], // str16 of 255 with 1 present
      ["db 00 00 01 00 41", 255],
      ["db ff ff ff ff", 0xffffffff],
      ["c5 01 00", 256],
      ["c6 ff ff ff ff", 0xffffffff],
      ["c7 05 05 01", 4], // ext8 of 5 after its type byte
      ["c8 01 00 05", 256],
      ["c9 ff ff ff ff 05", 0xffffffff],
      ["c9 ff ff ff ff", 0x100000000], // the type byte too
      ["dc 00 05 01", 4], // every element takes at least one byte
      ["dd ff ff ff ff", 0xffffffff],
      ["de 00 05 01 01", 8], // every entry takes at least two bytes
      ["df ff ff ff ff", 8589934590],
      ["d6 ff 00", 3],
      ["d8 05 00", 15],
      ["d7 ff", 8],
      ["c7 0c ff 00", 11],
      ["92 da 00 ff", 255],
    ];
    for (const [text, missing] of cases) {
      const error = incompleteError(() => unpack(fromHex(text)), text);
      assert.equal(error.missingBytes, missing, text);
      let theirs: { missingBytes?: number } | undefined;
      try {
        msgpackr.unpack(fromHex(text));
      } catch (error) {
        theirs = error as { missingBytes?: number };
      }
      assert.equal(theirs?.missingBytes, missing, `msgpackr ${text}`);
    }
  });

  test("IncompleteDataError for an empty input", () => {
    const error = incompleteError(() => unpack(new Uint8Array(0)));
    assert.equal(error.offset, 0);
    assert.match(error.message, /Unexpected end of MessagePack data/);
    incompleteError(() => unpackMultiple(new Uint8Array(0)));
  });
});

describe("forged lengths", () => {
  const forged = [
    "db ff ff ff ff", // str32
    "c6 ff ff ff ff", // bin32
    "dd ff ff ff ff", // array32
    "df ff ff ff ff", // map32
    "c9 ff ff ff ff 05", // ext32
    "da ff ff",
    "c5 ff ff",
    "dc ff ff",
    "de ff ff",
    "c8 ff ff 05",
  ];

  test("unpack() rejects forged huge lengths at once, without allocating", () => {
    for (const text of forged) {
      for (const padding of [0, 100, 60000]) {
        const bytes = new Uint8Array([...fromHex(text), ...new Uint8Array(padding)]);
        const started = performance.now();
        const error = incompleteError(() => unpack(bytes), text);
        const elapsed = performance.now() - started;
        assert.ok(elapsed < 200, `${text} + ${padding}: ${elapsed} ms`);
        assert.ok(error.missingBytes! > 0, text);
      }
    }
  });

  test("unpack() rejects forged lengths nested in containers", () => {
    for (const text of forged) {
      const inner = fromHex(text);
      for (
        const bytes of [
          new Uint8Array([0x91, ...inner]),
          new Uint8Array([0x81, 0xa1, 0x61, ...inner]),
        ]
      ) {
        incompleteError(() => unpack(bytes), hex(bytes));
        incompleteError(() => new Unpackr().unpack(bytes), hex(bytes));
      }
    }
  });

  test("unpack() limits the array slots nested headers can claim to the input size", () => {
    // 20000 nested array16 headers each claiming 32767 elements: each fits in the bytes left,
    // but together they would pre-allocate 655 million slots
    const bytes = new Uint8Array(60000);
    for (let i = 0; i < bytes.length; i += 3) bytes.set([0xdc, 0x7f, 0xff], i);
    const started = performance.now();
    incompleteError(() => unpack(bytes));
    incompleteError(() => new Unpackr({ mapsAsObjects: false }).unpack(bytes));
    assert.ok(performance.now() - started < 500);
    assert.throws(() => msgpackr.unpack(bytes), { incomplete: true });
  });
});

describe("reserved and unknown bytes", () => {
  test("unpack() returns C1 for the reserved byte 0xc1 outside a bundle, as msgpackr", () => {
    assert.equal(unpack(fromHex("c1")), C1);
    assert.deepEqual(unpack(fromHex("93 c1 01 c1")), [C1, 1, C1]);
    assert.deepEqual(unpack(fromHex("81 a1 61 c1")), { a: C1 });
    assert.equal(new Unpackr().unpack(fromHex("c1")), C1);
    assert.equal(msgpackr.unpack(fromHex("c1")), msgpackr.C1);
  });

  test("unpack() names the type of an unknown extension, at the extension's offset", () => {
    const cases: [string, string, number][] = [
      ["d4 05 00", "Unknown extension 5", 0],
      ["d5 05 00 00", "Unknown extension type 5", 0],
      ["d6 06 00 00 00 00", "Unknown extension type 6", 0],
      ["d7 07 00 00 00 00 00 00 00 00", "Unknown extension type 7", 0],
      ["d8 08" + " 00".repeat(16), "Unknown extension type 8", 0],
      ["c7 00 09", "Unknown extension type 9", 0],
      ["c7 03 80 01 02 03", "Unknown extension type 128", 0],
      ["c9 00 00 00 02 64 00 00", "Unknown extension type 100", 0],
      ["92 01 d4 7f 00", "Unknown extension 127", 2],
      ["82 a1 61 01 a1 62 c7 02 0a 00 00", "Unknown extension type 10", 6],
    ];
    for (const [text, message, offset] of cases) {
      const error = decodeError(() => unpack(fromHex(text)), text);
      assert.match(error.message, new RegExp(`^${message}\\b`), text);
      assert.equal(error.offset, offset, text);
      assert.throws(() => msgpackr.unpack(fromHex(text)), new RegExp(message));
    }
  });
});

describe("unknown extension messages", () => {
  test("unpack() says 'Unknown extension type N' for ext8/16/32 with one payload byte, as msgpackr", () => {
    // msgpackr uses "Unknown extension N" only for the fixext1 header (d4); an ext8, ext16 or
    // ext32 header with a 1-byte payload gets "Unknown extension type N"
    for (const text of ["c7 01 05 00", "c8 00 01 05 00", "c9 00 00 00 01 05 00"]) {
      assert.throws(() => msgpackr.unpack(fromHex(text)), /^Error: Unknown extension type 5$/);
      const error = decodeError(() => unpack(fromHex(text)), text);
      assert.match(error.message, /^Unknown extension type 5\b/, text);
    }
  });
});

describe("trailing bytes", () => {
  test("unpack() rejects bytes after the value, as msgpackr", () => {
    const cases: [string, string, number][] = [
      ["01 02", "1", 1],
      ["a1 61 c0", '"a"', 2],
      ["92 01 02 03", "[1,2]", 3],
      ["81 a1 61 01 00 00", '{"a":1}', 4],
      ["c0 c0", "null", 1],
    ];
    for (const [text, preview, offset] of cases) {
      const error = decodeError(() => unpack(fromHex(text)), text);
      assert.ok(
        error.message.startsWith(`Data read, but end of buffer not reached ${preview}`),
        error.message,
      );
      assert.equal(error.offset, offset);
      assert.throws(
        () => msgpackr.unpack(fromHex(text)),
        /Data read, but end of buffer not reached/,
      );
    }
    const long = decodeError(() => unpack(new Uint8Array([...pack("x".repeat(300)), 0])));
    assert.ok(long.message.length < 200, "the preview is cut short");
    decodeError(() => new Unpackr().unpack(fromHex("01 02")));
    decodeError(() => unpack(fromHex("d3 00 00 00 00 00 00 00 01 01"))); // bigint preview
  });
});

describe("__proto__ keys", () => {
  const key = "a9 5f 5f 70 72 6f 74 6f 5f 5f"; // fixstr "__proto__"

  test("unpack() never changes an object's prototype through a __proto__ key", () => {
    const encodings = [
      `81 ${key} 81 a1 78 01`, // fixmap
      `de 00 01 ${key} 81 a1 78 01`, // map16
      `df 00 00 00 01 ${key} 81 a1 78 01`, // map32
      `81 d9 09 5f 5f 70 72 6f 74 6f 5f 5f 81 a1 78 01`, // str8 key
      `82 a1 61 01 ${key} 81 a1 78 01`, // after another key
      `91 81 ${key} 81 a1 78 01`, // nested
      `d4 72 40 91 ${key} 81 a1 78 01`, // a record definition with a __proto__ key
    ];
    for (const text of encodings) {
      const bytes = fromHex(text);
      for (
        const decoder of [unpack, (b: Uint8Array) => new Unpackr({ useRecords: false }).unpack(b)]
      ) {
        let decoded = decoder(bytes);
        if (Array.isArray(decoded)) decoded = decoded[0];
        assert.equal(Object.getPrototypeOf(decoded), Object.prototype, text);
        assert.ok(Object.hasOwn(decoded, "__proto_"), text);
        assert.deepEqual(decoded.__proto_, { x: 1 }, text);
        assert.ok(!Object.hasOwn(decoded, "__proto__"), text);
        assert.equal(decoded.x, undefined, text);
      }
      const theirs = msgpackr.unpack(bytes);
      assert.ok(
        Object.hasOwn(Array.isArray(theirs) ? theirs[0] : theirs, "__proto_"),
        `msgpackr ${text}`,
      );
    }
    assert.equal(({} as Record<string, unknown>).x, undefined);
    assert.equal(Object.getPrototypeOf({}), Object.prototype);
  });

  test("unpack() decodes msgpackr's output for an own __proto__ key as msgpackr does", () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"b":2}');
    const bytes = pack(value);
    assert.equal(hex(bytes), hex(msgpackr.pack(value)));
    assert.deepEqual(unpack(bytes), msgpackr.unpack(bytes));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test("Unpackr({ mapsAsObjects: false }) keeps a __proto__ key as a Map key", () => {
    const decoded = new Unpackr({ mapsAsObjects: false }).unpack(fromHex(`81 ${key} 01`));
    assert.ok(decoded instanceof Map);
    assert.equal(decoded.get("__proto__"), 1);
  });

  test("unpack() allows constructor and prototype keys", () => {
    const value = { constructor: 1, prototype: { a: 2 }, hasOwnProperty: 3 };
    const decoded = unpack(pack(value));
    assert.deepEqual(decoded, value);
    assert.equal(Object.getPrototypeOf(decoded), Object.prototype);
  });
});

describe("non-byte input", () => {
  test("unpack() throws TypeError for input that is not bytes", () => {
    const inputs: [unknown, string][] = [
      ["string", "string"],
      [123, "number"],
      [null, "null"],
      [undefined, "undefined"],
      [[1, 2], "Array"],
      [{ length: 1 }, "Object"],
      [new Map(), "Map"],
    ];
    for (const [input, kind] of inputs) {
      for (
        const decode of [
          () => unpack(input as Uint8Array),
          () => new Unpackr().unpack(input as Uint8Array),
          () => unpackMultiple(input as Uint8Array),
          () => new Packr().unpack(input as Uint8Array),
        ]
      ) {
        assert.throws(decode, (error: unknown) => {
          assert.ok(error instanceof TypeError, String(error));
          assert.match(error.message, /^Source must be a Uint8Array or Buffer but was a /);
          if (kind !== "null") assert.ok(error.message.includes(kind), error.message);
          return true;
        });
      }
    }
  });
});

describe("every decode error is a DecodeError", () => {
  test("unpack() throws only DecodeErrors with an integer offset for random input", () => {
    const next = random(20260101);
    const interesting = [
      0xc0,
      0xc1,
      0xc4,
      0xc7,
      0xd4,
      0xd6,
      0xd7,
      0xd9,
      0xdc,
      0xde,
      0x91,
      0x81,
      0xa1,
      0xff,
      0x00,
    ];
    const decoders = [
      (bytes: Uint8Array) => unpack(bytes),
      (bytes: Uint8Array) => new Unpackr().unpack(bytes),
    ];
    let agreed = 0;
    for (let i = 0; i < 20000; i++) {
      const bytes = new Uint8Array(1 + Math.floor(next() * 20));
      for (let j = 0; j < bytes.length; j++) {
        bytes[j] = next() < 0.5
          ? Math.floor(next() * 256)
          : interesting[Math.floor(next() * interesting.length)];
      }
      for (const decode of decoders) {
        try {
          decode(bytes);
        } catch (error) {
          assert.ok(error instanceof DecodeError, `${hex(bytes)}: ${error}`);
          assert.ok(Number.isInteger(error.offset), hex(bytes));
          assert.ok(
            error.offset >= 0 && error.offset <= bytes.length,
            `${hex(bytes)}: ${error.offset}`,
          );
          assert.equal(error.incomplete, error instanceof IncompleteDataError);
        }
      }
      // where both libraries decode the bytes, they agree
      let ours: unknown;
      let theirs: unknown;
      try {
        ours = unpack(bytes);
        theirs = msgpackr.unpack(bytes);
      } catch {
        continue;
      }
      const normalize = (value: unknown) =>
        JSON.stringify(
          comparable(value),
          (_, item) =>
            item === C1 || item === msgpackr.C1
              ? "C1"
              : typeof item === "bigint"
              ? `${item}n`
              : item instanceof Date
              ? `Date ${item.getTime()}`
              : item instanceof Uint8Array
              ? [...item]
              : item === undefined
              ? "undefined"
              : item,
        );
      assert.equal(normalize(ours), normalize(theirs), hex(bytes));
      agreed++;
    }
    assert.ok(agreed > 500, String(agreed));
  });

  test("unpack() reports nesting deeper than maxDepth as a DecodeError, not a stack overflow", () => {
    const deep = new Uint8Array(100001).fill(0x91);
    deep[100000] = 0xc0;
    const error = decodeError(() => unpack(deep));
    assert.match(error.message, /maxDepth/);
    const shallow = new Unpackr({ maxDepth: 10 });
    decodeError(() => shallow.unpack(new Uint8Array([...new Uint8Array(11).fill(0x91), 0xc0])));
    assert.deepEqual(shallow.unpack(new Uint8Array([0x91, 0x91, 0xc0])), [[null]]);
  });
});
