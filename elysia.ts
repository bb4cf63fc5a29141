// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

/**
 * MessagePack for Elysia apps: the {@linkcode msgpack} plugin reads MessagePack and JSON
 * request bodies with the limits and errors of `readBody` (`@x/msgpackr/http`), answers every
 * handler's value as MessagePack or JSON, whichever the client's `Accept` prefers, and answers
 * refused bodies (415, 413, 400, and a route's `body` schema failing) as `readBody` refuses
 * them. Validate with Elysia's own `body:` option and any Standard Schema (Zod, Valibot,
 * ArkType, …).
 *
 * Nothing of Elysia is imported, at run time or in the types: the plugin is generic over the
 * app that uses it. It runs wherever Elysia runs: Bun (`app.listen`), and Deno
 * (`Deno.serve(app.fetch)` or `app.handle(request)`).
 *
 * @example An order service
 * ```ts
 * import { Elysia } from "elysia";
 * import { msgpack } from "@x/msgpackr/elysia";
 * import { fetchValue } from "@x/msgpackr/http";
 * import { type } from "arktype";
 * import assert from "node:assert/strict";
 *
 * const app = new Elysia()
 *   .use(msgpack())
 *   .post("/orders", ({ body }) => ({ ...body, total: body.qty * 9.5 }), {
 *     body: type({ sku: "string", qty: "number" }),
 *   });
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

export { type ElysiaApp, msgpack, type MsgpackPluginOptions } from "./_frameworks/elysia.ts";
// the types the options refer to, so this entry documents completely
export { HttpError, type HttpErrorOptions } from "./_http/http_error.ts";
export type { RespondInit } from "./_http/respond.ts";
export type { ReadBodyOptions } from "./_http/read_body.ts";
export type { StandardSchemaV1 } from "./_core/standard_schema.ts";
