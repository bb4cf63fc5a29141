// Copyright 2026 the @x/msgpackr authors. MIT license.
// Values and extensions for tests/entry_alone_test.ts, shared by the test and its subprocess
// (tests/_entry_alone.ts), so this module imports nothing of the library's entries.

import type { Extension } from "../_core/extensions.ts";

/** A class that a global extension encodes, with `pack`/`unpack` and with `write`/`read`. */
export class Celsius {
  constructor(readonly degrees: number) {}
}
export class Tagged {
  constructor(readonly tag: string) {}
}

/** The extensions both register with `addExtension`. */
export function entryExtensions(): Extension[] {
  return [
    {
      Class: Celsius,
      type: 91,
      pack: (value) => new Uint8Array([(value as Celsius).degrees]),
      unpack: (bytes) => new Celsius(bytes[0]),
    } as Extension,
    {
      Class: Tagged,
      type: 92,
      write: (value) => [(value as Tagged).tag],
      read: (data) => new Tagged((data as string[])[0]),
    } as Extension,
  ];
}

/** Values of every kind the exported `pack` writes and `unpack` reads by default. */
export function entryValues(): unknown[] {
  const shared = { id: 1, name: "ann" };
  return [
    null,
    true,
    [1, -1, 0x7f, 300, 70000, 2 ** 40, -(2 ** 40), 1.5, Number.NaN],
    "text",
    "ünïcödé ".repeat(20),
    { a: 1, b: [1, 2, "x"], nested: { c: null } },
    [shared, shared, { id: 2, name: "bob" }],
    new Map<unknown, unknown>([[1, "one"], ["k", { v: 2 }]]),
    new Set([1, "two", 3]),
    new Date(1700000000123),
    new Date(Number.NaN),
    new Error("boom", { cause: "why" }),
    new RangeError("range"),
    /ab+c/gi,
    new Uint8Array([1, 2, 3]),
    new Float64Array([1.5, -2]),
    new Int32Array([-1, 7]),
    -5n,
    2n ** 63n,
    undefined,
    new Celsius(21),
    new Tagged("t"),
    { celsius: new Celsius(3), tagged: [new Tagged("u")] },
  ];
}
