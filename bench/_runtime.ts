// Copyright 2026 the @x/msgpackr authors. MIT license.
// The runtime a bench runs on, for the headings of its results, and the bench's arguments.

import process from "node:process";

const deno = (globalThis as { Deno?: { args: string[]; version: { deno: string; v8: string } } })
  .Deno;
const bun = (globalThis as { Bun?: { version: string } }).Bun;

/** "Deno 2.9.5 (V8 15.0.245.2-rusty)", "Bun 1.4.5 (JavaScriptCore)" or "Node v20.20.2". */
export const RUNTIME: string = deno !== undefined
  ? `Deno ${deno.version.deno} (V8 ${deno.version.v8})`
  : bun !== undefined
  ? `Bun ${bun.version} (JavaScriptCore)`
  : `Node ${process.version}`;

/** The bench script's command-line arguments (after the script), on Deno, Bun and Node. */
export const ARGS: readonly string[] = deno !== undefined ? deno.args : process.argv.slice(2);

/** The value of `--name=value` among {@linkcode ARGS}, or undefined. */
export function option(name: string): string | undefined {
  return ARGS.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
}
