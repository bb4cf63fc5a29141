// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import type { Settings } from "../_core/option_table.ts";
import type { Structure } from "../_core/options.ts";
import { StructureEncoder } from "../_records/structures.ts";
import { createEncodeContext, type EncodeContext } from "./context.ts";
import {
  type Bytes,
  ENCODER_FEATURES,
  type OutputBuffer,
  packWith,
  type ReusedBuffer,
} from "./encoder.ts";

/**
 * The encoding half of a `Packr`, without the decoder: its encode context with every feature of
 * the writer (records, bundles, reference ids, variable-size maps), and the output buffer given
 * to `useBuffer`. A `Packr` holds one; the streams' encoder uses one alone, so a program that
 * streams values out ships no decoder.
 */
export class Packer {
  /** The encode context (options, record structures, extensions). */
  readonly context: EncodeContext;
  #output: OutputBuffer | null = null;
  /** The last buffer given to {@linkcode Packer.useBuffer}, as a `Uint8Array` and a DataView. */
  #given: { buffer: Uint8Array } & Omit<OutputBuffer, "position"> | null = null;

  /**
   * @param settings The encoding options.
   * @param owner `this` for extension callbacks (the Packr; this Packer without one).
   * @param table The shared structures table, for records (`useRecords` is not `false`).
   * @param onReplaced Called when the record structures replace the shared table, so that the
   * decoding half follows.
   */
  constructor(
    settings: Settings,
    owner: object | undefined,
    table: Structure[] | undefined,
    onReplaced: (shared: Structure[]) => void = () => {},
  ) {
    const context = this.context = createEncodeContext(settings, owner ?? this);
    context.features = ENCODER_FEATURES;
    if (settings.useRecords !== false) {
      context.records = new StructureEncoder(context, table ?? [], onReplaced);
    }
  }

  /**
   * Packs a value, into the buffer given to `useBuffer` if any.
   *
   * @param value The value.
   * @param flags Buffer flags (`REUSE_BUFFER_MODE`, …).
   * @returns The packed bytes (see `Packr.pack`).
   */
  pack(value: unknown, flags: number): Bytes | ReusedBuffer {
    return packWith(this.context, value, flags, this.#output);
  }

  /**
   * Writes the following packs into `buffer` (see `Packr.useBuffer`).
   *
   * @param buffer The buffer to write into.
   */
  useBuffer(buffer: Uint8Array<ArrayBuffer>): void {
    let given = this.#given;
    // the same buffer again (its previous results are done with) keeps its DataView: making one
    // costs more than a small pack. A detached buffer (length 0) is checked anew.
    if (given === null || given.buffer !== buffer || buffer.length === 0) {
      const bytes = buffer.constructor === Uint8Array
        ? buffer
        : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
      given = this.#given = {
        buffer,
        bytes,
        view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      };
    }
    this.#output = { bytes: given.bytes, view: given.view, position: 0 };
  }

  /** Where the next pack writes in the buffer given to `useBuffer` (0 without one). */
  get position(): number {
    return this.#output === null ? 0 : this.#output.position;
  }

  /** Moves where the next pack writes in the buffer given to `useBuffer`. */
  set position(value: number) {
    if (this.#output !== null) this.#output.position = value;
  }
}
