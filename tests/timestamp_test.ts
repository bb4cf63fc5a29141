// Copyright 2026 the @x/msgpackr authors. MIT license.
// Timestamps (ext -1; docs/wire-format.md, "Timestamps") exact to the nanosecond and to the
// millisecond:
//
// - a Date is the millisecond that holds the instant (toward the past on both sides of 1970), in
//   each of the three forms, through `unpack`, `Unpackr`, the no-eval entry, `UnpackrStream` and
//   `decodeIter` fed one byte at a time, and the CLI's `decode` (plain and `--exact`);
// - `timestamps: "timestamp"` gives a `Timestamp` of the exact seconds and nanoseconds, and
//   packing it writes the smallest form the specification allows, byte for byte;
// - `Timestamp` itself: validation, conversions, its ISO text; `Temporal.Instant` packs exactly;
// - a timestamp of another length than 4, 8, 12 (or msgpackr's 1-byte invalid Date) is a
//   `DecodeError` at its header, also in a stream that has only the header.
//
// Expected values are computed here with bigints from each year's epoch seconds (`Date.UTC`), and
// the bytes of each form are written here from the specification, not by the code under test.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import suite from "msgpack-test-suite/dist/msgpack-test-suite.json" with { type: "json" };
import {
  addExtension,
  DecodeError,
  IncompleteDataError,
  pack,
  Packr,
  Timestamp,
  unpack,
  Unpackr,
  type UnpackrOptions,
} from "../mod.ts";
import * as noEval from "../no_eval.ts";
import { decodeIter, UnpackrStream } from "../stream.ts";
import { readBody } from "../http.ts";
import { decodeToJson, encodeFromJson, inspectBytes } from "../cli.ts";
import { concatBytes } from "../_core/bytes.ts";
import { JsonValueStream } from "../_cli/value_stream.ts";
import { PlainConverter } from "../_cli/plain_json.ts";
import { runCli, text } from "./_cli.ts";
import { fromHex, hex } from "./_util.ts";

// ---- expected values, computed independently ---------------------------------------------------

const NS = 1000000000n;

/** `a / b` rounded toward minus infinity (b > 0). */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b < 0n ? q - 1n : q;
}

/** The millisecond that holds the instant: floor((s · 1e9 + ns) / 1e6). */
function expectedMillis(seconds: bigint, nanoseconds: number): number {
  return Number(floorDiv(seconds * NS + BigInt(nanoseconds), 1000000n));
}

/** ISO text from the platform's Date for the whole second, and the nanoseconds in 9 digits. */
function expectedText(seconds: bigint, nanoseconds: number): string {
  const whole = new Date(Number(seconds) * 1000).toISOString().slice(0, -5);
  return `${whole}.${String(nanoseconds).padStart(9, "0")}Z`;
}

/** The CLI's plain JSON text: 3 fraction digits for whole milliseconds, else 9. */
function expectedCliText(seconds: bigint, nanoseconds: number): string {
  const whole = new Date(Number(seconds) * 1000).toISOString().slice(0, -5);
  const fraction = nanoseconds % 1000000 === 0
    ? String(nanoseconds / 1000000).padStart(3, "0")
    : String(nanoseconds).padStart(9, "0");
  return `${whole}.${fraction}Z`;
}

/** Big-endian bytes of the low `size` bytes of `value` (two's complement). */
function bigEndian(value: bigint, size: number): number[] {
  const unsigned = BigInt.asUintN(size * 8, value);
  const bytes: number[] = [];
  for (let i = size - 1; i >= 0; i--) bytes.push(Number((unsigned >> BigInt(i * 8)) & 0xffn));
  return bytes;
}

type Form = 32 | 64 | 96;

/** The bytes of one form, from the specification. */
function encodeForm(form: Form, seconds: bigint, nanoseconds: number): Uint8Array {
  if (form === 32) return Uint8Array.from([0xd6, 0xff, ...bigEndian(seconds, 4)]);
  if (form === 64) {
    return Uint8Array.from([0xd7, 0xff, ...bigEndian((BigInt(nanoseconds) << 34n) | seconds, 8)]);
  }
  return Uint8Array.from([
    0xc7,
    0x0c,
    0xff,
    ...bigEndian(BigInt(nanoseconds), 4),
    ...bigEndian(seconds, 8),
  ]);
}

/** The forms that hold an instant; the first is the smallest. */
function formsOf(seconds: bigint, nanoseconds: number): Form[] {
  const forms: Form[] = [];
  if (nanoseconds === 0 && seconds >= 0n && seconds < 2n ** 32n) forms.push(32);
  if (seconds >= 0n && seconds < 2n ** 34n) forms.push(64);
  forms.push(96);
  return forms;
}

const YEARS = [1900, 1969, 1970, 2038, 2106, 2514, 9999];
const NANOS = [0, 1, 999999999];

interface Instant {
  label: string;
  seconds: bigint;
  nanoseconds: number;
}

/** The first and last second of each year, and the edges of the forms, with each ns. */
const INSTANTS: Instant[] = (() => {
  const seconds: [string, bigint][] = [];
  for (const year of YEARS) {
    const first = BigInt(Date.UTC(year, 0, 1) / 1000);
    const next = BigInt(Date.UTC(year + 1, 0, 1) / 1000);
    seconds.push([`${year} first second`, first], [`${year} last second`, next - 1n]);
  }
  seconds.push(
    ["2^31 - 1 (2038)", 2n ** 31n - 1n],
    ["2^32 - 1 (2106)", 2n ** 32n - 1n],
    ["2^32 (2106)", 2n ** 32n],
    ["2^34 - 1 (2514)", 2n ** 34n - 1n],
    ["2^34 (2514)", 2n ** 34n],
    ["-1 (1969)", -1n],
    ["0 (1970)", 0n],
  );
  return seconds.flatMap(([label, s]) =>
    NANOS.map((nanoseconds) => ({ label: `${label} + ${nanoseconds} ns`, seconds: s, nanoseconds }))
  );
})();

interface Encoding extends Instant {
  form: Form;
  bytes: Uint8Array;
}

const ENCODINGS: Encoding[] = INSTANTS.flatMap((instant) =>
  formsOf(instant.seconds, instant.nanoseconds).map((form) => ({
    ...instant,
    label: `${instant.label}, ${form}-bit`,
    form,
    bytes: encodeForm(form, instant.seconds, instant.nanoseconds),
  }))
);

/** The issue's examples: bytes, the instant, and the Date they must give. */
const ISSUE_EXAMPLES: [string, bigint, number, number][] = [
  ["d7 ff ee 6b 27 fc 7f ff ff ff", 2147483647n, 999999999, Date.UTC(2038, 0, 19, 3, 14, 7, 999)],
  [
    "c7 0c ff 3b 9a c9 ff 00 00 00 3a ff f4 41 7f",
    253402300799n,
    999999999,
    Date.UTC(9999, 11, 31, 23, 59, 59, 999),
  ],
  ["d7 ff ee 6b 27 fc ff ff ff ff", 4294967295n, 999999999, 4294967295999],
  ["c7 0c ff 3b 9a c9 ff ff ff ff ff ff ff ff ff", -1n, 999999999, -1],
];

function assertDate(value: unknown, millis: number, label: string): void {
  assert.ok(value instanceof Date, `${label}: a Date`);
  assert.equal(value.getTime(), millis, label);
}

function assertTimestamp(value: unknown, seconds: bigint, nanoseconds: number, label: string) {
  assert.ok(value instanceof Timestamp, `${label}: a Timestamp`);
  assert.equal(value.seconds, seconds, label);
  assert.equal(value.nanoseconds, nanoseconds, label);
}

/** Each byte its own chunk. */
function bytewise(bytes: Uint8Array): Uint8Array[] {
  return [...bytes].map((byte) => Uint8Array.of(byte));
}

async function streamed(chunks: Uint8Array[], options: UnpackrOptions = {}): Promise<unknown[]> {
  return await Array.fromAsync(ReadableStream.from(chunks).pipeThrough(new UnpackrStream(options)));
}

// ---- tests -------------------------------------------------------------------------------------

test("the corpus has every year with 0, 1 and 999999999 ns in every form that holds them", () => {
  assert.equal(INSTANTS.length, (YEARS.length * 2 + 7) * 3);
  for (const form of [32, 64, 96]) {
    assert.ok(ENCODINGS.some((encoding) => encoding.form === form), `${form}-bit`);
  }
  // 32-bit only for whole seconds from 0 to 2^32 - 1; 64-bit only from 0 to 2^34 - 1
  assert.ok(!ENCODINGS.some((e) => e.form === 32 && (e.nanoseconds !== 0 || e.seconds < 0n)));
  assert.ok(!ENCODINGS.some((e) => e.form === 64 && (e.seconds < 0n || e.seconds >= 2n ** 34n)));
  assert.equal(ENCODINGS.filter((e) => e.seconds === 2n ** 32n - 1n).length, 3 + 2 + 2);
});

describe("a Date is the millisecond that holds the instant", () => {
  test("the issue's examples", () => {
    for (const [text, seconds, nanoseconds, millis] of ISSUE_EXAMPLES) {
      const bytes = fromHex(text);
      assert.equal(expectedMillis(seconds, nanoseconds), millis, text);
      assertDate(unpack(bytes), millis, text);
      assertDate(new Unpackr().unpack(bytes), millis, text);
      assertDate(noEval.unpack(bytes), millis, text);
      assertTimestamp(
        new Unpackr({ timestamps: "timestamp" }).unpack(bytes),
        seconds,
        nanoseconds,
        text,
      );
    }
    assert.equal(
      new Date(Date.UTC(2038, 0, 19, 3, 14, 7, 999)).toISOString(),
      "2038-01-19T03:14:07.999Z",
    );
    assert.equal(
      (unpack(fromHex(ISSUE_EXAMPLES[1][0])) as Date).toISOString(),
      "9999-12-31T23:59:59.999Z",
    );
  });

  test("every year and form through unpack, Unpackr, Packr and the no-eval entry", () => {
    const decoders = [
      ["unpack", unpack],
      ["Unpackr", new Unpackr().unpack],
      ["Packr", new Packr().unpack],
      ["Unpackr({ useRecords: false })", new Unpackr({ useRecords: false }).unpack],
      ["no-eval unpack", noEval.unpack],
      ["no-eval Unpackr", new noEval.Unpackr().unpack],
    ] as const;
    for (const encoding of ENCODINGS) {
      const millis = expectedMillis(encoding.seconds, encoding.nanoseconds);
      for (const [name, decode] of decoders) {
        assertDate(decode(encoding.bytes), millis, `${name}: ${encoding.label}`);
      }
    }
  });

  test("UnpackrStream and decodeIter fed one byte at a time", async () => {
    const all = concatBytes(ENCODINGS.map((encoding) => encoding.bytes));
    const expected = ENCODINGS.map((e) => expectedMillis(e.seconds, e.nanoseconds));
    const fromStream = await streamed(bytewise(all));
    const fromIter = [...decodeIter(bytewise(all))];
    for (const values of [fromStream, fromIter]) {
      assert.equal(values.length, ENCODINGS.length);
      values.forEach((value, i) => assertDate(value, expected[i], ENCODINGS[i].label));
    }
  });

  test("UnpackrStream and decodeIter split at every offset of each encoding", async () => {
    for (const encoding of ENCODINGS) {
      const millis = expectedMillis(encoding.seconds, encoding.nanoseconds);
      for (let cut = 1; cut < encoding.bytes.length; cut++) {
        const chunks = [encoding.bytes.slice(0, cut), encoding.bytes.slice(cut)];
        const [value] = [...decodeIter(chunks)];
        assertDate(value, millis, `decodeIter: ${encoding.label}, cut at ${cut}`);
        const [streamedValue] = await streamed(chunks);
        assertDate(streamedValue, millis, `UnpackrStream: ${encoding.label}, cut at ${cut}`);
      }
    }
  });
});

describe("the CLI prints the exact instant", () => {
  test("decodeToJson: plain ISO text to the nanosecond, and --exact seconds and nanoseconds", () => {
    for (const encoding of ENCODINGS) {
      const { seconds, nanoseconds, bytes, label } = encoding;
      const plain = JSON.parse(decodeToJson(bytes));
      assert.deepEqual(plain, {
        $msgpack: "timestamp",
        value: expectedCliText(seconds, nanoseconds),
      }, label);
      const exactText = decodeToJson(bytes, { exact: true });
      const exact = JSON.parse(exactText);
      if (exact.$msgpack === "date") {
        // a Date's own bytes (msgpackr's form for whole milliseconds)
        assert.equal(nanoseconds % 1000000, 0, label);
        assert.equal(Date.parse(exact.value), expectedMillis(seconds, nanoseconds), label);
      } else {
        assert.equal(exact.$msgpack, "timestamp", label);
        assert.equal(exact.seconds, String(seconds), label);
        assert.equal(exact.nanoseconds, nanoseconds, label);
      }
      assert.equal(hex(encodeFromJson(exactText)), hex(bytes), `${label}: --exact | encode`);
    }
  });

  test("the issue's examples in decode and inspect", () => {
    const texts = [
      "2038-01-19T03:14:07.999999999Z",
      "9999-12-31T23:59:59.999999999Z",
      "2106-02-07T06:28:15.999999999Z",
      "1969-12-31T23:59:59.999999999Z",
    ];
    ISSUE_EXAMPLES.forEach(([bytes], i) => {
      assert.equal(
        decodeToJson(fromHex(bytes), { ndjson: true }),
        `{"$msgpack":"timestamp","value":"${texts[i]}"}\n`,
      );
      const inspected = inspectBytes(fromHex(bytes));
      assert.equal(inspected.error, null);
      assert.match(
        inspected.text,
        new RegExp(`timestamp(64|96)  ${texts[i].replaceAll(".", "\\.")}\n$`),
      );
    });
  });

  test("msgpackr decode --ndjson of the whole corpus as a sequence", async () => {
    const result = await runCli(
      ["decode", "--ndjson"],
      concatBytes(ENCODINGS.map((encoding) => encoding.bytes)),
    );
    assert.equal(result.stderr, "");
    assert.equal(result.code, 0);
    const lines = text(result.stdout).trimEnd().split("\n");
    assert.equal(lines.length, ENCODINGS.length);
    lines.forEach((line, i) => {
      const { seconds, nanoseconds, label } = ENCODINGS[i];
      assert.equal(
        line,
        `{"$msgpack":"timestamp","value":"${expectedCliText(seconds, nanoseconds)}"}`,
        label,
      );
    });
  });
});

describe('timestamps: "timestamp"', () => {
  const exact = new Unpackr({ timestamps: "timestamp" });

  test("gives every instant exactly, and packing it writes the smallest form", () => {
    for (const encoding of ENCODINGS) {
      const { seconds, nanoseconds, bytes, label } = encoding;
      const value = exact.unpack(bytes) as Timestamp;
      assertTimestamp(value, seconds, nanoseconds, label);
      assert.equal(value.toDate().getTime(), expectedMillis(seconds, nanoseconds), label);
      assert.equal(value.toString(), expectedText(seconds, nanoseconds), label);
      const smallest = encodeForm(formsOf(seconds, nanoseconds)[0], seconds, nanoseconds);
      assert.equal(hex(pack(value)), hex(smallest), label);
      assert.equal(hex(new Packr().pack(value)), hex(smallest), label);
      assert.equal(hex(new Packr({ useTimestamp32: true }).pack(value)), hex(smallest), label);
      assertTimestamp(
        new noEval.Unpackr({ timestamps: "timestamp" }).unpack(bytes),
        seconds,
        nanoseconds,
        label,
      );
    }
  });

  test("the smallest forms are the first listed by msgpack-test-suite", () => {
    const vectors =
      (suite as unknown as Record<string, { timestamp: [number, number]; msgpack: string[] }[]>)[
        "50.timestamp.yaml"
      ];
    assert.ok(vectors.length > 10);
    for (const vector of vectors) {
      const [seconds, nanoseconds] = vector.timestamp;
      for (const encoding of vector.msgpack) {
        const bytes = fromHex(encoding.replaceAll("-", " "));
        assertTimestamp(exact.unpack(bytes), BigInt(seconds), nanoseconds, encoding);
      }
      const time = new Timestamp(seconds, nanoseconds);
      assert.equal(hex(pack(time)), vector.msgpack[0].replaceAll("-", " "), String(time));
    }
  });

  test("in maps, arrays and records, in streams, iterators and HTTP bodies", async () => {
    const time = new Timestamp(1700000000, 123456789);
    const before = new Timestamp(-2, 500000000);
    const value = { at: time, list: [before, time], when: new Date(1500) };
    for (
      const bytes of [
        pack(value),
        new Packr().pack(value),
        new Packr({ structuredClone: true }).pack(value),
      ]
    ) {
      const decoded = new Unpackr({ timestamps: "timestamp", mapsAsObjects: true }).unpack(bytes);
      assertTimestamp(decoded.at, 1700000000n, 123456789, "at");
      assertTimestamp(decoded.list[0], -2n, 500000000, "list[0]");
      assertTimestamp(decoded.list[1], 1700000000n, 123456789, "list[1]");
      // a Date is written as msgpackr writes it, and decodes to a Timestamp of its instant
      assertTimestamp(decoded.when, 1n, 500000000, "when");
      // the default decodes Dates
      assert.equal(unpack(bytes).at.getTime(), 1700000000123);
    }
    const all = concatBytes(ENCODINGS.map((encoding) => encoding.bytes));
    const options = { timestamps: "timestamp" } as const;
    const fromStream = await streamed(bytewise(all), options);
    const fromIter = [...decodeIter(bytewise(all), options)];
    const body = await readBody<Timestamp[]>(
      new Request("http://localhost/", {
        method: "POST",
        headers: { "content-type": "application/msgpack" },
        body: all,
      }),
      { multiple: true, timestamps: "timestamp" },
    );
    for (const values of [fromStream, fromIter, body]) {
      assert.equal(values.length, ENCODINGS.length);
      values.forEach((item, i) => {
        const { seconds, nanoseconds, label } = ENCODINGS[i];
        assertTimestamp(item, seconds, nanoseconds, label);
      });
    }
    const unpackr = new Unpackr({ timestamps: "timestamp" });
    const streamedWith = await Array.fromAsync(
      ReadableStream.from([pack(time)]).pipeThrough(new UnpackrStream({ unpackr })),
    );
    assertTimestamp(streamedWith[0], 1700000000n, 123456789, "UnpackrStream({ unpackr })");
  });

  test("is an option of the instance that may be assigned, and is checked", () => {
    const bytes = fromHex("d7 ff 00 00 00 04 00 00 00 05");
    const unpackr = new Unpackr();
    assert.equal(unpackr.timestamps, undefined);
    assertDate(unpackr.unpack(bytes), 5000, "default");
    unpackr.timestamps = "timestamp";
    assertTimestamp(unpackr.unpack(bytes), 5n, 1, "assigned");
    unpackr.timestamps = "date";
    assertDate(unpackr.unpack(bytes), 5000, "assigned back");
    assert.throws(() => new Unpackr({ timestamps: "instant" as "date" }), TypeError);
    assert.throws(() => {
      unpackr.timestamps = "bigint" as "date";
    }, TypeError);
    assertDate(unpackr.unpack(bytes), 5000, "a refused assignment changes nothing");
  });

  test("msgpackr's invalid Date stays an invalid Date; nanoseconds past 999999999 are refused", () => {
    const invalid = exact.unpack(fromHex("d4 ff ff"));
    assert.ok(invalid instanceof Date && Number.isNaN(invalid.getTime()));
    // the 30-bit field holds up to 2^30 - 1 and the 32-bit one up to 2^32 - 1
    for (
      const text of [
        "d7 ff ee 6b 28 00 00 00 00 00",
        "c7 0c ff ff ff ff ff 00 00 00 00 00 00 00 00",
      ]
    ) {
      assert.throws(() => exact.unpack(fromHex(text)), (error: unknown) => {
        assert.ok(error instanceof DecodeError);
        assert.match(error.message, /nanoseconds \(at most 999999999\).* at offset 0$/);
        return true;
      });
      // a Date takes them as msgpackr does: more milliseconds
      assert.ok(unpack(fromHex(text)) instanceof Date);
    }
    assert.equal((unpack(fromHex("d7 ff ee 6b 28 00 00 00 00 00")) as Date).getTime(), 1000);
  });

  test("a custom extension for type -1 still takes precedence", () => {
    const unpackr = new Unpackr({ timestamps: "timestamp" });
    unpackr.addExtension({ type: -1, unpack: (bytes) => ({ raw: [...bytes] }) });
    assert.deepEqual(unpackr.unpack(fromHex("c7 05 ff 01 02 03 04 05")), { raw: [1, 2, 3, 4, 5] });
    assert.deepEqual(unpackr.unpack(fromHex("d6 ff 00 00 00 05")), { raw: [0, 0, 0, 5] });
  });
});

describe("Timestamp", () => {
  test("checks its seconds and nanoseconds", () => {
    assert.equal(new Timestamp(5).seconds, 5n);
    assert.equal(new Timestamp(5).nanoseconds, 0);
    assert.equal(new Timestamp(-(2n ** 80n), 3).seconds, -(2n ** 80n));
    assert.equal(new Timestamp(Number.MAX_SAFE_INTEGER).seconds, 2n ** 53n - 1n);
    for (const seconds of [0.5, Number.MAX_SAFE_INTEGER + 1, NaN, Infinity]) {
      assert.throws(() => new Timestamp(seconds), RangeError, String(seconds));
    }
    for (const nanoseconds of [-1, 1e9, 0.5, NaN]) {
      assert.throws(() => new Timestamp(0, nanoseconds), RangeError, String(nanoseconds));
    }
    assert.throws(() => new Timestamp("1" as unknown as number), TypeError);
    assert.throws(() => new Timestamp(0, 1n as unknown as number), TypeError);
  });

  test("converts from and to Dates and epoch nanoseconds, toward the past", () => {
    for (const millis of [0, 1, -1, 999, -999, -1000, -1001, 8.64e15, -8.64e15, 1700000000123]) {
      const time = Timestamp.fromDate(new Date(millis));
      const expectedSeconds = floorDiv(BigInt(millis), 1000n);
      assert.equal(time.seconds, expectedSeconds, String(millis));
      assert.equal(time.nanoseconds, Number(BigInt(millis) - expectedSeconds * 1000n) * 1000000);
      assert.equal(time.toDate().getTime(), millis);
      assert.equal(time.epochNanoseconds, BigInt(millis) * 1000000n);
    }
    assert.throws(() => Timestamp.fromDate(new Date(NaN)), RangeError);
    for (const ns of [0n, 1n, -1n, NS, -NS, -NS - 1n, 2n ** 70n + 5n, -(2n ** 70n) - 5n]) {
      const time = Timestamp.fromEpochNanoseconds(ns);
      assert.equal(time.seconds, floorDiv(ns, NS), String(ns));
      assert.equal(time.epochNanoseconds, ns);
      assert.ok(time.nanoseconds >= 0 && time.nanoseconds < 1e9);
    }
    assert.throws(() => Timestamp.fromEpochNanoseconds(5 as unknown as bigint), TypeError);
    // beyond a Date's range: an invalid Date
    assert.ok(Number.isNaN(new Timestamp(8640000000001n).toDate().getTime()));
    assert.equal(new Timestamp(8640000000000n).toDate().getTime(), 8.64e15);
    assert.ok(Number.isNaN(new Timestamp(-(2n ** 63n)).toDate().getTime()));
  });

  test("equals, compare, toString and toJSON", () => {
    assert.ok(new Timestamp(1, 2).equals(new Timestamp(1n, 2)));
    assert.ok(!new Timestamp(1, 2).equals(new Timestamp(1, 3)));
    assert.ok(!new Timestamp(1, 2).equals({ seconds: 1n, nanoseconds: 2 }));
    const sorted = [new Timestamp(0, 1), new Timestamp(-1, 999999999), new Timestamp(0)]
      .sort(Timestamp.compare)
      .map((time) => time.epochNanoseconds);
    assert.deepEqual(sorted, [-1n, 0n, 1n]);
    assert.equal(Timestamp.compare(new Timestamp(3, 3), new Timestamp(3, 3)), 0);
    assert.equal(JSON.stringify([new Timestamp(-1, 1)]), '["1969-12-31T23:59:59.000000001Z"]');
  });

  test("its text is the ISO form of Date.prototype.toISOString, to the nanosecond", () => {
    // every day of 400 years (one cycle of the calendar), and the range of a Date
    const day = 86400;
    for (let days = -73000; days < 73050; days += 1) {
      const seconds = BigInt(days * day + ((days * 7919) % day + day) % day);
      assert.equal(new Timestamp(seconds, 7).toString(), expectedText(seconds, 7));
    }
    for (const seconds of [8640000000000n, -8640000000000n, -62167219200n, -62167219201n]) {
      assert.equal(new Timestamp(seconds, 999999999).toString(), expectedText(seconds, 999999999));
    }
  });

  test("its text beyond a Date's range repeats the 400-year cycle", () => {
    const cycle = 146097n * 86400n; // seconds of 400 Gregorian years
    const years = (text: string) => BigInt(text.slice(0, text.indexOf("-", 1)));
    for (const base of [0n, -1n, 951782400n, /* 2000-02-29 */ 253402300799n]) {
      const text = new Timestamp(base, 5).toString();
      for (const k of [30n, 1000n, 10n ** 9n, -30n, -(10n ** 9n)]) {
        const shifted = new Timestamp(base + k * cycle, 5).toString();
        assert.equal(years(shifted), years(text) + 400n * k, shifted);
        assert.equal(shifted.slice(shifted.indexOf("-", 1)), text.slice(text.indexOf("-", 1)));
        assert.match(shifted, /^[+-]\d{6,}-/);
      }
    }
    // the ends of int64 seconds (Go prints them as 292277026596-12-04T15:30:07Z and
    // -292277022657-01-27T08:29:52Z)
    assert.equal(
      new Timestamp(2n ** 63n - 1n).toString(),
      "+292277026596-12-04T15:30:07.000000000Z",
    );
    assert.equal(new Timestamp(-(2n ** 63n)).toString(), "-292277022657-01-27T08:29:52.000000000Z");
  });

  test("packs in the smallest form; seconds beyond 64 bits are a RangeError", () => {
    const cases: [Timestamp, string][] = [
      [new Timestamp(0), "d6 ff 00 00 00 00"],
      [new Timestamp(2n ** 32n - 1n), "d6 ff ff ff ff ff"],
      [new Timestamp(0, 1), "d7 ff 00 00 00 04 00 00 00 00"],
      [new Timestamp(2n ** 32n), "d7 ff 00 00 00 01 00 00 00 00"],
      [new Timestamp(2n ** 34n - 1n, 999999999), "d7 ff ee 6b 27 ff ff ff ff ff"],
      [new Timestamp(2n ** 34n), "c7 0c ff 00 00 00 00 00 00 00 04 00 00 00 00"],
      [new Timestamp(-1), "c7 0c ff 00 00 00 00 ff ff ff ff ff ff ff ff"],
      [new Timestamp(2n ** 63n - 1n, 1), "c7 0c ff 00 00 00 01 7f ff ff ff ff ff ff ff"],
      [new Timestamp(-(2n ** 63n)), "c7 0c ff 00 00 00 00 80 00 00 00 00 00 00 00"],
    ];
    for (const [time, bytes] of cases) {
      assert.equal(hex(pack(time)), bytes, String(time));
      assertTimestamp(
        new Unpackr({ timestamps: "timestamp" }).unpack(fromHex(bytes)),
        time.seconds,
        time.nanoseconds,
        bytes,
      );
    }
    for (const seconds of [2n ** 63n, -(2n ** 63n) - 1n]) {
      assert.throws(() => pack(new Timestamp(seconds)), RangeError);
      assert.throws(() => pack({ a: [new Timestamp(seconds)] }), RangeError);
    }
    // an object of Timestamp.prototype without its fields
    assert.throws(() => pack(Object.create(Timestamp.prototype)), TypeError);
  });

  test("an extension registered for the class takes precedence, as for Date", () => {
    const packr = new Packr();
    packr.addExtension({ Class: Timestamp, type: 20, pack: () => Uint8Array.of(1) });
    assert.equal(hex(packr.pack(new Timestamp(1))), "d4 14 01");
    assert.equal(hex(pack(new Timestamp(1))), "d6 ff 00 00 00 01");
    assert.equal(typeof addExtension, "function");
  });
});

describe("Temporal.Instant", () => {
  const Temporal = (globalThis as {
    Temporal?: { Instant: { fromEpochNanoseconds(ns: bigint): { epochNanoseconds: bigint } } };
  }).Temporal;

  test("packs its exact nanoseconds like a Timestamp, where the runtime has it", {
    skip: Temporal === undefined ? "this runtime has no Temporal" : false,
  }, () => {
    for (const encoding of ENCODINGS) {
      const { seconds, nanoseconds, label } = encoding;
      const ns = seconds * NS + BigInt(nanoseconds);
      if (ns < -(8640000000000n * NS) || ns > 8640000000000n * NS) continue; // Temporal's range
      const instant = Temporal!.Instant.fromEpochNanoseconds(ns);
      const bytes = pack(instant);
      assert.equal(hex(bytes), hex(pack(new Timestamp(seconds, nanoseconds))), label);
      assert.equal(hex(new Packr().pack({ instant }).subarray(-bytes.length)), hex(bytes), label);
      const back = new Unpackr({ timestamps: "timestamp" }).unpack(bytes) as Timestamp;
      assert.equal(back.epochNanoseconds, instant.epochNanoseconds, label);
    }
  });

  test("an object that only claims the brand is packed as an object", () => {
    const fake = { [Symbol.toStringTag]: "Temporal.Instant", epochNanoseconds: "1" };
    class Fake {
      get [Symbol.toStringTag]() {
        return "Temporal.Instant";
      }
      epochNanoseconds = 5;
    }
    assert.deepEqual(unpack(pack(fake)), { epochNanoseconds: "1" });
    assert.deepEqual(unpack(pack(new Fake())), { epochNanoseconds: 5 });
  });
});

describe("a timestamp of another length is a DecodeError at its header", () => {
  const lengths: [string, number][] = [
    ["c7 00 ff", 0],
    ["d5 ff 00 00", 2],
    ["c7 05 ff 00 00 00 00 00", 5],
    ["c7 0d ff" + " 00".repeat(13), 13],
    ["d8 ff" + " 00".repeat(16), 16],
    ["c9 80 00 00 00 ff", 2 ** 31], // ext32 of 2 GiB, none of it given
    ["c8 01 00 ff", 256], // ext16, none of it given
  ];

  function assertLengthError(error: unknown, length: number, offset: number, label: string) {
    assert.ok(error instanceof DecodeError, `${label}: ${error}`);
    assert.ok(!(error instanceof IncompleteDataError), `${label}: not incomplete`);
    assert.match(
      error.message,
      new RegExp(`^Invalid timestamp extension length ${length} .* at offset ${offset}`),
    );
    assert.equal(error.offset, offset);
  }

  test("unpack, Unpackr with either timestamps option, and the no-eval entry", () => {
    for (const [text, length] of lengths) {
      for (
        const decode of [unpack, new Unpackr({ timestamps: "timestamp" }).unpack, noEval.unpack]
      ) {
        assert.throws(() => decode(fromHex(text)), (error) => {
          assertLengthError(error, length, 0, text);
          return true;
        });
      }
      // in an array: the offset of the header
      assert.throws(() => unpack(fromHex(`92 01 ${text}`)), (error) => {
        assertLengthError(error, length, 2, text);
        return true;
      });
    }
    // what stays: 4, 8, 12 bytes, and msgpackr's 1-byte invalid Date (any payload byte)
    for (const text of ["d4 ff ff", "d4 ff 00", "c7 01 ff ff"]) {
      assert.ok(Number.isNaN((unpack(fromHex(text)) as Date).getTime()), text);
    }
  });

  test("UnpackrStream and decodeIter fed the header alone, or byte by byte", async () => {
    for (const [text, length] of lengths) {
      const bytes = fromHex(text);
      // the header, with nothing of the payload when it is long
      const header = bytes.subarray(
        0,
        bytes[0] === 0xc9 ? 6 : bytes[0] === 0xc8 ? 4 : bytes.length,
      );
      const feeds: [Uint8Array[], number][] = [
        [[header], 0],
        [bytewise(header), 0],
        [[Uint8Array.of(0x01), header], 1], // after a value
        [[concatBytes([Uint8Array.of(0x92, 0x01), header])], 2], // in an array
      ];
      for (const [chunks, offset] of feeds) {
        assert.throws(() => [...decodeIter(chunks)], (error) => {
          assertLengthError(error, length, offset, text);
          return true;
        });
        await assert.rejects(streamed(chunks), (error) => {
          assertLengthError(error, length, offset, text);
          return true;
        });
      }
    }
  });

  test("the CLI's decode, inspect and fetch, also of a stream that has the header alone", async () => {
    for (const [text, length] of lengths) {
      assert.throws(() => decodeToJson(fromHex(text)), (error) => {
        assertLengthError(error, length, 0, text);
        return true;
      });
      const inspected = inspectBytes(fromHex(text));
      assert.match(
        inspected.text,
        new RegExp(`error: invalid timestamp extension length ${length} `),
      );
    }
    // `msgpackr fetch` prints values as their bytes arrive: the header alone is the error
    for (const [text, length] of lengths) {
      const values = new JsonValueStream({
        structures: null,
        maxDepth: 1000,
        pretty: false,
        converter: (held) => new PlainConverter(held, { mapsAsObjects: false, float32: 0 }),
      });
      const bytes = fromHex(text);
      const header = bytes.subarray(
        0,
        bytes[0] === 0xc9 ? 6 : bytes[0] === 0xc8 ? 4 : bytes.length,
      );
      let error: unknown = null;
      for (const chunk of bytewise(header)) {
        const pushed = values.push(chunk);
        assert.equal(pushed.json, "");
        if (pushed.error !== null) {
          error = pushed.error;
          break;
        }
      }
      assertLengthError(error, length, 0, `fetch: ${text}`);
    }
    const result = await runCli(["decode"], fromHex("c9 80 00 00 00 ff"));
    assert.equal(result.code, 1);
    assert.match(result.stderr, /invalid timestamp extension length 2147483648 .*at offset 0/);
  });
});
