// Copyright 2026 the @x/msgpackr authors. MIT license.
// Quick start: run with `npm run demo` (Deno) or `bun examples/quick_start.ts`.

import { pack, Packr, unpack, Unpackr } from "../mod.ts";

const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(" ");

// 1. Standard MessagePack: readable by any MessagePack decoder in any language.
const order = {
  id: 1042,
  customer: "Ada",
  items: [{ sku: "A-1", qty: 2 }, { sku: "B-7", qty: 1 }],
};
const bytes = pack(order);
console.log(`pack(order): ${bytes.length} bytes (JSON: ${JSON.stringify(order).length})`);
console.log("unpack(bytes):", unpack(bytes));

// 2. Records: each object shape is sent once, then referenced by a one-byte id.
const rows = Array.from(
  { length: 1000 },
  (_, id) => ({ id, name: `user ${id}`, active: id % 3 !== 0 }),
);
const packr = new Packr();
const recordBytes = packr.pack(rows);
console.log(
  `1,000 rows: ${pack(rows).length} bytes as maps, ${recordBytes.length} bytes as records`,
);
console.log("first row back:", packr.unpack(recordBytes)[0]);

// 3. Shared structures: both sides know the shapes in advance, so not even one definition is sent.
const structures: string[][] = [];
const sharedPackr = new Packr({ structures });
const sharedBytes = sharedPackr.pack({ id: 1, name: "ann", active: true });
console.log(
  `with shared structures: ${hex(sharedBytes)}  (structures: ${JSON.stringify(structures)})`,
);
console.log("decoded by another instance:", new Unpackr({ structures }).unpack(sharedBytes));
