// Copyright 2026 the @x/msgpackr authors. MIT license.
// Seeded random values whose objects share shapes, for the records-on interop tests and the seeds
// of the differential fuzzer. Objects are drawn from a pool of key lists (shapes), so the same
// shape comes back within a message and across messages: record definitions, references, shared
// structures and (with more than 32 shapes) two-byte ids all occur. The scalars cover every
// MessagePack type msgpackr writes the same way as we do (see README "Differences from msgpackr":
// non-byte typed arrays without moreTypes, DataViews, Map subclasses, bundles over 64 KiB and,
// with moreTypes, Uint8Arrays that are not Buffers are left out, as are values whose decoding
// differs on purpose: a leading BOM in a string over 64 bytes, AggregateError).
//
// The generator takes the C1 object to use: msgpackr writes 0xc1 only for its own C1 (an
// `instanceof` check), so a value meant for both encoders is built twice from the same seed, once
// with each library's C1.

import { Buffer } from "node:buffer";

/** What {@linkcode shapedValue} may produce. */
export interface ShapedOptions {
  /** The shapes objects are drawn from ({@linkcode shapePool}). */
  shapes: readonly (readonly string[])[];
  /** Typed arrays of every kind, ArrayBuffers, bigints beyond 64 bits, Errors with a cause. */
  moreTypes: boolean;
  /** Shared references and cycles (structured clone). */
  references: boolean;
  /** The library's C1 object, or null for none (bundleStrings: `c1` starts a bundled string). */
  c1: object | null;
  /**
   * Strings may start with U+FEFF. Not with bundleStrings: msgpackr's decoder drops a BOM that
   * starts a bundle over 64 bytes (its TextDecoder does) and then misreads the bundled strings.
   */
  bom: boolean;
  /** Deepest nesting of containers (default 3). */
  maxDepth?: number;
}

/** Keys of record fields: ordinary, integer-like, empty, inherited names and `__proto__`. */
const KEYS = [
  "id",
  "name",
  "value",
  "tags",
  "a",
  "b",
  "x",
  "created",
  "__proto__",
  "constructor",
  "toString",
  "",
  "0",
  "12",
  "é",
  "k".repeat(70),
];

/** `count` distinct key lists of 1 to 5 keys, each ending in a key unique to it. */
export function shapePool(random: () => number, count: number): string[][] {
  return Array.from({ length: count }, (_, i) => {
    const keys = new Set<string>();
    const size = Math.floor(random() * 5);
    for (let k = 0; k < size; k++) keys.add(KEYS[Math.floor(random() * KEYS.length)]);
    keys.add(`s${i}`);
    return [...keys];
  });
}

/** An object with these entries as own properties (a `__proto__` key included, as JSON.parse). */
export function objectOf(entries: readonly [string, unknown][]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, item] of entries) {
    Object.defineProperty(object, key, {
      value: item,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return object;
}

const TYPED_ARRAYS = [
  Int8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
] as const;

/** A random value (see the file comment); the same seed and options give the same value. */
export function shapedValue(random: () => number, options: ShapedOptions): unknown {
  const int = (max: number) => Math.floor(random() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  const maxDepth = options.maxDepth ?? 3;
  const containers: object[] = [];

  const text = (): string => {
    switch (int(8)) {
      case 0:
        return "";
      case 1:
        return pick(["a", "key", "id", "name", "é", "€", "\u{1F600}", "\ud800", "x\udc00y"]);
      case 2: // around the 31/32 and 64-byte thresholds of the string paths
        return "t".repeat(pick([31, 32, 33, 63, 64, 65, 100, 300]));
      case 3:
        return "é€".repeat(1 + int(40));
      case 4: // a BOM in short strings only (msgpackr drops it at the start of a long one)
        return (options.bom ? "\ufeff" : "") + "b".repeat(int(20)) + "\ufeff";
      case 5:
        return String.fromCharCode(...Array.from({ length: int(20) }, () => int(0x800)));
      default:
        return `v${int(1000)}`;
    }
  };

  const scalar = (): unknown => {
    switch (int(22)) {
      case 0:
        return int(128); // 64..127 collide with record ids
      case 1:
        return pick([-1, -32, -33, -128, -129, 255, 256, 65535, 65536, -32769]);
      case 2:
        return pick([2 ** 31, -(2 ** 31) - 1, 2 ** 32, 2 ** 53, -(2 ** 53), 0xffffffff]);
      case 3:
        return (random() - 0.5) * 10 ** int(12);
      case 4:
        return pick([0.5, 0.1, -0, NaN, Infinity, -Infinity, 1e-300, 5e-324, 1.5e300]);
      case 5:
        return pick([null, undefined, true, false]);
      case 6:
        return BigInt(int(2 ** 31)) * BigInt(int(2 ** 31)) * pick([1n, -1n]);
      case 7:
        return pick([2n ** 63n - 1n, -(2n ** 63n), 2n ** 64n - 1n, 0n, 127n, -1n]);
      case 8:
        return options.moreTypes ? (2n ** BigInt(64 + int(200))) * pick([1n, -1n]) + 3n : 5n;
      case 9:
        return new Date(pick([0, 1500, -1, 1e12 + int(1e6), -62e12, 4294967296000, 8.64e15]));
      case 10:
        return new Date(pick([NaN, int(2 ** 31) * 1000, 1e12 + 123]));
      case 11: {
        const bytes = Uint8Array.from({ length: pick([0, 1, 5, 40, 300]) }, () => int(256));
        // with moreTypes msgpackr writes a Uint8Array that is not a Buffer as a typed array
        // extension, where we write bin (README "Differences from msgpackr"); both write bin
        // for a Buffer
        return options.moreTypes ? Buffer.from(bytes) : bytes;
      }
      case 12:
        return options.c1 ?? "no c1";
      case 13:
        return new RegExp(pick(["a+", "[\u0100-\uffff]$", "x", ""]), pick(["", "gi", "u"]));
      case 14: {
        if (!options.moreTypes) return int(3) - 1;
        const Type = pick(TYPED_ARRAYS);
        const bytes = Uint8Array.from({ length: 8 * int(4) }, () => int(256));
        return new Type(bytes.buffer);
      }
      case 15:
        return options.moreTypes ? new Uint8Array([1, 2, int(256)]).buffer : "buffer";
      case 16: {
        const message = text();
        if (!options.moreTypes) return message;
        const Type = pick([Error, TypeError, RangeError, SyntaxError]);
        return random() < 0.5 ? new Type(message) : new Type(message, { cause: scalar() });
      }
      default:
        return text();
    }
  };

  const record = (depth: number, shape: readonly string[]): Record<string, unknown> =>
    objectOf(shape.map((key) => [key, value(depth + 1)]));

  // most rows draw on a few shapes, so that they repeat within a message
  const few = Array.from({ length: 1 + int(4) }, () => pick(options.shapes));
  const value = (depth: number): unknown => {
    const choice = depth >= maxDepth ? 0 : int(10);
    let made: object;
    switch (choice) {
      case 0:
      case 1:
      case 2:
        return scalar();
      case 3:
      case 4: // rows of one shape: a definition, then references
        made = Array.from({ length: 1 + int(6) }, () => record(depth, pick(few)));
        break;
      case 5:
        made = record(depth, pick(options.shapes));
        break;
      case 6:
        made = Array.from({ length: int(5) }, () => value(depth + 1));
        break;
      case 7:
        made = new Map(
          Array.from(
            { length: int(4) },
            () => [random() < 0.7 ? text() : scalar(), value(depth + 1)],
          ),
        );
        break;
      case 8:
        made = new Set(Array.from({ length: int(4) }, () => value(depth + 1)));
        break;
      default:
        made = objectOf(Array.from({ length: int(5) }, () => [pick(KEYS), value(depth + 1)]));
    }
    if (!(made instanceof Set)) containers.push(made);
    return made;
  };

  const root = value(0);
  if (options.references && containers.length > 0) {
    // shared references, and cycles when the target is an ancestor
    for (let links = int(4); links > 0; links--) {
      const source = pick(containers);
      const target = pick(containers);
      if (Array.isArray(source)) source.push(target);
      else if (source instanceof Map) source.set(`ref${source.size}`, target);
      else (source as Record<string, unknown>)[`ref${Object.keys(source).length}`] = target;
    }
  }
  return root;
}
