// Copyright 2026 the @x/msgpackr authors. MIT license.
// The runtime a bench runs on, for the headings of its results.

import process from "node:process";

const deno = (globalThis as { Deno?: { version: { deno: string; v8: string } } }).Deno;
const bun = (globalThis as { Bun?: { version: string } }).Bun;

/** "Deno 2.9.5 (V8 15.0.245.2-rusty)", "Bun 1.4.5 (JavaScriptCore)" or "Node v20.20.2". */
export const RUNTIME: string = deno !== undefined
  ? `Deno ${deno.version.deno} (V8 ${deno.version.v8})`
  : bun !== undefined
  ? `Bun ${bun.version} (JavaScriptCore)`
  : `Node ${process.version}`;
