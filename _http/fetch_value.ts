// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import type { Packr } from "../_encode/packr.ts";
import { standardOf, type StandardSchemaV1 } from "../_core/standard_schema.ts";
import type { Unpackr } from "../_decode/unpackr.ts";
import type { PackrStreamOptions } from "../_stream/chunk_encoder.ts";
import type { UnpackrStreamOptions } from "../_stream/chunk_decoder.ts";
import { compressRequestBody, type ContentCoding } from "./content_coding.ts";
import { encodeStream, packValue } from "./encode_body.ts";
import { HttpError } from "./http_error.ts";
import { decodeUtf8, type JsonReplacer, stringifyJson } from "./json.ts";
import { bodyKindOf, JSON_TYPE, NDJSON_TYPE } from "./media_type.ts";
import {
  decodeBody,
  NO_OPTIONS,
  type ReadBodyOptions,
  readBodyValues,
  type ReadBodyValuesOptions,
} from "./read_body.ts";
import { checkMaxBytes, discardBody, readBytes } from "./read_bytes.ts";
import { isValueSource } from "./value_source.ts";
import { validatedResponseValues, validateResponse } from "./validate_body.ts";

/**
 * The `Accept` header {@linkcode fetchValue} sends: MessagePack first, JSON accepted.
 *
 * @example Usage
 * ```ts
 * import { ACCEPT_MSGPACK, negotiate } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * assert.equal(ACCEPT_MSGPACK, "application/msgpack, application/json;q=0.9");
 * assert.equal(negotiate(ACCEPT_MSGPACK), "application/msgpack");
 * ```
 */
export const ACCEPT_MSGPACK = "application/msgpack, application/json;q=0.9";

/**
 * The `init` of {@linkcode fetchValue} and {@linkcode fetchValues}: a `RequestInit` whose `body`
 * is a value to send, plus the format, the packer and the decoder.
 *
 * @example Usage
 * ```ts
 * import { fetchValue, type FetchValueInit, respond } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * const init: FetchValueInit = {
 *   method: "PUT",
 *   body: { name: "Ada" },
 *   headers: { authorization: "Bearer t0k3n" },
 *   // any function of fetch's shape: here a handler called directly
 *   fetch: (input, init) => {
 *     const request = new Request(input, init);
 *     return Promise.resolve(respond(request, request.method));
 *   },
 * };
 * assert.equal(await fetchValue("http://localhost/users/1", init), "PUT");
 * ```
 */
export interface FetchValueInit<T = unknown> extends Omit<RequestInit, "body"> {
  /**
   * The value to send, as MessagePack (`Content-Type: application/msgpack`) or, with
   * `format: "json"`, as JSON. An iterator, async iterable or `ReadableStream` is streamed (a
   * MessagePack sequence, or NDJSON), which needs a runtime that streams request bodies
   * (`duplex: "half"`: Deno, Bun, Node; browsers over HTTP/2 only). `undefined` sends no
   * body. A body without a `method` is sent with `POST`.
   */
  body?: unknown;
  /**
   * `"json"` sends the body as JSON and asks for JSON (`Accept: application/json`), so every
   * byte on the wire can be read in the browser's network panel; `"msgpack"` (the default)
   * sends MessagePack and asks for MessagePack first
   * (`Accept: application/msgpack, application/json;q=0.9`). An `Accept` header given in
   * `headers` is kept.
   * @default {"msgpack"}
   */
  format?: "msgpack" | "json" | undefined;
  /** Packs the body (its options and extensions apply); a streamed body is packed in batches. */
  packr?: Packr | undefined;
  /**
   * Options of the packer when no `packr` is given; records are off unless `useRecords: true`,
   * and safe integers beyond 32 bits are int64/uint64 unless `useInt64: false`.
   * @default {{ useRecords: false, useInt64: true }}
   */
  packrOptions?: PackrStreamOptions | undefined;
  /** Replacer for a JSON body (see {@linkcode jsonReplacer}). */
  replacer?: JsonReplacer | undefined;
  /**
   * Decodes MessagePack responses (its options and extensions apply; `fetchValue` only). Without
   * it, MessagePack is decoded as plain data only (`plainDataOnly`); a client that trusts the
   * server passes `new Unpackr({ mapsAsObjects: true })`, or `unpackrOptions` with
   * `plainDataOnly: false`, to accept references, `RegExp` and `Error` too.
   */
  unpackr?: Unpackr | undefined;
  /**
   * Options of the MessagePack decoder (and `maxIncompleteBufferSize` for `fetchValues`, which
   * bounds one value: 64 MiB by default), over the defaults
   * `{ mapsAsObjects: true, int64AsType: "auto", plainDataOnly: true }`.
   */
  unpackrOptions?: Omit<UnpackrStreamOptions, "schema"> | undefined;
  /**
   * Validates the response with this Standard Schema (Zod, Valibot, ArkType, …), MessagePack
   * and JSON alike, and gives its output, typed as the schema's output (for `fetchValues`, each
   * value as it arrives). A 2xx response that fails throws a `ValidationError` whose message
   * names the first issue's path and message (`Invalid response at $.id: …`; `Invalid response
   * value (index 3) at …` for a value of `fetchValues`, after the values before it), with every
   * issue in `issues`. A response without content is validated as `undefined`. Async checks are
   * awaited.
   */
  schema?: StandardSchemaV1<unknown, T> | undefined;
  /**
   * Most bytes of a response body read; past it the call fails (a 502 {@linkcode HttpError}
   * whose `cause` is the 413 of {@linkcode readBody}).
   * @default {Infinity}
   */
  maxBytes?: number | undefined;
  /**
   * Compress the request body with this coding (`Content-Encoding`), which the server must
   * decode ({@linkcode readBody} does): a single value is compressed whole before it is sent, a
   * streamed body as it is sent. `"gzip"` and `"deflate"` work everywhere, `"br"` and `"zstd"`
   * where the runtime's `CompressionStream` has them (else a `TypeError`). Responses need no
   * option: `fetch` decodes them.
   */
  compress?: ContentCoding | undefined;
  /**
   * With {@linkcode fetchValues}: yield the elements of a top-level array one by one as they
   * arrive (of a MessagePack array, a JSON array, or each NDJSON line that holds one), as a
   * `respond` with `arrayLength` writes them; see `arrayElements` of `UnpackrStreamOptions`.
   * @default {false}
   */
  arrayElements?: boolean | undefined;
  /**
   * The function that sends the request, in place of the global `fetch` (a framework's
   * `app.request`, a test double, a fetch with retries).
   */
  fetch?: ((input: Request | URL | string, init?: RequestInit) => Promise<Response>) | undefined;
}

/** The options that are ours, not `fetch`'s. */
const OWN_OPTIONS = [
  "body",
  "format",
  "packr",
  "packrOptions",
  "replacer",
  "unpackr",
  "unpackrOptions",
  "maxBytes",
  "compress",
  "arrayElements",
  "fetch",
  "schema",
] as const;

/** Sends the request that `fetchValue` and `fetchValues` make. */
async function send(
  input: Request | URL | string,
  init: FetchValueInit,
): Promise<{ response: Response; what: string }> {
  const requestInit: RequestInit & { duplex?: "half" } = {};
  for (const key of Object.keys(init) as (keyof FetchValueInit)[]) {
    if (!(OWN_OPTIONS as readonly string[]).includes(key)) {
      (requestInit as Record<string, unknown>)[key] = init[key];
    }
  }
  const json = init.format === "json";
  if (init.format !== undefined && !json && init.format !== "msgpack") {
    throw new TypeError(
      `Cannot use format ${JSON.stringify(init.format)}: expected "json" or "msgpack"`,
    );
  }
  const given = init.headers ?? (input instanceof Request ? input.headers : undefined);
  // without headers of the caller's, for the global fetch, a plain object: the runtimes take it
  // for less than a `Headers` they must iterate (a `fetch` of the caller's gets a `Headers`).
  // Chosen by measurement: npm run bench:rpc:deno / :bun
  const plain: Record<string, string> | null = given === undefined && init.fetch === undefined
    ? {}
    : null;
  const headers = plain === null ? new Headers(given) : null;
  const set = (name: string, value: string): void => {
    if (headers === null) plain![name] = value;
    else headers.set(name, value);
  };
  if (headers === null || !headers.has("accept")) set("accept", json ? JSON_TYPE : ACCEPT_MSGPACK);
  const value = init.body;
  if (value !== undefined) {
    if (init.method === undefined && !(input instanceof Request)) requestInit.method = "POST";
    if (isValueSource(value)) {
      set("content-type", json ? NDJSON_TYPE : "application/msgpack");
      requestInit.body = encodeStream(value, json, init);
      requestInit.duplex = "half";
    } else if (json) {
      set("content-type", JSON_TYPE);
      requestInit.body = stringifyJson(value, init.replacer);
    } else {
      set("content-type", "application/msgpack");
      requestInit.body = packValue(value, init);
    }
    if (init.compress !== undefined) {
      requestInit.body = await compressRequestBody(
        requestInit.body as Uint8Array<ArrayBuffer> | string | ReadableStream<Uint8Array>,
        init.compress,
      );
      set("content-encoding", init.compress);
    }
  }
  requestInit.headers = headers ?? plain!;
  const method = requestInit.method ?? (input instanceof Request ? input.method : "GET");
  const url = input instanceof Request ? input.url : String(input);
  const response = await (init.fetch ?? fetch)(input, requestInit);
  return { response, what: `${method.toUpperCase()} ${url}` };
}

/**
 * The error for a response whose status is not 2xx: its status, its decoded body (MessagePack
 * or JSON; the text of a `text/*` body or of one without a type; else `undefined`), and the
 * response.
 */
async function statusError(
  response: Response,
  what: string,
  init: FetchValueInit,
): Promise<HttpError> {
  let body: unknown;
  try {
    const kind = bodyKindOf(response.headers.get("content-type"));
    if (kind !== null) {
      const bytes = await readBytes(response, checkMaxBytes(init.maxBytes ?? Infinity));
      body = bytes.length === 0 ? undefined : decodeBody(kind, bytes, readOptions(init));
    } else if (/^\s*text\/|^\s*$/i.test(response.headers.get("content-type") ?? "")) {
      // text, or no type at all: the text, if it is UTF-8
      const bytes = await readBytes(response, checkMaxBytes(init.maxBytes ?? Infinity));
      body = bytes.length === 0 ? undefined : decodeUtf8(bytes);
    } else {
      discardBody(response);
    }
  } catch {
    // the status is the error; an unreadable body leaves `body` undefined
  }
  const detail = typeof body === "object" && body !== null
    ? (body as { message?: unknown }).message ?? (body as { error?: unknown }).error
    : typeof body === "string" && body.length <= 200
    ? body
    : undefined;
  const message = `${what} failed: ${response.status} ${response.statusText}`.trimEnd() +
    (typeof detail === "string" && detail !== "" ? ` (${detail})` : "");
  return new HttpError(response.status, message, { body, response });
}

function readOptions(init: FetchValueInit): ReadBodyOptions {
  // the plain decoder's options, one object for every call (decodeBody keys its decoders by it)
  if (init.unpackrOptions === undefined && init.unpackr === undefined) return NO_OPTIONS;
  const options: ReadBodyOptions = { ...init.unpackrOptions };
  if (init.unpackr !== undefined) options.unpackr = init.unpackr;
  return options;
}

/** A response that cannot be read: a 502, as a gateway answers an invalid upstream response. */
function badResponse(error: unknown, response: Response, what: string): unknown {
  if (!(error instanceof HttpError)) return error;
  return new HttpError(502, `${what}: cannot read the response: ${error.message}`, {
    cause: error,
    response,
  });
}

/**
 * Fetches a value: sends the request with `Accept: application/msgpack, application/json;q=0.9`
 * (and `init.body` as MessagePack, or as JSON with `format: "json"`), and decodes whichever of
 * MessagePack and JSON comes back. MessagePack decodes as from any peer: maps as plain objects,
 * 64-bit integers as numbers when they are safe integers and as bigints beyond
 * (`int64AsType: "auto"`), plain data only as {@linkcode readBody} decodes it, unless `unpackr`
 * or `unpackrOptions` say otherwise; the body is sent with safe integers beyond 32 bits as
 * int64/uint64 (`useInt64`), so a Go or Python server reads integers.
 *
 * A response whose status is not 2xx throws an {@linkcode HttpError} with that `status`, the
 * decoded `body` (MessagePack or JSON; the text of a `text/*` body or of one without a
 * `Content-Type`) and the `response`. A 2xx
 * response that cannot be read (another `Content-Type`, malformed or truncated, over
 * `maxBytes`) throws an `HttpError` with status 502 whose `cause` is the error of
 * {@linkcode readBody}. A response without content (204, 205, or an empty body) gives
 * `undefined`. Network errors and aborts (`signal`) are thrown as `fetch` throws them.
 *
 * With `schema` (any Standard Schema: Zod, Valibot, ArkType, …) the value is validated and the
 * schema's output returned, typed as that output; a 2xx response that fails throws a
 * `ValidationError` (`Invalid response at $.id: …`) with every issue in `issues`.
 *
 * @typeParam T The type of the value: not checked, or the output of `init.schema`.
 * @param input The URL or `Request`, as `fetch` takes it.
 * @param init `fetch`'s options, with `body` a value to send; `format`, the packer and the
 * decoder; `maxBytes`; `schema`; a `fetch` to use.
 * @returns The decoded value.
 *
 * @example Usage
 * ```ts
 * import { fetchValue, HttpError, readBody, respond } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
 *   if (request.method !== "POST") {
 *     return respond(request, { error: "use POST" }, { status: 405 });
 *   }
 *   const order = await readBody<{ items: number[] }>(request);
 *   return respond(request, { total: order.items.reduce((a, b) => a + b, 0) });
 * });
 * const url = `http://127.0.0.1:${server.addr.port}/`;
 *
 * assert.deepEqual(await fetchValue(url, { body: { items: [1, 2, 3] } }), { total: 6 });
 * await assert.rejects(fetchValue(url), (error) => {
 *   assert.ok(error instanceof HttpError);
 *   assert.equal(error.status, 405);
 *   assert.deepEqual(error.body, { error: "use POST" });
 *   return true;
 * });
 * await server.shutdown();
 * ```
 *
 * @example A validated response
 * ```ts
 * import { fetchValue, respond, ValidationError } from "@x/msgpackr/http";
 * import { type } from "arktype";
 * import assert from "node:assert/strict";
 *
 * const User = type({ id: "number", name: "string" });
 * // a handler called directly in place of the network
 * const fetch = (input: Request | URL | string, init?: RequestInit) =>
 *   Promise.resolve(respond(new Request(input, init), { id: 7, name: "Ada" }));
 * const user = await fetchValue("http://localhost/users/7", { schema: User, fetch });
 * assert.equal(user.name, "Ada"); // typed as User.infer
 * await assert.rejects(
 *   fetchValue("http://localhost/users/7", { schema: type({ id: "string" }), fetch }),
 *   (error) => error instanceof ValidationError && /^Invalid response at \$\.id: /.test(error.message),
 * );
 * ```
 */
export async function fetchValue<T = unknown>(
  input: Request | URL | string,
  init: FetchValueInit<T> = {},
): Promise<T> {
  if (init.schema !== undefined) {
    const { schema, ...unchecked } = init;
    const standard = standardOf(schema);
    return await validateResponse(standard, await fetchValue(input, unchecked)) as T;
  }
  const { response, what } = await send(input, init);
  if (!response.ok) throw await statusError(response, what, init);
  const status = response.status;
  // `body` is not asked for (see `readBytes`): a missing body reads as no bytes, which gives
  // `undefined` too
  if (status === 204 || status === 205) {
    discardBody(response);
    return undefined as T;
  }
  try {
    const kind = bodyKindOf(response.headers.get("content-type"));
    if (kind === null) {
      discardBody(response);
      throw new HttpError(
        415,
        `Unsupported Content-Type ${response.headers.get("content-type") ?? "(none)"}`,
      );
    }
    const bytes = await readBytes(response, checkMaxBytes(init.maxBytes ?? Infinity));
    if (bytes.length === 0) return undefined as T;
    return decodeBody(kind, bytes, readOptions(init)) as T;
  } catch (error) {
    throw badResponse(error, response, what);
  }
}

/**
 * Fetches a streamed response and yields its values as they arrive: a MessagePack sequence
 * (as a streamed {@linkcode respond} or a `PackrStream` writes it, records included), NDJSON
 * lines, or the one value of a JSON body. The request is made as {@linkcode fetchValue} makes
 * it, when the iteration starts. Stopping early (`break`, `return`) cancels the response body,
 * which closes the connection, so the server's source is cancelled too.
 *
 * Errors are those of {@linkcode fetchValue}: an {@linkcode HttpError} with the status for a
 * non-2xx response; a 502 `HttpError` (its `cause` the 400, 413 or 415 of
 * {@linkcode readBodyValues}) for a body that cannot be read, after the values before the
 * fault; network errors and aborts as `fetch` throws them. With `schema`, each value is
 * validated as it arrives; the first that fails throws a `ValidationError` naming its index.
 *
 * @typeParam T The type of the values: not checked, or the output of `init.schema`.
 * @param input The URL or `Request`, as `fetch` takes it.
 * @param init As for {@linkcode fetchValue}; `unpackrOptions.maxIncompleteBufferSize` bounds
 * one value.
 * @returns An async generator of the values.
 *
 * @example Usage
 * ```ts
 * import { fetchValues, respond } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * async function* prices() {
 *   for (let i = 1; i <= 3; i++) yield { sku: `A-${i}`, price: i * 10 };
 * }
 * const server = Deno.serve(
 *   { hostname: "127.0.0.1", port: 0, onListen() {} },
 *   (request) => respond(request, prices()),
 * );
 * const seen: string[] = [];
 * for await (const price of fetchValues<{ sku: string }>(`http://127.0.0.1:${server.addr.port}/`)) {
 *   seen.push(price.sku);
 * }
 * assert.deepEqual(seen, ["A-1", "A-2", "A-3"]);
 * await server.shutdown();
 * ```
 *
 * @example One big array, element by element at both ends
 * ```ts
 * import { fetchValues, respond } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * function* rows(count: number) {
 *   for (let id = 0; id < count; id++) yield { id };
 * }
 * const server = Deno.serve(
 *   { hostname: "127.0.0.1", port: 0, onListen() {} },
 *   (request) => respond(request, rows(50_000), { arrayLength: 50_000 }),
 * );
 * let count = 0;
 * const url = `http://127.0.0.1:${server.addr.port}/`;
 * for await (const row of fetchValues<{ id: number }>(url, { arrayElements: true })) {
 *   assert.equal(row.id, count++);
 * }
 * assert.equal(count, 50_000);
 * await server.shutdown();
 * ```
 */
export async function* fetchValues<T = unknown>(
  input: Request | URL | string,
  init: FetchValueInit<T> = {},
): AsyncGenerator<T, void, undefined> {
  if (init.schema !== undefined) {
    const { schema, ...unchecked } = init;
    yield* validatedResponseValues<T>(fetchValues(input, unchecked), schema);
    return;
  }
  const { response, what } = await send(input, init);
  if (!response.ok) throw await statusError(response, what, init);
  if (response.status === 204 || response.status === 205 || response.body === null) {
    discardBody(response);
    return;
  }
  const options: ReadBodyValuesOptions<T> = {
    ...init.unpackrOptions,
    maxBytes: init.maxBytes ?? Infinity,
    // one value is bounded by `unpackrOptions.maxIncompleteBufferSize` alone (64 MiB by default)
    maxValueBytes: Infinity,
  };
  if (init.arrayElements !== undefined) options.arrayElements = init.arrayElements;
  try {
    yield* readBodyValues<T>(response, options);
  } catch (error) {
    throw badResponse(error, response, what);
  }
}
