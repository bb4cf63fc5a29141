// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import type { Settings } from "../_core/option_table.ts";
import type { PackrOptions, Structure } from "../_core/options.ts";
import { StructureEncoder } from "../_records/structures.ts";
import { createEncodeContext, type EncodeContext } from "./context.ts";
import {
  type Bytes,
  ENCODER_FEATURES,
  type OutputBuffer,
  packWith,
  type ReusedBuffer,
} from "./encoder.ts";

/** The options `canonical` excludes: each writes bytes that depend on more than the data. */
const NOT_CANONICAL = [
  "useRecords",
  "structures",
  "getStructures",
  "saveStructures",
  "structuredClone",
  "bundleStrings",
] as const;

/**
 * Throws a `TypeError` when `settings` ask for `canonical` together with an option it excludes
 * (records, shared structures, reference ids, bundles); `false` for one of them is allowed
 * (`useRecords: false` is the form canonical bytes take). For the constructors, and for a
 * `Packr`'s options assigned later.
 */
export function checkCanonical(settings: PackrOptions): void {
  if (settings.canonical !== true) return;
  for (const name of NOT_CANONICAL) {
    const value = settings[name];
    if (value !== undefined && value !== false) {
      throw new TypeError(`canonical: true cannot be combined with ${name}`);
    }
  }
}

/**
 * The settings of an encoder: `options` itself, or with `canonical` (checked) a copy with
 * `useRecords: false`, which turns records off for the encoder and makes the decoding half of a
 * `Packr` read maps as a `useRecords: false` one does, and `useInt64` unless it is given.
 */
export function encoderSettings<Options extends PackrOptions>(options: Options): Options {
  checkCanonical(options);
  return options.canonical !== true ||
      (options.useRecords === false && options.useInt64 !== undefined)
    ? options
    : { ...options, useRecords: false, useInt64: options.useInt64 ?? true };
}

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
   * @param settings The encoding options (with `canonical`, records are off: see
   * `encoderSettings`).
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
    settings = encoderSettings(settings);
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
