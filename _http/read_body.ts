// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { DecodeError } from "../_core/errors.ts";
import type { StandardSchemaV1 } from "../_core/standard_schema.ts";
import { DISABLED_EXTENSION } from "../_decode/extension_policy.ts";
import type { UnpackrOptions } from "../_core/options.ts";
import { Unpackr } from "../_decode/unpackr.ts";
import {
  BUFFER_LIMIT_MESSAGE,
  DEFAULT_MAX_INCOMPLETE_BUFFER_SIZE,
  type UnpackrStreamOptions,
} from "../_stream/chunk_decoder.ts";
import { decodeIter } from "../_stream/iterators.ts";
import { decodedSource } from "./content_coding.ts";
import { HttpError } from "./http_error.ts";
import { decodeUtf8, jsonLines } from "./json.ts";
import { arrayElementsOf, JsonElements } from "./json_elements.ts";
import { type BodyKind, bodyKindOf } from "./media_type.ts";
import {
  boundedChunks,
  checkContentLength,
  checkMaxBytes,
  discardBody,
  readBytes,
  type ReadFailure,
} from "./read_bytes.ts";
import { validateBody, validatedBodyValues } from "./validate_body.ts";

/**
 * Default `maxBytes` of {@linkcode readBody}: 1 MiB (1,048,576 bytes).
 *
 * @example Usage
 * ```ts
 * import { DEFAULT_MAX_BODY_BYTES, readBody } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * assert.equal(DEFAULT_MAX_BODY_BYTES, 1024 * 1024);
 * const request = new Request("http://localhost/", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify("x".repeat(DEFAULT_MAX_BODY_BYTES)),
 * });
 * await assert.rejects(readBody(request), { status: 413 });
 * ```
 */
export const DEFAULT_MAX_BODY_BYTES = 1048576;

/**
 * Options of {@linkcode readBody}: the size bounds, `multiple`, and how MessagePack is decoded
 * (an `unpackr`, or the options of one: plain data only unless `plainDataOnly: false`).
 *
 * @example Usage
 * ```ts
 * import { readBody, type ReadBodyOptions } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * const options: ReadBodyOptions = { maxBytes: 64 * 1024, int64AsType: "number" };
 * const body = new Uint8Array([0xd3, 0, 0, 0, 0, 0, 0, 0, 7]); // int64 7
 * const request = new Request("http://localhost/", {
 *   method: "POST",
 *   headers: { "content-type": "application/msgpack" },
 *   body,
 * });
 * assert.equal(await readBody(request, options), 7);
 * ```
 */
export interface ReadBodyOptions<T = unknown> extends UnpackrOptions {
  /**
   * Validates the body with this Standard Schema (Zod, Valibot, ArkType, …), MessagePack and
   * JSON alike, and gives its output (transformed where the schema transforms), typed as the
   * schema's output; with `multiple`, each value. A body that fails is a 400
   * {@linkcode HttpError} whose message names the first issue's path and message
   * (`Invalid body at $.items[2].qty: Expected number, received string`; `Invalid body value
   * (index 3) at …` for a value of a sequence), with every issue in `issues` and the
   * `ValidationError` as `cause`. Async checks are awaited.
   */
  schema?: StandardSchemaV1<unknown, T>;
  /**
   * Most bytes read. A larger body is refused with a 413 {@linkcode HttpError}: up front when
   * its `Content-Length` says so, else as soon as the bytes read pass the bound (the body is
   * never held whole). A compressed request body (`Content-Encoding`) is bounded twice: the
   * bytes received and the decoded bytes. `Infinity` for no bound.
   * @default {1048576} (1 MiB, {@linkcode DEFAULT_MAX_BODY_BYTES})
   */
  maxBytes?: number;
  /**
   * Read every value of the body into an array: a MessagePack sequence (values one after
   * another, as a streamed {@linkcode respond} writes them), NDJSON lines, or the one value of a
   * JSON body. An empty MessagePack or NDJSON body is then an empty array.
   * @default {false}
   */
  multiple?: boolean;
  /**
   * With `multiple`: most bytes of one value (a MessagePack value, an NDJSON line, a JSON body),
   * decoded bytes for a compressed body; a larger one is refused with a 413
   * {@linkcode HttpError}. `maxBytes` bounds the whole body.
   * `Infinity` for no bound.
   * @default {1048576} (1 MiB, {@linkcode DEFAULT_MAX_BODY_BYTES})
   */
  maxValueBytes?: number;
  /**
   * Decodes MessagePack bodies (its options and extensions apply): a server that trusts its
   * peers passes `new Unpackr({ mapsAsObjects: true, int64AsType: "auto" })` (or sets
   * `plainDataOnly: false`) to accept references, `RegExp` and `Error` too. Without it, an
   * Unpackr with the other options is used, one per options object, over the defaults
   * `{ mapsAsObjects: true, int64AsType: "auto", plainDataOnly: true }` (maps as plain objects,
   * 64-bit integers as numbers when they are safe integers, plain data only).
   */
  unpackr?: Unpackr;
}

/**
 * Options of {@linkcode readBodyValues}: the size bounds, and the options of the stream decoder
 * (plain data only unless `plainDataOnly: false`, or an `unpackr` of your own).
 *
 * @example Usage
 * ```ts
 * import { readBodyValues, type ReadBodyValuesOptions } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * const options: ReadBodyValuesOptions = { maxBytes: 1 << 20, maxIncompleteBufferSize: 1 << 16 };
 * const response = new Response("1\n2\n", {
 *   headers: { "content-type": "application/x-ndjson" },
 * });
 * assert.deepEqual(await Array.fromAsync(readBodyValues(response, options)), [1, 2]);
 * ```
 */
export interface ReadBodyValuesOptions<T = unknown> extends UnpackrStreamOptions<T> {
  /**
   * Validates each value with this Standard Schema (Zod, Valibot, ArkType, …), MessagePack and
   * NDJSON alike, as it arrives, and yields its output, typed as the schema's output. The first
   * value that fails ends the values, after those before it, with a 400 {@linkcode HttpError}
   * naming its index and the first issue's path and message (`Invalid body value (index 3) at
   * $.id: …`), with every issue in `issues`. Async checks are awaited.
   */
  schema?: StandardSchemaV1<unknown, T>;
  /**
   * Most bytes read in all; past it the values stop with a 413 {@linkcode HttpError}. A
   * compressed request body (`Content-Encoding`) is bounded twice: the bytes received and the
   * decoded bytes. `Infinity` for no bound.
   * @default {Infinity}
   */
  maxBytes?: number;
  /**
   * Most bytes of one value (a MessagePack value, an NDJSON line, a JSON body; decoded bytes for
   * a compressed body), whatever the chunks it arrives in; past it the values stop with a 413 {@linkcode HttpError}. A smaller
   * `maxIncompleteBufferSize` (the stream decoder's bound on held bytes) bounds it further.
   * `Infinity` for no bound (but `maxIncompleteBufferSize`, 64 MiB by default).
   * @default {1048576} (1 MiB, {@linkcode DEFAULT_MAX_BODY_BYTES})
   */
  maxValueBytes?: number;
}

/** No options: the plain decoder (`unpackrOf` knows this object). */
export const NO_OPTIONS: ReadBodyOptions = {};
/** The options of `readBody` that are not decoding options. */
const OWN_OPTIONS = new Set(["maxBytes", "maxValueBytes", "multiple", "unpackr", "schema"]);
/**
 * Largest piece of a body handed to the stream decoder at once, so that the bound on one value of
 * {@linkcode readBodyValues} holds whatever the chunks (cutting a chunk into views copies nothing).
 */
const PIECE = 65536;
/**
 * How MessagePack bodies decode unless the caller says otherwise: as plain MessagePack from any
 * peer (Go, Python, msgpackr), maps as plain objects and 64-bit integers as numbers when they are
 * safe integers (bigints beyond); records, timestamps, big integers and bundled strings are read
 * too, but nothing that builds shared references or objects with behaviour (`plainDataOnly`).
 */
const PEER_DECODING: UnpackrOptions = {
  mapsAsObjects: true,
  int64AsType: "auto",
  plainDataOnly: true,
};
const plainUnpackr = new Unpackr({ useRecords: false, ...PEER_DECODING });
/** One Unpackr per options object that has decoding options. */
const unpackrs = new WeakMap<ReadBodyOptions, Unpackr>();

function unpackrOf(options: ReadBodyOptions): Unpackr {
  if (options === NO_OPTIONS) return plainUnpackr;
  if (options.unpackr !== undefined) return options.unpackr;
  let unpackr = unpackrs.get(options);
  if (unpackr !== undefined) return unpackr;
  const decoding: UnpackrOptions = {};
  let any = false;
  for (const key of Object.keys(options)) {
    if (OWN_OPTIONS.has(key)) continue;
    (decoding as Record<string, unknown>)[key] = (options as Record<string, unknown>)[key];
    any = true;
  }
  if (!any) return plainUnpackr;
  unpackr = new Unpackr({ useRecords: false, ...PEER_DECODING, ...decoding });
  unpackrs.set(options, unpackr);
  return unpackr;
}

/**
 * The kind of a body by its `Content-Type`; a 415 {@linkcode HttpError} (the body cancelled)
 * for any other type.
 */
function kindOf(source: Request | Response): BodyKind {
  const contentType = source.headers.get("content-type");
  const kind = bodyKindOf(contentType);
  if (kind === null) {
    discardBody(source);
    throw new HttpError(
      415,
      `${contentType === null ? "No Content-Type" : `Unsupported Content-Type ${contentType}`}: ` +
        "expected application/msgpack or application/json",
    );
  }
  return kind;
}

/**
 * A 400 for a body that cannot be decoded, or uses an extension the decoder refuses; the error
 * itself when it is not a decode error.
 */
function malformed(kind: BodyKind, error: unknown): unknown {
  if (error instanceof HttpError) return error;
  const name = kind === "msgpack" ? "MessagePack" : kind === "json" ? "JSON" : "NDJSON";
  const message = error instanceof Error ? error.message : String(error);
  const refused = error instanceof DecodeError && message.includes(DISABLED_EXTENSION);
  return new HttpError(400, `${refused ? "Refused" : "Malformed"} ${name} body: ${message}`, {
    cause: error,
  });
}

/**
 * Checks a `maxValueBytes` option.
 *
 * @param maxValueBytes The option's value.
 * @returns The value.
 */
function checkMaxValueBytes(maxValueBytes: number): number {
  if (typeof maxValueBytes !== "number" || !(maxValueBytes >= 0)) {
    throw new RangeError(
      `Cannot use maxValueBytes ${String(maxValueBytes)}: expected a number >= 0`,
    );
  }
  return maxValueBytes;
}

/**
 * The 413 for one value over the per-value bound.
 *
 * @param bound The bound, in bytes (UTF-16 units for JSON text).
 * @param option The option that set it.
 * @param where Where the value starts, when known (" at offset N", " on line N").
 * @returns The error.
 */
function valueTooLarge(bound: number, option: string, where = ""): HttpError {
  return new HttpError(413, `Body value${where} exceeds ${option} (${bound} bytes)`);
}

/**
 * Decodes a whole body of a known kind.
 *
 * @param kind The body's kind.
 * @param bytes The bytes.
 * @param options Decoding options and `multiple`.
 * @returns The value, or the values with `multiple`.
 */
export function decodeBody(kind: BodyKind, bytes: Uint8Array, options: ReadBodyOptions): unknown {
  const multiple = options.multiple === true;
  if (bytes.length === 0 && !(multiple && kind !== "json")) {
    throw new HttpError(400, "Empty body");
  }
  if (bytes.length === 0) return [];
  const maxValue = multiple
    ? checkMaxValueBytes(options.maxValueBytes ?? DEFAULT_MAX_BODY_BYTES)
    : Infinity;
  try {
    if (kind === "msgpack") {
      const unpackr = unpackrOf(options);
      if (!multiple) return unpackr.unpack(bytes);
      if (bytes.length <= maxValue) return unpackr.unpackMultiple(bytes);
      const values: unknown[] = [];
      unpackr.unpackMultiple(bytes, (value, start, end) => {
        if (end - start > maxValue) {
          throw valueTooLarge(maxValue, "maxValueBytes", ` at offset ${start}`);
        }
        values.push(value);
      });
      return values;
    }
    const text = decodeUtf8(bytes);
    if (kind === "ndjson" && multiple) {
      const long = longLine(text, maxValue);
      if (long !== 0) throw valueTooLarge(maxValue, "maxValueBytes", ` on line ${long}`);
      return [...jsonLines(text)];
    }
    // JSON, and NDJSON read as one value: one JSON text
    if (text.length > maxValue) throw valueTooLarge(maxValue, "maxValueBytes");
    const value = JSON.parse(text);
    return multiple ? [value] : value;
  } catch (error) {
    throw malformed(kind, error);
  }
}

/**
 * The number (from `firstLine`) of the first line of `text` longer than `bound` UTF-16 units,
 * or 0 when none is.
 */
function longLine(text: string, bound: number, firstLine = 1): number {
  if (text.length <= bound) return 0;
  let line = firstLine;
  for (let start = 0; start <= text.length; line++) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    if (end - start > bound) return line;
    start = end + 1;
  }
  return 0;
}

/**
 * Reads and decodes the body of a request (or a response) by its `Content-Type`:
 *
 * - MessagePack (`application/msgpack`, `application/vnd.msgpack`, `application/x-msgpack`):
 *   one value, decoded as plain MessagePack from any peer (Go, Python, msgpackr): maps as plain
 *   objects, 64-bit integers as numbers when they are safe integers and bigints beyond
 *   (`int64AsType: "auto"`), records, timestamps, big integers and bundled strings understood;
 *   or the values of a sequence with `multiple: true`.
 *   Plain data only: a body that uses structured clone references (shared references, cycles),
 *   `RegExp` or `Error` is refused with a 400 as soon as the decoder meets the extension, before
 *   it builds anything (see `plainDataOnly` in {@linkcode UnpackrOptions}). A server that talks
 *   to trusted peers accepts them with `plainDataOnly: false` or an `unpackr` of its own;
 * - JSON (`application/json` with any parameters, and any `+json` type such as
 *   `application/problem+json`): `JSON.parse` of the UTF-8 text (a `charset` parameter is
 *   ignored: JSON is UTF-8);
 * - NDJSON (`application/x-ndjson`, `application/ndjson`, `application/jsonl`): its lines' values
 *   with `multiple: true`; without it, the body must hold one JSON text.
 *
 * **Compressed bodies.** A request with `Content-Encoding: gzip` (or `x-gzip`), `deflate`
 * (zlib), or `br` and `zstd` where the runtime's `DecompressionStream` has them (`br` on Deno
 * and Bun, `zstd` on Bun) is decoded while it is read. `maxBytes` bounds both the bytes
 * received and the decoded bytes (and `maxValueBytes` the decoded bytes of a value), so a small
 * body that expands to gigabytes is refused with a 413 as soon as its decoded bytes pass the
 * bound, with the decompression cancelled and a few MiB at most decoded beyond it. One coding
 * at most: a body coded twice (`gzip, gzip`) or with another coding is a 415, and a corrupt or
 * truncated compressed body a 400. A response is read as it is (`fetch` decoded it).
 *
 * Failures are {@linkcode HttpError}s whose `status` a server can answer directly: **415** for
 * any other `Content-Type` (or none), or a `Content-Encoding` it does not decode; **413** when the
 * body exceeds `maxBytes` (1 MiB by default; checked against `Content-Length` up front, and
 * counted while reading, so an oversized body is never held whole), or with `multiple` when one
 * value exceeds `maxValueBytes` (1 MiB by default); **400** for an empty body (without
 * `multiple`), a malformed or truncated one, more than one value where one is expected, or an
 * extension the decoder refuses (the message names it and its offset), with the decoder's error
 * (`DecodeError`, `SyntaxError`, or a `TypeError` for ill-formed UTF-8) as `cause`. A body
 * already read throws the runtime's `TypeError`.
 *
 * **Validation.** With `schema` (any Standard Schema: Zod, Valibot, ArkType, …) the value is
 * validated, MessagePack and JSON alike, and the schema's output returned, typed as that output:
 * `readBody(request, { schema: Order })` is a `Promise` of the output of `Order`. A body that
 * fails is a **400** whose message names the first issue's path and message
 * (`Invalid body at $.user.age: Expected number, received string`), with every issue in
 * `issues`.
 *
 * @typeParam T The type of the value: not checked, or the output of `schema`.
 * @param source The request (or a response).
 * @param options `maxBytes`, `multiple`, `schema`, and the MessagePack decoder or its options.
 * @returns The decoded value.
 *
 * @example Usage
 * ```ts
 * import { readBody } from "@x/msgpackr/http";
 * import { pack } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const post = (contentType: string, body: BodyInit) =>
 *   new Request("http://localhost/orders", {
 *     method: "POST",
 *     headers: { "content-type": contentType },
 *     body,
 *   });
 *
 * assert.deepEqual(await readBody(post("application/msgpack", pack({ sku: "A-1" }))), {
 *   sku: "A-1",
 * });
 * assert.deepEqual(await readBody(post("application/json; charset=utf-8", '{"sku":"A-1"}')), {
 *   sku: "A-1",
 * });
 * await assert.rejects(readBody(post("text/plain", "sku=A-1")), { status: 415 });
 * await assert.rejects(readBody(post("application/json", '{"sku":')), { status: 400 });
 * ```
 *
 * @example Plain data by default; a trusted peer's references on request
 * ```ts
 * import { readBody, Unpackr } from "@x/msgpackr/http";
 * import { Packr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const part = { sku: "A-1" };
 * const body = new Packr({ structuredClone: true }).pack([part, part]); // a shared reference
 * const post = () =>
 *   new Request("http://localhost/orders", {
 *     method: "POST",
 *     headers: { "content-type": "application/msgpack" },
 *     body,
 *   });
 *
 * await assert.rejects(readBody(post()), {
 *   status: 400,
 *   message: /Structured clone reference extension is disabled \(plainDataOnly\) at offset 1/,
 * });
 * const [a, b] = await readBody<object[]>(post(), { plainDataOnly: false });
 * assert.equal(a, b);
 * const unpackr = new Unpackr({ mapsAsObjects: true }); // accepts everything msgpackr writes
 * assert.deepEqual(await readBody(post(), { unpackr }), [part, part]);
 * ```
 *
 * @example Validated bodies
 * ```ts
 * import { HttpError, readBody } from "@x/msgpackr/http";
 * import { pack } from "@x/msgpackr";
 * import { z } from "zod";
 * import assert from "node:assert/strict";
 *
 * const Order = z.object({ id: z.number(), items: z.array(z.object({ qty: z.number() })) });
 * const post = (body: unknown) =>
 *   new Request("http://localhost/orders", {
 *     method: "POST",
 *     headers: { "content-type": "application/msgpack" },
 *     body: pack(body),
 *   });
 *
 * const order = await readBody(post({ id: 1, items: [{ qty: 2 }] }), { schema: Order });
 * assert.equal(order.items[0].qty, 2); // typed as z.output<typeof Order>
 * await assert.rejects(
 *   readBody(post({ id: 1, items: [{ qty: 2 }, { qty: "3" }] }), { schema: Order }),
 *   (error) => {
 *     assert.ok(error instanceof HttpError);
 *     assert.equal(error.status, 400);
 *     assert.match(error.message, /^Invalid body at \$\.items\[1\]\.qty: /);
 *     assert.deepEqual(error.issues?.[0].path, ["items", 1, "qty"]);
 *     return true;
 *   },
 * );
 * ```
 *
 * @example A gzip request body, bounded by its decoded size
 * ```ts
 * import { readBody } from "@x/msgpackr/http";
 * import { pack } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const gzip = (bytes: Uint8Array) =>
 *   new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream("gzip")))
 *     .bytes();
 * const post = (body: Uint8Array) =>
 *   new Request("http://localhost/", {
 *     method: "POST",
 *     headers: { "content-type": "application/msgpack", "content-encoding": "gzip" },
 *     body: body as BodyInit,
 *   });
 *
 * assert.deepEqual(await readBody(post(await gzip(pack({ sku: "A-1" })))), { sku: "A-1" });
 * // 20 KB of gzip that expand to 20 MB: refused once 1 MiB is decoded
 * await assert.rejects(readBody(post(await gzip(new Uint8Array(20_000_000)))), { status: 413 });
 * ```
 */
export function readBody<T = unknown>(
  source: Request | Response,
  options?: ReadBodyOptions<T> & { multiple?: false | undefined },
): Promise<T>;
/**
 * Reads every value of a body: a MessagePack sequence, NDJSON lines, or the one value of a JSON
 * body; see the other overload for the types and the errors.
 *
 * @typeParam T The type of the values: not checked, or the output of `schema`.
 * @param source The request (or a response).
 * @param options `multiple: true`, `maxBytes`, `maxValueBytes`, `schema`, and the MessagePack
 * decoder or its options.
 * @returns The decoded values, in order.
 *
 * @example A sequence
 * ```ts
 * import { readBody } from "@x/msgpackr/http";
 * import { pack } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const request = new Request("http://localhost/", {
 *   method: "POST",
 *   headers: { "content-type": "application/msgpack" },
 *   body: new Blob([pack({ id: 1 }), pack({ id: 2 })]),
 * });
 * assert.deepEqual(await readBody(request, { multiple: true }), [{ id: 1 }, { id: 2 }]);
 * ```
 */
export function readBody<T = unknown>(
  source: Request | Response,
  options: ReadBodyOptions<T> & { multiple: true },
): Promise<T[]>;
/**
 * Reads a body with options whose `multiple` is not known statically: one value, or every value
 * when `options.multiple` is `true`; see the first overload.
 *
 * @typeParam T The type of the value(s): not checked, or the output of `schema`.
 * @param source The request (or a response).
 * @param options `maxBytes`, `multiple`, `schema`, and the MessagePack decoder or its options.
 * @returns The decoded value, or the values with `multiple: true`.
 */
export function readBody<T = unknown>(
  source: Request | Response,
  options?: ReadBodyOptions<T>,
): Promise<T | T[]>;
export async function readBody(
  source: Request | Response,
  options: ReadBodyOptions = NO_OPTIONS,
): Promise<unknown> {
  const kind = kindOf(source);
  const maxBytes = checkMaxBytes(options.maxBytes ?? DEFAULT_MAX_BODY_BYTES);
  // a request's content coding is decoded as it is read (a response's is fetch's to decode)
  const bytes = await readBytes(decodedSource(source, maxBytes), maxBytes);
  const value = decodeBody(kind, bytes, options);
  return options.schema === undefined
    ? value
    : validateBody(options.schema, value, options.multiple === true);
}

/**
 * Yields the values of a body as they arrive, by its `Content-Type`: each value of a
 * MessagePack sequence (decoded by a sequential stream decoder as {@linkcode readBody} decodes:
 * maps as plain objects, 64-bit integers as numbers when safe; a `PackrStream` with records
 * reads too), each line of NDJSON, or the one value of a JSON body.
 * An empty body yields nothing. Nothing is held but the value being received; stopping early
 * (`break`) cancels the body. A compressed request body is decoded while it is read, as
 * {@linkcode readBody} decodes it, the bounds applying to the decoded bytes.
 *
 * With `arrayElements: true`, the elements of a top-level array are yielded one by one as they
 * arrive, each bounded by `maxValueBytes`, never the array: of a MessagePack array (as
 * `UnpackrStream` does with the option: a value that is not an array is yielded as it is), of a
 * JSON array (each element parsed as soon as its text ends; a JSON body that is not an array is
 * yielded whole), and of each NDJSON line that holds an array.
 *
 * MessagePack is decoded as plain data, as {@linkcode readBody} decodes it: structured clone
 * references, `RegExp` and `Error` are refused (400) unless `plainDataOnly: false` or an
 * `unpackr` of your own says otherwise.
 *
 * Errors are the {@linkcode HttpError}s of {@linkcode readBody}, thrown after the values before
 * them: 415 for another `Content-Type`, 413 past `maxBytes` (no bound by default) or for one
 * value over `maxValueBytes` (1 MiB by default, however the body is chunked), 400 for malformed
 * or truncated data or a refused extension, with the decoder's error as `cause`. An error of the
 * connection itself is thrown as the runtime raised it.
 *
 * With `schema` (any Standard Schema) each value is validated as it arrives and its output
 * yielded, typed as the schema's output; the first that fails is a 400 naming its index and the
 * first issue (`Invalid body value (index 3) at $.id: …`), with every issue in `issues`.
 *
 * @typeParam T The type of the values: not checked, or the output of `schema`.
 * @param source The request or response.
 * @param options `maxBytes`, `maxValueBytes`, `schema` and the stream decoder's options.
 * @returns An async generator of the values.
 *
 * @example Usage
 * ```ts
 * import { readBodyValues, respond } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * async function* events() {
 *   yield { type: "start" };
 *   yield { type: "end" };
 * }
 * const request = new Request("http://localhost/", { headers: { accept: "application/msgpack" } });
 * const response = respond(request, events());
 * const types: string[] = [];
 * for await (const event of readBodyValues<{ type: string }>(response)) types.push(event.type);
 * assert.deepEqual(types, ["start", "end"]);
 * ```
 */
export async function* readBodyValues<T = unknown>(
  source: Request | Response,
  options: ReadBodyValuesOptions<T> = {},
): AsyncGenerator<T, void, undefined> {
  if (options.schema !== undefined) {
    const { schema, ...reading } = options;
    yield* validatedBodyValues<T>(readBodyValues(source, reading), schema);
    return;
  }
  const kind = kindOf(source);
  const { maxBytes = Infinity, maxValueBytes = DEFAULT_MAX_BODY_BYTES, ...decoding } = options;
  checkMaxBytes(maxBytes);
  checkMaxValueBytes(maxValueBytes);
  const maxHeld = checkMaxBytes(
    decoding.maxIncompleteBufferSize ?? DEFAULT_MAX_INCOMPLETE_BUFFER_SIZE,
  );
  // the bound on one value, and the option that sets it (named in the 413)
  const maxValue = Math.min(maxValueBytes, maxHeld);
  const bound = maxValueBytes <= maxHeld ? "maxValueBytes" : "maxIncompleteBufferSize";
  checkContentLength(source, maxBytes);
  const body = decodedSource(source, maxBytes).body;
  if (body === null) return;
  const failure: ReadFailure = {};
  // In pieces no larger than the bound, a value over it never ends in the piece it starts in, so
  // the stream decoder holds it, which it does up to `maxIncompleteBufferSize` bytes only: the
  // bound holds however the body is chunked.
  const piece = maxValue === Infinity ? Infinity : Math.max(1, Math.min(maxValue, PIECE));
  const chunks = boundedChunks(body, maxBytes, failure, piece);
  const fail = (error: unknown): unknown =>
    "error" in failure && failure.error === error ? error : malformed(kind, error);
  if (kind === "msgpack") {
    try {
      yield* decodeIter<T>(chunks, {
        ...PEER_DECODING,
        ...decoding,
        maxIncompleteBufferSize: maxValue,
      });
    } catch (error) {
      if (error instanceof DecodeError && error.message.startsWith(BUFFER_LIMIT_MESSAGE)) {
        const tooLarge = valueTooLarge(maxValue, bound, ` at offset ${error.offset}`);
        tooLarge.cause = error;
        throw tooLarge;
      }
      throw fail(error);
    }
    return;
  }
  const text = new TextDecoder("utf-8", { fatal: true });
  let pending = "";
  let line = 1;
  // `arrayElements`: a JSON array element by element, the arrays of NDJSON lines expanded
  const expand = decoding.arrayElements === true;
  const elements = expand && kind === "json"
    ? new JsonElements(maxValue, () => valueTooLarge(maxValue, bound))
    : null;
  const lines = (complete: string, first: number) =>
    (expand
      ? arrayElementsOf(jsonLines(complete, first))
      : jsonLines(complete, first)) as Generator<
        T
      >;
  try {
    for await (const chunk of chunks) {
      if (elements !== null) {
        yield* elements.push(text.decode(chunk, { stream: true })) as T[];
        continue;
      }
      pending += text.decode(chunk, { stream: true });
      if (kind === "ndjson") {
        const end = pending.lastIndexOf("\n");
        if (end !== -1) {
          const complete = pending.slice(0, end);
          pending = pending.slice(end + 1);
          // only the first line can be longer than a piece: it began in an earlier one
          const long = longLine(complete, maxValue, line);
          if (long !== 0) throw valueTooLarge(maxValue, bound, ` on line ${long}`);
          yield* lines(complete, line);
          line += countLines(complete);
        }
      }
      // a JSON text or NDJSON line longer than the bound (counted in UTF-16 units)
      if (pending.length > maxValue) throw valueTooLarge(maxValue, bound);
    }
    if (elements !== null) {
      yield* elements.end(text.decode()) as T[];
      return;
    }
    pending += text.decode();
    if (kind === "ndjson") {
      yield* lines(pending, line);
    } else if (pending.length > 0) {
      yield JSON.parse(pending) as T;
    }
  } catch (error) {
    throw fail(error);
  }
}

function countLines(text: string): number {
  let lines = 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
  return lines;
}
