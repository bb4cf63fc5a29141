// Copyright 2026 the @x/msgpackr authors. MIT license.
// The default form of `decode` (cli.ts, _cli/plain_json.ts): the JSON the sending service would
// print, with exact integers, floats that stay floats, objects for maps with string keys
// whatever their header, and every tag of what JSON cannot show; `encode` reading those tags
// back; `--hex` and `--base64` input for decode and inspect, and `encode --hex / --base64`.
// Python's payloads are in cli_python_test.ts.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { C1, FLOAT32_OPTIONS, pack, Packr } from "../mod.ts";
import { type CliIO, decodeToJson, encodeFromJson, main } from "../cli.ts";
import { concatBytes } from "../_core/bytes.ts";
import { fromHex, hex } from "./_util.ts";

const NDJSON = { ndjson: true };

/** `main(args)` with `input` on stdin: exit status, stdout and stderr. */
async function run(
  args: string[],
  input: string | Uint8Array = "",
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: CliIO = {
    readFile: () => Promise.reject(new Error("no files here")),
    readStdin: () =>
      Promise.resolve(typeof input === "string" ? new TextEncoder().encode(input) : input),
    isTerminal: () => false,
    write: (stream, data) => {
      const shown = typeof data === "string" ? data : `<${hex(data)}>`;
      if (stream === "stdout") stdout += shown;
      else stderr += shown;
      return Promise.resolve();
    },
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

describe("decodeToJson() default form", () => {
  test("prints the issue's payload as the sending service would", () => {
    // msgpack.packb({"id": 5000000000, "name": "Ada", "tags": ["x", "y"], "nested": {"a": 1}})
    const bytes = fromHex(
      "84 a2 69 64 cf 00 00 00 01 2a 05 f2 00 a4 6e 61 6d 65 a3 41 64 61" +
        "a4 74 61 67 73 92 a1 78 a1 79 a6 6e 65 73 74 65 64 81 a1 61 01",
    );
    assert.equal(
      decodeToJson(bytes),
      [
        "{",
        '  "id": 5000000000,',
        '  "name": "Ada",',
        '  "tags": [',
        '    "x",',
        '    "y"',
        "  ],",
        '  "nested": {',
        '    "a": 1',
        "  }",
        "}",
        "",
      ].join("\n"),
    );
    assert.equal(
      decodeToJson(bytes, NDJSON),
      '{"id":5000000000,"name":"Ada","tags":["x","y"],"nested":{"a":1}}\n',
    );
  });

  test("prints integers of every width with their exact digits", () => {
    const cases: [string, string][] = [
      ["7f", "127"],
      ["cc 80", "128"],
      ["cd 00 05", "5"],
      ["ce ff ff ff ff", "4294967295"],
      ["cf 00 00 00 00 00 00 00 05", "5"],
      ["cf 00 20 00 00 00 00 00 01", "9007199254740993"],
      ["cf ff ff ff ff ff ff ff ff", "18446744073709551615"],
      ["e0", "-32"],
      ["d0 80", "-128"],
      ["d1 80 00", "-32768"],
      ["d2 80 00 00 00", "-2147483648"],
      ["d3 80 00 00 00 00 00 00 00", "-9223372036854775808"],
      ["d3 ff ff ff ff ff ff ff ff", "-1"],
      // msgpackr's bigint extension: an integer too
      ["d8 42 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 05", "5"],
      ["c7 09 42 01 00 00 00 00 00 00 00 00", "18446744073709551616"],
    ];
    for (const [bytes, json] of cases) {
      assert.equal(decodeToJson(fromHex(bytes), NDJSON), json + "\n", bytes);
    }
  });

  test("prints floats as the shortest text of the double, integral ones with .0", () => {
    const cases: [string, string][] = [
      ["cb 3f f0 00 00 00 00 00 00", "1.0"],
      ["cb 80 00 00 00 00 00 00 00", "-0.0"],
      ["cb 3f b9 99 99 99 99 99 9a", "0.1"],
      ["cb 43 40 00 00 00 00 00 00", "9007199254740992.0"],
      ["cb 44 4b 1a e4 d6 e2 ef 50", "1e+21"],
      ["cb 3e 7a d7 f2 9a bc af 48", "1e-7"],
      // float32: the double it widens to, as Python and every decoder return it
      ["ca 3d cc cc cd", "0.10000000149011612"],
      ["ca 3f c0 00 00", "1.5"],
      ["ca 4b 80 00 00", "16777216.0"],
    ];
    for (const [bytes, json] of cases) {
      assert.equal(decodeToJson(fromHex(bytes), NDJSON), json + "\n", bytes);
    }
    // --float32 decimal-round / decimal-fit: the library decoder's rounding
    assert.equal(decodeToJson(fromHex("ca 3d cc cc cd"), { ndjson: true, float32: 3 }), "0.1\n");
    const floats = [0.1, 2.5, 1234.5678];
    const packed = new Packr({ useFloat32: FLOAT32_OPTIONS.DECIMAL_FIT }).pack(floats);
    assert.deepEqual(JSON.parse(decodeToJson(packed, { float32: 4 })), floats);
  });

  test("tags NaN and the infinities with their width", () => {
    assert.equal(
      decodeToJson(pack([NaN, -Infinity]), NDJSON),
      '[{"$msgpack":"float64","value":"NaN"},{"$msgpack":"float64","value":"-Infinity"}]\n',
    );
    assert.equal(
      decodeToJson(fromHex("ca 7f 80 00 00"), NDJSON),
      '{"$msgpack":"float32","value":"Infinity"}\n',
    );
  });

  test("prints a map with string keys as an object whatever its header", () => {
    for (const bytes of ["81 a1 61 01", "de 00 01 a1 61 01", "df 00 00 00 01 a1 61 01"]) {
      assert.equal(decodeToJson(fromHex(bytes), NDJSON), '{"a":1}\n', bytes);
    }
    // str8 keys, a key that is `__proto__`, member order kept
    assert.equal(
      decodeToJson(fromHex("83 d9 01 62 01 a9 5f 5f 70 72 6f 74 6f 5f 5f 02 a1 31 03"), NDJSON),
      '{"b":1,"__proto__":2,"1":3}\n',
    );
  });

  test("tags maps whose keys are not strings, or repeat, as entries", () => {
    const map = new Map<unknown, unknown>([[1, "one"], [null, true], ["s", [1]]]);
    assert.equal(
      decodeToJson(pack(map), NDJSON),
      '{"$msgpack":"map","entries":[[1,"one"],[null,true],["s",[1]]]}\n',
    );
    assert.equal(
      decodeToJson(pack(map)),
      '{\n  "$msgpack": "map",\n  "entries": [\n    [1, "one"],\n    [null, true],\n' +
        '    ["s", [\n      1\n    ]]\n  ]\n}\n',
    );
    assert.equal(
      decodeToJson(fromHex("82 a1 62 01 a1 62 02"), NDJSON),
      '{"$msgpack":"map","entries":[["b",1],["b",2]]}\n',
    );
    // --no-records: keys made strings, as new Unpackr({ useRecords: false }) does
    assert.equal(
      decodeToJson(pack(new Map<unknown, unknown>([[1, "a"], [true, 2n]])), {
        records: false,
        ndjson: true,
      }),
      '{"1":"a","true":2}\n',
    );
  });

  test("tags bin, ext, timestamps, undefined, c1 and bytes that are not UTF-8", () => {
    const cases: [string, string][] = [
      ["c4 03 01 02 03", '{"$msgpack":"bin","base64":"AQID"}'],
      ["c7 03 05 61 62 63", '{"$msgpack":"ext","type":5,"base64":"YWJj"}'],
      ["d4 fe 00", '{"$msgpack":"ext","type":-2,"base64":"AA=="}'],
      ["d6 ff 65 53 f1 00", '{"$msgpack":"timestamp","value":"2023-11-14T22:13:20.000Z"}'],
      [
        "d7 ff 1d 6f 34 54 65 53 f1 00",
        '{"$msgpack":"timestamp","value":"2023-11-14T22:13:20.123456789Z"}',
      ],
      [
        "c7 0c ff 1d cd 65 00 ff ff ff ff ff ff ff ff",
        '{"$msgpack":"timestamp","value":"1969-12-31T23:59:59.500Z"}',
      ],
      [
        "c7 0c ff 00 00 00 07 00 00 09 18 4e 72 a0 00",
        '{"$msgpack":"timestamp","seconds":"10000000000000","nanoseconds":7}',
      ],
      ["d4 ff 00", '{"$msgpack":"ext","type":-1,"base64":"AA=="}'],
      ["d4 00 00", '{"$msgpack":"undefined"}'],
      ["c1", '{"$msgpack":"c1"}'],
      ["a2 c0 af", '{"$msgpack":"str","base64":"wK8="}'],
    ];
    for (const [bytes, json] of cases) {
      assert.equal(decodeToJson(fromHex(bytes), NDJSON), json + "\n", bytes);
    }
    assert.equal(
      decodeToJson(pack({ at: new Date(Date.UTC(2024, 0, 31, 12)), bad: new Date(NaN) }), NDJSON),
      '{"at":{"$msgpack":"timestamp","value":"2024-01-31T12:00:00.000Z"},' +
        '"bad":{"$msgpack":"date","value":"Invalid Date"}}\n',
    );
  });

  test("tags msgpackr's Set, Error, RegExp, typed arrays and structured clone", () => {
    const shared = { n: 1 };
    const bytes = new Packr({ structuredClone: true }).pack([
      new Set([1]),
      new TypeError("no"),
      /a+/g,
      new Float32Array([1.5, 0.1]),
      new BigInt64Array([-5n]),
      new Float64Array([NaN]),
      undefined,
      C1,
      shared,
      shared,
    ]);
    assert.equal(
      decodeToJson(bytes, NDJSON),
      '[{"$msgpack":"set","value":[1]},' +
        '{"$msgpack":"error","value":["TypeError","no",{"$msgpack":"undefined"}]},' +
        '{"$msgpack":"regexp","value":["a+","g"]},' +
        '{"$msgpack":"typed","type":"Float32Array","value":[1.5,0.10000000149011612]},' +
        '{"$msgpack":"typed","type":"BigInt64Array","value":[-5]},' +
        '{"$msgpack":"typed","type":"Float64Array","base64":"AAAAAAAA+H8="},' +
        '{"$msgpack":"undefined"},{"$msgpack":"c1"},' +
        '{"$msgpack":"id","id":1,"value":{"n":1}},{"$msgpack":"ref","id":1}]\n',
    );
  });

  test("reads records, shared structures and bundled strings for their values", () => {
    const rows = [{ id: 1, name: "ann" }, { id: 2, name: "bob" }];
    assert.equal(decodeToJson(new Packr().pack(rows), NDJSON), JSON.stringify(rows) + "\n");
    const structures: string[][] = [];
    const packed = new Packr({ structures }).pack(rows);
    assert.equal(decodeToJson(packed, { structures, ndjson: true }), JSON.stringify(rows) + "\n");
    const strings = ["hello world", "ünïcode here", "x".repeat(40)];
    assert.equal(
      decodeToJson(new Packr({ bundleStrings: true }).pack(strings), NDJSON),
      JSON.stringify(strings) + "\n",
    );
    // a sequential stream: definitions carry over from one value to the next
    const packr = new Packr({ sequential: true });
    const sequence = concatBytes(rows.map((row) => packr.pack(row)));
    assert.equal(
      decodeToJson(sequence, NDJSON),
      rows.map((r) => JSON.stringify(r)).join("\n") + "\n",
    );
  });

  test("wraps an object with a $msgpack key of its own in the object tag", () => {
    assert.equal(
      decodeToJson(pack({ $msgpack: "bin" }), NDJSON),
      '{"$msgpack":"object","value":{"$msgpack":"bin"}}\n',
    );
  });
});

describe("encodeFromJson() of the default form's tags", () => {
  test("reads timestamps as ISO text to the nanosecond and typed arrays as numbers", () => {
    const cases: [string, string][] = [
      ['{"$msgpack":"timestamp","value":"2023-11-14T22:13:20.000Z"}', "d6 ff 65 53 f1 00"],
      [
        '{"$msgpack":"timestamp","value":"2023-11-14T22:13:20.123456789Z"}',
        "d7 ff 1d 6f 34 54 65 53 f1 00",
      ],
      [
        '{"$msgpack":"timestamp","value":"1969-12-31T23:59:59.500Z"}',
        "c7 0c ff 1d cd 65 00 ff ff ff ff ff ff ff ff",
      ],
      [
        '{"$msgpack":"typed","type":"Float32Array","value":[1.5,0.10000000149011612]}',
        hex(new Packr({ moreTypes: true }).pack(new Float32Array([1.5, 0.1]))),
      ],
      [
        '{"$msgpack":"typed","type":"BigInt64Array","value":[-5]}',
        hex(new Packr({ moreTypes: true }).pack(new BigInt64Array([-5n]))),
      ],
    ];
    for (const [json, bytes] of cases) assert.equal(hex(encodeFromJson(json)), bytes, json);
    assert.throws(() => encodeFromJson('{"$msgpack":"timestamp","value":"2023-02-30T00:00:00Z"}'), {
      message: /^"value" of a timestamp must be an ISO 8601 time in UTC/,
    });
    assert.throws(() => encodeFromJson('{"$msgpack":"typed","type":"Int8Array","value":["x"]}'), {
      message: /^"value" of a Int8Array must be an array of numbers/,
    });
  });

  test("decode | encode gives the same values for data from other encoders", () => {
    // the default form keeps values, not wire formats: encode writes them as pack() would
    const bytes = fromHex("83 a1 61 cd 00 05 a1 62 cb 3f f8 00 00 00 00 00 00 a1 63 c4 01 07");
    const again = encodeFromJson(decodeToJson(bytes));
    assert.equal(decodeToJson(again), decodeToJson(bytes));
  });
});

describe("--hex and --base64", () => {
  const payload = "81 a2 69 64 cf 00 00 00 01 2a 05 f2 00";
  const json = '{"id":5000000000}\n';

  test("decode reads hex dumps with white space and 0x", async () => {
    const inputs = [
      payload,
      payload.replace(/ /g, ""),
      "0x" + payload.replace(/ /g, "") + "\n",
      payload.split(" ").map((byte) => "0x" + byte).join(" "),
      payload.replace(/(.{12}) /g, "$1\n\t").toUpperCase(),
    ];
    for (const input of inputs) {
      assert.deepEqual(await run(["decode", "--ndjson", "--hex"], input), {
        code: 0,
        stdout: json,
        stderr: "",
      }, input);
    }
  });

  test("decode reads base64, standard or URL-safe, padded or not, wrapped", async () => {
    const bytes = fromHex(payload);
    const standard = btoa(String.fromCharCode(...bytes));
    const inputs = [
      standard,
      standard.replace(/=+$/, ""),
      standard.replace(/.{8}/g, "$&\n"),
    ];
    for (const input of inputs) {
      assert.deepEqual(await run(["decode", "--ndjson", "--base64"], input), {
        code: 0,
        stdout: json,
        stderr: "",
      }, input);
    }
    // "+/" in the standard alphabet are "-_" in the URL-safe one
    const binary = pack(new Uint8Array([0xfb, 0xff, 0xbf]));
    const urlSafe = btoa(String.fromCharCode(...binary)).replace(/\+/g, "-").replace(/\//g, "_");
    assert.equal(
      (await run(["decode", "--ndjson", "--base64"], urlSafe)).stdout,
      '{"$msgpack":"bin","base64":"+/+/"}\n',
    );
  });

  test("inspect reads a dump too, with offsets of the bytes", async () => {
    const result = await run(["inspect", "--hex"], "0x92 0x01 0xa3 0x61");
    assert.equal(result.code, 1);
    assert.equal(
      result.stdout,
      [
        "000000  92                           fixarray  2 items",
        "000001  01                             fixint  1",
        '000002  a3 61                          fixstr  "a" (1 of 3 bytes)',
        "000004  error: unexpected end of data at offset 4 (0x4): fixstr at offset 2 (0x2) needs 2 more bytes",
        "",
      ].join("\n"),
    );
  });

  test("input that is not the dump it claims to be exits 1 with where it breaks", async () => {
    const cases: [string[], string, string][] = [
      [["--hex"], "81 a2 6g", 'error: the input is not hex: "g" at character 8\n'],
      [["--hex"], "81a", "error: the hex input has an odd number of digits (3): a byte is cut"],
      [["--base64"], "gaFh*Q==", 'error: the input is not base64: "*" at character 5\n'],
      [["--base64"], "gaFhA", "error: the base64 input has a wrong length (5 characters)"],
    ];
    for (const [options, input, message] of cases) {
      const result = await run(["decode", ...options], input);
      assert.equal(result.code, 1, input);
      assert.equal(result.stdout, "");
      assert.ok(result.stderr.startsWith(message), result.stderr);
    }
  });

  test("encode --hex and --base64 write the bytes as text", async () => {
    assert.deepEqual(await run(["encode", "--hex"], '{"a":1}'), {
      code: 0,
      stdout: "de0001a16101\n",
      stderr: "",
    });
    assert.deepEqual(await run(["encode", "--base64"], '{"a":1}'), {
      code: 0,
      stdout: "3gABoWEB\n",
      stderr: "",
    });
  });
});
