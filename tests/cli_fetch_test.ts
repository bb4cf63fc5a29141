// Copyright 2026 the @x/msgpackr authors. MIT license.
// `msgpackr fetch`, run as a subprocess under the runtime running the tests (Deno or Bun),
// against a service written with Node's http module and npm's msgpackr (tests/cli/server.mjs)
// on 127.0.0.1: MessagePack bodies as JSON (one value, a sequence, a body streamed in pieces and
// printed value by value as it arrives), JSON and NDJSON bodies as they are, an error status, a
// broken body, no body, request bodies from -d (MessagePack with exact integers, or JSON), -H
// and -X, a refused connection, and the permission message under Deno.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pack, Packr } from "../mod.ts";
import { type CliIO, decodeToJson, main } from "../cli.ts";
import { concatBytes } from "../_core/bytes.ts";
import { JsonValueStream } from "../_cli/value_stream.ts";
import { PlainConverter } from "../_cli/plain_json.ts";
import { ROOT, runCli, spawnCli, text } from "./_cli.ts";
import { collect, type Process, start } from "./_process.ts";
import { fromHex, hex, isDeno } from "./_util.ts";

let server: Process;
let base = "";
const temp = mkdtempSync(join(tmpdir(), "msgpackr-fetch-"));

before(async () => {
  server = await start("node", [join(ROOT, "tests", "cli", "server.mjs")]);
  base = server.url;
});

after(async () => {
  await server.stop();
  rmSync(temp, { recursive: true, force: true });
});

const ACCEPT = "application/msgpack, application/json;q=0.9";

/** The fields the server's /echo saw, from the tool's NDJSON output. */
interface Echo {
  method: string;
  contentType: string | null;
  accept: string | null;
  test: string | null;
  body: string;
}

async function echo(args: string[]): Promise<Echo> {
  const run = await runCli(["fetch", "--ndjson", ...args, `${base}/echo`]);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(text(run.stdout));
}

describe("msgpackr fetch", () => {
  test("prints a MessagePack body as JSON, the status line and type on stderr", async () => {
    const [pretty, ndjson, exact] = await Promise.all([
      runCli(["fetch", `${base}/value`]),
      runCli(["fetch", "--ndjson", `${base}/value`]),
      runCli(["fetch", "--ndjson", "--exact", `${base}/value`]),
    ]);
    for (const run of [pretty, ndjson, exact]) {
      assert.equal(run.code, 0);
      assert.equal(run.stderr, "HTTP 200 OK\ncontent-type: application/msgpack\n");
    }
    assert.equal(
      text(pretty.stdout),
      '{\n  "id": 5000000000,\n  "name": "Ada",\n  "price": 9.5,\n  "tags": [\n    "x"\n  ]\n}\n',
    );
    assert.equal(text(ndjson.stdout), '{"id":5000000000,"name":"Ada","price":9.5,"tags":["x"]}\n');
    assert.equal(
      text(exact.stdout),
      '{"id":{"$msgpack":"bigint","value":"5000000000"},"name":"Ada","price":9.5,' +
        '"tags":["x"]}\n',
    );
  });

  test("prints a MessagePack sequence as one document per value", async () => {
    const run = await runCli(["fetch", "--ndjson", `${base}/sequence`]);
    assert.equal(run.code, 0);
    assert.equal(text(run.stdout), '1\n{"two":2}\n[3]\n');
  });

  test("prints each value of a streamed body as soon as it has arrived", async () => {
    const id = String(Math.random());
    const child = spawnCli(["fetch", "--ndjson", `${base}/stream?id=${id}`]);
    const done = collect(child);
    // the server holds the rest of the body until it is released: the first value must be
    // printed before that
    const first = await new Promise<string>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(
        () => reject(new Error(`no value printed before the body ended: ${out}`)),
        15000,
      );
      child.stdout!.on("data", (chunk: Uint8Array) => {
        out += new TextDecoder().decode(chunk);
        if (out.includes("\n")) {
          clearTimeout(timer);
          resolve(out);
        }
      });
    });
    assert.equal(first, '{"first":1}\n');
    const release = await fetch(`${base}/release?id=${id}`);
    assert.equal(await release.text(), "released");
    const run = await done;
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      text(run.stdout),
      `{"first":1}\n{"second":"${"x".repeat(100)}","big":9223372036854775808}\n3\n`,
    );
  });

  test("prints JSON and NDJSON bodies as they are", async () => {
    const [json, ndjson] = await Promise.all([
      runCli(["fetch", `${base}/json`]),
      runCli(["fetch", `${base}/ndjson`]),
    ]);
    assert.equal(json.code, 0);
    assert.equal(json.stderr, "HTTP 200 OK\ncontent-type: application/json; charset=utf-8\n");
    assert.equal(text(json.stdout), '{"a":  1, "b": [true]}\n');
    assert.equal(ndjson.code, 0);
    assert.equal(text(ndjson.stdout), '{"n":1}\n{"n":2}\n');
  });

  test("prints the body of a non-2xx status and exits 1", async () => {
    const run = await runCli(["fetch", "--ndjson", `${base}/error`]);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, "HTTP 404 Not Found\ncontent-type: application/msgpack\n");
    assert.equal(text(run.stdout), '{"error":"not found","code":404}\n');
  });

  test("exits 1 with the offset for a broken body, and 0 for no body", async () => {
    const [broken, empty] = await Promise.all([
      runCli(["fetch", `${base}/broken`]),
      runCli(["fetch", `${base}/empty`]),
    ]);
    assert.equal(broken.code, 1);
    assert.equal(
      broken.stderr,
      "HTTP 200 OK\ncontent-type: application/msgpack\n" +
        "error: unexpected end of data at offset 4 (0x4): fixstr at offset 1 (0x1) " +
        "needs 1 more byte\n",
    );
    assert.equal(empty.code, 0);
    assert.equal(empty.stdout.length, 0);
    assert.equal(empty.stderr, "HTTP 204 No Content\ncontent-type: (none)\n");
  });

  test("sends -d as MessagePack with exact integers, with -H and the Accept header", async () => {
    const seen = await echo([
      "-d",
      '{"id": 18446744073709551615, "n": -5000000000, "x": 1.0, "k": 7, ' +
      '"b": {"$msgpack": "bin", "base64": "AQI="}}',
      "-H",
      "X-Test: yes",
    ]);
    assert.deepEqual(seen, {
      method: "POST",
      contentType: "application/msgpack",
      accept: ACCEPT,
      test: "yes",
      body: [
        "de 00 05",
        "a2 69 64 cf ff ff ff ff ff ff ff ff",
        "a1 6e d3 ff ff ff fe d5 fa 0e 00",
        "a1 78 cb 3f f0 00 00 00 00 00 00",
        "a1 6b 07",
        "a1 62 c4 02 01 02",
      ].join("").replace(/ /g, ""),
    });
  });

  test("sends -d as JSON with --send-json, -d @FILE, -X and an Accept of its own", async () => {
    const file = join(temp, "body.json");
    writeFileSync(file, '{"a": 1}\n');
    const [json, fromFile, deleted] = await Promise.all([
      echo(["-X", "PUT", "--send-json", "-d", '{"a": 1}']),
      echo(["-d", `@${file}`, "-H", "Accept: application/vnd.msgpack"]),
      echo(["-XDELETE"]),
    ]);
    assert.deepEqual(json, {
      method: "PUT",
      contentType: "application/json",
      accept: ACCEPT,
      test: null,
      body: new TextEncoder().encode('{"a": 1}').reduce(
        (hex, byte) => hex + byte.toString(16).padStart(2, "0"),
        "",
      ),
    });
    assert.equal(fromFile.method, "POST");
    assert.equal(fromFile.accept, "application/vnd.msgpack");
    assert.equal(fromFile.body, "de0001a16101");
    assert.equal(deleted.method, "DELETE");
    assert.equal(deleted.body, "");
    assert.equal(deleted.contentType, null);
  });

  test("exits 1 with a clear message when it cannot connect", async () => {
    // a port that was free a moment ago: nothing listens there
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const url = `http://127.0.0.1:${port}/x`;
    const run = await runCli(["fetch", url]);
    assert.equal(run.code, 1);
    assert.equal(run.stdout.length, 0);
    assert.ok(run.stderr.startsWith(`error: cannot fetch ${url}: `), run.stderr);
    assert.match(run.stderr, /refused|ECONNREFUSED|connect/i);
  });

  test("under Deno, says that fetch needs --allow-net", { skip: !isDeno }, async () => {
    const run = await runCli(["fetch", `${base}/value`], "", ["--allow-read"]);
    assert.equal(run.code, 1);
    assert.equal(run.stdout.length, 0);
    assert.match(run.stderr, /^error: cannot fetch .*--allow-net/);
  });
});

describe("msgpackr fetch (in process, main() with a fetch of its own)", () => {
  /** Runs `fetch` over a body that arrives in the given chunks. */
  async function fetchChunks(
    chunks: Uint8Array[],
    args: string[] = [],
  ): Promise<{ code: number; stdout: string[]; stderr: string }> {
    const stdout: string[] = [];
    let stderr = "";
    const io: CliIO = {
      readFile: () => Promise.reject(new Error("no files")),
      readStdin: () => Promise.resolve(new Uint8Array()),
      isTerminal: () => false,
      write: (stream, data) => {
        const shown = typeof data === "string" ? data : new TextDecoder().decode(data);
        if (stream === "stdout") stdout.push(shown);
        else stderr += shown;
        return Promise.resolve();
      },
      fetch: () => {
        let i = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (i < chunks.length) controller.enqueue(chunks[i++]);
            else controller.close();
          },
        });
        return Promise.resolve(
          new Response(body, { headers: { "content-type": "application/msgpack" } }),
        );
      },
    };
    const code = await main(["fetch", "--ndjson", ...args, "http://localhost/x"], io);
    return { code, stdout, stderr };
  }

  test("-d packs every integer exactly, past 64 bits as msgpackr's bigint extension", async () => {
    let sent: Request | null = null;
    const io: CliIO = {
      readFile: () => Promise.reject(new Error("no files")),
      readStdin: () => Promise.resolve(new Uint8Array()),
      isTerminal: () => false,
      write: () => Promise.resolve(),
      fetch: (request) => {
        sent = request;
        return Promise.resolve(new Response(null, { status: 204 }));
      },
    };
    const data = "[9007199254740993, -1, 200, 1180591620717411303424, 0.5, 1e3, 2.0]";
    assert.equal(await main(["fetch", "-d", data, "http://localhost/x"], io), 0);
    const request = sent as unknown as Request;
    assert.equal(request.method, "POST");
    assert.equal(request.headers.get("content-type"), "application/msgpack");
    assert.equal(request.headers.get("accept"), ACCEPT);
    const body = new Uint8Array(await request.arrayBuffer());
    assert.equal(
      hex(body),
      hex(concatBytes([
        fromHex("97 cf 00 20 00 00 00 00 00 01 ff cc c8"),
        new Packr({ useBigIntExtension: true }).pack(2n ** 70n),
        fromHex("cb 3f e0 00 00 00 00 00 00 cb 40 8f 40 00 00 00 00 00 cb 40 00 00 00 00 00 00 00"),
      ])),
    );
  });

  function bytewise(bytes: Uint8Array): Uint8Array[] {
    return Array.from(bytes, (byte) => new Uint8Array([byte]));
  }

  test("a body arriving byte by byte gives what decode gives, one write per value", async () => {
    const packr = new Packr({ sequential: true, bundleStrings: true });
    const rows = [
      { id: 1, name: "ann", tags: ["a", "long string in a bundle"] },
      { id: 2, name: "bob", tags: [] },
      { id: 5000000000, name: "ünïcode", tags: ["x"] },
    ];
    const bytes = concatBytes(rows.map((row) => packr.pack(row)));
    const expected = decodeToJson(bytes, { ndjson: true });
    for (const chunks of [[bytes], bytewise(bytes)]) {
      const result = await fetchChunks(chunks);
      assert.equal(result.code, 0);
      assert.equal(result.stdout.join(""), expected);
      assert.equal(result.stdout.length, chunks.length === 1 ? 1 : rows.length);
    }
    const exact = await fetchChunks(bytewise(bytes), ["--exact"]);
    assert.equal(exact.stdout.join(""), decodeToJson(bytes, { ndjson: true, exact: true }));
  });

  test("values before bad bytes of the same chunk are printed, then the error", async () => {
    const body = concatBytes([pack({ a: 1 }), pack([2]), fromHex("d4 72 40 01")]);
    const result = await fetchChunks([body.subarray(0, 2), body.subarray(2)]);
    assert.equal(result.code, 1);
    assert.equal(result.stdout.join(""), '{"a":1}\n[2]\n');
    assert.match(
      result.stderr,
      /\nerror: record definition keys must be an array at offset 11 \(0xb\)\n$/,
    );
  });

  test("a large value in many chunks, then a broken one: offsets count from the body", async () => {
    const big = new Packr({ useRecords: false }).pack({ data: "x".repeat(100000) });
    const body = concatBytes([big, new Uint8Array([0x92, 0x01])]);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < body.length; i += 1000) chunks.push(body.subarray(i, i + 1000));
    const result = await fetchChunks(chunks);
    assert.equal(result.code, 1);
    assert.equal(result.stdout.join(""), decodeToJson(big, { ndjson: true }));
    const end = body.length;
    assert.equal(
      result.stderr,
      "HTTP 200\ncontent-type: application/msgpack\n" +
        `error: unexpected end of data at offset ${end} (0x${end.toString(16)}): fixarray at ` +
        `offset ${end - 2} (0x${(end - 2).toString(16)}) has 1 of 2 items ` +
        "(at least 1 more byte needed)\n",
    );
  });
  test("a large array arriving in small chunks is walked and read in linear work", () => {
    const rows = Array.from(
      { length: 20000 },
      (_, i) => ({ id: i, name: `row ${i}`, tags: ["t"] }),
    );
    const bytes = new Packr({ sequential: true }).pack(rows);
    const n = bytes.length;
    const expected = decodeToJson(bytes, { ndjson: true });
    for (const size of [1, 7, 1000]) {
      const values = new JsonValueStream({
        structures: null,
        maxDepth: 1000,
        pretty: false,
        converter: (held) => new PlainConverter(held, { mapsAsObjects: false, float32: 0 }),
      });
      let json = "";
      for (let offset = 0; offset < n; offset += size) {
        const { json: more, error } = values.push(bytes.subarray(offset, offset + size));
        assert.equal(error, null);
        json += more;
      }
      values.finish();
      assert.equal(json, expected);
      // each byte stepped over once by the walker, and read once when the value is complete
      assert.ok(values.stats.walked <= n, `${values.stats.walked} bytes walked for ${n}`);
      assert.equal(values.stats.read, n);
    }
  });
});
