// Copyright 2026 the @x/msgpackr authors. MIT license.

/**
 * Tests the npm tarball as users get it: `npm pack` (which builds through `prepack`), then in
 * fresh temporary projects:
 *
 * - Node: `npm install ./x-msgpackr-<version>.tgz` (offline: the package has no dependencies),
 *   run `roundtrip.mjs` with the `node` on PATH, which must be the major version the README
 *   claims ("Node 20+", the oldest supported), and type-check `consumer.ts` against the installed
 *   `.d.ts` files with `tsc` (module resolution `nodenext` and `bundler`, `skipLibCheck: false`),
 *   with `hono` installed beside the package (from this checkout's `node_modules`, offline), as a
 *   Hono app has it: the types of `@x/msgpackr/hono` are Hono's. The round trip runs before, with
 *   nothing but the package installed: the framework entries need no framework at run time.
 * - Bun: `bun add ./x-msgpackr-<version>.tgz`, run `roundtrip.mjs` and `consumer.ts`.
 * - The `msgpackr` command: `npx @x/msgpackr` and `bunx @x/msgpackr` in those projects, and
 *   `npx --package <tarball> msgpackr` / `bunx --package <tarball> msgpackr` where nothing is
 *   installed, decoding a payload written by another encoder.
 *
 * Run with `npm run test:package` or `deno run -A tests/package/run.ts` (needs Node, npm,
 * `node_modules`). Prints `package: N passed, N failed` and exits non-zero on any failure.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Packr } from "../../mod.ts";

const root = decodeURIComponent(new URL("../../", import.meta.url).pathname);
const here = decodeURIComponent(new URL("./", import.meta.url).pathname);
const bin = (name: string): string => `${root}node_modules/.bin/${name}`;

const CODE_GENERATION = /\bnew\s+Function\b|(?<![\w$])Function\s*\(|(?<![\w$])eval\s*\(/;
let passed = 0;
let failed = 0;

/** Runs a command; throws with its output if it fails. Returns stdout. */
async function run(command: string, args: string[], cwd: string): Promise<string> {
  const started = performance.now();
  const { code, stdout, stderr } = await new Deno.Command(command, {
    args,
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { npm_config_update_notifier: "false" },
  }).output();
  const out = new TextDecoder().decode(stdout);
  const err = new TextDecoder().decode(stderr);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const shown = [command.replace(root, ""), ...args].join(" ");
  if (code !== 0) {
    throw new Error(`\`${shown}\` exited with ${code} in ${cwd}\n${out}${err}`);
  }
  console.log(`  $ ${shown}  (${seconds} s)`);
  return out;
}

async function step(name: string, fn: () => Promise<void>): Promise<void> {
  console.log(`- ${name}`);
  try {
    await fn();
    passed++;
    console.log(`  ok`);
  } catch (error) {
    failed++;
    console.log(`  FAILED: ${error instanceof Error ? error.message : error}`);
  }
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await Deno.writeTextFile(file, JSON.stringify(value, null, 2) + "\n");
}

const temp = await Deno.makeTempDir({ prefix: "msgpackr-package-" });
const { version } = JSON.parse(await Deno.readTextFile(`${root}package.json`));
const tarballName = `x-msgpackr-${version}.tgz`;
const tarball = `${temp}/${tarballName}`;

try {
  await step("npm pack builds and packs the package", async () => {
    await run("npm", ["pack", "--pack-destination", temp], root);
    const listing = (await run("tar", ["-tzf", tarball], temp)).split("\n").filter(Boolean);
    // every entry of deno.json's exports, built for npm
    const denoJson = JSON.parse(await Deno.readTextFile(`${root}deno.json`));
    const entries = Object.values(denoJson.exports as Record<string, string>)
      .map((file) => file.replace(/^\.\//, "").replace(/\.ts$/, ""));
    assert.ok(entries.includes("http"), "deno.json exports ./http");
    for (const file of entries) {
      assert.ok(listing.includes(`package/dist/npm/${file}.js`), `${file}.js is packed`);
      assert.ok(listing.includes(`package/dist/npm/${file}.d.ts`), `${file}.d.ts is packed`);
    }
    for (const file of ["msgpackr.js", "msgpackr-no-eval.js", "msgpackr.js.map"]) {
      assert.ok(listing.includes(`package/dist/${file}`), `${file} is packed`);
    }
    for (const file of ["package.json", "README.md", "LICENSE"]) {
      assert.ok(listing.includes(`package/${file}`), `${file} is packed`);
    }
    const sources = listing.filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"));
    assert.deepEqual(sources, [], "no TypeScript sources are packed");
    const strays = listing.filter((file) =>
      /\/(tests|bench|scripts|scratch|node_modules)\//.test(file)
    );
    assert.deepEqual(strays, [], "no tests, benchmarks or scripts are packed");
    console.log(`  ${listing.length} files in ${tarballName}`);
  });

  const nodeProject = `${temp}/node-project`;
  await step("npm install of the tarball in a fresh Node project", async () => {
    await Deno.mkdir(nodeProject);
    await writeJson(`${nodeProject}/package.json`, {
      name: "node-project",
      private: true,
      type: "module",
    });
    await Deno.copyFile(tarball, `${nodeProject}/${tarballName}`);
    const args = ["install", "--offline", "--no-audit", "--no-fund", `./${tarballName}`];
    await run("npm", args, nodeProject);
    const installed = JSON.parse(
      await Deno.readTextFile(`${nodeProject}/node_modules/@x/msgpackr/package.json`),
    );
    assert.equal(installed.name, "@x/msgpackr");
    assert.equal(installed.version, version);
  });

  await step("Node runs the round trip from the installed package", async () => {
    await Deno.copyFile(`${here}roundtrip.mjs`, `${nodeProject}/roundtrip.mjs`);
    const nodeVersion = (await run("node", ["--version"], nodeProject)).trim();
    // the README promises "Node 20+" and says this test runs "fresh Node 20" projects, and
    // package.json says engines ">=20": the Node that ran is that oldest supported major
    const readme = await Deno.readTextFile(`${root}README.md`);
    const claimed = [...readme.matchAll(/\bNode (\d+)(\+| and Bun projects)/g)].map((m) => m[1]);
    assert.ok(claimed.length >= 2, "the README names the Node version it supports and tests");
    assert.equal(new Set(claimed).size, 1, `the README names Node ${claimed.join(", ")}`);
    const { engines } = JSON.parse(await Deno.readTextFile(`${root}package.json`));
    assert.equal(engines?.node, `>=${claimed[0]}`, "package.json engines.node");
    const major = /^v(\d+)\./.exec(nodeVersion)?.[1];
    console.log(`  node ${nodeVersion} (the README claims Node ${claimed[0]}+)`);
    assert.equal(
      major,
      claimed[0],
      `ran Node ${nodeVersion}, the README claims Node ${claimed[0]}`,
    );
    const out = await run("node", ["roundtrip.mjs"], nodeProject);
    console.log(out.trimEnd().replace(/^/gm, "  "));
    assert.match(out, /roundtrip on Node .*: \d+ checks passed/);
  });

  await step("no module imported by the installed no-eval entry generates code", async () => {
    const directory = new URL(`file://${nodeProject}/node_modules/@x/msgpackr/dist/npm/`);
    // module URLs, followed through every relative import (`./x.js`, `../_core/x.js`)
    const graph = new Set([new URL("no_eval.js", directory).href]);
    for (const file of graph) {
      const text = await Deno.readTextFile(new URL(file));
      assert.doesNotMatch(text, CODE_GENERATION, `${file} generates code`);
      for (const [, specifier] of text.matchAll(/(?:from|import)\s*["'](\.\.?\/[^"']+)["']/g)) {
        graph.add(new URL(specifier, file).href);
      }
    }
    assert.ok(graph.size > 10, `${graph.size} modules`);
    assert.ok(![...graph].some((file) => file.endsWith("/_records/compiler.js")));
    console.log(`  ${graph.size} modules in the graph of dist/npm/no_eval.js`);
  });

  await step("tsc type-checks a TypeScript consumer against the .d.ts files", async () => {
    await Deno.copyFile(`${here}consumer.ts`, `${nodeProject}/consumer.ts`);
    // the Hono that a Hono app installs (packed from this checkout's copy: no registry needed)
    const packed = (await run("npm", ["pack", `${root}node_modules/hono`], nodeProject)).trim();
    const honoTarball = packed.split("\n").pop()!;
    await run(
      "npm",
      ["install", "--offline", "--no-audit", "--no-fund", `./${honoTarball}`],
      nodeProject,
    );
    const compilerOptions = {
      target: "es2022",
      lib: ["es2022", "dom", "dom.iterable", "dom.asynciterable"],
      strict: true,
      exactOptionalPropertyTypes: true,
      noEmit: true,
      skipLibCheck: false,
      types: [],
    };
    for (const resolution of ["nodenext", "bundler"]) {
      const config = `${nodeProject}/tsconfig.${resolution}.json`;
      await writeJson(config, {
        compilerOptions: {
          ...compilerOptions,
          module: resolution === "nodenext" ? "nodenext" : "esnext",
          moduleResolution: resolution,
        },
        files: ["consumer.ts"],
      });
      await run(bin("tsc"), ["-p", config], nodeProject);
    }
    // and a broken use is reported, so the check above is not vacuous
    await Deno.writeTextFile(
      `${nodeProject}/broken.ts`,
      `import { pack } from "@x/msgpackr";\nconst n: number = pack(1);\nconsole.log(n);\n`,
    );
    const broken = await new Deno.Command(bin("tsc"), {
      args: ["--noEmit", "--strict", "--module", "nodenext", "broken.ts"],
      cwd: nodeProject,
      stdout: "piped",
    }).output();
    const report = new TextDecoder().decode(broken.stdout);
    assert.match(report, /broken\.ts.*error TS2322/, report);
  });

  const bunProject = `${temp}/bun-project`;
  await step("bun add of the tarball in a fresh Bun project", async () => {
    await Deno.mkdir(bunProject);
    await writeJson(`${bunProject}/package.json`, {
      name: "bun-project",
      private: true,
      type: "module",
    });
    await Deno.copyFile(tarball, `${bunProject}/${tarballName}`);
    await run(bin("bun"), ["add", `./${tarballName}`], bunProject);
    const installed = JSON.parse(
      await Deno.readTextFile(`${bunProject}/node_modules/@x/msgpackr/package.json`),
    );
    assert.equal(installed.version, version);
  });

  await step("Bun runs the round trip and the TypeScript consumer", async () => {
    await Deno.copyFile(`${here}roundtrip.mjs`, `${bunProject}/roundtrip.mjs`);
    await Deno.copyFile(`${here}consumer.ts`, `${bunProject}/consumer.ts`);
    const out = await run(bin("bun"), ["roundtrip.mjs"], bunProject);
    console.log(out.trimEnd().replace(/^/gm, "  "));
    assert.match(out, /roundtrip on Bun .*: \d+ checks passed/);
    const consumer = await run(bin("bun"), ["consumer.ts"], bunProject);
    assert.match(consumer, /^consumer\.ts: ann /);
  });

  await step("the msgpackr command of the installed package runs with npx and bunx", async () => {
    const sample = [{ id: 1, name: "ann" }, { id: 2, name: "bob" }];
    await Deno.writeFile(`${nodeProject}/rows.mp`, new Packr().pack(sample));
    await Deno.writeFile(`${bunProject}/rows.mp`, new Packr().pack(sample));
    const help = await run("npx", ["--no-install", "msgpackr", "--help"], nodeProject);
    assert.match(help, /^Usage: msgpackr <command>/);
    const fromNode = await run(
      "npx",
      ["--no-install", "msgpackr", "decode", "rows.mp"],
      nodeProject,
    );
    assert.deepEqual(JSON.parse(fromNode), sample);
    const fromBun = await run(bin("bun"), ["x", "msgpackr", "decode", "rows.mp"], bunProject);
    assert.deepEqual(JSON.parse(fromBun), sample);
    const dump = await run(bin("bun"), ["x", "msgpackr", "inspect", "rows.mp"], bunProject);
    assert.match(dump, /record def 0x40 +\{id, name\}/);
  });

  await step(
    "npx @x/msgpackr and bunx @x/msgpackr decode and fetch another encoder's payload",
    async () => {
      // msgpack.packb({"id": 5000000000, "name": "Ada", "tags": ["x", "y"], "nested": {"a": 1}})
      // as Python writes it: a fixmap and a uint64
      const payload = Uint8Array.from(
        ("84a26964cf000000012a05f200a46e616d65a3416461a47461677392a178a179a66e6573746564" +
          "81a16101").match(/../g)!,
        (byte) => parseInt(byte, 16),
      );
      const expected = '{"id":5000000000,"name":"Ada","tags":["x","y"],"nested":{"a":1}}\n';
      for (const project of [nodeProject, bunProject]) {
        await Deno.writeFile(`${project}/f.bin`, payload);
        await Deno.writeTextFile(`${project}/f.b64`, btoa(String.fromCharCode(...payload)));
      }
      const fromNpx = await run(
        "npx",
        ["--no-install", "@x/msgpackr", "decode", "--ndjson", "f.bin"],
        nodeProject,
      );
      assert.equal(fromNpx, expected);
      const fromBunx = await run(
        bin("bunx"),
        ["@x/msgpackr", "decode", "--ndjson", "f.bin"],
        bunProject,
      );
      assert.equal(fromBunx, expected);
      const base64 = await run(
        "npx",
        ["--no-install", "@x/msgpackr", "decode", "--ndjson", "--base64", "f.b64"],
        nodeProject,
      );
      assert.equal(base64, expected);
      const pretty = await run(bin("bunx"), ["@x/msgpackr", "decode", "f.bin"], bunProject);
      assert.deepEqual(JSON.parse(pretty), JSON.parse(expected));
      // and straight from the tarball, in a directory where nothing is installed
      const bare = `${temp}/bare`;
      await Deno.mkdir(bare);
      await Deno.writeFile(`${bare}/f.bin`, payload);
      const npxTarball = await run(
        "npx",
        ["--yes", "--offline", `--package=${tarball}`, "msgpackr", "decode", "--ndjson", "f.bin"],
        bare,
      );
      assert.equal(npxTarball, expected);
      const bunxTarball = await run(
        bin("bunx"),
        ["--package", tarball, "msgpackr", "decode", "--ndjson", "f.bin"],
        bare,
      );
      assert.equal(bunxTarball, expected);
      // fetch under Node's and Bun's fetch, from a local server
      const server = Deno.serve(
        { hostname: "127.0.0.1", port: 0, onListen: () => {} },
        () => new Response(payload, { headers: { "content-type": "application/msgpack" } }),
      );
      try {
        const url = `http://127.0.0.1:${server.addr.port}/`;
        const fetchArgs = ["@x/msgpackr", "fetch", "--ndjson", url];
        assert.equal(await run("npx", ["--no-install", ...fetchArgs], nodeProject), expected);
        assert.equal(await run(bin("bunx"), fetchArgs, bunProject), expected);
      } finally {
        await server.shutdown();
      }
    },
  );
} finally {
  await Deno.remove(temp, { recursive: true });
}

console.log(`package: ${passed} passed, ${failed} failed`);
if (failed > 0) Deno.exit(1);
