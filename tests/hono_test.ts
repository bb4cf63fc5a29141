// Copyright 2026 the @x/msgpackr authors. MIT license.
// hono.ts against the real Hono, over real HTTP on 127.0.0.1: an app written as Hono's docs
// write them (`new Hono().post(path, validator, handler)`), served with `Deno.serve(app.fetch)`
// under Deno and `Bun.serve({ fetch: app.fetch })` under Bun, and clients: `fetch`, fetchValue
// and curl (Debian's /usr/bin/curl). A MessagePack or JSON body reaches the handler validated
// (`c.req.valid("json")`, typed as the schema's output); the reply is negotiated; 400 (malformed,
// schema failure), 413 (over maxBytes) and 415 (another type) come back as readBody gives them.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { Hono } from "hono";
import { z } from "zod";
import * as v from "valibot";
import { type } from "arktype";
import { msgpackValidator, reply } from "../hono.ts";
import { ACCEPT_MSGPACK, fetchValue, fetchValues, HttpError } from "../http.ts";
import { pack, unpack } from "../mod.ts";
import { serve, type Server } from "./_http.ts";
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

const app = new Hono()
  .post("/orders", msgpackValidator(Order, { maxBytes: MAX_BYTES }), (c) => {
    const order = c.req.valid("json");
    const typed: Equal<typeof order, Order> = true;
    received.push(order);
    return reply(c, { id: received.length, ...order, typed }, { status: 201 });
  })
  .post("/valibot", msgpackValidator(v.object({ id: v.number() })), (c) => {
    received.push(c.req.valid("json"));
    return reply(c, c.req.valid("json").id + 1);
  })
  .post("/arktype", msgpackValidator(type({ id: "number" })), (c) => {
    received.push(c.req.valid("json"));
    return reply(c, c.req.valid("json").id + 1);
  })
  .post("/any", msgpackValidator(), (c) => reply(c, { got: c.req.valid("json") }))
  .post(
    "/custom",
    msgpackValidator(Order, {
      onError: (error, c) => c.text(`refused: ${error.status}`, error.status as 400),
    }),
    (c) => reply(c, c.req.valid("json")),
  )
  .get("/orders", (c) => {
    c.header("x-count", "3");
    return reply(
      c,
      (function* () {
        for (let id = 1; id <= 3; id++) yield { id, sku: `A-${id}` };
      })(),
    );
  });

let server: Server;
before(() => {
  server = serve(app.fetch);
});
after(() => server.close());

function post(
  path: string,
  contentType: string | null,
  body: BodyInit,
  accept?: string,
): Promise<Response> {
  const headers = new Headers();
  if (contentType !== null) headers.set("content-type", contentType);
  if (accept !== undefined) headers.set("accept", accept);
  return fetch(`${server.url}${path.slice(1)}`, { method: "POST", headers, body });
}

/** The error reply, decoded by its Content-Type. */
async function errorOf(response: Response): Promise<{ error: string; issues?: unknown[] }> {
  const type = response.headers.get("content-type");
  if (type === "application/msgpack") return unpack(await response.bytes());
  assert.equal(type, "application/json");
  return await response.json();
}

describe("a Hono app with msgpackValidator, over HTTP", () => {
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
    // the schema's output: sku upper-cased by its transform
    assert.deepEqual(received, [{ sku: "A-1", qty: 2 }]);
    assert.deepEqual(unpack(await response.bytes()), { id: 1, sku: "A-1", qty: 2, typed: true });
  });

  test("no Accept gets JSON; a JSON body is read and validated the same way", async () => {
    received.length = 0;
    const fromMsgpack = await post("/orders", "application/msgpack", pack({ sku: "b", qty: 1 }));
    assert.equal(fromMsgpack.headers.get("content-type"), "application/json");
    assert.deepEqual(await fromMsgpack.json(), { id: 1, sku: "B", qty: 1, typed: true });
    const fromJson = await post("/orders", "application/json", '{"sku":"c","qty":3}');
    assert.equal(fromJson.status, 201);
    assert.deepEqual(await fromJson.json(), { id: 2, sku: "C", qty: 3, typed: true });
    assert.deepEqual(received, [{ sku: "B", qty: 1 }, { sku: "C", qty: 3 }]);
  });

  test("fetchValue talks MessagePack both ways", async () => {
    received.length = 0;
    assert.deepEqual(
      await fetchValue(`${server.url}orders`, { body: { sku: "d", qty: 4 } }),
      { id: 1, sku: "D", qty: 4, typed: true },
    );
    const rows: unknown[] = [];
    for await (const row of fetchValues(`${server.url}orders`)) rows.push(row);
    assert.deepEqual(rows, [{ id: 1, sku: "A-1" }, { id: 2, sku: "A-2" }, { id: 3, sku: "A-3" }]);
  });

  test("reply keeps the context's headers and streams async sources", async () => {
    const response = await fetch(`${server.url}orders`, { headers: { accept: ACCEPT_MSGPACK } });
    assert.equal(response.headers.get("x-count"), "3");
    assert.equal(response.headers.get("content-type"), "application/msgpack");
    const ndjson = await fetch(`${server.url}orders`);
    assert.equal(ndjson.headers.get("content-type"), "application/x-ndjson");
    assert.equal((await ndjson.text()).trim().split("\n").length, 3);
    await response.body?.cancel();
  });

  test("400 for a body that fails the schema: the first issue's path and message, and the issues", async () => {
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

  test("valibot and arktype schemas: { id: 'x' } is a 400 at ['id']", async () => {
    for (const path of ["/valibot", "/arktype"]) {
      const ok = await post(path, "application/msgpack", pack({ id: 1 }), "application/msgpack");
      assert.equal(unpack(await ok.bytes()), 2);
      const refused = await post(path, "application/json", '{"id":"x"}');
      assert.equal(refused.status, 400);
      const { error, issues } = await errorOf(refused);
      assert.match(error, /^Invalid body at \$\.id: /, path);
      assert.deepEqual((issues as { path: unknown }[])[0]!.path, ["id"]);
    }
  });

  test("400 for a malformed body, as readBody gives it", async () => {
    const response = await post("/orders", "application/msgpack", new Uint8Array([0x82, 0xa3]));
    assert.equal(response.status, 400);
    assert.match((await errorOf(response)).error, /^Malformed MessagePack body: /);
    const json = await post("/orders", "application/json", "{");
    assert.equal(json.status, 400);
    assert.match((await errorOf(json)).error, /^Malformed JSON body: /);
  });

  test("413 over maxBytes, by Content-Length and by the bytes of a streamed body", async () => {
    const big = pack({ sku: "x".repeat(MAX_BYTES), qty: 1 });
    const response = await post("/orders", "application/msgpack", big, "application/msgpack");
    assert.equal(response.status, 413);
    assert.equal((await errorOf(response)).error, `Body exceeds maxBytes (${MAX_BYTES} bytes)`);
    const streamed = await fetch(`${server.url}orders`, {
      method: "POST",
      headers: { "content-type": "application/msgpack" },
      body: ReadableStream.from([big.subarray(0, 600), big.subarray(600)]),
      duplex: "half",
    } as RequestInit);
    assert.equal(streamed.status, 413);
    assert.match((await errorOf(streamed)).error, /exceeds maxBytes/);
  });

  test("415 for another Content-Type, or none", async () => {
    const text = await post("/orders", "text/plain", "sku=a");
    assert.equal(text.status, 415);
    assert.match((await errorOf(text)).error, /^Unsupported Content-Type text\/plain/);
    const none = await post("/orders", null, new Uint8Array([1]));
    assert.equal(none.status, 415);
    assert.match((await errorOf(none)).error, /^No Content-Type/);
  });

  test("without a schema the decoded body is handed over; onError answers refusals", async () => {
    const any = await post("/any", "application/msgpack", pack([1, "two"]));
    assert.deepEqual(await any.json(), { got: [1, "two"] });
    const custom = await post("/custom", "text/plain", "x");
    assert.equal(custom.status, 415);
    assert.equal(await custom.text(), "refused: 415");
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
      `${server.url}orders`,
    ], pack({ sku: "e", qty: 5 }));
    assert.equal(ok.code, 0, ok.stderr);
    const order = unpack(ok.stdout) as Order;
    assert.equal(order.sku, "E");
    assert.equal(order.qty, 5);
    const refused = await run(CURL, [
      "-sS",
      "-o",
      "-",
      "-w",
      "\n%{http_code} %{content_type}",
      "-H",
      "content-type: application/json",
      "--data-binary",
      '{"sku":"e","qty":0}',
      `${server.url}orders`,
    ]);
    assert.equal(refused.code, 0, refused.stderr);
    const [body, status] = new TextDecoder().decode(refused.stdout).split("\n");
    assert.equal(status, "400 application/json");
    assert.match(JSON.parse(body!).error, /^Invalid body at \$\.qty: /);
  });
});

describe("msgpackValidator's types", () => {
  test("c.req.valid('json') is the schema's output; without a schema, unknown", async () => {
    const typed = new Hono()
      .post(
        "/",
        msgpackValidator(z.object({ at: z.string().transform((s) => new Date(s)) })),
        (c) => {
          const { at } = c.req.valid("json");
          const dated: Equal<typeof at, Date> = true;
          return c.json({ dated, year: at.getUTCFullYear() });
        },
      )
      .post("/raw", msgpackValidator(), (c) => {
        const raw = c.req.valid("json");
        const unknown: Equal<typeof raw, unknown> = true;
        return c.json({ unknown });
      });
    const response = await typed.request("/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"at":"2026-03-04T00:00:00Z"}',
    });
    assert.deepEqual(await response.json(), { dated: true, year: 2026 });
    const raw = await typed.request("/raw", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "1",
    });
    assert.deepEqual(await raw.json(), { unknown: true });
  });

  test("an error the handler throws is Hono's to handle, not the validator's", async () => {
    const failing = new Hono()
      .onError((error, c) => c.text(`onError: ${error.message}`, 500))
      .post("/", msgpackValidator(), () => {
        throw new HttpError(418, "not ours");
      });
    const response = await failing.request("/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "1",
    });
    assert.equal(response.status, 500);
    assert.equal(await response.text(), "onError: not ours");
  });
});
