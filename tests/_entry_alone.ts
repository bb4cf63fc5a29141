// Copyright 2026 the @x/msgpackr authors. MIT license.
// A program that imports the exported `unpack` and `pack` as a bundle of a page that only unpacks
// or packs carries them: their modules alone, without `_decode/context.ts` (which installs the
// decoder's option readers) or the option table, and with `addExtension`. Run by
// tests/entry_alone_test.ts: stdin is a JSON array of hex MessagePack values; stdout is one JSON
// object, the `util.inspect` of each decoded value and the hex of each value of
// `entryValues()` packed.

import "../_records/compiler.ts";
import "../_encode/writer_compiler.ts";
import { unpack } from "../_decode/unpack.ts";
import { pack } from "../_encode/pack.ts";
import { addExtension } from "../_core/extensions.ts";
import { inspect } from "node:util";
import { Buffer } from "node:buffer";
import { entryExtensions, entryValues } from "./_entry_values.ts";

for (const extension of entryExtensions()) addExtension(extension);
const chunks: Uint8Array[] = [];
for await (const chunk of (await import("node:process")).default.stdin) chunks.push(chunk);
const inputs: string[] = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const decoded = inputs.map((hex) => inspect(unpack(Buffer.from(hex, "hex")), { depth: null }));
const packed = entryValues().map((value) => Buffer.from(pack(value)).toString("hex"));
console.log(JSON.stringify({ decoded, packed }));
