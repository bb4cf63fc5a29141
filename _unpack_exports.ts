// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Everything the decoding entry points export; shared by `unpack.ts` and `no_eval.ts`.

export {
  decode,
  Decoder,
  isNativeAccelerationEnabled,
  type MessagePackSource,
  unpack,
  unpackMultiple,
  Unpackr,
  type UnpackWindow,
} from "./_unpackr.ts";
export { C1, C1Type } from "./_c1.ts";
export { DecodeError, IncompleteDataError } from "./_errors.ts";
export { FLOAT32_OPTIONS, type Float32Option, roundFloat32 } from "./_float32.ts";
export type { Extension, ExtensionClass } from "./_extensions.ts";
export type { Int64Type, Structure, UnpackrOptions } from "./_options.ts";
