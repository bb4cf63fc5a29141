// Copyright 2026 the @x/msgpackr authors. MIT license.
// The server of the aborted-requests test (tests/http_abort_test.ts), in a process of its own so
// that its heap is measured alone and can be collected on demand: run with
// `deno run -A --v8-flags=--expose-gc abort_server.ts` or `bun abort_server.ts`. Prints its
// base URL on the first line of stdout.
//
//   GET /stream     an endless stream of rows from an async generator that holds a 64 KiB
//                   buffer until its `finally` runs (`?leak=1`: the finally keeps the buffer
//                   forever, as a leak of the generator would)
//   GET /finished   ?n=N: waits (at most 1 s) until N generators have finished;
//                   { finished, waitedMs }
//   GET /heap       collects garbage, then { heap: heapUsed + external bytes, started, finished }

import process from "node:process";
import { respond } from "../../http.ts";
import { serve } from "../_http.ts";

const state = { started: 0, finished: 0 };
const retained: Uint8Array[] = [];
let wake: (() => void)[] = [];

async function* rows(leak: boolean): AsyncGenerator<{ i: number; check: number }> {
  state.started++;
  const scratch = new Uint8Array(65536).fill(state.started & 0xff);
  try {
    for (let i = 0;; i++) {
      yield { i, check: scratch[i & 0xffff] };
      // a producer that waits now and then, as one reading a database does
      if (i % 64 === 63) await new Promise((resolve) => setTimeout(resolve, 0));
    }
  } finally {
    state.finished++;
    if (leak) retained.push(scratch);
    const waiting = wake;
    wake = [];
    for (const resolve of waiting) resolve();
  }
}

async function collect(): Promise<void> {
  const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) {
    if (bun !== undefined) bun.gc(true);
    else if (gc !== undefined) gc();
    else throw new Error("no way to collect garbage: run with --v8-flags=--expose-gc");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const server = serve(async (request) => {
  const url = new URL(request.url);
  if (url.pathname === "/stream") return respond(request, rows(url.searchParams.has("leak")));
  if (url.pathname === "/finished") {
    const target = Number(url.searchParams.get("n"));
    const started = performance.now();
    const deadline = started + 1000;
    while (state.finished < target && performance.now() < deadline) {
      await Promise.race([
        new Promise<void>((resolve) => wake.push(resolve)),
        new Promise((resolve) => setTimeout(resolve, deadline - performance.now())),
      ]);
    }
    return respond(request, { finished: state.finished, waitedMs: performance.now() - started });
  }
  if (url.pathname === "/heap") {
    await collect();
    const memory = process.memoryUsage();
    return respond(request, { heap: memory.heapUsed + memory.external, ...state });
  }
  return respond(request, { error: "not found" }, { status: 404 });
});
console.log(server.url);
