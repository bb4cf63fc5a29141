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
import { Elysia } from "elysia";
import { z } from "zod";
import { msgpack } from "../elysia.ts";
import { pack, unpack } from "../mod.ts";
import { AppClient, ArktypeId, errorOf, MAX_BYTES, Order, ValibotId } from "./_framework.ts";
import { serve } from "./_http.ts";
import type { Equal } from "./_schemas.ts";

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
  .post("/valibot", ({ body }) => body.id + 1, { body: ValibotId })
  .post("/arktype", ({ body }) => body.id + 1, { body: ArktypeId })
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
    const server = serve(app.fetch);
    url = server.url;
    stop = () => server.close();
  }
});
after(() => stop());
const client = new AppClient(() => url, received);

describe("an Elysia app with the msgpack plugin, over HTTP", () => {
  test("a MessagePack body reaches the handler validated; Accept: application/msgpack gets MessagePack", async () => {
    const response = await client.checkMsgpackOrder();
    assert.equal(response.headers.get("x-order"), "1");
  });

  test("no Accept gets JSON; a JSON body is read and validated the same way", async () => {
    await client.checkJsonOrders();
  });

  test("fetchValue talks MessagePack both ways; generators stream; status(…) and Responses", async () => {
    await client.checkFetchValue();
    const accepted = await client.post(
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
    await client.checkSchemaFailure();
  });

  test("valibot and arktype schemas: { id: 'x' } is a 400 at ['id']; async refinements", async () => {
    await client.checkOtherSchemas();
    const positive = await client.post("/positive", "application/msgpack", pack({ id: 5 }));
    assert.deepEqual(await positive.json(), { id: 5 });
    const negative = await client.post("/positive", "application/msgpack", pack({ id: -5 }));
    assert.equal(negative.status, 400);
    assert.equal((await errorOf(negative)).error, "Invalid body at $.id: id must be positive");
  });

  test("400 for a malformed body, as readBody gives it", async () => {
    await client.checkMalformed("application/msgpack");
  });

  test("413 over maxBytes, by Content-Length and by the bytes of a streamed body", async () => {
    await client.checkMaxBytes();
  });

  test("415 for another Content-Type", async () => {
    await client.checkUnsupportedType();
    const form = await client.post("/any", "application/x-www-form-urlencoded", "a=1");
    assert.equal(form.status, 415);
  });

  test("curl: a MessagePack order, and a refused one", async () => {
    await client.checkCurlOrder();
    const refused = await client.curlRefusal("text/csv", "e,5");
    assert.equal(refused.status, "415 application/json");
    assert.match(refused.error, /^Unsupported Content-Type text\/csv/);
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
