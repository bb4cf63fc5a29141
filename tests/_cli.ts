// Copyright 2026 the @x/msgpackr authors. MIT license.
// Helpers of the command line tests: the program run as a subprocess under the runtime running
// the tests (Deno or Bun).

import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { collect, type Run } from "./_process.ts";
import { isDeno } from "./_util.ts";

/** The repository root. */
export const ROOT: string = fileURLToPath(new URL("../", import.meta.url));
const CLI = join(ROOT, "cli.ts");

/**
 * Starts `msgpackr args…` with the runtime running the tests: `deno run PERMISSIONS cli.ts` (all
 * permissions unless `denoPermissions` names some) or `bun cli.ts`.
 */
export function spawnCli(
  args: readonly string[],
  denoPermissions: readonly string[] = ["-A"],
): ChildProcess {
  const runtimeArgs = isDeno ? ["run", ...denoPermissions, CLI] : [CLI];
  return spawn(process.execPath, [...runtimeArgs, ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: "1" },
  });
}

/** Runs `msgpackr args…` (see {@linkcode spawnCli}), feeding `input` to its stdin. */
export function runCli(
  args: readonly string[],
  input: Uint8Array | string = "",
  denoPermissions?: readonly string[],
): Promise<Run> {
  const child = spawnCli(args, denoPermissions);
  const done = collect(child);
  child.stdin!.end(typeof input === "string" ? input : Buffer.from(input));
  return done;
}

/** UTF-8 text of bytes. */
export function text(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}
