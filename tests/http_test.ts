// Copyright 2026 the @x/msgpackr authors. MIT license.
// http.ts end to end over real HTTP on 127.0.0.1: a server on `Deno.serve` (under Deno) or
// `Bun.serve` (under Bun) built with respond/readBody, and clients: `fetch`, fetchValue and
// fetchValues, UnpackrStream, and clients no one here wrote: curl (Debian's /usr/bin/curl) and a
// Node client using npm `msgpackr`. Then fetchValue reading a Node server written with npm
// `msgpackr`. Covers every negotiation case, both body types in and out, 413/415/400, streamed
// responses, and clients that go away mid-stream.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  ACCEPT_MSGPACK,
  fetchValue,
  fetchValues,
  HttpError,
  readBody,
  readBodyValues,
  respond,
  type RespondInit,
} from "../http.ts";
import { pack, Packr, unpack, unpackMultiple, Unpackr, UnpackrStream } from "../mod.ts";
import { NEGOTIATION_TABLE, serve, type Server, waitFor } from "./_http.ts";
import { run, start } from "./_process.ts";

const VALUE: unknown = JSON.parse(
  readFileSync(new URL("./http/value.json", import.meta.url), "utf8"),
);
const CURL = "/usr/bin/curl";
const NODE_CLIENT = fileURLToPath(new URL("./http/node_client.mjs", import.meta.url));
const NODE_SERVER = fileURLToPath(new URL("./http/node_server.mjs", import.meta.url));
const RECORDS: RespondInit = { packrOptions: { useRecords: true } };

interface Row {
  id: number;
  name: string;
}

/** What the server's sources did, for the abort tests. */
const sources = { started: 0, finished: 0, cancelled: 0 };

function* rowsOf(count: number): Generator<Row> {
  for (let id = 0; id < count; id++) yield { id, name: `row ${id}` };
}

async function* endless(): AsyncGenerator<Row> {
  sources.started++;
  try {
    for (let id = 0;; id++) {
      yield { id, name: `row ${id}` };
      if (id % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 1));
    }
  } finally {
    sources.finished++;
  }
}

function endlessStream(): ReadableStream<Row> {
  sources.started++;
  let id = 0;
  return new ReadableStream<Row>({
    pull(controller) {
      controller.enqueue({ id, name: `row ${id++}` });
    },
    cancel() {
      sources.cancelled++;
    },
  });
}

async function handle(request: Request): Promise<Response> {
  const url = new URL(request.url);
  switch (url.pathname) {
    case "/value":
      return respond(request, VALUE, {
        formatParam: "format",
        ...(url.searchParams.has("records") ? RECORDS : {}),
      });
    case "/echo":
      return respond(request, { received: await readBody(request, { maxBytes: 1024 }) });
    case "/echo-many":
      return respond(request, { received: await readBody(request, { multiple: true }) });
    case "/count": {
      let count = 0;
      for await (const _ of readBodyValues(request)) count++;
      return respond(request, { count });
    }
    case "/stream": {
      const count = Number(url.searchParams.get("count") ?? 10);
      return respond(request, rowsOf(count), url.searchParams.has("records") ? RECORDS : {});
    }
    case "/endless":
      return respond(request, url.searchParams.has("readable") ? endlessStream() : endless());
    default:
      return respond(request, { error: `no route ${url.pathname}` }, { status: 404 });
  }
}

/** The handler, answering an HttpError with its status and message. */
async function handler(request: Request): Promise<Response> {
  try {
    return await handle(request);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return respond(request, { error: error.message }, { status: error.status });
  }
}

let server: Server;
before(() => {
  server = serve(handler);
});
after(async () => {
  await server.close();
});

/**
 * Reads MessagePack as http.ts reads it (VALUE's `big`, beyond 32 bits, is written as uint64 and
 * read back as a number).
 */
const peer = new Unpackr({ mapsAsObjects: true, int64AsType: "auto" });
/** Packs as `respond` packs: plain MessagePack, integers beyond 32 bits as uint64. */
const respondPackr = new Packr({ useRecords: false, useInt64: true });

/** Decodes a response by its Content-Type with our decoders. */
async function decoded(response: Response): Promise<unknown> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const type = response.headers.get("content-type") ?? "";
  return type.includes("msgpack")
    ? peer.unpack(bytes)
    : JSON.parse(new TextDecoder().decode(bytes));
}

describe("negotiation over HTTP", () => {
  for (const [accept, expected, why] of NEGOTIATION_TABLE) {
    // fetch sends `Accept: */*` when none is given: the missing header is curl's test below
    if (accept === null) continue;
    test(`Accept ${JSON.stringify(accept)} → ${expected} (${why})`, async () => {
      const response = await fetch(`${server.url}value`, { headers: { accept } });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), expected);
      assert.equal(response.headers.get("vary"), "Accept");
      assert.deepEqual(await decoded(response), VALUE);
    });
  }

  test("fetch's default Accept (*/*) gets JSON", async () => {
    const response = await fetch(`${server.url}value`);
    assert.equal(response.headers.get("content-type"), "application/json");
    assert.deepEqual(await response.json(), VALUE);
  });

  test("?format=json forces JSON for a MessagePack client, ?format=msgpack the reverse", async () => {
    const json = await fetch(`${server.url}value?format=json`, {
      headers: { accept: ACCEPT_MSGPACK },
    });
    assert.equal(json.headers.get("content-type"), "application/json");
    assert.equal(json.headers.get("vary"), "Accept");
    assert.deepEqual(await json.json(), VALUE);
    const msgpack = await fetch(`${server.url}value?format=msgpack`, {
      headers: { accept: "application/json" },
    });
    assert.equal(msgpack.headers.get("content-type"), "application/msgpack");
    assert.deepEqual(peer.unpack(new Uint8Array(await msgpack.arrayBuffer())), VALUE);
    assert.deepEqual(await fetchValue(`${server.url}value?format=json`), VALUE);
  });
});

describe("bodies in and out", () => {
  const bodies: [string, () => BodyInit][] = [
    ["application/msgpack", () => pack({ n: [1, "é"] })],
    ["application/x-msgpack", () => pack({ n: [1, "é"] })],
    ["application/json", () => '{"n":[1,"é"]}'],
    ["application/json; charset=utf-8", () => '{"n":[1,"é"]}'],
    ["application/problem+json", () => '{"n":[1,"é"]}'],
  ];
  for (const [contentType, body] of bodies) {
    for (const accept of [ACCEPT_MSGPACK, "application/json"]) {
      test(`${contentType} in, ${accept} out`, async () => {
        const response = await fetch(`${server.url}echo`, {
          method: "POST",
          headers: { "content-type": contentType, accept },
          body: body(),
        });
        assert.equal(response.status, 200);
        assert.equal(
          response.headers.get("content-type"),
          accept === "application/json" ? "application/json" : "application/msgpack",
        );
        assert.deepEqual(await decoded(response), { received: { n: [1, "é"] } });
      });
    }
  }

  test("a MessagePack sequence and NDJSON with multiple", async () => {
    const sequence = new Uint8Array([...pack({ a: 1 }), ...pack([2])]);
    for (
      const [contentType, body] of [
        ["application/msgpack", sequence],
        ["application/x-ndjson", '{"a":1}\n[2]\n'],
      ] as const
    ) {
      const response = await fetch(`${server.url}echo-many`, {
        method: "POST",
        headers: { "content-type": contentType, accept: ACCEPT_MSGPACK },
        body,
      });
      assert.deepEqual(await decoded(response), { received: [{ a: 1 }, [2]] });
    }
  });

  test("fetchValue sends MessagePack or JSON and reads either", async () => {
    assert.deepEqual(await fetchValue(`${server.url}echo`, { body: { x: 1 } }), {
      received: { x: 1 },
    });
    assert.deepEqual(await fetchValue(`${server.url}echo`, { body: { x: 1 }, format: "json" }), {
      received: { x: 1 },
    });
    assert.deepEqual(await fetchValue(`${server.url}value?records=1`), VALUE);
  });

  test("fetchValue streams a request body; the server reads it value by value", async () => {
    async function* many() {
      yield* rowsOf(5000);
    }
    assert.deepEqual(await fetchValue(`${server.url}count`, { body: many() }), { count: 5000 });
    assert.deepEqual(await fetchValue(`${server.url}count`, { body: many(), format: "json" }), {
      count: 5000,
    });
  });
});

describe("errors over HTTP", () => {
  async function post(contentType: string | null, body: BodyInit, path = "echo") {
    const response = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: contentType === null ? { accept: "application/json" } : {
        "content-type": contentType,
        accept: "application/json",
      },
      body,
      duplex: "half",
    } as RequestInit);
    return { status: response.status, body: await response.json() as { error: string } };
  }

  test("415 for another Content-Type or none", async () => {
    for (const type of ["text/plain", "application/octet-stream", "application/xml"]) {
      const { status, body } = await post(type, "x");
      assert.equal(status, 415);
      assert.match(body.error, /Unsupported Content-Type/);
    }
    const { status } = await post(null, new Uint8Array([1]));
    assert.equal(status, 415);
  });

  test("413 over maxBytes, by Content-Length and while reading a chunked body", async () => {
    const big = JSON.stringify("x".repeat(2000));
    const byLength = await post("application/json", big);
    assert.equal(byLength.status, 413);
    assert.equal(byLength.body.error, "Body exceeds maxBytes (1024 bytes)");
    let pulls = 0;
    const chunked = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ < 1000) controller.enqueue(new Uint8Array(512).fill(0x20));
        else controller.close();
      },
    });
    const whileReading = await post("application/json", chunked);
    assert.equal(whileReading.status, 413);
  });

  test("400 for malformed, truncated and empty bodies", async () => {
    const cases: [string, BodyInit, RegExp][] = [
      ["application/json", '{"a":', /^Malformed JSON body/],
      ["application/msgpack", pack({ a: "truncated" }).subarray(0, 6), /^Malformed MessagePack/],
      ["application/msgpack", new Uint8Array([0xc7, 0x01, 0x05, 0x00]), /^Malformed MessagePack/],
      ["application/json", "", /^Empty body$/],
    ];
    for (const [type, body, message] of cases) {
      const response = await post(type, body);
      assert.equal(response.status, 400, type);
      assert.match(response.body.error, message);
    }
  });

  test("fetchValue throws an HttpError with the status and the decoded body", async () => {
    await assert.rejects(fetchValue(`${server.url}nowhere`), (error) => {
      assert.ok(error instanceof HttpError);
      assert.equal(error.status, 404);
      assert.deepEqual(error.body, { error: "no route /nowhere" });
      assert.equal(error.response?.headers.get("content-type"), "application/msgpack");
      return true;
    });
    await assert.rejects(fetchValue(`${server.url}echo`, { body: "x".repeat(2000) }), {
      status: 413,
      body: { error: "Body exceeds maxBytes (1024 bytes)" },
    });
  });
});

describe("streamed responses", () => {
  test("fetchValues reads 10,000 rows as MessagePack and as NDJSON", async () => {
    for (const format of ["msgpack", "json"] as const) {
      let next = 0;
      for await (const row of fetchValues<Row>(`${server.url}stream?count=10000`, { format })) {
        assert.equal(row.id, next);
        assert.equal(row.name, `row ${next}`);
        next++;
      }
      assert.equal(next, 10000, format);
    }
  });

  test("UnpackrStream reads the MessagePack sequence, plain and with records", async () => {
    for (const query of ["", "&records=1"]) {
      const response = await fetch(`${server.url}stream?count=1000${query}`, {
        headers: { accept: ACCEPT_MSGPACK },
      });
      assert.equal(response.headers.get("content-type"), "application/msgpack");
      assert.equal(response.headers.get("vary"), "Accept");
      const rows = await Array.fromAsync(
        response.body!.pipeThrough(new UnpackrStream<Row>({ mapsAsObjects: true })),
      );
      assert.deepEqual(rows, [...rowsOf(1000)]);
    }
  });

  test("a browser-like client gets NDJSON", async () => {
    const response = await fetch(`${server.url}stream?count=3`);
    assert.equal(response.headers.get("content-type"), "application/x-ndjson");
    assert.equal(
      await response.text(),
      '{"id":0,"name":"row 0"}\n{"id":1,"name":"row 1"}\n{"id":2,"name":"row 2"}\n',
    );
  });

  test("a client that stops mid-stream: the generator's finally runs within a second", async () => {
    for (const format of ["msgpack", "json"] as const) {
      const finished = sources.finished;
      let count = 0;
      for await (const _ of fetchValues(`${server.url}endless`, { format })) {
        if (++count === 500) break;
      }
      const started = performance.now();
      assert.ok(await waitFor(() => sources.finished === finished + 1, 1000), format);
      console.log(`  ${format}: finally ran ${(performance.now() - started).toFixed(1)} ms after`);
    }
  });

  test("a client that aborts (AbortController): the generator's finally runs", async () => {
    const finished = sources.finished;
    const controller = new AbortController();
    let count = 0;
    await assert.rejects(async () => {
      for await (const _ of fetchValues(`${server.url}endless`, { signal: controller.signal })) {
        if (++count === 100) controller.abort();
      }
    }, (error) => (error as Error).name === "AbortError");
    assert.ok(await waitFor(() => sources.finished === finished + 1, 1000));
  });

  test("a ReadableStream source gets cancel when the client goes away", async () => {
    const cancelled = sources.cancelled;
    let count = 0;
    for await (const _ of fetchValues(`${server.url}endless?readable=1`)) {
      if (++count === 100) break;
    }
    assert.ok(await waitFor(() => sources.cancelled === cancelled + 1, 1000));
  });
});

describe("curl (Debian) reads our responses", () => {
  /** Runs curl; returns the response's status line, headers and body. */
  async function curl(args: string[], input?: Uint8Array) {
    assert.ok(
      existsSync(CURL),
      `${CURL} is missing: install Debian's curl (apt-get install -y curl), as .ci/run does`,
    );
    const { code, stdout, stderr } = await run(
      CURL,
      ["-sS", "--no-buffer", "-D", "-", ...args],
      input,
    );
    assert.equal(code, 0, stderr);
    // the headers end at the first blank line
    let end = 0;
    while (!(stdout[end] === 13 && stdout[end + 1] === 10 && stdout[end + 2] === 13)) end++;
    const head = new TextDecoder().decode(stdout.subarray(0, end));
    const [statusLine, ...lines] = head.split("\r\n");
    const headers = new Headers(lines.map((line) => {
      const colon = line.indexOf(":");
      return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()] as [string, string];
    }));
    return {
      status: Number(statusLine.split(" ")[1]),
      headers,
      body: stdout.subarray(end + 4),
    };
  }
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

  test("no Accept header: JSON", async () => {
    const response = await curl(["-H", "Accept:", `${server.url}value`]);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "application/json");
    assert.equal(response.headers.get("vary"), "Accept");
    assert.deepEqual(JSON.parse(text(response.body)), VALUE);
  });

  test("curl's default Accept (*/*): JSON", async () => {
    const response = await curl([`${server.url}value`]);
    assert.equal(response.headers.get("content-type"), "application/json");
  });

  test("Accept: application/msgpack: MessagePack bytes, exactly useInt64's", async () => {
    for (const accept of ["application/msgpack", "application/x-msgpack", ACCEPT_MSGPACK]) {
      const response = await curl(["-H", `Accept: ${accept}`, `${server.url}value`]);
      assert.equal(response.headers.get("content-type"), accept.split(",")[0]);
      assert.deepEqual([...response.body], [...respondPackr.pack(VALUE)]);
    }
  });

  test("?format=json: a person reads a MessagePack endpoint", async () => {
    const response = await curl([
      "-H",
      `Accept: ${ACCEPT_MSGPACK}`,
      `${server.url}value?format=json`,
    ]);
    assert.equal(response.headers.get("content-type"), "application/json");
    assert.deepEqual(JSON.parse(text(response.body)), VALUE);
  });

  test("POST JSON and MessagePack bodies; errors as JSON", async () => {
    const json = await curl([
      "-H",
      "Content-Type: application/json",
      "--data-binary",
      '{"from":"curl"}',
      `${server.url}echo`,
    ]);
    assert.deepEqual(JSON.parse(text(json.body)), { received: { from: "curl" } });
    const msgpack = await curl([
      "-H",
      "Content-Type: application/msgpack",
      "-H",
      "Accept: application/msgpack",
      "--data-binary",
      "@-",
      `${server.url}echo`,
    ], pack({ from: "curl", bytes: new Uint8Array([1, 2]) }));
    assert.equal(msgpack.headers.get("content-type"), "application/msgpack");
    assert.deepEqual(unpack(msgpack.body), {
      received: { from: "curl", bytes: new Uint8Array([1, 2]) },
    });
    const bad = await curl([
      "-H",
      "Content-Type: text/plain",
      "--data-binary",
      "x",
      `${server.url}echo`,
    ]);
    assert.equal(bad.status, 415);
    assert.match((JSON.parse(text(bad.body)) as { error: string }).error, /Content-Type/);
  });

  test("a streamed response: NDJSON lines, or a MessagePack sequence", async () => {
    const ndjson = await curl([`${server.url}stream?count=3`]);
    assert.equal(ndjson.headers.get("content-type"), "application/x-ndjson");
    assert.deepEqual(text(ndjson.body).trimEnd().split("\n").map((line) => JSON.parse(line)), [
      ...rowsOf(3),
    ]);
    const msgpack = await curl([
      "-H",
      "Accept: application/msgpack",
      `${server.url}stream?count=300`,
    ]);
    assert.deepEqual(unpackMultiple(msgpack.body), [...rowsOf(300)]);
  });
});

describe("Node with npm msgpackr", () => {
  test("a Node client using msgpackr's unpack reads our responses", async () => {
    const { code, stdout, stderr } = await run("node", [NODE_CLIENT, server.url]);
    assert.equal(code, 0, stderr);
    const read = JSON.parse(new TextDecoder().decode(stdout));
    assert.deepEqual(read.msgpack, { type: "application/msgpack", vary: "Accept", value: VALUE });
    // msgpackr's defaults read the uint64 `big` as a bigint
    assert.equal(read.bigDefault, "bigint");
    assert.deepEqual(read.xMsgpack, { type: "application/x-msgpack", value: VALUE });
    assert.deepEqual(read.json, { type: "application/json", value: VALUE });
    assert.deepEqual(read.stream, { type: "application/msgpack", values: [...rowsOf(100)] });
    assert.deepEqual(read.records, { type: "application/msgpack", value: VALUE });
    assert.deepEqual(read.echo, {
      status: 200,
      type: "application/msgpack",
      value: { received: { sent: "by node", n: [1, 2] } },
    });
    assert.deepEqual(read.echoRecords.value, { received: [{ a: 1 }, { a: 2 }] });
  });

  test("fetchValue and fetchValues read a Node server written with msgpackr", async () => {
    const node = await start("node", [NODE_SERVER]);
    try {
      assert.deepEqual(await fetchValue(`${node.url}value`), VALUE);
      assert.deepEqual(await fetchValue(`${node.url}value`, { format: "json" }), VALUE);
      assert.deepEqual(await fetchValue(`${node.url}records`), [VALUE, VALUE]);
      // 1n goes as int64 and comes back as int64, which fetchValue reads as a number
      assert.deepEqual(await fetchValue(`${node.url}echo`, { body: { from: "us", n: 1n } }), {
        received: { from: "us", n: 1 },
      });
      assert.deepEqual(await fetchValue(`${node.url}echo`, { body: { a: [1] }, format: "json" }), {
        received: { a: [1] },
      });
      assert.deepEqual(
        await Array.fromAsync(fetchValues(`${node.url}stream?count=1000`)),
        [...rowsOf(1000)],
      );
      await assert.rejects(fetchValue(`${node.url}missing`), {
        status: 404,
        body: { error: "not here" },
      });
    } finally {
      await node.stop();
    }
  });
});
