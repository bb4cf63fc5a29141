// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Content codings (RFC 9110, section 8.4): request bodies decoded while they are read, with the
// bounds on a body applied to the decoded bytes, and bodies compressed for a peer that accepts
// them. The codings are the formats of the runtime's `DecompressionStream` and
// `CompressionStream`, found by trying their constructors: gzip and deflate everywhere, br where
// the runtime has "brotli" (Deno, Bun), zstd where it has "zstd" (Bun). HTTP's `deflate` is the
// zlib format, which is the streams' "deflate" (not "deflate-raw").

import { HttpError } from "./http_error.ts";
import { checkContentLength, discardBody, tooLarge } from "./read_bytes.ts";

/**
 * A content coding that {@linkcode readBody} decodes and `respond` and `fetchValue` can compress
 * with (`Content-Encoding`), where the runtime's Compression Streams have it: `gzip` and
 * `deflate` everywhere, `br` on Deno and Bun, `zstd` on Bun.
 *
 * @example Usage
 * ```ts
 * import { type ContentCoding, respond } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * const compress: ContentCoding = "gzip";
 * const request = new Request("http://localhost/", { headers: { "accept-encoding": "gzip" } });
 * const response = respond(request, { rows: "x".repeat(2000) }, { compress });
 * assert.equal(response.headers.get("content-encoding"), "gzip");
 * ```
 */
export type ContentCoding = "gzip" | "deflate" | "br" | "zstd";

/** The Compression Streams format of each coding (`x-gzip` is `gzip`: RFC 9110, 8.4.1.3). */
const FORMATS: Readonly<Record<string, string>> = {
  gzip: "gzip",
  "x-gzip": "gzip",
  deflate: "deflate",
  br: "brotli",
  zstd: "zstd",
};

/**
 * Most coded bytes handed to the decompressor at a time, by format. A runtime may hold all the
 * output of one write at once (Deno's `DecompressionStream` returns it as one chunk), so a slice
 * times the format's greatest expansion bounds what a body can take before the bound on decoded
 * bytes stops it: deflate expands at most 1032 times (258 bytes for 2 bits), so 4 KiB give at
 * most 4 MiB; a zstd RLE block gives 128 KiB for 4 bytes, so 256 bytes give at most 8 MiB; a
 * brotli meta-block gives up to 16 MiB for about ten bytes of header, so 8 bytes give at most
 * one meta-block.
 */
const SLICES: Readonly<Record<string, number>> = {
  gzip: 4096,
  deflate: 4096,
  zstd: 256,
  brotli: 8,
};

/** Whether the runtime's streams have each format, by format; filled on first use. */
const decodable = new Map<string, boolean>();
const encodable = new Map<string, boolean>();

function has(
  cache: Map<string, boolean>,
  format: string,
  Stream: typeof DecompressionStream | typeof CompressionStream,
): boolean {
  let known = cache.get(format);
  if (known === undefined) {
    try {
      new Stream(format as CompressionFormat);
      known = true;
    } catch {
      known = false;
    }
    cache.set(format, known);
  }
  return known;
}

/** The Compression Streams format of a coding the runtime decodes, or `undefined`. */
function decodableFormat(coding: string): string | undefined {
  const format = FORMATS[coding];
  return format !== undefined && has(decodable, format, DecompressionStream) ? format : undefined;
}

/**
 * The Compression Streams format of a coding the runtime can compress with, or `undefined`.
 *
 * @param coding A content coding, lower case.
 * @returns The format.
 */
export function encodableFormat(coding: string): string | undefined {
  const format = FORMATS[coding];
  return format !== undefined && has(encodable, format, CompressionStream) ? format : undefined;
}

/** The codings the runtime decodes, for the message of a 415. */
function decodableCodings(): string {
  return ["gzip", "deflate", "br", "zstd"].filter((coding) => decodableFormat(coding)).join(", ");
}

/**
 * The request whose body is read: a request with a `Content-Encoding` this runtime decodes
 * becomes a response over its decoded body (which `readBytes` and `boundedChunks` read like any
 * other); anything else is returned as it is. Responses are returned as they are: `fetch` has
 * decoded their bodies already.
 *
 * One coding at most: `identity` is no coding; a list of codings (`gzip, gzip`: a body compressed
 * twice, which no client sends and whose expansion multiplies) is refused with a 415, as is a
 * coding this runtime does not decode, after cancelling the body. The coded bytes are bounded by
 * `maxBytes` too: a `Content-Length` above it is a 413 up front, and the count of bytes received
 * is one while reading. The decoded bytes are the caller's to bound.
 *
 * @param source The request (or a response).
 * @param maxBytes The bound on the coded bytes.
 * @returns What to read the body from.
 */
export function decodedSource(source: Request | Response, maxBytes: number): Request | Response {
  if (!(source instanceof Request)) return source;
  const header = source.headers.get("content-encoding");
  if (header === null) return source;
  const codings = header.split(",").map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity");
  if (codings.length === 0) return source;
  const coding = codings[0];
  const format = codings.length === 1 ? decodableFormat(coding) : undefined;
  if (format === undefined) {
    discardBody(source);
    throw new HttpError(
      415,
      `Unsupported Content-Encoding ${codings.join(", ")}: expected ${
        codings.length > 1 ? "one coding of " : ""
      }${decodableCodings()} or identity`,
    );
  }
  checkContentLength(source, maxBytes);
  const body = source.body;
  if (body === null) return source;
  return new Response(decodeStream(body, format, coding, maxBytes));
}

/** No error yet. */
const NONE: unique symbol = Symbol("none");

/**
 * The decoded bytes of a coded body, read as they are asked for. The coded bytes go to the
 * decompressor in slices ({@linkcode SLICES}) and are counted: past `maxBytes` the stream errors
 * with a 413. An error of the body's own stream (or that 413) is the decoded stream's error as it
 * is; an error of the decompressor (a corrupt or truncated body) is a 400. Cancelling the decoded
 * stream cancels the decompressor and the body.
 */
function decodeStream(
  body: ReadableStream<Uint8Array>,
  format: string,
  coding: string,
  maxBytes: number,
): ReadableStream<Uint8Array> {
  // fetch's bodies are views of ArrayBuffers, as the streams' types want
  const reader = (body as ReadableStream<Uint8Array<ArrayBuffer>>).getReader();
  const slice = SLICES[format];
  let coded = 0;
  /** The error of the body's stream or of the bound on coded bytes. */
  let sourceError: unknown = NONE;
  const slices = new ReadableStream<Uint8Array<ArrayBuffer>>({
    async pull(controller): Promise<void> {
      let step: ReadableStreamReadResult<Uint8Array<ArrayBuffer>>;
      // a pull that enqueues nothing is not called again: read past empty chunks
      do {
        try {
          step = await reader.read();
        } catch (error) {
          sourceError = error;
          throw error;
        }
        if (step.done) return controller.close();
      } while (step.value.length === 0);
      const chunk = step.value;
      coded += chunk.length;
      if (coded > maxBytes) {
        sourceError = tooLarge(maxBytes);
        reader.cancel().catch(() => {});
        throw sourceError;
      }
      for (let at = 0; at < chunk.length; at += slice) {
        controller.enqueue(chunk.subarray(at, at + slice));
      }
    },
    cancel(reason): Promise<void> {
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
  const output = slices.pipeThrough(new DecompressionStream(format as CompressionFormat))
    .getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller): Promise<void> {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await output.read();
      } catch (error) {
        if (sourceError !== NONE) throw sourceError;
        // an empty body with a coding is an empty body
        if (coded === 0) return controller.close();
        const message = error instanceof Error ? error.message : String(error);
        throw new HttpError(400, `Malformed ${coding} body: ${message}`, { cause: error });
      }
      if (step.done) return controller.close();
      controller.enqueue(step.value);
    },
    cancel(reason): Promise<void> {
      return output.cancel(reason);
    },
  }, { highWaterMark: 0 });
}

/**
 * A body compressed with a coding: the stream through the runtime's `CompressionStream`.
 * Bytes and text are copied at once, so a caller may reuse its buffer.
 *
 * @param body The body: bytes, text or a stream of bytes.
 * @param format The Compression Streams format.
 * @returns The compressed bytes, as they are read.
 */
export function compressBody(
  body: Uint8Array | string | ReadableStream<Uint8Array>,
  format: string,
): ReadableStream<Uint8Array> {
  const stream = body instanceof ReadableStream
    ? body as ReadableStream<Uint8Array<ArrayBuffer>>
    : new Response(body as Uint8Array<ArrayBuffer> | string).body!;
  return stream.pipeThrough(new CompressionStream(format as CompressionFormat));
}

/**
 * A request body compressed with `coding` (the `compress` option of `fetchValue`): bytes and text
 * are compressed whole (so the request has a length), a stream as it is read.
 *
 * @param body The body.
 * @param coding The coding.
 * @returns The compressed body.
 */
export async function compressRequestBody(
  body: Uint8Array<ArrayBuffer> | string | ReadableStream<Uint8Array>,
  coding: ContentCoding,
): Promise<Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>> {
  const codings = ["gzip", "deflate", "br", "zstd"];
  const format = codings.includes(coding) ? encodableFormat(coding) : undefined;
  if (format === undefined) {
    throw new TypeError(
      `Cannot use compress ${JSON.stringify(coding)}: expected one of ${
        codings.filter((name) => encodableFormat(name)).join(", ")
      }`,
    );
  }
  const compressed = compressBody(body, format);
  if (body instanceof ReadableStream) return compressed;
  return new Uint8Array(await new Response(compressed).arrayBuffer());
}
