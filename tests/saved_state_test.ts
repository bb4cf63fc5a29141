// Copyright 2026 the @x/msgpackr authors. MIT license.
// The state a pack or a decode nested in another (an extension's pack, write, unpack or read
// calling pack or unpack again) saves and restores. Each side keeps that state in two places: the
// module-level variables that `saveHot` lists (read per value or per container) and one `session`
// object swapped as a whole. The first tests read the modules' source and check that every
// module-level `let` is one of the two or named below as needing no saving, so a variable added
// later cannot be forgotten; the others pack and decode around nested calls that use every part
// of that state (references, bundles, large binaries, extensions) and compare with the same
// values made without nesting.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { Packr, Unpackr } from "../mod.ts";
import { MAX_COMPILES_PER_DECODE } from "../_core/thresholds.ts";
import { compilesDuring } from "./_util.ts";

/** The module-level `let`s of a module's source, and the names `saveHot` returns. */
function stateOf(path: string): { lets: string[]; hot: string[] } {
  const source = readFileSync(new URL(path, import.meta.url), "utf8");
  const lets = [...source.matchAll(/^let (\w+)/gm)].map((match) => match[1]);
  const body = /^function saveHot\(\) \{\n(?:\s*\/\/.*\n)*\s*return \{([^}]*)\};\n\}/m.exec(source);
  assert.ok(body !== null, `${path}: saveHot returns one object literal`);
  const hot = body[1].split(",").map((name) => name.trim()).filter((name) => name !== "");
  return { lets, hot };
}

// Module-level variables that a nested call leaves valid for the outer one, with why.
const ENCODER_UNSAVED: Record<string, string> = {
  arena: "the shared buffer: a nested pack writes into a fresh one",
  arenaView: "the view of arena",
  writerCompiler: "installed once, not per pack",
  compilesLeft: "an allowance per outermost pack, shared by the packs nested in it",
  predictedWriters: "predictions: a writer checks its shape before writing",
  lastShapes: "predictions, as predictedWriters",
  lastWriter: "a prediction, as predictedWriters",
};
const DECODER_UNSAVED: Record<string, string> = {
  floatsBeforeView: "only decides when the outer decode makes its view",
  keptViewInput: "kept across decodes by design",
  keptViewLength: "kept across decodes by design",
  keptView: "kept across decodes by design",
  valueKey: "a prediction: the key's bytes are compared anyway",
  stackTop: "maps take and give back slots in nesting order",
  stackUsed: "it only rises until the outermost decode clears the value stack",
  stackNext: "set before each build, which reads no input",
  strictString: "installed once, not per decode",
  readMapAsMap: "installed once, not per decode",
  readInt64As: "installed once, not per decode",
  roundedFloat32: "installed once, not per decode",
  arrayKey: "installed once, not per decode",
  refuseIfDisabled: "installed once, not per decode",
  resolveRecordSlot: "installed once, not per decode",
  reloadForDispatcherSlot: "installed once, not per decode",
};

describe("the state a nested pack or decode saves", () => {
  for (
    const [side, path, unsaved] of [
      ["encoder", "../_encode/encoder.ts", ENCODER_UNSAVED],
      ["decoder", "../_decode/decoder.ts", DECODER_UNSAVED],
    ] as const
  ) {
    test(`every module-level variable of the ${side} is saved, the session, or needs no saving`, () => {
      const { lets, hot } = stateOf(path);
      assert.ok(lets.includes("session"), "one session object");
      assert.ok(hot.length >= 4, "the hot scalars are saved");
      for (const name of hot) assert.ok(lets.includes(name), `${name} is a module-level let`);
      for (const name of Object.keys(unsaved)) {
        assert.ok(lets.includes(name), `${name} is a module-level let`);
        assert.ok(!hot.includes(name), `${name} is not both saved and unsaved`);
      }
      const unlisted = lets.filter((name) =>
        name !== "session" && !hot.includes(name) && !Object.hasOwn(unsaved, name)
      );
      assert.deepEqual(unlisted, [], "each new module-level let is saved or named as unsaved");
    });
  }
});

// Codec modules besides the decoder and the encoder with module-level `let`s: process-wide state
// of no decode or pack, with what it is (docs/architecture.md). A module that adds one fails until
// it is named here; state of a decode or a pack belongs to the decoder's or the encoder's.
const PROCESS_WIDE: Record<string, string> = {
  "_core/code_cache.ts": "the first refusal of code generation, which holds for good",
};
const CODEC_FOLDERS = ["_core", "_decode", "_encode", "_format", "_records", "_stream", "_strings"];

describe("the state outside the decoder and the encoder", () => {
  test("no other codec module keeps a module-level let but the process-wide ones named", () => {
    const root = new URL("../", import.meta.url);
    const stateful: string[] = [];
    for (const folder of CODEC_FOLDERS) {
      for (const name of readdirSync(new URL(folder, root))) {
        const path = `${folder}/${name}`;
        if (
          !name.endsWith(".ts") || path === "_decode/decoder.ts" || path === "_encode/encoder.ts"
        ) {
          continue;
        }
        if (/^(export )?let /m.test(readFileSync(new URL(path, root), "utf8"))) stateful.push(path);
      }
    }
    assert.deepEqual(stateful.filter((path) => !Object.hasOwn(PROCESS_WIDE, path)), []);
  });

  test("decodes nested in one decode share its compile allowance", () => {
    const tag = `n${Date.now().toString(36)}`;
    // each nested message: 12 new record shapes, each read 8 times (enough to compile them all)
    const packr = new Packr();
    const nested = Array.from(
      { length: 6 },
      (_, message) =>
        packr.pack(Array.from({ length: 96 }, (_, i) => ({ [`${tag}_${message}_${i % 12}`]: i }))),
    );
    const outer = new Packr();
    outer.addExtension({ Class: Uint8Array, type: 46, pack: (bytes: Uint8Array) => bytes });
    const bytes = outer.pack(nested);
    const unpackr = new Unpackr();
    unpackr.addExtension({ type: 46, unpack: (payload) => unpackr.unpack(payload) });
    const { result, compiles } = compilesDuring(() => unpackr.unpack(bytes));
    assert.deepEqual((result as unknown[][])[5][95], { [`${tag}_5_11`]: 95 });
    assert.ok(compiles > 0, "the nested decodes compile");
    assert.ok(compiles <= MAX_COMPILES_PER_DECODE, `${compiles} compiles in one decode`);
  });
});

class Box {
  constructor(readonly inner: unknown) {}
}

/**
 * A value that uses every part of the pack state (repeated objects, strings to bundle, floats,
 * nesting), with `box` between an object and its repetition and before most strings.
 */
function richValue(tag: string, box: Box | null = null): Record<string, unknown> {
  const shared = { name: `shared ${tag}`, list: [1, 2, 3] };
  return {
    first: shared,
    box,
    again: shared,
    text: `some text to bundle ${tag} `.repeat(3),
    accents: `déjà vu ${tag}`,
    numbers: [1.5, -7, 2 ** 40, 255],
    nested: { deeper: { deepest: [shared, `end ${tag}`] } },
  };
}

const OPTION_SETS = [
  { structuredClone: true, bundleStrings: true },
  { structuredClone: true },
  { bundleStrings: true },
  {},
];

/** Boxes nested two deep, and an outer value holding them between its repeated objects. */
function boxes(): { value: unknown; inside: Box[] } {
  const deepest = new Box(richValue("deepest"));
  const middle = new Box(richValue("middle", deepest));
  const second = new Box([richValue("second"), new Uint8Array(0x5000).fill(2)]);
  const value = [new Uint8Array(0x5000).fill(1), richValue("outer", middle), second];
  return { value, inside: [deepest, second, middle] }; // innermost first
}

describe("a pack or decode nested in another leaves the outer one's state intact", () => {
  for (const options of OPTION_SETS) {
    const name = JSON.stringify(options);
    test(`Packr(${name}).pack() with an extension that packs again writes the unnested bytes`, () => {
      const packr = new Packr(options);
      packr.addExtension({ Class: Box, type: 45, pack: (box: Box) => packr.pack(box.inner) });
      // the same bytes without nesting: each box's bytes packed beforehand, innermost first
      const alone = new Packr(options);
      const packed = new Map<Box, Uint8Array>();
      alone.addExtension({ Class: Box, type: 45, pack: (box: Box) => packed.get(box)! });
      const { value, inside } = boxes();
      for (const box of inside) packed.set(box, alone.pack(box.inner));
      const expected = alone.pack(value);
      assert.deepEqual(packr.pack(value), expected);
      assert.deepEqual(packr.pack(value), expected, "and again after the nested packs");
    });

    test(`Unpackr(${name}).unpack() with an extension that decodes again reads the outer value`, () => {
      const packr = new Packr(options);
      packr.addExtension({ Class: Box, type: 45, pack: (box: Box) => packr.pack(box.inner) });
      const unpackr = new Unpackr(options);
      unpackr.addExtension({ type: 45, unpack: (bytes) => new Box(unpackr.unpack(bytes)) });
      const { value } = boxes();
      const decoded = unpackr.unpack(packr.pack(value)) as [unknown, Record<string, unknown>];
      assert.deepEqual(decoded, value);
      if (options.structuredClone) {
        assert.equal(decoded[1].again, decoded[1].first, "a reference after the nested decode");
        const middle = (decoded[1].box as Box).inner as Record<string, unknown>;
        assert.equal(middle.again, middle.first, "a reference inside the nested decode");
      }
    });
  }
});
