// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The resumable decoder behind `UnpackrStream` and `decodeIter` (docs/wire-format.md, "Stream
// framing and incomplete data").
//
// Chunks are decoded in place with `decodeMany` (no copy) until a value runs past the end of a
// chunk. Its bytes are then held (copied, since the caller may reuse its buffer), and a
// `ValueScanner` follows the held value as further chunks arrive, from where it stopped, without
// building anything. Only when the scanner has seen the whole value is it decoded, once; the rest
// of that chunk goes back to the in-place path. Each byte is therefore decoded at most twice (the
// first attempt that ran into the chunk end, and the real decode) and scanned at most once, so a
// value arriving in thousands of small chunks costs time linear in its size; msgpackr's own
// approach re-parses the held value every time enough bytes may have arrived.
//
// The decoder is the authority: if the scanner cannot follow the bytes (something it cannot size,
// or invalid data), the held bytes go to the decoder, which reports the error, and if the two
// disagree about a value being complete, that value falls back to msgpackr's strategy (retry
// once the decoder's `missingBytes` have arrived).

import { toBytes } from "../_core/bytes.ts";
import { decodeMany } from "../_decode/decoder.ts";
import { DecodeError, IncompleteDataError } from "../_core/errors.ts";
import type { UnpackrOptions } from "../_core/options.ts";
import type { StandardSchemaV1 } from "../_core/standard_schema.ts";
import type { Unpackr } from "../_decode/unpackr.ts";
import { createDecodeContext, type DecodeContext, decodeContextOf } from "../_decode/context.ts";
import { COMPLETE, NEED_MORE, ValueScanner } from "./value_scanner.ts";
import { ArrayElements } from "./array_elements.ts";
import { timestampOfPayload } from "../_core/timestamp.ts";

/** Default bound on the bytes held for an incomplete value: 64 MiB, as msgpackr. */
export const DEFAULT_MAX_INCOMPLETE_BUFFER_SIZE = 0x4000000;

/** How the error for a value over `maxIncompleteBufferSize` begins (`_http/` maps it to 413). */
export const BUFFER_LIMIT_MESSAGE = "Maximum incomplete buffer size exceeded";

/** Least number of bytes copied from a chunk at a time while a held value is being scanned. */
const MIN_PIECE = 1024;

/**
 * Options of {@linkcode UnpackrStream} and {@linkcode decodeIter}: the
 * {@linkcode UnpackrOptions} (the stream decodes with one sequential Unpackr, so record
 * definitions carry from value to value) plus the bound on held bytes and a schema for the values.
 *
 * @example Usage
 * ```ts
 * import { pack, UnpackrStream, type UnpackrStreamOptions } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const options: UnpackrStreamOptions = { maxIncompleteBufferSize: 1 << 20, mapsAsObjects: true };
 * const values = await Array.fromAsync(
 *   ReadableStream.from([pack({ a: 1 })]).pipeThrough(new UnpackrStream(options)),
 * );
 * assert.deepEqual(values, [{ a: 1 }]);
 * ```
 */
export interface UnpackrStreamOptions<T = unknown> extends UnpackrOptions {
  /**
   * Validates each value with this Standard Schema (Zod, Valibot, ArkType, …) and delivers its
   * output (transformed where the schema transforms), so the values are typed as the schema's
   * output. The first value that fails ends the stream, after the values before it, with a
   * `ValidationError` naming its index and the first issue's path; async checks are awaited
   * (a synchronous `decodeIter` refuses them with a `TypeError`).
   */
  schema?: StandardSchemaV1<unknown, T>;
  /**
   * Decodes with this Unpackr (its options, structures and extensions), as msgpackr's
   * `unpackr` option: the other Unpackr options are then not used. Record definitions carry from
   * chunk to chunk only when it keeps them (`sequential: true`, or a structures table), as in
   * msgpackr.
   */
  unpackr?: Unpackr;
  /**
   * Most bytes held for a value that is not complete yet (it spans chunks). A value that needs
   * more errors the stream with a `DecodeError` ("Maximum incomplete buffer size exceeded"), as
   * soon as its headers say so (a byte for every element, map entry half and record field they
   * announce, nested headers added up). `Infinity` disables the bound.
   * @default {67108864} (64 MiB)
   */
  maxIncompleteBufferSize?: number;
  /**
   * Deliver the elements of each top-level array one by one, as each completes, instead of the
   * array: a 100,000-row export is read row by row, holding one row at a time, never the array.
   * A top-level value that is not an array is delivered as it is, so a sequence of arrays (pages)
   * reads as one run of their elements; an empty array delivers nothing. Nested arrays are
   * elements like any other value. Record definitions made in one element hold for the later
   * ones (the stream's decoder is sequential), and `maxIncompleteBufferSize` bounds each
   * element. Each element is decoded on its own, so structured clone references from one
   * element to another are not followed (a pointer to an object of another element is an
   * error), and an array written with `bundleStrings` is a `DecodeError` (its strings follow the
   * whole array). A stream that ends inside an array fails with an `IncompleteDataError`.
   * @default {false}
   */
  arrayElements?: boolean;
}

/** Work counters, for tests that prove the decoding work is linear. */
export interface ChunkDecoderStats {
  /** `decodeMany` calls. */
  decodeCalls: number;
  /** Bytes handed to `decodeMany` (the ranges it was asked to decode). */
  decodedBytes: number;
  /** Bytes copied into held buffers (including growth). */
  copiedBytes: number;
  /** Values that fell back to msgpackr's retry strategy. */
  fallbacks: number;
}

/**
 * Decodes a MessagePack byte stream chunk by chunk. Record definitions persist from value to
 * value (the stream is sequential). `push` appends every value completed by a chunk to `out`; on
 * a decode error the values before the bad one are in `out` when it throws. `end` reports a value
 * cut off by the end of the stream.
 */
export class ChunkDecoder {
  /** Work done so far. */
  readonly stats: ChunkDecoderStats = {
    decodeCalls: 0,
    decodedBytes: 0,
    copiedBytes: 0,
    fallbacks: 0,
  };
  /** The context of the stream's decoder: its own, sequential, or the given Unpackr's. */
  readonly #context: DecodeContext;
  readonly #maxHeld: number;
  readonly #scanner = new ValueScanner();
  /** Bytes of an incomplete value (from offset 0), or null. Never decoded from while held. */
  #held: Uint8Array | null = null;
  #heldLength = 0;
  /** When not 0, the held value is left to the decoder, retried once this many bytes are held. */
  #needed = 0;
  /** Bytes received so far. */
  #received = 0;
  /** Stream offset of the held bytes' first byte. */
  #heldStart = 0;
  /** Where the last value decoded by `#run` ended (or where decoding resumed). */
  #last = 0;
  /** The open top-level array, with `arrayElements`; else null. */
  readonly #elements: ArrayElements | null;

  /**
   * Creates a decoder.
   *
   * @param options Unpackr options and `maxIncompleteBufferSize`.
   */
  constructor(options: UnpackrStreamOptions = {}) {
    const { maxIncompleteBufferSize, unpackr, arrayElements, ...unpackrOptions } = options;
    const maxHeld = this.#maxHeld = maxIncompleteBufferSize ?? DEFAULT_MAX_INCOMPLETE_BUFFER_SIZE;
    if (typeof maxHeld !== "number" || !(maxHeld >= 0)) {
      throw new RangeError(
        `Cannot use maxIncompleteBufferSize ${String(maxHeld)}: expected a number >= 0`,
      );
    }
    this.#elements = arrayElements ? new ArrayElements() : null;
    this.#context = unpackr !== undefined
      ? decodeContextOf(unpackr)
      : createDecodeContext({ ...unpackrOptions, sequential: true }, undefined, timestampOfPayload);
  }

  /** Bytes held for a value that has not ended yet. */
  get heldBytes(): number {
    return this.#held === null ? 0 : this.#heldLength;
  }

  /** Bytes the scanner has looked at (for tests that prove linear work). */
  get scannedBytes(): number {
    return this.#scanner.examined;
  }

  /**
   * `push` of a chunk (any BufferSource: a `TypeError` otherwise), or `end` when `end` is set,
   * returning the error instead of throwing it, so that the values before it are delivered
   * first.
   *
   * @param chunk The next bytes of the stream.
   * @param end The stream has ended (`chunk` is not used).
   * @param out Receives the decoded values, also those before an error.
   * @returns The error, if there was one.
   */
  step(chunk: unknown, end: boolean, out: unknown[]): { error: unknown } | undefined {
    try {
      if (end) this.end(out);
      else this.push(toBytes(chunk, "Chunk must be an ArrayBuffer or ArrayBufferView"), out);
    } catch (error) {
      return { error };
    }
  }

  /**
   * Decodes the values a chunk completes and appends them to `out`.
   *
   * @param chunk The next bytes of the stream (not kept: held bytes are copied).
   * @param out Receives the decoded values, also those before an error.
   */
  push(chunk: Uint8Array, out: unknown[]): void {
    const length = chunk.length;
    this.#received += length;
    let offset = 0;
    while (offset < length) {
      if (this.#held === null) return this.#decode(chunk, offset, length, false, out);
      const before = this.#heldLength;
      if (this.#needed > 0) {
        this.#append(chunk, offset, length);
        offset = length;
        if (this.#heldLength >= this.#needed) {
          this.#decode(this.#held!, 0, this.#heldLength, true, out);
        }
        continue;
      }
      // copy a piece of the chunk (at least what the value needs, growing geometrically) and
      // let the scanner continue; bytes copied past the value's end are given back
      const scanner = this.#scanner;
      const take = Math.min(
        length - offset,
        Math.max(scanner.needEnd - before, before, MIN_PIECE),
        this.#maxHeld - before,
      );
      this.#append(chunk, offset, offset + take);
      offset += take;
      const result = scanner.scan(this.#held!, this.#heldLength, this.#context);
      if (result === NEED_MORE) {
        this.#checkBound(scanner.leastEnd);
        continue;
      }
      if (result === COMPLETE && scanner.end >= before && scanner.end < this.#heldLength) {
        offset -= this.#heldLength - scanner.end;
        this.#heldLength = scanner.end;
      }
      // complete, or something only the decoder can judge
      this.#decode(this.#held!, 0, this.#heldLength, true, out);
    }
  }

  /**
   * Ends the stream: a value still incomplete is an `IncompleteDataError`. The decoder gets a
   * last look at the held bytes first, so nothing complete is dropped.
   *
   * @param out Receives values the decoder completes from the held bytes.
   */
  end(out: unknown[]): void {
    const held = this.#held;
    let missing = 0;
    let into = "inside an array"; // the stream ended between the elements of an array
    if (held !== null) {
      const length = this.#heldLength;
      this.#held = null;
      try {
        this.#run(held.subarray(0, length), 0, length, out);
      } catch (error) {
        if (!(error instanceof IncompleteDataError)) throw toStreamOffsets(error, this.#heldStart);
        missing = error.missingBytes ?? 1;
        into = `${length - this.#last} bytes into a value`;
      }
    }
    missing ||= this.#elements?.missing ?? 0;
    if (missing > 0) {
      throw new IncompleteDataError(
        `Unexpected end of MessagePack data: the stream ended ${into} that needs at least ${missing} more`,
        this.#received,
        missing,
      );
    }
  }

  /**
   * Decodes `bytes[from, end)` into `out`. With `arrayElements`, the headers of top-level arrays
   * are consumed ({@linkcode ArrayElements}), and decoding stops where an array ends or a
   * top-level array begins, to consume its header. `#last` is where the last value ended, also
   * when this throws.
   */
  #run(bytes: Uint8Array, from: number, end: number, out: unknown[]): void {
    const elements = this.#elements;
    let stopped = true;
    while (stopped) {
      if (elements !== null) from = elements.open(bytes, from, end);
      this.#last = from;
      if (from >= end) return;
      stopped = false;
      this.stats.decodeCalls++;
      this.stats.decodedBytes += end - from;
      decodeMany(this.#context, bytes, from, end, (value, _start, valueEnd) => {
        out.push(value);
        this.#last = valueEnd;
        if (elements?.after(bytes, valueEnd, end)) {
          stopped = true;
          return false;
        }
      });
      from = this.#last;
    }
  }

  /**
   * Decodes `source[start, end)`; an incomplete last value is held. `fromHeld`: `source` is the
   * held buffer, not the caller's chunk, and its value was held before (complete per the scanner,
   * or in fallback), so still being incomplete means the decoder and the scanner disagree.
   */
  #decode(source: Uint8Array, start: number, end: number, fromHeld: boolean, out: unknown[]): void {
    const streamStart = fromHeld ? this.#heldStart : this.#received - source.length;
    this.#held = null;
    // decode from a view that ends at `end`, so bytes past it read as the end of the input
    const bytes = end === source.length ? source : source.subarray(0, end);
    try {
      this.#run(bytes, start, end, out);
      return;
    } catch (error) {
      if (!(error instanceof IncompleteDataError)) throw toStreamOffsets(error, streamStart);
      const last = this.#last;
      const missing = error.missingBytes ?? 1;
      this.#heldStart = streamStart + last;
      if (fromHeld && last === 0) {
        // nothing was decoded from our buffer: it is held on to as it is, for the decoder
        this.#held = source;
        this.#heldLength = end;
        return this.#startFallback(missing);
      }
      this.#heldLength = 0;
      this.#append(bytes, last, end);
      const scanner = this.#scanner;
      scanner.reset();
      if (scanner.scan(this.#held!, this.#heldLength, this.#context) !== NEED_MORE) {
        return this.#startFallback(missing);
      }
      this.#needed = 0;
      this.#checkBound(scanner.leastEnd);
    }
  }

  #startFallback(missing: number): void {
    this.stats.fallbacks++;
    this.#needed = this.#heldLength + missing;
    this.#checkBound(this.#needed);
  }

  /** Appends `source[from, to)` to the held bytes (none: a new buffer), growing geometrically. */
  #append(source: Uint8Array, from: number, to: number): void {
    let held = this.#held;
    const length = this.#heldLength;
    const needed = length + to - from;
    this.#checkBound(needed);
    if (held === null || needed > held.length) {
      const grown = new Uint8Array(
        Math.min(Math.max(needed * 2, MIN_PIECE), Math.max(needed, this.#maxHeld)),
      );
      if (held !== null) grown.set(held.subarray(0, length));
      this.stats.copiedBytes += length;
      held = this.#held = grown;
    }
    held.set(source.subarray(from, to), length);
    this.stats.copiedBytes += to - from;
    this.#heldLength = needed;
  }

  /**
   * Errors when the held value is known to need more than the bound: `neededLength` is the
   * least length it can have (a header's length, or the scanner's count of a byte for every
   * element, entry and field announced so far: nested headers that all claim the same bytes add
   * up, so a chain of them fails here at once rather than waiting for bytes that cannot fit).
   */
  #checkBound(neededLength: number): void {
    if (neededLength <= this.#maxHeld) return;
    this.#held = null;
    throw new DecodeError(
      `${BUFFER_LIMIT_MESSAGE}: the value at offset ${this.#heldStart} needs more than ${this.#maxHeld} bytes (maxIncompleteBufferSize)`,
      this.#heldStart,
    );
  }
}

/**
 * A decode error's offsets are relative to the buffer decoded; make them stream offsets (the
 * message's "at offset N" too), so the error points at the bad byte of the whole stream.
 */
function toStreamOffsets(error: unknown, streamStart: number): unknown {
  if (!(error instanceof DecodeError) || streamStart === 0) return error;
  const offset = error.offset + streamStart;
  error.message = error.message.replace(/ at offset \d+/, ` at offset ${offset}`);
  error.offset = offset;
  if (error.lastPosition !== undefined) error.lastPosition += streamStart;
  return error;
}
