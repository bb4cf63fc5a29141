// Copyright 2026 the @x/msgpackr authors. MIT license.
// The two record readers (docs/architecture.md): no module reachable from no_eval.ts contains
// code generation; the generated and the interpreted reader return identical results; nothing is
// generated at import; and when generating code throws, decoding carries on, silently, on the
// interpreted reader for good. Runtime behaviour is checked in subprocesses (_reader_probe.ts), so
// a spy on `Function` or the permanent fallback cannot leak into other tests.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { Packr, Unpackr } from "../mod.ts";
import { allBenchData } from "./_records.ts";
import { isDeno, scriptArgs } from "./_util.ts";

/** `new Function`, `Function(` or `eval(` anywhere, comments included, but not `.eval(` etc. */
const CODE_GENERATION = /(^|[^.A-Za-z0-9_$])(new\s+Function\b|Function\s*\(|eval\s*\()/m;

const ROOT = new URL("../", import.meta.url);

/**
 * Local modules reachable from `entry`: static imports and re-exports (type-only ones too, as
 * `deno info` counts them), side-effect imports and dynamic imports with a literal specifier.
 * Statements are recognised at the start of a line, so the examples in JSDoc comments are not.
 */
function importGraph(entry: string): Map<string, string> {
  const modules = new Map<string, string>();
  const pending = [new URL(entry, ROOT).href];
  const patterns = [
    /^\s*(?:import|export)\s+(?:type\s+)?[\w\s{},*$]*?\bfrom\s*["']([^"']+)["']/gm,
    /^\s*import\s*["']([^"']+)["']/gm,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  while (pending.length > 0) {
    const url = pending.pop()!;
    if (modules.has(url)) continue;
    const source = readFileSync(fileURLToPath(url), "utf8");
    modules.set(url, source);
    for (const pattern of patterns) {
      for (const match of source.matchAll(pattern)) {
        const specifier = match[1];
        assert.ok(
          specifier.startsWith("./") || specifier.startsWith("../"),
          `${url} imports ${specifier}: the library has no dependencies`,
        );
        pending.push(new URL(specifier, url).href);
      }
    }
  }
  return modules;
}

/** Lines of `source` that contain code generation. */
function codeGenerationLines(source: string): string[] {
  return source.split("\n").filter((line) => CODE_GENERATION.test(line)).map((line) => line.trim());
}

const DENO = fileURLToPath(new URL("node_modules/.bin/deno", ROOT));
const PROBE = fileURLToPath(new URL("tests/_reader_probe.ts", ROOT));

interface ProbeResult {
  usesAtImport: number;
  /** Uses by a decode before anything is packed (`decode-first`). */
  decodeFirstUses: number;
  /** Uses while packing (generated writers). */
  packUses: number;
  /** Uses while unpacking (generated readers). */
  uses: number;
  decodes: number;
  mismatches: string[];
}

/** Runs _reader_probe.ts in a fresh process of the current runtime and parses its one line. */
function probe(
  entry: "mod" | "no_eval",
  reader: "default" | "interpreted",
  functionMode: "count" | "throw",
  v8Flags: string[] = [],
  order: "pack-first" | "decode-first" = "pack-first",
): { result: ProbeResult; stdout: string; stderr: string } {
  const args = scriptArgs(PROBE, v8Flags.map((flag) => `--v8-flags=${flag}`));
  const child = spawnSync(process.execPath, [...args, entry, reader, functionMode, order], {
    cwd: fileURLToPath(ROOT),
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  assert.equal(child.status, 0, `probe failed: ${child.stderr}`);
  return { result: JSON.parse(child.stdout), stdout: child.stdout, stderr: child.stderr };
}

describe("no_eval.ts import graph", () => {
  test("no module imported from no_eval.ts contains new Function, Function( or eval(", () => {
    const graph = importGraph("no_eval.ts");
    assert.ok(graph.size > 10, "the walker found the library modules");
    assert.ok(!graph.has(new URL("_records/compiler.ts", ROOT).href));
    const offenders: string[] = [];
    for (const [url, source] of graph) {
      for (const line of codeGenerationLines(source)) {
        offenders.push(`${url.slice(ROOT.href.length)}: ${line}`);
      }
    }
    assert.deepEqual(offenders, []);
  });

  test("each build carries its own record builders: the compiler or the pool", () => {
    const pool = new URL("_records/builder_pool.ts", ROOT).href;
    const builders = new URL("_records/builders.ts", ROOT).href;
    const writers = new URL("_encode/writer_compiler.ts", ROOT).href;
    assert.ok(importGraph("no_eval.ts").has(pool), "no_eval.ts installs the pool");
    assert.ok(!importGraph("no_eval.ts").has(writers), "no_eval.ts has no writer compiler");
    assert.ok(!importGraph("unpack.ts").has(writers), "unpack.ts packs nothing");
    for (const entry of ["mod.ts", "pack.ts", "stream.ts", "http.ts"]) {
      assert.ok(importGraph(entry).has(writers), `${entry} installs the writer compiler`);
    }
    // both compilers generate code through one module, which holds the only `new Function`
    const generate = new URL("_core/code_cache.ts", ROOT).href;
    assert.ok(!importGraph("no_eval.ts").has(generate), "no_eval.ts never reaches it");
    for (const entry of ["mod.ts", "unpack.ts", "pack.ts", "stream.ts", "http.ts"]) {
      const graph = importGraph(entry);
      const compiler = new URL("_records/compiler.ts", ROOT).href;
      assert.ok(graph.has(compiler), entry);
      assert.ok(!graph.has(pool) && !graph.has(builders), `${entry} does not carry the pool`);
      assert.ok(graph.get(compiler)!.includes('from "../_core/code_cache.ts"'), entry);
      assert.ok(
        codeGenerationLines(graph.get(generate)!).some((line) => line.includes("new Function(")),
      );
    }
    assert.ok(importGraph("pack.ts").get(writers)!.includes('from "../_core/code_cache.ts"'));
  });

  test("the import-graph walker finds the same modules as deno info", () => {
    assert.ok(existsSync(DENO), "deno is a devDependency");
    for (const entry of ["no_eval.ts", "mod.ts"]) {
      const info = spawnSync(DENO, ["info", "--json", entry], {
        cwd: fileURLToPath(ROOT),
        encoding: "utf8",
      });
      assert.equal(info.status, 0, info.stderr);
      const modules = (JSON.parse(info.stdout) as { modules: { specifier: string }[] }).modules
        .map((module) => module.specifier).sort();
      assert.deepEqual([...importGraph(entry).keys()].sort(), modules, entry);
    }
  });

  test("CODE_GENERATION matches what it must and nothing else", () => {
    for (const text of ["new Function('r', body)", "x = Function('a')", "eval('1')", "(eval(s))"]) {
      assert.ok(CODE_GENERATION.test(text), text);
    }
    for (
      const text of ["writeFunction(fn)", "isFunction(x)", "retrieval(x)", "x.eval(y)", "Functions"]
    ) {
      assert.ok(!CODE_GENERATION.test(text), text);
    }
  });
});

describe("record readers", () => {
  test("the generated and the interpreted reader return identical results on the bench data", async () => {
    const payloads = [...(await allBenchData()).entries()];
    payloads.push([
      "1000 records",
      Array.from({ length: 1000 }, (_, id) => ({ id, name: `row ${id}`, tags: [id % 7] })),
    ]);
    for (const [name, value] of payloads) {
      const expected = JSON.stringify(value);
      const structures: string[][] = [];
      const inline = new Packr().pack(value);
      const shared = new Packr({ structures }).pack(value);
      const readers = [
        [new Unpackr(), new Unpackr({ structures })],
        [
          new Unpackr({ compileRecordReaders: false }),
          new Unpackr({ structures, compileRecordReaders: false }),
        ],
      ];
      // enough reads for every shared shape to be compiled by the default decoder
      for (let i = 0; i < 8; i++) {
        const [generated, interpreted] = readers.map(([forInline, forShared]) => [
          forInline.unpack(inline),
          forShared.unpack(shared),
        ]);
        assert.equal(JSON.stringify(generated), JSON.stringify(interpreted), name);
        assert.equal(JSON.stringify(generated[0]), expected, name);
        assert.equal(JSON.stringify(generated[1]), expected, name);
        assert.deepEqual(generated, interpreted, name);
      }
    }
  });

  test("Packr and Unpackr generate writers and readers for frequent shapes, lazily", () => {
    const { result } = probe("mod", "default", "count");
    assert.equal(result.usesAtImport, 0);
    assert.ok(result.uses > 0, "the generated reader was used");
    assert.ok(result.packUses > 0, "the generated writer was used");
    assert.deepEqual(result.mismatches, []);
    assert.equal(result.decodes, 216);
  });

  test("Unpackr({compileRecordReaders: false}) never generates code", () => {
    const { result } = probe("mod", "interpreted", "count");
    assert.deepEqual({ ...result, packUses: 0 }, {
      usesAtImport: 0,
      decodeFirstUses: 0,
      packUses: 0,
      uses: 0,
      decodes: 216,
      mismatches: [],
    });
  });

  test("no_eval.ts decodes the bench data identically without ever using Function", () => {
    // same payloads and checks as the main entry above, in a process that never loads mod.ts
    const { result } = probe("no_eval", "default", "count");
    assert.deepEqual(result, {
      usesAtImport: 0,
      decodeFirstUses: 0,
      packUses: 0,
      uses: 0,
      decodes: 216,
      mismatches: [],
    });
  });

  test("Packr and Unpackr fall back to the generic paths for good when code generation throws", () => {
    // Deno: V8 forbids code generation from strings, as a CSP without 'unsafe-eval' does.
    // Bun: JavaScriptCore has no such switch, so the probe's Function spy throws an EvalError
    // instead (the library's `new Function` resolves the global binding, so it meets the spy).
    const { result, stdout, stderr } = isDeno
      ? probe("mod", "default", "count", ["--disallow-code-generation-from-strings"])
      : probe("mod", "default", "throw");
    // importing generated nothing; the first compile attempt (a record reader's: the first
    // payload has no shape written often enough for a writer) threw, and turned off both
    // compilers, so no writer was ever tried (one CSP report a page, not two)
    assert.equal(result.usesAtImport, 0);
    assert.equal(result.packUses + result.uses, 1);
    assert.equal(result.decodes, 216);
    assert.deepEqual(result.mismatches, []);
    // silently: nothing printed besides the probe's own line
    assert.equal(stdout.trim().split("\n").length, 1);
    assert.equal(stderr, "");
  });

  test("a refused record reader turns off the writer compiler too: one attempt in all", () => {
    const { result, stderr } = isDeno
      ? probe(
        "mod",
        "default",
        "count",
        ["--disallow-code-generation-from-strings"],
        "decode-first",
      )
      : probe("mod", "default", "throw", [], "decode-first");
    assert.equal(result.usesAtImport, 0);
    assert.equal(result.decodeFirstUses, 1);
    assert.equal(result.packUses, 0);
    assert.equal(result.uses, 0);
    assert.equal(result.decodes, 216);
    assert.deepEqual(result.mismatches, []);
    assert.equal(stderr, "");
  });

  test("where code generation is allowed, a first decode compiles and packing still does", () => {
    const { result } = probe("mod", "default", "count", [], "decode-first");
    assert.equal(result.decodeFirstUses, 1);
    assert.ok(result.packUses > 0);
    assert.ok(result.uses > 0);
    assert.deepEqual(result.mismatches, []);
  });
});
