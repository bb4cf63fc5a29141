// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

/**
 * MessagePack for Hono apps: {@linkcode msgpackValidator} reads a request body, MessagePack or
 * JSON by its `Content-Type`, with the limits and errors of `readBody` (`@x/msgpackr/http`),
 * validates it with a Standard Schema (Zod, Valibot, ArkType, …) and hands it to the handler
 * as `c.req.valid("json")`, typed as the schema's output; {@linkcode reply} answers with
 * MessagePack or JSON, whichever the client's `Accept` prefers.
 *
 * Nothing of Hono is imported at run time; the types are Hono's (`import type` from "hono"),
 * so that `c.req.valid("json")` is typed: a TypeScript app uses the `hono` package (npm, or
 * `npm:hono` on Deno).
 *
 * @example An order service
 * ```ts
 * import { Hono } from "hono";
 * import { msgpackValidator, reply } from "@x/msgpackr/hono";
 * import { fetchValue } from "@x/msgpackr/http";
 * import * as v from "valibot";
 * import assert from "node:assert/strict";
 *
 * const Order = v.object({ sku: v.string(), qty: v.number() });
 * const app = new Hono().post("/orders", msgpackValidator(Order), (c) => {
 *   const { sku, qty } = c.req.valid("json");
 *   return reply(c, { sku, qty, total: qty * 9.5 }, { status: 201 });
 * });
 *
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
 * const url = `http://127.0.0.1:${server.addr.port}/orders`;
 * // a MessagePack client: the body and the reply are MessagePack
 * assert.deepEqual(await fetchValue(url, { body: { sku: "A-1", qty: 2 } }), {
 *   sku: "A-1",
 *   qty: 2,
 *   total: 19,
 * });
 * await server.shutdown();
 * ```
 *
 * @module
 */

import "./_records/compiler.ts";
import "./_encode/writer_compiler.ts";

export {
  type HonoReplyContext,
  type MsgpackMiddleware,
  msgpackValidator,
  type MsgpackValidatorOptions,
  reply,
} from "./_frameworks/hono.ts";
// the types the options refer to, so this entry documents completely (but Hono's own)
export { HttpError, type HttpErrorOptions } from "./_http/http_error.ts";
export type { RespondInit } from "./_http/respond.ts";
export type { StandardSchemaV1 } from "./_core/standard_schema.ts";
