// Copyright 2026 the @x/msgpackr authors. MIT license.
// The command line tool (cli.ts): the exact form of `decode` (`--exact`, the tagged JSON) and what
// `encode` makes of it, byte for byte (bench data packed by pack(), by a records Packr, a
// sequential one, one with shared structures, float32 and string bundles; every tag; foreign and
// non-minimal encodings), the `inspect` dump, and the program itself run as a subprocess under
// the runtime running the tests (Deno or Bun): stdout, stderr and exit codes. The default form
// is tested in cli_plain_test.ts, Python's payloads in cli_python_test.ts, `fetch` in
// cli_fetch_test.ts.

import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as msgpack from "@msgpack/msgpack";
import {
  C1,
  DecodeError,
  FLOAT32_OPTIONS,
  IncompleteDataError,
  pack,
  Packr,
  type PackrOptions,
} from "../mod.ts";
import {
  type CliIO,
  type CliOptions,
  decodeToJson,
  encodeFromJson,
  inspectBytes,
  main,
} from "../cli.ts";
import { concatBytes as concat } from "../_core/bytes.ts";
import { runCli, text } from "./_cli.ts";
import { TESTDATA_FILES } from "./_testdata_files.ts";
import { fromHex, hex, readTestdata } from "./_util.ts";

const allBench: unknown[] = await Promise.all(TESTDATA_FILES.map((name) => readTestdata(name)));

/** Every bench file packed one after another by `packr` (a sequence of values). */
function packAll(packr: Packr | null): Uint8Array {
  return concat(allBench.map((data) => packr === null ? pack(data) : packr.pack(data)));
}

/** decode --exact then encode with the same options, in both output styles: the bytes come back. */
function assertRoundTrip(bytes: Uint8Array, options: CliOptions): void {
  for (const ndjson of [false, true]) {
    const json = decodeToJson(bytes, { ...options, ndjson, exact: true });
    assert.equal(hex(encodeFromJson(json, options)), hex(bytes), json);
  }
}

const temp = mkdtempSync(join(tmpdir(), "msgpackr-cli-"));

/** Writes `data` to a file of the temporary directory and returns its path. */
function tempFile(name: string, data: Uint8Array | string): string {
  const path = join(temp, name);
  writeFileSync(path, data);
  return path;
}

// ---- decodeToJson ------------------------------------------------------------------------------

const EXACT: CliOptions = { exact: true };
const EXACT_NDJSON: CliOptions = { exact: true, ndjson: true };

describe("decodeToJson({ exact: true })", () => {
  test("decodeToJson() writes plain JSON for JSON data packed by pack()", () => {
    for (const data of allBench) {
      const json = decodeToJson(pack(data), EXACT);
      assert.ok(!json.includes("$msgpack"));
      assert.deepEqual(JSON.parse(json), data);
    }
  });

  test("decodeToJson() writes one document per value of a sequence", () => {
    const bytes = concat([pack({ a: 1 }), pack([true, null]), pack("x")]);
    assert.equal(decodeToJson(bytes, EXACT_NDJSON), '{"a":1}\n[true,null]\n"x"\n');
    assert.equal(
      decodeToJson(bytes, EXACT),
      '{\n  "a": 1\n}\n[\n  true,\n  null\n]\n"x"\n',
    );
  });

  test("decodeToJson() tags values JSON cannot show", () => {
    const value = {
      big: 12345678901234567890n,
      bin: new Uint8Array([1, 2, 3]),
      date: new Date(Date.UTC(2024, 0, 31, 12)),
      undef: undefined,
      nan: NaN,
      inf: -Infinity,
      map: new Map<unknown, unknown>([[1, "one"], [null, true]]),
      stringMap: new Map([["k", 1]]),
      c1: C1,
    };
    assert.equal(
      decodeToJson(pack(value), EXACT_NDJSON),
      '{"big":{"$msgpack":"bigint","value":"12345678901234567890"},' +
        '"bin":{"$msgpack":"bin","base64":"AQID"},' +
        '"date":{"$msgpack":"date","value":"2024-01-31T12:00:00.000Z"},' +
        '"undef":{"$msgpack":"undefined"},' +
        '"nan":{"$msgpack":"float64","value":"NaN"},' +
        '"inf":{"$msgpack":"float64","value":"-Infinity"},' +
        '"map":{"$msgpack":"map","entries":[[1,"one"],[null,true]]},' +
        '"stringMap":{"$msgpack":"map","value":{"k":1}},' +
        '"c1":{"$msgpack":"c1"}}\n',
    );
  });

  test("decodeToJson() tags msgpackr's extensions and structured clone references", () => {
    const shared = { n: 1 };
    const packr = new Packr({ structuredClone: true });
    const bytes = packr.pack([
      new Set([1]),
      new TypeError("no"),
      /a+/g,
      new Float32Array([1.5]),
      2n ** 70n,
      shared,
      shared,
    ]);
    assert.equal(
      decodeToJson(bytes, EXACT_NDJSON),
      '[{"$msgpack":"set","value":[1]},' +
        '{"$msgpack":"error","value":["TypeError","no",{"$msgpack":"undefined"}]},' +
        '{"$msgpack":"regexp","value":["a+","g"]},' +
        '{"$msgpack":"typed","type":"Float32Array","base64":"AADAPw=="},' +
        '{"$msgpack":"bigint","value":"1180591620717411303424"},' +
        '{"$msgpack":"id","id":1,"value":{"n":1}},' +
        '{"$msgpack":"ref","id":1}]\n',
    );
  });

  test("decodeToJson() tags numbers in a wire format Packr would not pick", () => {
    const cases: [string, string][] = [
      ["cb 3f f0 00 00 00 00 00 00", '{"$msgpack":"float64","value":1}'],
      ["cb 80 00 00 00 00 00 00 00", '{"$msgpack":"float64","value":"-0"}'],
      ["cb 7f f8 00 00 00 00 00 01", '{"$msgpack":"float64","bits":"7ff8000000000001"}'],
      ["ca 3d cc cc cd", '{"$msgpack":"float32","value":0.1}'],
      ["cd 00 01", '{"$msgpack":"uint16","value":1}'],
      ["d0 05", '{"$msgpack":"int8","value":5}'],
      ["cf 00 00 00 00 00 00 00 05", '{"$msgpack":"uint64","value":"5"}'],
      ["d3 00 00 00 00 00 00 00 05", '{"$msgpack":"bigint","value":"5"}'],
      ["d9 01 61", '{"$msgpack":"str","header":"str8","value":"a"}'],
      ["a2 c0 af", '{"$msgpack":"str","base64":"wK8="}'],
      ["dc 00 01 c0", '{"$msgpack":"array","header":"array16","value":[null]}'],
      ["c7 01 05 aa", '{"$msgpack":"ext","type":5,"base64":"qg==","header":"ext8"}'],
      ["d7 ff 00 00 00 04 00 00 00 05", '{"$msgpack":"timestamp","seconds":"5","nanoseconds":1}'],
    ];
    for (const [bytes, json] of cases) {
      assert.equal(decodeToJson(fromHex(bytes), EXACT_NDJSON), json + "\n", bytes);
    }
  });

  test("decodeToJson() shows plain numbers for float32 values with float32 DECIMAL_FIT", () => {
    const floats = allBench[TESTDATA_FILES.indexOf("floats.json")] as number[];
    const packr = new Packr({ useFloat32: FLOAT32_OPTIONS.DECIMAL_FIT });
    const bytes = packr.pack(floats);
    assert.ok(bytes.includes(0xca));
    assert.deepEqual(JSON.parse(decodeToJson(bytes, { float32: 4, exact: true })), floats);
  });

  test("decodeToJson() keeps the order and duplicates of map keys", () => {
    // map16 {"b": 1, "1": 2, "b": 3}: JSON.parse would move "1" first and drop a "b"
    const bytes = fromHex("de 00 03 a1 62 01 a1 31 02 a1 62 03");
    const json = decodeToJson(bytes, EXACT_NDJSON);
    assert.equal(json, '{"b":1,"1":2,"b":3}\n');
    assert.equal(hex(encodeFromJson(json)), hex(bytes));
  });

  test("decodeToJson() wraps an object with a $msgpack key in the object tag", () => {
    const json = decodeToJson(pack({ $msgpack: "bigint", value: "1" }), EXACT_NDJSON);
    assert.equal(json, '{"$msgpack":"object","value":{"$msgpack":"bigint","value":"1"}}\n');
    assert.equal(hex(encodeFromJson(json)), hex(pack({ $msgpack: "bigint", value: "1" })));
  });

  test("decodeToJson() decodes maps as plain objects with records: false", () => {
    const bytes = pack(new Map<unknown, unknown>([[1, "a"], ["b", 2n]]));
    assert.equal(
      decodeToJson(bytes, { records: false, ...EXACT_NDJSON }),
      '{"1":"a","b":{"$msgpack":"bigint","value":"2"}}\n',
    );
    assert.throws(
      () => decodeToJson(pack(new Map([[[1], 2]])), { records: false, exact: true }),
      (error) => error instanceof DecodeError && error.offset === 1,
    );
  });

  test("decodeToJson() names records from shared structures", () => {
    const structures: string[][] = [];
    const bytes = new Packr({ structures }).pack([{ id: 1, name: "ann" }]);
    assert.equal(bytes[1], 0x40); // a bare reference to shared slot 0
    assert.equal(
      decodeToJson(bytes, { structures, ...EXACT_NDJSON }),
      '[{"id":1,"name":"ann"}]\n',
    );
    // without the structures, 0x40 is just the integer 64
    assert.equal(decodeToJson(bytes, EXACT_NDJSON), '[64]\n1\n"ann"\n');
  });

  test("decodeToJson() throws IncompleteDataError where truncated input ends", () => {
    const bytes = packAll(new Packr()).subarray(0, 1000);
    assert.throws(() => decodeToJson(bytes), (error) => {
      assert.ok(error instanceof IncompleteDataError);
      assert.equal(error.offset, 1000);
      assert.match(error.message, /^Unexpected end of data at offset 1000 \(0x3e8\): /);
      return true;
    });
    assert.throws(
      () => decodeToJson(fromHex("da 00 ff 41")),
      {
        message:
          "Unexpected end of data at offset 4 (0x4): str16 at offset 0 (0x0) needs 254 more bytes",
      },
    );
  });

  test("decodeToJson() throws DecodeError for record keys that are not an array", () => {
    assert.throws(
      () => decodeToJson(fromHex("d4 72 40 01")),
      { name: "DecodeError", message: "Record definition keys must be an array at offset 3 (0x3)" },
    );
  });
});

// ---- encodeFromJson ----------------------------------------------------------------------------

describe("encodeFromJson()", () => {
  test("encodeFromJson() writes the bytes pack() writes for JSON", () => {
    for (const data of allBench) {
      assert.equal(hex(encodeFromJson(JSON.stringify(data))), hex(pack(data)));
    }
  });

  test("encodeFromJson() writes records like new Packr() with records: true", () => {
    const ndjson = allBench.map((data) => JSON.stringify(data)).join("\n");
    assert.equal(hex(encodeFromJson(ndjson, { records: true })), hex(packAll(new Packr())));
    assert.equal(
      hex(encodeFromJson(ndjson, { sequential: true })),
      hex(packAll(new Packr({ sequential: true }))),
    );
  });

  test("encodeFromJson() round-trips the bench data of decodeToJson() in each option set", () => {
    const sets: [PackrOptions, CliOptions][] = [
      [{ useRecords: false }, {}],
      [{}, { records: true }],
      [{ sequential: true }, { sequential: true }],
      [{ useFloat32: FLOAT32_OPTIONS.DECIMAL_FIT }, { records: true, float32: 4 }],
      [{ useFloat32: FLOAT32_OPTIONS.ALWAYS, useRecords: false }, { float32: 1 }],
      [{ bundleStrings: true }, { records: true, bundleStrings: true }],
      [{ bundleStrings: true, useRecords: false }, { bundleStrings: true }],
    ];
    for (const [packrOptions, cliOptions] of sets) {
      assertRoundTrip(packAll(new Packr(packrOptions)), cliOptions);
    }
  });

  test("encodeFromJson() round-trips records with shared structures", () => {
    const structures: string[][] = [];
    const bytes = packAll(new Packr({ structures }));
    assert.ok(structures.length > 0);
    assertRoundTrip(bytes, { structures });
    // two-byte record ids (more than 32 shared structures)
    const many: string[][] = [];
    const rows = Array.from({ length: 60 }, (_, i) => ({ [`k${i}`]: i, common: true }));
    assertRoundTrip(new Packr({ structures: many, maxSharedStructures: 100 }).pack(rows), {
      structures: many,
    });
  });

  test("encodeFromJson() round-trips inline record definitions with two-byte ids", () => {
    // 60 shared structures fill the shared ids, so a new shape is defined inline with an id past
    // 0x60: fixext2 (d5 72) holding the two-byte id
    const shared = Array.from({ length: 60 }, (_, i) => [`k${i}`, "common"]);
    const rows = [
      ...shared.map((keys, i) => ({ [keys[0]]: i, common: true })),
      { fresh: 1, shape: [{ nested: 2 }] },
      { fresh: 3, shape: [] },
    ];
    const bytes = new Packr({
      structures: shared.map((keys) => [...keys]),
      maxSharedStructures: 60,
    })
      .pack(rows);
    assert.ok(hex(bytes).includes("d5 72"), "an inline definition with a two-byte id");
    assertRoundTrip(bytes, { structures: shared });
  });

  test("encodeFromJson() reads back every tag decodeToJson() writes", () => {
    const shared = { x: 1 };
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const value = {
      ints: [0, 63, 64, 127, 128, -1, -33, -129, 65535, 4294967295, -2147483648],
      floats: [1.5, 2 ** 40, -0, NaN, Infinity, 5e-324, 1e300],
      bigints: [1n, -(2n ** 63n), 2n ** 63n, 2n ** 64n - 1n, 2n ** 64n, -(2n ** 100n)],
      dates: [new Date(0), new Date(1700000000123), new Date(-1500), new Date(8.64e15)],
      invalid: new Date(NaN),
      strings: ["", "é", "\ud800", "\ufeffbom", "x".repeat(300), "\ud800".repeat(70)],
      maps: [new Map([["a", 1]]), new Map<unknown, unknown>([[1, [2]], [{}, null]])],
      more: [new Set([1]), new Error("e"), /re/u, new BigInt64Array([1n]), new ArrayBuffer(2)],
      refs: [shared, shared, cyclic],
      other: [undefined, C1, new Uint8Array(300), { $msgpack: 1 }, { "2": 1, "1": 2 }],
    };
    for (
      const options of [{ structuredClone: true }, { structuredClone: true, useRecords: false }]
    ) {
      assertRoundTrip(
        new Packr(options).pack(value),
        options.useRecords === false ? {} : {
          records: true,
        },
      );
    }
  });

  test("encodeFromJson() round-trips foreign and non-minimal encodings", () => {
    // @msgpack/msgpack: fixmaps, float32, int64 as needed
    const foreign = msgpack.encode(
      { a: 1, b: [1.5, "x", { c: null }], d: new Uint8Array([1]), e: 2n ** 62n },
      { forceFloat32: true, useBigInt64: true },
    );
    assertRoundTrip(foreign, {});
    assertRoundTrip(msgpack.encode([1, 300, -5], { forceIntegerToFloat: true }), {});
    const handmade = [
      "95 cd 00 01 d9 01 61 dc 00 01 c0 c7 01 05 aa ca 3f 80 00 00",
      "df 00 00 00 01 a1 61 c2",
      "c7 0c ff 00 00 00 01 00 00 00 00 00 00 00 05",
      "d7 ff 00 00 00 00 00 00 00 05",
      "d5 00 01 02",
      "c7 00 73 90",
      "d8 42 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 05",
    ];
    for (const bytes of handmade) assertRoundTrip(fromHex(bytes), {});
  });

  test("encodeFromJson() reports JSON errors and bad tags with line and column", () => {
    assert.throws(() => encodeFromJson('{"a": [1, 2}'), {
      name: "JsonInputError",
      message: 'Unexpected character "}" at line 1, column 12',
    });
    assert.throws(() => encodeFromJson('[1,\n  {"$msgpack": "nope"}]'), {
      message:
        'Unknown tag "nope" (to keep a "$msgpack" key, use the "object" tag) at line 2, column 3',
    });
    assert.throws(() => encodeFromJson('{"$msgpack": "uint8", "value": 300}'), {
      message: "300 does not fit in uint8 at line 1, column 1",
    });
    assert.throws(() => encodeFromJson('{"$msgpack": "bigint", "value": "1", "x": 2}'), {
      message: 'Tag "bigint" has no member "x" at line 1, column 1',
    });
    assert.throws(
      () => encodeFromJson('{"$msgpack": "str", "value": "abc", "header": "fixext1"}'),
      {
        message: 'Header "fixext1" is not a str format at line 1, column 1',
      },
    );
    assert.throws(() => encodeFromJson(" \n"), { message: "The input holds no JSON value" });
  });
});

// ---- inspectBytes ------------------------------------------------------------------------------

describe("inspectBytes()", () => {
  test("inspectBytes() annotates offsets, bytes, types, values and record fields", () => {
    const bytes = new Packr().pack([{ id: 1, name: "ann" }, { id: 2, name: "bob" }]);
    const { text, error } = inspectBytes(bytes);
    assert.equal(error, null);
    assert.equal(
      text,
      [
        "000000  92                           fixarray  2 items",
        "000001  d4 72 40                       r record def 0x40  {id, name}",
        "000004  92                               keys: fixarray  2 items",
        '000005  a2 69 64                           fixstr  "id"',
        '000008  a4 6e 61 6d 65                     fixstr  "name"',
        "00000d  01                               id: fixint  1",
        '00000e  a3 61 6e 6e                      name: fixstr  "ann"',
        "000012  40                             record ref 0x40  {id, name}",
        "000013  02                               id: fixint  2",
        '000014  a3 62 6f 62                      name: fixstr  "bob"',
        "",
      ].join("\n"),
    );
  });

  test("inspectBytes() names msgpackr's extensions", () => {
    const shared = { n: 1 };
    const packr = new Packr({ structuredClone: true, bundleStrings: true });
    const bytes = packr.pack([
      new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678)),
      undefined,
      2n ** 64n,
      new Int16Array([1, -1]),
      new Set(["abcd"]),
      new RangeError("bad"),
      /x+/g,
      shared,
      shared,
    ]);
    assert.equal(
      inspectBytes(bytes).text,
      [
        "000000  99                           fixarray  9 items",
        "000001  d7 ff a1 a5 d6 00 65 93 …      ext -1 timestamp64  2024-01-02T03:04:05.678Z",
        "00000b  d4 00 00                       ext 0 undefined",
        "00000e  d8 42 00 00 00 00 00 00 …      ext 0x42 B (bigint)  18446744073709551616",
        "000020  c7 05 74 03 01 00 ff ff        ext 0x74 t (Int16Array)  4 bytes",
        "000028  d4 73 00                       ext 0x73 s (Set)",
        "00002b  91                               fixarray  1 item",
        "00002c  d6 62 00 00 00 2f                  ext 0x62 b (string bundle)  strings at 00005d",
        '000032  c1 04                                bundled str  "abcd" (+4)',
        "000034  d4 65 00                       ext 0x65 e (Error)",
        "000037  93                               fixarray  3 items",
        '000038  c1 0a                              bundled str  "RangeError" (+10)',
        '00003a  a3 62 61 64                        fixstr  "bad"',
        "00003e  d4 00 00                           ext 0 undefined",
        "000041  d4 78 00                       ext 0x78 x (RegExp)",
        "000044  92                               fixarray  2 items",
        '000045  a2 78 2b                           fixstr  "x+"',
        '000048  a1 67                              fixstr  "g"',
        "00004a  d6 69 00 00 00 01              ext 0x69 i (object id)  #1",
        "000050  d4 72 40                         r record def 0x40  {n}",
        "000053  91                                 keys: fixarray  1 item",
        '000054  a1 6e                                fixstr  "n"',
        "000056  01                                 n: fixint  1",
        "000057  d6 70 00 00 00 01              ext 0x70 p (reference)  #1",
        '00005d  a0                           bundle strings, non-ASCII: fixstr  ""',
        '00005e  ae 61 62 63 64 52 61 6e …    bundle strings, ASCII: fixstr  "abcdRangeError"',
        "",
      ].join("\n"),
    );
  });

  test("inspectBytes() shows shared record names and two-byte ids", () => {
    const structures = Array.from({ length: 40 }, (_, i) => [`f${i}`]);
    const packr = new Packr({ structures, maxSharedStructures: 40 });
    const bytes = packr.pack([{ f0: 1 }, { f35: 2 }]);
    assert.equal(
      inspectBytes(bytes, { structures }).text,
      [
        "000000  92                           fixarray  2 items",
        "000001  40                             record ref 0x40 shared  {f0}",
        "000002  01                               f0: fixint  1",
        "000003  63 00                          record ref 0x63 0x00 shared  {f35}",
        "000005  02                               f35: fixint  2",
        "",
      ].join("\n"),
    );
  });

  test("inspectBytes() stops at the exact offset where broken input breaks", () => {
    const bytes = new Packr().pack([{ id: 1, name: "ann" }, { id: 2, name: "bob" }]);
    const truncated = inspectBytes(bytes.subarray(0, 16));
    assert.ok(truncated.error instanceof IncompleteDataError);
    assert.equal(
      truncated.text.split("\n").slice(-3).join("\n"),
      [
        '00000e  a3 61                            name: fixstr  "a" (1 of 3 bytes)',
        "000010  error: unexpected end of data at offset 16 (0x10): fixstr at offset 14 (0xe) needs 2 more bytes",
        "",
      ].join("\n"),
    );
    const invalid = inspectBytes(fromHex("92 01 d5 72 05 00"));
    assert.equal(invalid.error?.offset, 2);
    assert.equal(
      invalid.text,
      [
        "000000  92                           fixarray  2 items",
        "000001  01                             fixint  1",
        "000002  d5 72 05 00                    r record def 0x05 0x00",
        "000002  error: invalid two-byte record id 0x5 at offset 2 (0x2)",
        "",
      ].join("\n"),
    );
  });
});

// ---- main() and the program --------------------------------------------------------------------

describe("main()", () => {
  test("main() returns exit statuses and writes data only to stdout", async () => {
    const written: [string, string][] = [];
    const io: CliIO = {
      readFile: (path) =>
        path === "payload.bin"
          ? Promise.resolve(fromHex("81 a1 61 01"))
          : Promise.reject(new Error("not found")),
      readStdin: () => Promise.resolve(new TextEncoder().encode('{"a":1}')),
      isTerminal: () => false,
      write: (stream, data) => {
        written.push([stream, typeof data === "string" ? data : hex(data)]);
        return Promise.resolve();
      },
    };
    assert.equal(await main(["decode", "--ndjson", "payload.bin"], io), 0);
    assert.equal(await main(["decode", "--ndjson", "--exact", "payload.bin"], io), 0);
    assert.equal(await main(["encode"], io), 0);
    assert.equal(await main(["decode", "missing.bin"], io), 1);
    assert.equal(await main(["decode", "--bogus"], io), 2);
    assert.deepEqual(written, [
      ["stdout", '{"a":1}\n'],
      ["stdout", '{"$msgpack":"map","value":{"a":1}}\n'],
      ["stdout", "de 00 01 a1 61 01"],
      ["stderr", "error: cannot read missing.bin: not found\n"],
      ["stderr", 'error: unknown option --bogus\nRun "msgpackr --help" for usage.\n'],
    ]);
  });
});

describe("msgpackr (subprocess)", () => {
  after(() => rmSync(temp, { recursive: true, force: true }));

  test("msgpackr --help prints the usage on stdout and exits 0", async () => {
    const [help, commandHelp] = await Promise.all([
      runCli(["--help"]),
      runCli(["inspect", "-h"]),
    ]);
    for (const run of [help, commandHelp]) {
      assert.equal(run.code, 0);
      assert.equal(run.stderr, "");
      const usage = text(run.stdout);
      assert.match(usage, /^Usage: msgpackr <command> \[options\] \[file \| URL\]\n/);
      assert.match(usage, /--structures FILE/);
      // when to use which form, and what fetch needs under Deno
      assert.match(usage, /\(default\) The JSON the sending service would print.+Use it to read/s);
      assert.match(usage, /--exact +How every item was written.+Use\s+it to edit data/s);
      assert.match(usage, /Under Deno, fetch needs --allow-net/);
    }
  });

  test("msgpackr exits 2 on usage errors, with a message on stderr only", async () => {
    const cases: [string[], string][] = [
      [[], "error: missing command (decode, inspect, fetch or encode)"],
      [["convert"], 'error: unknown command "convert" (use decode, inspect, fetch or encode)'],
      [["decode", "--pretty"], "error: unknown option --pretty"],
      [["decode", "--float32", "half"], 'error: unknown --float32 mode "half"'],
      [["decode", "a.bin", "b.bin"], "error: too many arguments: b.bin"],
      [["decode", "--structures"], "error: option --structures needs a value"],
      [["decode", "--hex", "--base64"], "error: options --hex and --base64 cannot be given"],
      [["fetch"], "error: fetch needs a URL"],
      [["fetch", "ftp://host/x"], "error: fetch speaks http and https, not ftp"],
      [["fetch", "-H", "Accept", "http://host/"], 'error: header "Accept" is not "Name: value"'],
      [["fetch", "-X", "GET /", "http://host/"], 'error: method "GET /" is not an HTTP method'],
      [["fetch", "-d", "{", "http://host/"], "error: cannot send -d: unexpected end of JSON"],
    ];
    const runs = await Promise.all(cases.map(([args]) => runCli(args)));
    runs.forEach((run, i) => {
      assert.equal(run.code, 2, cases[i][0].join(" "));
      assert.equal(run.stdout.length, 0);
      assert.ok(run.stderr.startsWith(cases[i][1]), run.stderr);
      assert.match(run.stderr, /Run "msgpackr --help" for usage\.\n$/);
    });
  });

  test("msgpackr decode --exact | encode round-trips the bench data packed by pack()", async () => {
    const bytes = packAll(null);
    const decoded = await runCli(["decode", "--exact", "--ndjson", tempFile("plain.mp", bytes)]);
    assert.equal(decoded.code, 0);
    assert.equal(decoded.stderr, "");
    const lines = text(decoded.stdout).trimEnd().split("\n");
    assert.deepEqual(lines.map((line) => JSON.parse(line)), allBench);
    const encoded = await runCli(["encode"], decoded.stdout);
    assert.equal(encoded.code, 0);
    assert.equal(encoded.stderr, "");
    assert.deepEqual(encoded.stdout, bytes);
  });

  test("msgpackr decode --exact | encode --records round-trips new Packr() data", async () => {
    const bytes = packAll(new Packr());
    const decoded = await runCli(["decode", "--exact"], bytes);
    assert.equal(decoded.code, 0);
    const encoded = await runCli(["encode", "--records"], decoded.stdout);
    assert.equal(encoded.code, 0);
    assert.deepEqual(encoded.stdout, bytes);
  });

  test("msgpackr decode --exact | encode --sequential round-trips a sequential stream", async () => {
    const bytes = packAll(new Packr({ sequential: true }));
    const decoded = await runCli(["decode", "--exact", "--sequential", "--ndjson", "-"], bytes);
    assert.equal(decoded.code, 0);
    const lines = text(decoded.stdout).trimEnd().split("\n");
    assert.deepEqual(lines.map((line) => JSON.parse(line)), allBench);
    const encoded = await runCli(["encode", "--sequential"], decoded.stdout);
    assert.deepEqual(encoded.stdout, bytes);
  });

  test("msgpackr --structures FILE decodes, encodes and inspects shared records", async () => {
    const structures: string[][] = [];
    const bytes = packAll(new Packr({ structures }));
    const input = tempFile("shared.mp", bytes);
    const jsonFile = tempFile("structures.json", JSON.stringify(structures));
    const packedFile = tempFile("structures.mp", pack(structures));
    const [decoded, decodedWithPacked, inspected] = await Promise.all([
      runCli(["decode", "--exact", "--ndjson", "--structures", jsonFile, input]),
      runCli(["decode", "--exact", "--ndjson", `--structures=${packedFile}`, input]),
      runCli(["inspect", "--structures", jsonFile, input]),
    ]);
    assert.equal(decoded.code, 0);
    assert.deepEqual(decodedWithPacked.stdout, decoded.stdout);
    assert.deepEqual(
      text(decoded.stdout).trimEnd().split("\n").map((l) => JSON.parse(l)),
      allBench,
    );
    const encoded = await runCli(["encode", "--structures", jsonFile], decoded.stdout);
    assert.equal(encoded.code, 0);
    assert.deepEqual(encoded.stdout, bytes);
    assert.equal(inspected.code, 0);
    // the first shared structure, named on the line of every reference to it
    const firstKey = structures[0][0];
    const line = `record ref 0x40 shared  {${firstKey}`;
    assert.ok(/^\w+$/.test(firstKey) && text(inspected.stdout).includes(line), line);
  });

  test("msgpackr decode --exact | encode round-trips float32 decimal-fit data", async () => {
    const bytes = packAll(new Packr({ useFloat32: FLOAT32_OPTIONS.DECIMAL_FIT }));
    const decoded = await runCli(["decode", "--exact", "--float32", "decimal-fit"], bytes);
    assert.equal(decoded.code, 0);
    assert.ok(!text(decoded.stdout).includes("$msgpack"));
    const encoded = await runCli(["encode", "--records", "--float32=decimal-fit"], decoded.stdout);
    assert.deepEqual(encoded.stdout, bytes);
  });

  test("msgpackr decode and inspect of a truncated file exit 1 with the offset", async () => {
    const bytes = packAll(new Packr());
    const file = tempFile("truncated.mp", bytes.subarray(0, 1234));
    const [decoded, inspected] = await Promise.all([
      runCli(["decode", file]),
      runCli(["inspect", file]),
    ]);
    assert.equal(decoded.code, 1);
    assert.equal(decoded.stdout.length, 0);
    assert.match(decoded.stderr, /^error: unexpected end of data at offset 1234 \(0x4d2\): .+\n$/);
    assert.equal(inspected.code, 1);
    assert.equal(inspected.stderr, decoded.stderr);
    const lines = text(inspected.stdout).trimEnd().split("\n");
    assert.ok(lines.length > 50);
    assert.equal(lines.at(-1), `0004d2  ${decoded.stderr.trimEnd()}`);
    assert.ok(parseInt(lines.at(-2)!.slice(0, 6), 16) < 1234);
  });

  test("msgpackr exits 1 for input it cannot read, decode or encode", async () => {
    const [missing, invalid, badJson] = await Promise.all([
      runCli(["decode", join(temp, "missing.mp")]),
      runCli(["decode"], fromHex("d4 72 40 01")),
      runCli(["encode"], '{"a": 1}\n{"b": tru}\n'),
    ]);
    for (const run of [missing, invalid, badJson]) {
      assert.equal(run.code, 1);
      assert.equal(run.stdout.length, 0);
    }
    assert.match(missing.stderr, /^error: cannot read .*missing\.mp: /);
    assert.equal(
      invalid.stderr,
      "error: record definition keys must be an array at offset 3 (0x3)\n",
    );
    assert.equal(badJson.stderr, 'error: unexpected character "t" at line 2, column 7\n');
  });
});
