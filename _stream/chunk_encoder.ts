// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The encoder behind `PackrStream` and `encodeIter`: one Packr per stream (sequential records by
// default, so each shape is defined once per stream, or the one given as `packr`), writing values
// one after another into an arena with `useBuffer`, and handing out the packed bytes in chunks of
// about `coalesceBytes`. A given Packr keeps its own output: its results are copied instead.
// Each value is packed with `REUSE_BUFFER_MODE`, which gives back the arena with the value's start
// and end instead of a new view per value. `useBuffer` starts each value on an 8-byte boundary; the
// few bytes of padding are closed with `copyWithin`, so a chunk is exactly the concatenated values.

import type { Packr } from "../_encode/packr.ts";
import { Packer } from "../_encode/packer.ts";
import { REUSE_BUFFER_MODE, type ReusedBuffer } from "../_encode/encoder.ts";
import type { PackrOptions } from "../_core/options.ts";
import { errorWhenDrained } from "./drain.ts";

/** Default `coalesceBytes`: 16 KiB, about one TLS record or a typical HTTP/2 frame. */
export const DEFAULT_COALESCE_BYTES = 16384;

/** Largest `coalesceBytes` accepted (64 MiB). */
const MAX_COALESCE_BYTES = 0x4000000;

/** Room the packer wants after a value's start before it moves to a buffer of its own. */
const PACKER_HEADROOM = 0x1000;

/**
 * Options of {@linkcode PackrStream} and {@linkcode encodeIter}.
 *
 * @example Usage
 * ```ts
 * import { PackrStream, type PackrStreamOptions, unpackMultiple } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const options: PackrStreamOptions = { useRecords: false, coalesceBytes: 0 };
 * const chunks = await Array.fromAsync(
 *   ReadableStream.from([1, "two"]).pipeThrough(new PackrStream(options)),
 * );
 * assert.deepEqual(chunks.flatMap((chunk) => unpackMultiple(chunk)), [1, "two"]);
 * ```
 */
export interface PackrStreamOptions extends PackrOptions {
  /**
   * Packs with this Packr (its options, structures and extensions), as msgpackr's `packr`
   * option: the other Packr options are then not used, and its `useBuffer` buffer is left to it
   * (a value that fills a chunk goes out as `pack` returned it; smaller ones are copied into
   * chunks). For a stream of records, give one made with `sequential: true`.
   */
  packr?: Packr;
  /**
   * Values are joined into chunks of at least this many bytes, which cuts the per-chunk cost
   * of the streams and of the transport. Pending bytes never wait long: `PackrStream` sends them
   * before the next macrotask (a zero-delay timer) and when the stream closes;
   * `PackrStream.from` and `encodeIter` send them when their source has no value ready, and at
   * its end. `0` sends every value as its own chunk.
   * @default {16384}
   */
  coalesceBytes?: number;
}

/** Where a stream's chunks go: the controller of a TransformStream or of a ReadableStream. */
export interface ChunkSink {
  enqueue(chunk: Uint8Array<ArrayBuffer>): void;
  readonly desiredSize: number | null;
}

/** Packs values and groups their bytes into chunks. */
export class ChunkEncoder {
  /** The given Packr (`packr` option): it packs on its own, and its output is copied. */
  readonly #packr: Packr | undefined;
  /** The stream's own encoder, when no Packr was given: it writes into the arena. */
  readonly #packer: Packer | undefined;
  readonly #threshold: number;
  #arena: Uint8Array<ArrayBuffer>;
  #length = 0;
  #timer: ReturnType<typeof setTimeout> | undefined = undefined;
  readonly #out: Uint8Array<ArrayBuffer>[] = [];

  /**
   * Creates an encoder.
   *
   * @param options Packr options and `coalesceBytes`.
   */
  constructor(options: PackrStreamOptions = {}) {
    const { coalesceBytes, packr, ...packrOptions } = options;
    const threshold = coalesceBytes ?? DEFAULT_COALESCE_BYTES;
    if (typeof threshold !== "number" || !(threshold >= 0) || threshold > MAX_COALESCE_BYTES) {
      throw new RangeError(
        `Cannot use coalesceBytes ${
          String(threshold)
        }: expected a number from 0 to ${MAX_COALESCE_BYTES}`,
      );
    }
    this.#threshold = threshold;
    this.#packr = packr;
    this.#arena = new Uint8Array(Math.max(threshold + PACKER_HEADROOM, 2 * PACKER_HEADROOM));
    if (packr === undefined) {
      const settings = packrOptions.useRecords === false
        ? packrOptions
        : { sequential: true, ...packrOptions };
      const packer = this.#packer = new Packer(settings, undefined, settings.structures);
      packer.useBuffer(this.#arena);
    }
  }

  /**
   * Packs a value; chunks that are ready are appended to `out`. A value that cannot be packed
   * throws and adds nothing: the pending bytes are then those of the values before it.
   *
   * @param value The value.
   * @param out Receives the chunks to send.
   */
  write(value: unknown, out: Uint8Array<ArrayBuffer>[]): void {
    const packer = this.#packer;
    if (packer === undefined) {
      this.#add(this.#packr!.pack(value), out);
    } else {
      const arena = this.#arena;
      const length = this.#length;
      packer.position = length;
      const whole = packer.pack(value, REUSE_BUFFER_MODE) as ReusedBuffer;
      if (whole === arena) {
        if (whole.start !== length) arena.copyWithin(length, whole.start, whole.end);
        this.#length = length + whole.end - whole.start;
      } else {
        // the value did not fit: the packer wrote it into a buffer of its own, which is now ours
        packer.useBuffer(arena);
        this.take(out);
        out.push(whole.subarray(whole.start, whole.end));
      }
    }
    if (this.#length >= this.#threshold) this.take(out);
  }

  /** Adds the bytes of a value packed by a given Packr (not ours: copied, or sent as they are). */
  #add(bytes: Uint8Array<ArrayBuffer>, out: Uint8Array<ArrayBuffer>[]): void {
    if (this.#length + bytes.length > this.#arena.length) this.take(out);
    if (this.#length === 0 && bytes.length >= this.#threshold) {
      // a chunk by itself: sent as it is when it has its buffer to itself (a `pack` result)
      const whole = bytes.byteOffset === 0 && bytes.length === bytes.buffer.byteLength;
      out.push(whole ? bytes : bytes.slice());
    } else {
      this.#arena.set(bytes, this.#length);
      this.#length += bytes.length;
    }
  }

  /**
   * Packs a value and sends the chunks it completes to `sink`. With `soon`, bytes left waiting
   * for more values go out before the next macrotask unless a chunk takes them first (one
   * zero-delay timer at a time). A value that cannot be packed throws and sends nothing.
   *
   * @param value The value.
   * @param sink The stream's controller.
   * @param soon Send waiting bytes before the next macrotask.
   * @returns Whether chunks were sent.
   */
  send(value: unknown, sink: ChunkSink, soon: boolean): boolean {
    this.write(value, this.#out);
    if (this.#out.length > 0) return this.#sendOut(sink);
    this.#timer ??= soon
      ? setTimeout(() => {
        this.#timer = undefined;
        try {
          this.flush(sink);
        } catch {
          this.#out.length = 0; // the stream was cancelled or errored meanwhile: nobody reads them
        }
      }, 0)
      : undefined;
    return false;
  }

  /** Sends the chunks of `#out` to `sink`. */
  #sendOut(sink: ChunkSink): true {
    const out = this.#out;
    for (let i = 0; i < out.length; i++) sink.enqueue(out[i]);
    out.length = 0;
    return true;
  }

  /** Stops the timer of {@linkcode ChunkEncoder.send}. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /**
   * Stops the timer and sends the pending bytes now.
   *
   * @param sink The stream's controller.
   */
  flush(sink: ChunkSink): void {
    this.stop();
    this.take(this.#out);
    this.#sendOut(sink);
  }

  /**
   * Sends the bytes of the values before a failure, and rejects with `error` once they are read.
   *
   * @param sink The stream's controller.
   * @param error The failure.
   * @returns A promise that rejects with `error`.
   */
  fail(sink: ChunkSink, error: unknown): Promise<never> {
    this.flush(sink);
    return errorWhenDrained(sink, error);
  }

  /**
   * Hands out the pending bytes, if any, as one chunk.
   *
   * @param out Receives the chunk.
   */
  take(out: Uint8Array<ArrayBuffer>[]): void {
    const length = this.#length;
    if (length === 0) return;
    this.#length = 0;
    const arena = this.#arena;
    if (length * 4 < arena.length) return void out.push(arena.slice(0, length));
    // most of the arena is used: hand it out as it is and start a new one
    this.#arena = new Uint8Array(arena.length);
    this.#packer?.useBuffer(this.#arena);
    out.push(arena.subarray(0, length));
  }
}
