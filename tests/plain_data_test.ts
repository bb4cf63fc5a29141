// Copyright 2026 the @x/msgpackr authors. MIT license.
// `plainDataOnly`: a decoder for input from senders it does not trust refuses, at the extension's
// header, the extensions that build shared references and cycles (structured clone "i" and "p")
// or objects with behaviour (RegExp "x", Error "e"), and decodes everything else as a decoder
// without the option does: whatever msgpackr's and our `new Packr()` write, Sets and typed arrays
// too. Streams refuse the same bytes, chunked anyhow. docs/wire-format.md, "Extension types".

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { DecodeError, decodeIter, Packr, Unpackr } from "../mod.ts";
import { TESTDATA_FILES } from "./_testdata_files.ts";
import { fromHex, readTestdata } from "./_util.ts";
import { concatBytes } from "../_core/bytes.ts";

const plainOnly = () => new Unpackr({ plainDataOnly: true });
const cloning = new Packr({ structuredClone: true });
const typed = new Packr({ moreTypes: true });

/** A decoded value with its Errors and RegExps as text, to compare. */
function shown(value: unknown): unknown {
  if (value instanceof Error || value instanceof RegExp) return String(value);
  if (Array.isArray(value)) return value.map(shown);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shown(item)]));
}

/** Asserts that `decode` throws the refusal of `what` at `offset`. */
function assertRefused(decode: () => unknown, what: string, offset: number, by = "plainDataOnly") {
  assert.throws(decode, (error: unknown) => {
    assert.ok(error instanceof DecodeError);
    assert.equal(error.message, `${what} extension is disabled (${by}) at offset ${offset}`);
    assert.equal(error.offset, offset);
    return true;
  });
}

describe("plainDataOnly refuses references, RegExp and Error at their header", () => {
  test("an id (ext i), a pointer (ext p), a RegExp (ext x) and an Error (ext e)", () => {
    const shared = { same: true };
    const cases: [Uint8Array, string, number][] = [
      [cloning.pack([shared, shared]), "Structured clone reference", 1],
      [typed.pack([1, /a+/]), "RegExp", 2],
      [typed.pack({ e: new Error("x") }), "Error", 6], // after the record's definition
    ];
    for (const [bytes, what, offset] of cases) {
      assertRefused(() => plainOnly().unpack(bytes), what, offset);
      // nothing else is wrong with them: msgpackr and a decoder without the option read them
      assert.deepEqual(shown(new Unpackr().unpack(bytes)), shown(msgpackr.unpack(bytes)));
    }
    // a pointer is refused before it is looked up
    assertRefused(
      () => plainOnly().unpack(fromHex("92 c0 d6 70 00 00 00 01")),
      "Structured clone reference",
      2,
    );
  });

  test("the reference bomb is refused at its first id, before anything is built", () => {
    let bomb: unknown = {};
    for (let level = 0; level < 40; level++) bomb = [bomb, bomb];
    const bytes = cloning.pack(bomb);
    assertRefused(() => plainOnly().unpack(bytes), "Structured clone reference", 1);
  });

  test("it overrides structuredClone: true; structuredClone: false refuses references only", () => {
    const shared = { same: true };
    const bytes = cloning.pack([shared, shared]);
    assertRefused(
      () => new Unpackr({ structuredClone: true, plainDataOnly: true }).unpack(bytes),
      "Structured clone reference",
      1,
    );
    const noClone = new Unpackr({ structuredClone: false });
    assertRefused(
      () => noClone.unpack(bytes),
      "Structured clone reference",
      1,
      "structuredClone: false",
    );
    assert.ok(noClone.unpack(typed.pack(/a/)) instanceof RegExp);
    assert.ok(noClone.unpack(typed.pack(new Error("x"))) instanceof Error);
  });

  test("it is assignable, as the other decoding options", () => {
    const unpackr = new Unpackr();
    const bytes = typed.pack(/a/);
    assert.ok(unpackr.unpack(bytes) instanceof RegExp);
    unpackr.plainDataOnly = true;
    assert.equal(unpackr.plainDataOnly, true);
    assertRefused(() => unpackr.unpack(bytes), "RegExp", 0);
    unpackr.plainDataOnly = false;
    assert.ok(unpackr.unpack(bytes) instanceof RegExp);
  });

  test("an extension the application registers for the same type is its own code: it runs", () => {
    const unpackr = plainOnly();
    unpackr.addExtension({ type: 0x78, unpack: (payload) => `ext x of ${payload.length} bytes` });
    assert.equal(unpackr.unpack(fromHex("d5 78 01 02")), "ext x of 2 bytes");
  });

  test("streams refuse the same bytes, whatever the chunks", async () => {
    const bytes = concatBytes([typed.pack({ ok: 1 }), typed.pack({ pattern: /a/ })]);
    for (const size of [1, 3, bytes.length]) {
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
      const seen: unknown[] = [];
      assert.throws(() => {
        for (const value of decodeIter(chunks, { plainDataOnly: true })) seen.push(value);
      }, { name: "DecodeError", message: /^RegExp extension is disabled \(plainDataOnly\) at/ });
      assert.equal(seen.length, 1, `chunks of ${size}`);
      const stream = ReadableStream.from(chunks);
      await assert.rejects(
        Array.fromAsync(decodeIter(stream, { plainDataOnly: true })),
        /RegExp extension is disabled/,
      );
    }
  });
});

describe("plainDataOnly decodes everything else as before", () => {
  test("what msgpackr's and our new Packr() write, records and all", async () => {
    const values: unknown[] = [];
    for (const name of TESTDATA_FILES) values.push(await readTestdata(name));
    values.push({
      at: new Date(1_700_000_000_123),
      missing: undefined,
      big: 2n ** 63n - 1n,
      error: new Error("an array without moreTypes"),
      pattern: /an array too/,
      nested: [{ a: 1, b: [1.5, "x"] }, { a: 2, b: [] }],
    });
    for (const value of values) {
      for (
        const bytes of [
          new Packr().pack(value),
          new Packr({ bundleStrings: true, useBigIntExtension: true }).pack(value),
          new msgpackr.Packr().pack(value),
        ]
      ) {
        assert.deepEqual(plainOnly().unpack(bytes), new Unpackr().unpack(bytes));
      }
    }
  });

  test("Sets, typed arrays, bigints beyond 64 bits and timestamps of moreTypes", () => {
    const value = {
      set: new Set([1, "two"]),
      floats: new Float64Array([1.5, -2]),
      bytes: new Uint8Array([1, 2, 3]),
      buffer: new Uint16Array([7, 8]).buffer,
      big: 2n ** 100n,
      date: new Date(0),
    };
    const bytes = new Packr({ moreTypes: true, useBigIntExtension: true }).pack(value);
    assert.deepEqual(plainOnly().unpack(bytes), new Unpackr().unpack(bytes));
    assert.deepEqual(plainOnly().unpack(bytes), value);
  });
});
