// Copyright 2026 the @x/msgpackr authors. MIT license.
// Code written for msgpackr 2.1.3, run against this library: each test does what a msgpackr user's
// code does, and compares with npm msgpackr in the same test where the behaviour is shared (same
// bytes, same decoded values). docs/migrating-from-msgpackr.md names these tests in its table.
//
// msgpackr's extension registry is process-wide, so the extensions here use type codes 50..58 and
// classes of their own, not used by other test files.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { readFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import * as msgpackr from "msgpackr";
import * as ours from "../mod.ts";
import {
  ALWAYS,
  clearSource,
  type Extension,
  mapsAsObjects,
  type Options,
  Packr,
  type Structure,
  unpack,
  type UnpackOptions,
  Unpackr,
  useRecords,
} from "../mod.ts";
import * as packEntry from "../pack.ts";
import * as unpackEntry from "../unpack.ts";
import { fromHex, hex } from "./_util.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

/** The names an `export { … } from` list of one of msgpackr's .d.ts files declares. */
function declaredNames(file: string): string[] {
  const text = readFileSync(new URL(`../node_modules/msgpackr/${file}`, import.meta.url), "utf8");
  const names: string[] = [];
  for (const [, list] of text.matchAll(/export\s*\{([^}]*)\}\s*from/g)) {
    for (const item of list.split(",")) names.push(item.trim().split(/\s+as\s+/).pop()!);
  }
  return names.filter(Boolean);
}

/** Type-only names of msgpackr's declarations: not runtime exports in either library. */
const TYPE_NAMES = new Set(["Options", "Extension"]);

describe("exports a msgpackr import needs", () => {
  test("every name msgpackr's main entry exports is exported by ours", () => {
    const missing = Object.keys(msgpackr).filter((name) => !(name in ours));
    assert.deepEqual(missing, []);
  });

  test("./pack exports what msgpackr's pack.d.ts declares, the same values", () => {
    const names = declaredNames("pack.d.ts");
    assert.ok(names.includes("Unpackr") && names.includes("unpack"));
    for (const name of names) {
      assert.ok(name in packEntry, `./pack exports ${name}`);
      if (name === "FLOAT32_OPTIONS" || name.endsWith("_MODE") || name.endsWith("_SPACE")) {
        assert.deepEqual(
          (packEntry as Record<string, unknown>)[name],
          (msgpackr as Record<string, unknown>)[name],
        );
      }
    }
    assert.equal(packEntry.Unpackr, ours.Unpackr);
    assert.equal(packEntry.unpack, ours.unpack);
  });

  test("./unpack exports what msgpackr's unpack.d.ts declares (addExtension, clearSource)", () => {
    const names = declaredNames("unpack.d.ts");
    assert.ok(names.includes("clearSource") && names.includes("addExtension"));
    for (const name of names) {
      if (TYPE_NAMES.has(name)) continue;
      assert.ok(name in unpackEntry, `./unpack exports ${name}`);
    }
    assert.equal(unpackEntry.addExtension, ours.addExtension);
  });

  test("useRecords and mapsAsObjects are msgpackr's constants", () => {
    assert.equal(useRecords, (msgpackr as Any).useRecords);
    assert.equal(mapsAsObjects, (msgpackr as Any).mapsAsObjects);
    // they describe the exported pack and unpack
    assert.equal(hex(ours.pack({ a: 1 })), hex(msgpackr.pack({ a: 1 })));
    assert.deepEqual(unpack(msgpackr.pack({ a: 1 })), { a: 1 });
  });

  test("the types Options and UnpackOptions take what msgpackr's do", () => {
    const options: Options = { useRecords: false, mapsAsObjects: true, useFloat32: ALWAYS };
    const window: UnpackOptions = { start: 1 };
    const bytes = new Packr(options).pack([1.5]);
    assert.equal(hex(bytes), hex(new msgpackr.Packr(options as Any).pack([1.5])));
    const framed = new Uint8Array([0xc0, ...bytes]);
    assert.deepEqual(new Unpackr(options).unpack(framed, window), [1.5]);
    assert.deepEqual(new msgpackr.Unpackr(options as Any).unpack(framed, window), [
      1.5,
    ]);
  });

  test("clearSource() can be called between decodes, as in msgpackr", () => {
    const input = msgpackr.pack({ list: [1, 2, 3], text: "x".repeat(600) });
    for (
      const [clear, decode] of [[clearSource, unpack], [msgpackr.clearSource, msgpackr.unpack]]
    ) {
      assert.deepEqual((decode as typeof unpack)(input).list, [1, 2, 3]);
      (clear as () => void)();
      assert.equal((decode as typeof unpack)(input).text.length, 600);
    }
  });
});

describe("detached methods", () => {
  test("const { pack, unpack } = new Packr(options) keeps the instance's options", () => {
    const structures: Structure[] = [["id", "name"]];
    const { pack, encode, unpack, decode } = new Packr({ structures: structures.slice() });
    const theirs = new msgpackr.Packr({ structures: structures.slice() });
    const value = { id: 1, name: "ann" };
    // the same bytes as msgpackr's pack, which is a per-instance closure there too
    assert.equal(hex(pack(value)), hex(theirs.pack(value)));
    assert.equal(hex(encode(value)), hex(theirs.encode(value)));
    assert.equal(hex(pack(value)), "40 01 a3 61 6e 6e");
    // the shared structure decodes: as msgpackr's attached unpack does (its detached unpack falls
    // back to the default options, which have no structures)
    assert.deepEqual(unpack(pack(value)), theirs.unpack(theirs.pack(value)));
    assert.deepEqual(decode(pack(value)), value);
    assert.throws(() => (theirs.unpack as Any).call(undefined, theirs.pack(value)));
  });

  test("const unpack = unpackr.unpack (and the Multiple forms) work with the options", () => {
    const unpackr = new Unpackr({ int64AsType: "number", mapsAsObjects: true });
    const unpack = unpackr.unpack;
    const decode = unpackr.decode;
    const unpackMultiple = unpackr.unpackMultiple;
    const decodeMultiple = unpackr.decodeMultiple;
    const int64 = fromHex("d3 00 00 00 00 00 00 00 07");
    const theirs = new msgpackr.Unpackr({ int64AsType: "number", mapsAsObjects: true });
    assert.equal(unpack(int64), theirs.unpack(int64));
    assert.equal(decode(int64), 7);
    const two = new Uint8Array([...int64, 0x81, 0xa1, 0x61, 0x01]);
    assert.deepEqual(unpackMultiple(two), theirs.unpackMultiple(two));
    assert.deepEqual(decodeMultiple(two), [7, { a: 1 }]);
    const seen: unknown[] = [];
    unpackMultiple(two, (value, start, end) => seen.push(value, start, end));
    assert.deepEqual(seen, [7, 0, 9, { a: 1 }, 9, 13]);
    // decodeMultiple is an alias: the same function, with and without a callback
    assert.equal(decodeMultiple, unpackMultiple);
    const again: unknown[] = [];
    decodeMultiple(two, (value) => again.push(value));
    assert.deepEqual(again, [7, { a: 1 }]);
  });

  test("subclass overrides and super calls still work, attached and detached", () => {
    class Tagged extends Packr {
      override pack(value: unknown, flags?: number): Any {
        return super.pack({ tagged: value }, flags);
      }
      override unpack<T>(source: Uint8Array): T {
        return (super.unpack(source) as { tagged: T }).tagged;
      }
    }
    const tagged = new Tagged({ useRecords: false, mapsAsObjects: true });
    const { pack, unpack, encode, decode } = tagged;
    assert.equal(hex(pack(1)), hex(msgpackr.pack({ tagged: 1 })));
    assert.equal(hex(encode(1)), hex(tagged.pack(1)));
    assert.equal(unpack(pack(5)), 5);
    assert.equal(decode(tagged.encode(6)), 6);
    assert.equal((Packr.prototype.pack as Any).call(tagged, 1).length, 1);
  });
});

describe("packr.structures", () => {
  test("carries sharedLength as saveStructures grows the table", () => {
    const seen: { ours: number[]; theirs: number[] } = { ours: [], theirs: [] };
    const ourPackr = new Packr({
      structures: [],
      saveStructures: (table: Structure[] & { sharedLength?: number }) => {
        seen.ours.push(table.sharedLength!);
      },
    });
    const theirPackr = new msgpackr.Packr({
      structures: [],
      saveStructures: (table: Any) => {
        seen.theirs.push(table.sharedLength);
      },
    });
    for (const value of [{ a: 1 }, { a: 2 }, { b: 1 }, [{ c: 1 }, { d: 1 }]]) {
      assert.equal(hex(ourPackr.pack(value)), hex(theirPackr.pack(value)));
      assert.equal(ourPackr.structures.sharedLength, (theirPackr as Any).structures.sharedLength);
    }
    assert.deepEqual(seen.ours, seen.theirs);
    assert.deepEqual(seen.ours, [1, 2, 4]);
    // not enumerable: the table still compares equal to a plain array of keys
    assert.deepEqual(ourPackr.structures, [["a"], ["b"], ["c"], ["d"]]);
  });

  test("carries sharedLength after getStructures reloads", () => {
    const stored: Structure[] = [["x"], ["y"]];
    const ourPackr = new Packr({ getStructures: () => stored.map((keys) => keys.slice()) });
    const theirPackr = new msgpackr.Packr({ getStructures: () => stored.map((k) => k.slice()) });
    assert.equal(hex(ourPackr.pack({ y: 1 })), hex(theirPackr.pack({ y: 1 })));
    assert.equal(ourPackr.structures.sharedLength, 2);
    assert.equal((theirPackr as Any).structures.sharedLength, 2);
    // a decoder loading them lazily
    const unpackr = new Unpackr({ getStructures: () => stored });
    assert.deepEqual(unpackr.unpack(fromHex("41 05")), { y: 5 });
    assert.equal(unpackr.structures, stored);
    assert.equal(unpackr.structures!.sharedLength, 2);
  });

  test("assigning packr.structures resets or loads a table, as in msgpackr", () => {
    const pair = [new Packr({ structures: [] }), new msgpackr.Packr({ structures: [] })] as Any[];
    const steps = pair.map((packr) => {
      const out = [hex(packr.pack({ a: 1 }))];
      packr.structures = []; // reset
      out.push(hex(packr.pack({ b: 1 })), JSON.stringify(packr.structures));
      const table: Any = [["x", "y"]];
      table.sharedLength = 1;
      packr.structures = table; // load
      out.push(hex(packr.pack({ x: 1, y: 2 })), hex(packr.pack({ z: 1 })));
      out.push(JSON.stringify(packr.structures), String(packr.structures.sharedLength));
      assert.deepEqual(packr.unpack(packr.pack({ x: 3, y: 4 })), { x: 3, y: 4 });
      return out;
    });
    assert.deepEqual(steps[0], steps[1]);
    assert.deepEqual(steps[0], [
      "40 01",
      "40 01",
      '[["b"]]',
      "40 01 02",
      "41 01",
      '[["x","y"],["z"]]',
      "2",
    ]);
  });

  test("unpackr.structures returns the table it was given", () => {
    const structures: Structure[] = [["id"]];
    const unpackr = new Unpackr({ structures });
    const theirs = new msgpackr.Unpackr({ structures: structures as Any });
    assert.equal(unpackr.structures, structures);
    assert.equal((theirs as Any).structures, structures);
    assert.equal(unpackr.structures!.sharedLength, 1);
    assert.equal(new Unpackr().structures, undefined);
    assert.equal((new msgpackr.Unpackr() as Any).structures, undefined);
    // a table assigned to an Unpackr is read as the shared one
    unpackr.structures = [["name"]];
    assert.deepEqual(unpackr.unpack(fromHex("40 a1 61")), { name: "a" });
  });
});

describe("trusted", () => {
  // a sequential packer defines the shape in its first message and refers to it in the second
  const writer = new msgpackr.Packr({ sequential: true });
  const first = writer.pack({ a: 1 });
  const second = writer.pack({ a: 2 });

  test("trusted: true keeps the definitions of one message for the next, as msgpackr", () => {
    assert.equal(hex(first), "d4 72 40 91 a1 61 01");
    assert.equal(hex(second), "40 02");
    for (
      const options of [
        { structures: [], trusted: true },
        { getStructures: () => [], trusted: true },
        { sequential: true },
      ]
    ) {
      const decoded = [new Unpackr(options as Options), new msgpackr.Unpackr(options as Any)].map(
        (unpackr) => [unpackr.unpack(first), unpackr.unpack(second)],
      );
      assert.deepEqual(decoded[0], [{ a: 1 }, { a: 2 }], JSON.stringify(options));
      assert.deepEqual(decoded[0], decoded[1]);
    }
    // a records Packr has a table: trusted applies to its decoding too
    const packr = new Packr({ trusted: true });
    assert.deepEqual([packr.unpack(first), packr.unpack(second)], [{ a: 1 }, { a: 2 }]);
    const theirPackr = new msgpackr.Packr({ trusted: true } as Any);
    assert.deepEqual([theirPackr.unpack(first), theirPackr.unpack(second)], [{ a: 1 }, { a: 2 }]);
  });

  test("without trusted, each unpack sees the shared structures only, as msgpackr", () => {
    for (
      const options of [
        { structures: [] },
        { trusted: true }, // no structure table: nothing to keep, in msgpackr too
        { sequential: true, trusted: false },
        { useRecords: false, trusted: true },
      ]
    ) {
      const decoders = [new Unpackr(options as Options), new msgpackr.Unpackr(options as Any)];
      for (const unpackr of decoders) {
        assert.deepEqual(unpackr.unpack(first), { a: 1 });
        // 0x40 is then the integer 64, and a byte is left over
        assert.throws(
          () => unpackr.unpack(second),
          /Data read, but end of buffer not reached 64/,
          JSON.stringify(options),
        );
      }
    }
  });

  test("trusted can be assigned after construction", () => {
    const unpackr = new Unpackr({ structures: [] });
    unpackr.trusted = true;
    assert.equal(unpackr.trusted, true);
    assert.deepEqual([unpackr.unpack(first), unpackr.unpack(second)], [{ a: 1 }, { a: 2 }]);
  });
});

describe("extensions with msgpackr's callback signatures", () => {
  test("pack(value, allocateForWrite, pack) writes raw bytes, the same as msgpackr", () => {
    class Pair50 {
      constructor(public left: unknown, public right: unknown) {}
    }
    const extension: Extension<Pair50> = {
      Class: Pair50,
      type: 50,
      // a one-byte tag, then the two values packed in place (as msgpackr's own Set extension)
      pack(pair, allocateForWrite, pack) {
        const { target, position } = allocateForWrite(3);
        target.set([0xd4, 50, 0x00], position);
        pack([pair.left, pair.right]);
      },
      read: ([left, right]: [unknown, unknown]) => new Pair50(left, right),
    };
    msgpackr.addExtension(extension as Any);
    const packr = new Packr({ useRecords: false });
    packr.addExtension(extension);
    const value = [new Pair50("a", { b: 1 }), 3];
    const bytes = packr.pack(value);
    assert.equal(hex(bytes), hex(new msgpackr.Packr({ useRecords: false }).pack(value)));
    assert.equal(hex(bytes), "92 d4 32 00 92 a1 61 de 00 01 a1 62 01 03");
    const decoded = packr.unpack(bytes);
    assert.ok(decoded[0] instanceof Pair50);
    assert.deepEqual(decoded[0], new Pair50("a", { b: 1 }));
    assert.deepEqual(decoded, new msgpackr.Unpackr({ mapsAsObjects: true }).unpack(bytes));
  });

  test("allocateForWrite gives target, targetView and position, as msgpackr", () => {
    class Stamp51 {
      constructor(public seconds: number) {}
    }
    const extension: Extension<Stamp51> = {
      Class: Stamp51,
      type: 51,
      pack(stamp, allocateForWrite) {
        // fixext4 of type 51: the seconds as a big-endian uint32
        const { target, targetView, position } = allocateForWrite(6);
        target[position] = 0xd6;
        target[position + 1] = 51;
        targetView.setUint32(position + 2, stamp.seconds);
      },
      unpack: (bytes) => new Stamp51(new DataView(bytes.buffer, bytes.byteOffset).getUint32(0)),
    };
    msgpackr.addExtension(extension as Any);
    const packr = new Packr();
    packr.addExtension(extension);
    const values = [new Stamp51(0x01020304), new Stamp51(7)];
    const bytes = packr.pack(values);
    assert.equal(hex(bytes), hex(new msgpackr.Packr().pack(values)));
    assert.equal(hex(bytes), "92 d6 33 01 02 03 04 d6 33 00 00 00 07");
    assert.deepEqual(packr.unpack(bytes), values);
    assert.deepEqual(new msgpackr.Unpackr().unpack(bytes), values);
  });

  test("unpack(bytes, readValueAt) decodes a value elsewhere in the input, as msgpackr", () => {
    // ext 52's payload holds offsets of values in the message
    const extension: Extension = {
      type: 52,
      unpack: (bytes, readValueAt) => ({ first: readValueAt(bytes[0]), again: readValueAt(1) }),
    };
    msgpackr.addExtension(extension as Any);
    const unpackr = new Unpackr({ mapsAsObjects: true });
    unpackr.addExtension(extension);
    // ["hello", ext2 type 52 payload 01 00]
    const bytes = fromHex("92 a5 68 65 6c 6c 6f d5 34 01 00");
    const expected = ["hello", { first: "hello", again: "hello" }];
    assert.deepEqual(unpackr.unpack(bytes), expected);
    assert.deepEqual(new msgpackr.Unpackr({ mapsAsObjects: true }).unpack(bytes), expected);
    // an offset outside the input is an error, not a read of other memory
    const outside = fromHex("d5 34 09 00");
    assert.throws(() => unpackr.unpack(outside), ours.DecodeError);
  });

  test("a pack that returns no bytes and writes nothing is a TypeError naming the type", () => {
    class Nothing53 {}
    const extension: Extension<Nothing53> = {
      Class: Nothing53,
      type: 53,
      pack: () => undefined,
      unpack: () => new Nothing53(),
    };
    msgpackr.addExtension(extension as Any);
    const packr = new Packr();
    packr.addExtension(extension);
    assert.throws(() => packr.pack([new Nothing53(), 1]), (error: Error) => {
      assert.ok(error instanceof TypeError);
      assert.match(error.message, /Extension 53 pack\(\) must return a Uint8Array/);
      return true;
    });
    // msgpackr writes nothing for the value: an array of two that holds one
    assert.equal(hex(new msgpackr.Packr().pack([new Nothing53(), 1])), "92 01");
    // an empty payload is a valid ext, in both
    class Empty54 {}
    const empty: Extension<Empty54> = {
      Class: Empty54,
      type: 54,
      pack: () => new Uint8Array(0),
      unpack: () => new Empty54(),
    };
    msgpackr.addExtension(empty as Any);
    packr.addExtension(empty);
    assert.equal(hex(packr.pack(new Empty54())), hex(new msgpackr.Packr().pack(new Empty54())));
    assert.equal(hex(packr.pack(new Empty54())), "c7 00 36");
  });
});

describe("options read from the instance", () => {
  test("assignable options change the next pack and unpack, as in msgpackr", () => {
    const packr = new Packr({ useRecords: false });
    const pair: Any[] = [packr, new msgpackr.Packr({ useRecords: false })];
    for (const packr of pair) {
      packr.useFloat32 = ALWAYS;
      packr.encodeUndefinedAsNil = true;
      packr.useTimestamp32 = true;
      packr.mapsAsObjects = false;
      packr.int64AsType = "string";
    }
    const value = [1.5, undefined, new Date(1_700_000_000_123), { a: 1 }];
    assert.equal(hex(pair[0].pack(value)), hex(pair[1].pack(value)));
    assert.equal(hex(pair[0].pack(1.5)), "ca 3f c0 00 00");
    const mixed = fromHex("92 81 a1 61 01 d3 00 00 00 00 00 00 00 09");
    assert.deepEqual(pair[0].unpack(mixed), pair[1].unpack(mixed));
    assert.deepEqual(pair[0].unpack(mixed), [new Map([["a", 1]]), "9"]);
    // reading gives what was assigned
    assert.equal(packr.useFloat32, ALWAYS);
    assert.equal(packr.mapsAsObjects, false);
    // and the default options come back
    packr.useFloat32 = 0;
    assert.equal(hex(packr.pack(1.5)), "cb 3f f8 00 00 00 00 00 00");
  });

  test("options read at construction only throw when assigned, and read back", () => {
    const packr = new Packr({ sequential: true, variableMapSize: false });
    for (const name of ["useRecords", "sequential", "variableMapSize", "maxOwnStructures"]) {
      assert.throws(
        () => ((packr as Any)[name] = false),
        new RegExp(`^TypeError: ${name} is read when the Packr is made`),
      );
    }
    assert.equal(packr.sequential, true);
    assert.equal(packr.variableMapSize, false);
    const unpackr = new Unpackr({ freezeData: true });
    assert.throws(() => ((unpackr as Any).freezeData = false), TypeError);
    assert.equal(unpackr.freezeData, true);
    // msgpackr keeps writing records after `useRecords = false` but writes 64 as a fixint, which
    // reads back as a record reference: ours refuses the assignment instead
    const theirs = new msgpackr.Packr();
    (theirs as Any).useRecords = false;
    assert.equal(hex(theirs.pack({ a: 64 })), "d4 72 40 91 a1 61 40");
    assert.throws(() => theirs.unpack(theirs.pack({ a: 64 })));
  });

  test("an invalid assignment leaves the option as it was", () => {
    const unpackr = new Unpackr({ int64AsType: "number" });
    assert.throws(() => ((unpackr as Any).int64AsType = "float"), /Unknown int64AsType "float"/);
    assert.equal(unpackr.int64AsType, "number");
    assert.equal(unpackr.unpack(fromHex("d3 00 00 00 00 00 00 00 02")), 2);
  });
});

/** The chunks msgpackr's Node PackrStream emits for the values (Node streams, in Deno and Bun). */
function theirStreamChunks(values: readonly unknown[], options = {}): Promise<Uint8Array[]> {
  return new Promise((resolve, reject) => {
    const stream = new msgpackr.PackrStream({ ...options });
    const chunks: Uint8Array[] = [];
    stream.on("data", (chunk: Uint8Array) => chunks.push(new Uint8Array(chunk)));
    stream.on("end", () => resolve(chunks));
    stream.on("error", reject);
    for (const value of values) stream.write(value);
    stream.end();
  });
}

describe("differences kept on purpose", () => {
  test("the exported pack() calls an extension with a this that packs, not a Packr", () => {
    class Tagged {
      constructor(public label: string) {}
    }
    const seen: unknown[] = [];
    ours.addExtension({
      Class: Tagged,
      type: 41,
      pack(this: unknown, value: Tagged) {
        seen.push(this);
        // msgpackr code packs the inner value with `this.pack`: it works here too
        return (this as { pack(value: unknown): Uint8Array }).pack(value.label);
      },
      unpack: (bytes: Uint8Array) => new Tagged(ours.unpack(bytes)),
    });
    const bytes = ours.pack({ tag: new Tagged("x") });
    assert.deepEqual(ours.unpack(bytes), { tag: new Tagged("x") });
    assert.ok(!(seen[0] instanceof Packr), "no Packr behind the exported pack()");
    assert.equal(typeof (seen[0] as { pack: unknown }).pack, "function");
    // a Packr's extension callbacks get the Packr, as in msgpackr
    const packr = new Packr({ useRecords: false });
    packr.pack(new Tagged("y"));
    assert.equal(seen[1], packr);
  });

  test("pack() returns a Uint8Array with its own ArrayBuffer; Buffer.from views it", () => {
    const value = { id: 1, bytes: new Uint8Array([1, 2, 3]) };
    const bytes = ours.pack(value);
    const theirs = msgpackr.pack(value);
    assert.equal(bytes.constructor, Uint8Array);
    assert.ok(!Buffer.isBuffer(bytes));
    assert.equal(bytes.byteOffset, 0);
    assert.equal(bytes.buffer.byteLength, bytes.length);
    assert.ok(Buffer.isBuffer(theirs));
    // where a Buffer is needed: a view of the same memory, no copy
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    assert.ok(buffer.equals(theirs));
    bytes[0] ^= 0xff;
    assert.equal(buffer[0], bytes[0]);
    // or pack into a Buffer with useBuffer
    const packr = new Packr({ useRecords: false });
    const target = Buffer.alloc(4096);
    packr.useBuffer(target);
    const written = packr.pack(value);
    assert.equal(written.buffer, target.buffer);
    assert.ok(
      target.subarray(written.byteOffset, written.byteOffset + written.length).equals(
        theirs,
      ),
    );
  });

  test("decoded binaries are Uint8Arrays, also from a Buffer input", () => {
    const input = Buffer.from(msgpackr.pack({ data: Buffer.from([1, 2, 3]) }));
    const ourData = unpack(input).data;
    const theirData = msgpackr.unpack(input).data;
    assert.equal(ourData.constructor, Uint8Array);
    assert.ok(Buffer.isBuffer(theirData));
    assert.deepEqual([...ourData], [...theirData]);
    // a view of the input, as msgpackr's (copyBuffers: true copies)
    assert.equal(ourData.buffer, input.buffer);
  });

  test("streams are Web TransformStreams, bridged to Node streams with toWeb/fromWeb", async () => {
    const values = [{ id: 1, name: "a" }, { id: 2, name: "b" }, "end"];
    // a Node object Readable into PackrStream, out to a Node Writable
    const written: Uint8Array[] = [];
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        written.push(chunk);
        callback();
      },
    });
    // (casts: @types/node declares its own Web stream types)
    await (Readable.toWeb(Readable.from(values)) as unknown as ReadableStream)
      .pipeThrough(new ours.PackrStream())
      .pipeTo(Writable.toWeb(sink) as WritableStream);
    // bytes from a Node Readable into UnpackrStream, out to a Node object Writable
    const decoded: unknown[] = [];
    const objectSink = new Writable({
      objectMode: true,
      write(value, _encoding, callback) {
        decoded.push(value);
        callback();
      },
    });
    await (Readable.toWeb(Readable.from(written)) as unknown as ReadableStream<Uint8Array>)
      .pipeThrough(new ours.UnpackrStream())
      .pipeTo(Writable.toWeb(objectSink) as WritableStream);
    assert.deepEqual(decoded, values);
    // and a Web stream of ours read as a Node Readable
    const readable = Readable.fromWeb(
      ReadableStream.from(values).pipeThrough(new ours.PackrStream()) as Any,
    );
    const bytes: Uint8Array[] = [];
    for await (const chunk of readable) bytes.push(chunk);
    assert.deepEqual(new Packr({ sequential: true }).unpackMultiple(Buffer.concat(bytes)), values);
    const batched: Uint8Array[] = [];
    for await (const chunk of Readable.fromWeb(ours.PackrStream.from(values) as Any)) {
      batched.push(chunk);
    }
    assert.deepEqual(Buffer.concat(batched), Buffer.concat(bytes));
  });

  test("PackrStream coalesces small values; coalesceBytes: 0 gives msgpackr's chunks", async () => {
    const values = Array.from({ length: 20 }, (_, id) => ({ id, name: `row ${id}` }));
    const theirs = await theirStreamChunks(values);
    assert.equal(theirs.length, values.length);
    const coalesced = await Array.fromAsync(
      ReadableStream.from(values).pipeThrough(
        new ours.PackrStream(),
      ),
    );
    assert.equal(coalesced.length, 1);
    assert.equal(hex(Buffer.concat(coalesced)), hex(Buffer.concat(theirs)));
    const oneEach = await Array.fromAsync(
      ReadableStream.from(values).pipeThrough(
        new ours.PackrStream({ coalesceBytes: 0 }),
      ),
    );
    assert.deepEqual(oneEach.map(hex), theirs.map(hex));
  });

  test("maxDepth limits nesting, where msgpackr decodes any depth its stack allows", () => {
    const deep = new Uint8Array(1101).fill(0x91); // 1100 nested one-element arrays
    deep[1100] = 0xc0;
    assert.throws(() => unpack(deep), /Nesting deeper than maxDepth \(1000\) at offset 1000/);
    let theirs = msgpackr.unpack(deep);
    for (let level = 0; level < 1100; level++) theirs = theirs[0];
    assert.equal(theirs, null);
    // raise it where such input is expected
    assert.deepEqual(new Unpackr({ maxDepth: 2000 }).unpack(deep), msgpackr.unpack(deep));
    // packing too
    let value: unknown = null;
    for (let level = 0; level < 1100; level++) value = [value];
    assert.equal(hex(msgpackr.pack(value)), hex(deep));
    assert.throws(() => ours.pack(value), RangeError);
    assert.equal(hex(new Packr({ useRecords: false, maxDepth: 2000 }).pack(value)), hex(deep));
  });

  test("errors are DecodeError / IncompleteDataError with the offset in the message", () => {
    const truncated = fromHex("92 01");
    assert.throws(() => msgpackr.unpack(truncated), (error: Any) => error.incomplete === true);
    assert.throws(() => unpack(truncated), (error: Any) => {
      assert.ok(error instanceof ours.IncompleteDataError);
      assert.ok(error instanceof ours.DecodeError && error instanceof SyntaxError);
      assert.equal(error.incomplete, true);
      assert.equal(error.missingBytes, 1);
      assert.match(error.message, /^Unexpected end of MessagePack data at offset 2/);
      return true;
    });
    const trailing = fromHex("01 02");
    assert.throws(() => msgpackr.unpack(trailing), /^Error: Data read, but end of buffer/);
    assert.throws(() => unpack(trailing), (error: Any) => {
      assert.ok(error instanceof ours.DecodeError);
      assert.equal(error.offset, 1);
      assert.match(error.message, /^Data read, but end of buffer not reached 1 at offset 1$/);
      return true;
    });
  });

  test("addExtension is global as in msgpackr; packr.addExtension is one instance's", () => {
    class Global55 {}
    class Local56 {}
    const global: Extension<Global55> = {
      Class: Global55,
      type: 55,
      pack: () => new Uint8Array([1]),
      unpack: () => new Global55(),
    };
    ours.addExtension(global);
    msgpackr.addExtension(global as Any);
    assert.equal(
      hex(new Packr().pack(new Global55())),
      hex(new msgpackr.Packr().pack(new Global55())),
    );
    assert.ok(new Unpackr().unpack(fromHex("d4 37 01")) instanceof Global55);
    // msgpackr has no addExtension method; ours registers for that instance only
    assert.equal((new msgpackr.Packr() as Any).addExtension, undefined);
    const packr = new Packr();
    packr.addExtension({
      Class: Local56,
      type: 56,
      write: () => 1,
      read: () => new Local56(),
    });
    assert.equal(hex(packr.pack(new Local56())), "d4 38 00 01");
    assert.ok(packr.unpack(fromHex("d4 38 00 01")) instanceof Local56);
    // another instance packs it as an object with no properties
    assert.equal(hex(new Packr({ useRecords: false }).pack(new Local56())), "de 00 00");
    assert.throws(() => new Unpackr().unpack(fromHex("d4 38 00 01")), /Unknown extension 56/);
  });

  test("typed arrays without moreTypes are their real bytes", () => {
    const value = new Uint16Array([1, 0x0102]);
    assert.equal(hex(ours.pack(value)), "c4 04 01 00 02 01"); // little-endian memory
    // msgpackr writes each element truncated to a byte, then whatever its buffer held
    assert.equal(hex(msgpackr.pack(value).subarray(0, 4)), "c4 04 01 02");
    assert.deepEqual([...unpack(ours.pack(value))], [1, 0, 2, 1]);
  });

  test("a lone surrogate is U+FFFD at every length, where msgpackr writes WTF-8 under 64 units", () => {
    const short = "a\ud800";
    assert.equal(hex(ours.pack(short)), "a4 61 ef bf bd"); // what TextEncoder writes
    assert.equal(hex(msgpackr.pack(short)), "a4 61 ed a0 80"); // not UTF-8
    const long = "a".repeat(63) + "\ud800";
    assert.equal(hex(ours.pack(long)), hex(msgpackr.pack(long))); // both U+FFFD from 64 units
    // the same length either way; each side reads the other's bytes
    assert.equal(unpack(ours.pack(short)), "a\ufffd");
    assert.equal(msgpackr.unpack(ours.pack(short)), "a\ufffd");
    assert.equal(unpack(msgpackr.pack(short)), "a\ufffd\ufffd\ufffd");
  });

  test("an Error without a cause decodes without a cause property", () => {
    const packrs = [new Packr({ moreTypes: true }), new msgpackr.Packr({ moreTypes: true })];
    const bytes = packrs.map((packr) => hex(packr.pack(new Error("x"))));
    assert.equal(bytes[0], bytes[1]);
    const [mine, theirs] = packrs.map((packr) => packr.unpack(fromHex(bytes[0])));
    assert.equal(mine.message, theirs.message);
    assert.equal("cause" in mine, false);
    assert.equal("cause" in theirs, true); // `cause: undefined`
    const withCause = new Error("y", { cause: 7 });
    assert.equal(packrs[0].unpack(packrs[0].pack(withCause)).cause, 7);
  });

  test("a timestamp decodes to the millisecond that holds it, where msgpackr rounds", () => {
    const cases: [string, number, number][] = [
      // 2038-01-19T03:14:07.999999999Z: msgpackr rounds up to the next second
      ["d7 ff ee 6b 27 fc 7f ff ff ff", 2147483647999, 2147483648000],
      // 1969-12-31T23:59:59.999999999Z: msgpackr goes toward 1970
      ["c7 0c ff 3b 9a c9 ff ff ff ff ff ff ff ff ff", -1, 0],
    ];
    for (const [bytes, mine, theirs] of cases) {
      assert.equal((unpack(fromHex(bytes)) as Date).getTime(), mine);
      assert.equal((msgpackr.unpack(fromHex(bytes)) as Date).getTime(), theirs);
    }
    // the Dates both write decode the same in both
    for (const time of [0, 1500, -1, 1700000000123, -62167219200000]) {
      const bytes = msgpackr.pack(new Date(time));
      assert.equal(hex(ours.pack(new Date(time))), hex(bytes));
      assert.equal((unpack(bytes) as Date).getTime(), time);
    }
    // the nanoseconds, where wanted
    const exact = new Unpackr({ timestamps: "timestamp" }).unpack(fromHex(cases[0][0]));
    assert.equal(String(exact), "2038-01-19T03:14:07.999999999Z");
  });

  test("a timestamp of another length is a DecodeError, where msgpackr gives an invalid Date", () => {
    const bytes = fromHex("c7 05 ff 00 00 00 00 00");
    assert.ok(Number.isNaN((msgpackr.unpack(bytes) as Date).getTime()));
    assert.throws(() => unpack(bytes), ours.DecodeError);
    // msgpackr's own invalid Date stays one
    assert.equal(hex(msgpackr.pack(new Date(NaN))), "d4 ff ff");
    assert.ok(Number.isNaN((unpack(fromHex("d4 ff ff")) as Date).getTime()));
  });

  test("a Temporal.Instant packs as a timestamp, where msgpackr writes its ISO text", {
    skip: typeof (globalThis as { Temporal?: unknown }).Temporal === "undefined"
      ? "this runtime has no Temporal"
      : false,
  }, () => {
    const Temporal = (globalThis as Any).Temporal;
    const instant = Temporal.Instant.fromEpochNanoseconds(1700000000123456789n);
    assert.equal(msgpackr.unpack(msgpackr.pack(instant)), "2023-11-14T22:13:20.123456789Z");
    assert.equal(hex(ours.pack(instant)), "d7 ff 1d 6f 34 54 65 53 f1 00");
    assert.equal((unpack(ours.pack(instant)) as Date).getTime(), 1700000000123);
  });
});

describe("stream options packr and unpackr", () => {
  class Point57 {
    constructor(public x: number, public y: number) {}
  }
  const extension: Extension<Point57> = {
    Class: Point57,
    type: 57,
    write: (point) => [point.x, point.y],
    read: ([x, y]: [number, number]) => new Point57(x, y),
  };
  msgpackr.addExtension(extension as Any);
  const values = [{ id: 1, at: new Point57(1, 2) }, { id: 2, at: new Point57(3, 4) }, "end"];

  test("new PackrStream({ packr }) packs with the instance given, as msgpackr", async () => {
    const packr = new Packr({ structures: [["id", "at"]], sequential: true });
    packr.addExtension(extension);
    const theirPackr = new msgpackr.Packr({ structures: [["id", "at"]], sequential: true });
    const theirs = await theirStreamChunks(values, { packr: theirPackr });
    const oneEach = await Array.fromAsync(
      ReadableStream.from(values).pipeThrough(new ours.PackrStream({ packr, coalesceBytes: 0 })),
    );
    assert.deepEqual(oneEach.map(hex), theirs.map(hex));
    assert.equal(hex(oneEach[0]), "40 01 d4 39 00 92 01 02"); // the shared structure, the extension
    const coalesced = await Array.fromAsync(
      ReadableStream.from(values).pipeThrough(new ours.PackrStream({ packr })),
    );
    assert.equal(coalesced.length, 1);
    assert.equal(hex(Buffer.concat(coalesced)), hex(Buffer.concat(theirs)));
    // the instance is the one that packed: its table is the one used, and it is still usable
    assert.deepEqual(packr.structures, [["id", "at"]]);
    assert.equal(hex(packr.pack({ id: 3, at: new Point57(0, 0) })), "40 03 d4 39 00 92 00 00");
  });

  test("new UnpackrStream({ unpackr }) decodes with the instance given, as msgpackr", async () => {
    const bytes = new msgpackr.Packr({ structures: [["id", "at"]], sequential: true });
    const chunks = values.map((value) => bytes.pack(value));
    const unpackr = new Unpackr({ structures: [["id", "at"]], sequential: true });
    unpackr.addExtension(extension);
    const decoded = await Array.fromAsync(
      ReadableStream.from(chunks).pipeThrough(new ours.UnpackrStream({ unpackr })),
    );
    assert.deepEqual(decoded, values);
    assert.ok((decoded[0] as { at: unknown }).at instanceof Point57);
    const theirUnpackr = new msgpackr.Unpackr({ structures: [["id", "at"]], sequential: true });
    const theirs = await Array.fromAsync(
      Readable.from(chunks).pipe(new msgpackr.UnpackrStream({ unpackr: theirUnpackr } as Any)),
    );
    assert.deepEqual(theirs, decoded);
    // without the instance's structures the first value does not decode
    await assert.rejects(
      Array.fromAsync(ReadableStream.from(chunks).pipeThrough(new ours.UnpackrStream())),
    );
  });
});

describe("encodeIter and decodeIter are sync for sync input", () => {
  const values = [{ id: 1, name: "a" }, { id: 2, name: "b" }, [1, 2]];

  test("[...encodeIter(values)] and [...decodeIter(chunks)], as msgpackr", () => {
    const chunks = [...ours.encodeIter(values)];
    assert.deepEqual([...ours.decodeIter(chunks)], values);
    const theirs = [...(msgpackr.encodeIter as Any)(values)] as Uint8Array[];
    assert.deepEqual([...(msgpackr.decodeIter as Any)(theirs)], values);
    // each library reads the other's
    assert.deepEqual([...ours.decodeIter(theirs)], values);
    assert.deepEqual([...(msgpackr.decodeIter as Any)(chunks)], values);
    // a generator is a sync source too
    function* generate() {
      yield* values;
    }
    const iterator = ours.encodeIter(generate());
    assert.equal(typeof (iterator as Any)[Symbol.iterator], "function");
    assert.deepEqual([...ours.decodeIter(iterator)], values);
  });

  test("async input gives an async iterator, in both", async () => {
    async function* generate() {
      yield* values;
    }
    const iterator = ours.encodeIter(generate());
    assert.equal(typeof iterator[Symbol.asyncIterator], "function");
    assert.equal(typeof (iterator as Any)[Symbol.iterator], "undefined");
    const theirs = (msgpackr.encodeIter as Any)(generate());
    assert.equal(typeof theirs[Symbol.asyncIterator], "function");
    const chunks = await Array.fromAsync(iterator);
    async function* replay() {
      yield* chunks;
    }
    assert.deepEqual(await Array.fromAsync(ours.decodeIter(replay())), values);
    assert.deepEqual(await Array.fromAsync(ours.decodeIter(ReadableStream.from(chunks))), values);
  });

  test("encodeIter takes the options that make each chunk a standalone message", () => {
    // msgpackr's encodeIter packs each value on its own (records, not sequential)
    const theirs = [...(msgpackr.encodeIter as Any)(values)] as Uint8Array[];
    const standalone = [...ours.encodeIter(values, { coalesceBytes: 0, sequential: false })];
    assert.deepEqual(standalone.map(hex), theirs.map(hex));
    assert.deepEqual(standalone.map((chunk) => unpack(chunk)), values);
    const theirPlain = [...(msgpackr.encodeIter as Any)(values, { useRecords: false })];
    const plain = [...ours.encodeIter(values, { coalesceBytes: 0, useRecords: false })];
    assert.deepEqual(plain.map(hex), theirPlain.map(hex));
    assert.deepEqual(plain.map((chunk) => unpack(chunk)), values);
    // by default, one sequential stream in coalesced chunks
    assert.equal([...ours.encodeIter(values)].length, 1);
  });
});
