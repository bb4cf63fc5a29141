// Copyright 2026 the @x/msgpackr authors. MIT license.
// elysia.ts against the real Elysia, over real HTTP on 127.0.0.1: an app written as Elysia's docs
// write them (`new Elysia().use(plugin).post(path, handler, { body: schema })`), served with
// `app.listen` under Bun and with `Deno.serve(app.fetch)` under Deno (Elysia's `listen` needs
// Bun: on Deno it throws "WebStandard does not support listen"; `app.fetch` and `app.handle`
// work), and clients: `fetch`, fetchValue and curl (Debian's /usr/bin/curl). A MessagePack or
// JSON body reaches the handler validated by the route's Standard Schema; replies are
// negotiated; 400 (malformed, schema failure), 413 (over maxBytes) and 415 (another type) come
// back as readBody gives them.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { Elysia } from "elysia";
import { z } from "zod";
import * as v from "valibot";
import { type } from "arktype";
import { msgpack } from "../elysia.ts";
import { fetchValue, fetchValues } from "../http.ts";
import { pack, unpack } from "../mod.ts";
import { run } from "./_process.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;

const CURL = "/usr/bin/curl";
const MAX_BYTES = 1024;

const Order = z.object({
  sku: z.string().transform((sku) => sku.toUpperCase()),
  qty: z.number().int().positive(),
});
type Order = { sku: string; qty: number };

/** What the handlers received, in order. */
const received: unknown[] = [];

const app = new Elysia()
  .use(msgpack({ read: { maxBytes: MAX_BYTES } }))
  .post("/orders", ({ body, set }) => {
    const typed: Equal<typeof body, Order> = true;
    received.push(body);
    set.status = 201;
    set.headers["x-order"] = String(received.length);
    return { id: received.length, ...body, typed };
  }, { body: Order })
  .post("/valibot", ({ body }) => body.id + 1, { body: v.object({ id: v.number() }) })
  .post("/arktype", ({ body }) => body.id + 1, { body: type({ id: "number" }) })
  .post("/positive", ({ body }) => body, {
    body: z.object({
      id: z.number().refine((id) => Promise.resolve(id > 0), "id must be positive"),
    }),
  })
  .post("/any", ({ body, status }) => status(202, { got: body }))
  .get("/orders", function* () {
    for (let id = 1; id <= 3; id++) yield { id, sku: `A-${id}` };
  })
  .get("/raw", () => new Response("as is", { headers: { "content-type": "text/plain" } }));

/** Where the app listens, and how it stops. */
let url: string;
let stop: () => Promise<void>;

before(() => {
  if ("Bun" in globalThis) {
    app.listen({ hostname: "127.0.0.1", port: 0 });
    url = app.server!.url.href;
    stop = async () => {
      await app.stop(true);
    };
  } else {
    assert.throws(() => app.listen({ hostname: "127.0.0.1", port: 0 }), /does not support listen/);
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
    url = `http://127.0.0.1:${server.addr.port}/`;
    stop = () => server.shutdown();
  }
});
after(() => stop());

function post(
  path: string,
  contentType: string | null,
  body: BodyInit,
  accept?: string,
): Promise<Response> {
  const headers = new Headers();
  if (contentType !== null) headers.set("content-type", contentType);
  if (accept !== undefined) headers.set("accept", accept);
  return fetch(`${url}${path.slice(1)}`, { method: "POST", headers, body });
}

async function errorOf(response: Response): Promise<{ error: string; issues?: unknown[] }> {
  const type = response.headers.get("content-type");
  if (type === "application/msgpack") return unpack(await response.bytes());
  assert.equal(type, "application/json");
  return await response.json();
}

describe("an Elysia app with the msgpack plugin, over HTTP", () => {
  test("a MessagePack body reaches the handler validated; Accept: application/msgpack gets MessagePack", async () => {
    received.length = 0;
    const response = await post(
      "/orders",
      "application/msgpack",
      pack({ sku: "a-1", qty: 2 }),
      "application/msgpack",
    );
    assert.equal(response.status, 201);
    assert.equal(response.headers.get("content-type"), "application/msgpack");
    assert.equal(response.headers.get("vary"), "Accept");
    assert.equal(response.headers.get("x-order"), "1");
    assert.deepEqual(received, [{ sku: "A-1", qty: 2 }]);
    assert.deepEqual(unpack(await response.bytes()), { id: 1, sku: "A-1", qty: 2, typed: true });
  });

  test("no Accept gets JSON; a JSON body is read and validated the same way", async () => {
    received.length = 0;
    const fromMsgpack = await post("/orders", "application/msgpack", pack({ sku: "b", qty: 1 }));
    assert.equal(fromMsgpack.status, 201);
    assert.equal(fromMsgpack.headers.get("content-type"), "application/json");
    assert.deepEqual(await fromMsgpack.json(), { id: 1, sku: "B", qty: 1, typed: true });
    const fromJson = await post("/orders", "application/json", '{"sku":"c","qty":3}');
    assert.deepEqual(await fromJson.json(), { id: 2, sku: "C", qty: 3, typed: true });
    assert.deepEqual(received, [{ sku: "B", qty: 1 }, { sku: "C", qty: 3 }]);
  });

  test("fetchValue talks MessagePack both ways; generators stream; status(…) and Responses", async () => {
    received.length = 0;
    assert.deepEqual(await fetchValue(`${url}orders`, { body: { sku: "d", qty: 4 } }), {
      id: 1,
      sku: "D",
      qty: 4,
      typed: true,
    });
    const rows: unknown[] = [];
    for await (const row of fetchValues(`${url}orders`)) rows.push(row);
    assert.deepEqual(rows, [{ id: 1, sku: "A-1" }, { id: 2, sku: "A-2" }, { id: 3, sku: "A-3" }]);
    const accepted = await post(
      "/any",
      "application/msgpack",
      pack([1, "two"]),
      "application/msgpack",
    );
    assert.equal(accepted.status, 202);
    assert.deepEqual(unpack(await accepted.bytes()), { got: [1, "two"] });
    const raw = await fetch(`${url}raw`, { headers: { accept: "application/msgpack" } });
    assert.equal(raw.headers.get("content-type"), "text/plain");
    assert.equal(await raw.text(), "as is");
  });

  test("400 for a body that fails the route's schema, in place of Elysia's 422", async () => {
    received.length = 0;
    for (const accept of [undefined, "application/msgpack"]) {
      const response = await post(
        "/orders",
        "application/msgpack",
        pack({ sku: "a", qty: "2" }),
        accept,
      );
      assert.equal(response.status, 400);
      const { error, issues } = await errorOf(response);
      assert.match(error, /^Invalid body at \$\.qty: \S/);
      assert.deepEqual((issues as { path: unknown }[]).map((issue) => issue.path), [["qty"]]);
    }
    assert.deepEqual(received, [], "the handler is not called");
  });

  test("valibot and arktype schemas: { id: 'x' } is a 400 at ['id']; async refinements", async () => {
    for (const path of ["/valibot", "/arktype"]) {
      const ok = await post(path, "application/msgpack", pack({ id: 1 }), "application/msgpack");
      assert.equal(unpack(await ok.bytes()), 2, path);
      const refused = await post(path, "application/json", '{"id":"x"}');
      assert.equal(refused.status, 400, path);
      const { error, issues } = await errorOf(refused);
      assert.match(error, /^Invalid body at \$\.id: /, path);
      assert.deepEqual((issues as { path: unknown }[])[0]!.path, ["id"]);
    }
    const positive = await post("/positive", "application/msgpack", pack({ id: 5 }));
    assert.deepEqual(await positive.json(), { id: 5 });
    const negative = await post("/positive", "application/msgpack", pack({ id: -5 }));
    assert.equal(negative.status, 400);
    assert.equal((await errorOf(negative)).error, "Invalid body at $.id: id must be positive");
  });

  test("400 for a malformed body, as readBody gives it", async () => {
    const response = await post("/orders", "application/msgpack", new Uint8Array([0x82, 0xa3]));
    assert.equal(response.status, 400);
    assert.match((await errorOf(response)).error, /^Malformed MessagePack body: /);
    const json = await post("/orders", "application/json", "{", "application/msgpack");
    assert.equal(json.status, 400);
    assert.equal(json.headers.get("content-type"), "application/msgpack");
    assert.match((await errorOf(json)).error, /^Malformed JSON body: /);
  });

  test("413 over maxBytes, by Content-Length and by the bytes of a streamed body", async () => {
    const big = pack({ sku: "x".repeat(MAX_BYTES), qty: 1 });
    const response = await post("/orders", "application/msgpack", big, "application/msgpack");
    assert.equal(response.status, 413);
    assert.equal((await errorOf(response)).error, `Body exceeds maxBytes (${MAX_BYTES} bytes)`);
    const streamed = await fetch(`${url}orders`, {
      method: "POST",
      headers: { "content-type": "application/msgpack" },
      body: ReadableStream.from([big.subarray(0, 600), big.subarray(600)]),
      duplex: "half",
    } as RequestInit);
    assert.equal(streamed.status, 413);
    assert.match((await errorOf(streamed)).error, /exceeds maxBytes/);
  });

  test("415 for another Content-Type", async () => {
    const text = await post("/orders", "text/plain", "sku=a");
    assert.equal(text.status, 415);
    assert.match((await errorOf(text)).error, /^Unsupported Content-Type text\/plain/);
    const form = await post("/any", "application/x-www-form-urlencoded", "a=1");
    assert.equal(form.status, 415);
  });

  test("curl: a MessagePack order, and a refused one", async () => {
    assert.ok(
      existsSync(CURL),
      `${CURL} is missing: install Debian's curl (apt-get install -y curl), as .ci/run does`,
    );
    const ok = await run(CURL, [
      "-sS",
      "--fail-with-body",
      "-H",
      "content-type: application/msgpack",
      "-H",
      "accept: application/msgpack",
      "--data-binary",
      "@-",
      `${url}orders`,
    ], pack({ sku: "e", qty: 5 }));
    assert.equal(ok.code, 0, ok.stderr);
    const order = unpack(ok.stdout) as Order;
    assert.deepEqual([order.sku, order.qty], ["E", 5]);
    const refused = await run(CURL, [
      "-sS",
      "-o",
      "-",
      "-w",
      "\n%{http_code} %{content_type}",
      "-H",
      "content-type: text/csv",
      "--data-binary",
      "e,5",
      `${url}orders`,
    ]);
    assert.equal(refused.code, 0, refused.stderr);
    const [body, status] = new TextDecoder().decode(refused.stdout).split("\n");
    assert.equal(status, "415 application/json");
    assert.match(JSON.parse(body!).error, /^Unsupported Content-Type text\/csv/);
  });
});

describe("the plugin's options", () => {
  test('otherTypes: "elysia" leaves other types to Elysia\'s parsers', async () => {
    const open = new Elysia()
      .use(msgpack({ otherTypes: "elysia" }))
      .post("/", ({ body }) => ({ got: body }));
    const text = await open.handle(
      new Request("http://localhost/", {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: "hi",
      }),
    );
    assert.deepEqual(await text.json(), { got: "hi" });
    const msgpackBody = await open.handle(
      new Request("http://localhost/", {
        method: "POST",
        headers: { "content-type": "application/msgpack" },
        body: pack({ a: 1 }),
      }),
    );
    assert.deepEqual(await msgpackBody.json(), { got: { a: 1 } });
    assert.throws(() => msgpack({ otherTypes: "other" as "elysia" }), TypeError);
  });

  test("respond options apply to replies and error replies: formatParam, packrOptions", async () => {
    const debug = new Elysia()
      .use(msgpack({ respond: { formatParam: "format", packrOptions: { useRecords: true } } }))
      .get("/", () => [{ id: 1 }, { id: 2 }]);
    const json = await debug.handle(
      new Request("http://localhost/?format=json", { headers: { accept: "application/msgpack" } }),
    );
    assert.equal(json.headers.get("content-type"), "application/json");
    const records = await debug.handle(
      new Request("http://localhost/", { headers: { accept: "application/msgpack" } }),
    );
    const bytes = await records.bytes();
    assert.equal(bytes[1], 0xd4, "a record definition (fixext1 'r') follows the array header");
    assert.deepEqual(unpack(bytes), [{ id: 1 }, { id: 2 }]);
  });
});
