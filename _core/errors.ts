// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

/**
 * Thrown when bytes cannot be decoded as MessagePack: an unknown or reserved byte, an unknown
 * extension type, a record id that has no structure, a value of the wrong type where the format
 * requires a specific one (record keys, bundle strings), or trailing bytes after a single value.
 *
 * `offset` is the byte offset in the input where the problem was found. `incomplete` is `false`
 * here and `true` on the {@linkcode IncompleteDataError} subclass, matching msgpackr's
 * `error.incomplete` flag so code written for msgpackr keeps working.
 *
 * @example Usage
 * ```ts
 * import { DecodeError, unpack } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * try {
 *   unpack(new Uint8Array([0xc7, 0x01, 0x05, 0x00])); // ext type 5 is not registered
 * } catch (error) {
 *   assert.ok(error instanceof DecodeError);
 *   assert.equal(error.offset, 0);
 * }
 * ```
 */
export class DecodeError extends SyntaxError {
  /** Byte offset in the input where decoding failed. */
  offset: number;
  /** `true` only for {@linkcode IncompleteDataError}: more bytes could complete the value. */
  incomplete: boolean;
  /**
   * Offset where the value that failed started, set by `unpackMultiple` (msgpackr's
   * `lastPosition`).
   */
  lastPosition?: number;
  /** Values decoded before the failure, set by `unpackMultiple` without a callback. */
  values?: unknown[];

  /**
   * Creates a decode error.
   *
   * @param message What was wrong.
   * @param offset Byte offset where it was found.
   */
  constructor(message: string, offset: number) {
    super(message);
    this.name = "DecodeError";
    this.offset = offset;
    this.incomplete = false;
  }
}

/**
 * Thrown when the input ends before the value does: a truncated header, a length that runs past
 * the end, or a container whose elements are missing. More bytes may complete the value, which is
 * how streams resume. `missingBytes`, when known, is the least number of further bytes needed.
 *
 * @example Usage
 * ```ts
 * import { IncompleteDataError, unpack } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * try {
 *   unpack(new Uint8Array([0xda, 0x00, 0xff, 0x41])); // str16 of 255 bytes, 1 present
 * } catch (error) {
 *   assert.ok(error instanceof IncompleteDataError);
 *   assert.equal(error.incomplete, true);
 *   assert.equal(error.missingBytes, 254);
 * }
 * ```
 */
export class IncompleteDataError extends DecodeError {
  /** The least number of bytes that must follow before the value can complete, when known. */
  missingBytes?: number;

  /**
   * Creates an incomplete-data error.
   *
   * @param message What was cut short.
   * @param offset Byte offset where the input ran out.
   * @param missingBytes The least number of further bytes needed, when a length header says so.
   */
  constructor(message: string, offset: number, missingBytes?: number) {
    super(message, offset);
    this.name = "IncompleteDataError";
    this.incomplete = true;
    if (missingBytes !== undefined) this.missingBytes = missingBytes;
  }
}
