// Copyright 2026 the @x/msgpackr authors. MIT license.
// hono.ts against the real Hono, over real HTTP on 127.0.0.1: an app written as Hono's docs
// write them (`new Hono().post(path, validator, handler)`), served with `Deno.serve(app.fetch)`
// under Deno and `Bun.serve({ fetch: app.fetch })` under Bun, and clients: `fetch`, fetchValue
// and curl (Debian's /usr/bin/curl). A MessagePack or JSON body reaches the handler validated
// (`c.req.valid("json")`, typed as the schema's output); the reply is negotiated; 400 (malformed,
// schema failure), 413 (over maxBytes) and 415 (another type) come back as readBody gives them.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Hono } from "hono";
import { z } from "zod";
import { msgpackValidator, reply } from "../hono.ts";
import { ACCEPT_MSGPACK, HttpError } from "../http.ts";
import { pack } from "../mod.ts";
import { AppClient, ArktypeId, errorOf, MAX_BYTES, Order, ValibotId } from "./_framework.ts";
import { serve, type Server } from "./_http.ts";
import type { Equal } from "./_schemas.ts";

/** What the handlers received, in order. */
const received: unknown[] = [];

const app = new Hono()
  .post("/orders", msgpackValidator(Order, { maxBytes: MAX_BYTES }), (c) => {
    const order = c.req.valid("json");
    const typed: Equal<typeof order, Order> = true;
    received.push(order);
    return reply(c, { id: received.length, ...order, typed }, { status: 201 });
  })
  .post("/valibot", msgpackValidator(ValibotId), (c) => {
    received.push(c.req.valid("json"));
    return reply(c, c.req.valid("json").id + 1);
  })
  .post("/arktype", msgpackValidator(ArktypeId), (c) => {
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
const client = new AppClient(() => server.url, received);

describe("a Hono app with msgpackValidator, over HTTP", () => {
  test("a MessagePack body reaches the handler validated; Accept: application/msgpack gets MessagePack", async () => {
    await client.checkMsgpackOrder();
  });

  test("no Accept gets JSON; a JSON body is read and validated the same way", async () => {
    await client.checkJsonOrders();
  });

  test("fetchValue talks MessagePack both ways", async () => {
    await client.checkFetchValue();
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
    await client.checkSchemaFailure();
  });

  test("valibot and arktype schemas: { id: 'x' } is a 400 at ['id']", async () => {
    await client.checkOtherSchemas();
  });

  test("400 for a malformed body, as readBody gives it", async () => {
    await client.checkMalformed();
  });

  test("413 over maxBytes, by Content-Length and by the bytes of a streamed body", async () => {
    await client.checkMaxBytes();
  });

  test("415 for another Content-Type, or none", async () => {
    await client.checkUnsupportedType();
    const none = await client.post("/orders", null, new Uint8Array([1]));
    assert.equal(none.status, 415);
    assert.match((await errorOf(none)).error, /^No Content-Type/);
  });

  test("without a schema the decoded body is handed over; onError answers refusals", async () => {
    const any = await client.post("/any", "application/msgpack", pack([1, "two"]));
    assert.deepEqual(await any.json(), { got: [1, "two"] });
    const custom = await client.post("/custom", "text/plain", "x");
    assert.equal(custom.status, 415);
    assert.equal(await custom.text(), "refused: 415");
  });

  test("curl: a MessagePack order, and a refused one", async () => {
    await client.checkCurlOrder();
    const refused = await client.curlRefusal("application/json", '{"sku":"e","qty":0}');
    assert.equal(refused.status, "400 application/json");
    assert.match(refused.error, /^Invalid body at \$\.qty: /);
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
