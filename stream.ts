// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

/**
 * Web Streams and async iteration: `PackrStream` and `UnpackrStream` (TransformStreams),
 * `encodeIter` and `decodeIter`, for Deno, Bun, Node and browsers. A stream writes each record
 * shape once and refers to it afterwards; the decoder takes any chunking, decodes a value that
 * spans many chunks in linear time, and bounds what it holds (`maxIncompleteBufferSize`).
 *
 * @example A server streams records, a client decodes them as they arrive
 * ```ts
 * import { PackrStream, UnpackrStream } from "@x/msgpackr/stream";
 * import assert from "node:assert/strict";
 *
 * async function* rows() {
 *   for (let id = 0; id < 1000; id++) yield { id, name: `row ${id}` };
 * }
 * // server side: a Response body (Deno.serve, Bun.serve, a service worker…)
 * const response = new Response(ReadableStream.from(rows()).pipeThrough(new PackrStream()), {
 *   headers: { "content-type": "application/msgpack" },
 * });
 * // client side: `(await fetch(url)).body`
 * let next = 0;
 * for await (const row of response.body!.pipeThrough(new UnpackrStream())) {
 *   assert.deepEqual(row, { id: next, name: `row ${next}` });
 *   next++;
 * }
 * assert.equal(next, 1000);
 * ```
 *
 * @module
 */

import "./_records/compiler.ts";
import "./_encode/writer_compiler.ts";

export * from "./_stream/exports.ts";
