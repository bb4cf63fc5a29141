// Copyright 2026 the @x/msgpackr authors. MIT license.
// Big integers (docs/wire-format.md, "What the encoder writes", "The bigint extension"): bigints in
// [-2^63, 2^63) are always `d3` int64, up to 2^64 `cf` uint64; beyond, `largeBigIntToFloat`
// (float64) wins over `largeBigIntToString` (decimal string), which wins over
// `useBigIntExtension`/`moreTypes` (ext "B", 0x42: big-endian two's complement, whole 64-bit chunks
// below 2^65536 in magnitude, minimal bytes above); without any of them packing throws a
// RangeError.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { pack, Packr, unpack, Unpackr } from "../mod.ts";
import { fromHex, hex } from "./_util.ts";
import { packBoth, sameBytes, theirUnpack } from "./_types_util.ts";

const EXTENSION = { useBigIntExtension: true, useRecords: false } as const;

function rangeErrorMessage(value: bigint): string {
  return `${value} was too large to fit in MessagePack 64-bit integer format, use useBigIntExtension, or set largeBigIntToFloat to convert to float-64, or set largeBigIntToString to convert to string`;
}

/** Our bytes equal msgpackr's, and both decoders give the bigint back. */
function roundTrips(value: bigint, expected: string): void {
  assert.equal(sameBytes(value, EXTENSION), expected);
  assert.equal(unpack(fromHex(expected)), value);
  assert.equal(msgpackr.unpack(fromHex(expected)), value);
}

describe("64-bit integers", () => {
  test("pack() writes every bigint in [-2^63, 2^63) as 9-byte d3", () => {
    const cases: [bigint, string][] = [
      [0n, "d3 00 00 00 00 00 00 00 00"],
      [1n, "d3 00 00 00 00 00 00 00 01"],
      [-1n, "d3 ff ff ff ff ff ff ff ff"],
      [2n ** 63n - 1n, "d3 7f ff ff ff ff ff ff ff"],
      [-(2n ** 63n), "d3 80 00 00 00 00 00 00 00"],
    ];
    for (const [value, expected] of cases) {
      assert.equal(sameBytes(value, { useRecords: false }), expected);
      assert.equal(unpack(fromHex(expected)), value);
    }
  });

  test("pack() writes bigints in [2^63, 2^64) as cf", () => {
    assert.equal(sameBytes(2n ** 63n, { useRecords: false }), "cf 80 00 00 00 00 00 00 00");
    assert.equal(sameBytes(2n ** 64n - 1n, { useRecords: false }), "cf ff ff ff ff ff ff ff ff");
    assert.equal(unpack(fromHex("cf ff ff ff ff ff ff ff ff")), 2n ** 64n - 1n);
  });

  test("pack() without options throws msgpackr's RangeError just beyond 64 bits", () => {
    for (const value of [2n ** 64n, -(2n ** 63n) - 1n, 2n ** 200n]) {
      assert.throws(() => pack(value), { name: "RangeError", message: rangeErrorMessage(value) });
      assert.throws(() => msgpackr.pack(value), {
        name: "RangeError",
        message: rangeErrorMessage(value),
      });
      assert.throws(() => new Packr().pack([value]), RangeError);
    }
  });

  test("Unpackr reads int64 as the int64AsType says", () => {
    const bytes = fromHex("d3 00 00 00 00 00 00 00 05");
    assert.equal(new Unpackr().unpack(bytes), 5n);
    assert.equal(new Unpackr({ int64AsType: "number" }).unpack(bytes), 5);
    assert.equal(new Unpackr({ int64AsType: "string" }).unpack(bytes), "5");
    assert.equal(new Unpackr({ int64AsType: "auto" }).unpack(bytes), 5);
    const huge = fromHex("cf ff ff ff ff ff ff ff ff");
    assert.equal(new Unpackr({ int64AsType: "auto" }).unpack(huge), 2n ** 64n - 1n);
    assert.equal(new Unpackr({ int64AsType: "string" }).unpack(huge), "18446744073709551615");
  });
});

describe("useBigIntExtension", () => {
  test("Packr.pack() writes 2^64 as 16 bytes (fixext16) of whole 64-bit chunks", () => {
    roundTrips(2n ** 64n, "d8 42 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00");
  });

  test("Packr.pack() writes 2^127 with a leading zero chunk for the sign (24 bytes, ext8)", () => {
    roundTrips(
      2n ** 127n,
      "c7 18 42 00 00 00 00 00 00 00 00 80 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
    );
    roundTrips(
      2n ** 128n - 1n,
      "c7 18 42 00 00 00 00 00 00 00 00 ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff",
    );
  });

  test("Packr.pack() writes negative bigints in two's complement", () => {
    roundTrips(-(2n ** 64n), "d8 42 ff ff ff ff ff ff ff ff 00 00 00 00 00 00 00 00");
    roundTrips(-(2n ** 63n) - 1n, "d8 42 ff ff ff ff ff ff ff ff 7f ff ff ff ff ff ff ff");
    roundTrips(-(2n ** 127n), "d8 42 80 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00");
    roundTrips(
      -(2n ** 127n) - 1n,
      "c7 18 42 ff ff ff ff ff ff ff ff 7f ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff",
    );
  });

  test("Packr.pack() keeps d3 and cf within 64 bits even with the extension on", () => {
    assert.equal(sameBytes(1n, EXTENSION), "d3 00 00 00 00 00 00 00 01");
    assert.equal(sameBytes(-1n, EXTENSION), "d3 ff ff ff ff ff ff ff ff");
    assert.equal(sameBytes(2n ** 64n - 1n, EXTENSION), "cf ff ff ff ff ff ff ff ff");
  });

  test("Packr.pack() writes 64-bit chunks up to 2^65536 in magnitude", () => {
    // 2^65535: the sign bit needs one more chunk, 8 + 8192 bytes
    const { ours, theirs } = packBoth(2n ** 65535n, EXTENSION);
    const expected = new Uint8Array(4 + 8200);
    expected.set([0xc8, 0x20, 0x08, 0x42]);
    expected[4 + 8] = 0x80;
    assert.equal(hex(ours), hex(expected));
    assert.equal(hex(theirs), hex(expected));
    assert.equal(unpack(ours), 2n ** 65535n);
  });

  test("Packr.pack() writes a bigint beyond 2^65536 with minimal bytes", () => {
    // 2^65536 + 12345: 65,537 bits, so 8,193 bytes: 01, zeros, then 30 39
    const value = 2n ** 65536n + 12345n;
    const expected = new Uint8Array(4 + 8193);
    expected.set([0xc8, 0x20, 0x01, 0x42, 0x01]);
    expected.set([0x30, 0x39], expected.length - 2);
    const { ours, theirs } = packBoth(value, EXTENSION);
    assert.equal(hex(ours), hex(expected));
    assert.equal(hex(theirs), hex(expected));
    assert.equal(unpack(ours), value);
    assert.equal(msgpackr.unpack(ours), value);
  });

  test("Packr.pack() writes a negative bigint beyond 2^65536 with minimal bytes", () => {
    // -(2^65540): f0 then 8,192 zero bytes
    const value = -(2n ** 65540n);
    const expected = new Uint8Array(4 + 8193);
    expected.set([0xc8, 0x20, 0x01, 0x42, 0xf0]);
    const { ours, theirs } = packBoth(value, EXTENSION);
    assert.equal(hex(ours), hex(expected));
    assert.equal(hex(theirs), hex(expected));
    assert.equal(unpack(ours), value);
    assert.equal(msgpackr.unpack(ours), value);
    // -(2^65536) still fits the chunk form (8,200 bytes); one less needs the minimal form:
    // ~v = 2^65536 is 01 00.. (8,193 bytes), inverted fe ff..
    const boundary: [bigint, string, number][] = [
      [-(2n ** 65536n), "c8 20 08 42 ff ff", 8200],
      [-(2n ** 65536n) - 1n, "c8 20 01 42 fe ff", 8193],
    ];
    for (const [big, head, length] of boundary) {
      const { ours: mine, theirs: their } = packBoth(big, EXTENSION);
      assert.equal(hex(mine.subarray(0, 6)), head);
      assert.equal(mine.length, 4 + length);
      assert.equal(hex(mine), hex(their));
      assert.equal(unpack(mine), big);
    }
  });

  test("unpack() reads a B payload of any length (first byte signed)", () => {
    const cases: [string, bigint][] = [
      ["c7 00 42", 0n],
      ["d4 42 ff", -1n],
      ["d4 42 7f", 127n],
      ["d5 42 80 00", -32768n],
      ["c7 03 42 01 00 00", 65536n],
      ["c7 09 42 01 00 00 00 00 00 00 00 00", 2n ** 64n],
      ["c7 09 42 ff 00 00 00 00 00 00 00 00", -(2n ** 64n)],
    ];
    for (const [bytes, value] of cases) assert.equal(unpack(fromHex(bytes)), value, bytes);
    // msgpackr reads the non-empty ones the same way
    for (const [bytes, value] of cases.slice(1)) {
      assert.equal(msgpackr.unpack(fromHex(bytes)), value, bytes);
    }
  });

  test("Unpackr.unpack() reads msgpackr's B extension for random big values", () => {
    let value = 1n;
    for (let i = 0; i < 200; i++) {
      value = value * 7919n + BigInt(i);
      for (const signed of [value, -value]) {
        // deno-lint-ignore no-explicit-any
        const theirs = new Uint8Array(new msgpackr.Packr({ ...EXTENSION } as any).pack(signed));
        assert.equal(unpack(theirs), signed);
        const ours = new Packr(EXTENSION).pack(signed);
        assert.equal(hex(ours), hex(theirs));
        assert.equal(theirUnpack(ours), signed);
      }
    }
  });

  test("Packr with moreTypes writes the B extension too", () => {
    assert.equal(
      sameBytes(-(2n ** 64n), { moreTypes: true, useRecords: false }),
      "d8 42 ff ff ff ff ff ff ff ff 00 00 00 00 00 00 00 00",
    );
  });
});

describe("largeBigIntToFloat and largeBigIntToString", () => {
  test("Packr with largeBigIntToFloat writes float64 beyond 64 bits only", () => {
    const options = { largeBigIntToFloat: true, useRecords: false } as const;
    assert.equal(sameBytes(2n ** 64n, options), "cb 43 f0 00 00 00 00 00 00");
    assert.equal(sameBytes(-(2n ** 64n), options), "cb c3 f0 00 00 00 00 00 00");
    assert.equal(sameBytes(5n, options), "d3 00 00 00 00 00 00 00 05");
    assert.equal(unpack(fromHex("cb 43 f0 00 00 00 00 00 00")), 2 ** 64);
  });

  test("Packr with largeBigIntToString writes the decimal string beyond 64 bits only", () => {
    const options = { largeBigIntToString: true, useRecords: false } as const;
    assert.equal(
      sameBytes(2n ** 64n, options),
      "b4 31 38 34 34 36 37 34 34 30 37 33 37 30 39 35 35 31 36 31 36",
    );
    assert.equal(unpack(fromHex(sameBytes(-(2n ** 64n), options))), "-18446744073709551616");
    assert.equal(sameBytes(5n, options), "d3 00 00 00 00 00 00 00 05");
  });

  test("Packr prefers largeBigIntToFloat, then largeBigIntToString, then the extension", () => {
    const float = "cb 43 f0 00 00 00 00 00 00";
    const text = "b4 31 38 34 34 36 37 34 34 30 37 33 37 30 39 35 35 31 36 31 36";
    const cases: [Record<string, boolean>, string][] = [
      [{ largeBigIntToFloat: true, largeBigIntToString: true }, float],
      [{ largeBigIntToFloat: true, useBigIntExtension: true }, float],
      [{ largeBigIntToFloat: true, moreTypes: true }, float],
      [{ largeBigIntToString: true, useBigIntExtension: true }, text],
      [{ largeBigIntToString: true, moreTypes: true }, text],
      [{ largeBigIntToFloat: true, largeBigIntToString: true, useBigIntExtension: true }, float],
    ];
    for (const [options, expected] of cases) {
      assert.equal(sameBytes(2n ** 64n, { ...options, useRecords: false }), expected);
    }
  });
});
