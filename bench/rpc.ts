// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * An RPC service over HTTP on 127.0.0.1: a server answering the ~5 KB service response (an order
 * with 20 line items, bench/_payloads.ts) with `respond` from http.ts, and a load client of
 * `--connections` concurrent `fetchValue` loops (default 32), each in a process of its own and
 * on the runtime running this script. For each format it reports requests per second and the
 * server's CPU time per request (`process.cpuUsage()` of the server process over the measured
 * stretch, user + system), and both as ratios to JSON sent by `respond`:
 *
 * - JSON by hand: `new Response(JSON.stringify(value))` with a `Content-Type`, what a service
 *   writes without this library (the same client as the JSON row), to show what `respond` adds.
 * - JSON: `respond` to a client that asks for JSON (`fetchValue` with `format: "json"`).
 * - MessagePack: `respond` to `fetchValue` (plain MessagePack, objects as maps).
 * - MessagePack records: `respond` with a records `Packr` (`init.packr`), decoded by the same
 *   `fetchValue` (every decoder of this library reads records).
 *
 *   npm run bench:rpc:deno   (deno run -A bench/rpc.ts)
 *   npm run bench:rpc:bun    (bun bench/rpc.ts)
 *   options: --seconds=<n> per round (default 4), --rounds=<n> (default 3), --connections=<n>
 *
 * The formats take turns, round after round, each after a warm-up second; the round with the
 * median requests per second is reported. The client shares the machine with the server, so
 * requests per second say how fast the pair is; the server's CPU time per request is the cost a
 * service pays.
 */

import { spawn } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { fetchValue, Packr, respond } from "../http.ts";
import { pack } from "../mod.ts";
import { payloads } from "./_payloads.ts";
import { ARGS, option, RUNTIME } from "./_runtime.ts";

const SECONDS = Number(option("seconds") ?? 4);
const ROUNDS = Number(option("rounds") ?? 3);
const CONNECTIONS = Number(option("connections") ?? 32);
const WARM_SECONDS = 1;

const isDeno = typeof (globalThis as { Deno?: unknown }).Deno !== "undefined";
const SCRIPT = fileURLToPath(import.meta.url);

interface Format {
  name: string;
  path: string;
  json: boolean;
}

const FORMATS: readonly Format[] = [
  { name: "JSON by hand", path: "raw-json", json: true },
  { name: "JSON (respond)", path: "value", json: true },
  { name: "MessagePack", path: "value", json: false },
  { name: "MessagePack records", path: "records", json: false },
];

const PAYLOAD = payloads().find((payload) => payload.name.startsWith("service response"))!.value;

// ---- the server (`--serve`) --------------------------------------------------------------------

function runServer(): void {
  const records = new Packr();
  const handler = (request: Request): Response => {
    const path = request.url.slice(request.url.lastIndexOf("/") + 1);
    if (path === "value") return respond(request, PAYLOAD);
    if (path === "records") return respond(request, PAYLOAD, { packr: records });
    if (path === "raw-json") {
      return new Response(JSON.stringify(PAYLOAD), {
        headers: { "content-type": "application/json" },
      });
    }
    if (path === "cpu") {
      const { user, system } = process.cpuUsage();
      return Response.json({ micros: user + system });
    }
    return new Response("not found", { status: 404 });
  };
  const bun = (globalThis as {
    Bun?: {
      serve(options: {
        hostname: string;
        port: number;
        fetch: (request: Request) => Response;
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

async function runLoad(url: string, json: boolean, seconds: number): Promise<void> {
  let requests = 0;
  const end = performance.now() + seconds * 1000;
  const init = json ? { format: "json" as const } : {};
  async function loop(): Promise<void> {
    while (performance.now() < end) {
      await fetchValue(url, init);
      requests++;
    }
  }
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  const elapsed = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(cpu);
  console.log(JSON.stringify({ requests, seconds: elapsed, cpuMicros: user + system }));
}

// ---- the orchestrator --------------------------------------------------------------------------

function runtimeArgs(args: string[]): string[] {
  return isDeno ? ["run", "-A", SCRIPT, ...args] : [SCRIPT, ...args];
}

/** Runs the load client to its end; its JSON line. */
function load(
  url: string,
  json: boolean,
  seconds: number,
): Promise<{ requests: number; seconds: number; cpuMicros: number }> {
  return new Promise((resolve, reject) => {
    const args = runtimeArgs([`--load=${url}`, `--json=${json}`, `--seconds=${seconds}`]);
    args.push(`--connections=${CONNECTIONS}`);
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

async function serverCpu(base: string): Promise<number> {
  return (await (await fetch(`${base}cpu`)).json()).micros;
}

interface Result {
  rps: number;
  /** Server CPU milliseconds per request. */
  cpuMs: number;
  /** Load client CPU milliseconds per request. */
  clientMs: number;
}

async function orchestrate(): Promise<void> {
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
  const jsonBytes = new TextEncoder().encode(JSON.stringify(PAYLOAD)).length;
  const plainBytes = pack(PAYLOAD).length;
  const recordBytes = new Packr().pack(PAYLOAD).length;
  console.log(
    `rpc on ${RUNTIME}: the ~5 KB service response (JSON ${jsonBytes} B, MessagePack ` +
      `${plainBytes} B, records ${recordBytes} B), ${CONNECTIONS} connections, ` +
      `${ROUNDS} rounds of ${SECONDS} s per format (median round)\n`,
  );
  const results = new Map<string, Result[]>();
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const format of FORMATS) {
        const url = `${base}${format.path}`;
        await load(url, format.json, WARM_SECONDS);
        const cpuBefore = await serverCpu(base);
        const { requests, seconds, cpuMicros } = await load(url, format.json, SECONDS);
        const cpuAfter = await serverCpu(base);
        const result = {
          rps: requests / seconds,
          cpuMs: (cpuAfter - cpuBefore) / 1000 / requests,
          clientMs: cpuMicros / 1000 / requests,
        };
        const list = results.get(format.name) ?? [];
        list.push(result);
        results.set(format.name, list);
      }
    }
  } finally {
    server.kill("SIGTERM");
  }
  const median = (list: Result[]): Result =>
    [...list].sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)];
  const json = median(results.get("JSON (respond)")!);
  const rows = FORMATS.map((format) => {
    const result = median(results.get(format.name)!);
    return [
      format.name,
      result.rps.toFixed(0),
      (result.cpuMs * 1000).toFixed(1),
      `${(result.rps / json.rps).toFixed(2)}×`,
      `${(json.cpuMs / result.cpuMs).toFixed(2)}×`,
      (result.clientMs * 1000).toFixed(1),
    ];
  });
  const header = [
    "format",
    "req/s",
    "server CPU µs/req",
    "req/s vs JSON",
    "CPU vs JSON (JSON / this)",
    "client CPU µs/req",
  ];
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => row[i].length))
  );
  const line = (cells: string[]) =>
    cells.map((cell, i) => i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])).join("  ");
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

const load_ = ARGS.find((arg) => arg.startsWith("--load="));
if (ARGS.includes("--serve")) runServer();
else if (load_ !== undefined) {
  await runLoad(load_.slice("--load=".length), option("json") === "true", SECONDS);
} else await orchestrate();
