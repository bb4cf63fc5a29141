// Copyright 2026 the @x/msgpackr authors. MIT license.
// 1,000 clients in a row abort a streamed response after three values: each time the server's
// source (an async generator holding a 64 KiB buffer) runs its `finally` within a second, and
// the server's heap does not grow beyond noise. The server runs in a process of its own
// (tests/http/abort_server.ts) so its heap is measured alone, after a forced collection. A
// control run where each `finally` keeps its buffer (as a leaked generator would) shows that
// the measurement sees a 64 KiB leak per request.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import { fetchValue, fetchValues } from "../http.ts";
import { type Process, start } from "./_process.ts";
import { isDeno } from "./_util.ts";

const SERVER = new URL("./http/abort_server.ts", import.meta.url).pathname;
const REQUESTS = 1000;
const CONTROL_REQUESTS = 200;
/** Per request: growth allowed without a leak, and growth the leaking control must show. */
const NOISE_BYTES_PER_REQUEST = 8 * 1024;
const LEAK_BYTES_PER_REQUEST = 48 * 1024;

describe("aborted streamed responses", () => {
  test(`${REQUESTS} aborted requests: finally within 1 s each, no heap growth`, async () => {
    const args = isDeno ? ["run", "-A", "--v8-flags=--expose-gc", SERVER] : [SERVER];
    const server: Process = await start(process.execPath, args);
    let aborted = 0;
    let slowest = 0;
    /** Reads three values of a stream, stops, and waits for the server's finally. */
    async function abortMany(count: number, query: string): Promise<void> {
      for (let i = 0; i < count; i++) {
        let values = 0;
        for await (const _ of fetchValues(`${server.url}stream${query}`)) {
          if (++values === 3) break;
        }
        aborted++;
        const { finished, waitedMs } = await fetchValue<{ finished: number; waitedMs: number }>(
          `${server.url}finished?n=${aborted}`,
        );
        assert.equal(finished, aborted, `request ${aborted}: finally did not run within 1 s`);
        slowest = Math.max(slowest, waitedMs);
      }
    }
    const heap = async (): Promise<number> =>
      (await fetchValue<{ heap: number }>(`${server.url}heap`)).heap;
    try {
      await abortMany(100, ""); // warm-up: code compiled, pools and caches filled
      const before = await heap();
      await abortMany(REQUESTS, "");
      const after = await heap();
      await abortMany(CONTROL_REQUESTS, "?leak=1");
      const leaked = await heap();
      const growth = (after - before) / REQUESTS;
      const leak = (leaked - after) / CONTROL_REQUESTS;
      const kib = (bytes: number) => `${(bytes / 1024).toFixed(2)} KiB`;
      console.log(
        `  ${REQUESTS} aborts: slowest finally ${slowest.toFixed(1)} ms after the abort; ` +
          `heap ${kib(growth)} per request (control leaking 64 KiB: ${kib(leak)} per request)`,
      );
      assert.ok(slowest < 1000);
      assert.ok(growth < NOISE_BYTES_PER_REQUEST, `heap grew ${kib(growth)} per request`);
      assert.ok(leak > LEAK_BYTES_PER_REQUEST, `the control's leak shows as ${kib(leak)} only`);
    } finally {
      await server.stop();
    }
  });
});
