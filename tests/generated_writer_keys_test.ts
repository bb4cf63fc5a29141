// Copyright 2026 the @x/msgpackr authors. MIT license.
// After a shape has a generated writer (_encode/writer_compiler.ts; "generated writers" in
// _encode/encoder.ts), an object at the same place whose own enumerable keys are not the shape's
// must still be written with exactly its own enumerable keys, byte for byte as the generic writer
// writes it: a key missing, not enumerable, inherited (from a plain object, or from
// Object.prototype when the key is named like one of its members), an own key named like one
// (`toString`, `constructor`, `hasOwnProperty`, `valueOf`, `__proto__`), an extra key, the keys
// in another order, a getter, a value of another type than the writer learned. For the exported
// `pack`, `new Packr({ useRecords: false })` (map writers) and `new Packr()` (record writers);
// alone at the top, first in an array (the writer predicted from the previous pack), later in an
// array (predicted from the elements before), and as a field of an object whose shape has a
// writer (the field's remembered writer). The cases are in _writer_cases.ts; the generic bytes
// come from a subprocess that loads only no_eval.ts, where no writer is ever made.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import * as msgpackr from "msgpackr";
import * as ours from "../mod.ts";
import { fromHex, scriptArgs } from "./_util.ts";
import { objectShapes } from "../_encode/encoder.ts";
import { encodeContextOf } from "../_encode/packr.ts";
import { packCase, type Position, type WriterCase, writerCases } from "./_writer_cases.ts";

const ROOT = new URL("../", import.meta.url);
const GENERIC = fileURLToPath(new URL("tests/_writer_generic.ts", ROOT));

/** The value as its own enumerable keys decode: `__proto__` is read as `__proto_` (msgpackr). */
function ownData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ownData);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value).map((key) => [
      key === "__proto__" ? "__proto_" : key,
      ownData((value as Record<string, unknown>)[key]),
    ]),
  );
}

/** Where the case's odd object stands in its decoded value. */
function oddIn(position: Position, decoded: unknown, tag: string): unknown {
  if (position === "top") return decoded;
  if (position === "first") return (decoded as unknown[])[0];
  const element = (decoded as unknown[])[8];
  return position === "later" ? element : (element as Record<string, unknown>)[`${tag}I`];
}

/**
 * Whether msgpackr's bytes are the generic writer's: not for a record whose getter deletes a
 * later key (ours throws, docs/wire-format.md, "What the encoder writes"; msgpackr writes fewer
 * values than keys), nor for an object whose own `hasOwnProperty` is not a function and that
 * inherits an enumerable key (msgpackr writes that key too; docs/wire-format.md, "Where we differ
 * from msgpackr").
 */
function msgpackrCompatible(testCase: WriterCase): boolean {
  if (testCase.name.includes("deletes")) return testCase.kind !== "records";
  return !(testCase.keys.includes("hasOwnProperty") && testCase.name.includes("inherited"));
}

/** Whether the case's shape has its generated writer once the case is packed. */
function hasWriter(testCase: WriterCase, packr: ours.Packr | null): boolean {
  if (testCase.kind !== "records") {
    return (objectShapes.find(testCase.keys)?.writer ?? null) !== null;
  }
  const structures = encodeContextOf(packr!).records!;
  return structures.nodeFor(testCase.keys).writer !== null;
}

describe("generated writers write an object's own enumerable keys, as the generic writer", () => {
  // built once per packer: a getter may delete a key of its object
  const cases = writerCases();
  const theirCases = writerCases();
  let generic: string[] = [];

  before(() => {
    const child = spawnSync(process.execPath, scriptArgs(GENERIC), {
      cwd: fileURLToPath(ROOT),
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
      maxBuffer: 1 << 26,
    });
    assert.equal(child.status, 0, `the generic packer failed: ${child.stderr}`);
    generic = JSON.parse(child.stdout);
    assert.equal(generic.length, cases.length);
  });

  test("the generic bytes are msgpackr's, where msgpackr writes own keys only", () => {
    for (const [i, testCase] of writerCases().entries()) {
      if (!msgpackrCompatible(testCase)) continue;
      assert.equal(generic[i], packCase(msgpackr, testCase), testCase.name);
    }
  });

  for (const kind of ["pack", "maps", "records"] as const) {
    for (const position of ["top", "first", "later", "nested"] as const) {
      test(`${kind}, ${position}`, () => {
        let checked = 0;
        for (const [i, testCase] of cases.entries()) {
          if (testCase.kind !== kind || testCase.position !== position) continue;
          const name = testCase.name;
          let packr: ours.Packr | null = null;
          const bytes = packCase(ours, testCase, (used) => (packr = used));
          assert.ok(hasWriter(testCase, packr), `${name}: the shape has a generated writer`);
          assert.equal(bytes, generic[i], `${name}: the generic writer's bytes`);
          if (msgpackrCompatible(testCase)) {
            assert.equal(bytes, packCase(msgpackr, theirCases[i]), `${name}: msgpackr's bytes`);
          }
          if (bytes.startsWith("throws")) continue;
          const decoded = ours.unpack(fromHex(bytes));
          assert.deepEqual(decoded, ownData(testCase.value), `${name}: decodes to its own keys`);
          assert.deepEqual(
            Object.keys(oddIn(position, decoded, testCase.tag) as object),
            Object.keys(testCase.odd).map((key) => (key === "__proto__" ? "__proto_" : key)),
            `${name}: its keys in order`,
          );
          checked++;
        }
        assert.ok(checked > 200, `${checked} cases`);
      });
    }
  }
});
