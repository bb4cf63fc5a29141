// Copyright 2026 the @x/msgpackr authors. MIT license.
// Helpers of the HTTP tests: a server on 127.0.0.1 with the runtime's own API (`Deno.serve` under
// Deno, `Bun.serve` under Bun), the negotiation table and waiting helpers.

import { ACCEPT_MSGPACK } from "../http.ts";

/** A server listening on 127.0.0.1. */
export interface Server {
  /** Its base URL, ending with "/". */
  url: string;
  /** Stops it, closing open connections. */
  close(): Promise<void>;
}

interface BunServer {
  url: URL;
  stop(closeActiveConnections?: boolean): Promise<void> | void;
}

interface BunLike {
  serve(options: {
    hostname: string;
    port: number;
    fetch: (request: Request) => Response | Promise<Response>;
  }): BunServer;
}

/** Starts a server on 127.0.0.1, on a free port, with the runtime's own API. */
export function serve(handler: (request: Request) => Response | Promise<Response>): Server {
  const bun = (globalThis as { Bun?: BunLike }).Bun;
  if (bun !== undefined) {
    const server = bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handler });
    return { url: server.url.href, close: async () => await server.stop(true) };
  }
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  return { url: `http://127.0.0.1:${server.addr.port}/`, close: () => server.shutdown() };
}

/** Resolves after `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until `condition()` holds, checking every few milliseconds; `false` on timeout. */
export async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) return false;
    await delay(2);
  }
  return true;
}

const MSGPACK = "application/msgpack";
const JSON_ = "application/json";

/** `Accept` header → the media type `negotiate` must choose, and why (unit and end-to-end tests). */
export const NEGOTIATION_TABLE: readonly (readonly [string | null, string, string])[] = [
  // [Accept, expected, why]
  [null, JSON_, "no Accept header"],
  ["", JSON_, "an empty Accept header"],
  ["   ", JSON_, "a blank Accept header"],
  [ACCEPT_MSGPACK, MSGPACK, "what fetchValue sends"],
  ["application/msgpack", MSGPACK, "the standard name"],
  ["application/x-msgpack", "application/x-msgpack", "the x- name, answered in kind"],
  ["application/vnd.msgpack", "application/vnd.msgpack", "the vnd. name, answered in kind"],
  ["APPLICATION/MsgPack", MSGPACK, "media types are case-insensitive"],
  [" application/msgpack ;  q=1 ", MSGPACK, "whitespace around ranges and parameters"],
  ["application/json", JSON_, "JSON only"],
  ["application/json, application/msgpack", MSGPACK, "a tie goes to MessagePack when named"],
  ["application/msgpack, application/json", MSGPACK, "order does not matter in a tie"],
  ["application/json;q=1, application/msgpack;q=0.5", JSON_, "a higher q for JSON"],
  ["application/json;q=0.5, application/msgpack;q=0.501", MSGPACK, "three decimals count"],
  ["application/msgpack;q=0.8, application/json;q=0.8", MSGPACK, "an explicit tie"],
  ["application/msgpack;q=0", JSON_, "q=0 refuses MessagePack"],
  ["application/msgpack;q=0.000", JSON_, "q=0.000 refuses"],
  ["application/msgpack;q=0, */*", JSON_, "refused by name, even with a wildcard"],
  ["application/x-msgpack;q=0, */*", JSON_, "refusing one name refuses the format"],
  ["application/msgpack;q=0, application/x-msgpack;q=0.5", "application/x-msgpack", "best named"],
  ["application/x-msgpack;q=0.5, application/msgpack;q=0.7", MSGPACK, "the higher name"],
  ["application/vnd.msgpack, application/x-msgpack", "application/vnd.msgpack", "tie: preferred"],
  ["*/*", JSON_, "a wildcard alone gets JSON"],
  ["application/*", JSON_, "a type wildcard alone gets JSON"],
  ["*/*;q=0.5, application/json;q=0.4", MSGPACK, "a wildcard above JSON's exact q"],
  ["application/json;q=0, */*", MSGPACK, "JSON refused, anything accepted"],
  ["application/json;q=0.5, application/*", MSGPACK, "application/* above JSON"],
  ["application/*;q=0.5, */*", JSON_, "application/* is more specific than */*: tie at 0.5"],
  ["application/msgpack;q=0.5, */*", JSON_, "JSON 1 via */* beats a named 0.5"],
  ["application/msgpack;q=0.5, */*;q=0.5", MSGPACK, "a tie with a wildcard, named"],
  [
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
    JSON_,
    "a browser navigating",
  ],
  ["text/html", JSON_, "accepts neither: JSON, not 406"],
  ["application/json;q=0", JSON_, "refuses JSON, not MessagePack: still JSON (no 406)"],
  ["application/json;q=0, application/msgpack;q=0", JSON_, "refuses both"],
  ["application/msgpack;q=abc, application/json", JSON_, "a malformed q skips its range"],
  ["application/msgpack;q=1.5", JSON_, "q above 1 is malformed"],
  ["application/msgpack;q=0.1234", JSON_, "more than three decimals is malformed"],
  ["application/msgpack;q=", JSON_, "an empty q is malformed"],
  ["application/msgpack;q=-1", JSON_, "a negative q is malformed"],
  ["application/msgpack;Q=0.9, application/json;q=0.8", MSGPACK, "the q name is case-insensitive"],
  ["msgpack, application/msgpack;q=0.2, */*;q=0.1", MSGPACK, "a range without a slash is skipped"],
  ["*/msgpack, application/json;q=0.1", JSON_, "*/subtype is not a media range"],
  ['application/msgpack;x="a,b;q=0", application/json;q=0.5', MSGPACK, "quoted commas"],
  ["application/msgpack;charset=utf-8;q=0.9, application/json;q=0.8", MSGPACK, "parameters"],
  [",,application/msgpack,,", MSGPACK, "empty list elements"],
];
