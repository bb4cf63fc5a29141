// Copyright 2026 the @x/msgpackr authors. MIT license.
// The cases of tests/generated_writer_keys_test.ts, built the same way in the test and in the
// subprocess (_writer_generic.ts) that packs them on the generic path. Imports nothing of the
// library: the subprocess must load only no_eval.ts, so that no generated writer exists there.
//
// Each case trains a shape (plain objects of one key sequence, packed often enough that the
// shape gets a generated writer) and then packs `value`, which holds an object `odd` that the
// shape's writer must refuse or write exactly as the generic writer does: a key missing,
// present but not enumerable, inherited, named like an `Object.prototype` member, added,
// moved, read by a getter (one that deletes a later key too), or holding a value of another type than the one the writer learned.

/** How the case packs: the exported `pack`, `new Packr({ useRecords: false })`, `new Packr()`. */
export type WriterKind = "pack" | "maps" | "records";
/** Where `odd` stands: alone at the top, first or later in an array, or a field of a shape. */
export type Position = "top" | "first" | "later" | "nested";

/** One case: what is packed before (`train`, one pack each) and the value then packed. */
export interface WriterCase {
  name: string;
  kind: WriterKind;
  position: Position;
  /** The trained shape's keys. */
  keys: readonly string[];
  /** The prefix of the keys the case adds (`${tag}I` holds the object of position "nested"). */
  tag: string;
  train: unknown[];
  value: unknown;
  /** The object under test. */
  odd: object;
}

/** A property of an object built by `make`. */
interface Property {
  key: string;
  value?: unknown;
  /** Own but not enumerable (defined with `Object.defineProperty`). */
  hidden?: boolean;
  /** An enumerable own getter returning `value`. */
  getter?: boolean;
  /** The getter deletes this own property of its object first. */
  deletes?: string;
}

/**
 * An object with exactly these own properties, in this order, on `proto` (Object.prototype by
 * default). Defined with `Object.defineProperty`, so `__proto__` is an own property like any
 * other key.
 */
function make(properties: readonly Property[], proto: object = Object.prototype): object {
  const object = Object.create(proto);
  for (const { key, value, hidden, getter, deletes } of properties) {
    const get = () => {
      if (deletes !== undefined) delete object[deletes];
      return value;
    };
    Object.defineProperty(
      object,
      key,
      getter
        ? { get, enumerable: true, configurable: true }
        : { value, enumerable: !hidden, writable: true, configurable: true },
    );
  }
  return object;
}

/** The names of `Object.prototype` members an own key may shadow. */
export const PROTOTYPE_NAMES: readonly string[] = [
  "toString",
  "constructor",
  "hasOwnProperty",
  "valueOf",
  "__proto__",
];

/** A value of each type a field may switch to. */
type ValueType = "string" | "number" | "object" | "undefined" | "null";
const VALUE_TYPES: readonly ValueType[] = ["string", "number", "object", "undefined", "null"];

/** A shape: its keys with the type each value has while training. */
interface Family {
  tag: string;
  keys: readonly string[];
  types: readonly ValueType[];
  /** Training rows come from `JSON.parse` (own `__proto__` keys as JSON makes them). */
  json?: boolean;
}

function valueOf(type: ValueType, i: number, prefix: string): unknown {
  switch (type) {
    case "string":
      return `s${i}`;
    case "number":
      return i;
    case "object":
      return { [`${prefix}Z`]: i, [`${prefix}Y`]: `y${i}` };
    case "undefined":
      return undefined;
    case "null":
      return null;
  }
}

function families(): Family[] {
  const list: Family[] = [];
  const add = (keys: string[], types: ValueType[], json = false) => {
    const tag = `gk${list.length}`;
    list.push({ tag, keys: keys.map((key) => key.replace("$", tag)), types, json });
  };
  add(["$A", "$B", "$C"], ["number", "string", "object"]);
  add(["$A", "toString", "$C"], ["number", "string", "number"]);
  add(["constructor", "$A"], ["string", "number"]);
  add(["$A", "hasOwnProperty"], ["number", "number"]);
  add(["valueOf", "$A", "$C"], ["number", "string", "number"]);
  add(["$A", "__proto__", "$C"], ["number", "number", "string"], true);
  add(["toString"], ["string"]);
  add(["__proto__"], ["number"], true);
  return list;
}

/** The variants of `odd` for a family: each a list of properties (and a prototype). */
function variants(family: Family): [string, () => object][] {
  const { keys, types, tag } = family;
  const row = (i: number): Property[] =>
    keys.map((key, k) => ({ key, value: valueOf(types[k], i, tag) }));
  const out: [string, () => object][] = [["as trained", () => make(row(99))]];
  for (let k = 0; k < keys.length; k++) {
    const at = k === 0 ? "first" : k === keys.length - 1 ? "last" : "middle";
    const without = (i: number) => row(i).filter((_, j) => j !== k);
    const name = `${at} key ${keys[k]}`;
    out.push([`${name} missing`, () => make(without(99))]);
    out.push([
      `${name} not enumerable`,
      () => make(row(99).map((p, j) => (j === k ? { ...p, hidden: true } : p))),
    ]);
    out.push([
      `${name} inherited from a plain object`,
      () => make(without(99), make([{ key: keys[k], value: valueOf(types[k], 7, tag) }])),
    ]);
    out.push([
      `${name} read by a getter`,
      () => make(row(99).map((p, j) => (j === k ? { ...p, getter: true } : p))),
    ]);
    if (k + 1 < keys.length) {
      // the generic writer's for-in skips the deleted key (a record's count then fails)
      out.push([
        `${name} read by a getter that deletes the next key`,
        () =>
          make(row(99).map((p, j) => (j === k ? { ...p, getter: true, deletes: keys[k + 1] } : p))),
      ]);
    }
    for (const type of VALUE_TYPES) {
      if (type === types[k]) continue;
      out.push([
        `${name} holding ${type}`,
        () =>
          make(row(99).map((p, j) => (j === k ? { key: p.key, value: valueOf(type, 5, tag) } : p))),
      ]);
    }
  }
  out.push([`an extra key first`, () => make([{ key: `${tag}X`, value: 1 }, ...row(99)])]);
  out.push([`an extra key last`, () => make([...row(99), { key: `${tag}X`, value: 1 }])]);
  if (keys.length > 1) out.push([`the keys reversed`, () => make(row(99).reverse())]);
  for (const name of PROTOTYPE_NAMES) {
    if (keys.includes(name)) continue;
    out.push([`an own ${name} added`, () => make([...row(99), { key: name, value: 7 }])]);
    out.push([
      `an own ${name} added, not enumerable`,
      () => make([...row(99), { key: name, value: 7, hidden: true }]),
    ]);
    out.push([
      `the last key replaced by an own ${name}`,
      () => make([...row(99).slice(0, -1), { key: name, value: 7 }]),
    ]);
  }
  out.push(["no keys", () => make([])]);
  return out;
}

/** Plain training objects of `family`'s shape, as literals or JSON would make them. */
function trainingRow(family: Family, i: number): object {
  const { keys, types, tag } = family;
  if (family.json) {
    return JSON.parse(
      JSON.stringify(Object.fromEntries(keys.map((key, k) => [key, valueOf(types[k], i, tag)]))),
    );
  }
  const object: Record<string, unknown> = {};
  for (let k = 0; k < keys.length; k++) object[keys[k]] = valueOf(types[k], i, tag);
  return object;
}

const KINDS: readonly WriterKind[] = ["pack", "maps", "records"];
const POSITIONS: readonly Position[] = ["top", "first", "later", "nested"];
/** Objects of the shape packed before `odd`: more than the writes before a writer is made. */
const ROWS = 8;

/** Every case, freshly built (getters and prototypes included), in a fixed order. */
export function writerCases(): WriterCase[] {
  const cases: WriterCase[] = [];
  for (const family of families()) {
    const rows = (from: number) =>
      Array.from({ length: ROWS }, (_, i) => trainingRow(family, from + i));
    const outer = (i: number, inner: unknown) => ({
      [`${family.tag}O`]: i,
      [`${family.tag}I`]: inner,
    });
    for (const kind of KINDS) {
      for (const position of POSITIONS) {
        for (const [variant, build] of variants(family)) {
          const odd = build();
          let train: unknown[] = [];
          let value: unknown;
          switch (position) {
            case "top":
              train = rows(0);
              value = odd;
              break;
            case "first":
              train = [rows(0)];
              value = [odd, ...rows(20).slice(0, 2)];
              break;
            case "later":
              value = [...rows(0), odd, ...rows(20).slice(0, 2)];
              break;
            case "nested":
              value = [
                ...rows(0).map((row, i) => outer(i, row)),
                outer(9, odd),
                outer(10, rows(20)[0]),
              ];
              break;
          }
          cases.push({
            name: `${kind}, ${position}: [${family.keys}] with ${variant}`,
            kind,
            position,
            keys: family.keys,
            tag: family.tag,
            train,
            value,
            odd,
          });
        }
      }
    }
  }
  return cases;
}

/**
 * Packs a case with `library`: a packer of the case's kind, made fresh, packs the training values
 * and then the value. Returns the value's bytes as hex, or the error it threw. `packed` is called
 * after, with the Packr (`null` for the exported `pack`).
 */
export function packCase<P extends { pack(value: unknown): Uint8Array }>(
  library: {
    pack(value: unknown): Uint8Array;
    Packr: new (options?: { useRecords?: boolean }) => P;
  },
  testCase: WriterCase,
  packed?: (packr: P | null) => void,
): string {
  const packr = testCase.kind === "pack"
    ? null
    : new library.Packr(testCase.kind === "maps" ? { useRecords: false } : {});
  const pack = packr === null ? library.pack : packr.pack;
  let result: string;
  try {
    for (const value of testCase.train) pack(value);
    result = Array.from(pack(testCase.value), (byte) => byte.toString(16).padStart(2, "0"))
      .join(" ");
  } catch (error) {
    result = `throws ${error instanceof Error ? error.message : String(error)}`;
  }
  packed?.(packr);
  return result;
}
