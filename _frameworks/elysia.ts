// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Elysia glue: a plugin of three global hooks, on whatever Elysia instance uses it. Elysia's types
// are not imported: the plugin is generic over the app it is given (`<App>(app: App) => App`),
// so `.use(msgpack())` keeps the app's own type, and what the hooks read of their contexts is
// declared structurally below.

import type { StandardSchemaV1 } from "../_core/standard_schema.ts";
import { HttpError } from "../_http/http_error.ts";
import { bodyKindOf } from "../_http/media_type.ts";
import { readBody, type ReadBodyOptions } from "../_http/read_body.ts";
import { respond, type RespondInit } from "../_http/respond.ts";
import { validateBody } from "../_http/validate_body.ts";
import { errorReply } from "./error_reply.ts";

/**
 * Options of the {@linkcode msgpack} plugin: how bodies are read and replies written.
 *
 * @example Usage
 * ```ts
 * import { Elysia } from "elysia";
 * import { msgpack, type MsgpackPluginOptions } from "@x/msgpackr/elysia";
 * import assert from "node:assert/strict";
 *
 * const options: MsgpackPluginOptions = {
 *   read: { maxBytes: 16 },
 *   respond: { formatParam: "format" },
 * };
 * const app = new Elysia().use(msgpack(options)).post("/", ({ body }) => body);
 * const response = await app.handle(
 *   new Request("http://localhost/?format=json", {
 *     method: "POST",
 *     headers: { "content-type": "application/json" },
 *     body: JSON.stringify("x".repeat(20)),
 *   }),
 * );
 * assert.equal(response.status, 413);
 * ```
 */
export interface MsgpackPluginOptions {
  /**
   * Options of `readBody` for MessagePack and JSON bodies: `maxBytes` (1 MiB by default), and
   * the MessagePack decoder or its options (plain data only unless `plainDataOnly: false`).
   */
  read?: Omit<ReadBodyOptions, "schema" | "multiple"> | undefined;
  /**
   * Options of `respond` for replies: the packer (`packr`, `packrOptions`), `replacer`,
   * `format` and `formatParam`. The status and headers are the handler's (`set`).
   */
  respond?: Omit<RespondInit, keyof ResponseInit> | undefined;
  /**
   * What a body of another `Content-Type` gets: `"refuse"` answers 415, as `readBody` does
   * (for an RPC service: every body is MessagePack or JSON); `"elysia"` leaves it to Elysia's
   * own parsers (forms, text), for an app that also takes those.
   * @default {"refuse"}
   */
  otherTypes?: "refuse" | "elysia" | undefined;
}

/**
 * What the {@linkcode msgpack} plugin needs of an Elysia app: the three hook methods it calls,
 * and what it reads of their contexts. Declared here, so Elysia's types are not imported; any
 * `Elysia` instance has them.
 *
 * @example Usage
 * ```ts
 * import { Elysia } from "elysia";
 * import { type ElysiaApp, msgpack } from "@x/msgpackr/elysia";
 * import assert from "node:assert/strict";
 *
 * const app: ElysiaApp = new Elysia();
 * assert.equal(msgpack()(app), app); // the plugin adds its hooks and gives the app back
 * ```
 */
export interface ElysiaApp {
  /**
   * Adds a parse hook.
   *
   * @param options Where it applies.
   * @param handler The hook: the parsed body, or `undefined` for the next parser.
   */
  onParse(
    options: { as: "global" },
    handler: (context: { readonly request: Request }) => unknown,
  ): unknown;
  /**
   * Adds a response mapping hook.
   *
   * @param options Where it applies.
   * @param handler The hook: a response, or `undefined` to leave the value to Elysia. It reads
   * the request, what the handler returned (`responseValue`; `response` before Elysia 1.4) and
   * the status and headers it set.
   */
  mapResponse(
    options: { as: "global" },
    handler: (context: {
      readonly request: Request;
      readonly responseValue?: unknown;
      readonly response?: unknown;
      readonly set: {
        readonly status?: number | string | undefined;
        readonly headers: Record<string, unknown>;
      };
    }) => Response | undefined,
  ): unknown;
  /**
   * Adds an error hook.
   *
   * @param options Where it applies.
   * @param handler The hook: a response, or `undefined` to leave the error to Elysia.
   */
  onError(
    options: { as: "global" },
    handler: (context: { readonly request: Request; readonly error: unknown }) => Promise<
      Response | undefined
    >,
  ): unknown;
}

/** What Elysia's `ValidationError` says about a failed schema. */
interface ValidationFailure {
  code: "VALIDATION";
  type: string;
  validator?: unknown;
  value?: unknown;
}

/** The Standard Schema of an Elysia validator, if it is one (Elysia wraps some). */
function standardSchemaOf(validator: unknown): StandardSchemaV1 | undefined {
  for (const candidate of [validator, (validator as { schema?: unknown } | null)?.schema]) {
    if (
      (typeof candidate === "object" || typeof candidate === "function") && candidate !== null &&
      "~standard" in candidate
    ) {
      return candidate as StandardSchemaV1;
    }
  }
  return undefined;
}

/**
 * The error of a body that failed the route's Standard Schema (`body: schema`), as `readBody`'s
 * `schema` option makes it (the 400 with the path and the issues); `undefined` for other errors.
 */
async function bodyValidationError(error: unknown): Promise<HttpError | undefined> {
  const failure = error as Partial<ValidationFailure> | null;
  if (failure?.code !== "VALIDATION" || failure.type !== "body") return undefined;
  const schema = standardSchemaOf(failure.validator);
  if (schema === undefined) return undefined;
  try {
    await validateBody(schema, failure.value, false);
  } catch (invalid) {
    if (invalid instanceof HttpError) return invalid;
  }
  return undefined;
}

/** What Elysia's `status(code, value)` returns: its class, known by name (not imported). */
interface CustomStatus {
  readonly code: number;
  readonly response: unknown;
}

function isCustomStatus(value: unknown): value is CustomStatus {
  return typeof value === "object" && value !== null &&
    value.constructor?.name === "ElysiaCustomStatusResponse" &&
    typeof (value as { code?: unknown }).code === "number";
}

/** Values a handler returns that Elysia sends as they are. */
function isRaw(value: unknown): boolean {
  return value === undefined || value instanceof Response ||
    (typeof Blob === "function" && value instanceof Blob) ||
    (typeof ReadableStream === "function" && value instanceof ReadableStream);
}

/**
 * An Elysia plugin for MessagePack services: reads MessagePack and JSON request bodies with
 * `readBody` (its `maxBytes` and its plain-data decoding; `onParse`), answers the handler's
 * value as MessagePack or JSON, whichever the request's `Accept` prefers (`respond`;
 * `mapResponse`), and answers a refused body as `readBody` refuses it (`onError`): 415 for
 * another `Content-Type`, 413 over `maxBytes`, 400 for a malformed body, each as
 * `{ error, issues? }` in MessagePack or JSON.
 *
 * Validate with Elysia's own route option, `body: schema`, with any Standard Schema (Zod,
 * Valibot, ArkType, …): the handler's `body` is then the schema's output, typed by Elysia, and
 * a body that fails is answered as `readBody`'s `schema` option fails it, 400
 * `Invalid body at $.id: …` with the issues, in place of Elysia's 422.
 *
 * A handler's `Response`, `Blob` or `ReadableStream` is sent as it is; any other value
 * (objects, arrays, strings, numbers, and generators and async iterables, which stream as a
 * MessagePack sequence or NDJSON) is negotiated, with the status of `set` or of `status(code,
 * value)` and the headers of `set` (a `set.status` given by name is left to Elysia). The hooks are global:
 * they apply to every route of the app. Elysia's types are not imported; the plugin is generic
 * over the app it is given, so `.use(msgpack())` keeps its type.
 *
 * @param options How bodies are read (`read`), replies written (`respond`), and what a body
 * of another type gets (`otherTypes`).
 * @returns The plugin, for `app.use(…)`.
 *
 * @example An order service
 * ```ts
 * import { Elysia } from "elysia";
 * import { msgpack } from "@x/msgpackr/elysia";
 * import { pack, unpack } from "@x/msgpackr";
 * import { z } from "zod";
 * import assert from "node:assert/strict";
 *
 * const app = new Elysia()
 *   .use(msgpack())
 *   .post("/orders", ({ body, set }) => {
 *     set.status = 201;
 *     return { id: 1, ...body }; // body: { sku: string; qty: number }
 *   }, { body: z.object({ sku: z.string(), qty: z.number() }) });
 *
 * const post = (body: unknown, accept?: string) =>
 *   app.handle(
 *     new Request("http://localhost/orders", {
 *       method: "POST",
 *       headers: { "content-type": "application/msgpack", ...(accept && { accept }) },
 *       body: pack(body),
 *     }),
 *   );
 * const created = await post({ sku: "A-1", qty: 2 }, "application/msgpack");
 * assert.equal(created.status, 201);
 * assert.deepEqual(unpack(await created.bytes()), { id: 1, sku: "A-1", qty: 2 });
 *
 * const refused = await post({ sku: "A-1", qty: "2" });
 * assert.equal(refused.status, 400);
 * assert.match((await refused.json()).error, /^Invalid body at \$\.qty: /);
 * ```
 */
export function msgpack(
  options: MsgpackPluginOptions = {},
): <App extends ElysiaApp>(app: App) => App {
  const reading: ReadBodyOptions = { ...options.read };
  const replying: RespondInit = { ...options.respond };
  const otherTypes = options.otherTypes ?? "refuse";
  if (otherTypes !== "refuse" && otherTypes !== "elysia") {
    throw new TypeError(
      `Cannot use otherTypes ${JSON.stringify(otherTypes)}: expected "refuse" or "elysia"`,
    );
  }
  return <App extends ElysiaApp>(app: App): App => {
    app.onParse({ as: "global" }, ({ request }) => {
      if (request.body === null) return undefined;
      if (otherTypes === "elysia" && bodyKindOf(request.headers.get("content-type")) === null) {
        return undefined;
      }
      return readBody(request, reading);
    });
    app.mapResponse({ as: "global" }, (context) => {
      let value = "responseValue" in context ? context.responseValue : context.response;
      let { status } = context.set;
      if (isCustomStatus(value)) {
        status = value.code;
        value = value.response;
      }
      if (isRaw(value) || (status !== undefined && typeof status !== "number")) return undefined;
      const { headers } = context.set;
      const init: RespondInit = { ...replying, headers: headersOf(headers) };
      if (status !== undefined) init.status = status;
      return respond(context.request, value, init);
    });
    app.onError({ as: "global" }, async ({ request, error }) => {
      // Elysia wraps an error of a parse hook in its ParseError, as `cause`
      const cause = (error as { cause?: unknown } | null)?.cause;
      const refused = error instanceof HttpError
        ? error
        : cause instanceof HttpError
        ? cause
        : await bodyValidationError(error);
      return refused === undefined ? undefined : errorReply(request, refused, replying);
    });
    return app;
  };
}

/** Elysia's `set.headers` as `Headers` (its values may be numbers or arrays). */
function headersOf(record: Record<string, unknown>): Headers {
  const headers = new Headers();
  for (const name of Object.keys(record)) {
    const value = record[name];
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) { for (const item of value) headers.append(name, String(item)); }
    else headers.set(name, String(value));
  }
  return headers;
}
