// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

/**
 * MessagePack over HTTP with content negotiation, for `Deno.serve`, `Bun.serve`, Hono and any
 * Fetch-API server, and for `fetch` clients (browsers included). A service moves from JSON to
 * MessagePack without a flag day: {@linkcode respond} answers MessagePack to clients whose
 * `Accept` asks for it and JSON to everyone else, {@linkcode readBody} reads request bodies of
 * either type by `Content-Type` (with a size bound and errors that carry the status to answer),
 * and {@linkcode fetchValue} asks for MessagePack first and decodes whichever came back.
 * Iterators, async iterables and `ReadableStream`s stream (a MessagePack sequence or NDJSON),
 * read with {@linkcode fetchValues} or {@linkcode readBodyValues}.
 *
 * MessagePack bodies are plain MessagePack unless asked otherwise: written without records and
 * with safe integers beyond 32 bits as int64/uint64, so any MessagePack decoder reads them and
 * a Go or Python service gets integers; read with maps as objects and 64-bit integers as
 * numbers when they are safe integers, as Go and Python services write them. A server forces
 * JSON with `format: "json"` (a debug switch) or lets a request choose with `formatParam`
 * (`?format=json`), so a person can read a failing response with curl or a browser.
 *
 * Bodies come from strangers, so the defaults are safe for them: MessagePack is decoded as plain
 * data (`plainDataOnly`: structured clone references, `RegExp` and `Error` are refused with a
 * 400 naming the extension and its offset; records, timestamps, big integers and bundled strings
 * decode), `readBody` reads at most 1 MiB, and `readBodyValues` at most 1 MiB per value. A peer
 * you trust gets more with `plainDataOnly: false` or an `unpackr` of your own, and larger
 * bodies with `maxBytes` and `maxValueBytes`.
 *
 * @example A service and its client
 * ```ts
 * import { fetchValue, HttpError, readBody, respond } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
 *   try {
 *     const { a, b } = await readBody<{ a: number; b: number }>(request);
 *     return respond(request, { sum: a + b }, { formatParam: "format" });
 *   } catch (error) {
 *     if (!(error instanceof HttpError)) throw error;
 *     return respond(request, { error: error.message }, { status: error.status });
 *   }
 * });
 * const url = `http://127.0.0.1:${server.addr.port}/sum`;
 *
 * // a MessagePack client
 * assert.deepEqual(await fetchValue(url, { body: { a: 1, b: 2 } }), { sum: 3 });
 * // a JSON client
 * const response = await fetch(url, {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: '{"a":1,"b":2}',
 * });
 * assert.equal(response.headers.get("content-type"), "application/json");
 * assert.deepEqual(await response.json(), { sum: 3 });
 * await server.shutdown();
 * ```
 *
 * @module
 */

import "./_records/compiler.ts";
import "./_encode/writer_compiler.ts";

export { negotiate } from "./_http/negotiate.ts";
export type { MessagePackMediaType } from "./_http/media_type.ts";
export { respond, type RespondInit } from "./_http/respond.ts";
export {
  DEFAULT_MAX_BODY_BYTES,
  readBody,
  type ReadBodyOptions,
  readBodyValues,
  type ReadBodyValuesOptions,
} from "./_http/read_body.ts";
export {
  ACCEPT_MSGPACK,
  fetchValue,
  type FetchValueInit,
  fetchValues,
} from "./_http/fetch_value.ts";
export { HttpError, type HttpErrorOptions } from "./_http/http_error.ts";
// what the `schema` options take, and the error of a response that fails one
export { type StandardSchemaV1, ValidationError } from "./_core/standard_schema.ts";
export type { ContentCoding } from "./_http/content_coding.ts";
export type { CompressOption } from "./_http/accept_encoding.ts";
export { type JsonReplacer, jsonReplacer } from "./_http/json.ts";
export type { ValueSource } from "./_http/value_source.ts";
// the types the options refer to, so this entry documents completely
export { Packr } from "./_encode/packr.ts";
export type { ReusedBuffer } from "./_encode/encoder.ts";
export { Unpackr } from "./_decode/unpackr.ts";
export { Timestamp } from "./_core/timestamp.ts";
export type { MessagePackSource, UnpackWindow } from "./_decode/unpack.ts";
export type { Extension, ExtensionClass } from "./_core/extensions.ts";
export type { PackrStreamOptions } from "./_stream/chunk_encoder.ts";
export type { UnpackrStreamOptions } from "./_stream/chunk_decoder.ts";
export type {
  Int64Type,
  IsCompatible,
  PackrOptions,
  Structure,
  UnpackrOptions,
} from "./_core/options.ts";
export type { Float32Option } from "./_format/float32.ts";
