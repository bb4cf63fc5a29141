// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Hono glue. The middleware reads the body itself, with `readBody` (its limits, its errors), and
// hands the value to the handler as Hono's validators do, under the "json" target, so that
// `c.req.valid("json")` gives it. Hono types `c.req.valid` from the `Context<E, P, I>` of the
// middleware's own type, which TypeScript infers only from a reference to Hono's `Context`
// class (a structural context type leaves `I` empty and `valid` takes `never`): the middleware's
// type is therefore Hono's `MiddlewareHandler`, imported as a type only, so nothing of Hono is
// loaded at run time. Everything else here is structural.

import type { Context, MiddlewareHandler } from "hono";
import type { StandardSchemaV1 } from "../_core/standard_schema.ts";
import { HttpError } from "../_http/http_error.ts";
import { readBody, type ReadBodyOptions } from "../_http/read_body.ts";
import { respond, type RespondInit } from "../_http/respond.ts";
import { errorReply } from "./error_reply.ts";

/**
 * Options of {@linkcode msgpackValidator}: those of `readBody` (`maxBytes`, the MessagePack
 * decoder or its options) and how a refused body is answered.
 *
 * @example Usage
 * ```ts
 * import { Hono } from "hono";
 * import { msgpackValidator, type MsgpackValidatorOptions } from "@x/msgpackr/hono";
 * import assert from "node:assert/strict";
 *
 * const options: MsgpackValidatorOptions = {
 *   maxBytes: 64 * 1024,
 *   onError: (error, c) => c.json({ problem: error.message }, error.status as 400),
 * };
 * const app = new Hono().post("/", msgpackValidator(undefined, options), (c) => c.text("ok"));
 * const response = await app.request("/", { method: "POST", body: "hi" }); // text/plain
 * assert.equal(response.status, 415);
 * assert.match((await response.json()).problem, /^Unsupported Content-Type text\/plain/);
 * ```
 */
export interface MsgpackValidatorOptions extends Omit<ReadBodyOptions, "schema" | "multiple"> {
  /**
   * Answers a body that is refused (the 400, 413 or 415 {@linkcode HttpError} of `readBody`,
   * or the 400 of a body that fails the schema). Without it the reply is `error.status` with
   * `{ error: message }` (and `issues`: `{ message, path }` each, for a schema failure), as
   * MessagePack or JSON by the request's `Accept`.
   */
  onError?: ((error: HttpError, c: Context) => Response | Promise<Response>) | undefined;
}

/**
 * The type of the middleware of {@linkcode msgpackValidator}: Hono's `MiddlewareHandler`
 * whose validated `json` target is the schema's output, so `c.req.valid("json")` is typed.
 *
 * @typeParam Input The type the schema accepts (what Hono's RPC client sends as `json`).
 * @typeParam Output The type the handler gets from `c.req.valid("json")`.
 *
 * @example Usage
 * ```ts
 * import { Hono } from "hono";
 * import { msgpackValidator, type MsgpackMiddleware } from "@x/msgpackr/hono";
 * import { z } from "zod";
 * import assert from "node:assert/strict";
 *
 * const Order = z.object({ id: z.number() });
 * const order: MsgpackMiddleware<{ id: number }, { id: number }> = msgpackValidator(Order);
 * const app = new Hono().post("/", order, (c) => c.text(String(c.req.valid("json").id + 1)));
 * const response = await app.request("/", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: '{"id":41}',
 * });
 * assert.equal(await response.text(), "42");
 * ```
 */
export type MsgpackMiddleware<Input, Output> = MiddlewareHandler<
  // deno-lint-ignore no-explicit-any
  any,
  string,
  { in: { json: Input }; out: { json: Output } }
>;

/**
 * A Hono middleware that reads the request body, MessagePack or JSON by its `Content-Type`,
 * with `readBody` (its `maxBytes`, 1 MiB by default, and its plain-data MessagePack decoding),
 * validates it with a Standard Schema (Zod, Valibot, ArkType, …), and hands the schema's output
 * to the handler as Hono's validators do: `c.req.valid("json")`, typed as that output. A body
 * that is refused is answered at once, as `readBody` refuses it: 415 for another type, 413 over
 * `maxBytes`, 400 for a malformed body or one that fails the schema (`Invalid body at $.id:
 * Expected number, received string`, with the issues), each as `{ error, issues? }` in
 * MessagePack or JSON by the request's `Accept` (or as `onError` answers). Answer with
 * {@linkcode reply} to negotiate the reply the same way.
 *
 * The target is `json` because Hono's `c.req.valid` knows only its own targets; a JSON body is
 * read, bounded and validated the same way as a MessagePack one, and Hono's RPC client, which
 * sends `json`, is served. The types come from Hono's own (`import type`, nothing at run time).
 *
 * @typeParam S The schema's type.
 * @param schema The schema the body must pass.
 * @param options `readBody`'s options and `onError`.
 * @returns The middleware.
 *
 * @example A validated handler
 * ```ts
 * import { Hono } from "hono";
 * import { msgpackValidator, reply } from "@x/msgpackr/hono";
 * import { pack, unpack } from "@x/msgpackr";
 * import { z } from "zod";
 * import assert from "node:assert/strict";
 *
 * const Order = z.object({ sku: z.string(), qty: z.number().int().positive() });
 * const app = new Hono().post("/orders", msgpackValidator(Order), (c) => {
 *   const order = c.req.valid("json"); // { sku: string; qty: number }
 *   return reply(c, { id: 1, ...order }, { status: 201 });
 * });
 *
 * const response = await app.request("/orders", {
 *   method: "POST",
 *   headers: { "content-type": "application/msgpack", accept: "application/msgpack" },
 *   body: pack({ sku: "A-1", qty: 2 }),
 * });
 * assert.equal(response.status, 201);
 * assert.deepEqual(unpack(await response.bytes()), { id: 1, sku: "A-1", qty: 2 });
 *
 * const refused = await app.request("/orders", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ sku: "A-1", qty: "2" }),
 * });
 * assert.equal(refused.status, 400);
 * const { error, issues } = await refused.json();
 * assert.match(error, /^Invalid body at \$\.qty: /);
 * assert.deepEqual(issues[0].path, ["qty"]);
 * ```
 */
export function msgpackValidator<S extends StandardSchemaV1>(
  schema: S,
  options?: MsgpackValidatorOptions,
): MsgpackMiddleware<StandardSchemaV1.InferInput<S>, StandardSchemaV1.InferOutput<S>>;
/**
 * A Hono middleware that reads the request body, MessagePack or JSON, with `readBody`, and
 * hands it to the handler unvalidated (`c.req.valid("json")` is `unknown`); see the other
 * overload.
 *
 * @param schema No schema.
 * @param options `readBody`'s options and `onError`.
 * @returns The middleware.
 */
export function msgpackValidator(
  schema?: undefined,
  options?: MsgpackValidatorOptions,
): MsgpackMiddleware<unknown, unknown>;
export function msgpackValidator(
  schema?: StandardSchemaV1,
  options: MsgpackValidatorOptions = {},
): MsgpackMiddleware<unknown, unknown> {
  const { onError, ...reading } = options;
  // one options object for every request, so `readBody` makes its decoder once
  const bodyOptions: ReadBodyOptions = schema === undefined ? reading : { ...reading, schema };
  return async (c, next) => {
    let value: unknown;
    try {
      value = await readBody(c.req.raw, bodyOptions);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return onError !== undefined ? await onError(error, c) : errorReply(c.req.raw, error);
    }
    c.req.addValidatedData("json", value as object);
    await next();
  };
}

/**
 * What {@linkcode reply} needs of a Hono `Context` (declared here; every Hono context has it).
 *
 * @example Usage
 * ```ts
 * import { Hono } from "hono";
 * import { type HonoReplyContext, reply } from "@x/msgpackr/hono";
 * import assert from "node:assert/strict";
 *
 * const app = new Hono().get("/", (c) => {
 *   const context: HonoReplyContext = c;
 *   return reply(context, [1, 2, 3]);
 * });
 * assert.equal(await (await app.request("/")).text(), "[1,2,3]");
 * ```
 */
export interface HonoReplyContext {
  /** The request: its `raw` Fetch API `Request`. */
  readonly req: { readonly raw: Request };
  /** Makes a response with the headers the context holds. */
  newResponse(data: ReadableStream<Uint8Array> | null, init: Response): Response;
}

/**
 * Answers from a Hono handler with `value` as MessagePack or JSON, whichever the request's
 * `Accept` prefers: `respond(c.req.raw, value, init)` (its status, headers, packer and format
 * options; an async iterable or stream is streamed), keeping the headers set on the context
 * (`c.header(…)`). Clients without `Accept` get JSON, as from `c.json`.
 *
 * @param c The handler's context.
 * @param value The value, or a stream source of values.
 * @param init `respond`'s options: `status`, `headers`, `packr`, `format`, `formatParam`, ….
 * @returns The response.
 *
 * @example Usage
 * ```ts
 * import { Hono } from "hono";
 * import { reply } from "@x/msgpackr/hono";
 * import { unpack } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const app = new Hono().get("/users/:id", (c) => {
 *   c.header("cache-control", "no-store");
 *   return reply(c, { id: Number(c.req.param("id")), name: "Ada" });
 * });
 * const msgpack = await app.request("/users/7", { headers: { accept: "application/msgpack" } });
 * assert.equal(msgpack.headers.get("content-type"), "application/msgpack");
 * assert.equal(msgpack.headers.get("cache-control"), "no-store");
 * assert.deepEqual(unpack(await msgpack.bytes()), { id: 7, name: "Ada" });
 * const json = await app.request("/users/7");
 * assert.equal(json.headers.get("content-type"), "application/json");
 * assert.deepEqual(await json.json(), { id: 7, name: "Ada" });
 * ```
 */
export function reply(c: HonoReplyContext, value: unknown, init?: RespondInit): Response {
  const response = respond(c.req.raw, value, init);
  return c.newResponse(response.body, response);
}
