// Copyright 2026 the @x/msgpackr authors. MIT license.
// A corpus of crafted hostile inputs (forged lengths, nested-header bombs and chains of headers
// claiming the same bytes on every reader, deep nesting, overlong
// UTF-8, bad record definitions and ids, bundle and reference pointers out of range, exponential
// re-walks of shared references) with the exact error each must give, fast and without growing
// the heap; prototype safety of `__proto__`, `constructor` and `prototype` keys; the record
// reader compile cap; the depth limit when packing.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  DecodeError,
  decodeIter,
  IncompleteDataError,
  pack,
  Packr,
  unpack,
  unpackMultiple,
  Unpackr,
  UnpackrStream,
} from "../mod.ts";
import { decodeToJson, inspectBytes } from "../cli.ts";
import { ChunkDecoder } from "../_stream/chunk_decoder.ts";
import { checkStream, heapBytes, prototypeProblem } from "../fuzz/_fuzz.ts";
import {
  array32,
  assertDecodeError,
  bytesOf,
  type ExpectedError,
  measureHeap,
  referenceDag,
  repeated,
  str,
} from "./_hostile.ts";

/** One crafted input and the error it must give. */
interface HostileCase {
  name: string;
  bytes: Uint8Array;
  /** Decoder to use (default: `unpack`). */
  decoder?: () => { unpack(bytes: Uint8Array): unknown };
  error: ExpectedError;
}

const MAX = 0xffffffff;
const incomplete = (offset: number, missingBytes?: number): ExpectedError => ({
  type: IncompleteDataError,
  message: "Unexpected end of MessagePack data at offset " + offset,
  offset,
  missingBytes,
});
const invalid = (message: string, offset: number): ExpectedError => ({
  type: DecodeError,
  message,
  offset,
});
/** 40 shared structures: more than 32 switch record ids to two bytes. */
const shared40 = () => new Unpackr({ structures: Array.from({ length: 40 }, (_, i) => [`k${i}`]) });

const FORGED_LENGTHS: HostileCase[] = [
  { name: "str32 of 4 GiB", bytes: bytesOf("db ffffffff"), error: incomplete(5, MAX) },
  { name: "bin32 of 4 GiB", bytes: bytesOf("c6 ffffffff"), error: incomplete(5, MAX) },
  { name: "ext32 of 4 GiB", bytes: bytesOf("c9 ffffffff 05"), error: incomplete(6, MAX) },
  { name: "ext32 of 4 GiB, no type", bytes: bytesOf("c9 ffffffff"), error: incomplete(5, MAX + 1) },
  { name: "array32 of 2^32-1", bytes: bytesOf("dd ffffffff"), error: incomplete(5, MAX) },
  { name: "map32 of 2^32-1", bytes: bytesOf("df ffffffff"), error: incomplete(5, 2 * MAX) },
  // msgpackr PR #199: this 5-byte header allocated 153 MB
  { name: "array32 of 20 million", bytes: bytesOf("dd 01312d00"), error: incomplete(5, 20000000) },
  { name: "str16 of 64 KiB", bytes: bytesOf("da ffff 41"), error: incomplete(4, 65534) },
  { name: "bin16 of 64 KiB", bytes: bytesOf("c5 ffff"), error: incomplete(3, 65535) },
  { name: "ext16 of 64 KiB", bytes: bytesOf("c8 ffff 05"), error: incomplete(4, 65535) },
  { name: "array16 of 65535", bytes: bytesOf("dc ffff"), error: incomplete(3, 65535) },
  { name: "map16 of 65535", bytes: bytesOf("de ffff"), error: incomplete(3, 131070) },
  { name: "str8 of 255", bytes: bytesOf("d9 ff 00"), error: incomplete(3, 254) },
  { name: "fixstr of 31", bytes: bytesOf("bf"), error: incomplete(1, 31) },
  { name: "fixarray of 15", bytes: bytesOf("9f"), error: incomplete(1, 15) },
  { name: "fixmap of 15", bytes: bytesOf("8f"), error: incomplete(1, 30) },
  {
    name: "str32 of 4 GiB after 60000 bytes of padding",
    bytes: new Uint8Array([...bytesOf("db ffffffff"), ...new Uint8Array(60000)]),
    error: incomplete(60005, MAX - 60000),
  },
  { name: "str32 in an array", bytes: bytesOf("91 db ffffffff"), error: incomplete(6, MAX) },
  {
    name: "bin32 as a map value",
    bytes: bytesOf("81 a1 61 c6 ffffffff"),
    error: incomplete(8, MAX),
  },
  { name: "map32 as a map key", bytes: bytesOf("81 df ffffffff"), error: incomplete(6, 2 * MAX) },
  {
    name: "array32 as record keys",
    bytes: bytesOf("d4 72 40 dd ffffffff"),
    error: incomplete(8, MAX),
  },
  {
    name: "array32 in a record value",
    bytes: bytesOf("d4 72 40 91 a1 61 dd ffffffff"),
    decoder: () => new Unpackr(),
    error: incomplete(11, MAX),
  },
  {
    name: "typed array ext32 of 4 GiB",
    bytes: bytesOf("c9 ffffffff 74 01"),
    error: incomplete(7, MAX - 1),
  },
];

const NESTED_BOMBS: HostileCase[] = [
  // msgpackr PR #200: ~72 KB of nested array16 headers allocated 1.4 GB. Each header fits the bytes
  // left alone; the per-value budget (every element, map key and value and record field announced
  // takes one of the value's bytes) stops the third: 3 × 32767 elements exceed 72000 bytes by 26301
  {
    name: "72 KB of nested array16 headers (dc 7fff)",
    bytes: repeated([0xdc, 0x7f, 0xff], 72000),
    error: incomplete(72000, 26301),
  },
  {
    name: "1 MB of nested array32 headers (dd 0000ffff)",
    bytes: repeated([0xdd, 0x00, 0x00, 0xff, 0xff], 1000000),
    error: incomplete(1000000, 16 * 0xffff - 1000000),
  },
  {
    name: "array16 headers nested in fixarrays",
    bytes: repeated([0x9f, 0xdc, 0x7f, 0xff], 72000),
    error: incomplete(72000, 3 * (15 + 0x7fff) - 72000),
  },
  // 32767 entries announce 65534 keys and values: the second header's exceed the 72000 bytes
  {
    name: "72 KB of nested map16 headers (de 7fff) as map keys",
    bytes: repeated([0xde, 0x7f, 0xff], 72000),
    error: incomplete(72000, 2 * 0xfffe - 72000),
  },
  {
    name: "72 KB of nested map16 headers, maps as Maps",
    bytes: repeated([0xde, 0x7f, 0xff], 72000),
    decoder: () => new Unpackr(),
    error: incomplete(72000, 2 * 0xfffe - 72000),
  },
  {
    name: "72 KB of map16 headers nested as map values (de 3fff a0)",
    bytes: repeated([0xde, 0x3f, 0xff, 0xa0], 72000),
    error: incomplete(72000, 3 * 0x7ffe - 72000),
  },
  {
    name: "72 KB of map16 headers nested as map values, maps as Maps",
    bytes: repeated([0xde, 0x3f, 0xff, 0xa0], 72000),
    decoder: () => new Unpackr(),
    error: incomplete(72000, 3 * 0x7ffe - 72000),
  },
  {
    name: "map16 and array16 headers nested in turn (de 3fff a0 dc 7fff)",
    bytes: repeated([0xde, 0x3f, 0xff, 0xa0, 0xdc, 0x7f, 0xff], 71995),
    error: incomplete(71995, 2 * 0x7ffe + 0x7fff - 71995),
  },
  {
    // refused at its first header, which alone claims more than the 3000 bytes after it
    name: "an array32 of 65536 around array16 headers of 65535 (dd 00010000 dc ffff …)",
    bytes: repeated([0xdc, 0xff, 0xff], 3005, [0xdd, 0x00, 0x01, 0x00, 0x00]),
    error: incomplete(3005, 5 + 0x10000 - 3005),
  },
  {
    name: "Set tags before nested array16 headers (d4 73 00 dc 7fff)",
    bytes: repeated([0xd4, 0x73, 0x00, 0xdc, 0x7f, 0xff], 72000),
    error: incomplete(72000, 3 * 0x7fff - 72000),
  },
  {
    name: "record definitions whose keys are nested array16 headers",
    bytes: repeated([0xd4, 0x72, 0x40, 0xdc, 0x7f, 0xff], 72000),
    error: incomplete(72000, 3 * 0x7fff - 72000),
  },
  {
    // a record of 40 fields (keys 0..39), whose first field is a reference to the same record,
    // and so on 1000 times: each reference announces 40 values; in 1046 bytes the 25th reference
    // brings the claims to 40 (the keys) + 40 (the defined record) + 25 × 40 = 1080
    name: "nested one-byte references to a record of 40 fields",
    bytes: new Uint8Array([
      0xd4,
      0x72,
      0x40,
      0xdc,
      0x00,
      40,
      ...Array.from({ length: 40 }, (_, i) => i),
      ...new Uint8Array(1000).fill(0x40),
    ]),
    decoder: () => new Unpackr(),
    error: incomplete(1046, 1080 - 1046),
  },
];

const DEEP_NESTING: HostileCase[] = [
  {
    name: "100000 nested fixarrays",
    bytes: repeated([0x91], 100001, [], [0xc0]),
    error: invalid("Nesting deeper than maxDepth (1000)", 1000),
  },
  {
    name: "50000 nested fixmaps",
    bytes: repeated([0x81, 0xa0], 100001, [], [0xc0]),
    error: invalid("Nesting deeper than maxDepth (1000)", 2000),
  },
  {
    name: "50000 nested fixmaps as Maps",
    bytes: repeated([0x81, 0xa0], 100001, [], [0xc0]),
    decoder: () => new Unpackr(),
    error: invalid("Nesting deeper than maxDepth (1000)", 2000),
  },
  {
    name: "100000 nested records",
    bytes: repeated([0x40], 100006, [0xd4, 0x72, 0x40, 0x91, 0xa1, 0x61], [0xc0]),
    decoder: () => new Unpackr(),
    error: invalid("Nesting deeper than maxDepth (1000)", 1005),
  },
  {
    name: "50000 nested Set tags",
    bytes: repeated([0xd4, 0x73, 0x00, 0x91], 200001, [], [0xc0]),
    error: invalid("Nesting deeper than maxDepth (1000)", 2002),
  },
  {
    name: "50000 nested reference ids",
    bytes: repeated([0xd6, 0x69, 0x00, 0x00, 0x00, 0x01], 300001, [], [0xc0]),
    error: invalid("Nesting deeper than maxDepth (1000)", 6005),
  },
  {
    name: "nested arrays beyond maxDepth 3",
    bytes: bytesOf("91 91 91 91 c0"),
    decoder: () => new Unpackr({ maxDepth: 3 }),
    error: invalid("Nesting deeper than maxDepth (3)", 3),
  },
];

const RECORDS: HostileCase[] = [
  {
    name: "a record definition whose keys are a string",
    bytes: bytesOf("d4 72 40 a1 61 01"),
    error: invalid("Record definition keys must be an array", 3),
  },
  {
    name: "a record definition whose keys are nil",
    bytes: bytesOf("d4 72 40 c0"),
    error: invalid("Record definition keys must be an array", 3),
  },
  {
    name: "a record definition whose keys are a map",
    bytes: bytesOf("d4 72 40 81 a1 61 01 01"),
    decoder: () => new Unpackr(),
    error: invalid("Record definition keys must be an array", 3),
  },
  {
    name: "a record definition with a map among its keys",
    bytes: bytesOf("d4 72 40 91 80 01"),
    error: invalid("Invalid property type for record: object", 3),
  },
  {
    name: "a two-byte record definition whose keys are a string",
    bytes: bytesOf("d5 72 60 01 a1 61 01"),
    error: invalid("Record definition keys must be an array", 4),
  },
  {
    name: "a two-byte record definition with an id below 0x60",
    bytes: bytesOf("d5 72 41 00 91 a1 61 01"),
    error: invalid("Invalid two-byte record id 0x41", 0),
  },
  {
    name: "a two-byte record id without a structure",
    bytes: bytesOf("7f 03"),
    decoder: shared40,
    error: invalid("Record id is not defined for 159", 0),
  },
  {
    name: "a two-byte record id with high byte 0 on an empty slot",
    bytes: bytesOf("7f 00"),
    decoder: shared40,
    error: invalid("Record id is not defined for 63", 0),
  },
  {
    name: "a reference to an inline two-byte id that was not defined",
    bytes: bytesOf("92 d5 72 60 02 91 a1 61 01 60 03 01"),
    decoder: () => new Unpackr(),
    error: invalid("Record id is not defined for 128", 9),
  },
  {
    name: "a record reference cut after its first byte",
    bytes: bytesOf("7f"),
    decoder: shared40,
    error: incomplete(1, 1),
  },
];

const BUNDLES: HostileCase[] = [
  {
    name: "a bundle whose strings would start inside its header",
    bytes: bytesOf("d6 62 00000000 c0"),
    error: invalid("String bundle offset out of range", 2),
  },
  {
    name: "a bundle whose strings lie 2 GiB away",
    bytes: bytesOf("d6 62 7fffffff c0"),
    error: incomplete(7, 2147483642),
  },
  {
    name: "a bundle whose strings are not strings",
    bytes: bytesOf("d6 62 00000005 c0 01 a0"),
    error: invalid("Expected string", 7),
  },
  {
    name: "a bundled string beyond the bundle",
    bytes: bytesOf("d6 62 00000006 c1 03 a0 a0"),
    error: invalid("Bundled string out of range", 6),
  },
  {
    name: "a bundled non-ASCII string beyond the bundle",
    bytes: bytesOf("d6 62 00000006 c1 ff a0 a0"),
    error: invalid("Bundled string out of range", 6),
  },
  {
    name: "a bundled string whose length is a string",
    bytes: bytesOf("d6 62 00000007 c1 a1 61 a0 a0"),
    error: invalid("Bundled string length must be an integer", 6),
  },
];

const BUNDLES_OVERREAD: HostileCase[] = [
  {
    // the int32 is cut short; the strings (two empty ones at offset 7) end before the value does,
    // and jumping to their end must not hide that the value read past the input
    name: "a value cut short inside a bundle whose strings lie inside the value",
    bytes: bytesOf("d6 62 00000005 93 a0 a0 d2 b4"),
    error: incomplete(11),
  },
];

const REFERENCES: HostileCase[] = [
  {
    name: "a pointer to an id never defined",
    bytes: bytesOf("d6 70 00000005"),
    error: invalid("Reference to undefined id 5", 0),
  },
  {
    name: "a pointer to id 2^32-1",
    bytes: bytesOf("d6 70 ffffffff"),
    error: invalid("Reference to undefined id 4294967295", 0),
  },
  {
    name: "a pointer before its id",
    bytes: bytesOf("92 d6 70 00000001 d6 69 00000001 80"),
    error: invalid("Reference to undefined id 1", 1),
  },
  {
    name: "a pointer to an id defined later in an array",
    bytes: bytesOf("92 d6 69 00000001 80 d6 70 00000002"),
    error: invalid("Reference to undefined id 2", 8),
  },
  {
    name: "a pointer with a 2-byte payload",
    bytes: bytesOf("d5 70 0001"),
    error: invalid("Invalid reference pointer extension length 2", 0),
  },
  {
    name: "an id with a 2-byte payload",
    bytes: bytesOf("d5 69 0001 c0"),
    error: invalid("Invalid reference id extension length 2", 0),
  },
  {
    name: "a reference id when structuredClone is false",
    bytes: bytesOf("d6 69 00000001 c0"),
    decoder: () => new Unpackr({ structuredClone: false }),
    error: invalid("Structured clone reference extension is disabled (structuredClone: false)", 0),
  },
  {
    name: "a reference pointer under plainDataOnly",
    bytes: bytesOf("92 c0 d6 70 00000001"),
    decoder: () => new Unpackr({ plainDataOnly: true }),
    error: invalid("Structured clone reference extension is disabled (plainDataOnly)", 2),
  },
  {
    name: "an Error under plainDataOnly",
    bytes: bytesOf("d4 65 00 93 a5 4572726f72 a1 78 c0"),
    decoder: () => new Unpackr({ plainDataOnly: true }),
    error: invalid("Error extension is disabled (plainDataOnly)", 0),
  },
  {
    name: "a RegExp under plainDataOnly",
    bytes: bytesOf("91 d4 78 00 92 a2 612b a1 67"),
    decoder: () => new Unpackr({ plainDataOnly: true }),
    error: invalid("RegExp extension is disabled (plainDataOnly)", 1),
  },
];

const EXTENSIONS: HostileCase[] = [
  {
    name: "a typed array with an unknown code",
    bytes: bytesOf("d5 74 63 00"),
    error: invalid("Could not find typed array for code 99", 0),
  },
  {
    name: "an Int16Array of 3 bytes",
    bytes: bytesOf("c7 04 74 03 000000"),
    error: invalid("Cannot decode Int16Array: byte length 3 is not a multiple of 2", 0),
  },
  {
    name: "a typed array without a code",
    bytes: bytesOf("c7 00 74"),
    error: invalid("Empty typed array extension", 0),
  },
  {
    name: "a Set tag before a number",
    bytes: bytesOf("d4 73 00 01"),
    error: invalid("Set extension must be followed by an array", 0),
  },
  {
    name: "an Error tag before a number",
    bytes: bytesOf("d4 65 00 01"),
    error: invalid("Error extension must be followed by an array", 0),
  },
  {
    name: "a RegExp that does not compile",
    bytes: bytesOf("d4 78 00 92 a1 28 a0"),
    error: invalid("Invalid RegExp extension", 0),
  },
  {
    name: "a RegExp whose source is a map with toString and valueOf keys",
    bytes: new Uint8Array([
      0xd4,
      0x78,
      0x00,
      0x92,
      0x82,
      ...str("toString"),
      1,
      ...str("valueOf"),
      1,
      0xa0,
    ]),
    error: invalid("RegExp extension", 0),
  },
  {
    name: "an Error whose name is a map with toString and valueOf keys",
    bytes: new Uint8Array([
      0xd4,
      0x65,
      0x00,
      0x93,
      0x82,
      ...str("toString"),
      1,
      ...str("valueOf"),
      1,
      ...str("m"),
      0xc0,
    ]),
    error: invalid("Error extension", 0),
  },
  {
    name: "an Error whose message is a map with toString and valueOf keys",
    bytes: new Uint8Array([
      0xd4,
      0x65,
      0x00,
      0x93,
      ...str("Error"),
      0x82,
      ...str("toString"),
      1,
      ...str("valueOf"),
      1,
      0xc0,
    ]),
    error: invalid("Error extension", 0),
  },
  {
    name: "an unknown fixext1 type",
    bytes: bytesOf("d4 05 00"),
    error: invalid("Unknown extension 5", 0),
  },
  {
    name: "an unknown ext8 type",
    bytes: bytesOf("c7 00 05"),
    error: invalid("Unknown extension type 5", 0),
  },
  {
    name: "a bigint ext cut short",
    bytes: bytesOf("d4 42"),
    error: incomplete(2, 1),
  },
  {
    name: "a map key that is a map",
    bytes: bytesOf("81 80 01"),
    error: invalid("Invalid property type for record: object", 1),
  },
  {
    name: "bytes after the value",
    bytes: bytesOf("92 01 02 03"),
    error: invalid("Data read, but end of buffer not reached [1,2]", 3),
  },
];

/**
 * Values small in bytes that are huge as trees: 22 levels of structured-clone references make
 * 4 million nodes. Anything that walks the value as a tree (a preview for an error message,
 * `String()` of an Error message, a RegExp source) takes exponential time; 40 levels (760 bytes)
 * would take days.
 */
const DAG = referenceDag(22);
const EXPONENTIAL: HostileCase[] = [
  {
    name: "a byte after a 22-level reference DAG (the error preview walks it)",
    bytes: new Uint8Array([...DAG, 0x00]),
    error: invalid("Data read, but end of buffer not reached", DAG.length),
  },
  {
    name: "an Error whose message is a 22-level reference DAG",
    bytes: new Uint8Array([0xd4, 0x65, 0x00, 0x93, ...str("Error"), ...DAG, 0xc0]),
    error: invalid("Error extension", 0),
  },
  {
    name: "a RegExp whose source is a 22-level reference DAG",
    bytes: new Uint8Array([0xd4, 0x78, 0x00, 0x92, ...DAG, 0xa0]),
    error: invalid("RegExp extension", 0),
  },
];

const GROUPS: [string, HostileCase[]][] = [
  ["forged lengths", FORGED_LENGTHS],
  ["nested-header bombs", NESTED_BOMBS],
  ["deep nesting", DEEP_NESTING],
  ["records", RECORDS],
  ["string bundles", [...BUNDLES, ...BUNDLES_OVERREAD]],
  ["structured clone references", REFERENCES],
  ["extensions", EXTENSIONS],
  ["exponential walks", EXPONENTIAL],
];

/** Most milliseconds one crafted input may take (fail fast, not a benchmark). */
const CASE_BUDGET_MS = 250;

for (const [group, cases] of GROUPS) {
  describe(`hostile input: ${group}`, () => {
    for (const entry of cases) {
      test(`unpack() rejects ${entry.name} with ${entry.error.type.name} at offset ${entry.error.offset}`, () => {
        const decoder = entry.decoder?.();
        const elapsed = assertDecodeError(
          () => decoder ? decoder.unpack(entry.bytes) : unpack(entry.bytes),
          entry.error,
          entry.name,
        );
        assert.ok(elapsed < CASE_BUDGET_MS, `${entry.name}: ${elapsed.toFixed(0)} ms`);
        assert.equal(prototypeProblem(), null);
      });
    }
  });
}

describe("hostile input: time and memory", () => {
  const all = GROUPS.flatMap(([, cases]) => cases).filter((entry) => !EXPONENTIAL.includes(entry));

  test("unpack() rejects the whole corpus (but the exponential walks) in under 2 s", () => {
    const started = performance.now();
    for (const entry of all) {
      const decoder = entry.decoder?.() ?? { unpack };
      assert.throws(() => decoder.unpack(entry.bytes)); // the classes: the tests above
      if (entry.error.type === IncompleteDataError && entry.decoder === undefined) {
        assert.throws(() => unpackMultiple(entry.bytes), IncompleteDataError);
      }
    }
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 2000, `${elapsed.toFixed(0)} ms`);
  });

  test("unpack() grows the heap by less than 10 MB for a forged length header", () => {
    for (
      const text of ["db ffffffff", "c6 ffffffff", "dd ffffffff", "df ffffffff", "dd 01312d00"]
    ) {
      const bytes = bytesOf(text);
      for (const decoder of [unpack, (b: Uint8Array) => new Unpackr().unpack(b)]) {
        const { peak } = measureHeap(() =>
          assert.throws(() => decoder(bytes), IncompleteDataError)
        );
        assert.ok(peak < 10_000_000, `${text}: ${(peak / 1e6).toFixed(1)} MB`);
      }
    }
  });

  test("unpack() grows the heap by less than 20 MB for the nested-header bombs", () => {
    for (const entry of NESTED_BOMBS) {
      const { peak } = measureHeap(() => assert.throws(() => unpack(entry.bytes), DecodeError));
      assert.ok(peak < 20_000_000, `${entry.name}: ${(peak / 1e6).toFixed(1)} MB`);
    }
  });

  // "no input under 1 MB can make the decoder allocate 100 MB": at most 100 bytes of heap per
  // input byte. Measured on 256 KiB inputs made of the cheapest encoding of each kind of object
  // (what the decoded value keeps, after a full collection).
  const AMPLIFIERS: [string, number[], () => { unpack(bytes: Uint8Array): unknown }][] = [
    ["empty maps as Maps (80)", [0x80], () => new Unpackr()],
    ["empty maps as objects (80)", [0x80], () => new Unpackr({ mapsAsObjects: true })],
    ["empty arrays (90)", [0x90], () => new Unpackr()],
    ["empty bins (c4 00)", [0xc4, 0x00], () => new Unpackr()],
    ["empty bins copied (c4 00)", [0xc4, 0x00], () => new Unpackr({ copyBuffers: true })],
    ["empty Sets (d4 73 00 90)", [0xd4, 0x73, 0x00, 0x90], () => new Unpackr()],
    ["Errors (d4 65 00 90)", [0xd4, 0x65, 0x00, 0x90], () => new Unpackr()],
    ["empty typed arrays (d4 74 01)", [0xd4, 0x74, 0x01], () => new Unpackr()],
    ["Dates (d6 ff 00000000)", [0xd6, 0xff, 0, 0, 0, 0], () => new Unpackr()],
    ["record definitions (d4 72 40 90)", [0xd4, 0x72, 0x40, 0x90], () => new Unpackr()],
  ];
  for (const [name, unit, decoder] of AMPLIFIERS) {
    test(`Unpackr.unpack() keeps at most 100 bytes of heap per input byte for ${name}`, () => {
      const size = 256 * 1024;
      const count = Math.floor((size - 5) / unit.length);
      const bytes = repeated(unit, size, array32(count));
      const unpackr = decoder();
      // either the values fit the allowance, or the decoder refuses them with a DecodeError
      let refused: unknown;
      const { retained } = measureHeap(() => {
        try {
          return unpackr.unpack(bytes);
        } catch (error) {
          refused = error;
        }
      }, true);
      if (refused !== undefined) {
        assert.ok(refused instanceof DecodeError, `${name}: ${refused}`);
        assert.match((refused as Error).message, /allocate more memory than allowed/);
      }
      const perByte = retained / bytes.length;
      assert.ok(perByte < 100, `${name}: ${perByte.toFixed(0)} bytes per input byte`);
    });
  }
});

/**
 * Chains of container headers nested in each other that each fit the bytes after them alone and
 * together claim far more (other implementations' 2026 advisories): every reader refuses them by
 * the sum of their claims, at once. `claims` is what the headers announce (a byte for each
 * element, map key and value), `decoder` the Unpackr options that read the maps that way.
 */
const CHAINS: { name: string; unit: number[]; prefix?: number[]; options: object }[] = [
  { name: "array16 headers (dc 7fff …)", unit: [0xdc, 0x7f, 0xff], options: {} },
  {
    name: "map16 headers as map values, maps as objects (de 3fff a0 …)",
    unit: [0xde, 0x3f, 0xff, 0xa0],
    options: { mapsAsObjects: true },
  },
  {
    name: "map16 headers as map keys, maps as Maps (de 3fff …)",
    unit: [0xde, 0x3f, 0xff],
    options: { mapsAsObjects: false },
  },
  {
    name: "map16 and array16 headers in turn (de 3fff a0 dc 7fff …)",
    unit: [0xde, 0x3f, 0xff, 0xa0, 0xdc, 0x7f, 0xff],
    options: { mapsAsObjects: true },
  },
  {
    name: "array16 headers in an array32 (dd 00010000 dc ffff …)",
    unit: [0xdc, 0xff, 0xff],
    prefix: [0xdd, 0x00, 0x01, 0x00, 0x00],
    options: {},
  },
];

describe("hostile input: chains of headers claiming the same bytes, on every reader", () => {
  const SIZE = 60000;
  for (const chain of CHAINS) {
    const bytes = repeated(chain.unit, SIZE, chain.prefix ?? []);

    test(`unpack() and Unpackr refuse ${chain.name} at once`, () => {
      for (
        const decode of [
          (b: Uint8Array) => unpack(b),
          (b: Uint8Array) => new Unpackr(chain.options).unpack(b),
        ]
      ) {
        let caught: unknown;
        const started = performance.now();
        const { peak } = measureHeap(() => {
          try {
            decode(bytes);
          } catch (error) {
            caught = error;
          }
        });
        assert.ok(performance.now() - started < CASE_BUDGET_MS);
        assert.ok(caught instanceof IncompleteDataError, String(caught));
        // what the headers claim beyond the input, as the message says
        assert.ok(caught.missingBytes! > 0, caught.message);
        assert.match(caught.message, new RegExp(`${caught.missingBytes} more bytes needed`));
        assert.ok(peak < 20_000_000, `${(peak / 1e6).toFixed(1)} MB`);
      }
    });

    test(`UnpackrStream and decodeIter refuse ${chain.name} without waiting for more bytes`, async () => {
      // the chain, then an endless supply of filler: the stream must fail as soon as the claims
      // exceed maxIncompleteBufferSize, not after holding that many bytes
      const PIECE = 1024;
      let pulled = 0;
      function* chunks(): Generator<Uint8Array> {
        for (let at = 0; at < bytes.length; at += PIECE) {
          pulled++;
          yield bytes.subarray(at, at + PIECE);
        }
        for (;;) {
          pulled++;
          yield new Uint8Array(PIECE);
        }
      }
      const options = { ...chain.options, maxIncompleteBufferSize: 1 << 20 };
      assert.throws(() => [...decodeIter(chunks(), options)], (error: unknown) => {
        assert.ok(error instanceof DecodeError, String(error));
        assert.match(
          error.message,
          /Maximum incomplete buffer size exceeded: the value at offset 0/,
        );
        return true;
      });
      assert.ok(pulled * PIECE < SIZE, `${pulled} chunks read`);
      pulled = 0;
      const stream = ReadableStream.from(chunks()).pipeThrough(new UnpackrStream(options));
      await assert.rejects(Array.fromAsync(stream), /Maximum incomplete buffer size exceeded/);
      assert.ok(pulled * PIECE < SIZE + 16 * PIECE, `${pulled} chunks read`);
      // with the default bound (64 MiB) too: 60 KB of headers claim more
      pulled = 0;
      assert.throws(
        () => [...decodeIter(chunks(), chain.options)],
        /Maximum incomplete buffer size exceeded/,
      );
      assert.ok(pulled * PIECE <= SIZE + PIECE, `${pulled} chunks read`);
    });

    test(`the command line's decode and inspect refuse ${chain.name} at once`, () => {
      // the tool's reader allocates nothing per announced item: it reads the headers until
      // maxDepth, and a shorter chain until the input ends, where it reports what all the
      // headers still claim
      const short = repeated(chain.unit, 300 * chain.unit.length, chain.prefix ?? []);
      for (const input of [bytes, short]) {
        for (
          const run of [() => decodeToJson(input), () => {
            throw inspectBytes(input).error;
          }]
        ) {
          const started = performance.now();
          assert.throws(run, (error: unknown) => {
            assert.ok(error instanceof DecodeError, String(error));
            if (input === bytes) {
              assert.match(error.message, /^Nesting deeper than maxDepth \(1000\) at offset/);
            } else {
              assert.ok(error instanceof IncompleteDataError, String(error));
              assert.ok(error.missingBytes! > 1_000_000, error.message);
            }
            return true;
          });
          assert.ok(performance.now() - started < 1000);
        }
      }
    });
  }

  test("each reader reports what the claims of nested headers need, at least", async () => {
    // three nested arrays of 10 (each fits the 21 bytes alone), then 12 bytes: the value needs
    // at least 37 (3 headers, 10 + 9 + 9 elements after the inner headers)
    const bytes = new Uint8Array([0xdc, 0, 10, 0xdc, 0, 10, 0xdc, 0, 10, ...new Uint8Array(12)]);
    // the decoder's budget: 30 values announced in 21 bytes
    assert.throws(() => unpack(bytes), (error: unknown) => {
      assert.ok(error instanceof IncompleteDataError);
      assert.equal(error.missingBytes, 9);
      return true;
    });
    // the token walkers count every header's bytes: exactly what is missing
    assert.throws(() => decodeToJson(bytes), (error: unknown) => {
      assert.ok(error instanceof IncompleteDataError);
      assert.equal(error.missingBytes, 37 - 21);
      assert.match(
        error.message,
        /has 3 of 10 items \(at least 7 more bytes needed; the value needs at least 16\)$/,
      );
      return true;
    });
    const chunks = [bytes.subarray(0, 10), bytes.subarray(10)];
    assert.throws(
      () => [...decodeIter(chunks, { maxIncompleteBufferSize: 36 })],
      /Maximum incomplete buffer size exceeded: the value at offset 0 needs more than 36 bytes/,
    );
    await assert.rejects(
      Array.fromAsync(
        ReadableStream.from(chunks).pipeThrough(new UnpackrStream({ maxIncompleteBufferSize: 36 })),
      ),
      /Maximum incomplete buffer size exceeded/,
    );
    // with room for it, the stream waits, and its end reports the value cut short
    assert.throws(
      () => [...decodeIter(chunks, { maxIncompleteBufferSize: 37 })],
      (error: unknown) => {
        assert.ok(error instanceof IncompleteDataError, String(error));
        assert.match(error.message, /the stream ended 21 bytes into a value/);
        return true;
      },
    );
  });
});

describe("hostile input: record reader compile cap", () => {
  test("Unpackr.unpack() decodes 10000 distinct inline shapes read 5 times each in under 1 s", () => {
    const shapes = 10000;
    const parts: number[] = [...array32(shapes * 5)];
    for (let i = 0; i < shapes; i++) {
      const id = 0x40 + (i % 64);
      parts.push(0xd4, 0x72, id, 0x91, ...str(`key${i}`), 0x01); // definition + first record
      for (let j = 0; j < 4; j++) parts.push(id, 0x02);
    }
    const bytes = new Uint8Array(parts);
    for (const unpackr of [new Unpackr(), new Packr(), new Unpackr({ mapsAsObjects: true })]) {
      const started = performance.now();
      const rows = unpackr.unpack(bytes) as Record<string, number>[];
      const elapsed = performance.now() - started;
      assert.equal(rows.length, shapes * 5);
      assert.deepEqual(rows[5 * 1234 + 3], { key1234: 2 });
      assert.deepEqual(rows[5 * 9999], { key9999: 1 });
      assert.ok(elapsed < 1000, `${elapsed.toFixed(0)} ms`);
    }
  });
});

describe("hostile input: deep nesting through string bundles", () => {
  // nested bundles and chained bundled strings count a level each, so maxDepth applies
  test("unpack() decodes 150000 nested bundles or reports a DecodeError, never a RangeError", () => {
    // Deno's stack ends first (a DecodeError saying the nesting is too deep); Bun's stack holds
    const count = 150000;
    const stringsAt = count * 6 + 1;
    const bytes = new Uint8Array(stringsAt + 2);
    for (let i = 0; i < count; i++) {
      const offset = stringsAt - (i * 6 + 2);
      bytes.set(
        [0xd6, 0x62, offset >>> 24, (offset >> 16) & 0xff, (offset >> 8) & 0xff, offset & 0xff],
        i * 6,
      );
    }
    bytes.set([0xc0, 0xa0, 0xa0], count * 6);
    try {
      assert.equal(unpack(bytes), null);
    } catch (error) {
      assert.ok(error instanceof DecodeError, String(error));
      assert.match(error.message, /Nesting (too deep|deeper)/);
      assert.ok(error.offset >= 0 && error.offset <= bytes.length);
    }
  });

  test("unpack() reports 500000 chained bundled strings (c1 c1 c1 …) as a DecodeError", () => {
    const count = 500000;
    const bytes = new Uint8Array(6 + count + 3);
    const offset = 4 + count + 1;
    bytes.set([
      0xd6,
      0x62,
      offset >>> 24,
      (offset >> 16) & 0xff,
      (offset >> 8) & 0xff,
      offset & 0xff,
    ]);
    bytes.fill(0xc1, 6, 6 + count);
    bytes.set([0x00, 0xa0, 0xa0], 6 + count);
    let caught: unknown;
    try {
      unpack(bytes);
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof DecodeError, String(caught));
    assert.match(
      caught.message,
      /Nesting deeper than maxDepth|Nesting too deep|Bundled string length must be an integer/,
    );
    assert.ok(caught.offset >= 0 && caught.offset <= bytes.length);
  });
});

describe("hostile input: packing", () => {
  test("Packr.pack() rejects a cyclic object without structuredClone with a maxDepth RangeError", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const list: unknown[] = [];
    list.push(list);
    const map = new Map<string, unknown>();
    map.set("map", map);
    for (const value of [cyclic, list, map]) {
      for (const packr of [new Packr(), new Packr({ useRecords: false }), { pack }]) {
        assert.throws(() => packr.pack(value), (error: unknown) => {
          assert.ok(error instanceof RangeError, String(error));
          assert.match(error.message, /maxDepth \(1000\).*cyclic/);
          return true;
        });
      }
      const clone = new Packr({ structuredClone: true });
      assert.ok(clone.unpack(clone.pack(value)));
    }
  });

  test("Packr({ maxDepth }).pack() rejects values nested deeper, accepts values as deep", () => {
    let deep: unknown = null;
    for (let i = 0; i < 10; i++) deep = [deep];
    assert.throws(() => new Packr({ maxDepth: 9 }).pack(deep), /maxDepth \(9\)/);
    const packr = new Packr({ maxDepth: 10 });
    assert.deepEqual(packr.unpack(packr.pack(deep)), deep);
    assert.throws(() => new Unpackr({ maxDepth: 9 }).unpack(pack(deep)), /maxDepth \(9\)/);
  });
});

describe("hostile input: __proto__, constructor and prototype keys", () => {
  const keys = ["__proto__", "constructor", "prototype"];
  const poison = { polluted: "yes" };

  function assertSafe(decoded: unknown, label: string, expected: unknown = poison): void {
    assert.equal(prototypeProblem(), null, label);
    assert.equal(({} as Record<string, unknown>).polluted, undefined, label);
    const object = decoded as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(object), Object.prototype, label);
    assert.ok(!Object.hasOwn(object, "__proto__"), label);
    assert.deepEqual(object.__proto_, expected, label);
    for (const key of ["constructor", "prototype"]) {
      assert.ok(Object.hasOwn(object, key), `${label}: own ${key}`);
      assert.deepEqual(object[key], expected, label);
    }
    assert.equal(object.polluted, undefined, label);
  }

  const map = () => {
    const parts: number[] = [0x83];
    for (const key of keys) parts.push(...str(key), ...pack(poison));
    return new Uint8Array(parts);
  };

  test("unpack() keeps __proto__, constructor and prototype map keys as own data properties", () => {
    for (
      const decoder of [unpack, (b: Uint8Array) => new Unpackr({ mapsAsObjects: true }).unpack(b)]
    ) {
      assertSafe(decoder(map()), "map");
      // also as str8 keys (the non-cached key path)
      const parts: number[] = [0x83];
      for (const key of keys) {
        parts.push(0xd9, key.length, ...new TextEncoder().encode(key), ...pack(poison));
      }
      assertSafe(decoder(new Uint8Array(parts)), "str8 keys");
    }
    const asMap = new Unpackr().unpack(map()) as Map<string, unknown>;
    assert.deepEqual([...asMap.keys()], keys);
    assert.equal(prototypeProblem(), null);
  });

  test("Unpackr.unpack() keeps them as own properties of records, interpreted and compiled", () => {
    // one definition then 9 references: the reader is compiled after a few reads
    const value = str("yes");
    const parts: number[] = [0x9a, 0xd4, 0x72, 0x40, 0x93];
    for (const key of keys) parts.push(...str(key));
    parts.push(...value, ...value, ...value);
    for (let i = 0; i < 9; i++) parts.push(0x40, ...value, ...value, ...value);
    const bytes = new Uint8Array(parts);
    for (
      const unpackr of [
        new Unpackr(),
        new Unpackr({ compileRecordReaders: false }),
        new Unpackr({ freezeData: true }),
      ]
    ) {
      const rows = unpackr.unpack(bytes) as unknown[];
      assert.equal(rows.length, 10);
      rows.forEach((row, i) => assertSafe(row, `record ${i}`, "yes"));
    }
  });

  test("Unpackr.unpack() keeps them as own properties through shared structures", () => {
    const structures = [keys, ...Array.from({ length: 39 }, (_, i) => [`k${i}`, ...keys])];
    const packr = new Packr({ structures, maxSharedStructures: 100 });
    const rows = Array.from({ length: 6 }, () =>
      JSON.parse(
        '{"__proto__": {"polluted": "yes"}, "constructor": {"polluted": "yes"}, "prototype": {"polluted": "yes"}}',
      ));
    const decoded = new Unpackr({ structures }).unpack(packr.pack(rows)) as unknown[];
    decoded.forEach((row, i) => assertSafe(row, `row ${i}`));
  });

  test("unpack() never lets a cyclic reference fill change a prototype", () => {
    // an object with id 1 holding a pointer to itself under __proto__
    const parts = [
      0xd6,
      0x69,
      0,
      0,
      0,
      1,
      0x82,
      ...str("__proto__"),
      0xd6,
      0x70,
      0,
      0,
      0,
      1,
      ...str("a"),
      1,
    ];
    const decoded = unpack(new Uint8Array(parts)) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(decoded), Object.prototype);
    assert.equal(decoded.__proto_, decoded);
    assert.equal(prototypeProblem(), null);
  });
});

describe("hostile input: streams", () => {
  test("UnpackrStream never decodes a value from bytes that have not arrived", async () => {
    // a bundle whose strings lie inside its value, with an int32 cut by the chunk boundary: the
    // stream must give what a whole decode gives (values or the same kind of error), never the
    // int32 decoded with zeros for its missing bytes (0xb4000000)
    const bytes = bytesOf("d6 62 00000005 93 a0 a0 d2 b4 11 22 33");
    let whole: unknown[] = [];
    let wholeError: unknown = null;
    try {
      whole = unpackMultiple(bytes);
    } catch (error) {
      wholeError = error;
    }
    const values: unknown[] = [];
    let streamError: unknown = null;
    const stream = ReadableStream.from([bytes.subarray(0, 11), bytes.subarray(11)])
      .pipeThrough(new UnpackrStream());
    try {
      for await (const value of stream) values.push(value);
    } catch (error) {
      streamError = error;
    }
    assert.ok(!JSON.stringify(values).includes(String(-1275068416)), JSON.stringify(values));
    // exactly the values the whole decode delivers before it stops, then the same error
    if (wholeError instanceof DecodeError) whole = wholeError.values ?? [];
    assert.deepEqual(values, whole);
    assert.equal(streamError === null, wholeError === null, `${streamError} / ${wholeError}`);
    if (wholeError !== null) {
      assert.ok(streamError instanceof DecodeError, String(streamError));
      assert.ok(wholeError instanceof DecodeError, String(wholeError));
      assert.equal(streamError.constructor, wholeError.constructor);
      assert.equal(streamError.offset, wholeError.offset);
    }
  });

  test("the stream delivers exactly the values before an error, in every chunking", () => {
    // three good values, then a bad one (an unknown extension), then one more: the stream must
    // deliver the three (not fewer) and stop with the whole decode's error at its offset
    const bytes = bytesOf("01 a1 61 92 c3 c2 d4 05 00 02");
    let wholeError: unknown = null;
    try {
      new Unpackr({ sequential: true }).unpackMultiple(bytes);
    } catch (error) {
      wholeError = error;
    }
    assert.ok(wholeError instanceof DecodeError);
    assert.deepEqual(wholeError.values, [1, "a", [true, false]]);
    for (const size of [1, 2, 3, 4, 7, 10]) {
      assert.equal(checkStream(bytes, [size]), null, `chunks of ${size}`);
      const decoder = new ChunkDecoder();
      const values: unknown[] = [];
      assert.throws(() => {
        for (let at = 0; at < bytes.length; at += size) {
          decoder.push(bytes.subarray(at, at + size), values);
        }
        decoder.end(values);
      }, (error: unknown) => error instanceof DecodeError && error.offset === wholeError.offset);
      assert.deepEqual(values, wholeError.values, `chunks of ${size}`);
    }
  });

  // ChunkDecoder.end() decodes the value it still holds when the stream ends; an error in it
  // points into the stream, as the whole decode's. `01 92 d6 70 00 00 00 02` (1, then an array
  // whose pointer to id 2 is dangling) in chunks of 1: the held value starts at offset 1, the
  // pointer is at 2.
  test("ChunkDecoder.end() reports an error in the held value at its stream offset", () => {
    const bytes = bytesOf("01 92 d6 70 00 00 00 02");
    const decoder = new ChunkDecoder();
    const values: unknown[] = [];
    assert.throws(() => {
      for (let at = 0; at < bytes.length; at++) decoder.push(bytes.subarray(at, at + 1), values);
      decoder.end(values);
    }, (error: unknown) => {
      assert.ok(error instanceof DecodeError);
      assert.match(error.message, /Reference to undefined id 2 at offset 2$/);
      assert.equal(error.offset, 2);
      return true;
    });
    assert.deepEqual(values, [1]);
    assert.equal(checkStream(bytes, [1]), null);
  });

  test("UnpackrStream errors at once, without holding it, on a forged 4 GiB length", async () => {
    const before = heapBytes();
    const stream = new UnpackrStream();
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    writer.write(bytesOf("92 01 db ffffffff")).catch(() => {});
    await assert.rejects(reader.read().then(() => reader.read()), (error: unknown) => {
      assert.ok(error instanceof Error);
      assert.match(error.message, /Maximum incomplete buffer size exceeded/);
      return true;
    });
    assert.ok(heapBytes() - before < 10_000_000);
  });

  test("ChunkDecoder reports invalid bundle strings as a DecodeError before the buffer limit", () => {
    // the bundle's strings (at offset 7) are not strings, which the whole decode reports; the
    // chunked decode runs into the forged str32 length first and reports the buffer limit
    const bytes = bytesOf("d6 62 00000005 92 01 db 7fffffff");
    assert.throws(
      () => new Unpackr({ sequential: true }).unpackMultiple(bytes),
      /Expected string at offset 7/,
    );
    const decoder = new ChunkDecoder();
    const out: unknown[] = [];
    assert.throws(() => {
      decoder.push(bytes.subarray(0, 7), out);
      decoder.push(bytes.subarray(7), out);
      decoder.end(out);
    }, (error: unknown) => {
      assert.ok(error instanceof DecodeError, String(error));
      assert.match(error.message, /Expected string/);
      return true;
    });
  });
});
