// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

/**
 * Web Streams and async iteration: `PackrStream` and `UnpackrStream` (TransformStreams),
 * `encodeIter` and `decodeIter`.
 *
 * @module
 */

import "./_record_compiler.ts";

export * from "./_stream_exports.ts";
