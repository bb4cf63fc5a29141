// Copyright 2026 the @x/msgpackr authors. MIT license.

/**
 * Bundling programs from the npm package as a user's bundler does, for the scripts that measure
 * what the package costs a page (`scripts/size.ts`, `scripts/mechanism_bytes.ts`):
 *
 * - {@linkcode inInstalledProject} lays the package out as npm installs it: the files `npm pack`
 *   would put in the tarball (with `package.json`) are copied into `node_modules/@x/msgpackr` of
 *   a temporary project, so the bundler resolves it through package.json as for a user
 *   (`exports`, `sideEffects`, `browser`).
 * - {@linkcode bundleProgram} bundles a one-line program of that project importing the package by
 *   its name, with `bun build --minify --target=browser`, and returns the bundle, the bytes each
 *   module puts into it (bun's metafile) and, when asked, its source map.
 *
 * Needs Deno, `node_modules` (bun) and npm.
 *
 * @module
 */

/** The repository's root directory, with a trailing slash. */
export const ROOT: string = decodeURIComponent(new URL("../", import.meta.url).pathname);
/** The package's name ("@x/msgpackr"). */
export const PACKAGE_NAME: string =
  (JSON.parse(await Deno.readTextFile(`${ROOT}package.json`)) as { name: string }).name;
const BUN = `${ROOT}node_modules/.bin/bun`;

/** Runs a command; returns its standard output, or throws with its output when it fails. */
export async function run(command: string, args: string[], cwd: string): Promise<string> {
  const output = await new Deno.Command(command, {
    args,
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { npm_config_update_notifier: "false" },
  }).output();
  const decoder = new TextDecoder();
  const stdout = decoder.decode(output.stdout);
  if (!output.success) {
    throw new Error(
      `${command} ${args.join(" ")} exited with ${output.code}\n${stdout}` +
        decoder.decode(output.stderr),
    );
  }
  return stdout;
}

/** The bundler's name and version: "bun 1.4.5". */
export async function bundlerVersion(): Promise<string> {
  return `bun ${(await run(BUN, ["--version"], ROOT)).trim()}`;
}

/**
 * Runs the build (`scripts/build.ts`: `dist/npm/` and the browser bundles), its output on stderr
 * (stdout may be JSON); returns whether it succeeded.
 */
export async function buildPackage(): Promise<boolean> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/build.ts"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  await Deno.stderr.write(output.stdout);
  return output.success;
}

/** The files `npm pack` puts into the tarball, as paths in the package. */
async function packedFiles(): Promise<string[]> {
  const [packed] = JSON.parse(
    await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], ROOT),
  ) as [{ files: { path: string }[] }];
  return packed.files.map((file) => file.path);
}

/** A temporary project with the package installed from its tarball's files; returns its path. */
async function installedProject(): Promise<string> {
  const project = await Deno.makeTempDir({ prefix: "msgpackr-bundle." });
  const installed = `${project}/node_modules/${PACKAGE_NAME}`;
  for (const file of await packedFiles()) {
    const target = `${installed}/${file}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    await Deno.copyFile(`${ROOT}${file}`, target);
  }
  await Deno.writeTextFile(
    `${project}/package.json`,
    JSON.stringify({ name: "size-check", private: true, type: "module" }),
  );
  return project;
}

/**
 * Runs `action` with a temporary project in which the package is installed as npm installs it,
 * and removes the project after, whether `action` succeeded or not.
 */
export async function inInstalledProject<T>(action: (project: string) => Promise<T>): Promise<T> {
  const project = await installedProject();
  try {
    return await action(project);
  } finally {
    await Deno.remove(project, { recursive: true });
  }
}

/** The program of an import statement: the import, and a use that keeps it in the bundle. */
function programOf(statement: string): string {
  const binding = statement.match(/^import\s+(?:\{\s*(\w+)\s*\}|\*\s+as\s+(\w+))\s+from\s/);
  if (binding === null) throw new Error(`Not a single named or namespace import: ${statement}`);
  return `${statement};\nglobalThis.kept = ${binding[1] ?? binding[2]};\n`;
}

/** The minified bytes one module of the package puts into a bundle. */
export interface ModuleBytes {
  /** Path in the package, e.g. "dist/npm/_decode/decoder.js". */
  module: string;
  bytes: number;
}

/** A source map (version 3) as bun writes it, with each source's text. */
export interface SourceMap {
  /** Paths relative to the bundle's directory. */
  sources: string[];
  sourcesContent: string[];
  mappings: string;
}

/** A program bundled. */
export interface Bundled {
  code: Uint8Array;
  /** The modules its bytes come from, largest first. */
  modules: ModuleBytes[];
  /** With `sourceMap`: the bundle's source map. */
  sourceMap?: SourceMap;
}

/**
 * A module's path in the package ("dist/npm/_decode/decoder.js") from a path the bundler gives
 * (in the metafile or the source map), or `null` for a file outside the package (the program).
 */
export function pathInPackage(path: string): string | null {
  const inPackage = `node_modules/${PACKAGE_NAME}/`;
  const at = path.indexOf(inPackage);
  return at < 0 ? null : path.slice(at + inPackage.length);
}

/**
 * Bundles the program of `statement` (one named or namespace import from the package) in
 * `project` as a user's bundler does: `bun build --minify --target=browser`, with its source map
 * when `sourceMap` is set.
 */
export async function bundleProgram(
  project: string,
  name: string,
  statement: string,
  { sourceMap = false }: { sourceMap?: boolean } = {},
): Promise<Bundled> {
  await Deno.writeTextFile(`${project}/${name}.js`, programOf(statement));
  const outdir = `${project}/out`;
  const metafile = `${outdir}/${name}.meta.json`;
  await run(BUN, [
    "build",
    "--minify",
    "--target=browser",
    `${name}.js`,
    `--outdir=${outdir}`,
    `--metafile=${metafile}`,
    ...(sourceMap ? ["--sourcemap=external"] : []),
  ], project);
  const meta = JSON.parse(await Deno.readTextFile(metafile)) as {
    outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
  };
  const [output] = Object.values(meta.outputs);
  const modules = Object.entries(output.inputs)
    .map(([path, input]) => ({
      module: pathInPackage(path) ?? `${path} (the program)`,
      bytes: input.bytesInOutput,
    }))
    .sort((a, b) => b.bytes - a.bytes);
  const bundled: Bundled = { code: await Deno.readFile(`${outdir}/${name}.js`), modules };
  if (sourceMap) {
    bundled.sourceMap = JSON.parse(await Deno.readTextFile(`${outdir}/${name}.js.map`));
  }
  return bundled;
}
