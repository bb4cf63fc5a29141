// Copyright 2026 the @x/msgpackr authors. MIT license.
// The exported `unpack` and `pack` decode and encode with contexts written out as literals (so
// that a program using only them ships no option table): each must equal the context that the
// option table makes for `{ useRecords: false }`, field for field.

import { test } from "node:test";
import assert from "node:assert/strict";
import { defaultContext as decodeDefault } from "../_decode/unpack.ts";
import { defaultContext as encodeDefault } from "../_encode/pack.ts";
import { createDecodeContext } from "../_decode/context.ts";
import { createEncodeContext } from "../_encode/context.ts";
import { globalExtensions } from "../_core/extensions.ts";
import { registeredExtensions } from "../_core/registered_extensions.ts";

test("the exported unpack's context is the option table's for { useRecords: false }", () => {
  const { records, extensions, ...options } = decodeDefault;
  const made = createDecodeContext({ useRecords: false });
  const { records: madeRecords, extensions: _, ...madeOptions } = made;
  assert.deepEqual(Object.keys(options), Object.keys(madeOptions), "the same fields, in order");
  assert.deepEqual(options, madeOptions);
  assert.deepEqual(
    { shared: records.shared, getStructures: records.getStructures },
    { shared: madeRecords.shared, getStructures: madeRecords.getStructures },
  );
  assert.equal(extensions, registeredExtensions);
});

test("the exported pack's context is the option table's for { useRecords: false }", () => {
  const { extensions, ...options } = encodeDefault;
  const { extensions: _, ...madeOptions } = createEncodeContext(
    { useRecords: false },
    encodeDefault.owner,
  );
  assert.deepEqual(Object.keys(options), Object.keys(madeOptions), "the same fields, in order");
  assert.deepEqual(options, madeOptions);
  assert.equal(extensions, registeredExtensions);
});

test("the exported functions' extensions are the global registry's", () => {
  assert.equal(registeredExtensions.decoders(), globalExtensions.decoders());
  assert.equal(registeredExtensions.encoders(), globalExtensions.encoders());
});
