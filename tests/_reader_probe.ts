// Copyright 2026 the @x/msgpackr authors. MIT license.
// A script run in a subprocess by no_eval_test.ts, so that what it installs (a spy on the global
// `Function`, a process-wide fallback to the interpreted reader) cannot leak into other tests.
//
// Usage: <deno run -A | bun> tests/_reader_probe.ts <mod|no_eval> <default|interpreted> <count|throw>
//
// Before importing the library it replaces `globalThis.Function` with a proxy that counts every
// call and construction (`new Function(...)` in the library resolves the global binding when it
// runs, so the proxy sees it). With `count` the proxy forwards to the real Function (which throws
// by itself under `--v8-flags=--disallow-code-generation-from-strings`); with `throw` it throws an
// EvalError, as a Content-Security-Policy without 'unsafe-eval' makes the engine do.
// Then it decodes every testdata payload many times (inline records and shared structures) and
// prints one JSON line: how many times Function was used during import, while packing (the
// default build's generated writers) and while unpacking (its generated readers), how many values
// were decoded, and which decodes differed from the original payload.

import process from "node:process";
import { TESTDATA_FILES } from "./_testdata_files.ts";
import { readTestdata } from "./_util.ts";

const [entry, reader, functionMode] = process.argv.slice(2);

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

uses -= usesAtImport + packUses;
console.log(JSON.stringify({ usesAtImport, packUses, uses, decodes, mismatches }));
