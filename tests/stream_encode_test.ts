// Copyright 2026 the @x/msgpackr authors. MIT license.
// PackrStream and encodeIter: the bytes of a sequential Packr, plain MessagePack with
// `useRecords: false`, coalescing of small values (and no value held back), backpressure, errors.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as msgpackr from "msgpackr";
import { decodeMulti } from "@msgpack/msgpack";
import { encodeIter, pack, Packr, PackrStream, unpack, UnpackrStream } from "../mod.ts";
import * as streamEntry from "../stream.ts";
import * as noEvalEntry from "../no_eval.ts";
import * as mainEntry from "../mod.ts";
import { collect, concat, packEach, sampleValues, streamOf } from "./_stream_util.ts";

/** Values every decoder understands (no undefined, bigints, or msgpackr extensions). */
const PLAIN_VALUES: unknown[] = [
  { id: 1, name: "ann", tags: ["a", "b"] },
  { id: 2, name: "bob", tags: [] },
  null,
  0,
  -1,
  1.5,
  "text",
  "é".repeat(70),
  new Uint8Array([1, 2, 3]),
  [1, [2, [3]]],
  { nested: { deeper: { deepest: true } } },
  new Date(1700000000000),
];

/** The chunks a PackrStream emits for `values` (written as fast as the stream takes them). */
async function packStream(
  values: readonly unknown[],
  options?: ConstructorParameters<typeof PackrStream>[0],
) {
  const { values: chunks, error } = await collect(
    streamOf(values).pipeThrough(new PackrStream(options)),
  );
  assert.equal(error, undefined);
  return chunks;
}

function rows(count: number): { id: number; name: string; active: boolean; score: number }[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i,
    name: `name ${i}`,
    active: i % 3 === 0,
    score: i / 7,
  }));
}

/** Binary values as plain Uint8Arrays (msgpackr may return Node Buffers). */
function plainBytes(value: unknown): unknown {
  return value instanceof Uint8Array ? new Uint8Array(value) : value;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Whether a promise settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), ms));
  const settled = await Promise.race([promise.then(() => true, () => true), timeout]);
  clearTimeout(timer);
  return settled;
}

describe("PackrStream bytes", () => {
  test("PackrStream writes the bytes of a sequential Packr, value after value", async () => {
    const values = sampleValues();
    const chunks = await packStream(values);
    assert.deepEqual(concat(chunks), concat(packEach(values)));
    const decoded = await collect(streamOf(chunks).pipeThrough(new UnpackrStream()));
    assert.deepEqual(
      decoded.values,
      new Packr({ sequential: true }).unpackMultiple(concat(chunks)),
    );
  });

  test("PackrStream defines each record shape once per stream", async () => {
    const values = rows(100);
    const bytes = concat(await packStream(values));
    let definitions = 0;
    for (let i = 0; i + 2 < bytes.length; i++) {
      if (bytes[i] === 0xd4 && bytes[i + 1] === 0x72) definitions++;
    }
    assert.equal(definitions, 1);
    assert.deepEqual(new Packr({ sequential: true }).unpackMultiple(bytes), values);
  });

  test("PackrStream with useRecords: false writes plain MessagePack for any decoder", async () => {
    const bytes = concat(await packStream(PLAIN_VALUES, { useRecords: false }));
    assert.deepEqual(bytes, concat(PLAIN_VALUES.map((value) => pack(value))));
    assert.deepEqual(msgpackr.unpackMultiple(bytes).map(plainBytes), PLAIN_VALUES);
    const theirs = [...decodeMulti(bytes)];
    assert.equal(theirs.length, PLAIN_VALUES.length);
    assert.deepEqual(theirs.map(plainBytes), PLAIN_VALUES);
  });

  test("PackrStream passes Packr options on", async () => {
    const bytes = concat(
      await packStream([1.1, { a: 0.5 }], {
        useRecords: false,
        useFloat32: 1,
        variableMapSize: true,
      }),
    );
    assert.deepEqual([...bytes.subarray(0, 5)], [0xca, 0x3f, 0x8c, 0xcc, 0xcd]);
    assert.deepEqual(unpack(bytes.subarray(5)), { a: 0.5 });
  });

  test("PackrStream keeps record ids straight over more than 32 shapes", async () => {
    const values = Array.from({ length: 300 }, (_, i) => ({ [`shape${i % 50}`]: i, common: "c" }));
    const chunks = await packStream(values, { coalesceBytes: 64 });
    const decoded = await collect(streamOf(chunks).pipeThrough(new UnpackrStream()));
    assert.equal(decoded.error, undefined);
    assert.deepEqual(decoded.values, values);
  });
});

describe("PackrStream coalescing", () => {
  test("PackrStream joins small values into chunks of at least coalesceBytes", async () => {
    const values = rows(2000);
    const chunks = await packStream(values);
    assert.ok(chunks.length < 10, `${chunks.length} chunks`);
    for (const chunk of chunks.slice(0, -1)) assert.ok(chunk.length >= 16384);
    const small = await packStream(values, { coalesceBytes: 100 });
    for (const chunk of small.slice(0, -1)) {
      assert.ok(chunk.length >= 100 && chunk.length < 200, `${chunk.length}`);
    }
    assert.deepEqual(concat(small), concat(chunks));
  });

  test("PackrStream sends each value as its own chunk with coalesceBytes: 0", async () => {
    const values = rows(50);
    const chunks = await packStream(values, { coalesceBytes: 0 });
    assert.equal(chunks.length, values.length);
    assert.deepEqual(chunks, packEach(values));
  });

  test("PackrStream sends a lone value without waiting for more or for close", async () => {
    const stream = new PackrStream();
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    const read = reader.read();
    await writer.write({ hello: "world" });
    assert.ok(await settlesWithin(read, 1000), "the value was held back");
    const { value } = await read;
    assert.deepEqual(new Packr({ sequential: true }).unpack(value!), { hello: "world" });
    await writer.close();
    assert.equal((await reader.read()).done, true);
  });

  test("PackrStream sends a value larger than coalesceBytes in order", async () => {
    const big = { blob: new Uint8Array(100_000).fill(3), text: "t".repeat(70_000) };
    const values = [1, "two", big, 4, big, "six"];
    const chunks = await packStream(values, { coalesceBytes: 1000 });
    const bytes = concat(chunks);
    assert.deepEqual(bytes, concat(packEach(values)));
    assert.deepEqual(new Packr({ sequential: true }).unpackMultiple(bytes), values);
  });

  test("PackrStream chunks stay intact while the stream goes on", async () => {
    const stream = new PackrStream({ coalesceBytes: 256 });
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    const kept: Uint8Array[] = [];
    const copies: Uint8Array[] = [];
    const writing = (async () => {
      for (const row of rows(3000)) await writer.write(row);
      await writer.close();
    })();
    for (;;) {
      const step = await reader.read();
      if (step.done) break;
      kept.push(step.value);
      copies.push(step.value.slice());
    }
    await writing;
    assert.deepEqual(kept, copies);
    assert.deepEqual(new Packr({ sequential: true }).unpackMultiple(concat(kept)), rows(3000));
  });
});

describe("PackrStream backpressure and errors", () => {
  test("PackrStream makes the writer wait while the reader lags", async () => {
    const stream = new PackrStream({ coalesceBytes: 0 });
    const writer = stream.writable.getWriter();
    await writer.ready;
    writer.write(1).catch(() => {});
    // nobody reads: the writable side fills up and the writer is asked to wait
    assert.ok(writer.desiredSize! <= 0);
    assert.equal(await settlesWithin(writer.ready, 50), false);
    // a slow reader: the writer, awaiting `ready`, stays at most a couple of values ahead
    let written = 1;
    let read = 0;
    let maxAhead = 0;
    const writing = (async () => {
      for (let i = 2; i <= 60; i++) {
        await writer.ready;
        writer.write(i).catch(() => {});
        written++;
        maxAhead = Math.max(maxAhead, written - read);
      }
      await writer.close();
    })();
    const reader = stream.readable.getReader();
    for (;;) {
      await delay(1);
      const step = await reader.read();
      if (step.done) break;
      read++;
    }
    await writing;
    assert.equal(read, 60);
    assert.ok(maxAhead <= 3, `the writer ran ${maxAhead} values ahead`);
  });

  test("PackrStream bounds what it buffers to about coalesceBytes", async () => {
    const stream = new PackrStream({ coalesceBytes: 4096 });
    const writer = stream.writable.getWriter();
    const values = rows(10_000);
    let accepted = 0;
    const writing = (async () => {
      for (const row of values) {
        await writer.ready;
        writer.write(row).catch(() => {});
        accepted++;
      }
    })();
    // read one chunk, then stop reading: the stream takes in about one chunk's worth of values
    const reader = stream.readable.getReader();
    const first = await reader.read();
    assert.ok(first.value!.length >= 4096);
    await delay(50);
    const takenBytes = packEach(values.slice(0, accepted)).reduce(
      (sum, part) => sum + part.length,
      0,
    );
    assert.ok(takenBytes < 2 * 4096 + 200, `${takenBytes} bytes taken in for one chunk read`);
    await reader.cancel();
    await writing.catch(() => {});
  });

  test("PackrStream errors on a value it cannot pack, after the values before it", async () => {
    const values = [1, { a: 2 }, Symbol("no"), 4];
    for (const coalesceBytes of [0, 16384]) {
      const { values: chunks, error } = await collect(
        streamOf(values).pipeThrough(new PackrStream({ useRecords: false, coalesceBytes })),
        1,
      );
      assert.ok(error instanceof TypeError, `coalesceBytes ${coalesceBytes}`);
      assert.match((error as Error).message, /Unknown type: symbol/);
      assert.deepEqual(msgpackr.unpackMultiple(concat(chunks)), [1, { a: 2 }]);
    }
  });

  test("PackrStream rejects an invalid coalesceBytes", () => {
    assert.throws(() => new PackrStream({ coalesceBytes: -1 }), RangeError);
    assert.throws(() => new PackrStream({ coalesceBytes: 2 ** 40 }), RangeError);
  });
});

describe("PackrStream.from", () => {
  async function* asyncOf(values: readonly unknown[]) {
    for (const value of values) yield value;
  }

  test("PackrStream.from writes the bytes of a pipeThrough, from every kind of source", async () => {
    const values = sampleValues();
    const expected = concat(packEach(values));
    const sources = [
      () => values,
      () => values.values(),
      () => asyncOf(values),
      () => ({ [Symbol.asyncIterator]: () => asyncOf(values) }),
      () => streamOf(values),
      () => ReadableStream.from(values),
    ];
    for (const source of sources) {
      const { values: chunks, error } = await collect(PackrStream.from(source()));
      assert.equal(error, undefined);
      assert.deepEqual(concat(chunks), expected);
    }
    const piped = await packStream(values);
    assert.deepEqual(concat(piped), expected);
  });

  test("PackrStream.from writes msgpackr's PackrStream bytes for records", async () => {
    const values = rows(500);
    const theirs = new msgpackr.Packr({ sequential: true });
    const expected = concat(values.map((value) => theirs.pack(value)));
    for (const source of [values, asyncOf(values)]) {
      const { values: chunks } = await collect(PackrStream.from(source));
      assert.deepEqual(concat(chunks), new Uint8Array(expected));
    }
  });

  test("PackrStream.from passes Packr options, packr and coalesceBytes on", async () => {
    const plain = await collect(PackrStream.from(PLAIN_VALUES, { useRecords: false }));
    assert.deepEqual(concat(plain.values), concat(PLAIN_VALUES.map((value) => pack(value))));
    const one = await collect(PackrStream.from(rows(50), { coalesceBytes: 0 }));
    assert.deepEqual(one.values, packEach(rows(50)));
    const packr = new Packr({ useRecords: false, variableMapSize: true });
    const given = await collect(PackrStream.from([{ a: 1 }, { b: 2 }], { packr }));
    assert.deepEqual([...concat(given.values)], [0x81, 0xa1, 0x61, 1, 0x81, 0xa1, 0x62, 2]);
    assert.throws(() => PackrStream.from([], { coalesceBytes: -1 }), RangeError);
    assert.throws(() => PackrStream.from(42 as unknown as unknown[]), TypeError);
  });

  test("PackrStream.from joins small values into chunks of at least coalesceBytes", async () => {
    for (const source of [rows(3000), asyncOf(rows(3000))]) {
      const { values: chunks } = await collect(PackrStream.from(source, { coalesceBytes: 4096 }));
      assert.ok(chunks.length > 10 && chunks.length < 60, `${chunks.length} chunks`);
      for (const chunk of chunks.slice(0, -1)) assert.ok(chunk.length >= 4096);
      assert.deepEqual(new Packr({ sequential: true }).unpackMultiple(concat(chunks)), rows(3000));
    }
  });

  test("PackrStream.from sends pending bytes when an async source waits", async () => {
    let release!: () => void;
    const waiting = new Promise<void>((resolve) => release = resolve);
    let finished = false;
    async function* source() {
      yield { first: 1 };
      yield { second: 2 };
      await waiting;
      yield { third: 3 };
      finished = true;
    }
    const reader = PackrStream.from(source()).getReader();
    const first = reader.read();
    assert.ok(await settlesWithin(first, 1000), "pending bytes waited for the source");
    const packr = new Packr({ sequential: true });
    assert.deepEqual(packr.unpackMultiple((await first).value!), [{ first: 1 }, { second: 2 }]);
    release();
    const rest = await reader.read();
    assert.deepEqual(packr.unpackMultiple(rest.value!), [{ third: 3 }]);
    assert.equal((await reader.read()).done, true);
    assert.equal(finished, true);
  });

  test("PackrStream.from takes values only as the stream is read (backpressure)", async () => {
    let produced = 0;
    function* endless() {
      for (;;) yield { n: produced++, pad: "x".repeat(100) };
    }
    const reader = PackrStream.from(endless(), { coalesceBytes: 1000 }).getReader();
    await reader.read();
    const afterOne = produced;
    assert.ok(afterOne >= 9 && afterOne <= 10, `${afterOne} values for one chunk`);
    await delay(20);
    assert.equal(produced, afterOne);
    await reader.read();
    assert.ok(produced <= 2 * afterOne, `${produced} values for two chunks`);
    await reader.cancel();
  });

  test("cancelling PackrStream.from closes the source: finally, return, cancel", async () => {
    const closed: string[] = [];
    async function* asyncSource() {
      try {
        for (let i = 0;; i++) yield { i };
      } finally {
        closed.push("async generator");
      }
    }
    function* syncSource() {
      try {
        for (let i = 0;; i++) yield { i };
      } finally {
        closed.push("generator");
      }
    }
    const stream = new ReadableStream({
      pull(controller) {
        controller.enqueue({ i: 0 });
      },
      cancel(reason) {
        closed.push(`stream: ${reason}`);
      },
    });
    for (const source of [asyncSource(), syncSource(), stream]) {
      const reader = PackrStream.from(source, { coalesceBytes: 0 }).getReader();
      assert.equal((await reader.read()).done, false);
      await reader.cancel("gone");
    }
    assert.deepEqual(closed, ["async generator", "generator", "stream: gone"]);
  });

  test("PackrStream.from errors on a value it cannot pack, after the values before it", async () => {
    for (const coalesceBytes of [0, 16384]) {
      let closed = false;
      const source = function* () {
        try {
          yield* [1, { a: 2 }, Symbol("no"), 4];
        } finally {
          closed = true;
        }
      };
      const { values: chunks, error } = await collect(
        PackrStream.from(source(), { useRecords: false, coalesceBytes }),
        1,
      );
      assert.match((error as Error).message, /Unknown type: symbol/);
      assert.deepEqual(msgpackr.unpackMultiple(concat(chunks)), [1, { a: 2 }]);
      assert.equal(closed, true, "the source was not closed");
    }
  });

  test("PackrStream.from errors with the source's error, after the values before it", async () => {
    async function* failing() {
      yield 1;
      yield 2;
      throw new Error("source failed");
    }
    function* failingSync() {
      yield 1;
      yield 2;
      throw new Error("source failed");
    }
    for (const source of [failing(), failingSync()]) {
      const { values: chunks, error } = await collect(PackrStream.from(source), 1);
      assert.match((error as Error).message, /source failed/);
      assert.deepEqual(msgpackr.unpackMultiple(concat(chunks)), [1, 2]);
    }
  });

  test("PackrStream.from is the same on every entry and on EncoderStream", async () => {
    for (const entry of [mainEntry, streamEntry, noEvalEntry]) {
      assert.equal(entry.PackrStream.from, PackrStream.from);
      assert.equal(entry.EncoderStream.from, PackrStream.from);
    }
    const chunks = await Array.fromAsync(noEvalEntry.PackrStream.from(rows(10)));
    assert.deepEqual(await Array.fromAsync(noEvalEntry.decodeIter(chunks)), rows(10));
  });
});

describe("encodeIter", () => {
  test("encodeIter packs sync and async iterables and streams like PackrStream", async () => {
    const values = sampleValues();
    const expected = concat(packEach(values));
    async function* asyncValues() {
      for (const value of values) yield value;
    }
    assert.deepEqual(concat(await Array.fromAsync(encodeIter(values))), expected);
    assert.deepEqual(concat(await Array.fromAsync(encodeIter(asyncValues()))), expected);
    assert.deepEqual(concat(await Array.fromAsync(encodeIter(streamOf(values)))), expected);
    const plain = await Array.fromAsync(
      encodeIter(PLAIN_VALUES, { useRecords: false, coalesceBytes: 0 }),
    );
    assert.deepEqual(plain, PLAIN_VALUES.map((value) => pack(value)));
  });

  test("encodeIter joins the values of a sync source into full chunks", async () => {
    const chunks = await Array.fromAsync(encodeIter(rows(5000), { coalesceBytes: 8192 }));
    for (const chunk of chunks.slice(0, -1)) assert.ok(chunk.length >= 8192);
    assert.deepEqual(new Packr({ sequential: true }).unpackMultiple(concat(chunks)), rows(5000));
  });

  test("encodeIter sends pending bytes when its async source stalls", async () => {
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => release = resolve);
    async function* source() {
      yield { first: 1 };
      yield { second: 2 };
      await stalled;
      yield { third: 3 };
    }
    const iterator = encodeIter(source());
    const first = iterator.next();
    assert.ok(await settlesWithin(first, 1000), "pending bytes waited for the stalled source");
    const bytes = (await first).value as Uint8Array;
    assert.deepEqual(new Packr({ sequential: true }).unpackMultiple(bytes), [{ first: 1 }, {
      second: 2,
    }]);
    release();
    const rest = [];
    for await (const chunk of { [Symbol.asyncIterator]: () => iterator }) rest.push(chunk);
    assert.deepEqual(
      new Packr({ sequential: true }).unpackMultiple(concat([bytes, ...rest])),
      [{ first: 1 }, { second: 2 }, { third: 3 }],
    );
  });

  test("encodeIter closes its source when the consumer stops early", async () => {
    let closed = false;
    async function* source() {
      try {
        for (let i = 0;; i++) yield { i };
      } finally {
        closed = true;
      }
    }
    for await (const chunk of encodeIter(source(), { coalesceBytes: 0 })) {
      assert.ok(chunk.length > 0);
      break;
    }
    assert.equal(closed, true);
  });

  test("encodeIter throws on a value it cannot pack, after the values before it", async () => {
    const chunks: Uint8Array[] = [];
    await assert.rejects(async () => {
      for await (const chunk of encodeIter([1, 2, () => {}, Symbol("x")], { useRecords: false })) {
        chunks.push(chunk);
      }
    }, /Unknown type: symbol/);
    assert.deepEqual(msgpackr.unpackMultiple(concat(chunks)), [1, 2, undefined]);
  });
});

describe("stream entry points", () => {
  test("PackrStream, UnpackrStream, encodeIter and decodeIter are exported by every entry", async () => {
    for (const entry of [mainEntry, streamEntry, noEvalEntry]) {
      assert.equal(entry.PackrStream, PackrStream);
      assert.equal(entry.UnpackrStream, UnpackrStream);
      assert.equal(entry.encodeIter, encodeIter);
      assert.equal(typeof entry.decodeIter, "function");
    }
    const chunks = await Array.fromAsync(noEvalEntry.encodeIter(rows(10)));
    assert.deepEqual(await Array.fromAsync(noEvalEntry.decodeIter(chunks)), rows(10));
    const transform: TransformStream<BufferSource, unknown> = new streamEntry.UnpackrStream();
    const packing: TransformStream<unknown, Uint8Array> = new streamEntry.PackrStream();
    assert.ok(transform instanceof TransformStream && packing instanceof TransformStream);
  });
});
