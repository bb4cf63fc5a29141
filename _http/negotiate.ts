// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Content negotiation on the `Accept` header (RFC 9110, section 12.5.1): MessagePack or JSON.

import { JSON_TYPE, MESSAGEPACK_TYPES, type MessagePackMediaType } from "./media_type.ts";

/** A media range of an `Accept` header, lower case, with its weight. */
interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

/** `token` of RFC 9110: the characters of a type, subtype or parameter name. */
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/;
/** `qvalue` of RFC 9110: 0 to 1 with at most three decimals. */
export const QVALUE = /^(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * Parses an `Accept` header into its media ranges. A range that is not `type/subtype`,
 * `type/*` or `*\/*`, or whose `q` is not a valid qvalue, is skipped, as RFC 9110 has a
 * recipient do with an invalid element; parameters other than `q` are ignored.
 *
 * @param accept The header's value.
 * @returns The valid ranges, in order.
 */
export function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const element of splitOutsideQuotes(accept, ",")) {
    const [range, ...parameters] = splitOutsideQuotes(element, ";");
    const text = range.trim().toLowerCase();
    const slash = text.indexOf("/");
    if (slash <= 0) continue;
    const type = text.slice(0, slash);
    const subtype = text.slice(slash + 1);
    if (!TOKEN.test(type) || !TOKEN.test(subtype) || (type === "*" && subtype !== "*")) continue;
    let q = 1;
    let valid = true;
    for (const parameter of parameters) {
      const equals = parameter.indexOf("=");
      const name = (equals === -1 ? parameter : parameter.slice(0, equals)).trim().toLowerCase();
      if (name !== "q") continue;
      const value = equals === -1 ? "" : parameter.slice(equals + 1).trim();
      if (!QVALUE.test(value)) valid = false;
      else q = Number(value);
      break;
    }
    if (valid) ranges.push({ type, subtype, q });
  }
  return ranges;
}

/** Splits `text` at `separator` except inside a quoted string (with backslash escapes). */
function splitOutsideQuotes(text: string, separator: string): string[] {
  if (!text.includes('"')) return text.split(separator);
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === "\\") i++;
      else if (char === '"') quoted = false;
    } else if (char === '"') {
      quoted = true;
    } else if (char === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * The weight the ranges give a media type: that of the most specific range matching it
 * (`type/subtype` over `type/*` over `*\/*`; among equally specific ranges, the highest), and
 * `-1` when no range matches.
 */
function weightOf(ranges: readonly MediaRange[], type: string, subtype: string): {
  q: number;
  exact: boolean;
} {
  let best = -1;
  let specificity = 0;
  for (const range of ranges) {
    const rank = range.type === "*"
      ? 1
      : range.type !== type
      ? 0
      : range.subtype === "*"
      ? 2
      : range.subtype === subtype
      ? 3
      : 0;
    if (rank === 0 || rank < specificity) continue;
    if (rank > specificity || range.q > best) best = range.q;
    specificity = rank;
  }
  return { q: best, exact: specificity === 3 };
}

/** Results of recent negotiations by `Accept` value: clients send few distinct headers. */
const cache = new Map<string, MessagePackMediaType | "application/json">();
const CACHE_SIZE = 64;

/**
 * Chooses the response format for an `Accept` header: a MessagePack media type or
 * `"application/json"`, by the weights (`q`) of RFC 9110.
 *
 * - The three MessagePack names (`application/msgpack`, `application/vnd.msgpack`,
 *   `application/x-msgpack`) are one format: when the header names any of them, the highest
 *   weight among those named is MessagePack's weight; otherwise MessagePack takes the weight of
 *   `application/*` or, failing that, of `*\/*`.
 * - JSON's weight is that of the most specific range matching `application/json`
 *   (`application/json` over `application/*` over `*\/*`).
 * - `q=0` refuses. MessagePack is chosen when its weight is above zero and higher than JSON's,
 *   or equal to it and a MessagePack name is listed (so `*\/*` alone gets JSON). The reply uses
 *   the MessagePack name the client gave the highest weight (`application/msgpack` when it gave
 *   none).
 * - Anything else is JSON: no header, an empty one, or one that accepts neither format (no
 *   `406 Not Acceptable`: browsers and tools that send `text/html, *\/*;q=0.8` get JSON).
 *
 * A range that is not a valid media range, or whose `q` is not a valid qvalue (`0` to `1`, at
 * most three decimals), is ignored. Parameters other than `q` are ignored:
 * `application/json; charset=utf-8` counts as `application/json`.
 *
 * @param accept The request's `Accept` header (`request.headers.get("accept")`).
 * @returns The media type to respond with.
 *
 * @example Usage
 * ```ts
 * import { negotiate } from "@x/msgpackr/http";
 * import assert from "node:assert/strict";
 *
 * assert.equal(negotiate("application/msgpack, application/json;q=0.9"), "application/msgpack");
 * assert.equal(negotiate("application/x-msgpack"), "application/x-msgpack");
 * assert.equal(negotiate("application/json, application/msgpack"), "application/msgpack");
 * assert.equal(negotiate("application/json, application/msgpack;q=0.5"), "application/json");
 * assert.equal(negotiate("*\/*"), "application/json");
 * assert.equal(negotiate("application/json;q=0, *\/*"), "application/msgpack");
 * assert.equal(negotiate(null), "application/json");
 * ```
 */
export function negotiate(
  accept: string | null | undefined,
): MessagePackMediaType | "application/json" {
  if (!accept) return JSON_TYPE;
  let chosen = cache.get(accept);
  if (chosen !== undefined) return chosen;
  chosen = choose(parseAccept(accept));
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(accept, chosen);
  return chosen;
}

function choose(ranges: readonly MediaRange[]): MessagePackMediaType | "application/json" {
  let named: MessagePackMediaType | null = null;
  let msgpack = -1;
  for (const type of MESSAGEPACK_TYPES) {
    const weight = weightOf(ranges, "application", type.slice("application/".length));
    if (weight.exact && weight.q > msgpack) {
      msgpack = weight.q;
      named = type;
    }
  }
  if (named === null) msgpack = weightOf(ranges, "application", "msgpack").q;
  const json = weightOf(ranges, "application", "json").q;
  if (msgpack > 0 && (msgpack > json || (msgpack === json && named !== null))) {
    return named ?? "application/msgpack";
  }
  return JSON_TYPE;
}
