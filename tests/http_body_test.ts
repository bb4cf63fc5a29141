// Copyright 2026 the @x/msgpackr authors. MIT license.
// http.ts without a network: `respond` (formats, headers, JSON rules, streaming, cancellation,
// backpressure), `readBody` and `readBodyValues` (types, bounds, errors) on in-memory requests
// and responses, and `fetchValue` / `fetchValues` against a handler called directly.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import {
  ACCEPT_MSGPACK,
  fetchValue,
  fetchValues,
  HttpError,
  jsonReplacer,
  Packr,
  readBody,
  readBodyValues,
  respond,
  Unpackr,
} from "../http.ts";
import { DecodeError, IncompleteDataError, pack, unpack, unpackMultiple } from "../mod.ts";
import { concatBytes } from "../_core/bytes.ts";
import { hex } from "./_util.ts";
import { waitFor } from "./_http.ts";

const URL_ = "http://localhost/api";

function get(accept?: string, url = URL_): Request {
  return new Request(url, accept === undefined ? {} : { headers: { accept } });
}

function post(contentType: string | null, body: BodyInit | null, headers = {}): Request {
  return new Request(URL_, {
    method: "POST",
    headers: contentType === null ? headers : { "content-type": contentType, ...headers },
    body,
    duplex: "half",
  } as RequestInit);
}

async function bytesOf(response: Response): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

/** A stream of `count` chunks of `size` bytes (of `byte`), counting pulls and noting cancel. */
function chunkStream(count: number, size: number) {
  const state = { pulls: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulls++ >= count) controller.close();
      else controller.enqueue(new Uint8Array(size).fill(0x20));
    },
    cancel() {
      state.cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { stream, state };
}

/** A stream of the given chunks. */
function streamOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(chunks[index++]);
      else controller.close();
    },
  });
}

/** The bytes of `text` cut into chunks of `size` bytes. */
function chunksOf(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.slice(i, i + size));
  return chunks;
}

const utf8 = new TextEncoder();
/** An extension of a type no one registered: a DecodeError. */
const BAD_EXT = [0xc7, 0x01, 0x05, 0x00];

describe("respond(): format and headers", () => {
  test("MessagePack for a MessagePack client, JSON for others; Vary: Accept on both", async () => {
    const value = { id: 1, tags: ["a"] };
    const msgpack = respond(get(ACCEPT_MSGPACK), value);
    assert.equal(msgpack.status, 200);
    assert.equal(msgpack.headers.get("content-type"), "application/msgpack");
    assert.equal(msgpack.headers.get("vary"), "Accept");
    const bytes = await bytesOf(msgpack);
    assert.equal(hex(bytes), hex(pack(value)));
    assert.deepEqual(unpack(bytes), value);

    const json = respond(get(), value);
    assert.equal(json.headers.get("content-type"), "application/json");
    assert.equal(json.headers.get("vary"), "Accept");
    assert.equal(await json.text(), JSON.stringify(value));
  });

  test("bodies stay whole when more values are packed before they are read", async () => {
    // respond() packs into the packer's shared buffer, which the Response copies at once
    const values = Array.from({ length: 20 }, (_, i) => ({ i, text: `value ${i}`.repeat(i) }));
    const responses = values.map((value) => respond(get(ACCEPT_MSGPACK), value));
    for (let i = 0; i < 50; i++) pack({ other: i, filler: "x".repeat(i * 10) });
    for (const [i, response] of responses.entries()) {
      assert.deepEqual(unpack(await bytesOf(response)), values[i]);
    }
  });

  test("the MessagePack name the client used is the Content-Type", () => {
    for (const type of ["application/x-msgpack", "application/vnd.msgpack"]) {
      assert.equal(respond(get(type), 1).headers.get("content-type"), type);
    }
  });

  test("status, statusText and headers are those of init; Content-Type is respond's", () => {
    const response = respond(get(ACCEPT_MSGPACK), { error: "gone" }, {
      status: 410,
      statusText: "Gone Away",
      headers: [["content-type", "text/plain"], ["x-request-id", "42"]],
    });
    assert.equal(response.status, 410);
    assert.equal(response.statusText, "Gone Away");
    assert.equal(response.headers.get("x-request-id"), "42");
    assert.equal(response.headers.get("content-type"), "application/msgpack");
  });

  test("Accept is added to an existing Vary, once", () => {
    const vary = (value: string) =>
      respond(get(), 1, { headers: { vary: value } }).headers.get("vary");
    assert.equal(vary("Origin"), "Origin, Accept");
    assert.equal(vary("Origin, Accept-Encoding"), "Origin, Accept-Encoding, Accept");
    assert.equal(vary("origin, ACCEPT"), "origin, ACCEPT");
    assert.equal(vary("*"), "*");
    assert.equal(vary(""), "Accept");
    const headers = new Headers({ vary: "Cookie" });
    assert.equal(respond(get(), 1, { headers }).headers.get("vary"), "Cookie, Accept");
    assert.equal(headers.get("vary"), "Cookie", "the caller's Headers are not changed");
  });

  test("204, 205 and 304 have no body and no Content-Type", () => {
    for (const status of [204, 205, 304]) {
      const response = respond(get(ACCEPT_MSGPACK), { ignored: true }, { status });
      assert.equal(response.status, status);
      assert.equal(response.body, null);
      assert.equal(response.headers.get("content-type"), null);
      assert.equal(response.headers.get("vary"), "Accept");
    }
  });

  test("format forces a format whatever Accept says", async () => {
    const json = respond(get(ACCEPT_MSGPACK), { a: 1 }, { format: "json" });
    assert.equal(json.headers.get("content-type"), "application/json");
    assert.equal(await json.text(), '{"a":1}');
    const msgpack = respond(get("text/html"), { a: 1 }, { format: "msgpack" });
    assert.equal(msgpack.headers.get("content-type"), "application/msgpack");
    assert.deepEqual(unpack(await bytesOf(msgpack)), { a: 1 });
    assert.equal(
      respond(get(ACCEPT_MSGPACK), 1, { format: undefined }).headers.get(
        "content-type",
      ),
      "application/msgpack",
    );
    assert.throws(
      () => respond(get(), 1, { format: "xml" as "json" }),
      { name: "TypeError", message: /format "xml"/ },
    );
  });

  test("formatParam lets a request choose the format by its URL", () => {
    const type = (url: string, accept?: string, formatParam: string | null = "format") =>
      respond(get(accept, url), 1, formatParam === null ? {} : { formatParam }).headers.get(
        "content-type",
      );
    assert.equal(type(`${URL_}?format=json`, ACCEPT_MSGPACK), "application/json");
    assert.equal(type(`${URL_}?x=1&format=json`, "application/x-msgpack"), "application/json");
    assert.equal(type(`${URL_}?format=msgpack`), "application/msgpack");
    assert.equal(type(`${URL_}?format=msgpack`, "application/json"), "application/msgpack");
    assert.equal(type(`${URL_}?format=xml`, ACCEPT_MSGPACK), "application/msgpack");
    assert.equal(type(`${URL_}?format=`, ACCEPT_MSGPACK), "application/msgpack");
    assert.equal(type(`${URL_}?fmt=json`, ACCEPT_MSGPACK, "fmt"), "application/json");
    // off unless the server opts in
    assert.equal(type(`${URL_}?format=json`, ACCEPT_MSGPACK, null), "application/msgpack");
  });

  test("packrOptions and packr choose the packer; records only when asked", async () => {
    const rows = [{ id: 1, name: "a" }, { id: 2, name: "b" }];
    const plain = await bytesOf(respond(get(ACCEPT_MSGPACK), rows));
    assert.equal(hex(plain), hex(pack(rows)));

    const options = { useRecords: true };
    const records = await bytesOf(respond(get(ACCEPT_MSGPACK), rows, { packrOptions: options }));
    assert.equal(hex(records.subarray(1, 3)), "d4 72", "an inline record definition");
    assert.deepEqual(unpack(records), rows);
    const again = await bytesOf(respond(get(ACCEPT_MSGPACK), rows, { packrOptions: options }));
    assert.equal(hex(again), hex(records));

    const variable = await bytesOf(
      respond(get(ACCEPT_MSGPACK), { a: 1 }, { packrOptions: { variableMapSize: true } }),
    );
    assert.equal(hex(variable), "81 a1 61 01");

    const structures: string[][] = [];
    const packr = new Packr({ structures });
    const shared = await bytesOf(respond(get(ACCEPT_MSGPACK), rows[0], { packr }));
    assert.equal(shared[0], 0x40, "a shared structure id");
    assert.deepEqual(new Unpackr({ structures }).unpack(shared), rows[0]);
  });
});

describe("respond(): JSON rules", () => {
  const json = (value: unknown, init = {}) => respond(get(), value, init).text();

  test("JSON.stringify semantics; bigints as their digits; top-level undefined as null", async () => {
    assert.equal(
      await json({ a: 1, b: undefined, c: [undefined, NaN] }),
      '{"a":1,"c":[null,null]}',
    );
    assert.equal(await json(new Date(0)), '"1970-01-01T00:00:00.000Z"');
    assert.equal(await json(2n ** 70n), '"1180591620717411303424"');
    assert.equal(await json({ id: -5n, list: [1n] }), '{"id":"-5","list":["1"]}');
    assert.equal(await json(undefined), "null");
    assert.equal(await json(() => 1), "null");
    // what JSON cannot hold follows JSON.stringify without a replacer
    assert.equal(await json(new Map([["a", 1]])), "{}");
    assert.equal(await json("text"), '"text"');
  });

  test("a cycle still throws", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.throws(() => respond(get(), cyclic), TypeError);
  });

  test("a replacer applies first; bigints it leaves are still digits", async () => {
    const replacer = (key: string, value: unknown) => key === "secret" ? undefined : value;
    assert.equal(await json({ secret: "x", id: 7n }, { replacer }), '{"id":"7"}');
  });

  test("jsonReplacer writes bigints, binary, typed arrays, Maps and Sets by fixed rules", async () => {
    const value = {
      big: 123456789012345678901234567890n,
      empty: new Uint8Array(0),
      one: new Uint8Array([0xff]),
      two: new Uint8Array([0xff, 0xfe]),
      three: new Uint8Array([0xff, 0xfe, 0xfd]),
      text: utf8.encode("hello, world"),
      buffer: Buffer.from("hi"),
      arrayBuffer: new Uint8Array([1, 2, 3, 4]).buffer,
      view: new DataView(new Uint8Array([9, 8, 7, 6]).buffer, 1, 2),
      floats: new Float64Array([1.5, -2]),
      bigints: new BigInt64Array([-1n, 2n ** 62n]),
      map: new Map<unknown, unknown>([["a", 1], [2, "two"], [3n, true], [false, null]]),
      proto: new Map([["__proto__", { polluted: true }]]),
      set: new Set([1, "x", 1]),
      date: new Date(0),
      nested: [new Map([["k", new Set([new Uint8Array([0])])]])],
    };
    const parsed = JSON.parse(await json(value, { replacer: jsonReplacer }));
    assert.deepEqual(parsed, {
      big: "123456789012345678901234567890",
      empty: "",
      one: "/w==",
      two: "//4=",
      three: "//79",
      text: Buffer.from("hello, world").toString("base64"),
      buffer: "aGk=",
      arrayBuffer: "AQIDBA==",
      view: "CAc=",
      floats: [1.5, -2],
      bigints: ["-1", "4611686018427387904"],
      map: { a: 1, 2: "two", 3: true, false: null },
      proto: JSON.parse('{"__proto__":{"polluted":true}}'),
      set: [1, "x"],
      date: "1970-01-01T00:00:00.000Z",
      nested: [{ k: ["AA=="] }],
    });
    assert.equal(({} as { polluted?: boolean }).polluted, undefined);
    for (let length = 0; length < 64; length++) {
      const bytes = new Uint8Array(length).map((_, i) => (i * 37 + length) & 0xff);
      assert.equal(
        JSON.parse(await json(bytes, { replacer: jsonReplacer })),
        Buffer.from(bytes).toString("base64"),
      );
    }
  });

  test("jsonReplacer refuses Map keys that cannot be property names", () => {
    assert.throws(
      () => respond(get(), new Map([[{}, 1]]), { replacer: jsonReplacer }),
      { name: "TypeError", message: /Map key of type object/ },
    );
  });
});

describe("respond(): what streams", () => {
  test("arrays, Sets, Maps, typed arrays and strings are one value", async () => {
    const request = get(ACCEPT_MSGPACK);
    for (const value of [[1, 2], new Set([1]), new Map([["a", 1]]), new Uint8Array([1]), "ab"]) {
      const response = respond(request, value);
      assert.equal(response.headers.get("content-type"), "application/msgpack");
      assert.equal(hex(await bytesOf(response)), hex(pack(value)));
    }
  });

  test("generators, iterators, async iterables and ReadableStreams stream", async () => {
    function* generator() {
      yield 1;
      yield { a: 2 };
    }
    async function* asyncGenerator() {
      yield 1;
      yield { a: 2 };
    }
    const asyncIterable = { [Symbol.asyncIterator]: asyncGenerator };
    const sources = [
      () => generator(),
      () => new Map<number, unknown>([[0, 1], [1, { a: 2 }]]).values(),
      () => [1, { a: 2 }][Symbol.iterator](),
      () => asyncGenerator(),
      () => asyncIterable,
      () => ReadableStream.from([1, { a: 2 }]),
    ];
    for (const source of sources) {
      const msgpack = respond(get(ACCEPT_MSGPACK), source());
      assert.equal(msgpack.headers.get("content-type"), "application/msgpack");
      assert.equal(msgpack.headers.get("vary"), "Accept");
      assert.deepEqual(unpackMultiple(await bytesOf(msgpack)), [1, { a: 2 }]);
      const ndjson = respond(get(), source());
      assert.equal(ndjson.headers.get("content-type"), "application/x-ndjson");
      assert.equal(await ndjson.text(), '1\n{"a":2}\n');
    }
  });

  test("an empty source is an empty body", async () => {
    assert.equal((await bytesOf(respond(get(ACCEPT_MSGPACK), [].values()))).length, 0);
    assert.equal(await respond(get(), [].values()).text(), "");
  });

  test("a stream packs plain MessagePack unless asked for records", async () => {
    const rows = Array.from({ length: 50 }, (_, id) => ({ id, name: `n${id}` }));
    const plain = await bytesOf(respond(get(ACCEPT_MSGPACK), rows.values()));
    assert.equal(hex(plain.subarray(0, 3)), "de 00 02");
    assert.deepEqual(unpackMultiple(plain), rows);
    const records = await bytesOf(
      respond(get(ACCEPT_MSGPACK), rows.values(), { packrOptions: { useRecords: true } }),
    );
    assert.ok(records.length < plain.length / 2);
    assert.deepEqual(unpackMultiple(records), rows);
    const response = respond(get(ACCEPT_MSGPACK), rows.values(), {
      packrOptions: { useRecords: true },
    });
    assert.deepEqual(await Array.fromAsync(readBodyValues(response)), rows);
  });

  test("a stream with a packr packs each value with it", async () => {
    const packr = new Packr({ useRecords: false, variableMapSize: true });
    const response = respond(get(ACCEPT_MSGPACK), [{ a: 1 }, { b: 2 }].values(), { packr });
    const chunks = await Array.fromAsync(response.body!);
    assert.deepEqual(chunks.map((chunk) => hex(chunk)), ["81 a1 61 01", "81 a1 62 02"]);
  });

  test("values are pulled as the body is read (backpressure)", async () => {
    for (const accept of [ACCEPT_MSGPACK, "application/json"]) {
      let produced = 0;
      const source = (function* () {
        // 100 KB per value: larger than any chunk buffering
        for (;;) yield { n: produced++, pad: "x".repeat(100_000) };
      })();
      const reader = respond(get(accept), source).body!.getReader();
      let received = 0;
      for (let i = 0; i < 5; i++) received += (await reader.read()).value!.length;
      assert.ok(received >= 5 * 100_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.ok(produced <= 8, `${accept}: ${produced} values produced for 5 chunks read`);
      await reader.cancel();
    }
  });

  test("many small values come in chunks of about coalesceBytes", async () => {
    const rows = Array.from({ length: 3000 }, (_, id) => ({ id, name: `n${id}` }));
    async function* asyncRows() {
      yield* rows;
    }
    for (const source of [rows.values(), asyncRows()]) {
      const response = respond(get(ACCEPT_MSGPACK), source, {
        packrOptions: { coalesceBytes: 4096 },
      });
      const chunks = await Array.fromAsync(response.body!);
      assert.ok(chunks.length > 5 && chunks.length < 20, `${chunks.length} chunks`);
      for (const chunk of chunks.slice(0, -1)) assert.ok(chunk.length >= 4096);
      assert.deepEqual(unpackMultiple(concatBytes(chunks)), rows);
    }
  });

  test("what was packed goes out while the source waits for its next value", async () => {
    let release!: () => void;
    const waiting = new Promise<void>((resolve) => release = resolve);
    async function* source() {
      yield { id: 1 };
      yield { id: 2 };
      await waiting;
      yield { id: 3 };
    }
    const reader = respond(get(ACCEPT_MSGPACK), source()).body!.getReader();
    let first: Uint8Array | undefined;
    reader.read().then((step) => first = step.value);
    assert.ok(await waitFor(() => first !== undefined, 1000), "the packed values were held back");
    assert.deepEqual(unpackMultiple(first!), [{ id: 1 }, { id: 2 }]);
    release();
    assert.deepEqual(unpackMultiple((await reader.read()).value!), [{ id: 3 }]);
    assert.equal((await reader.read()).done, true);
  });

  test("cancelling the body cancels the source: finally of generators, cancel of streams", async () => {
    for (const accept of [ACCEPT_MSGPACK, "application/json"]) {
      let asyncFinally = false;
      let syncFinally = false;
      let streamCancel: unknown = undefined;
      const endless = async function* () {
        try {
          for (let i = 0;; i++) yield { i };
        } finally {
          asyncFinally = true;
        }
      };
      const endlessSync = function* () {
        try {
          for (let i = 0;; i++) yield { i };
        } finally {
          syncFinally = true;
        }
      };
      const stream = new ReadableStream({
        pull(controller) {
          controller.enqueue({ i: 0 });
        },
        cancel(reason) {
          streamCancel = reason ?? "cancelled";
        },
      });
      for (const source of [endless(), endlessSync(), stream]) {
        const reader = respond(get(accept), source).body!.getReader();
        await reader.read();
        await reader.cancel("client went away");
      }
      assert.ok(await waitFor(() => asyncFinally && syncFinally && !!streamCancel, 1000));
    }
  });

  test("an error of the source errors the body after what was sent", async () => {
    async function* failing() {
      yield 1;
      throw new Error("database went away");
    }
    const reader = respond(get(ACCEPT_MSGPACK), failing(), {
      packrOptions: { coalesceBytes: 0 },
    }).body!.getReader();
    assert.equal(hex((await reader.read()).value!), "01");
    await assert.rejects(reader.read(), /database went away/);
  });
});

describe("readBody()", () => {
  test("MessagePack under each of its names, decoded as unpack decodes", async () => {
    const value = { id: 1, when: new Date(0), tags: ["a"], big: 2n ** 63n };
    for (
      const type of ["application/msgpack", "application/x-msgpack", "application/vnd.msgpack"]
    ) {
      assert.deepEqual(await readBody(post(type, pack(value))), value);
    }
    // records (from any Packr) are read
    assert.deepEqual(await readBody(post("application/msgpack", new Packr().pack([value]))), [
      value,
    ]);
  });

  test("JSON with any charset parameter, and +json types", async () => {
    for (
      const type of [
        "application/json",
        "application/json; charset=utf-8",
        "application/json;charset=UTF-8",
        "application/problem+json",
        "application/vnd.api+json; charset=utf-8",
      ]
    ) {
      assert.deepEqual(await readBody(post(type, '{"a":[1,"é"]}')), { a: [1, "é"] }, type);
    }
    // a byte order mark is dropped
    assert.deepEqual(
      await readBody(post("application/json", new Uint8Array([0xef, 0xbb, 0xbf, 0x31]))),
      1,
    );
  });

  test("multiple: the values of a MessagePack sequence, of NDJSON, of a JSON body", async () => {
    const sequence = new Uint8Array([...pack({ a: 1 }), ...pack("x"), ...pack(null)]);
    assert.deepEqual(await readBody(post("application/msgpack", sequence), { multiple: true }), [
      { a: 1 },
      "x",
      null,
    ]);
    assert.deepEqual(
      await readBody(post("application/x-ndjson", '{"a":1}\r\n\n"x"\nnull'), { multiple: true }),
      [{ a: 1 }, "x", null],
    );
    assert.deepEqual(await readBody(post("application/json", "[1,2]"), { multiple: true }), [
      [1, 2],
    ]);
    assert.deepEqual(await readBody(post("application/msgpack", ""), { multiple: true }), []);
    assert.deepEqual(await readBody(post("application/x-ndjson", ""), { multiple: true }), []);
    // one NDJSON line without `multiple`
    assert.deepEqual(await readBody(post("application/x-ndjson", '{"a":1}\n')), { a: 1 });
  });

  test("decoding options, or an Unpackr", async () => {
    const bytes = pack({ n: 2n ** 40n });
    // 64-bit integers are numbers when safe (int64AsType: "auto"), unless told otherwise
    assert.deepEqual(await readBody(post("application/msgpack", pack(5n)), {}), 5);
    assert.deepEqual(
      await readBody(post("application/msgpack", pack(5n)), { int64AsType: "bigint" }),
      5n,
    );
    assert.deepEqual(
      await readBody(post("application/msgpack", bytes), { int64AsType: "string" }),
      { n: "1099511627776" },
    );
    assert.deepEqual(
      await readBody(post("application/msgpack", pack({ a: 1 })), { mapsAsObjects: false }),
      new Map([["a", 1]]),
    );
    const unpackr = new Unpackr({ mapsAsObjects: false });
    assert.deepEqual(
      await readBody(post("application/msgpack", pack({ a: 1 })), { unpackr }),
      new Map([["a", 1]]),
    );
  });

  test("a Response is read too", async () => {
    const response = new Response(pack([1]), {
      headers: { "content-type": "application/msgpack" },
    });
    assert.deepEqual(await readBody(response), [1]);
  });

  test("415 for any other Content-Type, none, or a content coding it does not decode", async () => {
    const cases: [string | null, Record<string, string>][] = [
      ["text/plain", {}],
      ["application/octet-stream", {}],
      ["application/x-www-form-urlencoded", {}],
      [null, {}],
      ["application/json", { "content-encoding": "compress" }],
      ["application/json", { "content-encoding": "gzip, gzip" }],
    ];
    for (const [type, headers] of cases) {
      await assert.rejects(readBody(post(type, "{}", headers)), (error) => {
        assert.ok(error instanceof HttpError);
        assert.equal(error.status, 415);
        assert.match(error.message, /Content-Type|Content-Encoding/);
        return true;
      });
    }
    assert.deepEqual(
      await readBody(post("application/json", "1", { "content-encoding": "identity" })),
      1,
    );
  });

  test("413 over maxBytes (1 MiB by default): up front by Content-Length", async () => {
    const big = JSON.stringify("x".repeat(1024 * 1024));
    await assert.rejects(readBody(post("application/json", big)), { status: 413 });
    const fits = JSON.stringify("x".repeat(1024 * 1024 - 2));
    assert.equal((await readBody<string>(post("application/json", fits))).length, 1048574);
    await assert.rejects(readBody(post("application/json", "[1,2,3]"), { maxBytes: 6 }), {
      name: "HttpError",
      status: 413,
      message: "Body exceeds maxBytes (6 bytes)",
    });
    assert.deepEqual(await readBody(post("application/json", "[1,2,3]"), { maxBytes: 7 }), [
      1,
      2,
      3,
    ]);
    assert.equal(
      (await readBody<string>(post("application/json", big), { maxBytes: Infinity }))
        .length,
      1048576,
    );
    await assert.rejects(readBody(post("application/json", "1"), { maxBytes: -1 }), RangeError);
  });

  test("413 counted while reading: the body is cancelled, not held whole", async () => {
    const { stream, state } = chunkStream(100, 1000);
    await assert.rejects(
      readBody(post("application/json", stream), { maxBytes: 2500 }),
      { status: 413 },
    );
    assert.ok(state.pulls <= 4, `${state.pulls} chunks pulled`);
    assert.ok(state.cancelled);
    const whole = streamOf(chunksOf(utf8.encode(JSON.stringify("x".repeat(2998))), 1000));
    assert.equal(
      (await readBody<string>(post("application/json", whole), { maxBytes: 3000 })).length,
      2998,
    );
  });

  test("400 for malformed, truncated or empty bodies, with the decoder's error as cause", async () => {
    const truncated = pack({ id: 1, name: "truncated" }).subarray(0, 8);
    const cases: [string, BodyInit, unknown][] = [
      ["application/msgpack", truncated, IncompleteDataError],
      ["application/msgpack", new Uint8Array(BAD_EXT), DecodeError],
      ["application/msgpack", new Uint8Array([1, 2]), DecodeError], // two values where one is read
      ["application/json", '{"a":', SyntaxError],
      ["application/json", "{} {}", SyntaxError],
      ["application/json", new Uint8Array([0x22, 0xff, 0x22]), TypeError], // ill-formed UTF-8
      ["application/x-ndjson", "1\n2\n", SyntaxError],
    ];
    for (const [type, body, cause] of cases) {
      await assert.rejects(readBody(post(type, body)), (error) => {
        assert.ok(error instanceof HttpError, String(error));
        assert.equal(error.status, 400);
        assert.ok(error.cause instanceof (cause as typeof Error), `${type}: ${error.cause}`);
        assert.match(error.message, /^Malformed (MessagePack|JSON|NDJSON) body: /);
        return true;
      });
    }
    for (const type of ["application/msgpack", "application/json"]) {
      await assert.rejects(readBody(post(type, "")), { status: 400, message: "Empty body" });
      await assert.rejects(readBody(post(type, null)), { status: 400, message: "Empty body" });
    }
    await assert.rejects(readBody(post("application/json", ""), { multiple: true }), {
      status: 400,
    });
    await assert.rejects(
      readBody(post("application/x-ndjson", "1\n{\n3"), { multiple: true }),
      { status: 400, message: /Line 2/ },
    );
  });
});

describe("readBodyValues()", () => {
  test("MessagePack values as they arrive, in chunks of any size", async () => {
    const rows = Array.from({ length: 200 }, (_, id) => ({ id, name: `row ${id}` }));
    const bytes = new Uint8Array(rows.flatMap((row) => [...pack(row)]));
    for (const size of [1, 7, 4096]) {
      const response = new Response(streamOf(chunksOf(bytes, size)), {
        headers: { "content-type": "application/msgpack" },
      });
      assert.deepEqual(await Array.fromAsync(readBodyValues(response)), rows);
    }
  });

  test("NDJSON lines split anywhere, multi-byte characters too", async () => {
    const text = '{"a":"é€😀"}\r\n\n[1,2]\n"last"';
    for (const size of [1, 2, 3, 5, 100]) {
      const response = new Response(streamOf(chunksOf(utf8.encode(text), size)), {
        headers: { "content-type": "application/x-ndjson" },
      });
      assert.deepEqual(await Array.fromAsync(readBodyValues(response)), [
        { a: "é€😀" },
        [1, 2],
        "last",
      ]);
    }
  });

  test("a JSON body is one value; an empty body none", async () => {
    const json = new Response(streamOf(chunksOf(utf8.encode('{"a":[1,2]}'), 3)), {
      headers: { "content-type": "application/json" },
    });
    assert.deepEqual(await Array.fromAsync(readBodyValues(json)), [{ a: [1, 2] }]);
    for (const type of ["application/msgpack", "application/x-ndjson", "application/json"]) {
      const empty = new Response(null, { headers: { "content-type": type } });
      assert.deepEqual(await Array.fromAsync(readBodyValues(empty)), []);
    }
  });

  test("errors come after the values before them", async () => {
    const bytes = new Uint8Array([...pack(1), ...pack(2), ...BAD_EXT]);
    const values: unknown[] = [];
    await assert.rejects(async () => {
      const response = new Response(bytes, { headers: { "content-type": "application/msgpack" } });
      for await (const value of readBodyValues(response)) values.push(value);
    }, (error) => {
      assert.ok(error instanceof HttpError);
      assert.equal(error.status, 400);
      assert.ok(error.cause instanceof DecodeError);
      return true;
    });
    assert.deepEqual(values, [1, 2]);

    const lines: unknown[] = [];
    await assert.rejects(async () => {
      const response = new Response("1\n2\n{oops\n4\n", {
        headers: { "content-type": "application/x-ndjson" },
      });
      for await (const value of readBodyValues(response)) lines.push(value);
    }, { status: 400, message: /Line 3/ });
    assert.deepEqual(lines, [1, 2]);

    await assert.rejects(
      Array.fromAsync(readBodyValues(
        new Response(pack([1, 2]).subarray(0, 2), {
          headers: { "content-type": "application/msgpack" },
        }),
      )),
      (error) => error instanceof HttpError && error.cause instanceof IncompleteDataError,
    );
  });

  test("413 past maxBytes, and for one value past maxIncompleteBufferSize", async () => {
    const bytes = new Uint8Array(
      Array.from({ length: 100 }, () => [...pack("x".repeat(20))]).flat(),
    );
    const values: unknown[] = [];
    await assert.rejects(async () => {
      const response = new Response(streamOf(chunksOf(bytes, 100)), {
        headers: { "content-type": "application/msgpack" },
      });
      for await (const value of readBodyValues(response, { maxBytes: 1000 })) values.push(value);
    }, { status: 413 });
    assert.ok(values.length >= 40 && values.length < 100, `${values.length} values`);

    const big = pack("y".repeat(5000));
    await assert.rejects(
      Array.fromAsync(readBodyValues(
        new Response(streamOf(chunksOf(big, 100)), {
          headers: { "content-type": "application/msgpack" },
        }),
        { maxIncompleteBufferSize: 1000 },
      )),
      { status: 413, message: /maxIncompleteBufferSize/ },
    );
    await assert.rejects(
      Array.fromAsync(readBodyValues(
        new Response(streamOf(chunksOf(utf8.encode(`"${"y".repeat(5000)}"\n`), 100)), {
          headers: { "content-type": "application/x-ndjson" },
        }),
        { maxIncompleteBufferSize: 1000 },
      )),
      { status: 413, message: /maxIncompleteBufferSize/ },
    );
  });

  test("415 for another type", async () => {
    await assert.rejects(
      Array.fromAsync(
        readBodyValues(new Response("x", { headers: { "content-type": "text/plain" } })),
      ),
      { status: 415 },
    );
  });

  test("stopping early cancels the body", async () => {
    const packed = pack({ n: 1 });
    const state = { cancelled: false };
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(packed);
      },
      cancel() {
        state.cancelled = true;
      },
    });
    const response = new Response(stream, { headers: { "content-type": "application/msgpack" } });
    let count = 0;
    for await (const _ of readBodyValues(response)) if (++count === 3) break;
    assert.ok(state.cancelled);
  });

  test("an error of the stream itself passes through unchanged", async () => {
    const failure = new Error("connection reset");
    let sent = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) controller.enqueue(pack(1));
        else controller.error(failure);
        sent = true;
      },
    });
    const response = new Response(stream, { headers: { "content-type": "application/msgpack" } });
    const values: unknown[] = [];
    await assert.rejects(async () => {
      for await (const value of readBodyValues(response)) values.push(value);
    }, (error) => error === failure);
    assert.deepEqual(values, [1]);
  });
});

describe("plain MessagePack for any peer; msgpackr's choices when asked", () => {
  const at = 1_700_000_000_123;
  /** `at` as uint64, as useInt64 writes it (msgpackr's pack writes float64 `cb`). */
  const AT = "cf 00 00 01 8b cf e5 68 7b";
  /** Two values as a Go service packs struct { ID int64 `msgpack:"id"` }: maps, int64. */
  const goValue = [0x81, 0xa2, 0x69, 0x64, 0xd3, 0, 0, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x7b];
  const goBytes = new Uint8Array([...goValue, ...goValue]);
  /** A `fetch` answered by a Go service with `bytes`. */
  const goAnswers = (bytes: Uint8Array<ArrayBuffer>) => () =>
    Promise.resolve(new Response(bytes, { headers: { "content-type": "application/msgpack" } }));
  const msgpackrChoices = new Map([["id", BigInt(at)]]);

  test("respond and fetchValue's body write useInt64; a packr or useInt64: false, float64", async () => {
    assert.ok(hex(await bytesOf(respond(get(ACCEPT_MSGPACK), { at }))).endsWith(AT));
    assert.ok(hex(await bytesOf(respond(get(ACCEPT_MSGPACK), [{ at }].values()))).includes(AT));
    for (
      const init of [{ packr: new Packr({ useRecords: false }) }, {
        packrOptions: { useInt64: false },
      }]
    ) {
      assert.equal(
        hex(await bytesOf(respond(get(ACCEPT_MSGPACK), { at }, init))),
        hex(pack({ at })),
      );
    }
    const sent: string[] = [];
    const fetch = async (input: Request | URL | string, init?: RequestInit) => {
      sent.push(hex(new Uint8Array(await new Request(input, init).arrayBuffer())));
      return new Response(null, { status: 204 });
    };
    await fetchValue(URL_, { body: { at }, fetch });
    await fetchValue(URL_, { body: { at }, fetch, packrOptions: { useInt64: false } });
    assert.ok(sent[0].endsWith(AT));
    assert.equal(sent[1], hex(pack({ at })));
  });

  test("readBody, readBodyValues, fetchValue, fetchValues: int64 as numbers, maps as objects", async () => {
    const request = () => post("application/msgpack", goBytes);
    assert.deepEqual(await readBody(request(), { multiple: true }), [{ id: at }, { id: at }]);
    assert.deepEqual(await Array.fromAsync(readBodyValues(request())), [{ id: at }, { id: at }]);
    const one = goAnswers(new Uint8Array(goValue));
    assert.deepEqual(await fetchValue(URL_, { fetch: one }), { id: at });
    assert.deepEqual(await Array.fromAsync(fetchValues(URL_, { fetch: goAnswers(goBytes) })), [
      { id: at },
      { id: at },
    ]);
    // msgpackr's choices: an Unpackr of one's own, or the options
    assert.deepEqual(
      await readBody(request(), { multiple: true, unpackr: new Unpackr() }),
      [msgpackrChoices, msgpackrChoices],
    );
    const options = { mapsAsObjects: false, int64AsType: "bigint" } as const;
    assert.deepEqual(await readBody(request(), { multiple: true, ...options }), [
      msgpackrChoices,
      msgpackrChoices,
    ]);
    assert.deepEqual(await Array.fromAsync(readBodyValues(request(), options)), [
      msgpackrChoices,
      msgpackrChoices,
    ]);
    assert.deepEqual(
      await fetchValue(URL_, { fetch: one, unpackr: new Unpackr() }),
      msgpackrChoices,
    );
    assert.deepEqual(
      await Array.fromAsync(
        fetchValues(URL_, { fetch: goAnswers(goBytes), unpackrOptions: options }),
      ),
      [msgpackrChoices, msgpackrChoices],
    );
  });
});

describe("fetchValue() and fetchValues() against a handler", () => {
  /** A `fetch` that hands the request to `handler` and records it. */
  function through(handler: (request: Request) => Response | Promise<Response>) {
    const requests: Request[] = [];
    const fetch = async (input: Request | URL | string, init?: RequestInit) => {
      const request = new Request(input, init);
      requests.push(request.clone());
      return await handler(request);
    };
    return { fetch, requests };
  }

  test("asks for MessagePack, sends the body as MessagePack with POST, decodes the reply", async () => {
    const { fetch, requests } = through(async (request) =>
      respond(request, { echo: await readBody(request) })
    );
    assert.deepEqual(await fetchValue(URL_, { body: { a: [1] }, fetch }), { echo: { a: [1] } });
    const [request] = requests;
    assert.equal(request.method, "POST");
    assert.equal(request.headers.get("accept"), ACCEPT_MSGPACK);
    assert.equal(request.headers.get("content-type"), "application/msgpack");
    assert.equal(hex(new Uint8Array(await request.arrayBuffer())), hex(pack({ a: [1] })));
  });

  test("GET without a body; an explicit method, headers and Accept are kept", async () => {
    const { fetch, requests } = through((request) => respond(request, request.method));
    assert.equal(await fetchValue(URL_, { fetch }), "GET");
    assert.equal(requests[0].body, null);
    assert.equal(
      await fetchValue(URL_, {
        fetch,
        method: "PATCH",
        body: 1,
        headers: { accept: "application/x-msgpack", "x-trace": "t" },
      }),
      "PATCH",
    );
    assert.equal(requests[1].headers.get("accept"), "application/x-msgpack");
    assert.equal(requests[1].headers.get("x-trace"), "t");
    // a Request as input keeps its method and headers
    const input = new Request(URL_, { method: "DELETE", headers: { "x-trace": "r" } });
    assert.equal(await fetchValue(input, { fetch }), "DELETE");
    assert.equal(requests[2].headers.get("x-trace"), "r");
    assert.equal(requests[2].headers.get("accept"), ACCEPT_MSGPACK);
  });

  test('format: "json" sends JSON and asks for JSON', async () => {
    const { fetch, requests } = through(async (request) =>
      respond(request, { echo: await readBody(request), id: 2n ** 60n })
    );
    const value = await fetchValue(URL_, { fetch, format: "json", body: { n: 1n } });
    assert.deepEqual(value, { echo: { n: "1" }, id: "1152921504606846976" });
    assert.equal(requests[0].headers.get("accept"), "application/json");
    assert.equal(requests[0].headers.get("content-type"), "application/json");
    assert.equal(await requests[0].text(), '{"n":"1"}');
    await assert.rejects(fetchValue(URL_, { fetch, format: "xml" as "json" }), TypeError);
  });

  test("a streamed body is a MessagePack sequence, or NDJSON", async () => {
    const { fetch, requests } = through(async (request) =>
      respond(request, await readBody(request, { multiple: true }))
    );
    async function* values() {
      yield { a: 1 };
      yield "b";
    }
    assert.deepEqual(await fetchValue(URL_, { fetch, body: values() }), [{ a: 1 }, "b"]);
    assert.equal(requests[0].headers.get("content-type"), "application/msgpack");
    assert.deepEqual(await fetchValue(URL_, { fetch, body: values(), format: "json" }), [
      { a: 1 },
      "b",
    ]);
    assert.equal(requests[1].headers.get("content-type"), "application/x-ndjson");
  });

  test("a non-2xx response throws an HttpError with its status and decoded body", async () => {
    const { fetch } = through((request) => {
      const path = new URL(request.url).pathname;
      if (path === "/text") {
        return new Response("no such thing", {
          status: 404,
          headers: { "content-type": "text/plain; charset=utf-8" },
        });
      }
      if (path === "/untyped") return new Response(new Uint8Array([0x6e, 0x6f]), { status: 400 });
      if (path === "/binary") {
        return new Response(new Uint8Array([0xff]), {
          status: 500,
          headers: { "content-type": "application/octet-stream" },
        });
      }
      if (path === "/bare") return new Response(null, { status: 503 });
      return respond(request, { error: "order 7 is closed" }, { status: 409 });
    });
    await assert.rejects(fetchValue("http://localhost/orders/7", { fetch }), (error) => {
      assert.ok(error instanceof HttpError);
      assert.equal(error.status, 409);
      assert.deepEqual(error.body, { error: "order 7 is closed" });
      assert.equal(error.response?.status, 409);
      assert.equal(
        error.message,
        "GET http://localhost/orders/7 failed: 409 (order 7 is closed)",
      );
      return true;
    });
    await assert.rejects(fetchValue("http://localhost/text", { fetch }), {
      status: 404,
      body: "no such thing",
    });
    await assert.rejects(fetchValue("http://localhost/untyped", { fetch }), {
      status: 400,
      body: "no",
    });
    await assert.rejects(fetchValue("http://localhost/binary", { fetch }), {
      status: 500,
      body: undefined,
    });
    await assert.rejects(fetchValue("http://localhost/bare", { fetch }), (error) => {
      assert.ok(error instanceof HttpError);
      assert.equal(error.status, 503);
      assert.equal(error.body, undefined);
      return true;
    });
    await assert.rejects(Array.fromAsync(fetchValues("http://localhost/x", { fetch })), {
      status: 409,
      body: { error: "order 7 is closed" },
    });
  });

  test("no content is undefined", async () => {
    const { fetch } = through((request) => {
      const path = new URL(request.url).pathname;
      if (path === "/empty") {
        return new Response("", { headers: { "content-type": "application/msgpack" } });
      }
      return respond(request, null, { status: 204 });
    });
    assert.equal(await fetchValue("http://localhost/none", { fetch }), undefined);
    assert.equal(await fetchValue("http://localhost/empty", { fetch }), undefined);
    assert.deepEqual(await Array.fromAsync(fetchValues("http://localhost/none", { fetch })), []);
  });

  test("a 2xx response that cannot be read is a 502 whose cause says why", async () => {
    const { fetch } = through((request) => {
      const path = new URL(request.url).pathname;
      if (path === "/html") {
        return new Response("<p>hi</p>", { headers: { "content-type": "text/html" } });
      }
      if (path === "/bad") {
        return new Response(new Uint8Array(BAD_EXT), {
          headers: { "content-type": "application/msgpack" },
        });
      }
      return respond(request, "x".repeat(100));
    });
    const expect = (status: number) => (error: unknown) => {
      assert.ok(error instanceof HttpError);
      assert.equal(error.status, 502);
      assert.ok(error.cause instanceof HttpError);
      assert.equal(error.cause.status, status);
      assert.equal(error.response?.status, 200);
      return true;
    };
    await assert.rejects(fetchValue("http://localhost/html", { fetch }), expect(415));
    await assert.rejects(fetchValue("http://localhost/bad", { fetch }), expect(400));
    await assert.rejects(fetchValue("http://localhost/big", { fetch, maxBytes: 50 }), expect(413));
    assert.equal((await fetchValue<string>("http://localhost/big", { fetch })).length, 100);
    await assert.rejects(
      Array.fromAsync(fetchValues("http://localhost/bad", { fetch })),
      expect(400),
    );
    await assert.rejects(
      Array.fromAsync(fetchValues("http://localhost/html", { fetch })),
      expect(415),
    );
  });

  test("decoding options reach the decoder", async () => {
    const { fetch } = through((request) => respond(request, { a: 1, n: 2n ** 40n }));
    assert.deepEqual(
      await fetchValue(URL_, { fetch, unpackrOptions: { int64AsType: "number" } }),
      { a: 1, n: 2 ** 40 },
    );
    assert.deepEqual(
      await fetchValue(URL_, { fetch, unpackr: new Unpackr({ mapsAsObjects: false }) }),
      new Map<string, unknown>([["a", 1], ["n", 2n ** 40n]]),
    );
  });
});
