// Copyright 2026 the @x/msgpackr authors. MIT license.
// Objects the decoder builds by stores start from a root of their shape's own
// (_records/plain_root.ts): they must be plain objects in every way a program sees, and on V8
// objects of a shape never seen before must share one hidden class even when the root of `{}`
// is full (an application or a sender made objects with thousands of new keys).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { pack, Packr, unpack, Unpackr } from "../../mod.ts";
import * as noEval from "../../no_eval.ts";
import { plainRoot } from "../../_records/plain_root.ts";
import { isDeno, scriptArgs } from "../_util.ts";

const PROBE = fileURLToPath(new URL("_root_probe.ts", import.meta.url));

/** Asserts that `value` is a plain object as `{}` and stores make it. */
function assertPlain(value: unknown, expected: Record<string, unknown>, label: string): void {
  assert.equal(Object.getPrototypeOf(value), Object.prototype, label);
  const object = value as Record<string, unknown>;
  assert.equal(object.constructor, Object, label);
  assert.equal(Object.prototype.toString.call(object), "[object Object]", label);
  assert.deepEqual(Object.entries(object), Object.entries(expected), label);
  assert.equal(JSON.stringify(object), JSON.stringify(expected), label);
  assert.deepEqual(structuredClone(object), expected, label);
  assert.ok(!Object.hasOwn(object, "constructor"), label);
}

describe("objects built from a shape's own root", () => {
  test("a root makes plain objects", () => {
    const root = plainRoot();
    const object = new root();
    object.a = 1;
    assertPlain(object, { a: 1 }, "new root()");
    // no name of its own for debuggers to show: they fall back to `constructor`, Object
    assert.equal(root.name, "");
    const inspect = (globalThis as { Deno?: { inspect(value: unknown): string } }).Deno?.inspect;
    if (inspect !== undefined) assert.equal(inspect(object), inspect({ a: 1 }));
    assert.notEqual(plainRoot(), root);
  });

  test("every path that builds objects by stores makes plain objects", () => {
    const items = Array.from({ length: 8 }, (_, i) => ({ plain_a: i, plain_b: `v${i}` }));
    const wide = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`wide${i}`, i]));
    const decoded: [string, unknown, unknown][] = [
      ["records", new Unpackr().unpack(new Packr().pack(items)), items],
      [
        "records, interpreted",
        new Unpackr({ compileRecordReaders: false }).unpack(new Packr().pack(items)),
        items,
      ],
      ["records, no-eval", new noEval.Unpackr().unpack(new noEval.Packr().pack(items)), items],
      ["plain maps", unpack(pack(items)), items],
      ["plain maps, no-eval", noEval.unpack(noEval.pack(items)), items],
      ["a map of more than 64 keys", [unpack(pack(wide))], [wide]],
    ];
    for (const [label, actual, expected] of decoded) {
      const list = actual as unknown[];
      (expected as Record<string, unknown>[]).forEach((item, i) =>
        assertPlain(list[i], item, `${label} ${i}`)
      );
    }
  });

  test(
    "on V8, a new shape's objects share a hidden class when the root of {} is full",
    { skip: !isDeno && "V8's %HaveSameMap: Deno only" },
    () => {
      for (const build of ["mod.ts", "no_eval.ts"]) {
        const child = spawnSync(
          process.execPath,
          [...scriptArgs(PROBE, ["--v8-flags=--allow-natives-syntax"]), build],
          { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } },
        );
        assert.equal(child.status, 0, child.stderr);
        const results = JSON.parse(child.stdout) as Record<string, boolean>;
        // the probe filled the root: objects built from `{}` no longer share their class
        assert.equal(results.control, false, `${build}: the probe did not fill the root of {}`);
        delete results.control;
        assert.equal(Object.keys(results).length, 4);
        for (const [path, shared] of Object.entries(results)) {
          assert.ok(shared, `${build}: ${path}`);
        }
      }
    },
  );
});
