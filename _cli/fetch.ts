// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The `fetch` command: one HTTP request, the status line and content type on standard error, the
// body on standard output. A MessagePack body (or one of no or an unknown type) is printed as
// JSON value by value as its bytes arrive (`_cli/value_stream.ts`); a JSON, NDJSON or text body
// is copied through as it arrives. A request body from `-d` is JSON read with exact numbers and
// written by the tool's writer (`_cli/writer.ts`), or sent as it is with `--send-json`.

import { ACCEPT_MSGPACK } from "../_http/fetch_value.ts";
import { bodyKindOf } from "../_http/media_type.ts";
import { UsageError } from "./args.ts";
import { lowerFirst } from "./inspect.ts";
import type { CliIO } from "./io.ts";
import { JsonInputError, parseJsonSequence } from "./json.ts";
import { JsonValueStream, type ValueStreamSettings } from "./value_stream.ts";
import { TaggedWriter } from "./writer.ts";

/** What the `fetch` command sends. */
export interface FetchRequest {
  /** The URL as given. */
  url: string;
  /** `-X`, or `null`: GET, or POST with a body. */
  method: string | null;
  /** `-H` values ("Name: value"). */
  headers: readonly string[];
  /** `-d`: the JSON text to send (read from its file for `@FILE`), or `null`. */
  data: string | null;
  /** `--send-json`: send `data` as JSON rather than MessagePack. */
  sendJson: boolean;
  /** Deepest nesting the writer accepts. */
  maxDepth: number;
}

/** The `fetch` of the runtime, or the one a {@linkcode CliIO} brings. */
type Fetch = (request: Request) => Promise<Response>;

/** The URL of a command line: `http://` is added when no scheme is given, as curl does. */
export function requestUrl(text: string): URL {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(`Invalid URL ${JSON.stringify(text)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`fetch speaks http and https, not ${url.protocol.slice(0, -1)}`);
  }
  return url;
}

/** The body `-d` sends: MessagePack (or the JSON text) and its content type. */
function requestBody(
  data: string,
  sendJson: boolean,
  maxDepth: number,
): { body: Uint8Array | string; type: string } {
  try {
    const values = parseJsonSequence(data, true, maxDepth);
    if (values.length === 0) throw new JsonInputError("it holds no JSON value", 0);
    if (sendJson) return { body: data, type: "application/json" };
    const writer = new TaggedWriter({
      records: false,
      float32: 0,
      structures: null,
      sequential: false,
      bundleStrings: false,
      maxDepth,
    });
    return { body: writer.encodeAll(values), type: "application/msgpack" };
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new UsageError(`Cannot send -d: ${lowerFirst(error.message)}`);
  }
}

/** The request of a command line. */
export function buildRequest(request: FetchRequest): Request {
  const url = requestUrl(request.url);
  const headers = new Headers();
  for (const header of request.headers) {
    const colon = header.indexOf(":");
    headers.append(header.slice(0, colon).trim(), header.slice(colon + 1).trim());
  }
  if (!headers.has("accept")) headers.set("accept", ACCEPT_MSGPACK);
  let body: Uint8Array | string | null = null;
  if (request.data !== null) {
    const made = requestBody(request.data, request.sendJson, request.maxDepth);
    body = made.body;
    if (!headers.has("content-type")) headers.set("content-type", made.type);
  }
  const method = request.method ?? (body === null ? "GET" : "POST");
  try {
    return new Request(url, { method, headers, body: body as BodyInit | null });
  } catch (error) {
    throw new UsageError(lowerFirst((error as Error).message));
  }
}

/** Why a request failed, with the cause Node and Bun keep apart ("fetch failed"). */
function failure(url: string, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error
    ? ` (${error.cause.message})`
    : "";
  return new Error(`Cannot fetch ${url}: ${lowerFirst(message)}${cause}`);
}

/** Whether a content type is printed as it is: JSON, NDJSON, any text. */
function isText(contentType: string | null): boolean {
  return bodyKindOf(contentType) !== null && bodyKindOf(contentType) !== "msgpack" ||
    (contentType !== null && /^\s*text\//i.test(contentType));
}

/**
 * Sends the request, prints the status line and the content type on standard error and the body
 * on standard output; returns the exit status: 0 for a 2xx status, 1 for any other (after the
 * body) or a body that is not MessagePack.
 */
export async function runFetch(
  request: Request,
  io: CliIO,
  decoding: ValueStreamSettings,
): Promise<number> {
  const fetcher: Fetch = io.fetch ?? ((request) => fetch(request));
  let response: Response;
  try {
    response = await fetcher(request);
  } catch (error) {
    throw failure(request.url, error);
  }
  const contentType = response.headers.get("content-type");
  const status = `HTTP ${response.status}${response.statusText ? " " + response.statusText : ""}`;
  await io.write("stderr", `${status}\ncontent-type: ${contentType ?? "(none)"}\n`);
  const code = response.ok ? 0 : 1;
  if (response.body === null) return code;
  const reader = response.body.getReader();
  try {
    if (isText(contentType)) {
      let last = 0x0a;
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        if (read.value.length === 0) continue;
        last = read.value[read.value.length - 1];
        await io.write("stdout", read.value);
      }
      if (last !== 0x0a) await io.write("stdout", "\n");
      return code;
    }
    const values = new JsonValueStream(decoding);
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      const { json, error } = values.push(read.value);
      if (json !== "") await io.write("stdout", json);
      if (error !== null) throw error;
    }
    values.finish();
    return code;
  } catch (error) {
    reader.cancel().catch(() => {});
    if (error instanceof TypeError) throw failure(request.url, error);
    throw error;
  }
}
