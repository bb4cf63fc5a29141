// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// MessagePack that arrives in chunks (an HTTP body) as JSON, one document per value, each as soon
// as its last byte has arrived. A token walker (`_format/token_walker.ts`) follows the value in
// progress through the bytes as they arrive, resuming where it stopped, and says where it ends;
// only then does the reader (`_cli/wire.ts`) read the value's items, once. So each byte is walked
// about once and read once, however the body is cut. The bytes of the values printed are
// dropped; record definitions carry over from one value to the next, as `decode` reads a
// sequence.

import { DecodeError, IncompleteDataError } from "../_core/errors.ts";
import type { Structure } from "../_core/options.ts";
import { COMPLETE, NEED_MORE, type TokenWalker } from "../_format/token_walker.ts";
import type { JsonValue } from "./json.ts";
import { printJson } from "./json.ts";
import type { WireNode } from "./wire.ts";
import { describeOffset, WireWalker } from "./wire.ts";

/** Makes the converter of the chosen JSON form for the bytes a walk read. */
export type ConverterFactory = (bytes: Uint8Array) => { convert(node: WireNode): JsonValue };

/** Settings of a {@linkcode JsonValueStream}. */
export interface ValueStreamSettings {
  /** Shared structures, or null. */
  structures: readonly Structure[] | null;
  /** Deepest nesting accepted. */
  maxDepth: number;
  /** Pretty JSON (else one compact line per value). */
  pretty: boolean;
  /** The JSON form: plain or exact. */
  converter: ConverterFactory;
}

/** Turns chunks of MessagePack into JSON text, value by value. */
export class JsonValueStream {
  /** Bytes the walker has stepped over and the reader has read, for tests of linear work. */
  readonly stats: { walked: number; read: number } = { walked: 0, read: 0 };
  readonly #settings: ValueStreamSettings;
  readonly #reader: WireWalker;
  /** Where the value in progress ends; begun at offset 0 of the bytes held. */
  readonly #walker: TokenWalker;
  /** Bytes received and not yet printed, from offset 0, in a buffer with room to grow. */
  #held = new Uint8Array(0);
  #length = 0;
  /** Offset in the whole input of the first byte held. */
  #base = 0;
  /**
   * 0 while the walker finds where values end; else the reader has met a cut the walker did not,
   * and tries again once this many bytes (from the value's start) are held.
   */
  #need = 0;

  constructor(settings: ValueStreamSettings) {
    this.#settings = settings;
    this.#reader = new WireWalker(new Uint8Array(0), {
      structures: settings.structures,
      maxDepth: settings.maxDepth,
    });
    this.#walker = this.#reader.finder();
    this.#walker.begin(0);
  }

  /**
   * Adds the next chunk. Returns the JSON of every value it completes ("" when none), and the
   * `DecodeError` of bytes that are not MessagePack after them (the stream cannot go on), or
   * `null`.
   */
  push(chunk: Uint8Array): { json: string; error: DecodeError | null } {
    if (chunk.length === 0) return { json: "", error: null };
    this.#append(chunk);
    const walker = this.#walker;
    const length = this.#length;
    const out: string[] = [];
    let failure: DecodeError | null = null;
    let start = 0; // where the value in progress starts
    for (;;) {
      let status = COMPLETE;
      let end = length;
      if (this.#need === 0) {
        if (length < walker.needEnd) break;
        const entry = walker.pos;
        walker.feed(this.#held, length);
        status = walker.run();
        // bytes stepped over, plus a cut header looked at and left for the next chunk
        this.stats.walked += Math.max(0, Math.min(walker.pos, length) - entry) +
          (status === NEED_MORE ? Math.max(0, length - walker.pos) : 0);
        if (status === NEED_MORE) break;
        if (status === COMPLETE) end = walker.end;
      } else if (length - start < this.#need) {
        break;
      }
      try {
        // a value the walker cannot follow is read too: the reader says what is wrong with it
        start = this.#read(start, end, out);
        if (status !== COMPLETE) {
          throw new DecodeError(
            `${walker.problem} at offset ${describeOffset(this.#base + walker.problemAt)}`,
            this.#base + walker.problemAt,
          );
        }
      } catch (error) {
        if (!(error instanceof DecodeError)) throw error;
        if (!(error instanceof IncompleteDataError)) {
          failure = error;
          break;
        }
        // the reader meets a cut the walker did not (the strings of a bundle that is not the
        // value's last one, or any cut before the walker's problem): from here on the reader
        // tries the bytes held, once those it counts as missing have arrived
        const missing = end < length ? 1 : Math.max(1, error.missingBytes ?? 1);
        this.#need = end - start + missing;
        if (end < length) continue;
        break;
      }
      this.#need = 0;
      walker.begin(start);
    }
    if (start > 0) {
      // drop the values printed; the walk of the value in progress starts again at offset 0 (it
      // began in this chunk, so this walks no byte more than twice)
      this.#held.copyWithin(0, start, length);
      this.#length -= start;
      this.#base += start;
      walker.begin(0);
    }
    return { json: out.length === 0 ? "" : out.join("\n") + "\n", error: failure };
  }

  /** The input has ended: throws the `IncompleteDataError` of an unfinished value. */
  finish(): void {
    if (this.#length === 0) return;
    this.#read(0, this.#length, []);
  }

  /** Reads the value at the start of `held[start, end)`, adds its JSON to `out`; its end. */
  #read(start: number, end: number, out: string[]): number {
    const bytes = this.#held.subarray(start, end);
    const reader = this.#reader;
    reader.continueWith(bytes, this.#base + start);
    this.stats.read += end - start;
    reader.readNext();
    const converter = this.#settings.converter(bytes);
    for (const node of reader.roots) {
      // roots with a label are the strings of a string bundle, not values
      if (node.label === null) out.push(printJson(converter.convert(node), this.#settings.pretty));
    }
    return start + reader.position;
  }

  #append(chunk: Uint8Array): void {
    const need = this.#length + chunk.length;
    if (need > this.#held.length) {
      const grown = new Uint8Array(Math.max(need, this.#held.length * 2, 4096));
      grown.set(this.#held.subarray(0, this.#length));
      this.#held = grown;
    }
    this.#held.set(chunk, this.#length);
    this.#length = need;
  }
}
