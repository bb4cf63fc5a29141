// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Everything the stream entry point exports; shared by `stream.ts`, `mod.ts` and `no_eval.ts`.

export { EncoderStream, PackrStream } from "./packr_stream.ts";
export { DecoderStream, UnpackrStream } from "./unpackr_stream.ts";
export { decodeIter, encodeIter, type StreamSource } from "./iterators.ts";
export type { PackrStreamOptions } from "./chunk_encoder.ts";
export type { UnpackrStreamOptions } from "./chunk_decoder.ts";
// what the `schema` option takes, and the error of a value that fails it
export { type StandardSchemaV1, ValidationError } from "../_core/standard_schema.ts";
// what `timestamps: "timestamp"` decodes to, and packs exactly
export { Timestamp } from "../_core/timestamp.ts";
// the option and input types the stream API refers to, so `stream.ts` documents completely
export type { MessagePackSource } from "../_decode/unpack.ts";
export type {
  Int64Type,
  IsCompatible,
  PackrOptions,
  Structure,
  UnpackrOptions,
} from "../_core/options.ts";
export type { Float32Option } from "../_format/float32.ts";
