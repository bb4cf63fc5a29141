// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * An RPC service over HTTP on 127.0.0.1, as a server pays for it: a server process (`Deno.serve`
 * or `Bun.serve`) and a load client of `--connections` concurrent loops (default 32) in a process
 * of its own, on the runtime running this script. Two payloads (bench/_payloads.ts): the ~5 KB
 * service response (an order with 20 line items) and a ~100 KB batch of 1,000 log events; each is
 * sent both ways, as a response to a GET and as the body of a POST (answered with a 204).
 *
 * Rows of the response direction (GET):
 *
 * - JSON by hand: `new Response(JSON.stringify(value), { headers: { "content-type": … } })`,
 *   read with `res.json()`: what a service and its client write without this library.
 * - respond, JSON: `respond(request, value)` to `fetchValue(url, { format: "json" })`.
 * - respond, MessagePack: `respond(request, value)` to `fetchValue(url)` (plain maps).
 * - MessagePack by hand: `new Response(pack(value), …)`, read with
 *   `unpack(new Uint8Array(await res.arrayBuffer()))`.
 * - respond, records: `respond` with a records Packr (`init.packr`) to `fetchValue`.
 * - constant …: the same bytes made once (the JSON text as a string, the MessagePack bytes as a
 *   Uint8Array, an ArrayBuffer, a Blob or a one-chunk ReadableStream made per request; and the
 *   JSON text's UTF-8 bytes as a Uint8Array, to compare the kinds at one size), the
 *   client reading `arrayBuffer()`: the HTTP floor of a body of that kind, which no codec can go
 *   below. A row's "codec" column is its server CPU minus the floor of the body kind it sends.
 *   The "negotiated" constants also do what `respond` does besides encoding: read the request's
 *   `Accept` and send `Vary: Accept` beside the `Content-Type`.
 *
 * Rows of the request direction (POST, the server answering `new Response(null, { status: 204 })`):
 *
 * - request.json(): the client POSTs `JSON.stringify(value)`, the server reads `request.json()`.
 * - readBody, JSON / readBody, MessagePack: `fetchValue(url, { body: value })` (with
 *   `format: "json"` for JSON) to `readBody(request)`.
 * - unpack by hand: the client POSTs `pack(value)`, the server reads
 *   `unpack(new Uint8Array(await request.arrayBuffer()))`.
 * - arrayBuffer() only: the client POSTs `pack(value)`, the server reads the bytes and decodes
 *   nothing (the floor of a MessagePack request body); text() only, the same for the JSON text.
 *
 * For each row: requests per second, the server's CPU time per request (`process.cpuUsage()` of
 * the server process over the measured stretch, user + system) and the client's, and each as a
 * ratio to the direction's JSON row (JSON by hand; request.json()): "CPU / JSON" below 1.00 is
 * cheaper than JSON. The rows take turns, round after round (`--rounds`), each load after a
 * warm-up of its own; every figure is the median over the rounds, and a ratio is the median of
 * the rounds' ratios (each round's row against the same round's JSON row), so a slow spell of the
 * host moves a round, not the ratio.
 *
 *   npm run bench:rpc:deno   (deno run -A bench/rpc.ts)
 *   npm run bench:rpc:bun    (bun bench/rpc.ts)
 *   options: --seconds=<n> per load (default 3), --rounds=<n> (default 3), --connections=<n>,
 *   --warm=<seconds> (default 1), --payload=order,logs (default both),
 *   --rows=<substring>,… (rows whose name contains one of them; the JSON rows always run),
 *   --direction=response|request (default both)
 *
 * The client shares the machine with the server, so requests per second say how fast the pair is;
 * the server's CPU time per request is the cost a service pays.
 */

import { spawn } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { fetchValue, Packr, readBody, respond } from "../http.ts";
import { pack, unpack } from "../mod.ts";
import { payloads } from "./_payloads.ts";
import { ARGS, option, RUNTIME } from "./_runtime.ts";

const SECONDS = Number(option("seconds") ?? 3);
const ROUNDS = Number(option("rounds") ?? 3);
const CONNECTIONS = Number(option("connections") ?? 32);
const WARM_SECONDS = Number(option("warm") ?? 1);

const isDeno = typeof (globalThis as { Deno?: unknown }).Deno !== "undefined";
const SCRIPT = fileURLToPath(import.meta.url);

/** The payloads by key: the ~5 KB order and the ~100 KB batch of log events. */
const PAYLOADS: Record<string, { title: string; value: unknown }> = {
  order: { title: "the ~5 KB service response", value: payloadNamed("service response") },
  logs: { title: "a ~100 KB batch of 1,000 log events", value: payloadNamed("1,000 log events") },
};

function payloadNamed(prefix: string): unknown {
  return payloads().find((payload) => payload.name.startsWith(prefix))!.value;
}

type Direction = "response" | "request";

/** What the load client does per request. */
type ClientKind =
  | "json" // GET, res.json()
  | "fetch-json" // fetchValue(url, { format: "json" })
  | "fetch" // fetchValue(url)
  | "unpack" // GET, unpack(new Uint8Array(await res.arrayBuffer()))
  | "drain" // GET, await res.arrayBuffer()
  | "post-json" // POST JSON.stringify(value), drain the answer
  | "post-pack" // POST pack(value), drain the answer
  | "post-fetch" // fetchValue(url, { body: value })
  | "post-fetch-json"; // fetchValue(url, { body: value, format: "json" })

interface Row {
  name: string;
  direction: Direction;
  /** The server's route (the payload key is appended). */
  route: string;
  client: ClientKind;
  /** The constant row whose server CPU is the floor of this row's body kind. */
  floor?: string;
}

const FLOOR_STRING = "constant string";
const FLOOR_BYTES = "constant Uint8Array";
const FLOOR_POST_BYTES = "arrayBuffer() only";
const FLOOR_POST_TEXT = "text() only";

/** A row of the table: its name, direction, route, client and floor. */
function row(
  name: string,
  direction: Direction,
  route: string,
  client: ClientKind,
  floor?: string,
): Row {
  return floor === undefined
    ? { name, direction, route, client }
    : { name, direction, route, client, floor };
}

const ROWS: readonly Row[] = [
  row("JSON by hand", "response", "raw-json", "json", FLOOR_STRING),
  row("respond, JSON", "response", "respond", "fetch-json", FLOOR_STRING),
  row("respond, MessagePack", "response", "respond", "fetch", FLOOR_BYTES),
  row("MessagePack by hand", "response", "raw-pack", "unpack", FLOOR_BYTES),
  row("respond, records", "response", "records", "fetch", FLOOR_BYTES),
  row(FLOOR_STRING, "response", "const-string", "drain"),
  row(FLOOR_BYTES, "response", "const-bytes", "drain"),
  row("constant string, negotiated", "response", "const-string-vary", "drain"),
  row("constant Uint8Array, negotiated", "response", "const-bytes-vary", "drain"),
  row("constant Uint8Array of the JSON", "response", "const-text-bytes", "drain"),
  row("constant ArrayBuffer", "response", "const-buffer", "drain"),
  row("constant Blob", "response", "const-blob", "drain"),
  row("constant ReadableStream", "response", "const-stream", "drain"),
  row("request.json()", "request", "post-json", "post-json", FLOOR_POST_TEXT),
  row("readBody, JSON", "request", "post-read", "post-fetch-json", FLOOR_POST_TEXT),
  row("readBody, MessagePack", "request", "post-read", "post-fetch", FLOOR_POST_BYTES),
  row("unpack by hand", "request", "post-unpack", "post-pack", FLOOR_POST_BYTES),
  row(FLOOR_POST_TEXT, "request", "post-text", "post-json"),
  row(FLOOR_POST_BYTES, "request", "post-bytes", "post-pack"),
];

/** The row each direction's ratios are taken against. */
const BASELINE: Record<Direction, string> = { response: "JSON by hand", request: "request.json()" };

// ---- the server (`--serve`) --------------------------------------------------------------------

function runServer(): void {
  const records = new Packr();
  const JSON_HEADERS = { "content-type": "application/json" };
  const MSGPACK_HEADERS = { "content-type": "application/msgpack" };
  const JSON_VARY = { "content-type": "application/json", vary: "Accept" };
  const MSGPACK_VARY = { "content-type": "application/msgpack", vary: "Accept" };
  const constants = new Map<
    string,
    { text: string; textBytes: Uint8Array<ArrayBuffer>; bytes: Uint8Array<ArrayBuffer>; blob: Blob }
  >();
  for (const [key, { value }] of Object.entries(PAYLOADS)) {
    const bytes = pack(value);
    constants.set(key, {
      text: JSON.stringify(value),
      textBytes: new TextEncoder().encode(JSON.stringify(value)),
      bytes,
      blob: new Blob([bytes], { type: "application/msgpack" }),
    });
  }
  const noContent = () => new Response(null, { status: 204 });
  const handler = async (request: Request): Promise<Response> => {
    const url = request.url;
    const slash = url.lastIndexOf("/");
    const dash = url.lastIndexOf("-");
    const route = url.slice(slash + 1, dash);
    const key = url.slice(dash + 1);
    if (route === "cpu") {
      const { user, system } = process.cpuUsage();
      return Response.json({ micros: user + system });
    }
    const value = PAYLOADS[key]?.value;
    const constant = constants.get(key)!;
    switch (route) {
      case "raw-json":
        return new Response(JSON.stringify(value), { headers: JSON_HEADERS });
      case "respond":
        return respond(request, value);
      case "raw-pack":
        return new Response(pack(value), { headers: MSGPACK_HEADERS });
      case "records":
        return respond(request, value, { packr: records });
      case "const-string":
        return new Response(constant.text, { headers: JSON_HEADERS });
      case "const-bytes":
        return new Response(constant.bytes, { headers: MSGPACK_HEADERS });
      case "const-string-vary":
        request.headers.get("accept");
        return new Response(constant.text, { headers: JSON_VARY });
      case "const-bytes-vary":
        request.headers.get("accept");
        return new Response(constant.bytes, { headers: MSGPACK_VARY });
      case "const-text-bytes":
        return new Response(constant.textBytes, { headers: JSON_HEADERS });
      case "const-buffer":
        return new Response(constant.bytes.buffer, { headers: MSGPACK_HEADERS });
      case "const-blob":
        return new Response(constant.blob, { headers: MSGPACK_HEADERS });
      case "const-stream": {
        const bytes = constant.bytes;
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(bytes);
            controller.close();
          },
        });
        return new Response(body, { headers: MSGPACK_HEADERS });
      }
      case "post-json":
        await request.json();
        return noContent();
      case "post-read":
        await readBody(request);
        return noContent();
      case "post-unpack":
        unpack(new Uint8Array(await request.arrayBuffer()));
        return noContent();
      case "post-text":
        await request.text();
        return noContent();
      case "post-bytes":
        await request.arrayBuffer();
        return noContent();
    }
    return new Response("not found", { status: 404 });
  };
  const bun = (globalThis as {
    Bun?: {
      serve(options: {
        hostname: string;
        port: number;
        fetch: (request: Request) => Promise<Response>;
      }): { url: URL };
    };
  }).Bun;
  if (bun !== undefined) {
    console.log(bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handler }).url.href);
  } else {
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
    console.log(`http://127.0.0.1:${server.addr.port}/`);
  }
}

// ---- the load client (`--load=<url>`) ----------------------------------------------------------

/** One request of a load client of that kind. */
function requester(kind: ClientKind, url: string, value: unknown): () => Promise<unknown> {
  const post = (body: () => BodyInit, type: string) => async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": type },
      body: body(),
    });
    return response.arrayBuffer();
  };
  switch (kind) {
    case "json":
      return async () => (await fetch(url)).json();
    case "fetch-json":
      return () => fetchValue(url, { format: "json" });
    case "fetch":
      return () => fetchValue(url);
    case "unpack":
      return async () => unpack(new Uint8Array(await (await fetch(url)).arrayBuffer()));
    case "drain":
      return async () => (await fetch(url)).arrayBuffer();
    case "post-json":
      return post(() => JSON.stringify(value), "application/json");
    case "post-pack":
      return post(() => pack(value), "application/msgpack");
    case "post-fetch":
      return () => fetchValue(url, { body: value });
    case "post-fetch-json":
      return () => fetchValue(url, { body: value, format: "json" });
  }
}

/** Requests in `CONNECTIONS` loops for `seconds`; the count and the client's CPU microseconds. */
async function loadFor(
  request: () => Promise<unknown>,
  seconds: number,
): Promise<{ requests: number; seconds: number; cpuMicros: number }> {
  let requests = 0;
  const end = performance.now() + seconds * 1000;
  async function loop(): Promise<void> {
    while (performance.now() < end) {
      await request();
      requests++;
    }
  }
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  const elapsed = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(cpu);
  return { requests, seconds: elapsed, cpuMicros: user + system };
}

async function serverCpu(base: string): Promise<number> {
  return (await (await fetch(`${base}cpu-0`)).json()).micros;
}

/** Warms up, then measures: prints requests, seconds, its CPU and the server's, as JSON. */
async function runLoad(base: string, route: string, kind: ClientKind, key: string): Promise<void> {
  const request = requester(kind, `${base}${route}-${key}`, PAYLOADS[key].value);
  await loadFor(request, WARM_SECONDS);
  const before = await serverCpu(base);
  const result = await loadFor(request, SECONDS);
  const serverMicros = (await serverCpu(base)) - before;
  console.log(JSON.stringify({ ...result, serverMicros }));
}

// ---- the orchestrator --------------------------------------------------------------------------

function runtimeArgs(args: string[]): string[] {
  return isDeno ? ["run", "-A", SCRIPT, ...args] : [SCRIPT, ...args];
}

interface Measured {
  requests: number;
  seconds: number;
  cpuMicros: number;
  serverMicros: number;
}

/** Runs a load client to its end; its JSON line. */
function load(base: string, row: Row, key: string): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const args = runtimeArgs([
      `--load=${base}`,
      `--route=${row.route}`,
      `--client=${row.client}`,
      `--key=${key}`,
      `--seconds=${SECONDS}`,
      `--warm=${WARM_SECONDS}`,
      `--connections=${CONNECTIONS}`,
    ]);
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Uint8Array) => out += new TextDecoder().decode(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`load client exited with ${code}`));
      else resolve(JSON.parse(out));
    });
  });
}

/** One row's figures in one round. */
interface Result {
  rps: number;
  /** Server CPU microseconds per request. */
  server: number;
  /** Load client CPU microseconds per request. */
  client: number;
}

function median(list: readonly number[]): number {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function selectedRows(): Row[] {
  const filter = option("rows")?.split(",").filter((part) => part !== "");
  const direction = option("direction");
  const floors = new Set<string>();
  const chosen = ROWS.filter((row) =>
    (direction === undefined || row.direction === direction) &&
    (filter === undefined || row.name === BASELINE[row.direction] ||
      filter.some((part) => row.name.includes(part)))
  );
  // a row's floor runs with it, so its codec share can be shown
  for (const row of chosen) if (row.floor !== undefined) floors.add(row.floor);
  return ROWS.filter((row) => chosen.includes(row) || floors.has(row.name));
}

async function orchestrate(): Promise<void> {
  const keys = (option("payload") ?? "order,logs").split(",");
  for (const key of keys) {
    if (!(key in PAYLOADS)) throw new Error(`No payload ${key}: expected order or logs`);
  }
  const rows = selectedRows();
  const server = spawn(process.execPath, runtimeArgs(["--serve"]), {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const base = await new Promise<string>((resolve) => {
    let out = "";
    server.stdout.on("data", (chunk: Uint8Array) => {
      out += new TextDecoder().decode(chunk);
      if (out.includes("\n")) resolve(out.trim());
    });
  });
  console.log(
    `### rpc on ${RUNTIME}\n\n${CONNECTIONS} connections; ${ROUNDS} rounds of a ${WARM_SECONDS} s ` +
      `warm-up and ${SECONDS} s per row; medians over the rounds. CPU in µs per request; ` +
      `"/ JSON" is this row's figure over the JSON row's of the same round (median of the rounds), ` +
      `"codec" is server CPU minus the floor of the row's body kind (the constant rows).\n`,
  );
  const results = new Map<string, Result[]>();
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const key of keys) {
        for (const row of rows) {
          const measured = await load(base, row, key);
          const id = `${key} ${row.name}`;
          const list = results.get(id) ?? [];
          list.push({
            rps: measured.requests / measured.seconds,
            server: measured.serverMicros / measured.requests,
            client: measured.cpuMicros / measured.requests,
          });
          results.set(id, list);
        }
      }
      console.error(`round ${round + 1} of ${ROUNDS} done`);
    }
  } finally {
    server.kill("SIGTERM");
  }
  for (const key of keys) {
    const value = PAYLOADS[key].value;
    const jsonBytes = new TextEncoder().encode(JSON.stringify(value)).length;
    console.log(
      `#### ${PAYLOADS[key].title}: JSON ${jsonBytes} B, MessagePack ${pack(value).length} B, ` +
        `records ${new Packr().pack(value).length} B\n`,
    );
    for (const direction of ["response", "request"] as const) {
      const directionRows = rows.filter((row) => row.direction === direction);
      if (directionRows.length === 0) continue;
      console.log(table(key, directionRows, BASELINE[direction], results));
    }
  }
}

/** The markdown table of one payload and direction. */
function table(key: string, rows: readonly Row[], baseline: string, all: Map<string, Result[]>) {
  const of = (name: string) => all.get(`${key} ${name}`)!;
  const base = of(baseline);
  /** The median over rounds of `pick(row's round) / pick(baseline's round)`. */
  const ratio = (list: Result[], pick: (result: Result) => number) =>
    median(list.map((result, round) => pick(result) / pick(base[round])));
  const codec = (row: Row, round: number) =>
    row.floor === undefined ? NaN : of(row.name)[round].server - of(row.floor)[round].server;
  const baseRow = rows.find((row) => row.name === baseline)!;
  const header = [
    "row",
    "req/s",
    "/ JSON",
    "server CPU",
    "/ JSON",
    "codec",
    "/ JSON",
    "client CPU",
    "/ JSON",
  ];
  const lines = [
    `| ${header.join(" | ")} |`,
    `|---|${header.slice(1).map(() => "---:").join("|")}|`,
  ];
  for (const row of rows) {
    const list = of(row.name);
    const codecs = list.map((_, round) => codec(row, round));
    const codecRatio = median(codecs.map((value, round) => value / codec(baseRow, round)));
    const cells = [
      row.name,
      median(list.map((result) => result.rps)).toFixed(0),
      ratio(list, (result) => result.rps).toFixed(2),
      median(list.map((result) => result.server)).toFixed(1),
      ratio(list, (result) => result.server).toFixed(2),
      row.floor === undefined ? "–" : median(codecs).toFixed(1),
      row.floor === undefined ? "–" : codecRatio.toFixed(2),
      median(list.map((result) => result.client)).toFixed(1),
      ratio(list, (result) => result.client).toFixed(2),
    ];
    lines.push(`| ${cells.join(" | ")} |`);
  }
  return lines.join("\n") + "\n";
}

const loadBase = option("load");
if (ARGS.includes("--serve")) runServer();
else if (loadBase !== undefined) {
  await runLoad(
    ARGS.find((arg) => arg.startsWith("--load="))!.slice("--load=".length),
    option("route")!,
    option("client") as ClientKind,
    option("key")!,
  );
} else await orchestrate();
