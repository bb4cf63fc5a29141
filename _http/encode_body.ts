// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// How a value or a stream of values becomes a body, for responses and for requests alike.

import { packBorrowed, Packr } from "../_encode/packr.ts";
import type { PackrOptions } from "../_core/options.ts";
import type { PackrStreamOptions } from "../_stream/chunk_encoder.ts";
import { packSource } from "../_stream/source_packer.ts";
import { type JsonReplacer, stringifyJson } from "./json.ts";
import { type ValueSource, valueStream } from "./value_source.ts";

/** The encoding settings shared by `respond` and `fetchValue`. */
export interface EncodeSettings {
  /** Packs MessagePack (value by value for streams). */
  packr?: Packr | undefined;
  /** Options of the packer when no `packr` is given. */
  packrOptions?: PackrStreamOptions | undefined;
  /** Replacer for JSON. */
  replacer?: JsonReplacer | undefined;
}

/**
 * How MessagePack bodies are packed unless the caller says otherwise: plain MessagePack that any
 * peer reads, objects as maps and safe integers beyond 32 bits as int64/uint64, so that Go's
 * integer fields and Python's `int` receive integers.
 */
const PEER_ENCODING: PackrOptions = { useRecords: false, useInt64: true };
const peerPackr = new Packr(PEER_ENCODING);
/** One Packr per `packrOptions` object (single values). */
const packrs = new WeakMap<PackrStreamOptions, Packr>();

const utf8 = new TextEncoder();

/**
 * The MessagePack bytes of one value: by `settings.packr`, by a Packr made once per
 * `settings.packrOptions` object (over {@linkcode PEER_ENCODING}), or by a Packr with
 * {@linkcode PEER_ENCODING}.
 *
 * @param value The value.
 * @param settings The packer.
 * @param copiedAtOnce The caller copies the bytes before anything else packs (`new Response`
 * does): our own Packrs then return a view of their shared arena instead of a copy of their own.
 * @returns The bytes.
 */
export function packValue(
  value: unknown,
  settings: EncodeSettings,
  copiedAtOnce = false,
): Uint8Array<ArrayBuffer> {
  if (settings.packr !== undefined) return settings.packr.pack(value);
  const options = settings.packrOptions;
  let packr = options === undefined ? peerPackr : packrs.get(options);
  if (packr === undefined) {
    const { coalesceBytes: _, ...packrOptions } = options!;
    packr = new Packr({ ...PEER_ENCODING, ...packrOptions });
    packrs.set(options!, packr);
  }
  return copiedAtOnce ? packBorrowed(packr, value) : packr.pack(value);
}

/**
 * The body of a stream of values: a MessagePack sequence (packed in batches as by
 * `PackrStream.from`, with `settings.packrOptions` over {@linkcode PEER_ENCODING}; or one chunk
 * per value packed by `settings.packr`), or NDJSON (one JSON text and `\n` per value). Values are
 * pulled as the body is read, and cancelling the body cancels the source.
 *
 * @param source The values.
 * @param json NDJSON rather than MessagePack.
 * @param settings The packer and the JSON replacer.
 * @returns The body.
 */
export function encodeStream(
  source: ValueSource,
  json: boolean,
  settings: EncodeSettings,
): ReadableStream<Uint8Array> {
  if (json) {
    const replacer = settings.replacer;
    return valueStream(source).pipeThrough(
      new TransformStream<unknown, Uint8Array>({
        transform(value, controller): void {
          controller.enqueue(utf8.encode(stringifyJson(value, replacer) + "\n"));
        },
      }),
    );
  }
  const packr = settings.packr;
  return packSource(
    source,
    packr === undefined
      ? { ...PEER_ENCODING, ...settings.packrOptions }
      : { packr, coalesceBytes: 0 },
  );
}
