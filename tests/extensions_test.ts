// Copyright 2026 the @x/msgpackr authors. MIT license.
// Custom extensions (docs/wire-format.md, "Custom extensions") and toJSON.
//
// The rule, unlike msgpackr: `packr.addExtension(...)` / `unpackr.addExtension(...)` registers
// for that one instance (a Packr uses it for packing and for its own decoding); only the exported
// `addExtension(...)` registers for every instance, existing and future. msgpackr's registry is
// always global. An instance's own registrations come before the global ones, and within one
// registry the newest registration wins.
//
// msgpackr's registry is process-wide, so every test here registers a class of its own and a
// type code of its own (79..99, skipping msgpackr's own 0x62 "b"), not used by other test files.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { addExtension, DecodeError, type Extension, pack, Packr, unpack, Unpackr } from "../mod.ts";
import { fromHex, hex } from "./_util.ts";
import { sameBytes, theirUnpack } from "./_types_util.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

/** Registers the same extension in msgpackr (globally) and returns a Packr of ours with it. */
function bothWith<T>(
  extension: Extension<T>,
  options: ConstructorParameters<typeof Packr>[0] = {},
) {
  // deno-lint-ignore no-explicit-any
  msgpackr.addExtension(extension as any);
  const packr = new Packr(options);
  packr.addExtension(extension);
  // deno-lint-ignore no-explicit-any
  const theirs = new msgpackr.Packr({ ...options } as any);
  return { packr, theirs };
}

describe("addExtension pack/unpack", () => {
  class Point81 {
    constructor(public x: number, public y: number) {}
  }
  const extension: Extension<Point81> = {
    Class: Point81,
    type: 81,
    pack: (point) => new Uint8Array([point.x, point.y]),
    unpack: (bytes) => new Point81(bytes[0], bytes[1]),
  };
  const { packr, theirs } = bothWith(extension);

  test("Packr.pack() writes pack()'s bytes with the smallest ext header, as msgpackr", () => {
    const bytes = packr.pack(new Point81(1, 2));
    assert.equal(hex(bytes), "d5 51 01 02");
    assert.equal(hex(bytes), hex(theirs.pack(new Point81(1, 2))));
  });

  test("Packr.unpack() rebuilds the class with unpack(), both directions with msgpackr", () => {
    const value = { list: [new Point81(1, 2), new Point81(3, 4)] };
    const mine = packr.unpack(packr.pack(value));
    assert.ok(mine.list[1] instanceof Point81);
    assert.deepEqual(mine, value);
    const fromTheirs = packr.unpack(theirs.pack(value));
    assert.ok(fromTheirs.list[0] instanceof Point81);
    assert.deepEqual(fromTheirs, value);
    const byTheirs = theirs.unpack(packr.pack(value));
    assert.ok(byTheirs.list[0] instanceof Point81);
    assert.deepEqual(byTheirs, value);
  });

  test("Unpackr.addExtension() unpack() receives a view of exactly the payload", () => {
    class Span82 {
      constructor(public bytes: number[]) {}
    }
    const seen: Uint8Array[] = [];
    const unpackr = new Unpackr();
    unpackr.addExtension({
      Class: Span82,
      type: 82,
      pack: (span: Span82) => new Uint8Array(span.bytes),
      unpack: (bytes) => {
        seen.push(bytes);
        return new Span82([...bytes]);
      },
    });
    const copy = unpackr.unpack(fromHex("92 c7 03 52 07 08 09 01"));
    assert.deepEqual(copy, [new Span82([7, 8, 9]), 1]);
    assert.equal(seen[0].length, 3);
  });
});

describe("addExtension write/read", () => {
  class Vector83 {
    constructor(public values: number[]) {}
  }
  const extension: Extension<Vector83> = {
    Class: Vector83,
    type: 83,
    write: (vector) => vector.values,
    read: (data) => new Vector83(data as number[]),
  };
  const { packr, theirs } = bothWith(extension);

  test("Packr.pack() writes d4 type 00 then the value write() returns, as msgpackr", () => {
    const bytes = packr.pack(new Vector83([1, 2]));
    assert.equal(hex(bytes), "d4 53 00 92 01 02");
    assert.equal(hex(bytes), hex(theirs.pack(new Vector83([1, 2]))));
  });

  test("Packr.unpack() passes the decoded value to read(), both directions with msgpackr", () => {
    const value = [new Vector83([1]), { v: new Vector83([2, 3]) }];
    for (const copy of [packr.unpack(theirs.pack(value)), theirs.unpack(packr.pack(value))]) {
      assert.ok(copy[0] instanceof Vector83);
      assert.ok(copy[1].v instanceof Vector83);
      assert.deepEqual(copy[1].v.values, [2, 3]);
    }
  });

  test("Unpackr.unpack() rejects a read() extension that is not in the one-byte tag form", () => {
    // ext8 with type 83: a read() extension has no payload decoder
    assert.throws(
      () => packr.unpack(fromHex("c7 01 53 00")),
      (error: unknown) => error instanceof DecodeError && /83/.test(error.message),
    );
  });
});

describe("addExtension write-only and write returning the value", () => {
  test("Packr.pack() with a write-only extension (no type) writes write()'s value untagged", () => {
    class Account {
      constructor(public id: number, public password: string) {}
    }
    const { packr, theirs } = bothWith<Account>(
      { Class: Account, write: (account) => ({ id: account.id }) },
      { useRecords: false },
    );
    const bytes = packr.pack(new Account(7, "hunter2"));
    assert.equal(hex(bytes), "de 00 01 a2 69 64 07");
    assert.equal(hex(bytes), hex(theirs.pack(new Account(7, "hunter2"))));
    assert.deepEqual(unpack(bytes), { id: 7 });
  });

  test("Packr.pack() with write() returning the value itself packs it as a plain object", () => {
    class Settings84 {
      a = 1;
      b = "x";
    }
    const { packr, theirs } = bothWith<Settings84>({
      Class: Settings84,
      type: 84,
      write: (settings) => settings,
      read: (data) => Object.assign(new Settings84(), data),
    });
    const bytes = packr.pack(new Settings84());
    assert.equal(hex(bytes), "d4 54 00 d4 72 40 92 a1 61 a1 62 01 a1 78");
    assert.equal(hex(bytes), hex(theirs.pack(new Settings84())));
    for (const copy of [packr.unpack(bytes), theirs.unpack(bytes)]) {
      assert.ok(copy instanceof Settings84);
      assert.deepEqual({ ...copy }, { a: 1, b: "x" });
    }
  });
});

describe("addExtension with Array and Object subclasses", () => {
  test("Packr.pack() writes an Array subclass through its extension", () => {
    class Row85 extends Array<number> {}
    const { packr, theirs } = bothWith<Row85>({
      Class: Row85,
      type: 85,
      write: (row) => Array.from(row),
      read: (data) => Row85.from(data as number[]),
    });
    const row = Row85.from([1, 2, 3]);
    const bytes = packr.pack(row);
    assert.equal(hex(bytes), "d4 55 00 93 01 02 03");
    assert.equal(hex(bytes), hex(theirs.pack(row)));
    for (const copy of [packr.unpack(bytes), theirs.unpack(bytes)]) {
      assert.ok(copy instanceof Row85);
      assert.deepEqual(Array.from(copy), [1, 2, 3]);
    }
  });

  test("Packr.pack() writes an Array subclass whose write() returns itself as an array", () => {
    class Tuple86 extends Array<number> {}
    const { packr, theirs } = bothWith<Tuple86>({
      Class: Tuple86,
      type: 86,
      write: (tuple) => tuple,
      read: (data) => Tuple86.from(data as number[]),
    });
    const bytes = packr.pack(Tuple86.from([1, 2]));
    assert.equal(hex(bytes), "d4 56 00 92 01 02");
    assert.equal(hex(bytes), hex(theirs.pack(Tuple86.from([1, 2]))));
    assert.ok(packr.unpack(bytes) instanceof Tuple86);
  });

  test("Packr.pack() writes an Object subclass through its extension", () => {
    class Model87 extends Object {
      q = 5;
    }
    const { packr, theirs } = bothWith<Model87>({
      Class: Model87,
      type: 87,
      write: (model) => ({ ...model }),
      read: (data) => Object.assign(new Model87(), data),
    });
    const bytes = packr.pack(new Model87());
    assert.equal(hex(bytes), "d4 57 00 d4 72 40 91 a1 71 05");
    assert.equal(hex(bytes), hex(theirs.pack(new Model87())));
    for (const copy of [packr.unpack(bytes), theirs.unpack(bytes)]) {
      assert.ok(copy instanceof Model87);
      assert.equal(copy.q, 5);
    }
  });

  test("Packr.pack() without an extension writes Array subclasses as arrays", () => {
    class Plain extends Array<number> {}
    assert.equal(sameBytes(Plain.from([1, 2]), { useRecords: false }), "92 01 02");
  });
});

describe("addExtension calling pack and unpack inside", () => {
  test("Packr.pack() runs an extension whose pack() calls packr.pack() (msgpackr's bytes)", () => {
    class Envelope88 {
      constructor(public inner: unknown) {}
    }
    const packr = new Packr();
    packr.addExtension<Envelope88>({
      Class: Envelope88,
      type: 88,
      pack: (envelope) => packr.pack(envelope.inner),
      unpack: (bytes) => new Envelope88(packr.unpack(bytes)),
    });
    const theirs = new msgpackr.Packr();
    msgpackr.addExtension({
      Class: Envelope88,
      type: 88,
      pack: (envelope: Envelope88) => theirs.pack(envelope.inner),
      unpack: (bytes: Uint8Array) => new Envelope88(theirs.unpack(bytes)),
    });
    const value = {
      list: [new Envelope88({ a: 1, b: [new Envelope88("deep")] }), { a: 2 }],
      tail: { a: 3, b: null },
    };
    const bytes = packr.pack(value);
    assert.equal(
      hex(bytes),
      "d4 72 40 92 a4 6c 69 73 74 a4 74 61 69 6c 92 c7 12 58 d4 72 40 92 a1 61 a1 62 01 91 " +
        "c7 05 58 a4 64 65 65 70 d4 72 41 91 a1 61 02 d4 72 42 92 a1 61 a1 62 03 c0",
    );
    assert.equal(hex(bytes), hex(theirs.pack(value)));
    const copies: Any[] = [
      packr.unpack(bytes),
      packr.unpack(theirs.pack(value)),
      theirs.unpack(bytes),
    ];
    for (const copy of copies) {
      assert.ok(copy.list[0] instanceof Envelope88);
      assert.ok((copy.list[0].inner as Any).b[0] instanceof Envelope88);
      assert.deepEqual(copy, value);
    }
  });
});

describe("addExtension inside bundles and structured clone", () => {
  test("Packr.pack() with a nested pack() inside a bundled, cloning Packr writes msgpackr's bytes", () => {
    class Envelope79 {
      constructor(public inner: unknown) {}
    }
    const options = { bundleStrings: true, structuredClone: true } as const;
    const packr = new Packr(options);
    packr.addExtension<Envelope79>({
      Class: Envelope79,
      type: 79,
      pack: (envelope) => packr.pack(envelope.inner),
      unpack: (bytes) => new Envelope79(packr.unpack(bytes)),
    });
    const theirs = new msgpackr.Packr({ ...options });
    msgpackr.addExtension({
      Class: Envelope79,
      type: 79,
      pack: (envelope: Envelope79) => theirs.pack(envelope.inner),
      unpack: (bytes: Uint8Array) => new Envelope79(theirs.unpack(bytes)),
    });
    const shared = { k: "shared value" };
    const value = {
      before: "string before the envelope",
      envelope: new Envelope79({ inside: "string inside", shared, again: shared }),
      after: "string after the envelope",
      shared,
      again: shared,
    };
    const bytes = packr.pack(value);
    assert.equal(hex(bytes), hex(theirs.pack(value)));
    for (const copy of [packr.unpack(bytes) as Any, theirs.unpack(bytes) as Any]) {
      assert.ok(copy.envelope instanceof Envelope79);
      assert.equal(copy.again, copy.shared);
      // identity is per message: the nested message has its own ids
      assert.equal(copy.envelope.inner.again, copy.envelope.inner.shared);
      assert.notEqual(copy.envelope.inner.shared, copy.shared);
      assert.deepEqual(copy, value);
    }
  });
});

describe("extension headers", () => {
  class Blob89 {
    constructor(public size: number) {}
  }
  const { packr, theirs } = bothWith<Blob89>({
    Class: Blob89,
    type: 89,
    pack: (blob) => new Uint8Array(blob.size).fill(0xab),
    unpack: (bytes) => {
      assert.ok(bytes.every((byte) => byte === 0xab));
      return new Blob89(bytes.length);
    },
  });
  const cases: [number, string][] = [
    [0, "c7 00 59"],
    [1, "d4 59"],
    [2, "d5 59"],
    [3, "c7 03 59"],
    [4, "d6 59"],
    [5, "c7 05 59"],
    [8, "d7 59"],
    [16, "d8 59"],
    [17, "c7 11 59"],
    [255, "c7 ff 59"],
    [256, "c8 01 00 59"],
    [65535, "c8 ff ff 59"],
    [65536, "c9 00 01 00 00 59"],
  ];
  for (const [size, header] of cases) {
    test(`Packr.pack() writes a ${size}-byte extension payload after ${header}`, () => {
      const bytes = packr.pack(new Blob89(size));
      const headerLength = header.split(" ").length;
      assert.equal(hex(bytes.subarray(0, headerLength)), header);
      assert.equal(bytes.length, headerLength + size);
      assert.equal(hex(bytes), hex(theirs.pack(new Blob89(size))));
      assert.equal(packr.unpack(bytes).size, size);
      assert.equal(theirs.unpack(bytes).size, size);
    });
  }
});

describe("extension registries", () => {
  test("Packr.addExtension() is not visible to other instances or to pack()", () => {
    class Local90 {
      value = 1;
    }
    const packrA = new Packr({ useRecords: false });
    packrA.addExtension<Local90>({
      Class: Local90,
      type: 90,
      pack: () => new Uint8Array([42]),
      unpack: () => new Local90(),
    });
    assert.equal(hex(packrA.pack(new Local90())), "d4 5a 2a");
    assert.ok(packrA.unpack(fromHex("d4 5a 2a")) instanceof Local90);
    // another Packr, the exported pack(), and decoders without the extension
    const packrB = new Packr({ useRecords: false });
    assert.equal(hex(packrB.pack(new Local90())), "de 00 01 a5 76 61 6c 75 65 01");
    assert.equal(hex(pack(new Local90())), "de 00 01 a5 76 61 6c 75 65 01");
    assert.throws(() => packrB.unpack(fromHex("d4 5a 2a")), /Unknown extension 90/);
    assert.throws(() => unpack(fromHex("d4 5a 2a")), /Unknown extension 90/);
    assert.throws(() => new Unpackr().unpack(fromHex("d4 5a 2a")), /Unknown extension 90/);
    // a Packr created afterwards does not see it either
    assert.equal(
      hex(new Packr({ useRecords: false }).pack(new Local90())),
      hex(pack(new Local90())),
    );
  });

  test("addExtension() registers for every instance, existing and future", () => {
    class Shared91 {
      constructor(public n: number) {}
    }
    const before = new Packr({ useRecords: false });
    const beforeWithOwn = new Packr({ useRecords: false });
    class Other {}
    beforeWithOwn.addExtension({ Class: Other, type: 92, pack: () => new Uint8Array(1) });
    const beforeUnpackr = new Unpackr();
    addExtension<Shared91>({
      Class: Shared91,
      type: 91,
      pack: (shared) => new Uint8Array([shared.n]),
      unpack: (bytes) => new Shared91(bytes[0]),
    });
    const after = new Packr({ useRecords: false });
    for (const packr of [before, beforeWithOwn, after]) {
      assert.equal(hex(packr.pack(new Shared91(3))), "d4 5b 03");
    }
    assert.equal(hex(pack(new Shared91(3))), "d4 5b 03");
    for (const unpackr of [before, beforeWithOwn, after, beforeUnpackr, new Unpackr()]) {
      assert.deepEqual(unpackr.unpack(fromHex("d4 5b 03")), new Shared91(3));
    }
    assert.deepEqual(unpack(fromHex("d4 5b 03")), new Shared91(3));
  });

  test("Packr.addExtension() wins over a global extension for the same class", () => {
    class Both93 {}
    addExtension({
      Class: Both93,
      type: 93,
      pack: () => new Uint8Array([1]),
      unpack: () => "global",
    });
    const own = new Packr();
    own.addExtension({
      Class: Both93,
      type: 94,
      pack: () => new Uint8Array([2]),
      unpack: () => "own",
    });
    assert.equal(hex(own.pack(new Both93())), "d4 5e 02");
    assert.equal(hex(new Packr().pack(new Both93())), "d4 5d 01");
    assert.equal(own.unpack(fromHex("d4 5d 01")), "global");
    assert.equal(own.unpack(fromHex("d4 5e 02")), "own");
  });

  test("Packr.addExtension() for the same class twice: the newer one wins", () => {
    class Twice95 {}
    const packr = new Packr();
    packr.addExtension({ Class: Twice95, type: 95, pack: () => new Uint8Array([1]) });
    packr.addExtension({ Class: Twice95, type: 96, pack: () => new Uint8Array([2]) });
    assert.equal(hex(packr.pack(new Twice95())), "d4 60 02");
  });

  test("Packr.addExtension() rejects an extension that cannot work, as msgpackr", () => {
    class Broken {}
    const packr = new Packr();
    assert.throws(() => packr.addExtension({ Class: Broken, type: 97 }), /no pack or write/);
    assert.throws(
      () => packr.addExtension({ Class: Broken, pack: () => new Uint8Array(0) }),
      /no type/,
    );
    // msgpackr throws the same errors
    assert.throws(
      () => msgpackr.addExtension({ Class: Broken, type: 97 } as Any),
      /no pack or write/,
    );
  });

  test("Packr.addExtension() subclasses match their parent class's extension", () => {
    class Shape80 {
      constructor(public sides: number) {}
    }
    class Square extends Shape80 {
      constructor() {
        super(4);
      }
    }
    const packr = new Packr();
    packr.addExtension<Shape80>({
      Class: Shape80,
      type: 80,
      pack: (shape) => new Uint8Array([shape.sides]),
      unpack: (bytes) => new Shape80(bytes[0]),
    });
    assert.equal(hex(packr.pack(new Square())), "d4 50 04");
  });
});

describe("unknown extensions", () => {
  test("unpack() names the type of an unknown fixext1 extension", () => {
    const bytes = fromHex("d4 05 00");
    assert.throws(
      () => unpack(bytes),
      (error: unknown) =>
        error instanceof DecodeError && /^Unknown extension 5\b/.test(error.message) &&
        error.offset === 0,
    );
    assert.throws(() => msgpackr.unpack(bytes), { message: "Unknown extension 5" });
  });

  test("unpack() names the type of an unknown extension of any other size", () => {
    for (
      const [bytes, type] of [["d5 05 00 00", 5], ["c7 00 80", 128], [
        "92 01 d6 7f 00 00 00 00",
        127,
      ]] as const
    ) {
      assert.throws(
        () => unpack(fromHex(bytes)),
        (error: unknown) =>
          error instanceof DecodeError &&
          new RegExp(`^Unknown extension type ${type}\\b`).test(error.message),
      );
      assert.throws(() => msgpackr.unpack(fromHex(bytes)), {
        message: `Unknown extension type ${type}`,
      });
    }
  });

  test("unpack() reports the offset of the unknown extension", () => {
    try {
      unpack(fromHex("92 01 d6 7f 00 00 00 00"));
      assert.fail("no error");
    } catch (error) {
      assert.ok(error instanceof DecodeError);
      assert.equal(error.offset, 2);
    }
  });
});

describe("toJSON", () => {
  const PLAIN = { useRecords: false } as const;

  test("Packr.pack() packs the toJSON() result of a class instance", () => {
    class Secretive {
      secret = 1;
      toJSON() {
        return { shown: 2 };
      }
    }
    assert.equal(sameBytes(new Secretive(), PLAIN), "de 00 01 a5 73 68 6f 77 6e 02");
  });

  test("Packr with useToJSON: false packs the own properties instead", () => {
    class Secretive {
      secret = 1;
      toJSON() {
        return { shown: 2 };
      }
    }
    assert.equal(
      sameBytes(new Secretive(), { useRecords: false, useToJSON: false }),
      "de 00 01 a6 73 65 63 72 65 74 01",
    );
  });

  test("Packr.pack() writes a Date subclass as a timestamp, its inherited toJSON ignored", () => {
    class Day extends Date {}
    assert.equal(sameBytes(new Day(0), PLAIN), "d6 ff 00 00 00 00");
    assert.ok(unpack(fromHex("d6 ff 00 00 00 00")) instanceof Date);
  });

  test("Packr.pack() uses the own toJSON of built-in subclasses (msgpackr 2.x)", () => {
    class Tags extends Set<number> {
      toJSON() {
        return ["from toJSON"];
      }
    }
    class Moment extends Date {
      override toJSON() {
        return "moment";
      }
    }
    class Failure extends Error {
      toJSON() {
        return "failure";
      }
    }
    assert.equal(sameBytes(new Tags([1]), PLAIN), "91 ab 66 72 6f 6d 20 74 6f 4a 53 4f 4e");
    assert.equal(
      sameBytes(new Tags([1]), { ...PLAIN, moreTypes: true }),
      hex(pack(["from toJSON"])),
    );
    assert.equal(sameBytes(new Moment(0), PLAIN), "a6 6d 6f 6d 65 6e 74");
    assert.equal(
      sameBytes(new Failure("x"), { ...PLAIN, moreTypes: true }),
      "a7 66 61 69 6c 75 72 65",
    );
    // useToJSON: false: the built-in form again
    assert.equal(sameBytes(new Tags([1]), { ...PLAIN, useToJSON: false }), "91 01");
    assert.equal(sameBytes(new Moment(0), { ...PLAIN, useToJSON: false }), "d6 ff 00 00 00 00");
  });

  test("Packr.pack() prefers a matching extension over toJSON", () => {
    class Both99 {
      toJSON() {
        return "json";
      }
    }
    const packr = new Packr();
    packr.addExtension({ Class: Both99, type: 99, pack: () => new Uint8Array([1]) });
    assert.equal(hex(packr.pack(new Both99())), "d4 63 01");
  });

  test("Packr.pack() packs the object itself when toJSON() returns it", () => {
    class Loop {
      a = 1;
      toJSON() {
        return this;
      }
    }
    assert.equal(sameBytes(new Loop(), PLAIN), "de 00 01 a1 61 01");
  });

  test("msgpackr reads toJSON output as the plain value", () => {
    class Money {
      constructor(public cents: number) {}
      toJSON() {
        return { cents: this.cents, currency: "EUR" };
      }
    }
    const bytes = new Packr().pack([new Money(5), new Money(7)]);
    assert.deepEqual(theirUnpack(bytes, { mapsAsObjects: true }), [
      { cents: 5, currency: "EUR" },
      { cents: 7, currency: "EUR" },
    ]);
  });
});
