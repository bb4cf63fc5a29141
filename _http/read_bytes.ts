// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Reading a body with a bound on its size, counted while reading: a body over the bound is
// cancelled before it is held whole.

import { HttpError } from "./http_error.ts";

/**
 * Checks a `maxBytes` option.
 *
 * @param maxBytes The option's value.
 * @returns The value.
 */
export function checkMaxBytes(maxBytes: number): number {
  if (typeof maxBytes !== "number" || !(maxBytes >= 0)) {
    throw new RangeError(`Cannot use maxBytes ${String(maxBytes)}: expected a number >= 0`);
  }
  return maxBytes;
}

/**
 * The 413 error for a body over `maxBytes`.
 *
 * @param maxBytes The bound.
 * @returns The error.
 */
export function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, `Body exceeds maxBytes (${maxBytes} bytes)`);
}

/**
 * Cancels a body that is not read (its stream is released; errors are ignored).
 *
 * @param source The request or response.
 */
export function discardBody(source: Request | Response): void {
  const body = source.body;
  if (body !== null && !body.locked) body.cancel().catch(() => {});
}

/**
 * Throws a 413 (and cancels the body) when the `Content-Length` header exceeds `maxBytes`.
 *
 * @param source The request or response.
 * @param maxBytes The bound.
 * @returns The declared length, or `-1` when there is no valid `Content-Length`.
 */
export function checkContentLength(source: Request | Response, maxBytes: number): number {
  const header = source.headers.get("content-length");
  if (header === null || !/^\s*\d+\s*$/.test(header)) return -1;
  const length = Number(header);
  if (length > maxBytes) {
    discardBody(source);
    throw tooLarge(maxBytes);
  }
  return length;
}

/** Whether the body's bytes are the ones the `Content-Length` counts (no content coding). */
function identityCoded(source: Request | Response): boolean {
  const coding = source.headers.get("content-encoding");
  return coding === null || coding.trim() === "" || coding.trim().toLowerCase() === "identity";
}

/**
 * Reads a whole body, throwing a 413 {@linkcode HttpError} as soon as it exceeds `maxBytes`.
 * With a `Content-Length` (and no content coding) the length is checked up front and the body
 * is read in one piece; otherwise the bytes are counted chunk by chunk and the stream is
 * cancelled at the first chunk past the bound.
 *
 * @param source The request or response.
 * @param maxBytes The bound (`Infinity` for none).
 * @returns The bytes (empty for no body).
 */
export async function readBytes(source: Request | Response, maxBytes: number): Promise<Uint8Array> {
  const declared = checkContentLength(source, maxBytes);
  if (maxBytes === Infinity || (declared >= 0 && identityCoded(source))) {
    // `body` is not asked for on this path (a missing body reads as no bytes): Deno hands a
    // request body that has arrived whole to `arrayBuffer()` as it is, but once `body` was asked
    // for, it reads the body through the stream it made for it.
    // Chosen by measurement: npm run bench:rpc:deno (readBody, MessagePack)
    const bytes = new Uint8Array(await source.arrayBuffer());
    if (bytes.length > maxBytes) throw tooLarge(maxBytes);
    return bytes;
  }
  const body = source.body;
  if (body === null) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of boundedChunks(body, maxBytes)) {
    chunks.push(chunk);
    total += chunk.length;
  }
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/** Where {@linkcode boundedChunks} reports an error of the stream itself (not a size error). */
export interface ReadFailure {
  /** The error the body's stream raised, if it raised one. */
  error?: unknown;
}

/**
 * The chunks of a body, throwing a 413 {@linkcode HttpError} at the first chunk that takes the
 * total past `maxBytes`. The stream is cancelled when the consumer stops early or the bound is
 * exceeded. An error of the stream itself is recorded in `failure` before it propagates, so a
 * caller can tell it from a decoding error.
 *
 * @param body The body.
 * @param maxBytes The bound (`Infinity` for none).
 * @param failure Receives an error of the stream.
 * @param maxPiece Longer chunks are yielded as consecutive views of at most this many bytes.
 * @returns An async generator of the chunks.
 */
export async function* boundedChunks(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  failure: ReadFailure = {},
  maxPiece = Infinity,
): AsyncGenerator<Uint8Array, void, undefined> {
  const reader = body.getReader();
  let total = 0;
  let done = false;
  try {
    for (;;) {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await reader.read();
      } catch (error) {
        failure.error = error;
        done = true;
        throw error;
      }
      if (step.done) break;
      total += step.value.length;
      if (total > maxBytes) throw tooLarge(maxBytes);
      const chunk = step.value;
      if (chunk.length <= maxPiece) {
        yield chunk;
        continue;
      }
      for (let start = 0; start < chunk.length; start += maxPiece) {
        yield chunk.subarray(start, start + maxPiece);
      }
    }
    done = true;
  } finally {
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
