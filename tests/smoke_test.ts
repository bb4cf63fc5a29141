// Copyright 2026 the @x/msgpackr authors. MIT license.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { pack, Packr, unpack, Unpackr } from "../mod.ts";
import { hex } from "./_util.ts";

describe("smoke", () => {
  test("pack() writes msgpackr's bytes for a plain object", () => {
    assert.equal(hex(pack({ a: 1 })), "de 00 01 a1 61 01");
    assert.equal(hex(pack({ a: 1 })), hex(msgpackr.pack({ a: 1 })));
  });

  test("Packr writes records that msgpackr reads", () => {
    const value = [{ a: 1 }, { a: 2 }];
    const bytes = new Packr().pack(value);
    assert.equal(hex(bytes), "92 d4 72 40 91 a1 61 01 40 02");
    assert.deepEqual(new msgpackr.Unpackr().unpack(bytes), value);
  });

  test("unpack() reads msgpackr's records", () => {
    const value = [{ a: 1, b: "x" }, { a: 2, b: "y" }];
    assert.deepEqual(unpack(new msgpackr.Packr().pack(value)), value);
    assert.deepEqual(new Unpackr().unpack(new msgpackr.Packr().pack(value)), value);
  });
});
