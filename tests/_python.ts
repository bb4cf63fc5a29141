// Copyright 2026 the @x/msgpackr authors. MIT license.
// Debian's /usr/bin/python3 with python3-msgpack as a peer of the tests (CI installs both, and
// without them the tests that use it fail): its scripts under tests/ are run here.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

/** Debian's python3. */
export const PYTHON = "/usr/bin/python3";

/**
 * The stdout of `python3 script ...args` run to its end, as text; a clear failure when Debian's
 * python3 or python3-msgpack is missing.
 */
export function pythonOutput(script: string, args: readonly string[]): string {
  assert.ok(
    existsSync(PYTHON),
    `${PYTHON} is missing: these tests need Debian's python3 and python3-msgpack ` +
      "(apt-get install python3-msgpack)",
  );
  try {
    return execFileSync(PYTHON, [script, ...args], {
      encoding: "utf8",
      maxBuffer: 1 << 28,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "");
    assert.fail(
      `${PYTHON} ${script} ${args.join(" ")} failed (is Debian's python3-msgpack installed?)\n` +
        stderr,
    );
  }
}
