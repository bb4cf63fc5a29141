// Copyright 2026 the @x/msgpackr authors. MIT license.
// Differential decoding against npm msgpackr 2.1.3 (fuzz/_differential.ts): mutations of valid
// msgpackr encodings (records, sequential streams, string bundles, structured clone, moreTypes,
// shared structures with two-byte ids, timestamps, bigints) are decoded by both libraries with the
// same options. Where both decode, the values are equal; where they disagree, a row of the table
// of intended differences (fuzz/_differences.ts) must recognize the case, or the test fails with
// the hex bytes. The long-running version is part of `deno task fuzz <seconds>` (fuzz/fuzz.ts).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { DecodeError, IncompleteDataError, Unpackr } from "../mod.ts";
import {
  checkDifferential,
  decodeOurs,
  decodeTheirs,
  DIFFERENTIAL_CONFIGS,
  type DifferentialFailure,
  mismatchOf,
  type Outcome,
  randomDifferentialInput,
  SEED_KINDS,
} from "../fuzz/_differential.ts";
import { DIFFERENCES, explainDifference, MSGPACKR_HAZARDS } from "../fuzz/_differences.ts";
import { mulberry32 } from "../fuzz/_fuzz.ts";
import { ENDLESS_RECURSION_GUARD, msgpackrJs } from "../fuzz/_msgpackr_js.ts";
import { fromHex } from "./_util.ts";

/** Cases run by the random test (a few seconds per runtime). */
const CASES = 10000;

describe("differential decoding against msgpackr", () => {
  test(`our decoder and msgpackr's agree on ${CASES} mutated encodings, or the table explains why`, () => {
    const random = mulberry32(20260402);
    const explained = new Map<string, number>();
    const failures = new Map<string, DifferentialFailure>();
    const kinds = new Map<string, number>();
    for (let i = 0; i < CASES; i++) {
      const input = randomDifferentialInput(random);
      kinds.set(input.seed, (kinds.get(input.seed) ?? 0) + 1);
      const failure = checkDifferential(input.bytes, input.config, explained);
      if (failure !== null && !failures.has(failure.signature)) {
        failures.set(failure.signature, failure);
      }
    }
    const report = [...failures.values()].map((failure) => failure.detail).join("\n");
    assert.equal(
      failures.size,
      0,
      `mismatches no row of fuzz/_differences.ts explains:\n${report}`,
    );
    // every kind of seed was tried, and the oracle did meet differences (it is not vacuous)
    assert.deepEqual([...kinds.keys()].sort(), SEED_KINDS.map((kind) => kind.name).sort());
    assert.ok(explained.size >= 5, `rows used: ${JSON.stringify([...explained])}`);
  });

  test("valid msgpackr encodings of every seed kind decode to the same values on both sides", () => {
    const random = mulberry32(7);
    for (const kind of SEED_KINDS) {
      for (let i = 0; i < 40; i++) {
        const bytes = kind.encode(random);
        for (const config of kind.configs) {
          const ours = decodeOurs(bytes, config);
          const theirs = decodeTheirs(bytes, config);
          if (!ours.ok) {
            // only a Map with keys no property name can hold, as an object: both refuse
            assert.match(String(ours.error), /Invalid property type for record/);
            assert.ok(!theirs.ok, `${kind.name}, ${config.name}: msgpackr decodes it`);
            continue;
          }
          // valid data: only the table's value-level rows (BOM, shared structures given directly)
          // may apply, and only where msgpackr is the one that goes wrong
          const mismatch = mismatchOf(ours, theirs);
          if (mismatch !== null) {
            const failure = checkDifferential(bytes, config);
            assert.equal(failure, null, failure?.detail);
            assert.notEqual(mismatch.kind, "ours fails");
          }
        }
      }
    }
  });

  test("every row of the table explains its example, and only rows explain anything", () => {
    for (const row of DIFFERENCES) {
      const explained = new Map<string, number>();
      const config = DIFFERENTIAL_CONFIGS[row.example.config];
      assert.ok(config !== undefined, `${row.name}: configuration ${row.example.config}`);
      const failure = checkDifferential(fromHex(row.example.hex), config, explained);
      assert.equal(failure, null, `${row.name}: ${failure?.detail}`);
      assert.deepEqual([...explained.keys()], [row.name], row.example.hex);
      assert.ok(row.why.length > 100, `${row.name}: says why`);
    }
  });

  test("a mismatch of another kind is not explained by any row", () => {
    const config = DIFFERENTIAL_CONFIGS.plain;
    const fabricated = (hex: string, ours: Outcome, theirs: Outcome) => {
      const input = { bytes: fromHex(hex), config, ours, theirs };
      return explainDifference(input, mismatchOf(ours, theirs)!);
    };
    const ok = (value: unknown): Outcome => ({ ok: true, value });
    const fails = (error: unknown): Outcome => ({ ok: false, error });
    // we fail where msgpackr decodes, with an error no row names
    assert.equal(
      fabricated("c0", fails(new DecodeError("Something else at offset 0", 0)), ok(null)),
      null,
    );
    // a row's error message, but not at the bytes the row is about
    const lengthError = new DecodeError("Invalid reference id extension length 5 at offset 0", 0);
    assert.equal(fabricated("c70562000000000191", fails(lengthError), ok(1)), null);
    assert.equal(
      fabricated("01", fails(new IncompleteDataError("Unexpected end", 1)), ok(1)),
      null,
    );
    // different values: a number, a long string that does not start with a BOM
    assert.equal(fabricated("01", ok(2), ok(1)), null);
    const text = "a".repeat(70);
    assert.equal(fabricated(`d946${"61".repeat(70)}`, ok(text + "b"), ok(text)), null);
    // msgpackr fails where we decode
    assert.equal(fabricated("c0", ok(null), fails(new TypeError("x"))), null);
    // and each random run above found only explained mismatches, so the rows are not tried on
    // nothing: the explained counts are checked there
  });

  test("msgpackr's endless recursion on a cut two-byte id is a failure of both (no hang)", () => {
    // see MSGPACKR_HAZARDS: `91 61` with 40 loaded structures
    const bytes = fromHex("9161");
    const config = DIFFERENTIAL_CONFIGS.loaded;
    const theirs = decodeTheirs(bytes, config);
    assert.ok(!theirs.ok && String(theirs.error).includes(ENDLESS_RECURSION_GUARD));
    const ours = decodeOurs(bytes, config);
    assert.ok(!ours.ok && ours.error instanceof IncompleteDataError);
    assert.equal(checkDifferential(bytes, config), null);
    assert.equal(MSGPACKR_HAZARDS.length, 1);
  });
});

describe("differential decoding: Error and RegExp fields as msgpackr reads them", () => {
  // msgpackr builds an Error from `[name, message, cause]` with `Error(message, { cause })` (or
  // the class the name names) and then sets `name` as it is; an undefined message leaves the
  // message empty. `d4 65 00 90` (no name, no message) is an Error whose name is undefined
  // (toString() "Error") and message "". A cause of undefined gives no cause property (an
  // intended difference: msgpackr's has `cause: undefined`).
  test("an Error with an undefined message or a non-string name decodes as in msgpackr", () => {
    const cases = [
      "d465 00 90",
      "d465 00 91 a1 45",
      "d465 00 92 05 a1 6d",
      "d465 00 92 c0 c0",
      "d465 00 93 c3 d4 00 00 a1 63",
      "d465 00 93 a9 54 79 70 65 45 72 72 6f 72 d4 00 00 a1 63",
      "d465 00 93 a3 46 6f 6f 05 c0",
      "d465 00 92 d3 ff ff ff ff ff ff ff ff a0",
    ];
    for (const hex of cases) {
      const bytes = fromHex(hex);
      const ours = new Unpackr().unpack(bytes) as Error;
      const theirs = new msgpackrJs.Unpackr().unpack(bytes) as Error;
      assert.equal(ours.constructor, theirs.constructor, hex);
      assert.equal(ours.name, theirs.name, hex);
      assert.equal(ours.message, theirs.message, hex);
      assert.equal(Object.hasOwn(ours, "message"), Object.hasOwn(theirs, "message"), hex);
      assert.equal(ours.cause, theirs.cause, hex);
      assert.equal(String(ours), String(theirs), hex);
      assert.equal(checkDifferential(bytes, DIFFERENTIAL_CONFIGS.plain), null, hex);
    }
    const bare = new Unpackr().unpack(fromHex("d465 00 90")) as Error;
    assert.ok(Object.hasOwn(bare, "name") && bare.name === undefined);
    assert.equal(bare.message, "");
    assert.equal(String(bare), "Error");
  });

  // msgpackr gives the RegExp constructor undefined for a missing or undefined source or flags,
  // which it takes as absent (`/(?:)/`, `/a/`).
  test("a RegExp with undefined source or flags decodes as in msgpackr", () => {
    for (const hex of ["d478 00 90", "d478 00 91 a1 61", "d478 00 92 d4 00 00 a1 67"]) {
      const bytes = fromHex(hex);
      const theirs = new msgpackrJs.Unpackr().unpack(bytes) as RegExp;
      assert.equal(String(new Unpackr().unpack(bytes)), String(theirs), hex);
      assert.equal(checkDifferential(bytes, DIFFERENTIAL_CONFIGS.plain), null, hex);
    }
    assert.equal(String(new Unpackr().unpack(fromHex("d478 00 90"))), "/(?:)/");
    assert.equal(String(new Unpackr().unpack(fromHex("d478 00 92 d4 00 00 a1 67"))), "/(?:)/g");
  });
});
