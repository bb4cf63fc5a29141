// Copyright 2026 the @x/msgpackr authors. MIT license.
// The MessagePack community test vectors (npm `msgpack-test-suite`, kawanet/msgpack-test-suite
// 1.0.0): every encoding listed for every vector decodes to the vector's value.
//
// Vector format: each entry has one value field (`nil`, `bool`, `binary` as dash-separated hex,
// `number`, `bignum` as a decimal string, `string`, `array`, `map`, `timestamp` as
// [seconds, nanoseconds], `ext` as [type, hex payload]) and `msgpack`, a list of dash-separated
// hex encodings that must all decode to that value. How each maps to what `unpack` returns:
// - `cf`/`d3` (64-bit integers) decode to bigints by default, so for those encodings the
//   expected value is `BigInt(number)` or `BigInt(bignum)`; other encodings give numbers
//   (`bignum` vectors have no JavaScript number when beyond 2^53, so only their 64-bit
//   encodings are checked against the bigint, and their float encodings against `Number`).
// - `binary` → a plain Uint8Array; `map` → a plain object (a Map with `mapsAsObjects: false`).
// - `timestamp` → a Date, which holds milliseconds: the millisecond that holds the instant,
//   `seconds * 1000 + floor(ns / 1e6)` computed with bigints (toward the past also before 1970;
//   msgpackr computes `seconds * 1000 + ns / 1e6` in float64, which rounds up near a second).
// - `ext` types 1–7 are application types: msgpackr (and we) reject unregistered ones, so the
//   vectors are decoded by an Unpackr with an extension registered for each type that returns
//   `{ type, data }`, and the plain `unpack` is checked to reject them naming the type.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import suite from "msgpack-test-suite/dist/msgpack-test-suite.json" with { type: "json" };
import { DecodeError, pack, unpack, Unpackr } from "../mod.ts";
import { comparable } from "./_interop.ts";
import { hex } from "./_util.ts";

interface Vector {
  nil?: null;
  bool?: boolean;
  binary?: string;
  number?: number;
  bignum?: string;
  string?: string;
  array?: unknown[];
  map?: Record<string, unknown>;
  timestamp?: [number, number];
  ext?: [number, string];
  msgpack: string[];
}

const groups = suite as unknown as Record<string, Vector[]>;

function bytesOf(dashed: string): Uint8Array {
  return dashed === ""
    ? new Uint8Array(0)
    : new Uint8Array(dashed.split("-").map((byte) => parseInt(byte, 16)));
}

/** An ext value as the mapping extension returns it. */
class ExtValue {
  constructor(readonly type: number, readonly data: Uint8Array) {}
}

const extDecoder = new Unpackr({ useRecords: false });
for (let type = 1; type <= 7; type++) {
  extDecoder.addExtension({
    type,
    unpack: (bytes) => new ExtValue(type, bytes.slice()),
  });
}

/** Whether an encoding is a 64-bit integer (which decodes to a bigint by default). */
function isInt64(bytes: Uint8Array): boolean {
  return bytes[0] === 0xcf || bytes[0] === 0xd3;
}

/** The value `unpack` should return for one encoding of a vector. */
function expectedFor(vector: Vector, bytes: Uint8Array): unknown {
  if ("nil" in vector) return null;
  if ("bool" in vector) return vector.bool;
  if ("binary" in vector) return bytesOf(vector.binary!);
  if ("bignum" in vector) {
    return isInt64(bytes) ? BigInt(vector.bignum!) : Number(vector.bignum);
  }
  if ("number" in vector) return isInt64(bytes) ? BigInt(vector.number!) : vector.number;
  if ("string" in vector) return vector.string;
  if ("array" in vector) return vector.array;
  if ("map" in vector) return vector.map;
  if ("timestamp" in vector) {
    const [seconds, nanoseconds] = vector.timestamp!;
    // nanoseconds are 0..999999999, so flooring them to milliseconds is exact division
    return new Date(Number(BigInt(seconds) * 1000n + BigInt(nanoseconds) / 1000000n));
  }
  if ("ext" in vector) return new ExtValue(vector.ext![0], bytesOf(vector.ext![1]));
  throw new Error(`Unknown vector ${JSON.stringify(vector)}`);
}

function label(vector: Vector): string {
  const { msgpack: _, ...value } = vector;
  return JSON.stringify(value).slice(0, 70);
}

/** Objects become Maps, recursively (what a `mapsAsObjects: false` decoder returns). */
function asMaps(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asMaps);
  if (value !== null && typeof value === "object" && !(value instanceof Uint8Array)) {
    return new Map(Object.entries(value).map(([key, item]) => [key, asMaps(item)]));
  }
  return value;
}

function containsObject(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(containsObject);
  return value !== null && typeof value === "object";
}

test("msgpack-test-suite has the expected groups and vectors", () => {
  assert.deepEqual(Object.keys(groups).sort(), [
    "10.nil.yaml",
    "11.bool.yaml",
    "12.binary.yaml",
    "20.number-positive.yaml",
    "21.number-negative.yaml",
    "22.number-float.yaml",
    "23.number-bignum.yaml",
    "30.string-ascii.yaml",
    "31.string-utf8.yaml",
    "32.string-emoji.yaml",
    "40.array.yaml",
    "41.map.yaml",
    "42.nested.yaml",
    "50.timestamp.yaml",
    "60.ext.yaml",
  ]);
  const encodings = Object.values(groups).flat().reduce(
    (sum, vector) => sum + vector.msgpack.length,
    0,
  );
  assert.equal(encodings, 233);
});

for (const [group, vectors] of Object.entries(groups)) {
  describe(`msgpack-test-suite ${group}`, () => {
    for (const vector of vectors) {
      for (const encoding of vector.msgpack) {
        const bytes = bytesOf(encoding);
        const isExt = "ext" in vector;
        test(`unpack() decodes ${encoding} as ${label(vector)}`, () => {
          const expected = expectedFor(vector, bytes);
          const decoded = isExt ? extDecoder.unpack(bytes) : unpack(bytes);
          if (expected instanceof Date) {
            assert.ok(decoded instanceof Date);
            assert.equal(decoded.getTime(), expected.getTime());
            // msgpackr's float64 arithmetic rounds near a whole second: at most to the next one
            const theirs = (msgpackr.unpack(bytes) as Date).getTime() - expected.getTime();
            assert.ok(theirs === 0 || theirs === 1, `msgpackr is ${theirs} ms off`);
          } else {
            assert.deepEqual(decoded, expected);
          }
        });
      }
    }
  });
}

describe("msgpack-test-suite with decoder options", () => {
  test("Unpackr({ mapsAsObjects: false }) decodes every map vector to Maps", () => {
    const decoder = new Unpackr({ mapsAsObjects: false });
    for (const group of ["41.map.yaml", "42.nested.yaml"]) {
      for (const vector of groups[group]) {
        for (const encoding of vector.msgpack) {
          const expected = asMaps(expectedFor(vector, bytesOf(encoding)));
          assert.deepEqual(
            comparable(decoder.unpack(bytesOf(encoding))),
            comparable(expected),
            encoding,
          );
        }
      }
    }
  });

  test("Unpackr({ int64AsType }) decodes every 64-bit integer vector", () => {
    const decoders = {
      number: new Unpackr({ int64AsType: "number" }),
      string: new Unpackr({ int64AsType: "string" }),
      auto: new Unpackr({ int64AsType: "auto" }),
    };
    let checked = 0;
    for (
      const group of ["20.number-positive.yaml", "21.number-negative.yaml", "23.number-bignum.yaml"]
    ) {
      for (const vector of groups[group]) {
        const exact = BigInt(vector.bignum ?? vector.number!);
        for (const encoding of vector.msgpack) {
          const bytes = bytesOf(encoding);
          if (!isInt64(bytes)) continue;
          checked++;
          assert.equal(decoders.number.unpack(bytes), Number(exact), encoding);
          assert.equal(decoders.string.unpack(bytes), exact.toString(), encoding);
          const safe = exact >= -(2n ** 53n) && exact <= 2n ** 53n;
          assert.equal(decoders.auto.unpack(bytes), safe ? Number(exact) : exact, encoding);
        }
      }
    }
    assert.equal(checked, 42);
  });

  test("unpack() rejects the ext vectors without a registered extension, naming the type", () => {
    for (const vector of groups["60.ext.yaml"]) {
      const type = vector.ext![0];
      for (const encoding of vector.msgpack) {
        const bytes = bytesOf(encoding);
        const message = bytes[0] === 0xd4
          ? `Unknown extension ${type}`
          : `Unknown extension type ${type}`;
        assert.throws(() => msgpackr.unpack(bytes), new RegExp(message));
        assert.throws(() => unpack(bytes), (error: unknown) => {
          assert.ok(error instanceof DecodeError);
          assert.match(error.message, new RegExp(`^${message}\\b`));
          assert.equal(error.offset, 0);
          return true;
        });
      }
    }
  });

  test("timestamp vectors give the millisecond that holds the instant (msgpackr rounds)", () => {
    const vectors = groups["50.timestamp.yaml"];
    const times = vectors.map((vector) => (unpack(bytesOf(vector.msgpack[0])) as Date).getTime());
    const theirs = (i: number) =>
      (msgpackr.unpack(bytesOf(vectors[i].msgpack[0])) as Date).getTime();
    assert.equal(times[1], 1514862245678); // 2018-01-02T03:04:05.678901234Z
    // 2514-05-30T01:53:03.999999999Z: msgpackr's seconds * 1000 + ns / 1e6 rounds up to the next
    // millisecond in float64 (17179869183999.999999 is not representable)
    assert.equal(times[8], 17179869183999);
    assert.equal(theirs(8), 17179869184000);
    // 1969-12-31T23:59:59.999999999Z is in the millisecond before 1970; msgpackr rounds to 0
    assert.equal(times[11], -1);
    assert.equal(theirs(11), 0);
    assert.equal(times[17], -62167219200000); // 0000-01-01
  });
});

describe("msgpack-test-suite values packed by pack()", () => {
  for (const [group, vectors] of Object.entries(groups)) {
    if (group === "60.ext.yaml") continue;
    test(`pack() writes msgpackr's bytes for the ${group} values, and they decode back`, () => {
      for (const vector of vectors) {
        const first = bytesOf(vector.msgpack[0]);
        let value = expectedFor(vector, first);
        if ("bignum" in vector) value = BigInt(vector.bignum!);
        if ("timestamp" in vector && vector.timestamp![1] % 1e6 !== 0) continue; // not a whole ms
        const bytes = pack(value);
        assert.equal(hex(bytes), hex(msgpackr.pack(value)), label(vector));
        assert.deepEqual(comparable(unpack(bytes)), comparable(value), label(vector));
        // msgpackr's choices are minimal except map16 for objects and timestamp96 past 2^32 s
        if (!containsObject(value) || value instanceof Uint8Array) {
          const listed = vector.msgpack.map((encoding) => encoding.replaceAll("-", " "));
          assert.ok(listed.includes(hex(bytes)), `${hex(bytes)} not in ${listed.join(" | ")}`);
        }
      }
    });
  }
});
