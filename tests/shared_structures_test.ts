// Copyright 2026 the @x/msgpackr authors. MIT license.
// Shared structures (docs/wire-format.md, "Two-byte ids", "Choosing ids", "Shared structures"): the
// `structures` option with up to 32, more than 32 and more than 256 shared shapes,
// shouldShareStructure, getStructures/saveStructures with the save-conflict protocol ("Saving and
// reloading"), and the two msgpackr two-byte-id decoder bugs that our decoder fixes. Encoders are
// fed the same sequence of packs as msgpackr's and must write the same bytes and end with the same
// structures.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { Packr, type PackrOptions, type Structure, Unpackr } from "../mod.ts";
import { fromHex, hex } from "./_util.ts";
import {
  copyStructures,
  distinctShapes,
  hexSteps,
  packBoth,
  packrPair,
  plainStructures,
  storeOptions,
  StructureStore,
  theirOptions,
  theirStructures,
} from "./_records.ts";

/** Objects of shapes rejected by the shouldShareStructure below carry a "tmp" key. */
const shareUnlessTmp = (keys: Structure) => !keys.includes("tmp");

describe("shared structures: the structures option", () => {
  const cases: { count: number; maxSharedStructures?: number }[] = [
    { count: 20 }, // ≤ 32, one-byte ids
    { count: 45 }, // default maximum 32: the rest become own structures 0x60..0x7f
    { count: 100, maxSharedStructures: 100 }, // > 32: two-byte ids
    { count: 400, maxSharedStructures: 400 }, // > 256: high bytes beyond 7
    { count: 300, maxSharedStructures: 100 }, // shared table full, two-byte own ids
  ];
  for (const { count, maxSharedStructures } of cases) {
    const label = `${count} shapes, maxSharedStructures ${maxSharedStructures ?? "default"}`;
    const options = (structures: Structure[]): PackrOptions =>
      maxSharedStructures === undefined ? { structures } : { structures, maxSharedStructures };

    test(`Packr({structures}) matches msgpackr's bytes and table (${label})`, () => {
      const ourTable: Structure[] = [];
      const theirTable: Structure[] = [];
      const pair = {
        ours: new Packr(options(ourTable)),
        theirs: new msgpackr.Packr(theirOptions(options(theirTable))),
      };
      const half = Math.floor(count / 2);
      const values = [
        distinctShapes(half),
        distinctShapes(count),
        [distinctShapes(3), { brandNew: 1, x: 2 }],
        distinctShapes(count),
        { single: true },
      ];
      const steps = packBoth(pair, values);
      const { ours, theirs } = hexSteps(steps);
      assert.deepEqual(ours, theirs);
      // the packers append to the array they were given, and end with the same table
      assert.equal(pair.ours.structures, ourTable);
      assert.deepEqual(plainStructures(ourTable), plainStructures(theirTable));
      const sharedCount = Math.min(count + 2, maxSharedStructures ?? 32);
      assert.equal(ourTable.length, sharedCount);
      // the last message only references shared shapes: no inline definition when all fit
      if (count + 2 <= (maxSharedStructures ?? 32)) {
        assert.ok(!ours[3].includes("d4 72") && !ours[3].includes("d5 72"));
      }

      // decoders: our Unpackr given the table directly (msgpackr cannot read ids ≥ 0x60 that
      // way, see the two-byte tests below), and both through getStructures
      const table = copyStructures(ourTable);
      const ourDirect = new Unpackr({ structures: copyStructures(table) });
      const ourLoaded = new Unpackr({ getStructures: () => copyStructures(table) });
      const theirLoaded = new msgpackr.Unpackr({ getStructures: () => copyStructures(table) });
      for (const step of steps) {
        assert.deepEqual(ourDirect.unpack(step.theirs), step.value);
        assert.deepEqual(ourLoaded.unpack(step.theirs), step.value);
        assert.deepEqual(theirLoaded.unpack(step.ours), step.value);
      }
    });
  }

  test("Unpackr sharing the structures array with a Packr reads each message as it is packed", () => {
    const structures: Structure[] = [];
    const packr = new Packr({ structures, maxSharedStructures: 300 });
    const unpackr = new Unpackr({ structures });
    for (let round = 0; round < 6; round++) {
      const value = distinctShapes(50, "k", round * 50);
      assert.deepEqual(unpackr.unpack(packr.pack(value)), value);
    }
    assert.equal(structures.length, 300);
  });

  test("Packr({maxSharedStructures: 8160}) writes ids up to 7f fe, as msgpackr", () => {
    const make = (): PackrOptions => ({ structures: [], maxSharedStructures: 8160 });
    const pair = packrPair(make);
    // numbers only: msgpackr's native string extraction misreads strings in such a large buffer
    const value = Array.from({ length: 8200 }, (_, i) => ({ [`k${i}`]: i }));
    const [step] = packBoth(pair, [value]);
    assert.equal(hex(step.ours), hex(step.theirs));
    assert.equal(pair.ours.structures.length, 8160);
    // shared slot 8159 (id 0x40 + 8159) is referenced as `7f fd`; own ids follow, wrapping at
    // 0x40 + 8192: the 32nd own shape is `d5 72 7f fe`
    assert.ok(hex(step.ours).includes("d5 72 7f fe"));
    const table = copyStructures(pair.ours.structures);
    const unpackr = new Unpackr({ structures: table, maxSharedStructures: 8160 });
    assert.deepEqual(unpackr.unpack(step.theirs), value);
    const theirs = new msgpackr.Unpackr({ getStructures: () => copyStructures(table) });
    assert.deepEqual(theirs.unpack(step.ours), value);
  });

  test("Packr() rejects maxSharedStructures above 8160 and too many structures, as msgpackr", () => {
    for (
      const options of [
        { maxSharedStructures: 8161 },
        { maxSharedStructures: 8000, maxOwnStructures: 200 },
      ]
    ) {
      let theirMessage = "";
      assert.throws(() => new msgpackr.Packr({ ...options }), (error: Error) => {
        theirMessage = error.message;
        return true;
      });
      assert.throws(() => new Packr({ ...options }), { message: theirMessage });
    }
  });

  test("Packr.pack() rejects a loaded table longer than maxSharedStructures, as msgpackr", () => {
    const stored = distinctShapes(40).map((object) => Object.keys(object));
    const make = (): PackrOptions => ({ getStructures: () => copyStructures(stored) });
    let theirMessage = "";
    assert.throws(() => new msgpackr.Packr(theirOptions(make())).pack({ a: 1 }), (error: Error) => {
      theirMessage = error.message;
      return true;
    });
    assert.match(theirMessage, /try increasing maxSharedStructures to 40/);
    assert.throws(() => new Packr(make()).pack({ a: 1 }), { message: theirMessage });
  });
});

describe("shared structures: shouldShareStructure", () => {
  const values = [
    [{ a: 1 }, { tmp: 1 }, { b: 2 }, { tmp: 2 }],
    [{ tmp: 3, a: 1 }, { a: 2 }, { tmp: 4 }],
    { b: 1, nested: { tmp: 5 } },
  ];

  for (const maxSharedStructures of [undefined, 100]) {
    test(
      `Packr({shouldShareStructure}) keeps rejected shapes inline, as msgpackr (max ${
        maxSharedStructures ?? "default"
      })`,
      () => {
        const calls: { ours: string[][]; theirs: string[][] } = { ours: [], theirs: [] };
        const make = (log: string[][]) => (): PackrOptions => {
          const options: PackrOptions = {
            structures: [],
            shouldShareStructure: (keys) => {
              log.push([...keys]);
              return shareUnlessTmp(keys);
            },
          };
          if (maxSharedStructures !== undefined) options.maxSharedStructures = maxSharedStructures;
          return options;
        };
        const pair = {
          ours: new Packr(make(calls.ours)()),
          theirs: new msgpackr.Packr(theirOptions(make(calls.theirs)())),
        };
        const steps = packBoth(pair, values);
        const { ours, theirs } = hexSteps(steps);
        assert.deepEqual(ours, theirs);
        assert.deepEqual(calls.ours, calls.theirs);
        assert.deepEqual(plainStructures(pair.ours.structures), [["a"], ["b"], ["b", "nested"]]);
        assert.deepEqual(
          plainStructures(pair.ours.structures),
          plainStructures(theirStructures(pair.theirs)),
        );
        const table = plainStructures(pair.ours.structures);
        for (const step of steps) {
          const unpackr = new Unpackr({ structures: copyStructures(table) });
          assert.deepEqual(unpackr.unpack(step.theirs), step.value);
          assert.deepEqual(unpackr.unpack(step.ours), step.value);
          const theirUnpackr = new msgpackr.Unpackr({ getStructures: () => copyStructures(table) });
          if (maxSharedStructures === undefined) {
            // with 100 shared slots msgpackr cannot read its own references to these (bug 2)
            assert.deepEqual(theirUnpackr.unpack(step.ours), step.value);
          }
        }
      },
    );
  }

  test("Packr({shouldShareStructure}) defines a rejected shape with an own id (0x60)", () => {
    const packr = new Packr({ structures: [], shouldShareStructure: shareUnlessTmp });
    assert.equal(hex(packr.pack([{ tmp: 1 }, { tmp: 2 }])), "92 d4 72 60 91 a3 74 6d 70 01 60 02");
    assert.deepEqual(packr.structures, []);
  });
});

/** A library's Packr, as far as these tests use it. */
interface AnyPackr {
  pack(value: unknown): Uint8Array;
}
type Library = "ours" | "theirs";

function makePackr(library: Library, options: PackrOptions): AnyPackr {
  return library === "ours" ? new Packr(options) : new msgpackr.Packr(theirOptions(options));
}

/** Every pack of a scenario, with its value, and the store after it. */
interface Scenario {
  packs: { value: unknown; bytes: string }[];
  store: StructureStore;
}

/**
 * Two Packrs ("processes") sharing one store, packing in turns, so that most saves meet a table
 * the other one saved meanwhile. `decline` says how a save notices: through `isCompatible` (which
 * also merges the newer table) or by comparing a version the Packr's `getStructures` saw.
 */
function conflictScenario(library: Library, decline: "isCompatible" | "version"): Scenario {
  const store = new StructureStore();
  const packrs: AnyPackr[] = [];
  for (let i = 0; i < 2; i++) {
    if (decline === "isCompatible") {
      packrs.push(makePackr(library, storeOptions(store)));
      continue;
    }
    let seenVersion = -1;
    packrs.push(makePackr(library, {
      getStructures: () => {
        seenVersion = store.version;
        return store.load();
      },
      saveStructures: (structures) => {
        if (store.version !== seenVersion) {
          store.declined++;
          return false;
        }
        store.save(structures);
        seenVersion = store.version;
      },
    }));
  }
  const [a, b] = packrs;
  const turns: [AnyPackr, unknown][] = [
    [a, 0], // both load the empty store
    [b, 0],
    [a, { a: 1 }], // a → 0x40, saved
    [b, { b: 1 }], // b made 0x40 too: declined, reloaded, b → 0x41
    [a, [{ b: 2 }, { c: 3 }]], // a knows only [a]: declined, b is 0x41, c → 0x42
    [b, [{ c: 4 }, { d: 5 }, { a: 6 }]], // b knows [a, b]: declined, d → 0x43
    [a, { d: 7, e: 8 }],
    [a, { d: 9 }], // already known: no save
    [b, [{ d: 10, e: 11 }, { f: 12 }]],
    [a, [{ f: 13 }, { g: 14 }, { b: 15 }]],
    [b, { g: 16 }],
  ];
  const packs = turns.map(([packr, value]) => ({ value, bytes: hex(packr.pack(value)) }));
  return { packs, store };
}

describe("shared structures: getStructures and saveStructures", () => {
  test("Packr({getStructures, saveStructures}) persists, reloads and reads back, as msgpackr", () => {
    const values = [[{ a: 1 }, { b: 2 }], { a: 3 }, [{ c: 4 }, { a: 5, b: 6 }], { b: 7 }];
    const results = (["ours", "theirs"] as const).map((library) => {
      const store = new StructureStore();
      const first = makePackr(library, storeOptions(store));
      const bytes = values.map((value) => hex(first.pack(value)));
      const counts = [store.loads, store.saves];
      // a second process starts from the stored table: same bytes, nothing new to save
      const second = makePackr(library, storeOptions(store));
      const again = values.map((value) => hex(second.pack(value)));
      return { bytes, again, counts, saves: store.saves, table: store.peek() };
    });
    const [ours, theirs] = results;
    assert.deepEqual(ours, theirs);
    assert.deepEqual(ours.table, [["a"], ["b"], ["c"], ["a", "b"]]);
    assert.deepEqual(ours.again, ours.bytes);
    assert.equal(ours.saves, 2);
    const store = ours.table;
    for (const [i, value] of values.entries()) {
      const unpackr = new Unpackr({ getStructures: () => copyStructures(store) });
      assert.deepEqual(unpackr.unpack(fromHex(theirs.bytes[i])), value);
      const theirUnpackr = new msgpackr.Unpackr({ getStructures: () => copyStructures(store) });
      assert.deepEqual(theirUnpackr.unpack(fromHex(ours.bytes[i])), value);
    }
  });

  test("saveStructures gets the table and an isCompatible that merges a newer one, as msgpackr", () => {
    const run = (library: Library) => {
      let stored: Structure[] = [["x"], ["y"]];
      const seen: { table: string[][]; absent: boolean; compatible: boolean }[] = [];
      const packr = makePackr(library, {
        structures: [],
        saveStructures: (structures, isCompatible) => {
          const compatible = isCompatible(copyStructures(stored));
          seen.push({
            table: plainStructures(structures),
            absent: isCompatible(undefined),
            compatible,
          });
          if (!compatible) return false;
          stored = plainStructures(structures);
        },
      });
      return { bytes: hex(packr.pack({ a: 1 })), seen, stored };
    };
    const ours = run("ours");
    assert.deepEqual(ours, run("theirs"));
    // the first save met [x, y]: declined, merged, and {a} packed again as 0x42 and saved
    assert.deepEqual(ours, {
      bytes: "42 01",
      seen: [
        { table: [["a"]], absent: true, compatible: false },
        { table: [["x"], ["y"], ["a"]], absent: true, compatible: true },
      ],
      stored: [["x"], ["y"], ["a"]],
    });
  });

  for (const decline of ["isCompatible", "version"] as const) {
    test(`two Packrs sharing one store never corrupt it (conflicts seen by ${decline})`, () => {
      const ours = conflictScenario("ours", decline);
      const theirs = conflictScenario("theirs", decline);
      assert.deepEqual(ours.packs.map((p) => p.bytes), theirs.packs.map((p) => p.bytes));
      const table = ours.store.peek();
      assert.deepEqual(table, [["a"], ["b"], ["c"], ["d"], ["d", "e"], ["f"], ["g"]]);
      assert.deepEqual(theirs.store.peek(), table);
      assert.deepEqual(
        [ours.store.saves, ours.store.declined, ours.store.loads],
        [theirs.store.saves, theirs.store.declined, theirs.store.loads],
      );
      assert.ok(ours.store.declined >= 4);
      // every buffer ever returned decodes with a fresh decoder of the final stored table
      for (const { value, bytes } of [...ours.packs, ...theirs.packs]) {
        const unpackr = new Unpackr({ getStructures: () => ours.store.peek() });
        assert.deepEqual(unpackr.unpack(fromHex(bytes)), value);
        const theirUnpackr = new msgpackr.Unpackr({ getStructures: () => ours.store.peek() });
        assert.deepEqual(theirUnpackr.unpack(fromHex(bytes)), value);
      }
    });
  }

  test("a saveStructures that throws rolls back; the next pack reloads and works, as msgpackr", () => {
    const run = (library: Library) => {
      const store = new StructureStore();
      let failNext = false;
      const options = storeOptions(store);
      const save = options.saveStructures!;
      const packr = makePackr(library, {
        ...options,
        saveStructures: (structures, isCompatible) => {
          if (failNext) {
            failNext = false;
            throw new Error("disk full");
          }
          return save(structures, isCompatible);
        },
      });
      const log: string[] = [hex(packr.pack({ a: 1 }))];
      failNext = true;
      assert.throws(() => packr.pack([{ b: 1 }, { c: 1 }]), { message: "disk full" });
      log.push(hex(packr.pack({ c: 2 })), hex(packr.pack([{ b: 3 }, { a: 4 }])));
      return { log, table: store.peek(), loads: store.loads };
    };
    const ours = run("ours");
    assert.deepEqual(ours, run("theirs"));
    assert.deepEqual(ours.log, ["40 01", "41 02", "92 42 03 40 04"]);
    assert.deepEqual(ours.table, [["a"], ["c"], ["b"]]);
    for (const [i, value] of [{ a: 1 }, { c: 2 }, [{ b: 3 }, { a: 4 }]].entries()) {
      const unpackr = new Unpackr({ getStructures: () => copyStructures(ours.table) });
      assert.deepEqual(unpackr.unpack(fromHex(ours.log[i])), value);
    }
  });

  test("a saveStructures that throws rolls the structures array back (no getStructures)", () => {
    const run = (library: Library) => {
      const structures: Structure[] = [];
      let fail = false;
      const packr = makePackr(library, {
        structures,
        saveStructures: () => {
          if (fail) throw new Error("no");
        },
      });
      const log = [hex(packr.pack({ a: 1 }))];
      fail = true;
      assert.throws(() => packr.pack({ b: 1 }), { message: "no" });
      const afterThrow = plainStructures(structures);
      fail = false;
      log.push(hex(packr.pack([{ b: 2 }, { a: 3 }])));
      return { log, afterThrow, table: plainStructures(structures) };
    };
    const ours = run("ours");
    assert.deepEqual(ours, run("theirs"));
    assert.deepEqual(ours.afterThrow, [["a"]]);
    assert.deepEqual(ours.log, ["40 01", "92 41 02 40 03"]);
    assert.deepEqual(ours.table, [["a"], ["b"]]);
  });
});

describe("shared structures: two-byte ids (msgpackr decoder bugs)", () => {
  test("Unpackr({structures}) given more than 32 shared structures reads ids ≥ 0x60 (bug 1)", () => {
    const structures: Structure[] = [];
    const value = distinctShapes(40);
    const bytes = new msgpackr.Packr({ structures, maxSharedStructures: 100 }).pack(value);
    assert.ok(hex(bytes).includes("60 00 20 a3 76 33 32")); // slot 32 referenced as `60 00`
    const table = copyStructures(structures);
    // msgpackr: the slot-32 reference decodes as the integer 0x60 and the stream is misparsed
    assert.throws(
      () => new msgpackr.Unpackr({ structures: copyStructures(table) }).unpack(bytes),
      /Data read, but end of buffer not reached/,
    );
    assert.deepEqual(new Unpackr({ structures: copyStructures(table) }).unpack(bytes), value);
    const viaOurPackr = new Packr({ structures: [], maxSharedStructures: 100 }).pack(value);
    assert.equal(hex(viaOurPackr), hex(bytes));
    assert.deepEqual(new Unpackr({ structures: copyStructures(table) }).unpack(viaOurPackr), value);
  });

  test("Unpackr.unpack() reads a two-byte definition whose low slot is empty (bug 2)", () => {
    const make = (): PackrOptions => ({
      structures: [],
      maxSharedStructures: 100,
      shouldShareStructure: (keys) => keys[0] !== "no",
    });
    const value = [{ no: 1 }, { yes: 1 }, { no: 2 }];
    const theirPackr = new msgpackr.Packr(theirOptions(make()));
    const bytes = theirPackr.pack(value);
    // {no} is an own structure at id 0xa4: defined as `d5 72 64 02`, then referenced as `64 02`
    assert.equal(hex(bytes), "93 d5 72 64 02 91 a2 6e 6f 01 40 01 64 02 02");
    // msgpackr cannot read it back, not even with the Packr that wrote it
    assert.throws(() => theirPackr.unpack(bytes), /Data read, but end of buffer not reached/);
    assert.deepEqual(new Unpackr({ structures: [["yes"]] }).unpack(bytes), value);
    assert.deepEqual(
      new Unpackr({ structures: [["yes"]], maxSharedStructures: 100 }).unpack(bytes),
      value,
    );
    // and the Packr side of our decoder, once it knows the shared {yes}
    const ourPackr = new Packr(make());
    ourPackr.pack({ yes: 0 });
    assert.deepEqual(ourPackr.unpack(bytes), value);
  });

  test("Unpackr.unpack() reads hand-written two-byte ids with an empty low slot", () => {
    // slot 32 + 4 + 32·2 = 100 defined inline, slot 36 empty: `64 02` must reach slot 100 and a
    // later message must not see the definition
    const unpackr = new Unpackr();
    assert.deepEqual(unpackr.unpack(fromHex("92 d5 72 64 02 91 a1 6b 01 64 02 02")), [{ k: 1 }, {
      k: 2,
    }]);
    assert.equal(unpackr.unpack(fromHex("64")), 100);
    assert.throws(() => unpackr.unpack(fromHex("92 d5 72 64 02 91 a1 6b 01 64 03 02")), {
      name: "DecodeError",
      message: /Record id is not defined for 132/,
    });
  });

  test("Unpackr.unpack() restores a shared slot that a message redefined (msgpackr leaks it)", () => {
    const redefine = fromHex("d4 72 40 91 a1 62 02");
    const reference = fromHex("40 05");
    const ours = new Unpackr({ structures: [["a"]] });
    assert.deepEqual(ours.unpack(redefine), { b: 2 });
    assert.deepEqual(ours.unpack(reference), { a: 5 });
    const theirs = new msgpackr.Unpackr({ structures: [["a"]] });
    assert.deepEqual(theirs.unpack(redefine), { b: 2 });
    assert.deepEqual(theirs.unpack(reference), { b: 5 });
  });
});
