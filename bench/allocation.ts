// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * Fresh result buffers: what the exact-size result of each `pack()` costs on this runtime, and so
 * why Deno's `pack()` falls behind msgpackr's in mean throughput (`isolated.ts`) while packing into
 * a reused buffer (`useBuffer`) does not.
 *
 *   deno run -A bench/allocation.ts [--rounds=<n>]    (npm run bench:allocation:deno)
 *   DENO_V8_FLAGS=--no-concurrent-array-buffer-sweeping deno run -A bench/allocation.ts
 *   bun bench/allocation.ts [...]
 *
 * `pack()` returns its bytes in an `ArrayBuffer` of their own (safe to keep, transfer or hand to a
 * worker), so each call makes one: `slice` of the arena, the cheapest way measured.
 * msgpackr returns a view (`subarray`) of a buffer it keeps and writes on after the last result:
 * it makes a new 8 KiB buffer when less than 2 KiB of the last one is left (every 36 small RPC
 * messages). For three result sizes (the small RPC message, the service response and the 1,000 log
 * events, as `pack()` writes them) this times a view of a kept buffer, an exact-size copy, and a
 * bare `new Uint8Array`; then the small RPC message's `pack()`, `pack()` into a `useBuffer`
 * buffer, and msgpackr's `pack()`.
 *
 * Each candidate is timed on its own, one after another: WARM_UP_SLICES slices unmeasured, then
 * `--rounds` slices of 5 ms, each the mean of back-to-back calls, and the median slice is kept. A
 * mean, as in `isolated.ts`, so the work a result leaves behind (its backing store to free, the
 * collections it brings) counts; one candidate at a time, unlike the other benches, because what is
 * measured is the allocator's state, which candidates taken in turn would make for each other.
 *
 * Measured causes (2-core VM, Deno 2.9.5): V8 frees array buffers' backing stores on a background
 * thread (its ArrayBufferSweeper), and a `perf` profile of a loop of `new Uint8Array(162)` shows
 * the JavaScript thread's `malloc` and that thread's `free` contending for glibc's lock
 * (`_int_malloc`, `_int_free`, `__lll_lock_wait_private`, futex calls). The heading shows
 * `DENO_V8_FLAGS` and `LD_PRELOAD`, which change that: `--no-concurrent-array-buffer-sweeping`
 * frees on the JavaScript thread, and another allocator (jemalloc through `LD_PRELOAD`) has no such
 * lock.
 */

import process from "node:process";
import * as msgpackr from "msgpackr";
import { pack, Packr } from "../mod.ts";
import { formatTime, medianSlices } from "./_measure.ts";
import { payloads } from "./_payloads.ts";
import { option, RUNTIME } from "./_runtime.ts";

/** Slices timed per candidate. */
const ROUNDS = Number(option("rounds") ?? 21);
/** Milliseconds of calls one slice times. */
const SLICE_MS = 5;
/** Unmeasured slices first, per candidate (300 ms): the JIT and the allocator settle. */
const WARM_UP_SLICES = 60;

// made once: payloads() builds every payload, the binary blobs' 1 MiB of random bytes among them
const every = payloads();
const payloadOf = (name: string) => every.find((payload) => payload.name === name)!.value;
const sized = ["small RPC message", "service response (20 items)", "1,000 log events"].map(
  (name) => ({ name, bytes: pack(payloadOf(name)).length }),
);
const kept = new Uint8Array(1 << 20);

const candidates: Record<string, () => unknown> = {};
for (const { name, bytes } of sized) {
  const label = `${bytes.toLocaleString("en")} bytes (${name})`;
  candidates[`${label}: view of a kept buffer (subarray)`] = () => kept.subarray(64, 64 + bytes);
  candidates[`${label}: exact-size copy (slice)`] = () => kept.slice(64, 64 + bytes);
  candidates[`${label}: new Uint8Array alone`] = () => new Uint8Array(bytes);
}
const message = payloadOf("small RPC message");
const packr = new Packr({ useRecords: false });
const output = new Uint8Array(1 << 16);
candidates["small RPC message: ours, pack()"] = () => pack(message);
candidates["small RPC message: ours, pack() into useBuffer"] = () => {
  packr.useBuffer(output);
  return packr.pack(message);
};
candidates["small RPC message: msgpackr, pack()"] = () => msgpackr.pack(message);

const time: Record<string, number> = {};
for (const [name, run] of Object.entries(candidates)) {
  time[name] = medianSlices({ [name]: run }, ROUNDS, SLICE_MS, WARM_UP_SLICES)[name];
}
const setting = (name: string) =>
  `\`${name}\` ${process.env[name] ? `= ${process.env[name]}` : "unset"}`;
const method =
  `Each candidate alone: mean time per call over ${SLICE_MS} ms slices, the median of ` +
  `${ROUNDS} slices after ${WARM_UP_SLICES * SLICE_MS} ms of calls.`;
console.log(
  [
    `### ${RUNTIME}, fresh result buffers`,
    "",
    `${setting("DENO_V8_FLAGS")}, ${setting("LD_PRELOAD")}. ${method}`,
    "",
    "| work | time |",
    "|---|---:|",
    ...Object.entries(time).map(([name, ns]) => `| ${name} | ${formatTime(ns)} |`),
    "",
  ].join("\n"),
);
