// Copyright 2026 the @x/msgpackr authors. MIT license.
// A fixed corpus for `canonical: true` and the SHA-256 of its canonical bytes, the same on every
// runtime: tests/canonical_test.ts checks the hash under Deno and Bun, and under Node by running
// tests/_canonical_hash.ts bundled (Node 20 runs no TypeScript). Values are built from a seeded
// generator, with keys inserted in a random order, and every kind of scalar canonical bytes
// cover: integers at each width boundary and beyond 32 bits, -0, NaN, floats, bigints,
// non-ASCII strings of every length class, binary, nested arrays, objects, Maps of any keys and
// Sets. No Dates: their bytes are msgpackr's timestamp forms, not part of what this pins.

import { Packr } from "../mod.ts";
import { random } from "./_util.ts";

/** Integers at each width boundary of MessagePack, and safe integers beyond 32 bits. */
export const BOUNDARY_INTEGERS: readonly number[] = [
  0,
  1,
  31,
  32,
  63,
  64,
  127,
  128,
  255,
  256,
  65535,
  65536,
  2 ** 32 - 1,
  2 ** 32,
  2 ** 40,
  2 ** 53 - 1,
  -1,
  -32,
  -33,
  -128,
  -129,
  -32768,
  -32769,
  -(2 ** 31),
  -(2 ** 31) - 1,
  -(2 ** 53 - 1),
];
const FLOATS = [0.5, -1.5, 0.1, 1e300, -1e-300, 5e-324, 2 ** 53, 2 ** 64, Infinity, -Infinity];
const PIECES = ["a", "é", "€", "😀", "key", "Zz", "10", "2", "__proto__", " ", "\u0000"];

/** The corpus: 300 values of the seeded generator after the edge values. */
export function canonicalCorpus(): unknown[] {
  const next = random(52);
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  const text = (): string => {
    let result = "";
    for (let i = int(6); i > 0; i--) result += pick(PIECES);
    const long = int(20);
    // now and then a string of another header: str8, str16
    return long === 0
      ? result + "x".repeat(40 + int(300))
      : long === 1
      ? "€".repeat(22000)
      : result;
  };
  const shuffled = <T>(items: T[]): T[] => {
    for (let i = items.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  };
  const value = (depth: number): unknown => {
    const roll = int(depth > 2 ? 6 : 10);
    switch (roll) {
      case 0:
        return pick(BOUNDARY_INTEGERS);
      case 1:
        return pick(FLOATS) * (next() < 0.5 ? 1 : next());
      case 2:
        return text();
      case 3:
        return pick([null, true, false, -0, NaN, 0n, 5n, -(2n ** 40n), 2n ** 63n, 2n ** 64n - 1n]);
      case 4:
        return Uint8Array.from({ length: pick([0, 3, 40, 300]) }, (_, i) => (i * 7 + depth) & 0xff);
      case 5:
        return int(1 << 30) - (1 << 29);
      case 6:
        return Array.from({ length: int(18) }, () => value(depth + 1));
      case 7: {
        const object: Record<string, unknown> = {};
        const keys = shuffled([...new Set(Array.from({ length: int(20) }, text))]);
        for (const key of keys) {
          Object.defineProperty(object, key, {
            value: value(depth + 1),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        return object;
      }
      case 8: {
        const keys: unknown[] = Array.from(
          { length: int(8) },
          () => pick([text(), pick(BOUNDARY_INTEGERS), true, null, [1, "a"], 3n, NaN, 1.5]),
        );
        return new Map(shuffled(keys).map((key) => [key, value(depth + 1)]));
      }
      default:
        return new Set(
          shuffled(Array.from({ length: int(6) }, () => pick([text(), pick(BOUNDARY_INTEGERS)]))),
        );
    }
  };
  // NaNs with other bits (V8 keeps them: written as they are, the bytes would differ by engine)
  const nans = new Float64Array(new Uint32Array([1, 0x7ff00000, 0, 0xfff80000]).buffer);
  const values: unknown[] = [
    ...BOUNDARY_INTEGERS,
    ...FLOATS,
    -0,
    NaN,
    ...nans,
    [...nans],
    ...PIECES,
  ];
  for (let i = 0; i < 300; i++) values.push(value(0));
  return values;
}

/** The SHA-256 of the canonical bytes of every corpus value, one after another, as hex. */
export async function canonicalCorpusHash(): Promise<string> {
  const packr = new Packr({ canonical: true });
  const parts = canonicalCorpus().map((item) => packr.pack(item));
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", whole));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
