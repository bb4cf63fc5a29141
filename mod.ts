// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

/**
 * Fast MessagePack for Deno, Bun, Node and browsers, wire-compatible with msgpackr: records
 * (the "r" extension) and shared structures, structured clone, string bundles, big integers,
 * typed arrays, custom extensions, and Web Streams.
 *
 * @example Usage
 * ```ts
 * import { pack, Packr, unpack } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * // standard MessagePack, readable by any decoder
 * assert.deepEqual(unpack(pack({ id: 7, tags: ["a", "b"] })), { id: 7, tags: ["a", "b"] });
 *
 * // records: repeated shapes are sent once
 * const packr = new Packr();
 * const rows = [{ id: 1, ok: true }, { id: 2, ok: false }];
 * assert.deepEqual(packr.unpack(packr.pack(rows)), rows);
 * ```
 *
 * @module
 */

export * from "./pack.ts";
export * from "./unpack.ts";
export * from "./stream.ts";
// msgpackr's main entry also exports the settings of its `pack` and `unpack` functions
export { mapsAsObjects, useRecords } from "./_decode/unpack.ts";
