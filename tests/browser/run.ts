// Copyright 2026 the @x/msgpackr authors. MIT license.

/**
 * The browser test: Debian's Chromium (`/usr/bin/chromium`, or `$CHROMIUM`) driven by
 * playwright-core loads test pages from a server on 127.0.0.1 that sends a
 * Content-Security-Policy header, and checks the browser bundles in `dist/` (build them first:
 * `deno run -A scripts/build.ts --browser`, which `npm run test:browser` does).
 *
 * Each page (index.html, listen.js, page.js) loads the bundle of its case as `./bundle.js`,
 * packs and unpacks 1,000 records with shared structures, decodes a `fetch` body streamed by
 * this server (records.msgpack, written with our PackrStream) through `UnpackrStream`, packs
 * and unpacks maps and records of repeated shapes with new instances, checks the bytes of
 * `canonical: true`, and reports its checks and every `securitypolicyviolation` event of the
 * page:
 *
 * 1. no-eval bundle, `script-src 'self'`: every check passes, zero violations.
 * 2. default bundle, `script-src 'self'`: every check passes. The default bundle tries to
 *    generate a record reader or a writer with `new Function`; the CSP refuses, which the page
 *    reports as exactly one violation event (expected here: it proves the refusal happened; the
 *    refusal turns off both compilers, so the session causes no other), and packing and
 *    decoding fall back silently to their generic paths.
 * 3. no-eval bundle, `script-src 'self'; require-trusted-types-for 'script'`: every check
 *    passes, zero violations.
 * 4. default bundle, `require-trusted-types-for 'script'` only: every check passes; Trusted
 *    Types refuse `new Function` (exactly one violation), and the codec falls back silently.
 *
 * It also checks that the no-eval bundle's text contains no `new Function`, `Function(` or
 * `eval(`. Run with `npm run test:browser` or `deno run -A tests/browser/run.ts`; not part of
 * `npm test`. Prints `browser: N passed, N failed` and exits non-zero on any failure.
 *
 * @module
 */

import type { Browser } from "playwright-core";
import { PackrStream } from "../../stream.ts";
import { row } from "./rows.js";
import { CHROMIUM, launchChromium } from "./_chromium.ts";

const here = new URL("./", import.meta.url);
const dist = new URL("../../dist/", import.meta.url);
const PAGE_TIMEOUT_MS = 60_000;
const CODE_GENERATION = /\bnew\s+Function\b|(?<![\w$])Function\s*\(|(?<![\w$])eval\s*\(/;

interface Case {
  /** URL path segment of the case's pages. */
  name: string;
  /** The bundle in dist/ served as the page's ./bundle.js. */
  bundle: string;
  /** The Content-Security-Policy header of every response of the case. */
  csp: string;
  /** Whether one CSP violation event is expected (the default bundle's refused compile). */
  violationsExpected: boolean;
}

const CASES: Case[] = [
  {
    name: "no-eval",
    bundle: "msgpackr-no-eval.js",
    csp: "script-src 'self'",
    violationsExpected: false,
  },
  {
    name: "default",
    bundle: "msgpackr.js",
    csp: "script-src 'self'",
    violationsExpected: true,
  },
  {
    name: "no-eval-trusted-types",
    bundle: "msgpackr-no-eval.js",
    csp: "script-src 'self'; require-trusted-types-for 'script'",
    violationsExpected: false,
  },
  {
    name: "default-trusted-types",
    bundle: "msgpackr.js",
    csp: "require-trusted-types-for 'script'",
    violationsExpected: true,
  },
];

/** Files of this folder a page may load, with their content types. */
const PAGE_FILES: Record<string, string> = {
  "": "text/html; charset=utf-8",
  "listen.js": "text/javascript; charset=utf-8",
  "page.js": "text/javascript; charset=utf-8",
  "rows.js": "text/javascript; charset=utf-8",
};

interface PageResult {
  checks: { name: string; ok: boolean; detail: string }[];
  violations: { directive: string; blockedURI: string; sample: string; source: string }[];
  errors: string[];
  milliseconds: number;
}

let passed = 0;
let failed = 0;

function expect(name: string, ok: boolean, detail = ""): void {
  if (ok) passed++;
  else failed++;
  console.log(`  ${ok ? "ok" : "FAILED"} ${name}${detail ? ` (${detail})` : ""}`);
}

/** MessagePack records streamed the way a server would: PackrStream over an async source. */
function recordStream(count: number): ReadableStream<Uint8Array> {
  async function* records() {
    for (let id = 0; id < count; id++) {
      yield row(id);
      // let the network see many chunks
      if (id % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
  return ReadableStream.from(records()).pipeThrough(new PackrStream({ coalesceBytes: 4096 }));
}

const unexpectedRequests: string[] = [];

async function handle(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const [, caseName, file = ""] = url.pathname.split("/");
  const testCase = CASES.find((entry) => entry.name === caseName);
  if (testCase === undefined) {
    if (url.pathname !== "/favicon.ico") unexpectedRequests.push(url.pathname);
    return new Response("Not found", { status: 404 });
  }
  const headers = new Headers({
    "content-security-policy": testCase.csp,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  if (file === "bundle.js") {
    headers.set("content-type", "text/javascript; charset=utf-8");
    return new Response(await Deno.readFile(new URL(testCase.bundle, dist)), { headers });
  }
  if (file === "records.msgpack") {
    headers.set("content-type", "application/msgpack");
    const count = Number(url.searchParams.get("count") ?? "1000");
    return new Response(recordStream(count), { headers });
  }
  if (file in PAGE_FILES) {
    headers.set("content-type", PAGE_FILES[file]);
    return new Response(await Deno.readFile(new URL(file || "index.html", here)), { headers });
  }
  unexpectedRequests.push(url.pathname);
  return new Response("Not found", { status: 404, headers });
}

function checkBundleTexts(): void {
  console.log("- bundle texts");
  for (const testCase of CASES) {
    try {
      Deno.statSync(new URL(testCase.bundle, dist));
    } catch {
      throw new Error(`dist/${testCase.bundle} is missing: run deno run -A scripts/build.ts`);
    }
  }
  const noEval = Deno.readTextFileSync(new URL("msgpackr-no-eval.js", dist));
  const found = noEval.match(CODE_GENERATION);
  expect(
    "dist/msgpackr-no-eval.js contains no new Function, Function( or eval(",
    found === null,
    found?.[0],
  );
  const defaultBundle = Deno.readTextFileSync(new URL("msgpackr.js", dist));
  expect(
    "dist/msgpackr.js contains new Function (so the check above can see it)",
    CODE_GENERATION.test(defaultBundle),
  );
}

async function runCase(
  browser: Browser,
  origin: string,
  testCase: Case,
): Promise<void> {
  console.log(`- ${testCase.name}: dist/${testCase.bundle}, CSP "${testCase.csp}"`);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const pageErrors: string[] = [];
    const consoleErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(String(error)));
    const reported = new Promise<PageResult>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`No result within ${PAGE_TIMEOUT_MS} ms`)),
        PAGE_TIMEOUT_MS,
      );
      page.on("console", (message) => {
        const text = message.text();
        if (text.startsWith("__RESULT__")) {
          clearTimeout(timer);
          resolve(JSON.parse(text.slice("__RESULT__".length)));
        } else if (message.type() === "error") {
          consoleErrors.push(text);
        }
      });
    });
    const response = await page.goto(`${origin}/${testCase.name}/`);
    const csp = response?.headers()["content-security-policy"];
    expect(
      "the page is served with the CSP header",
      csp === testCase.csp,
      csp === testCase.csp ? "" : JSON.stringify(response?.headers()),
    );
    const result = await reported;
    for (const check of result.checks) expect(check.name, check.ok, check.detail);
    expect(
      "the page ran every check",
      result.checks.length === 13,
      `${result.checks.length} checks`,
    );
    expect(
      "no page errors",
      pageErrors.length + result.errors.length === 0,
      [
        ...pageErrors,
        ...result.errors,
      ].join("; "),
    );
    const violations = result.violations;
    const described = violations.map((v) => `${v.directive} ${v.blockedURI} at ${v.source}`);
    if (testCase.violationsExpected) {
      // expected: the default bundle's first compile attempt was refused, and it was the last
      expect(
        `the refused new Function shows as one violation (${violations.length}) in the session`,
        violations.length === 1 &&
          violations.every((v) =>
            v.blockedURI === "eval" || v.directive === "require-trusted-types-for" ||
            v.directive === "trusted-types"
          ),
        described.join("; ") || "no violation: the CSP was not enforced",
      );
    } else {
      expect("zero securitypolicyviolation events", violations.length === 0, described.join("; "));
      expect("no console errors", consoleErrors.length === 0, consoleErrors.join("; "));
    }
    console.log(`    page time ${result.milliseconds} ms`);
  } finally {
    await context.close();
  }
}

const started = performance.now();
let fatal: unknown = null;
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handle);
const origin = `http://127.0.0.1:${server.addr.port}`;
try {
  checkBundleTexts();
  const browser = await launchChromium();
  try {
    console.log(`- ${CHROMIUM}: ${browser.version()}, serving ${origin}`);
    for (const testCase of CASES) {
      try {
        await runCase(browser, origin, testCase);
      } catch (error) {
        expect(`${testCase.name} page reported a result`, false, String(error));
      }
    }
  } finally {
    await browser.close();
  }
  expect("no unexpected requests", unexpectedRequests.length === 0, unexpectedRequests.join(" "));
} catch (error) {
  fatal = error;
} finally {
  await server.shutdown();
}
if (fatal !== null) {
  console.error(fatal);
  failed++;
}
console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
console.log(`browser: ${passed} passed, ${failed} failed`);
if (failed > 0) Deno.exit(1);
