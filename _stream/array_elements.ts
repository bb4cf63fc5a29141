// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The `arrayElements` option of the stream decoder: a top-level array is not one value but a run
// of values, its elements, each decoded and delivered as it completes (docs/wire-format.md,
// "Array elements"). The chunk decoder asks this framing at every top-level boundary: `open`
// consumes the array headers there (fixarray, array16, array32: `_format/tokens.ts` sizes them),
// keeping the bytes of a header cut by a chunk's end, and `after` counts each decoded value off
// the open array, telling the decoder to stop where the array ends so that the next top-level
// header is looked at. An element is decoded (and held, while it spans chunks) as a top-level
// value is, so what is held is one element at most, whatever the array's length.

import { ARRAY, HEADER_SIZE, lengthAt, TOKEN_KIND } from "../_format/tokens.ts";

/** Tracks the top-level arrays of a stream decoded element by element. */
export class ArrayElements {
  /** Elements of the open top-level array still to come (0: at the top level). */
  remaining = 0;
  /** The bytes of the array header being read (at most 5). */
  readonly #header = new Uint8Array(5);
  /** How many bytes of the header are read (0: none). */
  #length = 0;

  /**
   * Consumes the array headers at a top-level boundary: while no array is open, each header at
   * `pos` opens an array (an empty one is consumed whole); a header cut off by `end` is kept and
   * completed by the next call.
   *
   * @param bytes The input.
   * @param pos Where the top-level boundary is.
   * @param end The end of the valid bytes.
   * @returns Where decoding goes on: the first byte after the headers (`end` when it ran out).
   */
  open(bytes: Uint8Array, pos: number, end: number): number {
    const header = this.#header;
    while (this.remaining === 0 && pos < end) {
      // a top-level value that is not an array is decoded whole
      if (this.#length === 0 && TOKEN_KIND[bytes[pos]] !== ARRAY) break;
      const size = HEADER_SIZE[this.#length === 0 ? bytes[pos] : header[0]];
      while (this.#length < size && pos < end) header[this.#length++] = bytes[pos++];
      if (this.#length < size) break;
      this.#length = 0;
      this.remaining = lengthAt(header, 0);
    }
    return pos;
  }

  /**
   * Counts a decoded value (an element of the open array, or a top-level value that is not an
   * array) and says whether the decoder must stop after it to look for an array header: the open
   * array has ended, or a top-level value is followed by an array header.
   *
   * @param bytes The input.
   * @param next Where the next value starts.
   * @param end The end of the valid bytes.
   * @returns `true` to stop decoding at `next`.
   */
  after(bytes: Uint8Array, next: number, end: number): boolean {
    if (this.remaining > 0) return --this.remaining === 0 && next < end;
    return next < end && TOKEN_KIND[bytes[next]] === ARRAY;
  }

  /**
   * The least number of bytes the stream still needs when it stops inside an array: a byte for
   * each element to come, or the rest of a header; 0 at the top level.
   */
  get missing(): number {
    const length = this.#length;
    return this.remaining + (length > 0 ? HEADER_SIZE[this.#header[0]] - length : 0);
  }
}
