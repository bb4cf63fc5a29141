// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// How the framework entries answer a body they refuse: the `HttpError` of `readBody` as a
// negotiated reply with its status, `{ error: message }`, and for a body that failed its schema
// the issues with their paths as plain keys (a symbol key as its description), so that a
// MessagePack or JSON client reads them.

import type { HttpError } from "../_http/http_error.ts";
import { respond, type RespondInit } from "../_http/respond.ts";

/** The body of an error reply. */
export interface ErrorBody {
  /** The error's message. */
  error: string;
  /** The issues of a body that failed its schema. */
  issues?: { message: string; path: (string | number)[] }[];
}

/**
 * The body of the reply to `error`.
 *
 * @param error The error of `readBody`.
 * @returns `{ error, issues? }`.
 */
export function errorBody(error: HttpError): ErrorBody {
  const body: ErrorBody = { error: error.message };
  if (error.issues !== undefined) {
    body.issues = error.issues.map((issue) => ({
      message: issue.message,
      // a plain array (arktype's path is an array of its own class)
      path: Array.from(issue.path ?? [], (segment) => {
        const key = typeof segment === "object" && segment !== null ? segment.key : segment;
        return typeof key === "symbol" ? String(key.description) : key;
      }),
    }));
  }
  return body;
}

/**
 * Answers a refused body: `error.status` with {@linkcode errorBody}, as MessagePack or JSON by
 * the request's `Accept`.
 *
 * @param request The request.
 * @param error The error of `readBody`.
 * @param init The packer and format options of the reply.
 * @returns The response.
 */
export function errorReply(request: Request, error: HttpError, init: RespondInit = {}): Response {
  return respond(request, errorBody(error), { ...init, status: error.status });
}
