// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The media types this module speaks, and the classification of a `Content-Type` header.

/**
 * A MessagePack media type: `application/msgpack` (the name this module sends unless a client
 * names another), `application/vnd.msgpack` or `application/x-msgpack`.
 *
 * @example Usage
 * ```ts
 * import { type MessagePackMediaType, negotiate } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * const type: MessagePackMediaType = "application/x-msgpack";
 * assert.equal(negotiate(type), type);
 * ```
 */
export type MessagePackMediaType =
  | "application/msgpack"
  | "application/vnd.msgpack"
  | "application/x-msgpack";

/** The MessagePack media types, lower case, the preferred one first. */
export const MESSAGEPACK_TYPES: readonly MessagePackMediaType[] = [
  "application/msgpack",
  "application/vnd.msgpack",
  "application/x-msgpack",
];

/** `Content-Type` of a JSON response. */
export const JSON_TYPE = "application/json";

/** `Content-Type` of a streamed JSON response: one JSON text per line. */
export const NDJSON_TYPE = "application/x-ndjson";

/** What a body is, by its `Content-Type`. */
export type BodyKind = "msgpack" | "json" | "ndjson";

/**
 * Classifies a `Content-Type` by its essence (type/subtype, case-insensitive; parameters such
 * as `charset` are ignored): one of the MessagePack types; `application/json` or any `+json`
 * type; NDJSON (`application/x-ndjson`, `application/ndjson`, `application/jsonl`). Anything
 * else, or no header, is `null`.
 *
 * @param contentType The header's value.
 * @returns The kind of body, or `null`.
 */
export function bodyKindOf(contentType: string | null): BodyKind | null {
  if (contentType === null) return null;
  const semicolon = contentType.indexOf(";");
  const essence = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim()
    .toLowerCase();
  switch (essence) {
    case "application/msgpack":
    case "application/vnd.msgpack":
    case "application/x-msgpack":
      return "msgpack";
    case "application/json":
      return "json";
    case "application/x-ndjson":
    case "application/ndjson":
    case "application/jsonl":
      return "ndjson";
  }
  const slash = essence.indexOf("/");
  if (slash > 0 && essence.endsWith("+json") && essence.length > slash + 6) return "json";
  return null;
}
