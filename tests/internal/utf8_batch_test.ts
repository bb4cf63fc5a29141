// Copyright 2026 the @x/msgpackr authors. MIT license.
// On Bun and Deno, non-ASCII strings of medium length are decoded a batch at a time
// (_strings/input_window.ts): the decoder looks ahead for the next ones, copies the stretch of input they
// lie in with 0 bytes over everything between them, decodes it in one call and cuts the text at
// the U+0000 after each string. Whatever the batch holds, every
// string must decode exactly as TextDecoder decodes its own bytes: ill-formed bytes at either end,
// U+0000 and U+FFFD inside, a BOM, tokens the lookahead steps over or stops at, an input that ends
// inside a string, a decode inside a decode, streams, records. In browsers (and Node) there are no
// batches, and the same tests check the ordinary path.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { IncompleteDataError, pack, Packr, unpack, unpackMultiple, Unpackr } from "../../mod.ts";
import * as noEval from "../../no_eval.ts";
import { UnpackrStream } from "../../stream.ts";
import {
  InputWindow,
  longString,
  nonAsciiString,
  UTF8_BATCHES,
  utf8BatchCounts,
} from "../../_strings/input_window.ts";
import { encodeArray, isDeno, random, strOf } from "../_util.ts";
import { EAGER_VIEW_MIN_INPUT } from "../../_core/thresholds.ts";

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
const encoder = new TextEncoder();
const IS_BUN = (globalThis as { Bun?: unknown }).Bun !== undefined;

const TEXTS = [
  "Привет, как дела? Всё хорошо.",
  "東京都渋谷区神南一丁目",
  "Ça coûte 12 € — très cher, señor!",
  "😀🚀✨ emoji mixed with text 🎉",
  "مرحبا بالعالم",
];

/** Well-formed non-ASCII text of about `length` bytes, varying with `seed`. */
function text(length: number, seed: number): string {
  let out = "";
  for (let i = seed; encoder.encode(out).length < length; i++) out += TEXTS[i % TEXTS.length];
  const characters = Array.from(out); // whole code points: never half an emoji
  const keep = Math.floor(characters.length * length / encoder.encode(out).length);
  return characters.slice(0, Math.max(1, keep)).join("");
}

/** Non-ASCII text of exactly `length` bytes (`text`, cut or padded with ASCII). */
function textOfBytes(length: number, seed: number): string {
  const characters = Array.from(text(length, seed));
  while (encoder.encode(characters.join("")).length > length) characters.pop();
  return characters.join("").padEnd(
    length - encoder.encode(characters.join("")).length + characters.join("").length,
    "x",
  );
}

/** `string` with its first character replaced by another of the same UTF-8 length. */
function sameLengthVariant(string: string): string {
  const [first, ...rest] = Array.from(string);
  const replacements = ["Z", "Ж", "中", "🎉"];
  let replacement = replacements[encoder.encode(first).length - 1];
  if (replacement === first) replacement = ["Y", "Щ", "国", "🚀"][encoder.encode(first).length - 1];
  return replacement + rest.join("");
}

/**
 * Byte strings of 13..1100 bytes: well-formed text, and text with a foreign byte sequence at the
 * start, middle or end (a lone continuation byte, a truncated lead, 0xff, an overlong form, an
 * encoded surrogate, U+0000, U+FFFD, a BOM).
 */
function variedStrings(seed: number): Uint8Array[] {
  const next = random(seed);
  const foreign = [
    [0x80],
    [0xe3],
    [0xf0, 0x9f],
    [0xff],
    [0xc0, 0xaf],
    [0xed, 0xa0, 0x80],
    [0x00],
    [0xef, 0xbf, 0xbd],
    [0xef, 0xbb, 0xbf],
  ];
  const out: Uint8Array[] = [];
  for (let i = 0; i < 400; i++) {
    const length = i % 10 === 9 ? 257 + Math.floor(next() * 850) : 13 + Math.floor(next() * 244);
    const bytes = encoder.encode(text(length, i));
    if (i % 3 !== 0) {
      const sequence = foreign[Math.floor(next() * foreign.length)];
      const at = [0, bytes.length >> 1, bytes.length - sequence.length][i % 3 === 1 ? 0 : 2];
      const where = Math.floor(next() * 3) === 0 ? at : bytes.length >> 1;
      bytes.set(sequence, Math.max(0, Math.min(where, bytes.length - sequence.length)));
    }
    out.push(bytes);
  }
  return out;
}

describe("non-ASCII strings decoded in batches", () => {
  test("batches are made on Bun and Deno, and only there", () => {
    const strings = Array.from({ length: 40 }, (_, i) => text(20 + i * 3, i));
    const before = utf8BatchCounts().batches;
    assert.deepEqual(unpack(pack(strings)), strings);
    assert.equal(UTF8_BATCHES, IS_BUN || isDeno);
    if (UTF8_BATCHES) assert.ok(utf8BatchCounts().batches > before, "no batch was made");
    else assert.equal(utf8BatchCounts().batches, before);
  });

  test("a non-ASCII string far from the previous one costs no lookahead", () => {
    const ascii = "plain ascii text ".repeat(40); // 680 bytes
    const lone = [text(40, 1), ascii, text(40, 2), ascii, text(40, 3)];
    let before = utf8BatchCounts();
    assert.deepEqual(unpack(pack(lone)), lone);
    assert.deepEqual(utf8BatchCounts(), before, "a lookahead for strings 680 bytes apart");
    // near each other: in a small input (no view, bytes read one at a time) and in a large one
    const near = [text(40, 1), "short", text(40, 2), "short", text(40, 3)];
    for (const value of [near, [...near, ascii]]) {
      before = utf8BatchCounts();
      assert.equal(pack(value).length < EAGER_VIEW_MIN_INPUT, value === near);
      assert.deepEqual(unpack(pack(value)), value);
      const after = utf8BatchCounts();
      assert.equal(after.batches, before.batches + (UTF8_BATCHES ? 1 : 0));
      assert.equal(after.lookaheads, before.lookaheads + (UTF8_BATCHES ? 1 : 0));
    }
  });

  test("every string decodes as TextDecoder, ill-formed and U+0000 included", () => {
    for (const seed of [1, 2, 3]) {
      const strings = variedStrings(seed);
      const expected = strings.map((bytes) => utf8.decode(bytes));
      const encoded = encodeArray(strings.map(strOf));
      assert.deepEqual(unpack(encoded), expected);
      assert.deepEqual(unpack(encoded), expected, "second decode");
      assert.deepEqual(noEval.unpack(encoded), expected);
      // each one alone, and each one after a batch-opening string
      for (const bytes of strings.slice(0, 60)) {
        const pair = encodeArray([strOf(encoder.encode(text(30, 1))), strOf(bytes)]);
        assert.deepEqual(unpack(pair), [text(30, 1), utf8.decode(bytes)]);
      }
    }
  });

  test("well-formed text agrees with msgpackr, both ways", () => {
    const value = Array.from({ length: 300 }, (_, i) => ({
      id: i,
      title: text(14 + (i % 60), i),
      body: text(100 + (i * 37) % 700, i + 2),
      short: text(6, i),
      note: i % 4 === 0 ? `ascii note ${i} `.repeat(3) : text(40, i + 1),
    }));
    assert.deepEqual(unpack(msgpackr.pack(value)), value);
    assert.deepEqual(msgpackr.unpack(pack(value)), value);
    const structures: string[][] = [];
    const bytes = new Packr({ structures }).pack(value);
    assert.deepEqual(new Unpackr({ structures: structures.slice() }).unpack(bytes), value);
    assert.deepEqual(new noEval.Unpackr({ structures: structures.slice() }).unpack(bytes), value);
    const theirStructures: string[][] = [];
    const theirs = new msgpackr.Packr({ structures: theirStructures }).pack(value);
    assert.deepEqual(new Unpackr({ structures: theirStructures }).unpack(theirs), value);
  });

  test("random mixes of values decode as each value alone", () => {
    // a value alone makes no batch (a batch needs a second string), so it is the reference
    const next = random(5);
    const foreign = [0x80, 0xe3, 0xff, 0x00, 0xc3];
    const stringItem = (): number[] => {
      const bytes = next() < 0.7
        ? encoder.encode(text(1 + Math.floor(next() * 600), Math.floor(next() * 50)))
        : encoder.encode(`ascii ${"z".repeat(Math.floor(next() * 80))}`);
      if (next() < 0.2) bytes[Math.floor(next() * bytes.length)] = foreign[Math.floor(next() * 5)];
      return strOf(bytes);
    };
    const items: (() => number[])[] = [
      stringItem,
      stringItem,
      () => [0xcb, ...Array.from({ length: 8 }, () => Math.floor(next() * 256))],
      () => [0xd2, 0xb8, 0xd9, 0xa0, 0xe3], // int32 of header-like bytes
      () => {
        const length = Math.floor(next() * 40);
        return [0xc4, length, ...Array.from({ length }, () => 0xa0 + Math.floor(next() * 96))];
      },
      () => [0x81, ...strOf(encoder.encode(textOfBytes(20, 7))), ...stringItem()], // key, value
      () => [0x92, ...stringItem(), ...stringItem()],
      () => [0xd6, 0xff, 0x5f, 0x00, 0x00, 0x00], // timestamp
      () => [0xc0],
    ];
    for (let round = 0; round < 150; round++) {
      const values = Array.from(
        { length: 2 + Math.floor(next() * 60) },
        () => items[Math.floor(next() * items.length)](),
      );
      const alone = values.map((value) => unpack(Uint8Array.from(value)));
      assert.deepEqual(unpack(encodeArray(values)), alone, `round ${round}`);
    }
  });

  test("the lookahead steps over other tokens and stops at the ones it cannot size", () => {
    const s = (i: number) => strOf(encoder.encode(text(20 + i, i)));
    const fakeString = [0xb4, ...encoder.encode(text(20, 9)).slice(0, 20)]; // looks like a fixstr
    const items: number[][] = [
      s(0),
      [0xc4, fakeString.length, ...fakeString], // bin8 holding what looks like a string
      s(1),
      [0xc7, fakeString.length, 0x05, ...fakeString], // ext8
      s(2),
      [0xd9, 25, ...encoder.encode("x".repeat(25))], // an ASCII str8: not in the batch
      s(3),
      [0xcb, 0xbf, 0xb4, 0xa0, 0xd9, 0xe3, 0x81, 0x82, 0xa3], // float64 of header-like bytes
      s(4),
      [0xc6, 0, 0, 0, fakeString.length, ...fakeString], // bin32: the lookahead stops here
      s(5),
      s(6),
      [0xc1], // never used: also a stop
      s(7),
    ];
    const unpackr = new Unpackr();
    class Opaque {
      constructor(readonly bytes: Uint8Array) {}
    }
    unpackr.addExtension({
      Class: Opaque,
      type: 5,
      pack: (value: Opaque) => value.bytes,
      unpack: (bytes: Uint8Array) => new Opaque(bytes.slice()),
    });
    const expected = unpackr.unpack(encodeArray(items)) as unknown[];
    const strings = expected.filter((item) => typeof item === "string");
    assert.deepEqual(
      strings,
      [0, 1, 2, 3, 4, 5, 6, 7].flatMap((i) => {
        const out = [text(20 + i, i)];
        if (i === 2) out.push("x".repeat(25));
        return out;
      }),
    );
    // the bin and ext payloads are their own bytes, not strings
    assert.deepEqual(expected[1], Uint8Array.from(fakeString));
    assert.deepEqual((expected[3] as Opaque).bytes, Uint8Array.from(fakeString));
  });

  test("the densest batch: a 13-byte string, then 17-byte strings back to back", () => {
    // the most strings one batch's span can hold (the span alone bounds their count): the
    // 13-byte string is decoded alone (no string before it), then 400 strings of 17 bytes, one
    // header byte each, make a batch of 227 (17 + 226 × 18 = 4085 bytes of the 4096) and one of
    // the other 173; a batch that did not fit its tables would be dropped
    const first = textOfBytes(13, 1);
    const rest = Array.from({ length: 400 }, (_, i) => textOfBytes(17, i));
    const strings = [first, ...rest];
    const before = utf8BatchCounts().batches;
    assert.deepEqual(unpack(pack(strings)), strings);
    assert.equal(utf8BatchCounts().batches, before + (UTF8_BATCHES ? 2 : 0));
    assert.deepEqual(noEval.unpack(pack(strings)), strings);
  });

  test("the lookahead never takes bytes past the input's end", () => {
    const strings = Array.from({ length: 20 }, (_, i) => text(30 + i, i));
    const bytes = pack(strings);
    // the input is a view of a larger buffer whose next bytes look like one more string
    const backing = new Uint8Array(bytes.length + 64);
    backing.set(bytes);
    backing.set(strOf(encoder.encode(text(30, 4))), bytes.length);
    assert.deepEqual(unpack(backing.subarray(0, bytes.length)), strings);
    // cut inside a string (or its header): incomplete, never a shorter string
    for (let cut = bytes.length - 80; cut < bytes.length; cut++) {
      assert.throws(() => unpack(backing.subarray(0, cut)), IncompleteDataError, `cut ${cut}`);
    }
    // the input ends with a bin8 whose length byte is missing, right after two near strings
    const [a, b] = [encoder.encode(text(30, 1)), encoder.encode(text(30, 2))];
    for (const tail of [[0xc4], [0xc5, 0x01], [0xc7], [0xd9], [0xda, 0x00]]) {
      const truncated = Uint8Array.from([0x93, ...strOf(a), ...strOf(b), ...tail]);
      assert.throws(() => unpack(truncated), IncompleteDataError, `tail ${tail}`);
    }
  });

  test("a decode inside a decode (an extension) gets its own strings, and so does the outer", () => {
    // the inner message has strings at the same offsets and of the same lengths as the outer
    // message's, with other bytes: a batch that outlived its input would hand out the wrong ones
    const outer = Array.from({ length: 16 }, (_, i) => textOfBytes(24, i));
    const inner = outer.map(sameLengthVariant);
    for (let i = 0; i < outer.length; i++) {
      assert.equal(encoder.encode(inner[i]).length, encoder.encode(outer[i]).length);
      assert.notEqual(inner[i], outer[i]);
    }
    const innerBytes = pack(inner);
    class Wrapped {
      constructor(readonly value: unknown) {}
    }
    const unpackr = new Unpackr();
    unpackr.addExtension({
      Class: Wrapped,
      type: 30,
      pack: () => new Uint8Array(0),
      unpack: () => new Wrapped(unpack(innerBytes)),
    });
    // [s0..s7, ext, s8..s15], the ext as long as a string and its header, so that every outer
    // string after it starts where an inner string of the same length does
    const items = outer.map((string) => strOf(encoder.encode(string)));
    const ext = [0xc7, items[0].length - 3, 30, ...new Array(items[0].length - 3).fill(0)];
    const bytes = encodeArray([...items.slice(0, 8), ext, ...items.slice(8)]);
    assert.ok(items.every((item) => item.length === ext.length));
    const decoded = unpackr.unpack(bytes) as unknown[];
    assert.deepEqual(decoded.slice(0, 8), outer.slice(0, 8));
    assert.deepEqual((decoded[8] as Wrapped).value, inner);
    assert.deepEqual(decoded.slice(9), outer.slice(8));
  });

  test("a decode inside a decode that leaves part of its batch unused ends its batch", () => {
    // inner: [s0, s1, {k: 0}]: s1 opens a batch that holds the map key k (never asked of the
    // batch: keys have their own cache) at offset 53; outer: [ext, t] with the string t at offset
    // 53 too, of k's length
    const s0 = strOf(encoder.encode(textOfBytes(24, 0)));
    const s1 = strOf(encoder.encode(textOfBytes(24, 1)));
    const key = textOfBytes(24, 2);
    const innerBytes = Uint8Array.from([
      0x93,
      ...s0,
      ...s1,
      0x81,
      ...strOf(encoder.encode(key)),
      0x00,
    ]);
    const t = textOfBytes(24, 3);
    assert.notEqual(t, key);
    const outerBytes = Uint8Array.from([
      0x92,
      ...[0xc7, 48, 30, ...new Array(48).fill(0)],
      ...strOf(encoder.encode(t)),
    ]);
    assert.equal(outerBytes.indexOf(0xb8), 52);
    assert.equal(innerBytes.lastIndexOf(0xb8), 52);
    const unpackr = new Unpackr();
    unpackr.addExtension({
      Class: Map,
      type: 30,
      pack: () => new Uint8Array(0),
      unpack: () => unpack(innerBytes),
    });
    assert.deepEqual(unpackr.unpack(outerBytes), [
      [textOfBytes(24, 0), textOfBytes(24, 1), { [key]: 0 }],
      t,
    ]);
  });

  test("a batched string is handed out only for its own start and length", {
    skip: !UTF8_BATCHES && "no batches on this runtime",
  }, () => {
    const strings = Array.from({ length: 6 }, (_, i) => textOfBytes(30, i));
    const bytes = pack(strings);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    assert.equal(bytes[0], 0x96); // fixarray of 6
    assert.equal(bytes[1], 0xbe); // fixstr of 30 bytes
    // the first string is decoded alone, the second opens a batch of the others
    const at = (i: number) => 2 + 31 * i;
    const w = new InputWindow();
    const before = utf8BatchCounts().batches;
    assert.equal(nonAsciiString(w, bytes, view, at(0), at(0) + 30, bytes.length), strings[0]);
    assert.equal(nonAsciiString(w, bytes, view, at(1), at(1) + 30, bytes.length), strings[1]);
    assert.equal(utf8BatchCounts().batches, before + 1);
    // the same start with another length: decoded from exactly those bytes
    assert.equal(
      longString(w, bytes, view, at(2), at(2) + 12),
      utf8.decode(bytes.subarray(at(2), at(2) + 12)),
    );
    assert.equal(longString(w, bytes, view, at(3), at(3) + 30), strings[3]);
  });

  test("unpackMultiple and streams cut anywhere give the same strings", async () => {
    const values = Array.from({ length: 8 }, (_, i) => ({
      a: text(20 + i, i),
      b: text(120, i + 1),
      c: i,
    }));
    const bytes = Uint8Array.from(values.flatMap((value) => [...pack(value)]));
    assert.deepEqual(unpackMultiple(bytes), values);
    const next = random(11);
    for (let round = 0; round < 40; round++) {
      const cuts = [0];
      while (cuts[cuts.length - 1] < bytes.length) {
        cuts.push(Math.min(bytes.length, cuts[cuts.length - 1] + 1 + Math.floor(next() * 90)));
      }
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 1; i < cuts.length; i++) {
            controller.enqueue(bytes.slice(cuts[i - 1], cuts[i]));
          }
          controller.close();
        },
      }).pipeThrough(new UnpackrStream({ mapsAsObjects: true }));
      const out: unknown[] = [];
      for await (const value of stream) out.push(value);
      assert.deepEqual(out, values, `cuts ${cuts.join(",")}`);
    }
  });

  test("a fatal decoder still rejects ill-formed text, and a lenient one decodes it", () => {
    const good = encoder.encode(text(40, 2));
    const bad = Uint8Array.from([...encoder.encode(text(30, 1)), 0xff]);
    const encoded = encodeArray([strOf(good), strOf(bad), strOf(good)]);
    assert.throws(() => new Unpackr({ fatal: true }).unpack(encoded), /UTF-8/);
    assert.deepEqual(unpack(encoded), [utf8.decode(good), utf8.decode(bad), utf8.decode(good)]);
  });
});
