// Copyright 2026 the @x/msgpackr authors. MIT license.
// Plain objects are packed with a for-in loop, which also yields enumerable keys the object
// inherits. Like msgpackr, we write only own keys. The encoder tests each key with `hasOwn` only
// when the object can inherit one (`mayHaveInheritedKeys` in _encode/encoder.ts): its prototype is not
// Object.prototype, or Object.prototype has an enumerable property. These tests pin that
// inherited keys never reach the bytes in either case, also when a getter adds an enumerable
// property to Object.prototype in the middle of a pack, and that the bytes are msgpackr's.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { pack, Packr, unpack } from "../mod.ts";

const prototypeRecord = Object.prototype as Record<string, unknown>;

/** Gives Object.prototype an enumerable `polluted` property (removed by `delete`). */
function pollutePrototype(): void {
  Object.defineProperty(Object.prototype, "polluted", {
    value: "inherited",
    enumerable: true,
    configurable: true,
    writable: true,
  });
}

/** Runs `action` while Object.prototype has an enumerable `polluted` property. */
function withPollutedPrototype<T>(action: () => T): T {
  pollutePrototype();
  try {
    return action();
  } finally {
    delete prototypeRecord.polluted;
  }
}

/** A value with objects of several shapes, nested, as a service response would have. */
function sample(): Record<string, unknown> {
  return {
    id: 7,
    name: "order",
    items: [{ sku: "a", quantity: 1 }, { sku: "b", quantity: 2 }],
    customer: { name: "Ada", address: { city: "London" } },
  };
}

const OPTION_SETS: [string, ConstructorParameters<typeof Packr>[0]][] = [
  ["default", {}],
  ["variableMapSize", { variableMapSize: true }],
  ["useRecords: false", { useRecords: false }],
  ["records", { useRecords: true }],
];

describe("inherited keys are never packed", () => {
  test("Object.prototype with an enumerable property: the bytes are those without it", () => {
    const expected = pack(sample());
    const theirs = msgpackr.pack(sample());
    const polluted = withPollutedPrototype(() => {
      // the pollution is visible to for-in, so the test would catch an unchecked loop
      const seen: string[] = [];
      for (const key in {}) seen.push(key);
      assert.deepEqual(seen, ["polluted"]);
      return pack(sample());
    });
    assert.deepEqual(polluted, expected);
    assert.deepEqual(polluted, new Uint8Array(theirs));
    assert.deepEqual(unpack(polluted), sample());
  });

  for (const [name, options] of OPTION_SETS) {
    test(`Object.prototype with an enumerable property, ${name}`, () => {
      const expected = new Packr(options).pack(sample());
      const polluted = withPollutedPrototype(() => new Packr(options).pack(sample()));
      assert.deepEqual(polluted, expected);
      assert.deepEqual(new Packr(options).unpack(polluted), sample());
    });
  }

  test("a getter that pollutes Object.prototype during the pack: later objects skip the key", () => {
    const value = {
      first: {
        get trigger(): number {
          pollutePrototype();
          return 1;
        },
      },
      second: { a: 1, b: { c: 2 } },
      third: [{ d: 3 }],
    };
    let bytes: Uint8Array;
    try {
      bytes = pack(value);
    } finally {
      delete prototypeRecord.polluted;
    }
    const expected = { first: { trigger: 1 }, second: { a: 1, b: { c: 2 } }, third: [{ d: 3 }] };
    assert.deepEqual(unpack(bytes), expected);
    assert.deepEqual(msgpackr.unpack(bytes), expected);
  });

  test("objects whose prototype is another object: inherited keys are skipped", () => {
    const base = { inherited: 1, shared: "base" };
    const middle = Object.assign(Object.create(base), { alsoInherited: true });
    const object = Object.assign(Object.create(middle), { own: 1, other: "x" });
    const value = { object, list: [object, Object.create(base)] };
    const bytes = pack(value);
    assert.deepEqual(bytes, new Uint8Array(msgpackr.pack(value)));
    assert.deepEqual(unpack(bytes), {
      object: { own: 1, other: "x" },
      list: [{ own: 1, other: "x" }, {}],
    });
  });

  test("many objects of one shape after an inheriting one and before: same bytes as msgpackr", () => {
    // the per-object test must not stick: shapes seen with and without the check in one pack
    const base = { inherited: 1 };
    const items: unknown[] = [];
    for (let i = 0; i < 50; i++) {
      items.push(i % 10 === 5 ? Object.assign(Object.create(base), { id: i }) : { id: i });
    }
    const bytes = pack(items);
    assert.deepEqual(bytes, new Uint8Array(msgpackr.pack(items)));
    assert.deepEqual(unpack(bytes), items.map((_, i) => ({ id: i })));
  });
});
