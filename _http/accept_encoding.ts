// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The content coding of a reply, negotiated on the request's `Accept-Encoding` (RFC 9110,
// section 12.5.3), and the reply compressed with it: the `compress` option of `respond`.
//
// Never compressed twice: a reply that has a `Content-Encoding` already is left alone, and the
// runtimes that compress by themselves skip a response that has one (Deno.serve with
// `automaticCompression`, Hono's `compress` middleware); Bun.serve and Node do not compress.

import { compressBody, type ContentCoding, encodableFormat } from "./content_coding.ts";
import { QVALUE, TOKEN } from "./negotiate.ts";
import { addVary } from "./vary.ts";

/**
 * The codings `compress: true` offers, in the server's order of preference. `br` is offered only
 * when named: `CompressionStream` has no quality setting, and its brotli runs at the slowest one,
 * too slow for replies made per request.
 */
const DEFAULT_CODINGS: readonly ContentCoding[] = ["gzip", "deflate"];

/** The codings a `compress` option may name. */
const KNOWN_CODINGS: readonly string[] = ["gzip", "deflate", "br", "zstd"];

/**
 * Smallest single value compressed, in bytes (UTF-16 units for JSON text): below it a coding's
 * header and trailer take most of what it saves. Streams are compressed whatever their size.
 */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * The `compress` option of `respond`: `true` offers gzip and deflate, a coding or a list of
 * codings offers those (in the server's order of preference), `false` compresses nothing.
 *
 * @example Usage
 * ```ts
 * import { type CompressOption, respond } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * const compress: CompressOption = ["gzip", "deflate"];
 * const request = new Request("http://localhost/", {
 *   headers: { "accept-encoding": "deflate, gzip;q=0.5" },
 * });
 * const response = respond(request, "x".repeat(2000), { compress });
 * assert.equal(response.headers.get("content-encoding"), "deflate");
 * assert.equal(response.headers.get("vary"), "Accept, Accept-Encoding");
 * ```
 */
export type CompressOption = boolean | ContentCoding | readonly ContentCoding[];

/**
 * The coding to reply with: among `offered` (in the server's order of preference), the one the
 * `Accept-Encoding` header weighs highest, if its weight is above 0 and not below the weight
 * the header gives identity (by name, or by `*`): `gzip;q=0.5` compresses, and
 * `gzip;q=0.5, identity` does not. `x-gzip` counts as `gzip`, `*` weighs every coding not named.
 * No header, or no acceptable coding: `null` (the body goes as it is; no 406, as identity stays
 * acceptable unless `identity;q=0`). Elements that are not a token with a valid `q` are
 * skipped.
 *
 * @param accept The request's `Accept-Encoding`.
 * @param offered The codings the server can send.
 * @returns The coding, or `null` for none.
 */
export function chooseCoding(
  accept: string | null,
  offered: readonly ContentCoding[],
): ContentCoding | null {
  if (accept === null) return null;
  const weights = new Map<string, number>();
  for (const element of accept.split(",")) {
    const [name, ...parameters] = element.split(";");
    let coding = name.trim().toLowerCase();
    if (!TOKEN.test(coding)) continue;
    if (coding === "x-gzip") coding = "gzip";
    let q = 1;
    let valid = true;
    for (const parameter of parameters) {
      const equals = parameter.indexOf("=");
      if (equals === -1 || parameter.slice(0, equals).trim().toLowerCase() !== "q") continue;
      const value = parameter.slice(equals + 1).trim();
      if (QVALUE.test(value)) q = Number(value);
      else valid = false;
      break;
    }
    if (valid && !weights.has(coding)) weights.set(coding, q);
  }
  const any = weights.get("*");
  let chosen: ContentCoding | null = null;
  let best = 0;
  for (const coding of offered) {
    const q = weights.get(coding) ?? any ?? 0;
    if (q > best) {
      chosen = coding;
      best = q;
    }
  }
  if (chosen === null) return null;
  return best >= (weights.get("identity") ?? any ?? 0) ? chosen : null;
}

/** The codings of a `compress` option that this runtime can compress with. */
function offeredCodings(compress: CompressOption): readonly ContentCoding[] {
  if (compress === true) return DEFAULT_CODINGS.filter((coding) => encodableFormat(coding));
  const named: readonly unknown[] = typeof compress === "string" ? [compress] : compress as [];
  if (!Array.isArray(named) && typeof compress !== "string") {
    throw new TypeError(
      `Cannot use compress ${String(compress)}: expected a boolean, a coding or a list of them`,
    );
  }
  for (const coding of named) {
    if (!KNOWN_CODINGS.includes(coding as string)) {
      throw new TypeError(
        `Cannot use compress ${JSON.stringify(coding)}: expected ${KNOWN_CODINGS.join(", ")}`,
      );
    }
  }
  return (named as ContentCoding[]).filter((coding) => encodableFormat(coding));
}

/**
 * The reply with `compress` on: `Vary: Accept-Encoding` always (the body depends on it), and the
 * body compressed with the negotiated coding (`Content-Encoding`, no `Content-Length`, a strong
 * `ETag` made weak), unless no coding is acceptable, the reply has a `Content-Encoding` already,
 * or a single value is under {@linkcode COMPRESS_MIN_BYTES}. Codings the runtime cannot compress
 * with are not offered.
 *
 * @param request The request (its `Accept-Encoding`).
 * @param compress The option: `true` (gzip or deflate), a coding, or codings in order of
 * preference.
 * @param body The body: packed bytes (copied at once), JSON text, or a stream.
 * @param init The response's status and headers.
 * @param headers The headers of `init`, changed in place.
 * @returns The response.
 */
export function compressedResponse(
  request: Request,
  compress: CompressOption,
  body: Uint8Array<ArrayBuffer> | string | ReadableStream<Uint8Array>,
  init: ResponseInit,
  headers: Headers,
): Response {
  addVary(headers, "Accept-Encoding");
  const coding = headers.has("content-encoding")
    ? null
    : chooseCoding(request.headers.get("accept-encoding"), offeredCodings(compress));
  if (coding === null || (!(body instanceof ReadableStream) && body.length < COMPRESS_MIN_BYTES)) {
    return new Response(body, init);
  }
  headers.set("content-encoding", coding);
  headers.delete("content-length");
  const etag = headers.get("etag");
  if (etag !== null && !etag.startsWith("W/")) headers.set("etag", `W/${etag}`);
  return new Response(compressBody(body, encodableFormat(coding)!), init);
}
