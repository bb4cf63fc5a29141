// Copyright 2026 the @x/msgpackr authors. MIT license.

import { Packr } from "../../no_eval.ts";
import { concatBytes } from "../../_core/bytes.ts";

/**
 * `d4 72 40` ⟨keys⟩ ⟨values⟩: one record defining slot 0 (docs/wire-format.md, "Inline
 * definitions"), written by hand.
 */
export function recordBytes(keys: readonly string[], values: readonly unknown[]): Uint8Array {
  const plain = new Packr({ useRecords: false });
  return concatBytes([
    new Uint8Array([0xd4, 0x72, 0x40]),
    plain.pack(keys),
    ...values.map((value) => plain.pack(value)),
  ]);
}
