// Copyright 2026 the @x/msgpackr authors. MIT license.
// Helpers of the framework adapter tests (hono_test.ts, elysia_test.ts): the schemas both apps
// validate with, a client of the app under test, and the requests and assertions every adapter
// passes over real HTTP on 127.0.0.1. Each app serves the same routes: POST /orders validated by
// `Order` with maxBytes `MAX_BYTES`, answering 201 with `{ id, ...order, typed }` where `id`
// counts the orders received; GET /orders yielding three rows; POST /valibot and /arktype
// answering `id + 1`.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { z } from "zod";
import * as v from "valibot";
import { type } from "arktype";
import { fetchValue, fetchValues } from "../http.ts";
import { pack, unpack } from "../mod.ts";
import { run } from "./_process.ts";

/** Debian's curl, a client no one here wrote. */
export const CURL = "/usr/bin/curl";
/** The order route's maxBytes. */
export const MAX_BYTES = 1024;

/** The order route's schema; its output's `sku` is upper-cased. */
export const Order = z.object({
  sku: z.string().transform((sku) => sku.toUpperCase()),
  qty: z.number().int().positive(),
});
/** The output of {@link Order}. */
export type Order = { sku: string; qty: number };

/** `{ id: number }` with valibot, for the /valibot route. */
export const ValibotId = v.object({ id: v.number() });
/** `{ id: number }` with arktype, for the /arktype route. */
export const ArktypeId = type({ id: "number" });

/** The error reply, decoded by its Content-Type. */
export async function errorOf(response: Response): Promise<{ error: string; issues?: unknown[] }> {
  const type = response.headers.get("content-type");
  if (type === "application/msgpack") return unpack(await response.bytes());
  assert.equal(type, "application/json");
  return await response.json();
}

/**
 * A client of the app under test, with the checks every adapter passes. `base()` is its URL,
 * ending with "/", once it listens; `received` is what its handlers received, in order.
 */
export class AppClient {
  constructor(private readonly base: () => string, private readonly received: unknown[]) {}

  /** The app's base URL. */
  get url(): string {
    return this.base();
  }

  /** POSTs `body` to `path` with that Content-Type (none for `null`) and Accept. */
  post(
    path: string,
    contentType: string | null,
    body: BodyInit,
    accept?: string,
  ): Promise<Response> {
    const headers = new Headers();
    if (contentType !== null) headers.set("content-type", contentType);
    if (accept !== undefined) headers.set("accept", accept);
    return fetch(`${this.url}${path.slice(1)}`, { method: "POST", headers, body });
  }

  /**
   * A MessagePack order asking for MessagePack: 201, a MessagePack reply that varies on Accept,
   * and the handler received the schema's output (sku upper-cased by its transform).
   */
  async checkMsgpackOrder(): Promise<Response> {
    this.received.length = 0;
    const response = await this.post(
      "/orders",
      "application/msgpack",
      pack({ sku: "a-1", qty: 2 }),
      "application/msgpack",
    );
    assert.equal(response.status, 201);
    assert.equal(response.headers.get("content-type"), "application/msgpack");
    assert.equal(response.headers.get("vary"), "Accept");
    assert.deepEqual(this.received, [{ sku: "A-1", qty: 2 }]);
    assert.deepEqual(unpack(await response.bytes()), { id: 1, sku: "A-1", qty: 2, typed: true });
    return response;
  }

  /** Without Accept the reply is JSON; a JSON order is read and validated as a MessagePack one. */
  async checkJsonOrders(): Promise<void> {
    this.received.length = 0;
    const fromMsgpack = await this.post(
      "/orders",
      "application/msgpack",
      pack({ sku: "b", qty: 1 }),
    );
    assert.equal(fromMsgpack.status, 201);
    assert.equal(fromMsgpack.headers.get("content-type"), "application/json");
    assert.deepEqual(await fromMsgpack.json(), { id: 1, sku: "B", qty: 1, typed: true });
    const fromJson = await this.post("/orders", "application/json", '{"sku":"c","qty":3}');
    assert.equal(fromJson.status, 201);
    assert.deepEqual(await fromJson.json(), { id: 2, sku: "C", qty: 3, typed: true });
    assert.deepEqual(this.received, [{ sku: "B", qty: 1 }, { sku: "C", qty: 3 }]);
  }

  /** fetchValue posts an order and reads the reply; fetchValues reads the rows of GET /orders. */
  async checkFetchValue(): Promise<void> {
    this.received.length = 0;
    assert.deepEqual(
      await fetchValue(`${this.url}orders`, { body: { sku: "d", qty: 4 } }),
      { id: 1, sku: "D", qty: 4, typed: true },
    );
    const rows: unknown[] = [];
    for await (const row of fetchValues(`${this.url}orders`)) rows.push(row);
    assert.deepEqual(rows, [{ id: 1, sku: "A-1" }, { id: 2, sku: "A-2" }, { id: 3, sku: "A-3" }]);
  }

  /**
   * An order failing the schema is a 400, in JSON or MessagePack as asked, naming the first issue's
   * path and message, with the issues; the handler is not called.
   */
  async checkSchemaFailure(): Promise<void> {
    this.received.length = 0;
    for (const accept of [undefined, "application/msgpack"]) {
      const response = await this.post(
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
    assert.deepEqual(this.received, [], "the handler is not called");
  }

  /** The valibot and arktype routes answer `{ id: 1 }` with 2 and `{ id: "x" }` with a 400. */
  async checkOtherSchemas(): Promise<void> {
    for (const path of ["/valibot", "/arktype"]) {
      const ok = await this.post(
        path,
        "application/msgpack",
        pack({ id: 1 }),
        "application/msgpack",
      );
      assert.equal(unpack(await ok.bytes()), 2, path);
      const refused = await this.post(path, "application/json", '{"id":"x"}');
      assert.equal(refused.status, 400, path);
      const { error, issues } = await errorOf(refused);
      assert.match(error, /^Invalid body at \$\.id: /, path);
      assert.deepEqual((issues as { path: unknown }[])[0]!.path, ["id"]);
    }
  }

  /**
   * A malformed MessagePack body and a malformed JSON body (the latter sent with `accept`, whose
   * type the error reply then has) are 400s with readBody's messages.
   */
  async checkMalformed(accept?: string): Promise<void> {
    const response = await this.post(
      "/orders",
      "application/msgpack",
      new Uint8Array([0x82, 0xa3]),
    );
    assert.equal(response.status, 400);
    assert.match((await errorOf(response)).error, /^Malformed MessagePack body: /);
    const json = await this.post("/orders", "application/json", "{", accept);
    assert.equal(json.status, 400);
    if (accept !== undefined) assert.equal(json.headers.get("content-type"), accept);
    assert.match((await errorOf(json)).error, /^Malformed JSON body: /);
  }

  /** 413 over maxBytes, by Content-Length and by the bytes of a streamed body. */
  async checkMaxBytes(): Promise<void> {
    const big = pack({ sku: "x".repeat(MAX_BYTES), qty: 1 });
    const response = await this.post("/orders", "application/msgpack", big, "application/msgpack");
    assert.equal(response.status, 413);
    assert.equal((await errorOf(response)).error, `Body exceeds maxBytes (${MAX_BYTES} bytes)`);
    const streamed = await fetch(`${this.url}orders`, {
      method: "POST",
      headers: { "content-type": "application/msgpack" },
      body: ReadableStream.from([big.subarray(0, 600), big.subarray(600)]),
      duplex: "half",
    } as RequestInit);
    assert.equal(streamed.status, 413);
    assert.match((await errorOf(streamed)).error, /exceeds maxBytes/);
  }

  /** A text/plain body is a 415 naming its type. */
  async checkUnsupportedType(): Promise<void> {
    const text = await this.post("/orders", "text/plain", "sku=a");
    assert.equal(text.status, 415);
    assert.match((await errorOf(text)).error, /^Unsupported Content-Type text\/plain/);
  }

  /** curl posts a MessagePack order asking for MessagePack and reads the validated reply. */
  async checkCurlOrder(): Promise<void> {
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
      `${this.url}orders`,
    ], pack({ sku: "e", qty: 5 }));
    assert.equal(ok.code, 0, ok.stderr);
    const order = unpack(ok.stdout) as Order;
    assert.deepEqual([order.sku, order.qty], ["E", 5]);
  }

  /** curl posts `body` as `contentType` to /orders: the reply's "status content-type", and error. */
  async curlRefusal(contentType: string, body: string): Promise<{ status: string; error: string }> {
    const refused = await run(CURL, [
      "-sS",
      "-o",
      "-",
      "-w",
      "\n%{http_code} %{content_type}",
      "-H",
      `content-type: ${contentType}`,
      "--data-binary",
      body,
      `${this.url}orders`,
    ]);
    assert.equal(refused.code, 0, refused.stderr);
    const [reply, status] = new TextDecoder().decode(refused.stdout).split("\n");
    return { status: status!, error: JSON.parse(reply!).error };
  }
}
