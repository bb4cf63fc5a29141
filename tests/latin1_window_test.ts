// Copyright 2026 the @x/msgpackr authors. MIT license.
// Medium ASCII strings (13..256 bytes) are sliced out of a Latin-1 window of the input
// (_strings/input_window.ts) when another one came shortly before, and longer ones when a window already
// open covers them (lengths 257..300 below). Whatever the window holds, a string
// must decode exactly as TextDecoder decodes its bytes (and as msgpackr does): non-ASCII and
// ill-formed bytes in any position, a window cut by the input's end, a buffer whose bytes change
// between two decodes, a decode inside a decode, streams cut at every byte, records and the
// no-eval build.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { pack, Packr, unpack, unpackMultiple, Unpackr } from "../mod.ts";
import * as noEval from "../no_eval.ts";
import { UnpackrStream } from "../stream.ts";
import { encodeArray, random, strOf } from "./_util.ts";

const utf8 = new TextDecoder();

/** ASCII bytes of `length`, varying with `seed`. */
function asciiBytes(length: number, seed: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => 0x20 + ((i * 7 + seed * 13) % 95));
}

/** Byte strings of every length 1..300: ASCII, and with a foreign byte at the first, middle and
 * last position (a lead byte of a multi-byte sequence, a lone continuation byte, 0xff). */
function variedStrings(): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let length = 1; length <= 300; length++) {
    out.push(asciiBytes(length, length));
    for (const at of [0, length >> 1, length - 1]) {
      for (const foreign of [0xc3, 0x80, 0xff]) {
        const bytes = asciiBytes(length, length + foreign);
        bytes[at] = foreign;
        out.push(bytes);
      }
    }
  }
  // well-formed multi-byte text of medium lengths, alone and between ASCII
  for (
    const text of ["é".repeat(20), "東京都渋谷区".repeat(3), "a😀".repeat(9), "x".repeat(40) + "ß"]
  ) {
    out.push(new TextEncoder().encode(text));
  }
  return out;
}

describe("strings sliced from a Latin-1 window", () => {
  test("every length and foreign byte decodes as TextDecoder, in dense arrays and alone", () => {
    const strings = variedStrings();
    // dense: many medium strings within a window of each other
    const dense = encodeArray(strings.map(strOf));
    const expected = strings.map((bytes) => utf8.decode(bytes));
    assert.deepEqual(unpack(dense), expected);
    assert.deepEqual(unpack(dense), expected, "second decode (caches and windows warm)");
    assert.deepEqual(msgpackr.unpack(dense), expected);
    // alone, each string at the end of its input (the window is cut by the end)
    for (const bytes of strings) {
      const encoded = Uint8Array.from(strOf(bytes));
      assert.equal(unpack(encoded), utf8.decode(bytes));
      // and as the last of two strings, right after another medium one
      const pair = encodeArray([strOf(asciiBytes(20, 1)), [...encoded]]);
      assert.deepEqual(unpack(pair), [utf8.decode(asciiBytes(20, 1)), utf8.decode(bytes)]);
    }
  });

  test("strings between other values, at byte offsets of a larger buffer", () => {
    const next = random(7);
    const value = Array.from({ length: 400 }, (_, i) => ({
      id: i,
      text: new TextDecoder().decode(asciiBytes(13 + Math.floor(next() * 240), i)),
      other: i % 5 === 0 ? "naïve café " + "z".repeat(i % 40) : "plain " + "y".repeat(i % 40),
      n: next() * 1000,
    }));
    const bytes = pack(value);
    for (const offset of [0, 1, 3, 7]) {
      const backing = new Uint8Array(bytes.length + offset + 5);
      backing.set(bytes, offset);
      const view = backing.subarray(offset, offset + bytes.length);
      assert.deepEqual(unpack(view), value);
      assert.deepEqual(noEval.unpack(view), value);
    }
  });

  test("a buffer rewritten in place between decodes gives the new strings", () => {
    const first = Array.from({ length: 30 }, (_, i) => `first message, string number ${i}`);
    const second = Array.from({ length: 30 }, (_, i) => `LATER MESSAGE, STRING NUMBER ${i}`);
    // not ASCII, same byte length: it is decoded without a window, so the next string would be
    // the first to meet a window left over from the first message
    second[0] = "LATER MESSAGE, STRING NUMBÜ 0";
    const buffer = pack(first);
    const other = pack(second);
    assert.equal(buffer.length, other.length);
    assert.deepEqual(unpack(buffer), first);
    buffer.set(other);
    assert.deepEqual(unpack(buffer), second);
    // and the strings of the first decode did not change with the bytes
    const kept = unpack(buffer) as string[];
    buffer.fill(0x41, 1);
    assert.deepEqual(kept, second);
  });

  test("a decode inside a decode (an extension) keeps both windows right", () => {
    const outerStrings = Array.from({ length: 12 }, (_, i) => `outer string with index ${i}`);
    const innerStrings = Array.from({ length: 12 }, (_, i) => `INNER STRING WITH INDEX ${i}`);
    class Inner {
      constructor(readonly strings: string[]) {}
    }
    const packr = new Packr();
    const unpackr = new Unpackr();
    // the payload is the inner array, packed; decoding it runs a second decode of the same
    // kind of strings in the middle of the outer one's
    packr.addExtension({
      Class: Inner,
      type: 31,
      pack: (value: Inner) => pack(value.strings),
      unpack: (bytes: Uint8Array) => new Inner(unpack(bytes) as string[]),
    });
    unpackr.addExtension({
      Class: Inner,
      type: 31,
      pack: (value: Inner) => pack(value.strings),
      unpack: (bytes: Uint8Array) => new Inner(unpack(bytes) as string[]),
    });
    const value = [...outerStrings.slice(0, 6), new Inner(innerStrings), ...outerStrings.slice(6)];
    const decoded = unpackr.unpack(packr.pack(value)) as unknown[];
    assert.deepEqual(decoded.slice(0, 6), outerStrings.slice(0, 6));
    assert.deepEqual((decoded[6] as Inner).strings, innerStrings);
    assert.deepEqual(decoded.slice(7), outerStrings.slice(6));
  });

  test("unpackMultiple and a stream cut at every byte lose no string", async () => {
    const values = Array.from({ length: 6 }, (_, i) => ({
      name: `a medium string number ${i}`,
      note: i % 2 ? "ümlaut in a medium string" : "only ascii in this one, ok",
    }));
    const bytes = Uint8Array.from(values.flatMap((value) => [...pack(value)]));
    assert.deepEqual(unpackMultiple(bytes), values);
    for (let cut = 1; cut < bytes.length; cut++) {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.slice(0, cut));
          controller.enqueue(bytes.slice(cut));
          controller.close();
        },
      }).pipeThrough(new UnpackrStream({ mapsAsObjects: true }));
      const out: unknown[] = [];
      for await (const value of stream) out.push(value);
      assert.deepEqual(out, values, `cut at ${cut}`);
    }
  });

  test("records, shared structures and fatal decoders agree with msgpackr", () => {
    const value = Array.from({ length: 50 }, (_, i) => ({
      url: `https://example.com/items/${i}/details`,
      title: i % 7 === 0 ? `Ünïcödé title ${i}` : `An ordinary title number ${i}`,
    }));
    const structures: string[][] = [];
    const bytes = new Packr({ structures }).pack(value);
    for (
      const decoder of [
        new Unpackr({ structures: structures.slice() }),
        new noEval.Unpackr({ structures: structures.slice() }),
        new Unpackr({ structures: structures.slice(), fatal: true }),
      ]
    ) {
      assert.deepEqual(decoder.unpack(bytes), value);
    }
    const ours = pack(value);
    assert.deepEqual(msgpackr.unpack(ours), value);
    // ill-formed UTF-8 in a medium string is still an error for a fatal decoder
    const bad = Uint8Array.from(strOf(Uint8Array.from([...asciiBytes(20, 3), 0xff])));
    assert.throws(() => new Unpackr({ fatal: true }).unpack(bad), /UTF-8/);
    assert.equal(unpack(bad), utf8.decode(asciiBytes(20, 3)) + "\ufffd");
  });
});
