// Copyright 2026 the @x/msgpackr authors. MIT license.
// `pack()` called re-entrantly from an extension's `pack` (docs/wire-format.md, "Packs inside
// packs"; 2.x behaviour): the nested call returns an independent buffer; with saveStructures it
// only references shared structures already saved, defines new shapes inline, and they are promoted
// to shared after the outer pack. Each scenario runs on our library and on msgpackr (whose
// addExtension is global, so every scenario registers classes of its own) and must give the same
// bytes.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { addExtension, Packr, type PackrOptions, type Structure, Unpackr } from "../mod.ts";
import { hex } from "./_util.ts";
import { copyStructures, plainStructures, theirOptions } from "./_records.ts";

type Library = "ours" | "theirs";

/** A value packed by an extension whose `pack` packs `inner` again. */
interface Boxed {
  readonly inner: unknown;
}
type BoxClass = new (inner: unknown) => Boxed;

function boxClass(): BoxClass {
  return class Box implements Boxed {
    constructor(readonly inner: unknown) {}
  };
}

/** What one library did in a scenario. */
interface Outcome {
  /** Hex of every outer pack (or the error message). */
  outer: string[];
  /** Hex of every buffer returned by a nested pack, in order. */
  nested: string[];
  /** Each saveStructures call's table. */
  saves: string[][][];
}

interface ScenarioContext {
  library: Library;
  Box: BoxClass;
  packr: { pack(value: unknown): Uint8Array };
}

/**
 * Runs `scenario` with a fresh Box class registered globally under `type` for `library`, whose
 * `pack` packs `box.inner` with `nestedPackr()` (the scenario's Packr unless it says otherwise)
 * and whose `unpack` decodes the payload with `decodeNested`.
 */
function runScenario(
  library: Library,
  type: number,
  options: PackrOptions | null,
  scenario: (context: ScenarioContext, outcome: Outcome) => void,
  nestedPackr?: () => { pack(value: unknown): Uint8Array },
  decodeNested: (bytes: Uint8Array) => unknown = (bytes) => new Unpackr().unpack(bytes),
): Outcome {
  const outcome: Outcome = { outer: [], nested: [], saves: [] };
  const withSaves: PackrOptions | null = options && options.saveStructures
    ? {
      ...options,
      saveStructures: (structures, isCompatible) => {
        outcome.saves.push(plainStructures(structures));
        return options.saveStructures!(structures, isCompatible);
      },
    }
    : options;
  const packr = library === "ours"
    ? new Packr(withSaves ?? {})
    : new msgpackr.Packr(theirOptions(withSaves ?? {}));
  const Box = boxClass();
  const inner = nestedPackr ?? (() => packr);
  const pack = (box: Boxed) => {
    const bytes = inner().pack(box.inner);
    outcome.nested.push(hex(bytes));
    return bytes;
  };
  const unpack = (bytes: Uint8Array) => new Box(decodeNested(bytes));
  if (library === "ours") addExtension({ Class: Box, type, pack, unpack });
  else msgpackr.addExtension({ Class: Box, type, pack, unpack });
  scenario({ library, Box, packr }, outcome);
  return outcome;
}

function packAll(context: ScenarioContext, outcome: Outcome, values: unknown[]): void {
  for (const value of values) {
    try {
      outcome.outer.push(hex(context.packr.pack(value)));
    } catch (error) {
      outcome.outer.push(`error: ${(error as Error).message}`);
    }
  }
}

function fromHex(text: string): Uint8Array {
  return new Uint8Array(text.split(" ").map((byte) => parseInt(byte, 16)));
}

describe("re-entrant pack", () => {
  test("Packr.pack() inside an extension with saveStructures writes msgpackr's verified bytes", () => {
    let table: Structure[] = [];
    const run = (library: Library) =>
      runScenario(
        library,
        0x32,
        { saveStructures: () => {} },
        (context, outcome) => {
          packAll(context, outcome, [
            { outer: new context.Box({ inner: 1 }) },
            { outer: new context.Box({ inner: 2 }) },
          ]);
        },
        undefined,
        (bytes) => new Unpackr({ structures: copyStructures(table) }).unpack(bytes),
      );
    const ours = run("ours");
    const theirs = run("theirs");
    assert.deepEqual(ours, theirs);
    // the nested {inner:1} is defined inline as own id 0x60; both shapes are saved once, after
    assert.deepEqual(ours, {
      outer: ["40 c7 0b 32 d4 72 60 91 a5 69 6e 6e 65 72 01", "40 d5 32 41 02"],
      nested: ["d4 72 60 91 a5 69 6e 6e 65 72 01", "41 02"],
      saves: [[["outer"], ["inner"]]],
    });
    // each nested buffer decodes on its own: the first is self-contained, the second needs the
    // saved table only
    assert.deepEqual(new Unpackr().unpack(fromHex(ours.nested[0])), { inner: 1 });
    table = ours.saves[0];
    assert.deepEqual(
      new Unpackr({ structures: copyStructures(table) }).unpack(fromHex(ours.nested[1])),
      {
        inner: 2,
      },
    );
    // and the whole message decodes, the extension unpacking its payload re-entrantly
    const decoded = new Unpackr({ structures: copyStructures(table) }).unpack(
      fromHex(ours.outer[1]),
    );
    assert.deepEqual(decoded.outer.inner, { inner: 2 });
    const theirDecoded = new msgpackr.Unpackr({ structures: copyStructures(table) }).unpack(
      fromHex(ours.outer[0]),
    );
    assert.deepEqual(theirDecoded.outer.inner, { inner: 1 });
  });

  test("Packr.pack() inside an extension hides unsaved shared shapes from the nested buffer", () => {
    const run = (library: Library) =>
      runScenario(
        library,
        0x53,
        { structures: [], saveStructures: () => {} },
        (context, outcome) => {
          const { Box } = context;
          packAll(context, outcome, [
            [{ first: 1 }, new Box({ first: 2 }), new Box([{ second: 1 }, { first: 3 }])],
            [{ second: 2 }, new Box({ first: 4 }), new Box({ third: 5 })],
            new Box([{ third: 6 }, new Box({ fourth: 7 })]),
          ]);
        },
      );
    const ours = run("ours");
    assert.deepEqual(ours, run("theirs"));
    // the first nested buffer may not reference {first} (0x40, not saved yet): it defines it
    assert.equal(ours.nested[0].slice(0, 5), "d4 72");
    assert.deepEqual(new Unpackr().unpack(fromHex(ours.nested[0])), { first: 2 });
    assert.deepEqual(new Unpackr().unpack(fromHex(ours.nested[1])), [{ second: 1 }, { first: 3 }]);
    // every nested buffer decodes with the table saved before it was made, or the final one
    const table = ours.saves.at(-1)!;
    for (const nested of ours.nested) {
      assert.doesNotThrow(() =>
        new Unpackr({ structures: copyStructures(table) }).unpack(fromHex(nested))
      );
    }
  });

  test("Packr.pack() inside an extension without saveStructures matches msgpackr", () => {
    for (const options of [null, { structures: [] as Structure[] }]) {
      const run = (library: Library) =>
        runScenario(library, 0x54, options && { structures: [] }, (context, outcome) => {
          const { Box } = context;
          packAll(context, outcome, [
            [{ a: 1 }, new Box({ a: 2, b: 1 }), new Box([{ a: 5 }]), { a: 3 }],
            [new Box({ a: 6 }), { a: 7, b: 8 }, new Box(new Box({ c: 9 }))],
          ]);
        });
      const ours = run("ours");
      assert.deepEqual(ours, run("theirs"));
      if (options === null) {
        // no shared table: every nested buffer is self-contained
        assert.deepEqual(new Unpackr().unpack(fromHex(ours.nested[0])), { a: 2, b: 1 });
        assert.deepEqual(new Unpackr().unpack(fromHex(ours.nested[1])), [{ a: 5 }]);
        const outer = new Unpackr().unpack(fromHex(ours.outer[0]));
        assert.deepEqual(outer[0], { a: 1 });
        assert.deepEqual(outer[1].inner, { a: 2, b: 1 });
        assert.deepEqual(outer[3], { a: 3 });
      }
    }
  });

  test("Packr.pack() inside an extension may use another Packr, as msgpackr", () => {
    const run = (library: Library) => {
      const other = library === "ours" ? new Packr() : new msgpackr.Packr();
      return runScenario(library, 0x55, null, (context, outcome) => {
        packAll(context, outcome, [[{ a: 1 }, new context.Box({ a: 2 }), { a: 3 }]]);
      }, () => other);
    };
    const ours = run("ours");
    assert.deepEqual(ours, run("theirs"));
    assert.equal(ours.nested[0], "d4 72 40 91 a1 61 02");
  });

  test("Packr.pack() recovers after a nested pack throws, as msgpackr", () => {
    const run = (library: Library) =>
      runScenario(
        library,
        0x56,
        { structures: [], saveStructures: () => {} },
        (context, outcome) => {
          const { Box } = context;
          packAll(context, outcome, [
            [{ a: 1 }, new Box({ b: 2 })],
            [{ c: 1 }, new Box({ d: Symbol("no") })],
            [{ c: 2 }, new Box({ b: 3 }), new Box({ d: 4 })],
          ]);
        },
      );
    const ours = run("ours");
    assert.deepEqual(ours, run("theirs"));
    assert.equal(ours.outer[1], "error: Unknown type: symbol");
  });
});
