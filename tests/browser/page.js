// Copyright 2026 the @x/msgpackr authors. MIT license.
// The browser test page's module. It loads the bundle the server serves for this page at
// ./bundle.js (dist/msgpackr-no-eval.js or dist/msgpackr.js), then packs and unpacks 1,000 records
// with shared structures, decodes a fetch response body through UnpackrStream, and packs and
// unpacks maps and records of repeated shapes with new instances. It reports
// its checks and the page's CSP violations (recorded by listen.js) as one console message,
// `__RESULT__{json}`, so the test runner never evaluates code in the page.

import { row } from "./rows.js";

/** @type {{ name: string, ok: boolean, detail: string }[]} */
const checks = [];
const started = performance.now();

/**
 * Records one check.
 *
 * @param {string} name
 * @param {unknown} ok
 * @param {unknown} [detail]
 */
function check(name, ok, detail = "") {
  checks.push({ name, ok: Boolean(ok), detail: String(detail) });
}

/**
 * Structural equality for the test values: primitives, bigints, dates, arrays, Maps, plain
 * objects (same keys in any order).
 *
 * @param {unknown} a
 * @param {unknown} b
 * @returns {boolean}
 */
function equal(a, b) {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length &&
      a.every((value, i) => equal(value, b[i]));
  }
  if (a instanceof Map || b instanceof Map) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && equal(a[key], b[key]));
}

/**
 * Where `actual` first differs from `expected` ("" when they are equal).
 *
 * @param {unknown[]} actual
 * @param {unknown[]} expected
 * @returns {string}
 */
function difference(actual, expected) {
  if (actual.length !== expected.length) return `${actual.length} values, not ${expected.length}`;
  const index = actual.findIndex((value, i) => !equal(value, expected[i]));
  return index === -1 ? "" : `first difference at index ${index}`;
}

async function main() {
  const bundle = new URL("./bundle.js", import.meta.url).href;
  const { pack, unpack, Packr, Unpackr, UnpackrStream, PackrStream } = await import(bundle);
  const rows = Array.from({ length: 1000 }, (_, id) => row(id));

  // standard MessagePack
  const plain = { a: 1, b: [true, null, "x"] };
  check("pack()/unpack() round trip a plain value", equal(unpack(pack(plain)), plain));

  // 1,000 records with shared structures, one message per record
  const structures = [];
  const packr = new Packr({ structures });
  const messages = rows.map((value) => packr.pack(value));
  check(
    "Packr with shared structures defines the 3 shapes",
    structures.length === 3,
    `${structures.length} shapes`,
  );
  const sharedBytes = messages.reduce((sum, message) => sum + message.length, 0);
  const mapBytes = rows.reduce((sum, value) => sum + pack(value).length, 0);
  check(
    "records with shared structures are smaller than maps",
    sharedBytes < mapBytes * 0.75,
    `${sharedBytes} bytes, as maps ${mapBytes}`,
  );
  const sameSide = new Unpackr({ structures });
  const decoded = messages.map((message) => sameSide.unpack(message));
  const sameSideDiff = difference(decoded, rows);
  check("Unpackr sharing the structures decodes 1,000 records", sameSideDiff === "", sameSideDiff);
  // the other side loads the structures from storage
  const otherSide = new Unpackr({ structures: unpack(pack(structures)) });
  // twice, so every shape is read often enough to be compiled where compiling is allowed
  for (let pass = 0; pass < 2; pass++) {
    const decodedAgain = messages.map((message) => otherSide.unpack(message));
    const diff = difference(decodedAgain, rows);
    check(
      `Unpackr with stored structures decodes 1,000 records (pass ${pass + 1})`,
      diff === "",
      diff,
    );
  }
  // all 1,000 records in one message
  const all = packr.pack(rows);
  const allDiff = difference(otherSide.unpack(all), rows);
  check("Unpackr decodes 1,000 records in one message", allDiff === "", allDiff);

  // records without shared structures: each shape is defined inline, once per message
  const inline = new Packr();
  const inlineDiff = difference(new Unpackr().unpack(inline.pack(rows)), rows);
  check("Packr/Unpackr round trip 1,000 inline records", inlineDiff === "", inlineDiff);

  // a fetch response body through UnpackrStream
  const count = 2000;
  const response = await fetch(`records.msgpack?count=${count}`);
  check("fetch(records.msgpack) answers 200", response.status === 200, `status ${response.status}`);
  let chunks = 0;
  const counter = new TransformStream({
    transform(chunk, controller) {
      chunks++;
      controller.enqueue(chunk);
    },
  });
  const reader = response.body.pipeThrough(counter).pipeThrough(new UnpackrStream()).getReader();
  const streamed = [];
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    streamed.push(next.value);
  }
  const expected = Array.from({ length: count }, (_, id) => row(id));
  const streamDiff = difference(streamed, expected);
  check(
    `UnpackrStream decodes ${count} records of a fetch body`,
    streamDiff === "",
    `${streamed.length} records from ${chunks} network chunks${streamDiff && `, ${streamDiff}`}`,
  );

  // PackrStream in the page, back through UnpackrStream
  const source = new ReadableStream({
    start(controller) {
      for (const value of rows) controller.enqueue(value);
      controller.close();
    },
  });
  const echoed = [];
  const echo = source.pipeThrough(new PackrStream()).pipeThrough(new UnpackrStream()).getReader();
  for (let next = await echo.read(); !next.done; next = await echo.read()) echoed.push(next.value);
  const echoDiff = difference(echoed, rows);
  check("PackrStream to UnpackrStream round trips 1,000 records", echoDiff === "", echoDiff);

  // more of the session: plain maps and records of repeated shapes, packed and unpacked by new
  // instances, each shape many times (where code generation is refused, the first refusal above
  // turned it off for the page: the runner counts the violations)
  const maps = rows.map((value) => ({ id: value.id, city: value.address.city, tags: value.tags }));
  const sessionDiffs = [];
  for (let pass = 0; pass < 3; pass++) {
    const mapPackr = new Packr({ useRecords: false });
    sessionDiffs.push(difference(mapPackr.unpack(mapPackr.pack(maps)), maps));
    sessionDiffs.push(difference(unpack(pack(maps)), maps));
    const recordPackr = new Packr();
    sessionDiffs.push(difference(new Unpackr().unpack(recordPackr.pack(maps)), maps));
  }
  const sessionDiff = sessionDiffs.find((diff) => diff !== "") ?? "";
  check(
    "maps and records of repeated shapes round trip, three times over",
    sessionDiff === "",
    sessionDiff,
  );

  // canonical bytes: the same here as on Deno, Bun and Node (tests/canonical_test.ts), one NaN
  // whatever its bits (V8 would write this one's sign and payload)
  const nan = new Float64Array(new Uint32Array([0, 0xfff80000]).buffer)[0];
  const value = {
    z: [nan, 2 ** 40, -0, "\u00e9\ud800"],
    a: new Map([["b", 1], [2, null], ["a", 5n]]),
  };
  const canonicalHex = Array.from(
    new Packr({ canonical: true }).pack(value),
    (byte) => byte.toString(16).padStart(2, "0"),
  ).join("");
  const expectedHex = "82a1618302c0a161cf0000000000000005a16201a17a94cb7ff8000000000000" +
    "cf000001000000000000a5c3a9efbfbd";
  check(
    "canonical: true writes the bytes every runtime writes",
    canonicalHex === expectedHex,
    canonicalHex,
  );
}

async function finish() {
  // violation events are dispatched in tasks of their own: let them arrive
  await new Promise((resolve) => setTimeout(resolve, 300));
  const result = {
    checks,
    violations: Reflect.get(globalThis, "__violations"),
    errors: Reflect.get(globalThis, "__errors"),
    milliseconds: Math.round(performance.now() - started),
  };
  Reflect.set(globalThis, "__result", result);
  document.getElementById("status").textContent = "done";
  console.log(`__RESULT__${JSON.stringify(result)}`);
}

main().catch((error) => check("the page script runs", false, error?.stack ?? error)).finally(
  finish,
);
