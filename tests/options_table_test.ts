// Copyright 2026 the @x/msgpackr authors. MIT license.
// The option table (_core/option_table.ts) against what it drives: each `@default` documented in
// _core/options.ts is the table's default (read from the source text); and for every row, an
// option assigned to an instance after construction (`Packr` for encoder options, `Unpackr` and
// `Packr` for decoder ones) changes the next `pack` or `unpack` exactly as if it had been given
// to the constructor when the row says LIVE, and otherwise throws the documented TypeError and
// changes nothing. Every row must have a probe here: a new option fails this test until it has
// one. Reading an option gives it as given or last assigned (docs/migrating-from-msgpackr.md,
// "Options assigned after construction").

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { pack, Packr, type PackrOptions, unpack, Unpackr } from "../mod.ts";
import { DECODER, ENCODER, LIVE, OPTIONS } from "../_core/option_table.ts";
import { compilesDuring, fromHex, hex } from "./_util.ts";

// deno-lint-ignore no-explicit-any
type Any = any;
type Name = keyof typeof OPTIONS;
const NAMES = Object.keys(OPTIONS) as Name[];

// ---- the documented defaults ---------------------------------------------------------------

/** The `@default` text of each documented option of options.ts, by option name. */
function documentedDefaults(): Map<string, string> {
  const source = readFileSync(new URL("../_core/options.ts", import.meta.url), "utf8");
  const defaults = new Map<string, string>();
  for (const [, comment, name] of source.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*(\w+)\?:/g)) {
    const text = comment.split("\n").map((line) => line.replace(/^\s*\*\s?/, "")).join("\n");
    const tag = /@default\s+([\s\S]*?)(?=\n@|\s*$)/.exec(text);
    if (tag !== null) defaults.set(name, tag[1].replace(/\s+/g, " ").trim());
  }
  return defaults;
}

/** Every field the option types document (a JSDoc comment before `name?:`). */
function documentedOptions(): string[] {
  const source = readFileSync(new URL("../_core/options.ts", import.meta.url), "utf8");
  return [...source.matchAll(/\*\/\s*(\w+)\?:/g)].map(([, name]) => name);
}

/** The table's default for `settings` (its function of the other settings, or its constant). */
function tableDefault(name: Name, settings: PackrOptions = {}): unknown {
  const fallback = (OPTIONS[name] as readonly unknown[])[1];
  return typeof fallback === "function" ? fallback(settings) : fallback;
}

/**
 * Defaults that depend on other options, with the documented text they must keep (a changed
 * text fails until its cases are read again) and the cases it states. `check` tests a clause
 * that another mechanism than the table's default carries.
 */
const CONDITIONAL_DEFAULTS: Record<
  string,
  { text: string; cases: [PackrOptions, unknown][]; check?: () => void }
> = {
  useRecords: {
    text: "{true} for `Packr`/`Unpackr`, `false` for the exported `pack`/`unpack`",
    cases: [],
    // the classes choose it, not the table: records from a Packr, maps from `pack`; a map is an
    // object from `unpack` (useRecords: false) and a Map from an Unpackr (mapsAsObjects: false)
    check() {
      assert.equal(hex(new Packr().pack({ a: 1 })), "d4 72 40 91 a1 61 01");
      assert.equal(hex(pack({ a: 1 })), "de 00 01 a1 61 01");
      assert.ok(new Unpackr().unpack(fromHex("81 a1 61 01")) instanceof Map);
      assert.deepEqual(unpack(fromHex("81 a1 61 01")), { a: 1 });
    },
  },
  useInt64: {
    text: "{false}, or `true` with `canonical`",
    cases: [[{}, false]],
    // `canonical` turns it on unless it is given (`_encode/packer.ts`)
    check() {
      assert.equal(hex(new Packr({ canonical: true }).pack(2 ** 40)), "cf 00 00 01 00 00 00 00 00");
      assert.equal(
        hex(new Packr({ canonical: true, useInt64: false }).pack(2 ** 40)).slice(0, 2),
        "cb",
      );
    },
  },
  mapsAsObjects: {
    text: "{true} when `useRecords: false` is given, otherwise `false`",
    cases: [[{ useRecords: false }, true], [{}, false], [{ useRecords: true }, false]],
  },
  trusted: {
    text: "{false}, or `true` with `sequential`",
    cases: [[{}, false]],
    // `sequential` keeps definitions through the decode context (`keepDefinitions`)
    check() {
      const definition = new Packr({ sequential: true }).pack({ tr: 1 });
      for (const [options, kept] of [[{ sequential: true }, true], [{ structures: [] }, false]]) {
        const unpackr = new Unpackr(options as PackrOptions);
        unpackr.unpack(definition);
        const next = attempt(() => unpackr.unpack(fromHex("40 02")));
        assert.equal(next === show({ tr: 2 }), kept, `${JSON.stringify(options)}: ${next}`);
      }
    },
  },
  maxSharedStructures: {
    text: "{32} with `structures`, `getStructures` or `saveStructures`, else 0",
    cases: [
      [{ structures: [] }, 32],
      [{ getStructures: () => [] }, 32],
      [{ saveStructures: () => {} }, 32],
      [{}, 0],
    ],
  },
  moreTypes: {
    text: "{false}, or `true` with `structuredClone`",
    cases: [[{}, false], [{ structuredClone: true }, true], [{ structuredClone: false }, false]],
  },
  maxOwnStructures: {
    text: "{32} with shared structures or `sequential`, else 64",
    cases: [
      [{ structures: [] }, 32],
      [{ getStructures: () => [] }, 32],
      [{ saveStructures: () => {} }, 32],
      [{ sequential: true }, 32],
      [{}, 64],
    ],
  },
};

/** Rows with a default that options.ts does not document, and why. */
const UNDOCUMENTED_DEFAULTS: Record<string, string> = {
  int64AsNumber: "deprecated: its documentation points to int64AsType",
};

describe("the documented defaults are the table's", () => {
  const documented = documentedDefaults();

  test("options.ts documents exactly the table's options", () => {
    assert.deepEqual(documentedOptions().sort(), [...NAMES].sort());
    assert.ok(documented.size > 25, `${documented.size} @default tags found`);
  });

  for (const name of NAMES) {
    test(name, () => {
      const text = documented.get(name);
      const conditional = CONDITIONAL_DEFAULTS[name];
      if (conditional !== undefined) {
        assert.equal(text, conditional.text, "the documented default (read its cases again)");
        for (const [settings, expected] of conditional.cases) {
          assert.equal(tableDefault(name, settings), expected, JSON.stringify(settings));
        }
        conditional.check?.();
        return;
      }
      if (text === undefined) {
        // no documented default: none in the table either, unless it is explained
        if (!(name in UNDOCUMENTED_DEFAULTS)) assert.equal(tableDefault(name), undefined);
        return;
      }
      const value = /^\{(.*)\}$/.exec(text);
      assert.ok(value !== null, `"@default ${text}" is one {value}, or a conditional default`);
      assert.deepEqual(tableDefault(name), JSON.parse(value[1]));
    });
  }
});

// ---- assigning options after construction --------------------------------------------------

/** A value as text, for comparing behaviour: Maps, bigints, undefined and bytes included. */
function show(value: unknown): string {
  if (value instanceof Uint8Array) return `bytes ${hex(value)}`;
  if (value instanceof Map) return `Map ${show([...value])}`;
  return JSON.stringify(
    value,
    (_, item) =>
      typeof item === "bigint"
        ? `${item}n`
        : item === undefined
        ? "undefined"
        : item instanceof Map
        ? show(item)
        : item,
  ) ?? "undefined";
}

/** What `action` gives, shown, or the error it throws. */
function attempt(action: () => unknown): string {
  try {
    return show(action());
  } catch (error) {
    return `throws ${error instanceof Error ? `${error.name}: ${error.message}` : error}`;
  }
}

/** Arrays nested `depth` deep around 1. */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

let fresh = 0;
/** A property name no other probe uses (so that no shape or reader is known already). */
function freshKey(): string {
  return `opt${fresh++}`;
}

/**
 * How an option shows on one side: the instance's constructor options, the value assigned (one
 * that changes the behaviour), and what the instance does (`observe`, called on it several times:
 * it must give the same text each time while the option stays as it is).
 */
interface SideProbe {
  /** The constructor options (made again for each instance: a structures table grows). */
  base?: () => PackrOptions;
  /** The value given or assigned (unless `fresh`). */
  value: unknown;
  /** Makes the value for each use instead, when one must not be shared (a table grows). */
  fresh?: () => unknown;
  observe: (instance: Any) => string;
  /**
   * The option has no effect on this side (the table lists it, the side never reads it): the
   * observation is the same with and without it.
   */
  noEffect?: string;
}

interface Probe {
  encode?: SideProbe;
  decode?: SideProbe;
}

const cloned = new Packr({ structuredClone: true });
const shared = { sh: 1 };
const REFERENCES = cloned.pack([shared, shared]);
const FLOAT32_TENTH = fromHex("ca 3d cc cc cd"); // 0.1 as float32
const INT64_NINE = fromHex("d3 00 00 00 00 00 00 00 09");

/** Whether a pack of an object of a fresh shape defines a record inline ("d4 72"). */
function inlineDefinition(packr: Packr): string {
  const bytes = packr.pack({ [freshKey()]: 1 });
  if (bytes[0] === 0xd4) return "an inline definition";
  return bytes[0] >= 0x40 && bytes[0] < 0x80 ? "a shared id" : `a map (${hex(bytes)})`;
}

/** Decodes records of a fresh shape; whether a record reader was generated meanwhile. */
function compilesReader(unpackr: Unpackr): string {
  const key = freshKey();
  const bytes = new Packr().pack(Array.from({ length: 20 }, (_, i) => ({ [key]: i, b: i })));
  return compilesDuring(() => unpackr.unpack(bytes)).compiles > 0 ? "compiled" : "interpreted";
}

/** The probe of every option, by name. */
const PROBES: Record<Name, Probe> = {
  useRecords: {
    encode: { value: false, observe: (p) => hex(p.pack({ ur: 1 })) },
    // a decoder reads records whatever it says; false makes maps objects by default
    decode: { value: false, observe: (u) => attempt(() => u.unpack(fromHex("81 a1 61 01"))) },
  },
  mapsAsObjects: {
    decode: { value: true, observe: (u) => attempt(() => u.unpack(fromHex("81 a1 61 01"))) },
  },
  structures: {
    // a Packr made without a table shares none (maxSharedStructures 0): one made with one
    encode: {
      base: () => ({ structures: [] }),
      value: null,
      fresh: () => [["st"], ["sz"]],
      observe: (p) => hex(p.pack({ sz: 1 })),
    },
    decode: {
      value: null,
      fresh: () => [["st"]],
      observe: (u) => attempt(() => u.unpack(fromHex("92 40 01"))),
    },
  },
  getStructures: {
    encode: { value: () => [["gs"]], observe: (p) => hex(p.pack({ gs: 1 })) },
    decode: { value: () => [["gs"]], observe: (u) => attempt(() => u.unpack(fromHex("92 40 01"))) },
  },
  sequential: {
    encode: {
      value: true,
      observe: (p) => {
        const key = freshKey();
        p.pack({ [key]: 1 });
        return p.pack({ [key]: 2 })[0] === 0xd4 ? "defined again" : "referred to";
      },
    },
    decode: {
      value: true,
      observe: (u) => {
        u.unpack(new Packr().pack({ sq: 1 }));
        return attempt(() => u.unpack(fromHex("40 02")));
      },
    },
  },
  trusted: {
    decode: {
      base: () => ({ structures: [] }),
      value: true,
      observe: (u) => {
        u.unpack(new Packr().pack({ [freshKey()]: 1 }));
        return attempt(() => Object.values(u.unpack(fromHex("40 02"))));
      },
    },
  },
  maxSharedStructures: {
    encode: { base: () => ({ structures: [] }), value: 0, observe: inlineDefinition },
    decode: {
      base: () => ({ structures: [] }),
      value: 0,
      observe: (u) => attempt(() => u.unpack(fromHex("92 40 01"))),
      noEffect: "decoders read shared structures whatever it says (as msgpackr's)",
    },
  },
  useFloat32: {
    encode: { value: 1, observe: (p) => hex(p.pack(1.5)) },
    decode: { value: 3, observe: (u) => attempt(() => u.unpack(FLOAT32_TENTH)) },
  },
  int64AsType: {
    decode: { value: "string", observe: (u) => attempt(() => u.unpack(INT64_NINE)) },
  },
  int64AsNumber: {
    decode: { value: true, observe: (u) => attempt(() => u.unpack(INT64_NINE)) },
  },
  timestamps: {
    decode: {
      value: "timestamp",
      observe: (u) =>
        attempt(() => String(u.unpack(fromHex("d6 ff 00 00 00 01")).constructor.name)),
    },
  },
  copyBuffers: {
    decode: {
      value: true,
      observe: (u) => {
        const source = fromHex("c4 02 01 02");
        return u.unpack(source).buffer === source.buffer ? "a view" : "a copy";
      },
    },
  },
  structuredClone: {
    encode: { value: true, observe: (p) => hex(p.pack([shared, shared])) },
    decode: {
      value: false,
      observe: (u) =>
        attempt(() => {
          const [a, b] = u.unpack(REFERENCES);
          return a === b ? "one object" : "two";
        }),
    },
  },
  plainDataOnly: {
    decode: {
      value: true,
      observe: (u) =>
        attempt(() => {
          const [a, b] = u.unpack(REFERENCES);
          return a === b ? "one object" : "two";
        }),
    },
  },
  moreTypes: {
    encode: { value: true, observe: (p) => hex(p.pack(new Int16Array([1]))) },
  },
  bundleStrings: {
    encode: {
      base: () => ({ useRecords: false }),
      value: true,
      observe: (p) => hex(p.pack({ bs: "a string of some length" })),
    },
  },
  freezeData: {
    decode: { value: true, observe: (u) => String(Object.isFrozen(u.unpack(fromHex("91 01")))) },
  },
  allowArraysInMapKeys: {
    decode: {
      base: () => ({ mapsAsObjects: true }),
      value: true,
      observe: (u) => attempt(() => u.unpack(fromHex("81 92 01 02 03"))),
    },
  },
  fatal: {
    decode: { value: true, observe: (u) => attempt(() => u.unpack(fromHex("a1 ff"))) },
  },
  maxDepth: {
    encode: { value: 3, observe: (p) => attempt(() => p.pack(nested(5))) },
    decode: { value: 3, observe: (u) => attempt(() => u.unpack(pack(nested(5)))) },
  },
  compileRecordReaders: {
    decode: { value: false, observe: compilesReader },
  },
  saveStructures: {
    encode: { value: () => {}, observe: inlineDefinition },
  },
  shouldShareStructure: {
    encode: { base: () => ({ structures: [] }), value: () => false, observe: inlineDefinition },
  },
  maxOwnStructures: {
    encode: { value: 0, observe: inlineDefinition },
  },
  useTimestamp32: {
    encode: { value: true, observe: (p) => hex(p.pack(new Date(1500))) },
  },
  useInt64: {
    encode: { value: true, observe: (p) => hex(p.pack(2 ** 40)) },
  },
  canonical: {
    encode: { value: true, observe: (p) => hex(p.pack({ b: 1, a: 2 ** 40 })) },
  },
  onInvalidDate: {
    encode: { value: () => "invalid", observe: (p) => hex(p.pack(new Date(NaN))) },
  },
  encodeUndefinedAsNil: {
    encode: { value: true, observe: (p) => hex(p.pack(undefined)) },
  },
  variableMapSize: {
    encode: {
      base: () => ({ useRecords: false }),
      value: true,
      observe: (p) => hex(p.pack({ a: 1 })),
    },
  },
  coercibleKeyAsNumber: {
    encode: {
      base: () => ({ useRecords: false }),
      value: true,
      observe: (p) => hex(p.pack({ 1: 2 })),
    },
  },
  skipValues: {
    encode: {
      base: () => ({ useRecords: false }),
      value: [undefined],
      observe: (p) => hex(p.pack({ a: undefined, b: 1 })),
    },
  },
  writeFunction: {
    encode: { value: () => "fn", observe: (p) => hex(p.pack(() => 1)) },
  },
  useToJSON: {
    encode: {
      base: () => ({ useRecords: false }),
      value: false,
      observe: (p) =>
        hex(p.pack(
          new (class Json {
            j = 1;
            toJSON = () => "json";
          })(),
        )),
    },
  },
  mapAsEmptyObject: {
    encode: { value: true, observe: (p) => hex(p.pack(new Map([[1, 2]]))) },
  },
  setAsEmptyObject: {
    encode: { value: true, observe: (p) => hex(p.pack(new Set([1]))) },
  },
  largeBigIntToFloat: {
    encode: { value: true, observe: (p) => attempt(() => p.pack(2n ** 70n)) },
  },
  largeBigIntToString: {
    encode: { value: true, observe: (p) => attempt(() => p.pack(2n ** 70n)) },
  },
  useBigIntExtension: {
    encode: { value: true, observe: (p) => attempt(() => p.pack(2n ** 70n)) },
  },
};

/**
 * Rows that are not LIVE but whose class defines an accessor of its own, with what assigning
 * does: `structures` (docs/migrating-from-msgpackr.md: "every structure of the table is shared,
 * for packing and unpacking, as if given to the constructor").
 */
const CLASS_ACCESSORS = new Set<Name>(["structures"]);

/** Checks one side of an option on instances of `Class`. */
function checkSide(
  name: Name,
  live: boolean,
  probe: SideProbe,
  Class: typeof Packr | typeof Unpackr,
): void {
  const label = `${Class.name}.${name}`;
  const baseOf = probe.base ?? (() => ({}));
  const base = baseOf();
  const value = () => (probe.fresh === undefined ? probe.value : probe.fresh());
  const instance = new Class(base) as Any;
  const before = probe.observe(instance);
  assert.equal(probe.observe(instance), before, `${label}: the probe observes the same twice`);
  const constructed = probe.observe(new Class({ ...baseOf(), [name]: value() }));
  if (probe.noEffect !== undefined) {
    assert.equal(constructed, before, `${label} has no effect here: ${probe.noEffect}`);
  } else {
    assert.notEqual(constructed, before, `${label}: the probe sees the option (${before})`);
  }
  if (CLASS_ACCESSORS.has(name)) {
    const assigned = value();
    instance[name] = assigned;
    assert.equal(probe.observe(instance), constructed, `${label} assigned: as if given`);
    assert.equal(instance[name], assigned, `${label} reads as assigned`);
    return;
  }
  assert.equal(instance[name], (base as Any)[name], `${label} reads as given`);
  if (live) {
    const assigned = value();
    instance[name] = assigned;
    assert.equal(probe.observe(instance), constructed, `${label} assigned: as if given`);
    assert.equal(instance[name], assigned, `${label} reads as assigned`);
    // and back: as without it again
    instance[name] = (base as Any)[name];
    assert.equal(probe.observe(instance), before, `${label} assigned back`);
    assert.equal(instance[name], (base as Any)[name], `${label} reads as assigned back`);
  } else {
    const className = Class.name;
    assert.throws(() => (instance[name] = value()), {
      name: "TypeError",
      message:
        `${name} is read when the ${className} is made: pass it to new ${className}({ ${name} })`,
    }, label);
    assert.equal(instance[name], (base as Any)[name], `${label} reads as it was`);
    assert.equal(probe.observe(instance), before, `${label}: the assignment changed nothing`);
  }
}

describe("options assigned after construction", () => {
  test("every row of the table has a probe of each side it is read on, and no other", () => {
    for (const name of NAMES) {
      const flags = OPTIONS[name][0];
      const probe = PROBES[name] as Probe | undefined;
      assert.ok(probe !== undefined, `${name} has no probe: add one to PROBES`);
      assert.equal(probe.encode !== undefined, (flags & ENCODER) !== 0, `${name}: encode probe`);
      assert.equal(probe.decode !== undefined, (flags & DECODER) !== 0, `${name}: decode probe`);
    }
    assert.deepEqual(Object.keys(PROBES).sort(), [...NAMES].sort());
  });

  for (const name of NAMES) {
    const flags = OPTIONS[name][0];
    const live = (flags & LIVE) !== 0;
    test(`${name} (${live ? "LIVE" : "at construction"})`, () => {
      const probe = PROBES[name];
      if (probe.encode !== undefined) checkSide(name, live, probe.encode, Packr);
      if (probe.decode !== undefined) {
        checkSide(name, live, probe.decode, Unpackr);
        checkSide(name, live, probe.decode, Packr);
      }
    });
  }

  test("an encoder option is no accessor of an Unpackr, and a decoder option is one of a Packr", () => {
    for (const name of NAMES) {
      const flags = OPTIONS[name][0];
      const onUnpackr = Object.getOwnPropertyDescriptor(Unpackr.prototype, name);
      const onPackr = Object.getOwnPropertyDescriptor(Packr.prototype, name) ?? onUnpackr;
      assert.equal(onUnpackr !== undefined, (flags & DECODER) !== 0, `Unpackr.${name}`);
      assert.ok(onPackr?.get !== undefined, `Packr.${name}`);
    }
  });
});
