// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

/**
 * The same API as the main entry, for pages whose Content-Security-Policy forbids `eval`: no
 * module imported from here generates code, so record readers stay interpreted. Only the record
 * reader differs from the main entry; the codec is the same.
 *
 * @example Usage
 * ```ts
 * import { Packr } from "@x/msgpackr/no-eval";
 * import assert from "node:assert/strict";
 *
 * const packr = new Packr();
 * const rows = Array.from({ length: 10 }, (_, id) => ({ id, name: `row ${id}` }));
 * assert.deepEqual(packr.unpack(packr.pack(rows)), rows);
 * ```
 *
 * @module
 */

import "./_records/builder_pool.ts";

export * from "./_encode/exports.ts";
export * from "./_decode/exports.ts";
export * from "./_stream/exports.ts";
export { mapsAsObjects, useRecords } from "./_decode/unpack.ts";
