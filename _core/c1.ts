// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

/**
 * Class of the {@linkcode C1} singleton, the value of MessagePack's "never used" byte 0xc1.
 *
 * @example Usage
 * ```ts
 * import { C1, C1Type } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * assert.ok(C1 instanceof C1Type);
 * ```
 */
export class C1Type {
  /** Always `"MessagePack 0xC1"`. */
  name = "MessagePack 0xC1";
}

/**
 * The value of the byte 0xc1 outside a string bundle: `unpack` returns it for 0xc1 and `pack`
 * writes 0xc1 for it, as msgpackr does.
 *
 * @example Usage
 * ```ts
 * import { C1, pack, unpack } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(pack(C1), new Uint8Array([0xc1]));
 * assert.equal(unpack(new Uint8Array([0xc1])), C1);
 * ```
 */
export const C1: C1Type = new C1Type();
