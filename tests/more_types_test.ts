// Copyright 2026 the @x/msgpackr authors. MIT license.
// moreTypes (docs/wire-format.md, "moreTypes codes"): Set "s", Error "e", RegExp "x" as
// `d4 type 00` tags before an array; typed arrays, ArrayBuffer and DataView as ext "t" (0x74) with
// a code byte and the raw memory bytes, always ext8/16/32 (never fixext); bigints beyond 64 bits
// as ext "B" (docs/wire-format.md, "The bigint extension"). Golden bytes are checked against
// msgpackr 2.1.3's output where msgpackr is deterministic.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { DecodeError, pack, Packr, unpack } from "../mod.ts";
import { fromHex, hex } from "./_util.ts";
import { bytesOf, ourUnpack, packBoth, sameBytes, theirUnpack } from "./_types_util.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const MORE = { moreTypes: true, useRecords: false } as const;
const PLAIN = { useRecords: false } as const;

/** Our bytes and msgpackr's for `value` with moreTypes agree; decodes both ways to `check`. */
function roundTrips(value: unknown, expected: string, check: (copy: Any) => void): void {
  assert.equal(sameBytes(value, MORE), expected);
  check(unpack(fromHex(expected)));
  check(theirUnpack(fromHex(expected)));
}

describe("moreTypes Set", () => {
  test("Packr.pack() writes a Set as d4 73 00 and an array", () => {
    roundTrips(new Set([1, "a"]), "d4 73 00 92 01 a1 61", (copy) => {
      assert.ok(copy instanceof Set);
      assert.deepEqual([...copy], [1, "a"]);
    });
    roundTrips(new Set(), "d4 73 00 90", (copy) => {
      assert.ok(copy instanceof Set);
      assert.equal(copy.size, 0);
    });
  });

  test("Packr.pack() without moreTypes writes a Set as a plain array", () => {
    assert.equal(sameBytes(new Set([1, "a"]), PLAIN), "92 01 a1 61");
    assert.deepEqual(unpack(fromHex("92 01 a1 61")), [1, "a"]);
  });

  test("Packr.pack() with records writes the Set's objects as records", () => {
    const value = new Set([{ a: 1 }, { a: 2 }]);
    const expected = "d4 73 00 92 d4 72 40 91 a1 61 01 40 02";
    assert.equal(sameBytes(value, { moreTypes: true }), expected);
    for (const copy of [ourUnpack(fromHex(expected)), theirUnpack(fromHex(expected))]) {
      assert.deepEqual([...copy], [{ a: 1 }, { a: 2 }]);
    }
  });
});

describe("moreTypes Error", () => {
  test("Packr.pack() writes an Error as d4 65 00 [name, message, cause] without its stack", () => {
    const error = new Error("boom");
    assert.ok(error.stack);
    roundTrips(
      error,
      "d4 65 00 93 a5 45 72 72 6f 72 a4 62 6f 6f 6d d4 00 00",
      (copy) => {
        assert.ok(copy instanceof Error);
        assert.equal(copy.name, "Error");
        assert.equal(copy.message, "boom");
        assert.equal(copy.cause, undefined);
        // msgpackr keeps no stack: the copy has the decoder's own stack, not the original one
        assert.notEqual(copy.stack, error.stack);
      },
    );
  });

  test("Packr.pack() writes built-in Error subclasses by name and decodes them to that class", () => {
    roundTrips(
      new TypeError("bad"),
      "d4 65 00 93 a9 54 79 70 65 45 72 72 6f 72 a3 62 61 64 d4 00 00",
      (copy) => {
        assert.ok(copy instanceof TypeError);
        assert.equal(copy.message, "bad");
      },
    );
    for (const Type of [EvalError, RangeError, ReferenceError, SyntaxError, URIError]) {
      const bytes = new Packr(MORE).pack(new Type("m"));
      assert.equal(hex(bytes), hex(new msgpackr.Packr({ ...MORE }).pack(new Type("m"))));
      for (const copy of [unpack(bytes), theirUnpack(bytes)]) {
        assert.ok(copy instanceof Type, Type.name);
        assert.equal(copy.name, Type.name);
        assert.equal(copy.message, "m");
      }
    }
  });

  test("Packr.pack() writes an Error's cause, including an Error cause", () => {
    roundTrips(
      new RangeError("r", { cause: "c" }),
      "d4 65 00 93 aa 52 61 6e 67 65 45 72 72 6f 72 a1 72 a1 63",
      (copy) => {
        assert.ok(copy instanceof RangeError);
        assert.equal(copy.cause, "c");
      },
    );
    roundTrips(
      new Error("outer", { cause: new Error("inner") }),
      "d4 65 00 93 a5 45 72 72 6f 72 a5 6f 75 74 65 72 " +
        "d4 65 00 93 a5 45 72 72 6f 72 a5 69 6e 6e 65 72 d4 00 00",
      (copy) => {
        assert.equal(copy.message, "outer");
        assert.ok(copy.cause instanceof Error);
        assert.equal(copy.cause.message, "inner");
      },
    );
  });

  test("Packr.pack() writes a custom Error subclass by name; it decodes to an Error", () => {
    class ValidationError extends Error {
      override name = "ValidationError";
    }
    roundTrips(
      new ValidationError("x"),
      "d4 65 00 93 af 56 61 6c 69 64 61 74 69 6f 6e 45 72 72 6f 72 a1 78 d4 00 00",
      (copy) => {
        assert.equal(Object.getPrototypeOf(copy), Error.prototype);
        assert.equal(copy.name, "ValidationError");
        assert.equal(copy.message, "x");
      },
    );
  });

  test("unpack() decodes an AggregateError with its message (msgpackr garbles it)", () => {
    const expected =
      "d4 65 00 93 ae 41 67 67 72 65 67 61 74 65 45 72 72 6f 72 a3 61 67 67 d4 00 00";
    assert.equal(sameBytes(new AggregateError([1], "agg"), MORE), expected);
    const copy = unpack(fromHex(expected));
    assert.ok(copy instanceof AggregateError);
    assert.equal(copy.message, "agg");
    assert.deepEqual(copy.errors, []); // the format carries no errors list
    // msgpackr 2.1.3 calls AggregateError(message, options): errors = the message's characters
    const theirs = theirUnpack(fromHex(expected));
    assert.equal(theirs.message, "[object Object]");
    assert.deepEqual(theirs.errors, ["a", "g", "g"]);
  });

  test("Packr.pack() without moreTypes writes an Error as [name, message, cause]", () => {
    assert.equal(
      sameBytes(new Error("boom", { cause: 1 }), PLAIN),
      "93 a5 45 72 72 6f 72 a4 62 6f 6f 6d 01",
    );
  });
});

describe("moreTypes RegExp", () => {
  test("Packr.pack() writes a RegExp as d4 78 00 [source, flags]", () => {
    roundTrips(/ab+c/gi, "d4 78 00 92 a4 61 62 2b 63 a2 67 69", (copy) => {
      assert.ok(copy instanceof RegExp);
      assert.equal(copy.source, "ab+c");
      assert.equal(copy.flags, "gi");
    });
    roundTrips(/\d/u, "d4 78 00 92 a2 5c 64 a1 75", (copy) => {
      assert.equal(copy.source, "\\d");
      assert.equal(copy.flags, "u");
      assert.ok(copy.test("7"));
    });
  });

  test("Packr.pack() without moreTypes writes a RegExp as [source, flags]", () => {
    assert.equal(sameBytes(/ab+c/gi, PLAIN), "92 a4 61 62 2b 63 a2 67 69");
  });

  test("unpack() rejects a RegExp tag with an invalid pattern with a DecodeError", () => {
    // d4 78 00 ["(", ""]
    assert.throws(() => unpack(fromHex("d4 78 00 92 a1 28 a0")), DecodeError);
  });
});

describe("moreTypes typed arrays", () => {
  const cases: [string, ArrayBufferView | ArrayBuffer, string][] = [
    ["Int8Array", new Int8Array([1, -2, 127]), "c7 04 74 00 01 fe 7f"],
    ["Uint8ClampedArray", new Uint8ClampedArray([1, 2, 255]), "c7 04 74 02 01 02 ff"],
    ["Int16Array", new Int16Array([1, -2, 0x1234]), "c7 07 74 03 01 00 fe ff 34 12"],
    ["Uint16Array", new Uint16Array([1, 0xfffe, 0x1234]), "c7 07 74 04 01 00 fe ff 34 12"],
    ["Int32Array", new Int32Array([1, -2]), "c7 09 74 05 01 00 00 00 fe ff ff ff"],
    ["Uint32Array", new Uint32Array([0x12345678]), "c7 05 74 06 78 56 34 12"],
    ["Float32Array", new Float32Array([1, -2.5]), "c7 09 74 07 00 00 80 3f 00 00 20 c0"],
    ["Float64Array", new Float64Array([1.5]), "c7 09 74 08 00 00 00 00 00 00 f8 3f"],
    [
      "BigInt64Array",
      new BigInt64Array([1n, -1n]),
      "c7 11 74 09 01 00 00 00 00 00 00 00 ff ff ff ff ff ff ff ff",
    ],
    [
      "BigUint64Array",
      new BigUint64Array([2n ** 64n - 1n]),
      "c7 09 74 0a ff ff ff ff ff ff ff ff",
    ],
    ["ArrayBuffer", new Uint8Array([1, 2, 3]).buffer, "c7 04 74 10 01 02 03"],
    // a view of bytes 1..2 of [9, 8, 7, 6]
    ["DataView", new DataView(new Uint8Array([9, 8, 7, 6]).buffer, 1, 2), "c7 03 74 11 08 07"],
  ];

  for (const [name, value, expected] of cases) {
    test(`Packr.pack() writes ${name} as ext "t" with msgpackr's code and raw bytes`, () => {
      assert.equal(sameBytes(value, MORE), expected);
      for (const copy of [unpack(fromHex(expected)), theirUnpack(fromHex(expected))]) {
        assert.equal(copy.constructor.name, name);
        if (value instanceof ArrayBuffer) {
          assert.deepEqual(bytesOf(new Uint8Array(copy)), bytesOf(new Uint8Array(value)));
        } else if (value instanceof DataView) {
          assert.equal(copy.byteOffset, 0);
          assert.deepEqual(bytesOf(new Uint8Array(copy.buffer)), [8, 7]);
        } else {
          assert.deepEqual(Array.from(copy), Array.from(value as unknown as ArrayLike<unknown>));
        }
      }
    });
  }

  test("Packr.pack() writes empty typed arrays as ext8 with just the code byte", () => {
    assert.equal(sameBytes(new Int16Array(0), MORE), "c7 01 74 03");
    assert.equal(sameBytes(new ArrayBuffer(0), MORE), "c7 01 74 10");
    const copy = unpack(fromHex("c7 01 74 03"));
    assert.ok(copy instanceof Int16Array);
    assert.equal(copy.length, 0);
  });

  test("Packr.pack() uses ext8 even when a fixext size would fit", () => {
    // 1 + 1 byte would be fixext2, 1 + 3 fixext4: msgpackr writes ext8
    assert.equal(sameBytes(new Int8Array([5]), MORE), "c7 02 74 00 05");
    assert.equal(sameBytes(new Int8Array([1, 2, 3]), MORE), "c7 04 74 00 01 02 03");
  });

  test("Packr.pack() uses ext16 and ext32 for large typed arrays", () => {
    const medium = new Int8Array(300).fill(7);
    const bytes = fromHex(sameBytes(medium, MORE));
    assert.equal(hex(bytes.subarray(0, 5)), "c8 01 2d 74 00");
    assert.equal(bytes.length, 5 + 300);
    const large = new Uint16Array(0x8000).fill(0x0102);
    const { ours, theirs } = packBoth(large, MORE);
    assert.equal(hex(ours.subarray(0, 7)), "c9 00 01 00 01 74 04");
    assert.equal(ours.length, 7 + 0x10000);
    assert.equal(hex(ours), hex(theirs));
    assert.deepEqual(unpack(ours), large);
    assert.deepEqual(Array.from(theirUnpack(ours) as Uint16Array), Array.from(large));
  });

  test("Packr.pack() writes only the viewed bytes of a typed array subarray", () => {
    const view = new Int16Array([1, 2, 3, 4]).subarray(1, 3);
    assert.equal(sameBytes(view, MORE), "c7 05 74 03 02 00 03 00");
  });

  test("unpack() returns typed arrays on fresh aligned buffers", () => {
    // the payload starts at an odd offset of the input; the copy must still be aligned
    const copy = unpack(fromHex("92 01 c7 09 74 08 00 00 00 00 00 00 f8 3f"))[1];
    assert.ok(copy instanceof Float64Array);
    assert.equal(copy.byteOffset, 0);
    assert.equal(copy.buffer.byteLength, 8);
    assert.equal(copy[0], 1.5);
  });

  test("Packr.pack() writes a Uint8Array as bin even with moreTypes (msgpackr: ext t code 1)", () => {
    // By design we always write a Uint8Array as bin (msgpackr's browser behaviour). msgpackr on
    // Node, Bun and Deno's npm layer writes a non-Buffer Uint8Array as ext "t" code 1 with
    // moreTypes; both forms decode to the same bytes in both libraries.
    const value = new Uint8Array([1, 2]);
    const { ours, theirs } = packBoth(value, MORE);
    assert.equal(hex(ours), "c4 02 01 02");
    assert.equal(hex(theirs), "c7 03 74 01 01 02");
    for (const copy of [unpack(ours), unpack(theirs), theirUnpack(ours), theirUnpack(theirs)]) {
      assert.ok(copy instanceof Uint8Array);
      assert.deepEqual(bytesOf(copy), [1, 2]);
    }
  });

  test("Packr.pack() writes a typed array subclass with its built-in ancestor's code", () => {
    class Samples extends Int16Array {}
    const { ours, theirs } = packBoth(new Samples([1]), MORE);
    assert.equal(hex(ours), "c7 03 74 03 01 00");
    // msgpackr 2.1.3 looks the class up by constructor and writes code 0xff, which no decoder
    // reads back; it reads ours
    assert.equal(hex(theirs), "c7 03 74 ff 01 00");
    for (const copy of [unpack(ours), theirUnpack(ours)]) {
      assert.equal(copy.constructor, Int16Array);
      assert.deepEqual(Array.from(copy), [1]);
    }
  });
  test("Packr.pack() writes Float16Array with code 0xff like msgpackr; no decoder reads it", () => {
    // msgpackr's code list has no Float16Array: it writes code 0xff (index -1); we keep its bytes
    const Float16 = (globalThis as { Float16Array?: new (values: number[]) => ArrayBufferView })
      .Float16Array;
    const bytes = fromHex("c7 03 74 ff 00 3c");
    if (Float16 !== undefined) assert.equal(sameBytes(new Float16([1]), MORE), hex(bytes));
    assert.throws(() => unpack(bytes), /^DecodeError: Could not find typed array for code 255/);
    assert.throws(() => theirUnpack(bytes), { message: "Could not find typed array for code 255" });
  });
});

describe("typed arrays without moreTypes", () => {
  test("pack() writes non-byte typed arrays as bin of their little-endian memory", () => {
    const cases: [ArrayBufferView, string][] = [
      [new Int16Array([1, 258]), "c4 04 01 00 02 01"],
      [new Uint32Array([0x01020304]), "c4 04 04 03 02 01"],
      [new Float32Array([1]), "c4 04 00 00 80 3f"],
      [new Float64Array([-2]), "c4 08 00 00 00 00 00 00 00 c0"],
      [new BigInt64Array([-1n]), "c4 08 ff ff ff ff ff ff ff ff"],
      [new Int8Array([-1, 2]), "c4 02 ff 02"],
      [new Uint8ClampedArray([255]), "c4 01 ff"],
    ];
    for (const [value, expected] of cases) {
      assert.equal(hex(pack(value)), expected, value.constructor.name);
      // msgpackr decodes our bin to exactly the memory bytes
      assert.deepEqual(bytesOf(msgpackr.unpack(pack(value))), bytesOf(fromHex(expected).slice(2)));
    }
  });

  test("pack() fixes msgpackr's corrupt bin for non-byte typed arrays", () => {
    // msgpackr 2.1.3 writes the element values truncated to one byte each, then stale bytes
    const theirs = new Uint8Array(msgpackr.pack(new Int16Array([1, 258])));
    assert.equal(hex(theirs.subarray(0, 4)), "c4 04 01 02");
    assert.equal(hex(pack(new Int16Array([1, 258]))), "c4 04 01 00 02 01");
  });

  test("pack() writes a DataView as bin of its bytes (msgpackr writes an empty bin)", () => {
    const view = new DataView(new Uint8Array([9, 8, 7, 6]).buffer, 1, 2);
    assert.equal(hex(pack(view)), "c4 02 08 07");
    assert.equal(hex(msgpackr.pack(view)), "c4 00");
    assert.deepEqual(bytesOf(msgpackr.unpack(pack(view))), [8, 7]);
  });

  test("pack() writes an ArrayBuffer as bin, like msgpackr", () => {
    assert.equal(sameBytes(new Uint8Array([1, 2, 3]).buffer, PLAIN), "c4 03 01 02 03");
    assert.deepEqual(bytesOf(unpack(fromHex("c4 03 01 02 03"))), [1, 2, 3]);
  });
});

describe("typed array decoding", () => {
  test("unpack() accepts every fixext form of ext t", () => {
    // fixext1/2/4/8/16: the code byte, then 0/1/3/7/15 bytes (only byte-sized elements fit the
    // odd lengths; Int16Array fits fixext1 as an empty array)
    const cases: [string, string, number[]][] = [
      ["d4 74 00", "Int8Array", []],
      ["d4 74 03", "Int16Array", []],
      ["d5 74 00 05", "Int8Array", [5]],
      ["d6 74 00 01 02 03", "Int8Array", [1, 2, 3]],
      ["d7 74 02 01 02 03 04 05 06 07", "Uint8ClampedArray", [1, 2, 3, 4, 5, 6, 7]],
      [
        "d8 74 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f",
        "Int8Array",
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
      ],
    ];
    for (const [bytes, type, values] of cases) {
      for (const copy of [unpack(fromHex(bytes)), theirUnpack(fromHex(bytes))]) {
        assert.equal(copy.constructor.name, type, bytes);
        assert.deepEqual(Array.from(copy), values, bytes);
      }
    }
    const buffer = unpack(fromHex("d5 74 10 07"));
    assert.ok(buffer instanceof ArrayBuffer);
    assert.deepEqual(bytesOf(new Uint8Array(buffer)), [7]);
    const view = unpack(fromHex("d6 74 11 01 02 03"));
    assert.ok(view instanceof DataView);
    assert.equal(view.getUint8(2), 3);
  });

  test("unpack() reads msgpackr's ext t code 1 as a Uint8Array", () => {
    const copy = unpack(fromHex("c7 03 74 01 01 02"));
    assert.equal(copy.constructor, Uint8Array);
    assert.deepEqual(bytesOf(copy), [1, 2]);
  });

  test("unpack() rejects an unknown typed array code", () => {
    for (const code of [11, 12, 0x0f, 0x12, 0xff]) {
      const bytes = fromHex(`c7 02 74 ${code.toString(16).padStart(2, "0")} 00`);
      assert.throws(
        () => unpack(bytes),
        (error: unknown) =>
          error instanceof DecodeError &&
          error.message.startsWith(`Could not find typed array for code ${code}`),
      );
      assert.throws(() => theirUnpack(bytes), {
        message: `Could not find typed array for code ${code}`,
      });
    }
  });

  test("unpack() rejects a byte length that is not a whole number of elements", () => {
    assert.throws(
      () => unpack(fromHex("d6 74 04 01 00 02")),
      (error: unknown) =>
        error instanceof DecodeError && /Uint16Array/.test(error.message) && error.offset === 0,
    );
    assert.throws(() => unpack(fromHex("c7 00 74")), DecodeError);
  });
});

describe("moreTypes big integers", () => {
  test("Packr.pack() with moreTypes writes bigints beyond 64 bits as ext B", () => {
    const cases: [bigint, string][] = [
      [2n ** 64n, "d8 42 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00"],
      [-(2n ** 64n), "d8 42 ff ff ff ff ff ff ff ff 00 00 00 00 00 00 00 00"],
      [
        2n ** 127n,
        "c7 18 42 00 00 00 00 00 00 00 00 80 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
      ],
    ];
    for (const [value, expected] of cases) {
      assert.equal(sameBytes(value, MORE), expected);
      assert.equal(unpack(fromHex(expected)), value);
      assert.equal(theirUnpack(fromHex(expected)), value);
    }
    // within 64 bits nothing changes
    assert.equal(sameBytes(1n, MORE), "d3 00 00 00 00 00 00 00 01");
  });
});
