// Copyright 2026 the @x/msgpackr authors. MIT license.
// The exported `unpack` and `pack` decode and encode with fixed contexts, and the code that only
// options reach is installed by `_decode/context.ts`, which a page that only unpacks or packs
// does not load. Any test that imports mod.ts loads it, so here a subprocess imports only the
// modules such a page carries (tests/_entry_alone.ts) and must decode and encode exactly as the
// full library does: every default extension, records, bundled strings, shared references, and
// extensions registered with `addExtension`.

import { test } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import { inspect } from "node:util";
import { Buffer } from "node:buffer";
import { fileURLToPath } from "node:url";
import { addExtension, pack, Packr, unpack } from "../mod.ts";
import { run } from "./_process.ts";
import { scriptArgs } from "./_util.ts";
import { entryExtensions, entryValues } from "./_entry_values.ts";

test("unpack and pack alone decode and encode as the full library", async () => {
  for (const extension of entryExtensions()) addExtension(extension);
  const values = entryValues();
  const packrs = [
    new Packr(),
    new Packr({ useRecords: false }),
    new Packr({ structuredClone: true }),
    new Packr({ bundleStrings: true }),
    new Packr({ moreTypes: true, useRecords: false }),
  ];
  const inputs: Uint8Array[] = [];
  for (const packr of packrs) {
    inputs.push(...values.map((value) => packr.pack(value)));
    // records defined inline, several shapes, two-byte ids past the one-byte slots
    const rows = Array.from({ length: 80 }, (_, i) => ({ [`k${i}`]: i, same: "s" }));
    inputs.push(packr.pack(rows));
  }
  inputs.push(new Packr({ useBigIntExtension: true }).pack(-(10n ** 30n)));
  const cyclic: Record<string, unknown> = { name: "loop" };
  cyclic.self = cyclic;
  inputs.push(new Packr({ structuredClone: true }).pack(cyclic));
  const expected = inputs.map((bytes) => inspect(unpack(bytes), { depth: null }));
  const script = fileURLToPath(new URL("./_entry_alone.ts", import.meta.url));
  const child = await run(
    process.execPath,
    scriptArgs(script),
    JSON.stringify(inputs.map((bytes) => Buffer.from(bytes).toString("hex"))),
  );
  assert.equal(child.code, 0, child.stderr);
  const { decoded, packed } = JSON.parse(new TextDecoder().decode(child.stdout));
  assert.deepEqual(decoded, expected);
  assert.deepEqual(packed, values.map((value) => Buffer.from(pack(value)).toString("hex")));
});
