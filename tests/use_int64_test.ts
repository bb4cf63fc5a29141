// Copyright 2026 the @x/msgpackr authors. MIT license.
// The `useInt64` option (docs/wire-format.md, "What the encoder writes", "64-bit integers"): a
// number that is a safe integer beyond 32 bits is written as uint64 `cf` (positive) or int64 `d3`
// (negative) instead of float64; every other number, and every bigint, is written as without it.
// The bytes are @msgpack/msgpack's for the same integers, and msgpackr reads them back to the same
// numbers (`int64AsType: "auto"`) or bigints (its default).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { encode as theirEncode } from "@msgpack/msgpack";
import {
  FLOAT32_OPTIONS,
  pack,
  Packr,
  PackrStream,
  unpack,
  unpackMultiple,
  Unpackr,
} from "../mod.ts";
import { hex } from "./_util.ts";

const INT64 = new Packr({ useRecords: false, useInt64: true });
const AUTO = { int64AsType: "auto" } as const;
/** msgpackr 2.1.3 reads `int64AsType: "auto"`, which its types leave out. */
const THEIR_AUTO = AUTO as unknown as msgpackr.Options;

/** Integers beyond 32 bits, to the safe limits, and their bytes under `useInt64`. */
const BEYOND_32_BITS: [number, string][] = [
  [2 ** 32, "cf 00 00 00 01 00 00 00 00"],
  [2 ** 32 + 1, "cf 00 00 00 01 00 00 00 01"],
  [1_700_000_000_123, "cf 00 00 01 8b cf e5 68 7b"],
  [2 ** 53 - 1, "cf 00 1f ff ff ff ff ff ff"],
  [-(2 ** 31) - 1, "d3 ff ff ff ff 7f ff ff ff"],
  [-(2 ** 32), "d3 ff ff ff ff 00 00 00 00"],
  [-1_700_000_000_123, "d3 ff ff fe 74 30 1a 97 85"],
  [-(2 ** 53 - 1), "d3 ff e0 00 00 00 00 00 01"],
];

/** Numbers `useInt64` leaves alone: within 32 bits, not safe integers, not integers. */
const UNCHANGED: number[] = [
  0,
  -0,
  1,
  0x3f,
  0x7f,
  0xff,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32 - 1,
  -1,
  -32,
  -(2 ** 31),
  2 ** 53,
  -(2 ** 53),
  2 ** 53 + 2,
  2 ** 64,
  -(2 ** 70),
  Number.MAX_VALUE,
  0.5,
  -1.5,
  0.1,
  2 ** 32 + 0.5,
  NaN,
  Infinity,
  -Infinity,
];

describe("useInt64", () => {
  test("writes safe integers beyond 32 bits as cf / d3, as @msgpack/msgpack does", () => {
    for (const [value, expected] of BEYOND_32_BITS) {
      assert.equal(hex(INT64.pack(value)), expected, String(value));
      assert.equal(hex(INT64.pack(value)), hex(theirEncode(value)), String(value));
      // without it: msgpackr's float64
      assert.equal(INT64.pack(value).length, 9);
      assert.equal(pack(value)[0], 0xcb, String(value));
    }
  });

  test("leaves every other number as pack writes it (-0, 2^53, fractions, NaN)", () => {
    for (const value of UNCHANGED) {
      assert.equal(hex(INT64.pack(value)), hex(pack(value)), String(value));
    }
    assert.equal(hex(INT64.pack(-0)), "00");
    assert.equal(hex(INT64.pack(2 ** 53)), "cb 43 40 00 00 00 00 00 00");
    assert.equal(hex(INT64.pack(2 ** 31)), "ce 80 00 00 00");
    assert.equal(hex(INT64.pack(-(2 ** 31))), "d2 80 00 00 00");
  });

  test("leaves bigints as they are", () => {
    for (const value of [0n, 5n, -(2n ** 63n), 2n ** 63n, 2n ** 64n - 1n]) {
      assert.equal(hex(INT64.pack(value)), hex(pack(value)));
    }
    assert.throws(() => INT64.pack(2n ** 64n), RangeError);
  });

  test("applies in arrays, maps, records and Maps alike", () => {
    const at = 1_700_000_000_123;
    const bytesOf = (value: number) => [...INT64.pack(value)];
    // an array that starts with a number (the number element loop) and one that does not
    for (const array of [[1, at, 0.5, -at], ["x", at, 0.5, -at]]) {
      const packed = [...INT64.pack(array)];
      const tail = [...bytesOf(at), ...pack(0.5), ...bytesOf(-at)];
      assert.deepEqual(packed.slice(packed.length - tail.length), tail);
      assert.deepEqual(new Unpackr(AUTO).unpack(INT64.pack(array)), array);
    }
    const records = new Packr({ useInt64: true });
    const value = { at, list: [{ at }], map: new Map([[at, -at]]) };
    assert.deepEqual(new Packr({ ...AUTO, useInt64: true }).unpack(records.pack(value)), {
      at,
      list: [{ at }],
      map: new Map([[at, -at]]),
    });
    assert.ok(hex(records.pack({ at })).includes(hex(INT64.pack(at))));
  });

  test("msgpackr reads the bytes back to the same numbers (int64AsType auto) or bigints", () => {
    const values = BEYOND_32_BITS.map(([value]) => value);
    const bytes = INT64.pack(values);
    assert.deepEqual(new msgpackr.Unpackr(THEIR_AUTO).unpack(bytes), values);
    assert.deepEqual(new msgpackr.Unpackr({ int64AsType: "number" }).unpack(bytes), values);
    assert.deepEqual(msgpackr.unpack(bytes), values.map(BigInt));
    assert.deepEqual(new Unpackr(AUTO).unpack(bytes), values);
    assert.deepEqual(unpack(bytes), values.map(BigInt));
    const mixed = [...values, ...UNCHANGED];
    assert.deepEqual(
      new msgpackr.Unpackr(THEIR_AUTO).unpack(INT64.pack(mixed)),
      new msgpackr.Unpackr(THEIR_AUTO).unpack(pack(mixed)),
    );
  });

  test("safe integers beyond 32 bits at random: cf / d3 with the exact value", () => {
    const view = new DataView(new ArrayBuffer(8));
    for (let i = 0; i < 2000; i++) {
      const magnitude = 2 ** 32 + Math.floor(Math.random() * (2 ** 53 - 2 ** 32));
      const value = i % 2 === 0 ? magnitude : -magnitude;
      const bytes = INT64.pack(value);
      assert.equal(bytes[0], value > 0 ? 0xcf : 0xd3);
      view.setUint32(0, (bytes[1] << 24 | bytes[2] << 16 | bytes[3] << 8 | bytes[4]) >>> 0);
      view.setUint32(4, (bytes[5] << 24 | bytes[6] << 16 | bytes[7] << 8 | bytes[8]) >>> 0);
      assert.equal(view.getBigInt64(0), BigInt(value));
    }
  });

  test("with useFloat32, fractions go float32 and integers beyond 32 bits int64", () => {
    const packr = new Packr({
      useRecords: false,
      useInt64: true,
      useFloat32: FLOAT32_OPTIONS.ALWAYS,
    });
    assert.equal(hex(packr.pack([1.5, 2 ** 40])), "92 ca 3f c0 00 00 cf 00 00 01 00 00 00 00 00");
  });

  test("can be assigned: packr.useInt64 = true changes the next pack", () => {
    const packr = new Packr({ useRecords: false });
    assert.equal(packr.useInt64, undefined);
    assert.equal(packr.pack(2 ** 40)[0], 0xcb);
    packr.useInt64 = true;
    assert.equal(packr.useInt64, true);
    assert.equal(hex(packr.pack(2 ** 40)), "cf 00 00 01 00 00 00 00 00");
    assert.equal(hex(packr.pack([2 ** 40])), "91 cf 00 00 01 00 00 00 00 00");
    packr.useInt64 = false;
    assert.equal(packr.pack(2 ** 40)[0], 0xcb);
  });

  test("the default pack and Packr write msgpackr's float64", () => {
    for (const [value] of BEYOND_32_BITS) {
      assert.equal(hex(pack(value)), hex(msgpackr.pack(value)));
      assert.equal(hex(new Packr().pack([value])), hex(new msgpackr.Packr().pack([value])));
    }
  });

  test("PackrStream takes it", async () => {
    const chunks = await Array.fromAsync(
      ReadableStream.from([{ at: 2 ** 40 }, -(2 ** 40)]).pipeThrough(
        new PackrStream({ useRecords: false, useInt64: true }),
      ),
    );
    const bytes = new Uint8Array(chunks.flatMap((chunk) => [...chunk]));
    assert.ok(hex(bytes).includes("cf 00 00 01 00 00 00 00 00"));
    assert.ok(hex(bytes).includes("d3 ff ff ff 00 00 00 00 00"));
    assert.deepEqual(new Unpackr({ ...AUTO, mapsAsObjects: true }).unpackMultiple(bytes), [{
      at: 2 ** 40,
    }, -(2 ** 40)]);
    assert.deepEqual(unpackMultiple(bytes), [{ at: 2n ** 40n }, -(2n ** 40n)]);
  });
});
