// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import type { StandardSchemaV1 } from "../_core/standard_schema.ts";

/**
 * Options of {@linkcode HttpError}: the `cause`, and for an error of {@linkcode fetchValue},
 * the decoded body and the response.
 *
 * @example Usage
 * ```ts
 * import { HttpError, type HttpErrorOptions } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * const options: HttpErrorOptions = { body: { error: "no such order" } };
 * assert.deepEqual(new HttpError(404, "Not Found", options).body, { error: "no such order" });
 * ```
 */
export interface HttpErrorOptions {
  /** The error that caused this one (a `DecodeError` or `SyntaxError` for a 400). */
  cause?: unknown;
  /** The decoded body of the response, for an error response. */
  body?: unknown;
  /** The response, when the error is about one. */
  response?: Response;
  /** The issues of a body that failed its schema (a 400 of `readBody`'s `schema` option). */
  issues?: ReadonlyArray<StandardSchemaV1.Issue>;
}

/**
 * An error with an HTTP status. {@linkcode readBody} throws it with the status a server answers
 * (`415` for a `Content-Type` it does not read, `413` for a body over `maxBytes`, `400` for a
 * malformed, truncated or empty body, or one using an extension the decoder refuses, with the
 * decoder's error as `cause`; `400` for a body that fails the `schema` option, with its
 * `issues`), so a handler can respond with `error.status`.
 * {@linkcode fetchValue} throws it for a response whose status is not 2xx, with that status, the
 * decoded `body` and the `response`.
 *
 * @example Answering a bad request
 * ```ts
 * import { HttpError, readBody, respond } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * async function handler(request: Request): Promise<Response> {
 *   try {
 *     const order = await readBody(request);
 *     return respond(request, { received: order });
 *   } catch (error) {
 *     if (!(error instanceof HttpError)) throw error;
 *     return respond(request, { error: error.message }, { status: error.status });
 *   }
 * }
 * const request = new Request("http://localhost/", {
 *   method: "POST",
 *   headers: { "content-type": "text/plain" },
 *   body: "hello",
 * });
 * const response = await handler(request);
 * assert.equal(response.status, 415);
 * ```
 */
export class HttpError extends Error {
  /** The HTTP status: the one to answer (from `readBody`), or the one received (`fetchValue`). */
  status: number;
  /** The decoded body of an error response (`fetchValue`); `undefined` otherwise. */
  body?: unknown;
  /** The response the error is about (`fetchValue`), its body already read. */
  response?: Response;
  /**
   * For a body that failed the `schema` option of `readBody` or `readBodyValues`: every issue
   * the schema found (the message names the first one's path and message).
   */
  issues?: ReadonlyArray<StandardSchemaV1.Issue>;

  /**
   * Creates an error with a status.
   *
   * @param status The HTTP status.
   * @param message What went wrong.
   * @param options The `cause`, `body`, `response` and `issues`.
   */
  constructor(status: number, message: string, options: HttpErrorOptions = {}) {
    super(message, "cause" in options ? { cause: options.cause } : undefined);
    this.name = "HttpError";
    this.status = status;
    if ("body" in options) this.body = options.body;
    if (options.response !== undefined) this.response = options.response;
    if (options.issues !== undefined) this.issues = options.issues;
  }
}
