// Copyright 2026 the @x/msgpackr authors. MIT license.
// Binary values from 16 KiB on are not copied into the encoder's arena when `pack()` returns an
// exact-size copy: their headers are written, and the values are copied straight into the result
// when the pack ends (`gatherOutput` in _encode/encoder.ts). These tests pin that the bytes are msgpackr's
// bytes wherever such values sit (between other values, in records, nested packs, typed arrays),
// that the modes whose bytes move after they are written (structured clone ids, bundled strings)
// and the modes that write into a caller's buffer still produce msgpackr's bytes, and that a value
// detached during the pack is an error rather than missing bytes. Under `moreTypes` (and
// `structuredClone`, which implies it in msgpackr) msgpackr on Node, Bun and Deno writes a plain
// Uint8Array as ext "t" and we write bin by design (docs/wire-format.md, "Where we differ from
// msgpackr"), so there the reference is our own encoder writing through its arena (`useBuffer`),
// and msgpackr decodes ours.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import {
  addExtension,
  pack,
  Packr,
  RESERVE_START_SPACE,
  REUSE_BUFFER_MODE,
  unpack,
} from "../mod.ts";
import { theirPackr, theirUnpackr, withPlainBytes } from "./_interop.ts";

/** Bytes of `length` that differ from blob to blob (a wrong offset cannot go unnoticed). */
function blob(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + seed * 7 + (i >> 8)) & 0xff;
  return bytes;
}

/** Sizes around the gathering threshold (16 KiB) and the bin16/bin32 boundary (64 KiB). */
const SIZES = [0x3fff, 0x4000, 0x4001, 0xffff, 0x10000, 0x10001, 0x100000];

/** Large and small binaries between strings, numbers, maps and arrays, nested and at the ends. */
function mixed(): unknown {
  return {
    head: blob(0x4000, 1),
    items: SIZES.map((size, i) => ({ id: i, name: `blob-${i}.bin`, data: blob(size, i + 2) })),
    small: blob(100, 20),
    list: [blob(0x8000, 21), "between", blob(0x4000, 22), 1.5, [blob(0x20000, 23)]],
    tail: blob(0x4000, 24),
  };
}

/** The same pack with every byte through the arena: into a caller's buffer large enough for it. */
function throughArena(options: Record<string, unknown>, values: unknown[]): Uint8Array[] {
  const packr = new Packr(options);
  return values.map((value) => {
    packr.useBuffer(new Uint8Array(0x400000));
    return packr.pack(value).slice();
  });
}

function sameBytes(actual: Uint8Array, expected: Uint8Array, what: string): void {
  assert.equal(actual.length, expected.length, `${what}: length`);
  const at = actual.findIndex((byte, i) => byte !== expected[i]);
  assert.equal(at, -1, `${what}: first differing byte at ${at}`);
}

describe("large binary values (gathered into the result, not copied through the arena)", () => {
  test("pack() writes msgpackr's bytes, and they decode to the value", () => {
    for (const size of SIZES) {
      const alone = blob(size, size & 0xff);
      sameBytes(pack(alone), msgpackr.pack(alone), `${size} bytes alone`);
      assert.deepEqual(unpack(pack(alone)), alone);
    }
    const value = mixed();
    const ours = pack(value);
    sameBytes(ours, msgpackr.pack(value), "mixed");
    assert.deepEqual(unpack(ours), value);
    // the result is exact-size and its own memory
    assert.equal(ours.byteOffset, 0);
    assert.equal(ours.buffer.byteLength, ours.length);
  });

  test("every object mode and option writes msgpackr's bytes", () => {
    const optionSets: Record<string, unknown>[] = [
      { useRecords: false },
      { variableMapSize: true, useRecords: false },
      { sequential: true },
      { structures: [] },
      { moreTypes: true, useRecords: false },
      { structuredClone: true },
      { bundleStrings: true },
      { structuredClone: true, bundleStrings: true },
    ];
    for (const options of optionSets) {
      const value = mixed();
      const name = JSON.stringify(options);
      // each packer its own structures array (a shared one would be filled by the first)
      const fresh = () => options.structures ? { ...options, structures: [] } : options;
      const ours = new Packr(fresh());
      const theirs = theirPackr(fresh());
      // twice: records packs define their structures in the first and reuse them in the second
      const expected = throughArena(fresh(), [value, value]);
      for (let round = 0; round < 2; round++) {
        const bytes = ours.pack(value);
        sameBytes(bytes, expected[round], `${name} ${round}, against our arena path`);
        if (!options.moreTypes && !options.structuredClone) {
          sameBytes(bytes, theirs.pack(value), `${name} ${round}, against msgpackr`);
        }
        // each decoder knows the structures this pack may use (a Packr unpacks with its own)
        const theirDecoder = options.structures ? theirs : theirUnpackr(options);
        assert.deepEqual(withPlainBytes(theirDecoder.unpack(bytes)), value, `${name} by msgpackr`);
        assert.deepEqual(ours.unpack(bytes), value, `${name} by ours`);
      }
    }
  });

  test("typed arrays, ArrayBuffers and DataViews under moreTypes", () => {
    const floats = new Float64Array(0x1000).map((_, i) => i / 3);
    const words = new Uint32Array(0x8000).map((_, i) => i * 2654435761);
    const buffer = blob(0x5000, 9).buffer;
    const view = new DataView(blob(0x6000, 10).buffer, 16, 0x4000);
    const value = [floats, "x", words, buffer, view, blob(0x4000, 11)];
    const options = { moreTypes: true, useRecords: false };
    const ours = new Packr(options).pack(value);
    sameBytes(ours, throughArena(options, [value])[0], "moreTypes");
    const back = new Packr(options).unpack(ours) as unknown[];
    assert.deepEqual(back[0], floats);
    assert.deepEqual(back[2], words);
    assert.deepEqual(new Uint8Array(back[3] as ArrayBuffer), new Uint8Array(buffer));
  });

  test("a structured clone that refers to a large binary twice", () => {
    const shared = blob(0x10000, 3);
    const value = { first: shared, other: blob(0x4000, 4), again: shared, list: [shared] };
    const ours = new Packr({ structuredClone: true }).pack(value);
    sameBytes(ours, throughArena({ structuredClone: true }, [value])[0], "structuredClone");
    for (
      const unpackr of [
        new Packr({ structuredClone: true }),
        theirUnpackr({ structuredClone: true }),
      ]
    ) {
      const back = unpackr.unpack(ours) as typeof value;
      assert.deepEqual(withPlainBytes(back.first), shared);
      assert.equal(back.again, back.first);
      assert.equal(back.list[0], back.first);
    }
  });

  test("into a caller's buffer (useBuffer, REUSE_BUFFER_MODE, reserved start space)", () => {
    const value = mixed();
    const expected = msgpackr.pack(value);
    const packr = new Packr({ useRecords: false });
    packr.useBuffer(new Uint8Array(0x10000)); // too small: the packer continues in its own
    sameBytes(packr.pack(value), expected, "useBuffer");
    const whole = new Packr({ useRecords: false }).pack(value, REUSE_BUFFER_MODE);
    sameBytes(whole.subarray(whole.start, whole.end), expected, "REUSE_BUFFER_MODE");
    const reserved = new Packr({ useRecords: false }).pack(value, RESERVE_START_SPACE | 3);
    sameBytes(reserved.subarray(3), expected, "RESERVE_START_SPACE");
    assert.deepEqual([...reserved.subarray(0, 3)], [0, 0, 0]);
  });

  test("a pack inside an extension's pack, with large binaries around and inside it", () => {
    class Envelope {
      constructor(readonly inner: unknown) {}
    }
    const register = (add: typeof addExtension, packr: Packr | msgpackr.Packr) =>
      add({
        Class: Envelope,
        type: 41,
        pack: (envelope: Envelope) => packr.pack(envelope.inner),
        unpack: (bytes: Uint8Array) => new Envelope(packr.unpack(bytes)),
      } as never);
    const ours = new Packr({ useRecords: false });
    const theirs = theirPackr({ useRecords: false });
    register(addExtension, ours);
    register(msgpackr.addExtension as unknown as typeof addExtension, theirs);
    const value = [
      blob(0x4000, 30),
      new Envelope({ data: blob(0x8000, 31), n: 1 }),
      blob(0x4000, 32),
    ];
    sameBytes(ours.pack(value), theirs.pack(value), "nested pack");
    const back = ours.unpack(ours.pack(value)) as unknown[];
    assert.deepEqual((back[1] as Envelope).inner, { data: blob(0x8000, 31), n: 1 });
    assert.deepEqual(back[2], blob(0x4000, 32));
  });

  test("a records pack whose structures were declined and packed again", () => {
    let stored: unknown[] = [];
    let declines = 1;
    const options = {
      getStructures: () => stored,
      saveStructures: (structures: unknown[]) => {
        if (declines-- > 0) {
          stored = [];
          return false;
        }
        stored = structures.slice();
      },
    };
    const value = mixed();
    const bytes = new Packr(options as never).pack(value);
    assert.deepEqual(new Packr({ getStructures: () => stored } as never).unpack(bytes), value);
  });

  test("a large binary detached later in the same pack is an error, and the next pack is whole", () => {
    const data = blob(0x8000, 40);
    const value = {
      data,
      get later(): number {
        structuredClone(data.buffer, { transfer: [data.buffer] });
        return 1;
      },
    };
    assert.throws(() => pack(value), /32768 bytes was detached or resized while being packed/);
    const next = { a: blob(0x4000, 41), b: "after" };
    sameBytes(pack(next), msgpackr.pack(next), "the pack after the error");
  });

  test("a pack that throws after a large binary leaves nothing behind", () => {
    const value = {
      data: blob(0x4000, 50),
      get broken(): never {
        throw new Error("getter failed");
      },
    };
    assert.throws(() => pack(value), /getter failed/);
    for (const next of [{ small: 1 }, [blob(0x4000, 51)], "text"]) {
      sameBytes(pack(next), msgpackr.pack(next), JSON.stringify(Object.keys(next)));
    }
  });
});
