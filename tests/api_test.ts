// Copyright 2026 the @x/msgpackr authors. MIT license.
// The public API of the standard codec: aliases, unpackMultiple, useBuffer and buffer flags,
// C1, the float32 options, output and input types, decode windows, binary views.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import * as msgpackr from "msgpackr";
import {
  ALWAYS,
  C1,
  C1Type,
  DECIMAL_FIT,
  DECIMAL_ROUND,
  decode,
  DecodeError,
  Decoder,
  encode,
  Encoder,
  FLOAT32_OPTIONS,
  IncompleteDataError,
  isNativeAccelerationEnabled,
  NEVER,
  pack,
  Packr,
  type PackrOptions,
  RESERVE_START_SPACE,
  RESET_BUFFER_MODE,
  REUSE_BUFFER_MODE,
  type ReusedBuffer,
  roundFloat32,
  unpack,
  unpackMultiple,
  Unpackr,
} from "../mod.ts";
import * as packEntry from "../pack.ts";
import * as unpackEntry from "../unpack.ts";
import { allCases } from "./_corpus.ts";
import { withPlainBytes } from "./_interop.ts";
import { fromHex, hex } from "./_util.ts";

const SAMPLE = {
  id: 7,
  name: "ann",
  tags: ["a", "b"],
  bin: new Uint8Array([1, 2]),
  at: new Date(1500),
};

describe("aliases", () => {
  test("Encoder and Decoder are Packr and Unpackr", () => {
    assert.equal(Encoder, Packr);
    assert.equal(Decoder, Unpackr);
    assert.ok(new Encoder() instanceof Packr);
    assert.ok(new Decoder() instanceof Unpackr);
    assert.ok(new Packr() instanceof Unpackr, "a Packr also decodes");
  });

  test("encode() and decode() behave as pack() and unpack()", () => {
    for (const entry of allCases().slice(0, 150)) {
      assert.equal(hex(encode(entry.value)), hex(pack(entry.value)), entry.name);
      const bytes = pack(entry.value);
      assert.deepEqual(decode(bytes), unpack(bytes), entry.name);
    }
    assert.deepEqual(decode(pack(SAMPLE), { start: 0 }), SAMPLE);
  });

  test("Packr.encode() and Unpackr.decode() behave as pack() and unpack()", () => {
    for (const options of [{}, { useRecords: false }, { useFloat32: ALWAYS }] as PackrOptions[]) {
      const packr = new Packr(options);
      const bytes = packr.pack(SAMPLE);
      assert.equal(hex(new Packr(options).encode(SAMPLE)), hex(bytes));
      assert.deepEqual(new Unpackr(options).decode(bytes), new Unpackr(options).unpack(bytes));
      assert.deepEqual(packr.decode(bytes), packr.unpack(bytes));
    }
  });

  test("the pack and unpack entry points export the same bindings as mod.ts", () => {
    assert.equal(packEntry.pack, pack);
    assert.equal(packEntry.Packr, Packr);
    assert.equal(packEntry.C1, C1);
    assert.equal(packEntry.FLOAT32_OPTIONS, FLOAT32_OPTIONS);
    assert.equal(unpackEntry.unpack, unpack);
    assert.equal(unpackEntry.Unpackr, Unpackr);
    assert.equal(unpackEntry.unpackMultiple, unpackMultiple);
    assert.equal(unpackEntry.DecodeError, DecodeError);
    assert.equal(unpackEntry.C1, C1);
  });

  test("Packr and Unpackr options are typed; unknown names are ignored at run time", () => {
    // @ts-expect-error: a misspelt option is a type error...
    const packr = new Packr({ useRecords: false, varaibleMapSize: true });
    // ...and ignored when run, as msgpackr does
    assert.equal(hex(packr.pack({ a: 1 })), "de 00 01 a1 61 01");
    // @ts-expect-error: a wrong option type is a type error too
    const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: "yes" });
    assert.deepEqual(unpackr.unpack(fromHex("81 a1 61 01")), { a: 1 });
  });
});

describe("unpackMultiple()", () => {
  const values = [1, "two", { three: 3 }, [4], null, 2n ** 63n, new Date(1500)];
  const bytes = new Uint8Array(values.flatMap((value) => [...pack(value)]));

  test("unpackMultiple() returns every value", () => {
    assert.deepEqual(unpackMultiple(bytes), values);
    assert.deepEqual(new Unpackr({ useRecords: false }).unpackMultiple(bytes), values);
    assert.deepEqual(unpackMultiple(pack(1)), [1]);
  });

  test("unpackMultiple() calls back with each value and its byte range, as msgpackr", () => {
    const seen: [unknown, number, number][] = [];
    const result = unpackMultiple(bytes, (value, start, end) => {
      seen.push([value, start, end]);
    });
    assert.equal(result, undefined);
    const theirs: [unknown, number | undefined, number | undefined][] = [];
    msgpackr.unpackMultiple(bytes, (value, start, end) => {
      theirs.push([value, start, end]);
    });
    assert.deepEqual(seen, theirs);
    let offset = 0;
    for (const [i, [value, start, end]] of seen.entries()) {
      assert.deepEqual(value, values[i]);
      assert.equal(start, offset);
      assert.equal(end - start, pack(values[i]).length);
      offset = end;
    }
    assert.equal(offset, bytes.length);
  });

  test("unpackMultiple() stops when the callback returns false, and only then", () => {
    const seen: unknown[] = [];
    unpackMultiple(bytes, (value) => {
      seen.push(value);
      return value !== "two";
    });
    assert.deepEqual(seen, [1, "two"]);
    let count = 0;
    unpackMultiple(bytes, () => {
      count++;
      return 0; // falsy but not false: continues
    });
    assert.equal(count, values.length);
    // stopping before a truncated tail means the tail is never read
    const truncated = new Uint8Array([...bytes.subarray(0, 3), 0xda, 0x00]);
    const first: unknown[] = [];
    unpackMultiple(truncated, (value) => {
      first.push(value);
      return false;
    });
    assert.deepEqual(first, [1]);
  });

  test("unpackMultiple() reports the failed value's start and the values before it", () => {
    const truncated = bytes.subarray(0, bytes.length - 3);
    const lastStart = bytes.length - pack(values.at(-1)).length;
    assert.throws(() => unpackMultiple(truncated), (error: unknown) => {
      assert.ok(error instanceof IncompleteDataError);
      assert.equal(error.lastPosition, lastStart);
      assert.deepEqual(error.values, values.slice(0, -1));
      return true;
    });
    assert.throws(() => unpackMultiple(truncated, () => {}), (error: unknown) => {
      assert.ok(error instanceof IncompleteDataError);
      assert.equal(error.lastPosition, lastStart);
      assert.equal(error.values, undefined);
      return true;
    });
    assert.throws(() => unpackMultiple(new Uint8Array(0)), IncompleteDataError);
  });

  test("unpackMultiple() reads msgpackr's concatenated output", () => {
    const theirBytes = Buffer.concat(values.map((value) => msgpackr.pack(value)));
    assert.deepEqual(unpackMultiple(theirBytes), values);
  });
});

describe("Packr.useBuffer()", () => {
  test("Packr.useBuffer() writes consecutive packs into the buffer, 8-byte aligned", () => {
    const buffer = new Uint8Array(8192);
    const packr = new Packr({ useRecords: false });
    packr.useBuffer(buffer);
    const first = packr.pack("abc");
    const second = packr.pack([1, 2, 3]);
    const third = packr.pack({ a: 1 });
    for (const bytes of [first, second, third]) {
      assert.equal(bytes.buffer, buffer.buffer);
      assert.equal(bytes.constructor, Uint8Array);
    }
    assert.deepEqual([first.byteOffset, second.byteOffset, third.byteOffset], [0, 8, 16]);
    assert.equal(hex(first), "a3 61 62 63");
    assert.equal(hex(buffer.subarray(8, 12)), "93 01 02 03");
    assert.equal(hex(third), "de 00 01 a1 61 01");
    assert.equal(packr.position, 22);
    assert.equal(packr.offset, 22);
    // calling it again starts over at the beginning
    packr.useBuffer(buffer);
    assert.equal(packr.position, 0);
    assert.equal(packr.pack("z").byteOffset, 0);
  });

  test("Packr.useBuffer() places packs where msgpackr does", () => {
    const ours = new Packr({ useRecords: false });
    const theirs = new msgpackr.Packr({ useRecords: false });
    const ourBuffer = new Uint8Array(4096);
    const theirBuffer = Buffer.alloc(4096); // msgpackr needs a Buffer on Node, Deno and Bun
    ours.useBuffer(ourBuffer);
    theirs.useBuffer(theirBuffer);
    for (const value of ["abc", [1, 2, 3], { a: "x".repeat(100) }, 1, "y".repeat(3000), 2]) {
      const a = ours.pack(value);
      const b = theirs.pack(value);
      assert.equal(hex(a), hex(b));
      assert.equal(a.byteOffset, b.byteOffset);
      assert.equal(a.buffer === ourBuffer.buffer, b.buffer === theirBuffer.buffer);
      assert.equal(ours.position, theirs.position);
    }
  });

  test("Packr.useBuffer() continues in a new buffer when a value outgrows it", () => {
    const buffer = new Uint8Array(4096);
    const packr = new Packr({ useRecords: false });
    packr.useBuffer(buffer);
    const small = packr.pack(1);
    const big = "x".repeat(10000);
    const large = packr.pack(big);
    assert.equal(small.buffer, buffer.buffer);
    assert.notEqual(large.buffer, buffer.buffer);
    assert.equal(unpack(large), big);
    assert.equal(small[0], 1, "earlier packs are left alone");
    const next = packr.pack(2);
    assert.equal(next.buffer, large.buffer, "later packs continue in the new buffer");
    assert.equal(next.byteOffset, (large.length + 7) & ~7);
    // the first buffer given again: packs go back into it, from its start
    packr.useBuffer(buffer);
    const again = packr.pack("again");
    assert.equal(again.buffer, buffer.buffer);
    assert.equal(again.byteOffset, 0);
    assert.equal(unpack(again), "again");
    // and a buffer that was transferred away since is refused, as the first time
    const moved = new Uint8Array(4096);
    packr.useBuffer(moved);
    structuredClone(moved.buffer, { transfer: [moved.buffer] });
    assert.throws(() => packr.useBuffer(moved), TypeError);
    // a buffer too small to start in (< 2 KiB left) is not used at all, as in msgpackr
    packr.useBuffer(new Uint8Array(100));
    const elsewhere = packr.pack("a");
    assert.equal(elsewhere.buffer.byteLength >= 4096, true);
    assert.equal(unpack(elsewhere), "a");
  });

  test("Packr.useBuffer() given once: packs go on into new buffers of its size, kept views intact", () => {
    const message = { id: 18231, method: "orders.update", note: "left at the front door" };
    const ours = new Packr({ useRecords: false });
    const theirs = new msgpackr.Packr({ useRecords: false });
    const buffer = new Uint8Array(8192);
    ours.useBuffer(buffer);
    theirs.useBuffer(Buffer.alloc(8192));
    const kept: Uint8Array[] = [];
    const theirOffsets: number[] = [];
    for (let i = 0; i < 500; i++) {
      kept.push(ours.pack({ ...message, id: i }));
      theirOffsets.push(theirs.pack({ ...message, id: i }).byteOffset);
    }
    // a new buffer whenever fewer than 2 KiB are left, where msgpackr starts one
    assert.deepEqual(kept.map((bytes) => bytes.byteOffset), theirOffsets);
    const buffers = [...new Set(kept.map((bytes) => bytes.buffer))];
    assert.equal(buffers[0], buffer.buffer);
    assert.equal(buffers.length > 4, true);
    for (const other of buffers.slice(1)) assert.equal(other.byteLength, 8192);
    const firstElsewhere = kept.findIndex((bytes) => bytes.buffer !== buffer.buffer);
    const lastInGiven = kept[firstElsewhere - 1];
    assert.equal(
      8192 - 10 - ((lastInGiven.byteOffset + lastInGiven.length + 7) & ~7) < 0x800,
      true,
    );
    // no later pack wrote over an earlier result
    kept.forEach((bytes, i) => assert.deepEqual(unpack(bytes), { ...message, id: i }));
  });

  test("Packr.useBuffer() accepts a Node Buffer and returns plain Uint8Array views", () => {
    const buffer = Buffer.alloc(4096);
    const packr = new Packr({ useRecords: false });
    packr.useBuffer(buffer);
    const bytes = packr.pack({ a: [1, 2] });
    assert.equal(bytes.constructor, Uint8Array);
    assert.equal(bytes.buffer, buffer.buffer);
    assert.equal(hex(buffer.subarray(0, bytes.length)), hex(bytes));
  });

  test("Packr.useBuffer() is per instance: other Packrs and pack() are unaffected", () => {
    const buffer = new Uint8Array(4096);
    const packr = new Packr({ useRecords: false });
    packr.useBuffer(buffer);
    packr.pack("mine");
    const other = new Packr({ useRecords: false }).pack("other");
    const exported = pack("exported");
    assert.notEqual(other.buffer, buffer.buffer);
    assert.notEqual(exported.buffer, buffer.buffer);
    assert.equal(packr.pack("again").byteOffset, 8);
  });

  test("a buffer partly used (useBuffer) that grows during a map or a bundle: msgpackr's bytes", () => {
    // map16 counts and bundle headers are written back after their contents: when the output
    // grows meanwhile and did not start at 0, they must land where the contents moved to
    for (const bundleStrings of [false, true]) {
      for (const count of [50, 160, 400]) {
        const value = Array.from(
          { length: count },
          (_, i) => ({ text: `${"x".repeat(20 + (i % 7) * 30)} ${i}`, n: i }),
        );
        const expected = hex(
          new msgpackr.Packr({ useRecords: false, bundleStrings }).pack(value),
        );
        for (const size of [300, 1000, 5000, 20000]) {
          const packr = new Packr({ useRecords: false, bundleStrings });
          packr.useBuffer(new Uint8Array(size));
          packr.pack({ first: 1 });
          assert.equal(hex(packr.pack(value)), expected, `${bundleStrings} ${count} ${size}`);
        }
      }
    }
  });
});

describe("errors while packing", () => {
  test("Packr.pack() recovers after a value that cannot be packed", () => {
    const buffer = new Uint8Array(8192);
    const packr = new Packr({ useRecords: false });
    packr.useBuffer(buffer);
    const first = packr.pack("first");
    const position = packr.position;
    for (const bad of [["x".repeat(100), Symbol("s")], { big: 2n ** 70n }]) {
      assert.throws(() => packr.pack(bad));
      assert.equal(packr.position, position, "a failed pack does not move the position");
      assert.throws(() => pack(bad));
    }
    assert.equal(hex(packr.pack("second")), "a6 73 65 63 6f 6e 64");
    assert.equal(unpack(first), "first");
    assert.equal(hex(pack([1, 2])), "92 01 02");
    assert.equal(hex(new Packr().pack({ a: 1 })), "d4 72 40 91 a1 61 01");
  });
});

describe("buffer flags", () => {
  test("the flag constants have msgpackr's values", () => {
    assert.equal(REUSE_BUFFER_MODE, 512);
    assert.equal(RESET_BUFFER_MODE, 1024);
    assert.equal(RESERVE_START_SPACE, 2048);
    assert.equal(REUSE_BUFFER_MODE, msgpackr.REUSE_BUFFER_MODE);
    assert.equal(RESET_BUFFER_MODE, msgpackr.RESET_BUFFER_MODE);
    assert.equal(RESERVE_START_SPACE, msgpackr.RESERVE_START_SPACE);
  });

  test("Packr.pack(value, REUSE_BUFFER_MODE) returns the whole buffer with start and end", () => {
    const packr = new Packr({ useRecords: false });
    const whole = packr.pack(SAMPLE, REUSE_BUFFER_MODE);
    assert.equal(whole.constructor, Uint8Array);
    assert.ok(whole.length >= whole.end);
    assert.equal(hex(whole.subarray(whole.start, whole.end)), hex(pack(SAMPLE)));
    const copy = whole.slice(whole.start, whole.end);
    // the returned buffer is not reused by later packs
    packr.pack("x".repeat(500));
    pack({ other: true });
    assert.equal(hex(whole.subarray(whole.start, whole.end)), hex(copy));
  });

  test("Packr.pack(value, REUSE_BUFFER_MODE) after useBuffer() returns that buffer", () => {
    const buffer = new Uint8Array(4096);
    const packr = new Packr({ useRecords: false });
    packr.useBuffer(buffer);
    packr.pack("first");
    const whole = packr.pack("q", REUSE_BUFFER_MODE);
    assert.equal(whole.buffer, buffer.buffer);
    assert.equal(whole.length, 4096);
    assert.deepEqual([whole.start, whole.end], [8, 10]);
  });

  test("Packr.pack(value, RESET_BUFFER_MODE) lets the next pack overwrite the same bytes", () => {
    const buffer = new Uint8Array(4096);
    const packr = new Packr({ useRecords: false });
    packr.useBuffer(buffer);
    packr.pack("keep");
    const reset = packr.pack("gone", RESET_BUFFER_MODE);
    assert.equal(reset.byteOffset, 8);
    assert.equal(packr.position, 8);
    const next = packr.pack("hh");
    assert.equal(next.byteOffset, 8);
    assert.equal(hex(reset.subarray(0, 3)), "a2 68 68");
    assert.equal(unpack(buffer.subarray(0, 5)), "keep");
    const combined = packr.pack("r", REUSE_BUFFER_MODE | RESET_BUFFER_MODE);
    assert.equal(packr.pack("s", REUSE_BUFFER_MODE).start, (combined as ReusedBuffer).start);
  });

  test("Packr.pack(value, RESERVE_START_SPACE | n) leaves n bytes before the value", () => {
    const packr = new Packr({ useRecords: false });
    for (const reserve of [0, 1, 5, 8, 255]) {
      const bytes = packr.pack(SAMPLE, RESERVE_START_SPACE | reserve);
      assert.equal(bytes.length, reserve + pack(SAMPLE).length);
      assert.equal(hex(bytes.subarray(reserve)), hex(pack(SAMPLE)));
      const theirs = new msgpackr.Packr({ useRecords: false }).pack(
        SAMPLE,
        RESERVE_START_SPACE | reserve,
      );
      assert.equal(hex(bytes.subarray(reserve)), hex(theirs.subarray(reserve)));
      assert.equal(theirs.length, bytes.length);
    }
    const buffer = new Uint8Array(4096);
    packr.useBuffer(buffer);
    const framed = packr.pack([1], RESERVE_START_SPACE | 4);
    assert.equal(framed.buffer, buffer.buffer);
    assert.equal(hex(buffer.subarray(4, 6)), "91 01");
  });
});

describe("C1", () => {
  test("pack(C1) writes 0xc1 and unpack() returns the C1 singleton", () => {
    assert.equal(hex(pack(C1)), "c1");
    assert.equal(unpack(new Uint8Array([0xc1])), C1);
    assert.ok(C1 instanceof C1Type);
    assert.equal(C1.name, "MessagePack 0xC1");
    const nested = unpack(pack({ list: [C1, 1], c: C1 }));
    assert.equal(nested.list[0], C1);
    assert.equal(nested.c, C1);
    assert.equal(new Packr().unpack(new Packr().pack([C1]))[0], C1);
  });

  test("C1 interoperates with msgpackr's C1", () => {
    assert.equal(hex(pack(C1)), hex(msgpackr.pack(msgpackr.C1)));
    assert.equal(unpack(msgpackr.pack(msgpackr.C1)), C1);
    assert.equal(msgpackr.unpack(pack([C1]))[0], msgpackr.C1);
  });
});

describe("float32 options", () => {
  test("FLOAT32_OPTIONS and its constants have msgpackr's values", () => {
    assert.deepEqual({ ...FLOAT32_OPTIONS }, {
      NEVER: 0,
      ALWAYS: 1,
      DECIMAL_ROUND: 3,
      DECIMAL_FIT: 4,
    });
    assert.deepEqual({ ...FLOAT32_OPTIONS }, { ...msgpackr.FLOAT32_OPTIONS });
    assert.deepEqual([NEVER, ALWAYS, DECIMAL_ROUND, DECIMAL_FIT], [0, 1, 3, 4]);
    assert.ok(Object.isFrozen(FLOAT32_OPTIONS));
  });

  test("roundFloat32() rounds like msgpackr's roundFloat32()", () => {
    assert.equal(roundFloat32(Math.fround(0.1)), 0.1);
    assert.equal(roundFloat32(Math.fround(123.456)), 123.456);
    assert.equal(roundFloat32(Math.fround(-7.99)), -7.99);
    const view = new DataView(new ArrayBuffer(4));
    for (let exponent = 0; exponent < 255; exponent += 3) {
      for (const mantissa of [0, 1, 0x155555, 0x2aaaab, 0x4ccccd, 0x7fffff]) {
        for (const sign of [0, 1]) {
          view.setUint32(0, ((sign << 31) | (exponent << 23) | mantissa) >>> 0);
          const value = view.getFloat32(0);
          assert.ok(Object.is(roundFloat32(value), msgpackr.roundFloat32(value)), String(value));
        }
      }
    }
  });

  test("Packr({ useFloat32: NEVER }) writes float64, as the default", () => {
    assert.equal(hex(new Packr({ useFloat32: NEVER }).pack(0.5)), hex(pack(0.5)));
    assert.equal(hex(pack(0.5)), "cb 3f e0 00 00 00 00 00 00");
  });
});

describe("isNativeAccelerationEnabled", () => {
  test("isNativeAccelerationEnabled is false", () => {
    assert.equal(isNativeAccelerationEnabled, false);
    assert.equal(unpackEntry.isNativeAccelerationEnabled, false);
  });
});

describe("output type", () => {
  test("pack() returns a plain, exact-size Uint8Array, never a Node Buffer", () => {
    const values = [
      SAMPLE,
      Buffer.from([1, 2, 3]),
      [Buffer.from("hi")],
      msgpackr.pack({ a: 1 }),
      "x".repeat(20000),
    ];
    for (const value of values) {
      for (
        const bytes of [
          pack(value),
          encode(value),
          new Packr().pack(value),
          new Packr({ useRecords: false }).pack(value),
        ]
      ) {
        assert.equal(bytes.constructor, Uint8Array);
        assert.equal(Object.getPrototypeOf(bytes), Uint8Array.prototype);
        assert.ok(!Buffer.isBuffer(bytes));
        assert.equal(bytes.byteOffset, 0);
        assert.equal(bytes.buffer.byteLength, bytes.length);
      }
    }
  });

  test("pack() results do not share memory with each other", () => {
    const first = pack("first");
    const second = pack("second");
    assert.notEqual(first.buffer, second.buffer);
    second.fill(0);
    assert.equal(unpack(first), "first");
  });
});

describe("input types", () => {
  const bytes = pack(SAMPLE);

  test("unpack() accepts a Uint8Array, Node Buffer, ArrayBuffer and every ArrayBufferView", () => {
    const padded = new Uint8Array(bytes.length + 16);
    padded.set(bytes, 8);
    const inputs: [string, ArrayBufferView | ArrayBuffer][] = [
      ["Uint8Array", bytes],
      ["Uint8Array subarray", padded.subarray(8, 8 + bytes.length)],
      ["Node Buffer", Buffer.from(bytes)],
      ["msgpackr output", msgpackr.pack(SAMPLE)],
      ["ArrayBuffer", bytes.slice().buffer],
      ["DataView", new DataView(padded.buffer, 8, bytes.length)],
      ["Int8Array", new Int8Array(padded.buffer, 8, bytes.length)],
      ["Uint8ClampedArray", new Uint8ClampedArray(bytes)],
    ];
    if (bytes.length % 2 === 0) inputs.push(["Uint16Array", new Uint16Array(bytes.slice().buffer)]);
    const shared = new SharedArrayBuffer(bytes.length);
    new Uint8Array(shared).set(bytes);
    inputs.push(["Uint8Array over a SharedArrayBuffer", new Uint8Array(shared)]);
    // a bare SharedArrayBuffer is accepted at run time too, though the type does not list it
    inputs.push(["SharedArrayBuffer", shared as unknown as ArrayBuffer]);
    for (const [name, input] of inputs) {
      assert.deepEqual(unpack(input), SAMPLE, name);
      assert.deepEqual(new Unpackr({ useRecords: false }).unpack(input), SAMPLE, name);
      assert.deepEqual(unpackMultiple(input), [SAMPLE], name);
    }
  });

  /**
   * Decodes each of `values` from one length-tracking array over a resizable buffer, resized to
   * fit each in turn: the same array object, another length (a kept view must not be reused).
   */
  function decodeThroughResizes(values: unknown[]): void {
    const resizable = new ArrayBuffer(pack(values[0]).length, { maxByteLength: 4096 });
    const tracking = new Uint8Array(resizable);
    for (const [i, value] of values.entries()) {
      if (i > 0) resizable.resize(pack(value).length);
      tracking.set(pack(value));
      assert.deepEqual(unpack(tracking), value);
    }
  }

  /** Decodes `value` from an array, then detaches its buffer: the array is empty now, and says so. */
  function decodeThenDetach(value: unknown): Uint8Array {
    const detached = pack(value);
    assert.deepEqual(unpack(detached), value);
    detached.buffer.transfer();
    assert.throws(() => unpack(detached), IncompleteDataError);
    return detached;
  }

  test("an input array decoded again reads its bytes as they are now (its view is kept)", () => {
    // a large input (over 512 bytes): long strings and floats
    const valueOf = (letter: string, length: number, n: number) => ({
      text: letter.repeat(length),
      n,
      list: [n / 3, `${letter}${n}`],
    });
    const a = valueOf("a", 600, 1.5);
    const b = valueOf("b", 600, 2.5);
    const longer = valueOf("c", 900, 3.5);
    assert.equal(pack(a).length, pack(b).length);
    const input = new Uint8Array(pack(a).length);
    input.set(pack(a));
    assert.deepEqual(unpack(input), a);
    input.set(pack(b)); // the same array refilled, as a database read into one buffer
    assert.deepEqual(unpack(input), b);
    assert.deepEqual(unpack(input, { start: 0, end: input.length }), b);

    // a length-tracking array over a resizable buffer: the same array, another length
    decodeThroughResizes([a, longer, b]);
    const detached = decodeThenDetach(a);
    assert.equal(detached.length, 0);
    assert.deepEqual(unpack(pack(b)), b);
  });

  test("a small input array decoded again reuses its view and reads its bytes as they are now", () => {
    // under 512 bytes: the first decode makes a view at its seventh float, and later decodes of
    // the same array start with that view (floats and the value cache's words read through it)
    const valueOf = (letter: string, n: number) => ({
      floats: Array.from({ length: 10 }, (_, i) => n + i / 7),
      medium: `${letter.repeat(20)} ${n}`,
      short: letter.repeat(5),
      tags: [letter, `${letter}${letter}`],
    });
    const a = valueOf("a", 1.5);
    const b = valueOf("b", 2.5);
    assert.equal(pack(a).length, pack(b).length);
    assert.ok(pack(a).length < 512);
    const input = new Uint8Array(pack(a).length);
    input.set(pack(a));
    assert.deepEqual(unpack(input), a);
    assert.deepEqual(unpack(input), a);
    input.set(pack(b)); // the same array refilled
    assert.deepEqual(unpack(input), b);
    assert.deepEqual(unpack(input.subarray(0)), b, "another array over the same bytes");

    // the same array over a resizable buffer, shorter now: its old view would read past its end
    decodeThroughResizes([a, valueOf("c", 3)]);
    decodeThenDetach(a);
  });

  test("unpack() of a Node Buffer returns plain Uint8Array views for bin", () => {
    const source = Buffer.from(pack({ a: new Uint8Array([5, 6, 7]) }));
    const decoded = unpack(source);
    assert.equal(decoded.a.constructor, Uint8Array);
    assert.equal(decoded.a.buffer, source.buffer);
    assert.deepEqual(decoded.a, new Uint8Array([5, 6, 7]));
    const theirs = unpack(msgpackr.pack([new Uint8Array([1])]));
    assert.equal(theirs[0].constructor, Uint8Array);
  });
});

describe("decode windows", () => {
  const parts = [pack(1), pack("ab"), pack([3, 4]), pack({ five: 5 })];
  const joined = new Uint8Array(parts.flatMap((part) => [...part]));
  const offsets = parts.reduce<number[]>((list, part) => [...list, list.at(-1)! + part.length], [
    0,
  ]);

  test("unpack(bytes, end) decodes the value that ends there", () => {
    assert.equal(unpack(joined, offsets[1]), 1);
    assert.equal(msgpackr.unpack(joined, offsets[1]), 1);
    assert.throws(() => unpack(joined, offsets[2]), /Data read, but end of buffer not reached/);
    assert.throws(
      () => unpack(joined, { start: offsets[1], end: offsets[1] + 1 }),
      IncompleteDataError,
    );
  });

  test("unpack(bytes, { start, end }) decodes the value in the window", () => {
    for (let i = 0; i < parts.length; i++) {
      const window = { start: offsets[i], end: offsets[i + 1] };
      const expected = unpack(parts[i]);
      assert.deepEqual(unpack(joined, window), expected);
      assert.deepEqual(withPlainBytes(msgpackr.unpack(joined, window)), expected);
      assert.deepEqual(new Unpackr({ useRecords: false }).unpack(joined, window), expected);
    }
    // start alone reads to the end; an end past the input is clamped
    assert.deepEqual(unpack(joined, { start: offsets[3] }), { five: 5 });
    assert.deepEqual(unpack(joined, { start: offsets[3], end: joined.length + 100 }), { five: 5 });
    assert.deepEqual(unpack(joined, { end: offsets[1] }), 1);
  });

  test("unpack() windows report offsets in the whole input", () => {
    const window = { start: offsets[2], end: offsets[3] - 1 };
    assert.throws(() => unpack(joined, window), (error: unknown) => {
      assert.ok(error instanceof IncompleteDataError);
      // the array header at offsets[2] promises 2 elements; 1 byte is left in the window
      assert.equal(error.missingBytes, 1);
      assert.ok(error.offset > window.start && error.offset <= window.end, String(error.offset));
      return true;
    });
  });
});

describe("binary values", () => {
  test("unpack() returns bin as a plain Uint8Array view of the input", () => {
    const source = pack([new Uint8Array([1, 2, 3]), new Uint8Array(300).fill(9)]);
    const [small, large] = unpack(source);
    for (const bin of [small, large]) {
      assert.equal(bin.constructor, Uint8Array);
      assert.equal(bin.buffer, source.buffer);
    }
    assert.equal(small.byteOffset, 3);
    assert.equal(large.byteOffset, 6 + 3);
    source[3] = 42;
    assert.equal(small[0], 42, "a view sees changes to the input");
  });

  test("Unpackr({ copyBuffers: true }) returns a plain Uint8Array copy", () => {
    const source = pack([new Uint8Array([1, 2, 3])]);
    const [copy] = new Unpackr({ copyBuffers: true }).unpack(source);
    assert.equal(copy.constructor, Uint8Array);
    assert.notEqual(copy.buffer, source.buffer);
    assert.equal(copy.buffer.byteLength, 3);
    const [fromBuffer] = new Unpackr({ copyBuffers: true }).unpack(Buffer.from(source));
    assert.equal(fromBuffer.constructor, Uint8Array);
    assert.deepEqual(fromBuffer, new Uint8Array([1, 2, 3]));
  });

  test("unpack() returns an empty bin as an empty Uint8Array", () => {
    const empty = unpack(fromHex("c4 00"));
    assert.equal(empty.constructor, Uint8Array);
    assert.equal(empty.length, 0);
  });
});
