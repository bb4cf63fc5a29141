// Copyright 2026 the @x/msgpackr authors. MIT license.

/**
 * Builds what npm and browsers get, from the TypeScript sources (Deno and JSR use the sources):
 *
 * - `dist/npm/`: plain ESM JavaScript and `.d.ts` files, one per source module, for every entry
 *   in `deno.json` `exports` (compiled by TypeScript's `tsc`). The package.json `exports` point
 *   here; this script checks they match `deno.json`, so adding an entry is one line in each file.
 * - `dist/msgpackr.js` (from `mod.ts`) and `dist/msgpackr-no-eval.js` (from `no_eval.ts`):
 *   single-file minified ESM bundles for browsers, with linked source maps, bundled by Bun from
 *   the npm build as a user's bundler bundles the package.
 *
 * Run with `npm run build` (also run by `npm pack` through `prepack`) or
 * `deno run -A scripts/build.ts`. Needs `node_modules` (TypeScript) and Deno.
 *
 * @module
 */

const root = new URL("../", import.meta.url);
const rootPath = decodeURIComponent(root.pathname);
const path = (relative: string): string => decodeURIComponent(new URL(relative, root).pathname);

/** Where the npm build goes (relative to the repository root, no leading "./"). */
const NPM_DIR = "dist/npm";
/** Browser bundles: output file in `dist/` → entry module. */
const BUNDLES: Record<string, string> = {
  "msgpackr.js": "mod.ts",
  "msgpackr-no-eval.js": "no_eval.ts",
};
/**
 * Modules imported for their side effect: each installs the faster record builders of its build
 * (the compiler of the default build, the pool of the no-eval build).
 */
const INSTALLERS = [
  "_records/compiler.ts",
  "_encode/writer_compiler.ts",
  "_records/builder_pool.ts",
];
/**
 * Modules that browsers get in another form (package.json `browser` maps the npm build of the
 * first to the second): the mechanisms that only Deno and Bun use, statically switched off.
 */
const BROWSER_VARIANTS: Record<string, string> = {
  "_strings/input_window.ts": "_strings/input_window_browser.ts",
  "_strings/utf8_writer.ts": "_strings/utf8_writer_browser.ts",
};
/** Bundles that must contain no code generation at all. */
const NO_EVAL_BUNDLES = ["msgpackr-no-eval.js"];
/** Code generation in a bundle's text: `new Function`, `Function(…)`, `eval(…)`. */
const CODE_GENERATION = /\bnew\s+Function\b|(?<![\w$])Function\s*\(|(?<![\w$])eval\s*\(/;

interface DenoJson {
  name: string;
  version: string;
  exports: Record<string, string>;
}
interface PackageJson {
  name: string;
  version: string;
  exports?: Record<string, unknown>;
  sideEffects?: string[];
  browser?: Record<string, string>;
  types?: string;
}

const denoJson = JSON.parse(await Deno.readTextFile(path("deno.json"))) as DenoJson;
const packageJson = JSON.parse(await Deno.readTextFile(path("package.json"))) as PackageJson;
/** The entry modules ("./mod.ts", …) by subpath (".", "./pack", …). */
const entries = Object.entries(denoJson.exports);

async function run(command: string, args: string[]): Promise<void> {
  const { code } = await new Deno.Command(command, { args, cwd: rootPath, stdout: "inherit" })
    .output();
  if (code !== 0) {
    throw new Error(`Command failed with exit code ${code}: ${command} ${args.join(" ")}`);
  }
}

async function removeIfExists(file: string): Promise<void> {
  await Deno.remove(path(file), { recursive: true }).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
}

async function* walk(directory: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(directory)) {
    const file = `${directory}/${entry.name}`;
    if (entry.isDirectory) yield* walk(file);
    else yield file;
  }
}

/** The npm build of a source module (`_strings/utf8.ts` → `./dist/npm/_strings/utf8.js`). */
function npmFile(module: string): string {
  return `./${NPM_DIR}/${module.replace(/^\.\//, "").replace(/\.ts$/, ".js")}`;
}

/** The package.json `exports` this build serves: built JS and declarations per entry. */
function expectedPackageExports(): Record<string, { types: string; default: string }> {
  const expected: Record<string, { types: string; default: string }> = {};
  for (const [subpath, file] of entries) {
    const base = `./${NPM_DIR}/${file.replace(/^\.\//, "").replace(/\.ts$/, "")}`;
    expected[subpath] = { types: `${base}.d.ts`, default: `${base}.js` };
  }
  return expected;
}

function checkPackageJson(): void {
  const problems: string[] = [];
  if (packageJson.name !== denoJson.name) {
    problems.push(`package.json name ${packageJson.name} is not ${denoJson.name}`);
  }
  if (packageJson.version !== denoJson.version) {
    problems.push(`package.json version ${packageJson.version} is not ${denoJson.version}`);
  }
  const expected = expectedPackageExports();
  const sorted = (value: unknown): string =>
    JSON.stringify(Object.entries(value ?? {}).sort(([a], [b]) => a < b ? -1 : 1));
  if (sorted(packageJson.exports) !== sorted(expected)) {
    problems.push(
      `package.json exports must point to the npm build of every deno.json export:\n` +
        `"exports": ${JSON.stringify(expected, null, 2)}`,
    );
  }
  // Bundlers drop modules that package.json does not list as having side effects when nothing
  // they export is used: the modules that install the compiler or the pool are imported for
  // that effect alone, and so are they by the entry points (one bundler also drops an entry's
  // own imports when the entry re-exports with `export *`). The TypeScript sources are listed
  // for `deno bundle`, which reads the same field.
  const sideEffects = [
    ...entries.map(([, file]) => file),
    ...INSTALLERS,
  ].flatMap((file) => {
    const module = file.replace(/^\.\//, "").replace(/\.ts$/, "");
    return [`./${NPM_DIR}/${module}.js`, `./${module}.ts`];
  });
  if (
    JSON.stringify(packageJson.sideEffects?.toSorted()) !== JSON.stringify(sideEffects.toSorted())
  ) {
    problems.push(`package.json sideEffects must be:\n${JSON.stringify(sideEffects, null, 2)}`);
  }
  const browser = Object.fromEntries(
    Object.entries(BROWSER_VARIANTS).map((
      [module, variant],
    ) => [npmFile(module), npmFile(variant)]),
  );
  if (sorted(packageJson.browser) !== sorted(browser)) {
    problems.push(`package.json browser must be:\n${JSON.stringify(browser, null, 2)}`);
  }
  if (packageJson.types !== expected["."]?.types) {
    problems.push(`package.json types must be "${expected["."]?.types}"`);
  }
  // jsr.json repeats deno.json's package fields for JSR tooling; they must not drift apart
  const jsrJson = JSON.parse(Deno.readTextFileSync(path("jsr.json"))) as Record<string, unknown>;
  for (const field of ["name", "version", "license", "exports", "publish"]) {
    const denoValue = JSON.stringify((denoJson as unknown as Record<string, unknown>)[field]);
    if (JSON.stringify(jsrJson[field]) !== denoValue) {
      problems.push(`jsr.json ${field} must equal deno.json's: ${denoValue}`);
    }
  }
  if (problems.length > 0) throw new Error(`Cannot build the npm package:\n${problems.join("\n")}`);
}

/** Plain ESM JavaScript and declarations for npm, one file per module. */
async function buildNpm(): Promise<void> {
  checkPackageJson();
  await removeIfExists(NPM_DIR);
  const config = {
    compilerOptions: {
      rootDir: rootPath,
      outDir: path(NPM_DIR),
      declaration: true,
      // `./x.ts` imports become `./x.js` in the JavaScript (TypeScript 5.7+)
      rewriteRelativeImportExtensions: true,
      module: "esnext",
      moduleResolution: "bundler",
      target: "es2022",
      lib: ["esnext", "dom", "dom.iterable", "dom.asynciterable"],
      strict: true,
      exactOptionalPropertyTypes: true,
      noImplicitOverride: true,
      useUnknownInCatchVariables: true,
      isolatedModules: true,
      skipLibCheck: true,
      types: [],
    },
    files: [...entries.map(([, file]) => file), ...Object.values(BROWSER_VARIANTS)].map(path),
  };
  const configFile = await Deno.makeTempFile({ prefix: "tsconfig.npm.", suffix: ".json" });
  try {
    await Deno.writeTextFile(configFile, JSON.stringify(config, null, 2));
    await run(path("node_modules/.bin/tsc"), ["-p", configFile]);
  } finally {
    await Deno.remove(configFile);
  }
  // TypeScript keeps `./x.ts` specifiers in declaration files; consumers resolve `./x.js`
  const tsSpecifier = /((?:from|import)\s*\(?\s*)(["'])(\.\.?\/[^"']*?)\.ts\2/g;
  let modules = 0;
  for await (const file of walk(path(NPM_DIR))) {
    const text = await Deno.readTextFile(file);
    if (file.endsWith(".d.ts")) {
      await Deno.writeTextFile(file, text.replace(tsSpecifier, "$1$2$3.js$2"));
    } else if (file.endsWith(".js")) {
      modules++;
      // `@example` imports in JSDoc stay comments; only code lines must import `.js`
      const code = text.split("\n").filter((line) => !/^\s*(\*|\/\/)/.test(line)).join("\n");
      if (tsSpecifier.test(code)) throw new Error(`A .ts import is left in ${file}`);
      tsSpecifier.lastIndex = 0;
      await Deno.writeTextFile(file, text.replace(tsSpecifier, "$1$2$3.js$2"));
    }
  }
  for (const { types, default: js } of Object.values(expectedPackageExports())) {
    await Deno.stat(path(types));
    await Deno.stat(path(js));
  }
  console.log(`${NPM_DIR}/: ${modules} modules with declarations (${entries.length} entries)`);
}

/**
 * Minified single-file ESM bundles with source maps, for browsers: the npm build of the entry,
 * bundled by Bun for the browser as a user's bundler bundles the package (package.json
 * `browser` and `sideEffects` apply).
 */
async function buildBundles(): Promise<void> {
  const banner = `/*! ${denoJson.name} ${denoJson.version} | MIT license */`;
  for (const [output, entry] of Object.entries(BUNDLES)) {
    const file = `dist/${output}`;
    await removeIfExists(file);
    await removeIfExists(`${file}.map`);
    await run(path("node_modules/.bin/bun"), [
      "build",
      "--target=browser",
      "--format=esm",
      "--minify",
      "--sourcemap=linked",
      `--outdir=${path("dist")}`,
      `--entry-naming=${output.replace(/\.js$/, "")}.[ext]`,
      `${NPM_DIR}/${entry.replace(/\.ts$/, ".js")}`,
    ]);
    // a license banner on the first line; the map skips that line
    const code = await Deno.readTextFile(path(file));
    await Deno.writeTextFile(path(file), `${banner}\n${code}`);
    const map = JSON.parse(await Deno.readTextFile(path(`${file}.map`)));
    map.mappings = `;${map.mappings}`;
    await Deno.writeTextFile(path(`${file}.map`), JSON.stringify(map));
    if (NO_EVAL_BUNDLES.includes(output) && CODE_GENERATION.test(code)) {
      throw new Error(`${file} contains code generation: ${code.match(CODE_GENERATION)?.[0]}`);
    }
    // the default bundle compiles its record readers: a bundler that dropped the compiler's
    // module (see SIDE_EFFECTS) would leave it on the slow interpreted reader
    if (!NO_EVAL_BUNDLES.includes(output) && !CODE_GENERATION.test(code)) {
      throw new Error(`${file} lost the record reader compiler: check package.json sideEffects`);
    }
    console.log(`${file}: ${(code.length / 1024).toFixed(1)} KiB from ${entry}`);
  }
}

// the browser bundles are made from the npm build, so `--browser` builds both
await buildNpm();
if (!Deno.args.includes("--npm")) await buildBundles();
