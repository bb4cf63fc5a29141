// Copyright 2026 the @x/msgpackr authors. MIT license.
// Subprocesses of the tests: run one to its end and collect its output, or start a server that
// prints its URL and keeps running.

import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import { concatBytes } from "../_core/bytes.ts";

/** What a finished subprocess left. */
export interface Run {
  code: number;
  stdout: Uint8Array;
  stderr: string;
}

/** Waits for a started subprocess to end, collecting its output. */
export function collect(child: ChildProcess): Promise<Run> {
  return new Promise((resolve, reject) => {
    const stdout: Uint8Array[] = [];
    const stderr: Uint8Array[] = [];
    child.stdout!.on("data", (chunk: Uint8Array) => stdout.push(chunk));
    child.stderr!.on("data", (chunk: Uint8Array) => stderr.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      resolve({
        code: code ?? -1,
        stdout: new Uint8Array(concatBytes(stdout)),
        stderr: new TextDecoder().decode(concatBytes(stderr)),
      });
    });
  });
}

/** Runs a command to its end, collecting its output; `input` goes to its stdin. */
export function run(
  command: string,
  args: readonly string[],
  input?: string | Uint8Array,
): Promise<Run> {
  const child = spawn(command, args, { env: { ...process.env, NO_COLOR: "1" } });
  const done = collect(child);
  child.stdin!.end(input ?? "");
  return done;
}

/** A subprocess that printed its URL as its first line of output, and keeps running. */
export interface Process {
  url: string;
  /** Ends it (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** What it wrote to stderr so far. */
  stderr(): string;
}

/** Starts a command that prints the URL it serves on its first stdout line. */
export function start(command: string, args: readonly string[]): Promise<Process> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    let started = false;
    const exited = new Promise<void>((done) => child.on("close", () => done()));
    child.stderr!.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
    child.stdout!.on("data", (chunk: Uint8Array) => {
      stdout += new TextDecoder().decode(chunk);
      const end = stdout.indexOf("\n");
      if (!started && end !== -1) {
        started = true;
        resolve({
          url: stdout.slice(0, end).trim(),
          stop: async () => {
            child.kill("SIGTERM");
            await exited;
          },
          stderr: () => stderr,
        });
      }
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (!started) reject(new Error(`${command} exited with ${code} before listening: ${stderr}`));
    });
  });
}
