// Copyright 2026 the @x/msgpackr authors. MIT license.
// The `arrayElements` option of UnpackrStream and decodeIter: the elements of a top-level array
// delivered one by one as they complete. A 100,000-element array in 1-byte and 64 KiB chunks
// gives element 0 before its last chunk is pulled and every element equal; what is held never
// exceeds the largest element plus a chunk (maxIncompleteBufferSize smaller than the array
// suffices); the work and the time are linear (2x the data at most 2.3x the time); several
// top-level values, records, errors; and interop with @msgpack/msgpack's decodeArrayStream.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { decodeArrayStream, encode } from "@msgpack/msgpack";
import * as msgpackr from "msgpackr";
import {
  decodeIter,
  IncompleteDataError,
  pack,
  Packr,
  PackrStream,
  UnpackrStream,
} from "../mod.ts";
import { ChunkDecoder } from "../_stream/chunk_decoder.ts";
import { assertLinear } from "./_linearity.ts";
import { concat, fixedChunks, random, randomChunks } from "./_stream_util.ts";

interface Row {
  id: number;
  name: string;
  ok: boolean;
}

const N = 100_000;
const ROWS: Row[] = Array.from(
  { length: N },
  (_, id) => ({ id, name: `row ${id}`, ok: id % 3 === 0 }),
);
const plain = new Packr({ useRecords: false });
const BYTES = plain.pack(ROWS);
const OBJECTS = { mapsAsObjects: true, arrayElements: true } as const;

/**
 * A source of `bytes` in chunks of `size` that records how many chunks were pulled, and the
 * count at the moment the consumer saw its first value (`markFirst`).
 */
function recordingSource(bytes: Uint8Array, size: number) {
  const total = Math.ceil(bytes.length / size);
  const log = { pulled: 0, total, pulledAtFirst: -1 };
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (let offset = 0; offset < bytes.length; offset += size) {
      log.pulled++;
      yield bytes.subarray(offset, offset + size);
    }
  }
  const stream = () => {
    let offset = 0;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= bytes.length) return controller.close();
        log.pulled++;
        controller.enqueue(bytes.subarray(offset, offset + size));
        offset += size;
      },
    }, { highWaterMark: 0 });
  };
  const markFirst = () => {
    if (log.pulledAtFirst === -1) log.pulledAtFirst = log.pulled;
  };
  return { log, chunks, stream, markFirst };
}

describe("arrayElements: a 100,000-element array, element by element", () => {
  for (const size of [1, 65536]) {
    test(`decodeIter, ${size}-byte chunks: element 0 before the last chunk, all equal`, async () => {
      const source = recordingSource(BYTES, size);
      const seen: Row[] = [];
      for await (const row of decodeIter<Row>(source.chunks(), OBJECTS)) {
        source.markFirst();
        seen.push(row);
      }
      assert.equal(seen.length, N);
      assert.deepEqual(seen, ROWS);
      assert.equal(source.log.pulled, source.log.total);
      assert.ok(
        source.log.pulledAtFirst < source.log.total,
        `element 0 after ${source.log.pulledAtFirst} of ${source.log.total} chunks`,
      );
      // element 0 completes with the chunk that holds its last byte, after the array32 header
      const end = 5 + plain.pack(ROWS[0]).length;
      assert.ok(
        source.log.pulledAtFirst <= Math.ceil(end / size),
        `element 0 after ${source.log.pulledAtFirst} chunks`,
      );
    });

    test(`UnpackrStream, ${size}-byte chunks: element 0 before the last chunk, all equal`, async () => {
      const source = recordingSource(BYTES, size);
      let count = 0;
      let equal = true;
      const stream = source.stream().pipeThrough(new UnpackrStream<Row>(OBJECTS));
      for await (const row of stream) {
        source.markFirst();
        const expected = ROWS[count++];
        if (row.id !== expected.id || row.name !== expected.name || row.ok !== expected.ok) {
          equal = false;
        }
      }
      assert.equal(count, N);
      assert.ok(equal);
      assert.ok(
        source.log.pulledAtFirst < source.log.total,
        `element 0 after ${source.log.pulledAtFirst} of ${source.log.total} chunks`,
      );
    });
  }

  test("synchronous decodeIter over an iterable of chunks", () => {
    const values = [...decodeIter(fixedChunks(BYTES, 4096), OBJECTS)];
    assert.deepEqual(values, ROWS);
  });

  test("without the option the array is one value", async () => {
    const values = await Array.fromAsync(
      decodeIter(fixedChunks(BYTES, 65536), { mapsAsObjects: true }),
    );
    assert.equal(values.length, 1);
    assert.deepEqual(values[0], ROWS);
  });
});

describe("arrayElements: memory bounded by the largest element", () => {
  /** Rows with a few large binary elements among them. */
  const blobs = Array.from(
    { length: 400 },
    (_, i) => i % 100 === 50 ? new Uint8Array(100_000).fill(i) : { i, text: "x".repeat(i % 50) },
  );
  const bytes = plain.pack(blobs);
  const largest = plain.pack(blobs[50]).length;

  for (const size of [1, 1000, 65536]) {
    test(`held bytes never exceed the largest element plus one chunk (${size}-byte chunks)`, () => {
      const decoder = new ChunkDecoder({ arrayElements: true, mapsAsObjects: true });
      const out: unknown[] = [];
      let maxHeld = 0;
      let count = 0;
      for (const chunk of fixedChunks(bytes, size)) {
        decoder.push(chunk, out);
        maxHeld = Math.max(maxHeld, decoder.heldBytes);
        count += out.length;
        out.length = 0; // delivered
      }
      decoder.end(out);
      count += out.length;
      assert.equal(count, blobs.length);
      assert.ok(maxHeld <= largest + size, `held ${maxHeld} bytes, largest element ${largest}`);
      // the work is linear: each byte decoded at most twice, copied at most twice
      assert.ok(decoder.stats.decodedBytes <= 2 * bytes.length, `${decoder.stats.decodedBytes}`);
      // (a held element's buffer grows geometrically: its bytes are copied about three times)
      assert.ok(decoder.stats.copiedBytes <= 3 * bytes.length, `${decoder.stats.copiedBytes}`);
      assert.ok(decoder.scannedBytes <= bytes.length, `${decoder.scannedBytes}`);
    });
  }

  test("maxIncompleteBufferSize far below the array's size suffices, and bounds each element", () => {
    const bound = largest + 1024; // a quarter of the array
    assert.ok(bytes.length > 4 * bound);
    const options = { arrayElements: true, maxIncompleteBufferSize: bound, mapsAsObjects: true };
    const values = [...decodeIter(fixedChunks(bytes, 1000), options)];
    assert.deepEqual(values, blobs);
    // the whole array needs far more
    assert.throws(
      () => [...decodeIter(fixedChunks(bytes, 1000), { ...options, arrayElements: false })],
      {
        name: "DecodeError",
        message: /^Maximum incomplete buffer size exceeded: the value at offset 0/,
      },
    );
    // and one element over the bound fails, after the elements before it
    const seen: unknown[] = [];
    assert.throws(() => {
      for (
        const value of decodeIter(fixedChunks(bytes, 1000), {
          ...options,
          maxIncompleteBufferSize: 50_000,
        })
      ) {
        seen.push(value);
      }
    }, { name: "DecodeError", message: /Maximum incomplete buffer size exceeded/ });
    assert.deepEqual(seen, blobs.slice(0, 50));
  });
});

describe("arrayElements: linear time", () => {
  const MAX_RATIO = 2.3;
  const arrayOf = (count: number) =>
    plain.pack(
      ROWS.slice(0, count).concat(
        Array.from({ length: Math.max(0, count - N) }, (_, i) => ROWS[i % N]),
      ),
    );
  const job = (size: number) => (count: number) => {
    const bytes = arrayOf(count);
    return () => {
      let elements = 0;
      let last: unknown;
      for (const value of decodeIter(chunksOf(bytes, size), OBJECTS)) {
        elements++;
        last = value;
      }
      return [elements, last];
    };
  };
  function* chunksOf(bytes: Uint8Array, size: number): Generator<Uint8Array> {
    for (let offset = 0; offset < bytes.length; offset += size) {
      yield bytes.subarray(offset, offset + size);
    }
  }

  test("64 KiB chunks: 200,000 elements take at most 2.3x the time of 100,000", () => {
    const [elements] = assertLinear("64 KiB chunks", job(65536), N, { maxRatio: MAX_RATIO }) as [
      number,
    ];
    assert.equal(elements, 2 * N);
  });

  test("1-byte chunks: 20,000 elements take at most 2.3x the time of 10,000", () => {
    const [elements] = assertLinear("1-byte chunks", job(1), 10_000, { maxRatio: MAX_RATIO }) as [
      number,
    ];
    assert.equal(elements, 20_000);
  });
});

describe("arrayElements: what is expanded", () => {
  const decode = (
    bytes: Uint8Array,
    size = 1,
    options = {},
  ) => [...decodeIter(fixedChunks(bytes, size), { arrayElements: true, ...options })];

  test("each top-level array is expanded; other values are delivered as they are", () => {
    const bytes = concat([
      pack([1, 2]),
      pack("x"),
      pack([]),
      pack([[3, 4], { a: [5] }]),
      pack(new Array(20).fill(0)), // array16
      pack(null),
      new Uint8Array([0xdd, 0, 0, 0, 2, 0xc3, 0xc2]), // array32 of two booleans
      new Uint8Array([0xdc, 0, 0]), // an empty array16
      pack(7),
    ]);
    const expected = [
      1,
      2,
      "x",
      [3, 4],
      { a: [5] },
      ...new Array(20).fill(0),
      null,
      true,
      false,
      7,
    ];
    for (const size of [1, 2, 3, 5, 7, bytes.length]) {
      assert.deepEqual(decode(bytes, size, { mapsAsObjects: true }), expected, `${size}`);
    }
    const next = random(54);
    for (let round = 0; round < 50; round++) {
      const values = [
        ...decodeIter(randomChunks(bytes, next, 9, 0.2), {
          arrayElements: true,
          mapsAsObjects: true,
        }),
      ];
      assert.deepEqual(values, expected);
    }
  });

  test("records: definitions in one element hold for the later ones", () => {
    // msgpackr's Packr (not sequential): the first element defines the shape inline
    const rows = ROWS.slice(0, 1000);
    for (const packr of [new msgpackr.Packr(), new Packr(), new Packr({ sequential: true })]) {
      const bytes = packr.pack(rows);
      assert.deepEqual(decode(bytes, 7), rows);
      assert.deepEqual(decode(bytes, 65536), rows);
    }
    // msgpackr's sequential Packr writing arrays (records carried across values)
    const sequential = new msgpackr.Packr({ sequential: true });
    const bytes = concat([sequential.pack(rows.slice(0, 10)), sequential.pack(rows.slice(10, 20))]);
    assert.deepEqual(decode(bytes, 3), rows.slice(0, 20));
  });

  test("a PackrStream writing arrays reads as one run of their elements", async () => {
    const pages = [ROWS.slice(0, 100), ROWS.slice(100, 250), [], ROWS.slice(250, 300)];
    const stream = ReadableStream.from(pages).pipeThrough(new PackrStream())
      .pipeThrough(new UnpackrStream({ arrayElements: true }));
    assert.deepEqual(await Array.fromAsync(stream), ROWS.slice(0, 300));
  });

  test("structured clone references between elements are not followed", () => {
    const shared = { shared: true };
    const bytes = new Packr({ structuredClone: true }).pack([shared, shared]);
    // within one value the reference resolves; element by element the second is a dangling id
    assert.throws(() => decode(bytes, 64, { structuredClone: true }), { name: "DecodeError" });
  });

  test("a stream that ends inside an array, or in an array header, is incomplete", () => {
    const cases: [Uint8Array, RegExp, unknown[]][] = [
      [pack([1, 2, 3]).subarray(0, 3), /ended inside an array that needs at least 1 more/, [
        1,
        2,
      ]],
      [
        pack(new Array(20).fill(1)).subarray(0, 10),
        /ended inside an array that needs at least 13 more/,
        new Array(7).fill(1),
      ],
      [new Uint8Array([0xdc, 0]), /ended inside an array that needs at least 1 more/, []],
      [new Uint8Array([0x07, 0xdd, 0, 0]), /inside an array that needs at least 2 more/, [7]],
      [
        new Uint8Array([0x92, 1, 0xa5, 0x61]),
        /ended 2 bytes into a value that needs at least 4 more/,
        [1],
      ],
    ];
    for (const [bytes, message, before] of cases) {
      for (const size of [1, bytes.length]) {
        const seen: unknown[] = [];
        assert.throws(() => {
          for (const value of decodeIter(fixedChunks(bytes, size), { arrayElements: true })) {
            seen.push(value);
          }
        }, (error) => {
          assert.ok(error instanceof IncompleteDataError);
          assert.match(error.message, message);
          return true;
        });
        assert.deepEqual(seen, before);
      }
    }
  });

  test("a malformed element errors with its offset in the stream, after the elements before", () => {
    // a timestamp of 5 bytes (ext8, type -1), which no timestamp has
    const bad = new Uint8Array([0xc7, 0x05, 0xff, 0, 0, 0, 0, 0]);
    const bytes = concat([new Uint8Array([0x94]), pack("a"), pack("b"), bad, pack("d")]);
    for (const size of [1, 3, bytes.length]) {
      const seen: unknown[] = [];
      assert.throws(() => {
        for (const value of decodeIter(fixedChunks(bytes, size), { arrayElements: true })) {
          seen.push(value);
        }
      }, { name: "DecodeError", message: /at offset 5/ });
      assert.deepEqual(seen, ["a", "b"]);
    }
  });
});

describe("arrayElements: interop with @msgpack/msgpack", () => {
  test("its encoded array, decoded by ours element by element", () => {
    const bytes = encode(ROWS.slice(0, 5000));
    for (const size of [1, 100, 65536]) {
      assert.deepEqual(
        [...decodeIter(fixedChunks(bytes, size), OBJECTS)],
        ROWS.slice(0, 5000),
      );
    }
  });

  test("our array (a streamed array header and elements), decoded by its decodeArrayStream", async () => {
    // the header, then each element packed by a PackrStream without records
    const rows = ROWS.slice(0, 5000);
    const header = new Uint8Array([0xdc, rows.length >> 8, rows.length & 0xff]);
    const elements = ReadableStream.from(rows).pipeThrough(new PackrStream({ useRecords: false }));
    const chunks = [header, ...await Array.fromAsync(elements)];
    assert.deepEqual(concat(chunks), plain.pack(rows));
    const decoded: unknown[] = [];
    for await (const row of decodeArrayStream(ReadableStream.from(chunks))) decoded.push(row);
    assert.deepEqual(decoded, rows);
  });
});
