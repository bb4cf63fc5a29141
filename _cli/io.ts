// Copyright 2026 the @x/msgpackr authors. MIT license.

// The command line tool's only contact with its runtime: arguments, reading a file or all of
// standard input, writing standard output and error, the exit status, and "am I the program?".
// It uses `Deno` when present, else Node's `process` (Node and Bun), reached through
// `globalThis` so the library keeps no `node:` imports.

import { concatBytes } from "../_core/bytes.ts";

/**
 * Input and output of the tool; {@linkcode runtimeIO} gives the real ones. Tests and embedders
 * pass their own to `main`.
 *
 * @example Usage
 * ```ts
 * import { type CliIO, main } from "@x/msgpackr/cli";
 * import assert from "node:assert/strict";
 *
 * let stdout = "";
 * const io: CliIO = {
 *   readFile: () => Promise.reject(new Error("no files here")),
 *   readStdin: () => Promise.resolve(new Uint8Array([0x2a])),
 *   isTerminal: () => false,
 *   write: (_stream, data) => {
 *     stdout += typeof data === "string" ? data : new TextDecoder().decode(data);
 *     return Promise.resolve();
 *   },
 * };
 * assert.equal(await main(["decode"], io), 0);
 * assert.equal(stdout, "42\n");
 * ```
 */
export interface CliIO {
  /** Reads a whole file. */
  readFile(path: string): Promise<Uint8Array>;
  /** Reads standard input to its end. */
  readStdin(): Promise<Uint8Array>;
  /** Whether a standard stream is a terminal. */
  isTerminal(stream: "stdin" | "stdout"): boolean;
  /** Writes text or bytes to a standard stream. */
  write(stream: "stdout" | "stderr", data: string | Uint8Array): Promise<void>;
  /** Sends an HTTP request (the `fetch` command); the runtime's `fetch` when absent. */
  fetch?: (request: Request) => Promise<Response>;
}

interface NodeStream {
  isTTY?: boolean;
  write(data: string | Uint8Array, callback: (error?: Error | null) => void): boolean;
  on(event: "error", listener: (error: Error) => void): unknown;
  [Symbol.asyncIterator](): AsyncIterator<Uint8Array | string>;
}

interface NodeProcess {
  argv: string[];
  exitCode?: number;
  stdin: NodeStream;
  stdout: NodeStream;
  stderr: NodeStream;
  getBuiltinModule?: (name: string) => unknown;
}

interface NodeFs {
  promises: { readFile(path: string): Promise<Uint8Array> };
  realpathSync(path: string): string;
}

interface NodeUrl {
  fileURLToPath(url: string): string;
}

/** The part of the `Deno` namespace the tool uses (typed here: the npm build has no Deno types). */
interface DenoRuntime {
  args: readonly string[];
  exitCode: number;
  readFile(path: string): Promise<Uint8Array>;
  stdin: { readable: AsyncIterable<Uint8Array>; isTerminal(): boolean };
  stdout: DenoWriter & { isTerminal(): boolean };
  stderr: DenoWriter;
  errors: { BrokenPipe: new (...args: never[]) => Error };
}

interface DenoWriter {
  write(bytes: Uint8Array): Promise<number>;
}

const deno = (globalThis as { Deno?: DenoRuntime }).Deno;
const nodeProcess = (globalThis as { process?: NodeProcess }).process;

/** Thrown when standard output was closed by its reader (`msgpackr decode x | head`). */
export class BrokenPipe extends Error {
  constructor() {
    super("Broken pipe");
    this.name = "BrokenPipe";
  }
}

function nodeModule<T>(name: string): T {
  const module = nodeProcess?.getBuiltinModule?.(name);
  if (module === undefined) {
    throw new Error(`This runtime lacks process.getBuiltinModule("${name}") (Node 20.16 or later)`);
  }
  return module as T;
}

function asBytes(chunk: Uint8Array | string): Uint8Array {
  return typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
}

/** All of a byte stream (standard input): its one chunk as is, or the chunks joined. */
async function readAll(source: AsyncIterable<Uint8Array | string>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of source) chunks.push(asBytes(chunk));
  return chunks.length === 1 ? chunks[0] : concatBytes(chunks);
}

/** The program's arguments (after the program and script names). */
export function runtimeArgs(): string[] {
  if (deno !== undefined) return [...deno.args];
  if (nodeProcess !== undefined) return nodeProcess.argv.slice(2);
  return [];
}

/** Sets the exit status the program ends with (it ends when its output is flushed). */
export function setExitCode(code: number): void {
  if (deno !== undefined) deno.exitCode = code;
  else if (nodeProcess !== undefined) nodeProcess.exitCode = code;
}

/** Whether the module of `meta` is the program being run (not imported by another). */
export function isMainModule(meta: ImportMeta): boolean {
  const main = (meta as { main?: boolean }).main;
  if (typeof main === "boolean") return main;
  // Node before 24.2 has no import.meta.main: compare with the script it was started with
  const script = nodeProcess?.argv[1];
  if (script === undefined || !meta.url.startsWith("file:")) return false;
  try {
    const fs = nodeModule<NodeFs>("node:fs");
    const path = nodeModule<NodeUrl>("node:url").fileURLToPath(meta.url);
    return fs.realpathSync(script) === fs.realpathSync(path);
  } catch {
    return false;
  }
}

function denoIO(runtime: DenoRuntime): CliIO {
  const streams = { stdout: runtime.stdout, stderr: runtime.stderr };
  return {
    readFile: (path) => runtime.readFile(path),
    readStdin: () => readAll(runtime.stdin.readable),
    isTerminal: (stream) =>
      stream === "stdin" ? runtime.stdin.isTerminal() : runtime.stdout.isTerminal(),
    async write(stream, data) {
      const target = streams[stream];
      let bytes = asBytes(data);
      try {
        while (bytes.length > 0) bytes = bytes.subarray(await target.write(bytes));
      } catch (error) {
        if (error instanceof runtime.errors.BrokenPipe) throw new BrokenPipe();
        throw error;
      }
    },
  };
}

function nodeIO(runtime: NodeProcess): CliIO {
  // a closed pipe is reported to the write callback; without a listener it would also crash
  runtime.stdout.on("error", () => {});
  return {
    readFile: (path) => nodeModule<NodeFs>("node:fs").promises.readFile(path),
    readStdin: () => readAll(runtime.stdin),
    isTerminal: (stream) => runtime[stream].isTTY === true,
    write(stream, data) {
      return new Promise((resolve, reject) => {
        runtime[stream].write(data, (error) => {
          if (!error) resolve();
          else reject((error as { code?: string }).code === "EPIPE" ? new BrokenPipe() : error);
        });
      });
    },
  };
}

/** The real input and output of the runtime (Deno, or Node's `process` in Node and Bun). */
export function runtimeIO(): CliIO {
  if (deno !== undefined) return denoIO(deno);
  if (nodeProcess !== undefined) return nodeIO(nodeProcess);
  throw new Error("The command line tool needs Deno, Node or Bun");
}
