// Copyright 2026 the @x/msgpackr authors. MIT license.
// A stream decoder must hand out each value as soon as the chunk that completes it has arrived,
// not when the next chunk (or the end of the stream) comes: a client that answers a message
// before it sends the next one would otherwise wait forever. The sources here send chunk i + 1
// only after every value that chunks 0..i complete has come out of `UnpackrStream`, `decodeIter`
// (async and sync) or the chunk decoder. A value held back makes the source wait; after
// DEADLOCK_MS it fails the test with a message instead of hanging it (a bound on a deadlock, not a
// timing: a decoder that delivers on time never waits).
// The values are a small sequence of sequential records (defined and referenced), strings
// (short, medium ASCII and non-ASCII, long), numbers, null and nested arrays, split at every byte
// boundary into two chunks and into chunks of every size from 1 to 8 bytes.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { decodeIter, Packr, UnpackrStream } from "../mod.ts";
import { ChunkDecoder } from "../_stream/chunk_decoder.ts";
import { concat, fixedChunks, splitAt } from "./_stream_util.ts";

/**
 * How long a source waits for a value before it declares the stream stuck: below `bun test`'s
 * default time limit of a test (5 s), so that the failure is this test's, with its message.
 */
const DEADLOCK_MS = 2000;

const VALUES: unknown[] = [
  { id: 1, name: "ann", note: "a medium ASCII note, 34 bytes long" },
  { id: 2, name: "bob", note: "é".repeat(20) },
  "a string value of medium length: 41 bytes",
  7,
  [1, "two", { id: 3, name: "cy", note: "x" }, []],
  { other: true, list: [{ id: 4, name: "dee", note: "y".repeat(300) }] },
  null,
  "ünïcödé text, not ASCII at all: 44 bytes",
  { id: 5, name: "eve", note: "Привет, как дела?" },
  1.5,
  { id: 6, name: "fay", note: "" },
];

/** The sequence as one stream, and where each value ends in it. */
function packSequence(): { bytes: Uint8Array; ends: number[] } {
  const packr = new Packr({ sequential: true });
  const parts = VALUES.map((value) => packr.pack(value));
  const ends: number[] = [];
  let end = 0;
  for (const part of parts) ends.push(end += part.length);
  return { bytes: concat(parts), ends };
}
const { bytes: BYTES, ends: ENDS } = packSequence();

/** Values complete once chunks 0..i have arrived, for each i. */
function completeAfter(chunks: readonly Uint8Array[]): number[] {
  let received = 0;
  return chunks.map((chunk) => {
    received += chunk.length;
    return ENDS.filter((end) => end <= received).length;
  });
}

/** Every way of chunking the sequence: two chunks cut at each byte, and fixed sizes 1..8. */
function chunkings(): { label: string; chunks: Uint8Array[] }[] {
  const out: { label: string; chunks: Uint8Array[] }[] = [];
  for (let cut = 1; cut < BYTES.length; cut++) {
    out.push({ label: `cut at ${cut}`, chunks: splitAt(BYTES, cut) });
  }
  for (let size = 1; size <= 8; size++) {
    out.push({
      label: `${size}-byte chunks`,
      chunks: fixedChunks(BYTES, size).map((c) => c.slice()),
    });
  }
  return out;
}

/** The values received so far, and a way to wait until there are enough of them. */
class Received {
  readonly values: unknown[] = [];
  /** The chunking, for messages. */
  constructor(readonly label: string) {}

  #waiting: { count: number; resolve: () => void } | null = null;

  add(value: unknown): void {
    this.values.push(value);
    const waiting = this.#waiting;
    if (waiting !== null && this.values.length >= waiting.count) {
      this.#waiting = null;
      waiting.resolve();
    }
  }

  /** Resolves once `count` values have come out; rejects after DEADLOCK_MS. */
  waitFor(count: number, before: string): Promise<void> {
    if (this.values.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting = null;
        reject(
          new Error(
            `${this.label}: value ${count} had not come out when ${before} was due (${this.values.length} had)`,
          ),
        );
      }, DEADLOCK_MS);
      this.#waiting = {
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
  }

  /** Throws unless exactly `count` values came out (for synchronous sources). */
  check(count: number, before: string): void {
    assert.equal(this.values.length, count, `${this.label}: values out before ${before}`);
  }
}

/** `chunks` as a ReadableStream that sends each chunk only after the values before it came out. */
function gatedStream(
  chunks: readonly Uint8Array[],
  received: Received,
): ReadableStream<Uint8Array> {
  const counts = completeAfter(chunks);
  let next = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next > 0) {
        const due = next < chunks.length ? `chunk ${next + 1}` : "the end";
        await received.waitFor(counts[next - 1], due);
      }
      if (next < chunks.length) controller.enqueue(chunks[next++]);
      else controller.close();
    },
  }, { highWaterMark: 0 });
}

/** `chunks` as an async generator that yields each chunk only after the values before it. */
async function* gatedChunks(
  chunks: readonly Uint8Array[],
  received: Received,
): AsyncGenerator<Uint8Array> {
  const counts = completeAfter(chunks);
  for (let i = 0; i < chunks.length; i++) {
    if (i > 0) await received.waitFor(counts[i - 1], `chunk ${i + 1}`);
    yield chunks[i];
  }
  await received.waitFor(counts[chunks.length - 1], "the end");
}

/** `chunks` as a generator that checks, before each chunk, that the values before it came out. */
function* checkedChunks(chunks: readonly Uint8Array[], received: Received): Generator<Uint8Array> {
  const counts = completeAfter(chunks);
  for (let i = 0; i < chunks.length; i++) {
    if (i > 0) received.check(counts[i - 1], `chunk ${i + 1}`);
    yield chunks[i];
  }
  received.check(counts[chunks.length - 1], "the end");
}

describe("stream decoders deliver each value before the next chunk arrives", () => {
  test("the sequence ends values inside chunks and at their ends", () => {
    assert.deepEqual(new Packr({ sequential: true }).unpackMultiple(BYTES), VALUES);
    assert.equal(ENDS.length, VALUES.length);
    assert.equal(ENDS.at(-1), BYTES.length);
  });

  test("ChunkDecoder: push() returns every value the chunk completes", () => {
    for (const { label, chunks } of chunkings()) {
      const decoder = new ChunkDecoder();
      const out: unknown[] = [];
      const counts = completeAfter(chunks);
      chunks.forEach((chunk, i) => {
        decoder.push(chunk, out);
        assert.equal(out.length, counts[i], `${label}: values out after chunk ${i + 1}`);
      });
      decoder.end(out);
      assert.deepEqual(out, VALUES, label);
    }
  });

  test("UnpackrStream: a source that sends the next chunk only after the values", async () => {
    for (const { label, chunks } of chunkings()) {
      const received = new Received(label);
      const reader = gatedStream(chunks, received).pipeThrough(new UnpackrStream()).getReader();
      for (;;) {
        const step = await reader.read();
        if (step.done) break;
        received.add(step.value);
      }
      assert.deepEqual(received.values, VALUES, label);
    }
  });

  test("decodeIter: an async source that yields the next chunk only after the values", async () => {
    for (const { label, chunks } of chunkings()) {
      const received = new Received(label);
      for await (const value of decodeIter(gatedChunks(chunks, received))) received.add(value);
      assert.deepEqual(received.values, VALUES, label);
    }
  });

  test("decodeIter: a ReadableStream that sends the next chunk only after the values", async () => {
    for (const { label, chunks } of chunkings()) {
      const received = new Received(label);
      for await (const value of decodeIter(gatedStream(chunks, received))) received.add(value);
      assert.deepEqual(received.values, VALUES, label);
    }
  });

  test("decodeIter: a synchronous source, checked before each chunk", () => {
    for (const { label, chunks } of chunkings()) {
      const received = new Received(label);
      for (const value of decodeIter(checkedChunks(chunks, received))) received.add(value);
      assert.deepEqual(received.values, VALUES, label);
    }
  });
});
