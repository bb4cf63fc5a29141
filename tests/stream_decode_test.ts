// Copyright 2026 the @x/msgpackr authors. MIT license.
// UnpackrStream, decodeIter and the resumable chunk decoder behind them (docs/wire-format.md,
// "Stream framing and incomplete data"): every value of a byte stream, in order, whatever the
// chunking; records, bundles and structured clone across chunks; errors after the values before
// them; the incomplete-value bound; linear work for a value arriving in many small chunks.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import fc from "fast-check";
import {
  addExtension,
  DecodeError,
  decodeIter,
  IncompleteDataError,
  pack,
  Packr,
  unpack,
  Unpackr,
  UnpackrStream,
  type UnpackrStreamOptions,
} from "../mod.ts";
import { ChunkDecoder } from "../_stream/chunk_decoder.ts";
import {
  benchValues,
  collect,
  concat,
  decodeChunks,
  fixedChunks,
  packEach,
  random,
  randomChunks,
  sampleValues,
  splitAt,
  streamOf,
} from "./_stream_util.ts";

const SAMPLE = sampleValues();
const SAMPLE_BYTES = concat(packEach(SAMPLE));
const BENCH = await benchValues();

/** What a sequential Unpackr makes of the whole byte stream in one call. */
function reference(bytes: Uint8Array, options: UnpackrStreamOptions = {}): unknown[] {
  const { maxIncompleteBufferSize: _, ...unpackrOptions } = options;
  return new Unpackr({ ...unpackrOptions, sequential: true }).unpackMultiple(bytes);
}

/** Decodes the chunks through an UnpackrStream. */
function viaStream(chunks: readonly unknown[], options?: UnpackrStreamOptions) {
  return collect(streamOf(chunks).pipeThrough(new UnpackrStream(options)));
}

/** Decodes the chunks with decodeIter. */
async function viaIter(chunks: readonly Uint8Array[], options?: UnpackrStreamOptions) {
  const values: unknown[] = [];
  try {
    for await (const value of decodeIter(chunks, options)) values.push(value);
    return { values, error: undefined };
  } catch (error) {
    return { values, error };
  }
}

/** Asserts that the chunk decoder gives `expected` for the chunks, and its scanner never erred. */
function assertChunks(
  chunks: readonly Uint8Array[],
  expected: unknown[],
  options?: UnpackrStreamOptions,
  message?: string,
): void {
  const { values, error, decoder } = decodeChunks(chunks, options);
  assert.equal(error, undefined, message);
  assert.deepEqual(values, expected, message);
  assert.equal(decoder.stats.fallbacks, 0, `${message}: the scanner disagreed with the decoder`);
}

describe("UnpackrStream chunking", () => {
  test("UnpackrStream decodes a multi-value stream split at every byte position", async () => {
    const expected = reference(SAMPLE_BYTES);
    assert.equal(expected.length, SAMPLE.length);
    for (let at = 0; at <= SAMPLE_BYTES.length; at++) {
      assertChunks(splitAt(SAMPLE_BYTES, at), expected, {}, `split at ${at}`);
    }
    // the public classes on a sample of positions
    for (let at = 0; at <= SAMPLE_BYTES.length; at += 37) {
      const chunks = splitAt(SAMPLE_BYTES, at);
      const streamed = await viaStream(chunks);
      assert.equal(streamed.error, undefined);
      assert.deepEqual(streamed.values, expected, `stream split at ${at}`);
      assert.deepEqual((await viaIter(chunks)).values, expected, `decodeIter split at ${at}`);
    }
  });

  test("UnpackrStream decodes a stream split at every pair of positions", () => {
    const bytes = concat(packEach(SAMPLE.slice(0, 8).concat(SAMPLE.slice(27, 30))));
    const expected = reference(bytes);
    for (let first = 0; first <= bytes.length; first++) {
      for (let second = first; second <= bytes.length; second++) {
        assertChunks(splitAt(bytes, first, second), expected, {}, `split at ${first}, ${second}`);
      }
    }
  });

  test("UnpackrStream decodes a stream in chunks of every fixed size from 1 to 64", () => {
    const expected = reference(SAMPLE_BYTES);
    for (let size = 1; size <= 64; size++) {
      assertChunks(fixedChunks(SAMPLE_BYTES, size), expected, {}, `chunks of ${size}`);
    }
  });

  test("UnpackrStream decodes the bench data in random chunk sizes", async () => {
    const bytes = concat(packEach([...BENCH, ...BENCH, ...SAMPLE, ...BENCH]));
    const expected = reference(bytes);
    const next = random(0x5eed);
    for (const maxSize of [1, 3, 16, 100, 1000, 5000, 70000]) {
      for (let round = 0; round < 4; round++) {
        const chunks = randomChunks(bytes, next, maxSize);
        assertChunks(chunks, expected, {}, `random chunks up to ${maxSize}`);
      }
    }
    const streamed = await viaStream(randomChunks(bytes, next, 300));
    assert.equal(streamed.error, undefined);
    assert.deepEqual(streamed.values, expected);
    assert.deepEqual((await viaIter(randomChunks(bytes, next, 50))).values, expected);
  });

  test("UnpackrStream skips zero-length chunks of every kind", async () => {
    const next = random(7);
    const chunks: unknown[] = [];
    for (const chunk of randomChunks(SAMPLE_BYTES, next, 20, 0.5)) {
      chunks.push(chunk);
      if (next() < 0.3) chunks.push(new ArrayBuffer(0), new DataView(new ArrayBuffer(0)));
    }
    chunks.unshift(new Uint8Array(0));
    chunks.push(new Uint8Array(0));
    const streamed = await viaStream(chunks);
    assert.equal(streamed.error, undefined);
    assert.deepEqual(streamed.values, reference(SAMPLE_BYTES));
  });

  test("UnpackrStream emits many values from one chunk, in order", async () => {
    const values = Array.from({ length: 10000 }, (_, i) => ({ id: i, name: `n${i}`, ok: i % 2 }));
    const bytes = concat(packEach(values));
    const streamed = await viaStream([bytes]);
    assert.equal(streamed.error, undefined);
    assert.deepEqual(streamed.values, values);
  });

  test("UnpackrStream accepts every BufferSource and Node Buffers", async () => {
    const bytes = concat(packEach([{ a: 1 }, "two", [3]]));
    const padded = new Uint8Array(bytes.length + 6);
    padded.set(bytes, 3);
    const chunks: unknown[] = [
      bytes.slice(0, 2).buffer,
      new DataView(padded.buffer, 3 + 2, 3),
      Buffer.from(bytes.subarray(5, 8)),
      padded.subarray(3 + 8, 3 + 9),
      new Int8Array(bytes.slice(9).buffer),
    ];
    const streamed = await viaStream(chunks);
    assert.equal(streamed.error, undefined);
    assert.deepEqual(streamed.values, [{ a: 1 }, "two", [3]]);
  });

  test("UnpackrStream rejects a chunk that is not bytes with a TypeError", async () => {
    const streamed = await viaStream([new Uint8Array([1]), "text"]);
    assert.deepEqual(streamed.values, [1]);
    assert.ok(streamed.error instanceof TypeError);
    assert.match(
      (streamed.error as Error).message,
      /^Chunk must be an ArrayBuffer or ArrayBufferView but was a string$/,
    );
  });

  test("UnpackrStream copies held bytes, so the caller may reuse its chunk buffer", () => {
    const bytes = concat(
      packEach([{ text: "a".repeat(50), n: 1 }, { text: "b".repeat(50), n: 2 }]),
    );
    const decoder = new ChunkDecoder();
    const values: unknown[] = [];
    const buffer = new Uint8Array(16);
    for (let offset = 0; offset < bytes.length; offset += 16) {
      const size = Math.min(16, bytes.length - offset);
      buffer.set(bytes.subarray(offset, offset + size));
      decoder.push(buffer.subarray(0, size), values);
      buffer.fill(0xc1); // the caller reuses its buffer
    }
    decoder.end(values);
    assert.deepEqual(values, [{ text: "a".repeat(50), n: 1 }, { text: "b".repeat(50), n: 2 }]);
  });

  test("UnpackrStream delivers null and undefined as they are", async () => {
    const bytes = concat([pack(null), pack(undefined), pack([null]), pack(null)]);
    for (const chunks of [[bytes], fixedChunks(bytes, 1)]) {
      const streamed = await viaStream(chunks);
      assert.equal(streamed.error, undefined);
      assert.deepEqual(streamed.values, [null, undefined, [null], null]);
      assert.deepEqual((await viaIter(chunks)).values, [null, undefined, [null], null]);
    }
  });

  test("UnpackrStream decodes plain maps as objects with useRecords: false", async () => {
    const bytes = concat([pack({ a: 1 }), pack({ b: [2] })]);
    const streamed = await viaStream(fixedChunks(bytes, 2), { useRecords: false });
    assert.deepEqual(streamed.values, [{ a: 1 }, { b: [2] }]);
    const asMaps = await viaStream([bytes]);
    assert.deepEqual(asMaps.values, [new Map([["a", 1]]), new Map([["b", [2]]])]);
  });

  test("UnpackrStream passes Unpackr options on (int64AsType, copyBuffers)", async () => {
    const bytes = concat([new Packr({ useRecords: false }).pack(5n), pack(new Uint8Array([9, 8]))]);
    const streamed = await viaStream([bytes], { int64AsType: "number", copyBuffers: true });
    assert.deepEqual(streamed.values, [5, new Uint8Array([9, 8])]);
    assert.equal((streamed.values[1] as Uint8Array).buffer.byteLength, 2);
  });
});

describe("UnpackrStream records, bundles and extensions across chunks", () => {
  test("UnpackrStream keeps sequential record definitions from chunk to chunk", async () => {
    const packr = new Packr({ sequential: true });
    const first = packr.pack({ a: 1, b: "x" }); // d4 72 40 … defines the shape
    const second = packr.pack({ a: 2, b: "y" }); // 40 … refers to it
    assert.equal(first[0], 0xd4);
    assert.equal(second[0], 0x40);
    const bytes = concat([first, second, packr.pack({ a: 3, b: "z" })]);
    const expected = [{ a: 1, b: "x" }, { a: 2, b: "y" }, { a: 3, b: "z" }];
    for (let at = 0; at <= bytes.length; at++) {
      assertChunks(splitAt(bytes, at), expected, {}, `split at ${at}`);
    }
    const streamed = await viaStream(fixedChunks(bytes, 1));
    assert.deepEqual(streamed.values, expected);
  });

  test("UnpackrStream follows more than 32 shapes, whose ids wrap and are redefined", () => {
    const values = Array.from({ length: 100 }, (_, i) => ({ [`k${i % 45}`]: i, v: i }));
    const bytes = concat(packEach(values));
    const next = random(99);
    for (let round = 0; round < 20; round++) {
      assertChunks(randomChunks(bytes, next, 12), values, {}, `round ${round}`);
    }
  });

  test("UnpackrStream decodes records defined inside the value that spans chunks", () => {
    const value = Array.from({ length: 50 }, (_, i) => ({ x: i, inner: { y: [i], z: { w: i } } }));
    const bytes = new Packr({ sequential: true }).pack(value);
    for (let at = 0; at <= bytes.length; at++) {
      assertChunks(splitAt(bytes, at), [value], {}, `split at ${at}`);
    }
    assertChunks(fixedChunks(bytes, 1), [value]);
  });

  test("UnpackrStream decodes shared structures given as options, one- and two-byte ids", () => {
    const structures: string[][] = [];
    const packr = new Packr({ structures, maxSharedStructures: 100 });
    const values = Array.from({ length: 60 }, (_, i) => ({ [`s${i}`]: i, t: [i] }));
    const bytes = concat(values.map((value) => packr.pack(value)));
    assert.ok(structures.length > 32); // ids from 0x60 on take two bytes
    const expected = values;
    for (let at = 0; at <= bytes.length; at++) {
      assertChunks(splitAt(bytes, at), expected, { structures }, `split at ${at}`);
    }
  });

  test("UnpackrStream loads shared structures lazily with getStructures", () => {
    const structures: string[][] = [];
    const packr = new Packr({ structures });
    const values = Array.from({ length: 20 }, (_, i) => ({ id: i, [`f${i % 4}`]: "v" }));
    const bytes = concat(values.map((value) => packr.pack(value)));
    let loads = 0;
    const getStructures = () => {
      loads++;
      return structures;
    };
    for (let at = 0; at <= bytes.length; at++) {
      assertChunks(splitAt(bytes, at), values, { getStructures }, `split at ${at}`);
    }
    assert.ok(loads > 0);
  });

  test("UnpackrStream decodes msgpackr's two-byte inline definitions across chunks", () => {
    // `d5 72 64 02` defines slot 32 + 4 + 64 inline; `64 02` refers to it (docs/wire-format.md,
    // "Two-byte ids")
    const first = Uint8Array.from([0xd5, 0x72, 0x64, 0x02, 0x91, 0xa1, 0x61, 0x01]);
    const second = Uint8Array.from([0x64, 0x02, 0x02]);
    const third = Uint8Array.from([
      0xd5,
      0x72,
      0x61,
      0x00,
      0x91,
      0xa1,
      0x62,
      0x03,
      0x61,
      0x00,
      0x04,
    ]);
    const bytes = concat([first, second, third]);
    const expected = [{ a: 1 }, { a: 2 }, { b: 3 }, { b: 4 }];
    for (let at = 0; at <= bytes.length; at++) {
      for (let at2 = at; at2 <= bytes.length; at2++) {
        assertChunks(splitAt(bytes, at, at2), expected, {}, `split at ${at}, ${at2}`);
      }
    }
  });

  test("UnpackrStream decodes string bundles, also later ext16 and ext32 bundles", () => {
    const words = Array.from({ length: 3000 }, (_, i) => `word ${i} ${"é".repeat(i % 7)}`);
    const values = [
      ["abcd", "héllo", "xy", "efgh"],
      [{ name: "abcd" }, { name: "efgh" }],
      words, // more than 0x5500 characters: later bundles
      Array.from({ length: 12 }, () => "€".repeat(4000)), // a closed bundle over 64 KiB: ext32
      "plain string",
      { text: "bundled text", list: words.slice(0, 10) },
    ];
    const bytes = concat(packEach(values, { bundleStrings: true }));
    assert.deepEqual(reference(bytes), values);
    const small = concat(
      packEach(values.slice(0, 2).concat(values.slice(4)), { bundleStrings: true }),
    );
    for (let at = 0; at <= small.length; at++) {
      assertChunks(splitAt(small, at), reference(small), {}, `split at ${at}`);
    }
    const next = random(3);
    for (const maxSize of [1, 7, 100, 4000, 50000]) {
      assertChunks(randomChunks(bytes, next, maxSize), values, {}, `chunks up to ${maxSize}`);
    }
  });

  test("UnpackrStream decodes structured clone values (cycles, Set, Error, RegExp, typed arrays)", () => {
    const shared = { s: 1 };
    const cyclic: Record<string, unknown> = { name: "cycle" };
    cyclic.self = cyclic;
    const values = [
      [shared, shared, { inner: shared }],
      cyclic,
      new Set([1, "two", shared]),
      new Error("boom", { cause: "why" }),
      /ab+c/gi,
      new Float64Array([1.5, -2]),
      new Int16Array([1, -1, 300]),
      new Map<unknown, unknown>([["m", [1, 2]]]),
      { d: new Date(5), big: 2n ** 70n },
    ];
    const bytes = concat(packEach(values, { structuredClone: true }));
    const expected = reference(bytes);
    const decodedCycle = expected[1] as Record<string, unknown>;
    assert.equal(decodedCycle.self, decodedCycle);
    for (let at = 0; at <= bytes.length; at++) {
      const { values: decoded, error, decoder } = decodeChunks(splitAt(bytes, at));
      assert.equal(error, undefined);
      assert.deepEqual(decoded, expected, `split at ${at}`);
      assert.equal(decoder.stats.fallbacks, 0);
      const cycle = decoded[1] as Record<string, unknown>;
      assert.equal(cycle.self, cycle);
      const [a, b] = decoded[0] as object[];
      assert.equal(a, b);
    }
  });

  test("UnpackrStream decodes custom extensions of both kinds across chunks", () => {
    class Tagged {
      constructor(public items: unknown[]) {}
    }
    class Raw {
      constructor(public bytes: Uint8Array) {}
    }
    addExtension({
      Class: Tagged,
      type: 21,
      write: (tagged: Tagged) => tagged.items,
      read: (items) => new Tagged(items as unknown[]),
    });
    addExtension({
      Class: Raw,
      type: 22,
      pack: (raw: Raw) => raw.bytes,
      unpack: (bytes) => new Raw(bytes.slice()),
    });
    const values = [
      new Tagged([1, { a: "x" }, [2, 3]]),
      new Raw(new Uint8Array([1, 2, 3, 4, 5])),
      { wrapped: new Tagged([new Raw(new Uint8Array(20))]) },
      new Tagged([]),
    ];
    const bytes = concat(packEach(values));
    assert.equal(bytes[0], 0xd4); // the `d4 15 00` tag, then the array
    for (let at = 0; at <= bytes.length; at++) {
      assertChunks(splitAt(bytes, at), values, {}, `split at ${at}`);
    }
  });

  test("UnpackrStream leaves bytes its scanner cannot size to the decoder", () => {
    // record keys behind a structured-clone id: valid, but the scanner does not follow it
    const odd = Uint8Array.from([0xd4, 0x72, 0x40, 0xd6, 0x69, 0, 0, 0, 1, 0x91, 0xa1, 0x61, 0x01]);
    const bytes = concat([pack(0), odd, Uint8Array.from([0x40, 0x02]), pack("end")]);
    const expected = [0, { a: 1 }, { a: 2 }, "end"];
    let fellBack = 0;
    for (let at = 0; at <= bytes.length; at++) {
      for (
        const chunks of [splitAt(bytes, at), [
          ...splitAt(bytes, at).flatMap((c) => fixedChunks(c, 2)),
        ]]
      ) {
        const { values, error, decoder } = decodeChunks(chunks);
        assert.equal(error, undefined, `split at ${at}`);
        assert.deepEqual(values, expected, `split at ${at}`);
        fellBack += decoder.stats.fallbacks;
      }
    }
    assert.ok(fellBack > 0);
    // truncated inside such a value: still an incomplete-data error at the end
    const { values, error } = decodeChunks(fixedChunks(bytes.subarray(0, 8), 3));
    assert.deepEqual(values, [0]);
    assert.ok(error instanceof IncompleteDataError);
  });

  test("UnpackrStream decodes random values in random chunks (property)", () => {
    const value = fc.letrec((tie) => ({
      any: fc.oneof(
        { maxDepth: 3 },
        fc.constantFrom(null, undefined, true, false),
        fc.integer(),
        fc.double(),
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }),
        fc.string(),
        fc.string({ unit: "grapheme", maxLength: 40 }),
        fc.uint8Array({ maxLength: 40 }),
        fc.array(tie("any"), { maxLength: 6 }),
        fc.dictionary(fc.string({ maxLength: 6 }), tie("any"), { maxKeys: 5 }),
      ),
    })).any;
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 1 << 30 }),
        fc.integer({ min: 1, max: 40 }),
        (values, bundleStrings, seed, maxSize) => {
          const bytes = concat(packEach(values, { bundleStrings }));
          const chunks = randomChunks(bytes, random(seed), maxSize, 0.1);
          assertChunks(chunks, reference(bytes));
        },
      ),
      { numRuns: 300, seed: 42 },
    );
  });
});

describe("UnpackrStream errors", () => {
  test("UnpackrStream errors on truncated data at the end, after the values before it", async () => {
    const parts = packEach([{ id: 1 }, "two", { id: 3 }, [4, 5, 6]]);
    const bytes = concat(parts);
    const boundaries = new Set(parts.map((_, i) => concat(parts.slice(0, i + 1)).length));
    for (let cut = 1; cut < bytes.length; cut++) {
      if (boundaries.has(cut)) continue; // a clean end
      const truncated = bytes.subarray(0, cut);
      const whole = reference(bytes);
      const { values, error } = decodeChunks(fixedChunks(truncated, 3));
      assert.ok(error instanceof IncompleteDataError, `cut at ${cut}`);
      assert.equal(error.incomplete, true);
      assert.match(
        error.message,
        /^Unexpected end of MessagePack data: the stream ended \d+ bytes/,
      );
      assert.deepEqual(values, whole.slice(0, values.length));
      assert.ok(values.length < whole.length);
    }
    // the stream delivers every complete value before erroring, even to a slow reader
    const streamed = await collect(
      streamOf([bytes.subarray(0, bytes.length - 1)]).pipeThrough(new UnpackrStream()),
      1,
    );
    assert.deepEqual(streamed.values, [{ id: 1 }, "two", { id: 3 }]);
    assert.ok(streamed.error instanceof IncompleteDataError);
    const iterated = await viaIter([bytes.subarray(0, bytes.length - 1)]);
    assert.deepEqual(iterated.values, [{ id: 1 }, "two", { id: 3 }]);
    assert.ok(iterated.error instanceof IncompleteDataError);
  });

  test("UnpackrStream errors on malformed bytes, after every value decoded before them", async () => {
    const good = concat(packEach([{ id: 1 }, { id: 2 }, "three"]));
    // ext type 5 is not registered: a DecodeError, not an incomplete value
    const bad = Uint8Array.from([0xc7, 0x01, 0x05, 0x00]);
    const chunks = [good.subarray(0, 4), concat([good.subarray(4), bad, pack("never")])];
    for (const delay of [-1, 0, 5]) {
      const streamed = await collect(streamOf(chunks).pipeThrough(new UnpackrStream()), delay);
      assert.deepEqual(streamed.values, [{ id: 1 }, { id: 2 }, "three"], `delay ${delay}`);
      assert.ok(streamed.error instanceof DecodeError);
      assert.ok(!(streamed.error instanceof IncompleteDataError));
      assert.match((streamed.error as Error).message, /^Unknown extension type 5 at offset \d+$/);
    }
    const iterated = await viaIter(chunks);
    assert.deepEqual(iterated.values, [{ id: 1 }, { id: 2 }, "three"]);
    assert.ok(iterated.error instanceof DecodeError);
  });

  test("UnpackrStream reports a malformed value held across chunks with the decoder's error", () => {
    const good = concat(packEach([1, 2]));
    // an array whose third element is an unknown extension: found by the scanner, judged by the decoder
    const bad = Uint8Array.from([0x93, 0x01, 0x02, 0xd4, 0x07, 0x00]);
    for (let at = 0; at <= good.length + bad.length; at++) {
      const { values, error } = decodeChunks(splitAt(concat([good, bad]), at));
      assert.deepEqual(values, [1, 2], `split at ${at}`);
      assert.ok(error instanceof DecodeError && !error.incomplete, `split at ${at}`);
      assert.match(error.message, /Unknown extension 7/);
    }
  });

  test("UnpackrStream errors with the decoder's error when record keys are not an array", () => {
    const bytes = Uint8Array.from([0x07, 0xd4, 0x72, 0x40, 0xa1, 0x61, 0x01]);
    for (let at = 0; at <= bytes.length; at++) {
      const { values, error } = decodeChunks(splitAt(bytes, at));
      assert.deepEqual(values, [7]);
      assert.ok(error instanceof DecodeError, `split at ${at}`);
      assert.match(error.message, /Record definition keys must be an array/);
    }
  });

  test("UnpackrStream reports an extension whose own nested decode fails as invalid data", async () => {
    // An extension that decodes its payload with `unpack`: a payload that is itself truncated is
    // bad data inside a complete value, not a value waiting for more bytes. msgpackr clears
    // `incomplete` on such errors (docs/wire-format.md, "Stream framing and incomplete data");
    // otherwise a stream would wait for bytes that cannot help and hold back every later value.
    class Box {
      constructor(public inner: Uint8Array) {}
    }
    addExtension({
      Class: Box,
      type: 24,
      pack: (box: Box) => box.inner,
      unpack: (bytes) => unpack(bytes),
    });
    const bytes = concat([
      pack(1),
      new Packr().pack(new Box(Uint8Array.from([0x92, 0x01]))),
      pack(3),
    ]);
    const streamed = await viaStream([bytes]);
    assert.deepEqual(streamed.values, [1]);
    assert.ok(streamed.error instanceof DecodeError);
    assert.equal((streamed.error as DecodeError).incomplete, false);
  });

  test("UnpackrStream bounds the bytes held for an incomplete value (maxIncompleteBufferSize)", async () => {
    const small = pack("s".repeat(50));
    const large = pack("L".repeat(200));
    const options = { maxIncompleteBufferSize: 100 };
    // a value that fits is held and completed
    assert.deepEqual(decodeChunks(fixedChunks(small, 10), options).values, ["s".repeat(50)]);
    // a value larger than the bound in one chunk is never held
    assert.deepEqual(decodeChunks([large], options).values, ["L".repeat(200)]);
    // held beyond the bound: an error, after the values before it
    const chunks = fixedChunks(concat([small, pack(1), large]), 10);
    const { values, error } = decodeChunks(chunks, options);
    assert.deepEqual(values, ["s".repeat(50), 1]);
    assert.ok(error instanceof DecodeError && !(error instanceof IncompleteDataError));
    assert.match(error.message, /^Maximum incomplete buffer size exceeded/);
    // the held value starts after the 52-byte string and the 1-byte integer
    assert.equal(error.offset, 53);
    const streamed = await viaStream(chunks, options);
    assert.deepEqual(streamed.values, ["s".repeat(50), 1]);
    assert.ok(streamed.error instanceof DecodeError);
    // Infinity disables the bound
    assert.deepEqual(decodeChunks(chunks, { maxIncompleteBufferSize: Infinity }).values, [
      "s".repeat(50),
      1,
      "L".repeat(200),
    ]);
  });

  test("UnpackrStream errors at once when a header promises more than the bound", () => {
    // str32 of 2 GiB: with the default 64 MiB bound this fails on its first chunk, not after 64 MiB
    const decoder = new ChunkDecoder();
    const values: unknown[] = [];
    decoder.push(pack(1), values);
    assert.throws(
      () => decoder.push(Uint8Array.from([0xdb, 0x80, 0x00, 0x00, 0x00, 0x61]), values),
      /^DecodeError: Maximum incomplete buffer size exceeded/,
    );
    assert.deepEqual(values, [1]);
    // but a value exactly at the bound is accepted
    const value = pack("q".repeat(1000));
    const exact = decodeChunks(fixedChunks(value, 100), { maxIncompleteBufferSize: value.length });
    assert.deepEqual(exact.values, ["q".repeat(1000)]);
    assert.equal(exact.error, undefined);
  });

  test("UnpackrStream rejects an invalid maxIncompleteBufferSize", () => {
    assert.throws(() => new UnpackrStream({ maxIncompleteBufferSize: -1 }), RangeError);
    assert.throws(() => new UnpackrStream({ maxIncompleteBufferSize: NaN }), RangeError);
  });

  test("decodeIter reads ReadableStreams, async iterables and cancels its source when stopped", async () => {
    const bytes = concat(packEach([1, 2, 3, 4]));
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(bytes.slice(0, 2));
      },
      cancel() {
        cancelled = true;
      },
    });
    const seen: unknown[] = [];
    for await (const value of decodeIter(stream)) {
      seen.push(value);
      if (seen.length === 3) break;
    }
    assert.deepEqual(seen, [1, 2, 1]);
    assert.equal(cancelled, true);
    async function* source() {
      for (const chunk of fixedChunks(bytes, 1)) yield chunk;
    }
    assert.deepEqual(await Array.fromAsync(decodeIter(source())), [1, 2, 3, 4]);
    // a ReadableStream without async iteration (as in Safari) is read with a reader
    const plain = streamOf([bytes]);
    Object.defineProperty(plain, Symbol.asyncIterator, { value: undefined });
    assert.deepEqual(await Array.fromAsync(decodeIter(plain)), [1, 2, 3, 4]);
  });
});

describe("UnpackrStream linear work", () => {
  /** A value of about `size` bytes made of many small parts (records, strings, numbers). */
  function bigValue(size: number): Uint8Array {
    const rows = [];
    for (let i = 0; rows.length * 20 < size; i++) {
      rows.push({ id: i, name: `row ${i}`, score: i * 0.5, tags: ["t", i % 10] });
    }
    const bytes = new Packr({ sequential: true }).pack(rows);
    assert.ok(bytes.length >= size, `${bytes.length} bytes`);
    return bytes;
  }

  for (const chunkSize of [1, 7, 1000]) {
    test(`UnpackrStream decodes a 1 MB value in ${chunkSize}-byte chunks with O(n) work`, () => {
      const bytes = bigValue(1_000_000);
      const n = bytes.length;
      const decoder = new ChunkDecoder();
      const values: unknown[] = [];
      for (let offset = 0; offset < n; offset += chunkSize) {
        decoder.push(bytes.subarray(offset, offset + chunkSize), values);
      }
      decoder.end(values);
      assert.equal(values.length, 1);
      const { decodeCalls, decodedBytes, copiedBytes, fallbacks } = decoder.stats;
      // one decode attempt that ran into the end of the first chunk, one real decode
      assert.ok(decodeCalls <= 2, `${decodeCalls} decode calls`);
      assert.ok(decodedBytes <= n + chunkSize, `${decodedBytes} bytes decoded for ${n}`);
      assert.ok(decoder.scannedBytes <= n, `${decoder.scannedBytes} bytes scanned for ${n}`);
      assert.ok(decodedBytes + decoder.scannedBytes < 3 * n);
      assert.ok(copiedBytes < 3 * n, `${copiedBytes} bytes copied for ${n}`);
      assert.equal(fallbacks, 0);
    });
  }

  test("UnpackrStream decodes a long string in 1-byte chunks without rescanning it", () => {
    const bytes = pack("x".repeat(200_000));
    const decoder = new ChunkDecoder();
    const values: unknown[] = [];
    for (let offset = 0; offset < bytes.length; offset++) {
      decoder.push(bytes.subarray(offset, offset + 1), values);
    }
    decoder.end(values);
    assert.deepEqual(values, ["x".repeat(200_000)]);
    assert.ok(decoder.stats.decodedBytes <= bytes.length + 1);
    assert.ok(decoder.scannedBytes < 20, `${decoder.scannedBytes}`); // the header, not the text
  });

  test("UnpackrStream work stays linear for a stream of many values in small chunks", () => {
    const values = Array.from({ length: 20000 }, (_, i) => ({ id: i, label: `item ${i}` }));
    const bytes = concat(packEach(values));
    const n = bytes.length;
    const { values: decoded, decoder } = decodeChunks(fixedChunks(bytes, 5));
    assert.equal(decoded.length, values.length);
    // each value is attempted at most twice (once into the chunk end, once for real)
    assert.ok(decoder.stats.decodedBytes < 2 * n, `${decoder.stats.decodedBytes} for ${n}`);
    assert.ok(decoder.scannedBytes < n);
    assert.ok(decoder.stats.copiedBytes < 3 * n);
  });
});
