// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// MessagePack that arrives in chunks (an HTTP body) as JSON, one document per value, each as soon
// as its last byte has arrived. The reader (`_cli/wire.ts`) reads the next value from the bytes
// held; when they end inside it, the walk is undone and tried again only once the bytes its error
// counted as missing have arrived (the exact count for a string or binary, a lower bound for a
// container), not at every chunk. The bytes of the values printed are dropped; record definitions
// carry over from one value to the next, as `decode` reads a sequence.

import { concatBytes } from "../_core/bytes.ts";
import { DecodeError, IncompleteDataError } from "../_core/errors.ts";
import type { Structure } from "../_core/options.ts";
import type { JsonValue } from "./json.ts";
import { printJson } from "./json.ts";
import type { WireNode } from "./wire.ts";
import { WireWalker } from "./wire.ts";

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
  readonly #settings: ValueStreamSettings;
  readonly #walker: WireWalker;
  /** Bytes received and not yet printed, in chunks joined only when a try is due. */
  #chunks: Uint8Array[] = [];
  #held = 0;
  /** Offset in the whole input of the first byte held. */
  #base = 0;
  /** Bytes to hold before the next try: the value in progress needs at least this many. */
  #need = 0;

  constructor(settings: ValueStreamSettings) {
    this.#settings = settings;
    this.#walker = new WireWalker(new Uint8Array(0), {
      structures: settings.structures,
      maxDepth: settings.maxDepth,
    });
  }

  /**
   * Adds the next chunk. Returns the JSON of every value it completes ("" when none), and the
   * `DecodeError` of bytes that are not MessagePack after them (the stream cannot go on), or
   * `null`.
   */
  push(chunk: Uint8Array): { json: string; error: DecodeError | null } {
    if (chunk.length === 0) return { json: "", error: null };
    this.#chunks.push(chunk);
    this.#held += chunk.length;
    if (this.#held < this.#need) return { json: "", error: null };
    const held = this.#join();
    const walker = this.#walker;
    walker.continueWith(held, this.#base);
    let done = 0;
    let complete = 0;
    let failure: DecodeError | null = null;
    try {
      while (walker.position < held.length) {
        walker.tryReadNext();
        done = walker.position;
        complete = walker.roots.length;
      }
      this.#need = 0;
    } catch (error) {
      if (error instanceof IncompleteDataError) {
        this.#need = held.length + Math.max(1, error.missingBytes ?? 1);
      } else if (error instanceof DecodeError) {
        failure = error;
        walker.roots.length = complete; // the broken value is not shown
      } else {
        throw error;
      }
    }
    const converter = this.#settings.converter(held);
    const out: string[] = [];
    for (const node of walker.roots) {
      // roots with a label are the strings of a string bundle, not values
      if (node.label === null) out.push(printJson(converter.convert(node), this.#settings.pretty));
    }
    this.#base += done;
    this.#held -= done;
    this.#chunks = this.#held === 0 ? [] : [held.subarray(done)];
    return { json: out.length === 0 ? "" : out.join("\n") + "\n", error: failure };
  }

  /** The input has ended: throws the `IncompleteDataError` of an unfinished value. */
  finish(): void {
    if (this.#held === 0) return;
    this.#walker.continueWith(this.#join(), this.#base);
    this.#walker.readNext();
  }

  #join(): Uint8Array {
    const chunks = this.#chunks;
    if (chunks.length !== 1) this.#chunks = [concatBytes(chunks)];
    return this.#chunks[0];
  }
}
