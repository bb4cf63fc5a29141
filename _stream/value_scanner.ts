// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Finds where one top-level value ends without building it, so a stream can wait for a value that
// arrives in many chunks and decode it once, in time linear in its size. The walk is
// `_format/token_walker.ts`'s, resumed at every chunk; the scanner answers its questions from the
// decoder's context: the record types of the decoder's structure table (and of `getStructures`,
// asked once per value as the decoder does: docs/wire-format.md, "The decoder's structure
// table"), and which extensions are tags: custom extensions with `read` (fixext1 form only:
// docs/wire-format.md, "Custom extensions"), Set, Error, RegExp, structured-clone ids and string
// bundles (docs/wire-format.md, "moreTypes codes", "Bundled strings").
// The decoder stays the authority: the scanner only says "complete", "need more" or "cannot
// follow" (bad bytes, or a header it cannot size), and the caller then lets the decoder judge.

import type { DecodeContext } from "../_decode/context.ts";
import { disabledExtension } from "../_decode/extension_policy.ts";
import type { Extension } from "../_core/extensions.ts";
import { isTimestampLength } from "../_format/timestamp.ts";
import type { RecordTable } from "../_records/table.ts";
import {
  BAD_EXT,
  BUNDLE_EXT,
  COMPLETE,
  INVALID,
  NEED_MORE,
  PAYLOAD_EXT,
  type RecordShape,
  TAG_EXT,
  type TokenDialect,
  TokenWalker,
  UNCERTAIN,
} from "../_format/token_walker.ts";

export { COMPLETE, INVALID, NEED_MORE, UNCERTAIN };

/** What {@linkcode ValueScanner.scan} found. */
export type ScanResult = typeof NEED_MORE | typeof COMPLETE | typeof INVALID | typeof UNCERTAIN;

/**
 * A resumable end-of-value finder for one top-level value at offset 0 of a growing buffer.
 * `reset()` before each value; `scan(bytes, length, context)` whenever the buffer has grown.
 */
export class ValueScanner implements TokenDialect {
  /** Bytes looked at so far, over all values (for tests that prove linear work). */
  examined = 0;

  readonly #walker: TokenWalker = new TokenWalker(this);
  #records: RecordTable | null = null;
  #decoders: readonly (Extension | undefined)[] = [];
  #disabledExtensions = 0;
  #triedLoading = false;

  /** With {@linkcode COMPLETE}: the offset just after the value. */
  get end(): number {
    return this.#walker.end;
  }

  /** With {@linkcode NEED_MORE}: the least buffer length with which the scan can progress. */
  get needEnd(): number {
    return this.#walker.needEnd;
  }

  /**
   * With {@linkcode NEED_MORE}: the least length the value can have, counting a byte for every
   * element, entry and field its headers so far announce (the walker's `leastEnd`).
   */
  get leastEnd(): number {
    return this.#walker.leastEnd;
  }

  /** Starts over for a new value at offset 0. */
  reset(): void {
    this.#walker.begin(0);
    this.#triedLoading = false;
  }

  /**
   * Continues scanning `bytes[0, length)`, which must start with the bytes given before.
   *
   * @param bytes The buffer holding the value from offset 0.
   * @param length How many bytes of it are valid.
   * @param context The decoder's context: record table, extensions, settings.
   * @returns What was found.
   */
  scan(bytes: Uint8Array, length: number, context: DecodeContext): ScanResult {
    const records = this.#records = context.records;
    records.syncShared(); // as the decoder does: the shared array may have grown
    this.#decoders = context.extensions.decoders();
    this.#disabledExtensions = context.disabledExtensions;
    const walker = this.#walker;
    const entry = walker.pos;
    walker.feed(bytes, length);
    const result = walker.run() as ScanResult;
    // bytes consumed, and with NEED_MORE the partial header looked at and left for the next call
    this.examined += Math.max(
      0,
      (result === NEED_MORE ? length : Math.min(walker.pos, length)) - entry,
    );
    return result;
  }

  /** The decoder's record type of a slot. */
  recordShape(slot: number): RecordShape | undefined {
    const records = this.#records!;
    return records.types[slot] ?? records.resolve(slot);
  }

  /**
   * Tries `getStructures` once per value, as the decoder does, so both see the same table.
   * Returns whether structures were loaded.
   */
  loadStructures(): boolean {
    const records = this.#records!;
    if (records.getStructures === null || this.#triedLoading) return false;
    this.#triedLoading = true;
    let loaded: unknown;
    try {
      loaded = records.getStructures();
    } catch {
      return false; // the decoder will call it again and report the error
    }
    if (!Array.isArray(loaded)) return false;
    records.replaceShared(
      Object.isFrozen(loaded) ? loaded.map((keys: string[]) => keys.slice()) : loaded,
    );
    return true;
  }

  /** Whether `getStructures` may still define an unknown two-byte id. */
  get moreStructures(): boolean {
    return this.#records!.getStructures !== null;
  }

  /** What the decoder makes of an extension type (docs/wire-format.md, "Extension types"). */
  extension(type: number, length: number, fixext1: boolean): number {
    const custom = this.#decoders[type];
    if (custom !== undefined) {
      if (fixext1 && !custom.unpack && custom.read) return TAG_EXT; // the value follows
      return custom.unpack ? PAYLOAD_EXT : BAD_EXT;
    }
    // what the decoder refuses (`structuredClone: false`, `plainDataOnly`) is its to report
    if (disabledExtension(type, this.#disabledExtensions) !== null) return BAD_EXT;
    // a timestamp's wrong length is an error at its header, not a wait for its bytes
    if (type === 0xff) return isTimestampLength(length) ? PAYLOAD_EXT : BAD_EXT;
    if (type === 0x69) return length !== 4 ? BAD_EXT : TAG_EXT; // "i": the next value is object #id
    return BUILTIN_EXTENSIONS[type] ?? BAD_EXT;
  }
}

/**
 * The decoder's own extensions besides the timestamp and "i": undefined, "B" big integer,
 * "p" pointer and "t" typed array are their payload; "s" Set, "e" Error and "x" RegExp are
 * followed by their value; "b" is a string bundle.
 */
const BUILTIN_EXTENSIONS: Partial<Record<number, number>> = {
  0x00: PAYLOAD_EXT,
  0x42: PAYLOAD_EXT,
  0x70: PAYLOAD_EXT,
  0x74: PAYLOAD_EXT,
  0x73: TAG_EXT,
  0x65: TAG_EXT,
  0x78: TAG_EXT,
  0x62: BUNDLE_EXT,
};
