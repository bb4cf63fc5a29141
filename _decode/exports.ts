// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Everything the decoding entry points export; shared by `unpack.ts` and `no_eval.ts`.

export {
  clearSource,
  decode,
  isNativeAccelerationEnabled,
  type MessagePackSource,
  unpack,
  unpackMultiple,
  type UnpackOptions,
  type UnpackWindow,
} from "./unpack.ts";
export { Decoder, Unpackr } from "./unpackr.ts";
export { C1, C1Type } from "../_core/c1.ts";
export { Timestamp } from "../_core/timestamp.ts";
export { DecodeError, IncompleteDataError } from "../_core/errors.ts";
export { type StandardSchemaV1, ValidationError } from "../_core/standard_schema.ts";
export { FLOAT32_OPTIONS, type Float32Option, roundFloat32 } from "../_format/float32.ts";
export {
  addExtension,
  type Extension,
  type ExtensionClass,
  type WriteTarget,
} from "../_core/extensions.ts";
export type {
  ConstructionOption,
  Int64Type,
  Options,
  Structure,
  UnpackrOptions,
} from "../_core/options.ts";
