// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import type { Packr } from "../_encode/packr.ts";
import type { PackrStreamOptions } from "../_stream/chunk_encoder.ts";
import { compressedResponse, type CompressOption } from "./accept_encoding.ts";
import { arrayBody } from "./array_body.ts";
import { encodeStream, packValue } from "./encode_body.ts";
import { type JsonReplacer, stringifyJson } from "./json.ts";
import {
  JSON_TYPE,
  MESSAGEPACK_TYPES,
  type MessagePackMediaType,
  NDJSON_TYPE,
} from "./media_type.ts";
import { negotiate } from "./negotiate.ts";
import { isValueSource } from "./value_source.ts";
import { addVary } from "./vary.ts";

/**
 * The `init` of {@linkcode respond}: what `new Response` takes (`status`, `statusText`,
 * `headers`), the packer's options, and the ways to force a format.
 *
 * @example Usage
 * ```ts
 * import { respond, type RespondInit } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * const init: RespondInit = { status: 201, headers: { "cache-control": "no-store" } };
 * const request = new Request("http://localhost/", { headers: { accept: "application/msgpack" } });
 * const response = respond(request, { id: 1 }, init);
 * assert.equal(response.status, 201);
 * assert.equal(response.headers.get("content-type"), "application/msgpack");
 * assert.equal(response.headers.get("cache-control"), "no-store");
 * ```
 */
export interface RespondInit extends ResponseInit {
  /**
   * Packs MessagePack bodies, with its own options and extensions; reuse one for many
   * responses. A streamed body is then one value per chunk, each packed by this Packr. Without
   * it, single values are packed by a Packr and streams as by `PackrStream.from`, both with
   * `packrOptions` (over `{ useRecords: false, useInt64: true }`).
   */
  packr?: Packr | undefined;
  /**
   * Options of the packer when no `packr` is given (`coalesceBytes` applies to streams).
   * Records are off unless `useRecords: true` is given, so any MessagePack decoder reads the
   * body, and `useInt64` is on unless `useInt64: false` is given, so that safe integers beyond
   * 32 bits reach Go's and Python's integer types as integers. For single values, one Packr is
   * made per options object and reused while that object lives: keep the object in a constant.
   * @default {{ useRecords: false, useInt64: true }}
   */
  packrOptions?: PackrStreamOptions | undefined;
  /**
   * Force the format whatever the request's `Accept` says: `"json"` (a debug switch, so a
   * person can read every response) or `"msgpack"` (sent as `application/msgpack`).
   */
  format?: "json" | "msgpack" | undefined;
  /**
   * The name of a query parameter that lets a request choose the format: with
   * `formatParam: "format"`, `?format=json` gets JSON and `?format=msgpack` MessagePack whatever
   * `Accept` says (other values are ignored), so a person can read a failing response with curl
   * or a browser. Off unless given.
   */
  formatParam?: string | undefined;
  /**
   * Replacer for the JSON side (see {@linkcode jsonReplacer} for one that writes binary, Maps
   * and Sets). Without it values are written as `JSON.stringify` writes them, bigints as
   * strings of their digits.
   */
  replacer?: JsonReplacer | undefined;
  /**
   * Compress the body when the request's `Accept-Encoding` accepts a coding: `true` offers gzip
   * and deflate; a coding (`"gzip"`, `"deflate"`, `"br"`, `"zstd"`) or a list of them offers
   * those, in the server's order of preference (codings the runtime's `CompressionStream` lacks
   * are not offered). The client's weights decide (`q`, `identity;q=0`, `*`; `x-gzip` is gzip);
   * with none acceptable, or no `Accept-Encoding`, the body goes as it is. Single values under
   * 1 KiB are not compressed. Every response has `Vary: Accept-Encoding` with it on.
   *
   * Never twice: a response whose `init.headers` has a `Content-Encoding` is not compressed, and
   * a runtime that compresses by itself skips a response with one (`Deno.serve` with
   * `automaticCompression`, which compresses JSON but not MessagePack; Hono's `compress`);
   * `Bun.serve` does not compress. A compressed stream reaches the client in the compressor's
   * blocks on Bun, Node and browsers (Deno flushes each chunk): leave it off for streams whose
   * values must arrive at once. A `Response` that is not sent (read in the same process) stays
   * compressed: only `fetch` decodes it.
   * @default {false}
   */
  compress?: CompressOption | undefined;
  /**
   * Write a streamed source as one array of this many elements rather than a sequence: the
   * array header with this count, then each value as the source produces it (MessagePack, the
   * bytes `pack` writes for the whole array), or a JSON array (`[`, values joined by `,`, `]`,
   * `Content-Type: application/json`) for JSON clients. A client reads the elements as they
   * arrive with `fetchValues(url, { arrayElements: true })`, and any MessagePack decoder reads
   * the whole array. The source must give exactly this many values: one more, or the end before
   * the count, errors the body after the values before (the client sees a truncated array). An
   * array given as the value is streamed element by element too.
   */
  arrayLength?: number | undefined;
}

/** Statuses whose responses have no body (RFC 9110). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

const NO_INIT: RespondInit = {};

/** The `init` of a 200 response of each type without headers of the caller's. */
const PLAIN_INITS: Readonly<
  Record<MessagePackMediaType | "application/json", { headers: Record<string, string> }>
> = Object.fromEntries(
  [...MESSAGEPACK_TYPES, JSON_TYPE].map((type) => [
    type,
    { headers: { "content-type": type, vary: "Accept" } },
  ]),
) as never;

/**
 * A `Response` holding `value` as MessagePack or as JSON, whichever the request's `Accept`
 * prefers ({@linkcode negotiate}): MessagePack (`Content-Type: application/msgpack`, or the
 * MessagePack name the client used) when the client ranks it first, JSON
 * (`application/json`) otherwise, so browsers and public clients keep getting JSON. Every
 * response has `Vary: Accept` (added to any `Vary` given in `init.headers`); the
 * `Content-Type` is always set by `respond`.
 *
 * MessagePack is plain (objects as maps, no records, safe integers beyond 32 bits as
 * int64/uint64 rather than float64) unless `init.packrOptions` or `init.packr` say otherwise,
 * so any MessagePack decoder reads it and a Go `int64` field or a Python `int` receives an
 * integer. JSON is written as `JSON.stringify` writes it, except that a bigint becomes a string
 * of its digits and a top-level `undefined` becomes `null`; `Map`, `Set`, binary and other
 * values JSON cannot hold need `init.replacer` ({@linkcode jsonReplacer} has rules for them) or
 * a `toJSON`.
 *
 * **Streaming.** An iterator or generator, an async iterable or a `ReadableStream` is streamed:
 * a MessagePack sequence (values one after another, packed in batches as by `PackrStream.from`)
 * for MessagePack clients, NDJSON (`application/x-ndjson`: one JSON text per line) for the
 * others. Arrays, Sets, Maps, typed arrays and strings are single values, not streams. Values
 * are pulled from the source as the client reads (backpressure); when the client goes away the
 * source is cancelled: an async generator's `finally` runs (once its pending `await`, if any,
 * settles), a `ReadableStream` gets `cancel`. An error from the source, or a value that cannot
 * be encoded, ends the response abruptly after what was sent: the client sees a network error or
 * a truncated body (`IncompleteDataError`).
 *
 * With `status` 204, 205 or 304 the response has no body and no `Content-Type`.
 *
 * @param request The request being answered (its `Accept`, and its URL for `formatParam`).
 * @param value The value to send, or a stream source of values.
 * @param init Status, status text and headers as `new Response` takes them; the packer
 * (`packr`, `packrOptions`), the JSON `replacer`, and `format` / `formatParam` to force a
 * format.
 * @returns The response.
 *
 * @example A Deno.serve handler
 * ```ts
 * import { fetchValue, respond } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * const server = Deno.serve(
 *   { hostname: "127.0.0.1", port: 0, onListen() {} },
 *   (request) => respond(request, { id: 7, items: ["a", "b"] }, { formatParam: "format" }),
 * );
 * const url = `http://127.0.0.1:${server.addr.port}/`;
 *
 * // MessagePack for a client that asks for it
 * assert.deepEqual(await fetchValue(url), { id: 7, items: ["a", "b"] });
 * // JSON for anyone else, and for ?format=json
 * const response = await fetch(`${url}?format=json`, { headers: { accept: "application/msgpack" } });
 * assert.equal(response.headers.get("content-type"), "application/json");
 * assert.equal(await response.text(), '{"id":7,"items":["a","b"]}');
 * await server.shutdown();
 * ```
 *
 * @example Negotiation
 * ```ts
 * import { respond } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * const ask = (accept: string) =>
 *   respond(new Request("http://localhost/", { headers: { accept } }), { ok: true });
 *
 * const msgpack = ask("application/msgpack, application/json;q=0.9");
 * assert.equal(msgpack.headers.get("content-type"), "application/msgpack");
 * assert.equal(msgpack.headers.get("vary"), "Accept");
 * assert.deepEqual([...await msgpack.bytes()], [0xde, 0x00, 0x01, 0xa2, 0x6f, 0x6b, 0xc3]);
 *
 * const json = ask("text/html, *\/*;q=0.8");
 * assert.equal(json.headers.get("content-type"), "application/json");
 * assert.equal(await json.text(), '{"ok":true}');
 * ```
 *
 * @example Streaming rows as they are produced
 * ```ts
 * import { respond } from "@x/msgpackr/http";
 * import { UnpackrStream } from "@x/msgpackr/stream";
 * import assert from "node:assert/strict";
 *
 * async function* rows() {
 *   for (let id = 0; id < 3; id++) yield { id };
 * }
 * const ndjson = respond(new Request("http://localhost/"), rows());
 * assert.equal(ndjson.headers.get("content-type"), "application/x-ndjson");
 * assert.equal(await ndjson.text(), '{"id":0}\n{"id":1}\n{"id":2}\n');
 *
 * const request = new Request("http://localhost/", { headers: { accept: "application/msgpack" } });
 * const values = await Array.fromAsync(
 *   respond(request, rows()).body!.pipeThrough(new UnpackrStream({ mapsAsObjects: true })),
 * );
 * assert.deepEqual(values, [{ id: 0 }, { id: 1 }, { id: 2 }]);
 * ```
 */
export function respond(request: Request, value: unknown, init: RespondInit = NO_INIT): Response {
  const mediaType = chooseMediaType(request, init);
  const status = init.status ?? 200;
  if (
    init.headers === undefined && init.compress === undefined && init.arrayLength === undefined &&
    !NULL_BODY_STATUSES.has(status) && !isValueSource(value)
  ) {
    // the common case, without a `Headers` object: the runtimes take a plain object of the two
    // headers for less than a `Headers` they must make and copy.
    // Chosen by measurement: npm run bench:rpc:deno / :bun
    const plain = PLAIN_INITS[mediaType];
    let responseInit: ResponseInit = plain;
    if (status !== 200 || init.statusText !== undefined) {
      responseInit = { status, headers: plain.headers };
      if (init.statusText !== undefined) responseInit.statusText = init.statusText;
    }
    return new Response(valueBody(value, mediaType, init), responseInit);
  }
  const headers = new Headers(init.headers);
  addVary(headers, "Accept");
  const responseInit: ResponseInit = { status, headers };
  if (init.statusText !== undefined) responseInit.statusText = init.statusText;
  if (NULL_BODY_STATUSES.has(status)) {
    headers.delete("content-type");
    return new Response(null, responseInit);
  }
  if (init.arrayLength !== undefined) {
    headers.set("content-type", mediaType);
    const body = arrayBody(value, init.arrayLength, mediaType === JSON_TYPE, init);
    return reply(request, init, body, responseInit, headers);
  }
  if (isValueSource(value)) {
    const json = mediaType === JSON_TYPE;
    headers.set("content-type", json ? NDJSON_TYPE : mediaType);
    return reply(request, init, encodeStream(value, json, init), responseInit, headers);
  }
  headers.set("content-type", mediaType);
  return reply(request, init, valueBody(value, mediaType, init), responseInit, headers);
}

/** The body of one value: its JSON, or its MessagePack. */
function valueBody(
  value: unknown,
  mediaType: MessagePackMediaType | "application/json",
  init: RespondInit,
): Uint8Array<ArrayBuffer> | string {
  if (mediaType === JSON_TYPE) return stringifyJson(value, init.replacer);
  // the Response copies its body at once, so the packer need not make a copy of its own
  return packValue(value, init, true);
}

/** The response, compressed when `init.compress` asks for it and the client accepts a coding. */
function reply(
  request: Request,
  init: RespondInit,
  body: Uint8Array<ArrayBuffer> | string | ReadableStream<Uint8Array>,
  responseInit: ResponseInit,
  headers: Headers,
): Response {
  const compress = init.compress;
  if (compress === undefined || compress === false) return new Response(body, responseInit);
  return compressedResponse(request, compress, body, responseInit, headers);
}

/** The media type of the response: forced by `init`, chosen by the URL, or negotiated. */
function chooseMediaType(
  request: Request,
  init: RespondInit,
): MessagePackMediaType | "application/json" {
  const format = init.format;
  if (format !== undefined) return forcedType(format, "format");
  const param = init.formatParam;
  if (param !== undefined) {
    const url = request.url;
    // the URL is parsed only when the parameter's name occurs in it
    if (url.includes(param)) {
      const forced = new URL(url).searchParams.get(param);
      if (forced === "json" || forced === "msgpack") return forcedType(forced, param);
    }
  }
  return negotiate(request.headers.get("accept"));
}

function forcedType(format: string, name: string): MessagePackMediaType | "application/json" {
  if (format === "json") return JSON_TYPE;
  if (format === "msgpack") return "application/msgpack";
  throw new TypeError(`Cannot use ${name} ${JSON.stringify(format)}: expected "json" or "msgpack"`);
}
