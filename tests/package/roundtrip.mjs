// Copyright 2026 the @x/msgpackr authors. MIT license.
// A round trip through the installed npm package, as a plain-JavaScript user writes it. Run by
// tests/package/run.ts with Node and with Bun in fresh projects that installed the tarball.

import assert from "node:assert/strict";
import {
  addExtension,
  clearSource,
  DecodeError,
  IncompleteDataError,
  mapsAsObjects,
  pack,
  Packr,
  unpack,
  Unpackr,
  useRecords,
} from "@x/msgpackr";
import * as packEntry from "@x/msgpackr/pack";
import * as unpackEntry from "@x/msgpackr/unpack";
import {
  decodeIter,
  DecoderStream,
  encodeIter,
  EncoderStream,
  PackrStream,
  UnpackrStream,
} from "@x/msgpackr/stream";
import * as noEval from "@x/msgpackr/no-eval";
import { fetchValue, HttpError, readBody, respond, ValidationError } from "@x/msgpackr/http";
import { msgpackValidator, reply } from "@x/msgpackr/hono";
import { msgpack } from "@x/msgpackr/elysia";

const runtime = typeof Bun === "undefined"
  ? `Node ${process.versions.node}`
  : `Bun ${globalThis.Bun.version}`;
let checks = 0;
function check(name, fn) {
  fn();
  checks++;
  console.log(`  ok ${name}`);
}
async function checkAsync(name, fn) {
  await fn();
  checks++;
  console.log(`  ok ${name}`);
}
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(" ");

check("the package resolves to the built JavaScript", () => {
  for (
    const [specifier, file] of [
      ["@x/msgpackr", "mod.js"],
      ["@x/msgpackr/pack", "pack.js"],
      ["@x/msgpackr/unpack", "unpack.js"],
      ["@x/msgpackr/stream", "stream.js"],
      ["@x/msgpackr/no-eval", "no_eval.js"],
      ["@x/msgpackr/http", "http.js"],
      ["@x/msgpackr/hono", "hono.js"],
      ["@x/msgpackr/elysia", "elysia.js"],
    ]
  ) {
    const resolved = String(import.meta.resolve(specifier)).replaceAll("\\", "/");
    assert.ok(
      resolved.endsWith(`/node_modules/@x/msgpackr/dist/npm/${file}`),
      `${specifier} resolved to ${resolved}`,
    );
  }
});

check("every entry shares one copy of each class", () => {
  assert.equal(packEntry.Packr, Packr);
  assert.equal(unpackEntry.Unpackr, Unpackr);
  assert.equal(noEval.Packr, Packr);
  assert.equal(noEval.UnpackrStream, UnpackrStream);
});

check(
  "pack() writes standard MessagePack (objects as map16, as msgpackr) and unpack() reads it",
  () => {
    const value = { a: 1, b: [true, null, "x"], c: -1.5 };
    const bytes = pack(value);
    assert.ok(bytes instanceof Uint8Array);
    assert.equal(
      hex(bytes),
      "de 00 03 a1 61 01 a1 62 93 c3 c0 a1 78 a1 63 cb bf f8 00 00 00 00 00 00",
    );
    assert.deepEqual(unpack(bytes), value);
  },
);

check("code written for msgpackr runs as written", () => {
  const { pack: packDetached, unpack: unpackDetached } = new Packr({ structures: [] });
  assert.deepEqual(unpackDetached(packDetached({ a: 1 })), { a: 1 });
  assert.equal(useRecords, false);
  assert.equal(mapsAsObjects, true);
  clearSource();
  unpackEntry.clearSource();
  assert.equal(unpackEntry.addExtension, addExtension);
  assert.equal(packEntry.Unpackr, Unpackr);
  assert.equal(EncoderStream, PackrStream);
  assert.equal(DecoderStream, UnpackrStream);
  assert.deepEqual([...decodeIter([...encodeIter([1, "two"])])], [1, "two"]);
  const packr = new Packr({ useRecords: false });
  packr.useFloat32 = 1; // ALWAYS
  assert.equal(hex(packr.pack(1.5)), "ca 3f c0 00 00");
  assert.throws(() => (packr.useRecords = true), TypeError);
});

const rows = Array.from({ length: 1000 }, (_, id) => ({
  id,
  name: `user ${id}`,
  active: id % 3 === 0,
  score: id / 4,
  tags: id % 2 === 0 ? ["even"] : [],
  joined: new Date(Date.UTC(2024, 0, 1 + (id % 365))),
  balance: BigInt(id) * 10_000_000_000n,
}));

check("Packr writes 1,000 records that Packr, Unpackr and unpack() read", () => {
  const packr = new Packr();
  const bytes = packr.pack(rows);
  assert.ok(bytes.length < pack(rows).length, "records are smaller than maps");
  assert.deepEqual(packr.unpack(bytes), rows);
  assert.deepEqual(new Unpackr().unpack(bytes), rows);
  assert.deepEqual(unpack(bytes), rows);
  assert.deepEqual(new noEval.Unpackr().unpack(bytes), rows);
});

check("Packr with shared structures round trips 1,000 records", () => {
  const structures = [];
  const packr = new Packr({ structures });
  const messages = rows.map((row) => packr.pack(row));
  assert.ok(structures.length > 0);
  const decoder = new Unpackr({ structures: unpack(pack(structures)) });
  assert.deepEqual(messages.map((message) => decoder.unpack(message)), rows);
});

check("structuredClone keeps cycles and Maps, Sets", () => {
  const packr = new Packr({ structuredClone: true });
  const value = { map: new Map([[1, "one"]]), set: new Set(["s"]) };
  value.self = value;
  const copy = packr.unpack(packr.pack(value));
  assert.equal(copy.self, copy);
  assert.deepEqual(copy.map, value.map);
  assert.deepEqual(copy.set, value.set);
});

check("addExtension registers a global extension", () => {
  class Point {
    constructor(x, y) {
      this.x = x;
      this.y = y;
    }
  }
  addExtension({
    Class: Point,
    type: 42,
    write: (point) => [point.x, point.y],
    read: ([x, y]) => new Point(x, y),
  });
  const copy = unpack(pack(new Point(1, 2)));
  assert.ok(copy instanceof Point);
  assert.deepEqual(copy, new Point(1, 2));
});

check("unpack() throws DecodeError and IncompleteDataError", () => {
  const bytes = pack({ id: 1, name: "truncated" });
  assert.throws(() => unpack(bytes.subarray(0, bytes.length - 2)), (error) => {
    assert.ok(error instanceof IncompleteDataError);
    assert.ok(error instanceof DecodeError);
    assert.ok(error instanceof SyntaxError);
    assert.equal(error.incomplete, true);
    return true;
  });
  assert.throws(() => new Unpackr().unpack(new Uint8Array([0x01, 0x02])), DecodeError); // trailing byte
});

/** A ReadableStream of `values`, one per pull. */
function streamOf(values) {
  let index = 0;
  return new ReadableStream({
    pull(controller) {
      if (index < values.length) controller.enqueue(values[index++]);
      else controller.close();
    },
  });
}

/** Splits the bytes of `stream` into chunks of `size` bytes. */
async function rechunk(stream, size) {
  const bytes = [];
  for await (const chunk of stream) bytes.push(...chunk);
  const chunks = [];
  for (let i = 0; i < bytes.length; i += size) {
    chunks.push(new Uint8Array(bytes.slice(i, i + size)));
  }
  return chunks;
}

await checkAsync("PackrStream and UnpackrStream round trip 1,000 records", async () => {
  const chunks = await rechunk(streamOf(rows).pipeThrough(new PackrStream()), 7);
  const decoded = [];
  for await (const row of streamOf(chunks).pipeThrough(new UnpackrStream())) decoded.push(row);
  assert.deepEqual(decoded, rows);
});

await checkAsync("encodeIter and decodeIter round trip", async () => {
  const decoded = [];
  for await (const row of decodeIter(encodeIter(rows.slice(0, 100)))) decoded.push(row);
  assert.deepEqual(decoded, rows.slice(0, 100));
});

await checkAsync("UnpackrStream decodes a Response body", async () => {
  const body = streamOf(rows).pipeThrough(new PackrStream({ useRecords: false }));
  const response = new Response(body);
  const decoded = [];
  const decoder = new UnpackrStream({ mapsAsObjects: true });
  for await (const row of response.body.pipeThrough(decoder)) decoded.push(row);
  assert.deepEqual(decoded, rows);
});

await checkAsync("respond, readBody and fetchValue negotiate and round trip", async () => {
  const value = { id: 1, tags: ["a"], when: new Date(0) };
  const accept = "application/msgpack, application/json;q=0.9";
  const msgpack = respond(new Request("http://localhost/", { headers: { accept } }), value);
  assert.equal(msgpack.headers.get("content-type"), "application/msgpack");
  assert.equal(msgpack.headers.get("vary"), "Accept");
  assert.deepEqual(await readBody(msgpack), value);
  const json = respond(new Request("http://localhost/"), value);
  assert.equal(json.headers.get("content-type"), "application/json");
  assert.equal(await json.text(), '{"id":1,"tags":["a"],"when":"1970-01-01T00:00:00.000Z"}');
  const echo = async (input, init) => {
    const request = new Request(input, init);
    try {
      return respond(request, { received: await readBody(request) });
    } catch (error) {
      return respond(request, { error: error.message }, { status: error.status });
    }
  };
  // http reads a 64-bit integer as a number when it is safe, as a bigint beyond.
  const body = [1n, 2n ** 60n, "x"];
  assert.deepEqual(await fetchValue("http://localhost/", { body, fetch: echo }), {
    received: [1, 2n ** 60n, "x"],
  });
  await assert.rejects(fetchValue("http://localhost/", { fetch: echo }), (error) => {
    assert.ok(error instanceof HttpError);
    assert.equal(error.status, 415);
    return true;
  });
});

// the framework entries run with neither framework installed (this project has only the package):
// a Standard Schema and the contexts they are given are plain objects here
await checkAsync("hono and elysia entries need neither framework; schemas validate", async () => {
  const schema = {
    "~standard": {
      version: 1,
      vendor: "test",
      validate: (value) =>
        typeof value?.id === "number"
          ? { value: { id: value.id + 1 } }
          : { issues: [{ message: "id must be a number", path: ["id"] }] },
    },
  };
  const post = (body) =>
    new Request("http://localhost/", {
      method: "POST",
      headers: { "content-type": "application/msgpack" },
      body: pack(body),
    });
  assert.deepEqual(await readBody(post({ id: 1 }), { schema }), { id: 2 });
  assert.throws(() => new Unpackr({ mapsAsObjects: true }).unpackAs(schema, pack({ id: "x" })), {
    name: "ValidationError",
    message: "Invalid value at $.id: id must be a number",
  });
  assert.ok(new ValidationError([{ message: "m" }]) instanceof TypeError);
  // a Hono-like context: the validated value, then the handler's negotiated reply
  const validated = {};
  const context = (request) => ({
    req: { raw: request, addValidatedData: (target, value) => (validated[target] = value) },
    newResponse: (body, init) => new Response(body, init),
  });
  const middleware = msgpackValidator(schema);
  let called = false;
  await middleware(context(post({ id: 41 })), () => {
    called = true;
    return Promise.resolve();
  });
  assert.equal(called, true);
  assert.deepEqual(validated, { json: { id: 42 } });
  const refused = await middleware(context(post({ id: "x" })), async () => {});
  assert.equal(refused.status, 400);
  assert.deepEqual(await refused.json(), {
    error: "Invalid body at $.id: id must be a number",
    issues: [{ message: "id must be a number", path: ["id"] }],
  });
  const answered = reply(context(new Request("http://localhost/")), { ok: true }, { status: 201 });
  assert.equal(answered.status, 201);
  assert.equal(await answered.text(), '{"ok":true}');
  // an Elysia-like app: the plugin adds its three hooks and gives the app back
  const hooks = [];
  const app = {
    onParse: (options, hook) => hooks.push(["parse", options, hook]),
    mapResponse: (options, hook) => hooks.push(["mapResponse", options, hook]),
    onError: (options, hook) => hooks.push(["error", options, hook]),
  };
  assert.equal(msgpack()(app), app);
  assert.deepEqual(hooks.map(([name, options]) => [name, options.as]), [
    ["parse", "global"],
    ["mapResponse", "global"],
    ["error", "global"],
  ]);
  assert.deepEqual(await hooks[0][2]({ request: post([1, 2]) }), [1, 2]);
  const mapped = hooks[1][2]({
    request: new Request("http://localhost/"),
    responseValue: { id: 1 },
    set: { status: 200, headers: {} },
  });
  assert.equal(await mapped.text(), '{"id":1}');
});

console.log(`roundtrip on ${runtime}: ${checks} checks passed`);
