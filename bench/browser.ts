// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * The browser benchmark: the browser bundles of `dist/` in Debian's Chromium (launched as the
 * browser test launches it), against msgpackr's browser build and JSON, packing and unpacking the
 * payloads of `_payloads.ts`, plain and as records.
 *
 *   deno run -A bench/browser.ts [--no-build] [--pairs=<n>] [--payload=<substring>] [--json]
 *   (npm run bench:browser)
 *
 * Each build is measured on a page of its own, served from 127.0.0.1 by this script:
 *
 * - default: `dist/msgpackr.js` against msgpackr's `dist/index.min.js`, without a
 *   Content-Security-Policy, so both compile their record readers;
 * - no-eval: `dist/msgpackr-no-eval.js` against msgpackr's `dist/index-no-eval.min.js`, under
 *   `Content-Security-Policy: script-src 'self'`, as a strict page runs them.
 *
 * The page (`_browser_page.ts`, bundled by `deno bundle` when this starts) receives the payloads
 * packed, and times each comparison as `paired.ts` does: pairs of slices of calls, ours and the
 * rival back to back, the order alternating; a cell is the median of the pairs' ratios (the
 * rival's time / ours). The pages are cross-origin isolated (COOP and COEP headers), which gives
 * them Chromium's finer `performance.now()`. A CSP violation or an error on a page fails the run.
 *
 * First it builds the browser bundles (`scripts/build.ts --browser`) unless `--no-build`. Prints
 * markdown tables (our time per call and the ratios against msgpackr and JSON, per build), or
 * with `--json` one {@linkcode BrowserRun}, which `report.ts` writes into bench/RESULTS.md.
 */

import type { Browser } from "playwright-core";
import { Packr } from "../mod.ts";
import type { PageReport } from "./_browser_page.ts";
import { payloads } from "./_payloads.ts";
import { browserSection } from "./_results_table.ts";
import { option } from "./_runtime.ts";
import type { PairedCell } from "./paired.ts";
import { launchChromium } from "../tests/browser/_chromium.ts";

/** One build measured on its page. */
export interface BrowserBuildRun {
  /** "default" or "no-eval". */
  name: string;
  /** Our bundle, in the package ("dist/msgpackr.js"). */
  bundle: string;
  /** msgpackr's bundle it is compared with, in msgpackr's package ("dist/index.min.js"). */
  rival: string;
  /** The page's Content-Security-Policy, if any. */
  csp?: string;
  cells: PairedCell[];
}

/** What `browser.ts --json` prints. */
export interface BrowserRun {
  /** "Chromium 139.0.7258.154". */
  browser: string;
  pairs: number;
  sliceMs: number;
  /** Whether the pages were cross-origin isolated (the finer timer). */
  crossOriginIsolated: boolean;
  builds: BrowserBuildRun[];
}

const ROOT = decodeURIComponent(new URL("..", import.meta.url).pathname);
const PAIRS = Number(option("pairs") ?? 40);
const PAYLOAD = option("payload") ?? "";
const JSON_OUTPUT = Deno.args.includes("--json");
const BUILD = !Deno.args.includes("--no-build");
/** Milliseconds of calls one slice times, and unmeasured pairs first: as `paired.ts`. */
const SLICE_MS = 3;
const WARM_UP_PAIRS = 15;
/** A page that reports nothing for this long has failed. */
const SILENCE_MS = 120_000;

/** The builds measured, each with its rival of the same kind. */
const BUILDS: readonly Omit<BrowserBuildRun, "cells">[] = [
  { name: "default", bundle: "dist/msgpackr.js", rival: "dist/index.min.js" },
  {
    name: "no-eval",
    bundle: "dist/msgpackr-no-eval.js",
    rival: "dist/index-no-eval.min.js",
    csp: "script-src 'self'",
  },
];

/** msgpackr's browser build sets the global `msgpackr` before the page's module runs. */
const PAGE_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>@x/msgpackr browser benchmark</title>
    <link rel="icon" href="data:,">
    <script src="msgpackr.js"></script>
    <script type="module" src="page.js"></script>
  </head>
  <body></body>
</html>
`;

/** Runs a command in the repository; returns its standard output, or throws with its output. */
async function run(command: string, args: string[]): Promise<Uint8Array<ArrayBuffer>> {
  const output = await new Deno.Command(command, { args, cwd: ROOT, stdout: "piped" }).output();
  if (!output.success) throw new Error(`${command} ${args.join(" ")} exited with ${output.code}`);
  return output.stdout;
}

/** The files a page loads, by name, with their content types. */
async function pageFiles(
  build: Omit<BrowserBuildRun, "cells">,
  pageScript: Uint8Array<ArrayBuffer>,
  payloadBytes: Uint8Array<ArrayBuffer>,
): Promise<Map<string, [Uint8Array<ArrayBuffer>, string]>> {
  const script = "text/javascript; charset=utf-8";
  return new Map([
    ["", [new TextEncoder().encode(PAGE_HTML), "text/html; charset=utf-8"]],
    ["page.js", [pageScript, script]],
    ["bundle.js", [await Deno.readFile(`${ROOT}${build.bundle}`), script]],
    ["msgpackr.js", [await Deno.readFile(`${ROOT}node_modules/msgpackr/${build.rival}`), script]],
    ["payloads.msgpack", [payloadBytes, "application/msgpack"]],
  ]);
}

/** Measures one build on its page; throws when the page fails. */
async function measure(
  browser: Browser,
  origin: string,
  build: Omit<BrowserBuildRun, "cells">,
): Promise<{ cells: PairedCell[]; crossOriginIsolated: boolean }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cells: PairedCell[] = [];
    const finished = new Promise<boolean>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const silence = () => {
        clearTimeout(timer);
        timer = setTimeout(
          () => reject(new Error(`${build.name}: no report for ${SILENCE_MS} ms`)),
          SILENCE_MS,
        );
      };
      silence();
      page.on("pageerror", (error) => {
        clearTimeout(timer);
        reject(new Error(`${build.name}: page error ${error}`));
      });
      page.on("console", (message) => {
        const text = message.text();
        if (!text.startsWith("__BENCH__")) return;
        const report = JSON.parse(text.slice("__BENCH__".length)) as PageReport;
        if ("cell" in report) {
          silence();
          cells.push(report.cell);
          const { payload, mine, rival, operation, median, low, high } = report.cell;
          console.error(
            `${build.name} / ${payload} / ${mine} vs ${rival} ${operation}: ` +
              `${median.toFixed(2)}× (${low.toFixed(2)}–${high.toFixed(2)})`,
          );
          return;
        }
        clearTimeout(timer);
        if ("error" in report) {
          reject(new Error(`${build.name}: ${report.error}`));
        } else if (report.done.violations.length > 0) {
          reject(new Error(`${build.name}: CSP violations: ${report.done.violations.join("; ")}`));
        } else {
          resolve(report.done.crossOriginIsolated);
        }
      });
    });
    const settings = new URLSearchParams({
      pairs: String(PAIRS),
      sliceMs: String(SLICE_MS),
      warmUpPairs: String(WARM_UP_PAIRS),
      noEval: String(build.name === "no-eval"),
      payload: PAYLOAD,
    });
    const response = await page.goto(`${origin}/${build.name}/?${settings}`);
    const csp = response?.headers()["content-security-policy"];
    if (csp !== build.csp) {
      throw new Error(`${build.name}: the page came with CSP ${csp}, not ${build.csp}`);
    }
    return { cells, crossOriginIsolated: await finished };
  } finally {
    await context.close();
  }
}

if (BUILD) {
  await Deno.stderr.write(
    await run(Deno.execPath(), ["run", "-A", "scripts/build.ts", "--browser"]),
  );
}
const pageScript = await run(Deno.execPath(), [
  "bundle",
  "--quiet",
  "--platform=browser",
  "--format=esm",
  "bench/_browser_page.ts",
]);
// a copy that owns its ArrayBuffer, as a response body must
const payloadBytes = new Uint8Array(new Packr({ useRecords: false }).pack(payloads()));
const files = new Map<string, Map<string, [Uint8Array<ArrayBuffer>, string]>>();
for (const build of BUILDS) files.set(build.name, await pageFiles(build, pageScript, payloadBytes));

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
  const [, buildName, file = ""] = new URL(request.url).pathname.split("/");
  const found = files.get(buildName)?.get(file);
  if (found === undefined) return new Response("Not found", { status: 404 });
  const headers = new Headers({
    "content-type": found[1],
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-embedder-policy": "require-corp",
  });
  const csp = BUILDS.find((build) => build.name === buildName)?.csp;
  if (csp !== undefined) headers.set("content-security-policy", csp);
  return new Response(found[0], { headers });
});

let result: BrowserRun;
try {
  const browser = await launchChromium();
  try {
    const builds: BrowserBuildRun[] = [];
    let isolated = true;
    for (const build of BUILDS) {
      const { cells, crossOriginIsolated } = await measure(
        browser,
        `http://127.0.0.1:${server.addr.port}`,
        build,
      );
      builds.push({ ...build, cells });
      isolated &&= crossOriginIsolated;
    }
    result = {
      browser: `Chromium ${browser.version()}`,
      pairs: PAIRS,
      sliceMs: SLICE_MS,
      crossOriginIsolated: isolated,
      builds,
    };
  } finally {
    await browser.close();
  }
} catch (error) {
  console.error(error);
  Deno.exit(1);
} finally {
  await server.shutdown();
}

if (JSON_OUTPUT) console.log(JSON.stringify(result));
else console.log(browserSection(result, "###").join("\n"));
