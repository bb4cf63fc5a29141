// Copyright 2026 the @x/msgpackr authors. MIT license.
// http.ts facing senders it does not trust, over real HTTP on 127.0.0.1 (`Deno.serve` under Deno,
// `Bun.serve` under Bun): a reference bomb (a graph with 2^40 paths in about half a KB), a cycle,
// a RegExp and an Error are refused by `readBody` with a 400 naming the extension and its offset,
// at once and without growing the heap, and accepted when the server opts in; one value over
// 1 MiB is refused by `readBodyValues` (and `readBody` with `multiple`) with a 413; `fetchValue`
// and `fetchValues` read responses as plain data too. No timing assertions: a request that hung
// would fail by its (generous) timeout.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  DEFAULT_MAX_BODY_BYTES,
  fetchValue,
  fetchValues,
  HttpError,
  readBody,
  type ReadBodyOptions,
  readBodyValues,
  respond,
} from "../http.ts";
import { DecodeError, pack, Packr, Unpackr } from "../mod.ts";
import { heapBytes } from "../fuzz/_fuzz.ts";
import { collectGarbage } from "./_hostile.ts";
import { serve, type Server } from "./_http.ts";
import { concatBytes } from "../_core/bytes.ts";

const MiB = 1024 * 1024;
/** Long enough for any of these requests on a loaded machine; a hang would exceed it. */
const TIMEOUT_MS = 30_000;

const cloning = new Packr({ structuredClone: true });
const typed = new Packr({ moreTypes: true });

/** 40 levels, each an array holding the level below twice: 2^40 paths, as a tree. */
function referenceBomb(): unknown {
  let value: unknown = {};
  for (let level = 0; level < 40; level++) value = [value, value];
  return value;
}
const cycle: Record<string, unknown> = { name: "loop" };
cycle.self = cycle;

/** The hostile bodies: what each is, its bytes, and the extension the refusal must name. */
const BODIES: { name: string; bytes: Uint8Array<ArrayBuffer>; refusal: RegExp }[] = [
  {
    name: "reference bomb",
    bytes: cloning.pack(referenceBomb()),
    refusal:
      /^Refused MessagePack body: Structured clone reference extension is disabled \(plainDataOnly\) at offset \d+$/,
  },
  {
    name: "cycle",
    bytes: cloning.pack(cycle),
    refusal:
      /^Refused MessagePack body: Structured clone reference extension is disabled \(plainDataOnly\) at offset \d+$/,
  },
  {
    name: "RegExp",
    bytes: typed.pack({ pattern: /^(a+)+$/ }),
    refusal:
      /^Refused MessagePack body: RegExp extension is disabled \(plainDataOnly\) at offset \d+$/,
  },
  {
    name: "Error",
    bytes: typed.pack({ failure: new Error("boom") }),
    refusal:
      /^Refused MessagePack body: Error extension is disabled \(plainDataOnly\) at offset \d+$/,
  },
];

/** What the server says about a body it accepted, without walking it. */
function summary(body: unknown): unknown {
  if (Array.isArray(body)) {
    let depth = 0;
    let level: unknown = body;
    while (Array.isArray(level)) {
      if (level[0] !== level[1]) return { depth, shared: false };
      level = level[0];
      depth++;
    }
    return { depth, shared: true };
  }
  const object = body as Record<string, unknown>;
  if (object.self !== undefined) return { cycle: object.self === object };
  if (object.pattern instanceof RegExp) return { regexp: object.pattern.source };
  if (object.failure instanceof Error) return { error: object.failure.message };
  return { other: true };
}

const EXPECTED_SUMMARIES: Record<string, unknown> = {
  "reference bomb": { depth: 40, shared: true },
  cycle: { cycle: true },
  RegExp: { regexp: "^(a+)+$" },
  Error: { error: "boom" },
};

/** The server's decoding options, by path. */
const ROUTES: Record<string, ReadBodyOptions> = {
  "/strict": {},
  "/trusted": { plainDataOnly: false },
  "/trusted-unpackr": { unpackr: new Unpackr({ mapsAsObjects: true }) },
  "/multiple": { multiple: true, maxBytes: 8 * MiB },
};

let server: Server;
/** The responses the server sends for `fetchValue` and `fetchValues`. */
const REGEXP_RESPONSE = typed.pack(/x+/g);
const VALUES_RESPONSE = concatBytes([pack({ first: 1 }), typed.pack(/x+/g)]);

before(() => {
  server = serve(async (request) => {
    const path = new URL(request.url).pathname;
    try {
      if (path === "/values") {
        let count = 0;
        for await (const _ of readBodyValues(request)) count++;
        return respond(request, { count });
      }
      if (path === "/regexp-response" || path === "/values-response") {
        const bytes = path === "/regexp-response" ? REGEXP_RESPONSE : VALUES_RESPONSE;
        return new Response(bytes, { headers: { "content-type": "application/msgpack" } });
      }
      const body = await readBody(request, ROUTES[path]);
      return respond(
        request,
        path === "/multiple" ? { count: (body as unknown[]).length } : summary(body),
      );
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      const cause = error.cause instanceof Error ? error.cause.name : undefined;
      return respond(request, { error: error.message, cause }, { status: error.status });
    }
  });
});

after(async () => {
  await server.close();
});

/** A JSON reply of the server: a summary, a count, or `{ error, cause }`. */
type Reply = Record<string, unknown> & { error?: string; cause?: string };

async function post(path: string, body: BodyInit): Promise<{ status: number; body: Reply }> {
  const response = await fetch(`${server.url}${path.slice(1)}`, {
    method: "POST",
    headers: { "content-type": "application/msgpack", accept: "application/json" },
    body,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return { status: response.status, body: await response.json() as Reply };
}

describe("readBody refuses what plain data has no use for", () => {
  test("the bodies are what they claim: under 1 KB, and msgpackr reads them", () => {
    assert.ok(BODIES[0].bytes.length < 1024, `${BODIES[0].bytes.length} bytes`);
    const trusting = new Unpackr({ mapsAsObjects: true });
    for (const { name, bytes } of BODIES) {
      assert.deepEqual(summary(trusting.unpack(bytes)), EXPECTED_SUMMARIES[name], name);
    }
  });

  test("a reference bomb, a cycle, a RegExp and an Error: 400 naming the extension", async () => {
    for (const { name, bytes, refusal } of BODIES) {
      const { status, body } = await post("/strict", bytes);
      assert.equal(status, 400, name);
      assert.match(String(body.error), refusal, name);
      assert.equal(body.cause, "DecodeError", name);
    }
  });

  test("refusing them 50 times over grows the server's heap by less than 16 MB", async () => {
    collectGarbage();
    const before = heapBytes();
    for (let round = 0; round < 50; round++) {
      for (const { bytes } of BODIES) assert.equal((await post("/strict", bytes)).status, 400);
    }
    collectGarbage();
    const grown = heapBytes() - before;
    assert.ok(grown < 16 * MiB, `${(grown / MiB).toFixed(1)} MB`);
  });

  test("a server that trusts its peers accepts them: plainDataOnly: false, or its Unpackr", async () => {
    for (const path of ["/trusted", "/trusted-unpackr"]) {
      for (const { name, bytes } of BODIES) {
        const { status, body } = await post(path, bytes);
        assert.equal(status, 200, `${path} ${name}`);
        assert.deepEqual(body, EXPECTED_SUMMARIES[name], `${path} ${name}`);
      }
    }
  });

  test("what new Packr() writes still decodes: records, dates, bigints, bundles, undefined", async () => {
    const value = {
      id: 1,
      at: new Date(0),
      big: 2n ** 70n,
      rows: [{ a: 1, b: "x" }, { a: 2, b: "y" }],
      missing: undefined,
      error: new Error("as a plain array without moreTypes"),
      pattern: /also an array/,
    };
    const bytes = new Packr({ useBigIntExtension: true, bundleStrings: true }).pack(value);
    const request = new Request("http://localhost/", {
      method: "POST",
      headers: { "content-type": "application/msgpack" },
      body: bytes,
    });
    const decoded = await readBody<Record<string, unknown>>(request);
    assert.deepEqual(decoded, new Unpackr({ mapsAsObjects: true }).unpack(bytes));
    assert.equal(decoded.big, 2n ** 70n);
    assert.ok(decoded.at instanceof Date);
  });
});

describe("a bound on each value by default", () => {
  const twoMiB = pack("x".repeat(2 * MiB));

  test("readBodyValues refuses a 2 MiB value with 413, over HTTP and in one chunk", async () => {
    const { status, body } = await post("/values", twoMiB);
    assert.equal(status, 413);
    assert.match(String(body.error), /exceeds maxValueBytes \(1048576 bytes\)/);
    const request = new Request("http://localhost/", {
      method: "POST",
      headers: { "content-type": "application/msgpack" },
      body: concatBytes([pack(1), twoMiB]),
    });
    const seen: unknown[] = [];
    await assert.rejects(async () => {
      for await (const value of readBodyValues(request)) seen.push(value);
    }, (error) => {
      assert.ok(error instanceof HttpError);
      assert.equal(error.status, 413);
      assert.match(error.message, /^Body value at offset 1 exceeds maxValueBytes/);
      assert.ok(error.cause instanceof DecodeError);
      return true;
    });
    assert.deepEqual(seen, [1], "the values before it were read");
  });

  test("readBodyValues: values under the bound pass; maxValueBytes raises it", async () => {
    const halves = concatBytes([pack("y".repeat(MiB / 2)), pack("z".repeat(MiB / 2))]);
    assert.deepEqual((await post("/values", halves)).body, { count: 2 });
    const request = new Request("http://localhost/", {
      method: "POST",
      headers: { "content-type": "application/msgpack" },
      body: twoMiB,
    });
    const values = await Array.fromAsync(readBodyValues(request, { maxValueBytes: 4 * MiB }));
    assert.equal((values[0] as string).length, 2 * MiB);
  });

  test("readBodyValues: an NDJSON line or a JSON body over the bound is a 413 too", async () => {
    const line = `"${"x".repeat(2 * MiB)}"`;
    for (
      const [type, text] of [
        ["application/x-ndjson", `1\n${line}\n2\n`],
        ["application/json", line],
      ]
    ) {
      const response = new Response(text, { headers: { "content-type": type } });
      await assert.rejects(Array.fromAsync(readBodyValues(response)), {
        status: 413,
        message: /exceeds maxValueBytes/,
      });
    }
  });

  test("readBody with multiple: 413 for one value over maxValueBytes, maxBytes for the whole", async () => {
    const sequence = concatBytes([pack(1), twoMiB, pack(2)]);
    const { status, body } = await post("/multiple", sequence);
    assert.equal(status, 413);
    assert.match(
      String(body.error),
      /^Body value at offset 1 exceeds maxValueBytes \(1048576 bytes\)$/,
    );
    const small = concatBytes([pack(1), pack("y".repeat(MiB / 2)), pack(2)]);
    assert.deepEqual((await post("/multiple", small)).body, { count: 3 });
    // the default maxBytes (1 MiB) bounds the whole body
    const request = new Request("http://localhost/", {
      method: "POST",
      headers: { "content-type": "application/msgpack" },
      body: sequence,
    });
    await assert.rejects(readBody(request, { multiple: true }), {
      status: 413,
      message: `Body exceeds maxBytes (${DEFAULT_MAX_BODY_BYTES} bytes)`,
    });
  });
});

describe("fetchValue and fetchValues read responses as plain data", () => {
  test("fetchValue: a RegExp is a 502 whose cause is the 400; unpackrOptions opt in", async () => {
    const url = `${server.url}regexp-response`;
    await assert.rejects(fetchValue(url), (error) => {
      assert.ok(error instanceof HttpError);
      assert.equal(error.status, 502);
      assert.ok(error.cause instanceof HttpError);
      assert.equal(error.cause.status, 400);
      assert.match(
        error.cause.message,
        /RegExp extension is disabled \(plainDataOnly\) at offset 0/,
      );
      return true;
    });
    const pattern = await fetchValue(url, { unpackrOptions: { plainDataOnly: false } });
    assert.ok(pattern instanceof RegExp);
    const own = await fetchValue(url, { unpackr: new Unpackr() });
    assert.ok(own instanceof RegExp);
  });

  test("fetchValues: the values before the RegExp, then the 502; unpackrOptions opt in", async () => {
    const url = `${server.url}values-response`;
    const seen: unknown[] = [];
    await assert.rejects(async () => {
      for await (const value of fetchValues(url)) seen.push(value);
    }, { status: 502 });
    assert.deepEqual(seen, [{ first: 1 }]);
    const all = await Array.fromAsync(
      fetchValues(url, { unpackrOptions: { plainDataOnly: false } }),
    );
    assert.deepEqual(all[0], { first: 1 });
    assert.ok(all[1] instanceof RegExp);
  });
});
