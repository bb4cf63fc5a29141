// Copyright 2026 the @x/msgpackr authors. MIT license.
// A script run in a subprocess by no_eval_test.ts, so that what it installs (a spy on the global
// `Function`, a process-wide fallback to the interpreted reader) cannot leak into other tests.
//
// Usage: <deno run -A | bun> tests/_reader_probe.ts <mod|no_eval> <default|interpreted> <count|throw>
//   [decode-first]
//
// Before importing the library it replaces `globalThis.Function` with a proxy that counts every
// call and construction (`new Function(...)` in the library resolves the global binding when it
// runs, so the proxy sees it). With `count` the proxy forwards to the real Function (which throws
// by itself under `--v8-flags=--disallow-code-generation-from-strings`); with `throw` it throws an
// EvalError, as a Content-Security-Policy without 'unsafe-eval' makes the engine do.
// With `decode-first` it first decodes a message of 20 records of one shape (written here by hand,
// so no writer is made for it), which asks the record reader compiler before anything is packed.
// Then it decodes every testdata payload many times (inline records and shared structures) and
// prints one JSON line: how many times Function was used during import, by that first decode, while
// packing (the default build's generated writers) and while unpacking (its generated readers), how
// many values were decoded, and which decodes differed from the original payload.

import process from "node:process";
import { TESTDATA_FILES } from "./_testdata_files.ts";
import { readTestdata } from "./_util.ts";

const [entry, reader, functionMode, order] = process.argv.slice(2);

let uses = 0;
const RealFunction = globalThis.Function;
const spy: FunctionConstructor = new Proxy(RealFunction, {
  apply(target, thisArg, args) {
    uses++;
    if (functionMode === "throw") throw new EvalError("Code generation from strings disallowed");
    return Reflect.apply(target, thisArg, args);
  },
  construct(target, args, newTarget): object {
    uses++;
    if (functionMode === "throw") throw new EvalError("Code generation from strings disallowed");
    return Reflect.construct(target, args, newTarget === spy ? target : newTarget);
  },
});
(globalThis as { Function: FunctionConstructor }).Function = spy;

const library = entry === "no_eval" ? await import("../no_eval.ts") : await import("../mod.ts");
const usesAtImport = uses;

let decodeFirstUses = 0;
if (order === "decode-first") {
  // array16 of 20 records: the first defines slot 0x40 as ["a", "b"] inline (d4 72 40 92 a1 61
  // a1 62), each later one is the id 0x40; the values are i and null
  const bytes = [0xdc, 0, 20, 0xd4, 0x72, 0x40, 0x92, 0xa1, 0x61, 0xa1, 0x62, 0, 0xc0];
  for (let i = 1; i < 20; i++) bytes.push(0x40, i, 0xc0);
  const records = new library.Unpackr().unpack(new Uint8Array(bytes)) as { a: number }[];
  if (records.length !== 20 || records[19].a !== 19) throw new Error("the first decode failed");
  decodeFirstUses = uses - usesAtImport;
}

const payloads: [string, unknown][] = [];
for (const name of TESTDATA_FILES) payloads.push([name, await readTestdata(name)]);
payloads.push([
  "1000 records",
  Array.from({ length: 1000 }, (_, id) => ({ id, name: `row ${id}`, ok: id % 3 === 0 })),
]);

const decoderOptions = reader === "interpreted" ? { compileRecordReaders: false } : {};
const mismatches: string[] = [];
let decodes = 0;
let packUses = 0;
for (const [name, value] of payloads) {
  const expected = JSON.stringify(value);
  const structures: string[][] = [];
  const before = uses;
  const inline = new library.Packr().pack(value);
  const shared = new library.Packr({ structures }).pack(value);
  // packing the same value again, so that shapes written often get their writers
  for (let i = 0; i < 4; i++) new library.Packr({ useRecords: false }).pack(value);
  packUses += uses - before;
  const inlineReader = new library.Unpackr(decoderOptions);
  const sharedReader = new library.Unpackr({ ...decoderOptions, structures });
  for (let i = 0; i < 12; i++) {
    for (
      const [kind, decoded] of [["inline", inlineReader.unpack(inline)], [
        "shared",
        sharedReader.unpack(shared),
      ]] as const
    ) {
      decodes++;
      if (JSON.stringify(decoded) !== expected) mismatches.push(`${name} ${kind} #${i}`);
    }
  }
}

uses -= usesAtImport + decodeFirstUses + packUses;
console.log(JSON.stringify({ usesAtImport, decodeFirstUses, packUses, uses, decodes, mismatches }));
