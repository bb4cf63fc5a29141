// Copyright 2026 the @x/msgpackr authors. MIT license.
// A big array streamed at both ends: respond(request, source, { arrayLength }) writes one array
// (its header with the count, then each value as the source produces it; a JSON array for JSON
// clients), and fetchValues / readBodyValues with `arrayElements` read its elements as they
// arrive. Over real HTTP (Deno.serve or Bun.serve): the client has element 0 before the server's
// source has produced the rest; the bytes are pack(array)'s; @msgpack/msgpack's
// decodeArrayStream reads our response and we read its encoded array; JSON arrays are split
// element by element; a source that gives the wrong count truncates the array.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { decodeArrayStream, encode } from "@msgpack/msgpack";
import { fetchValues, HttpError, readBodyValues, respond, type RespondInit } from "../http.ts";
import { Packr, unpack } from "../mod.ts";
import { serve, type Server } from "./_http.ts";

interface Row {
  id: number;
  name: string;
}

const N = 100_000;
const ROWS: Row[] = Array.from({ length: N }, (_, id) => ({ id, name: `row ${id}` }));
const peer = new Packr({ useRecords: false, useInt64: true });
const MSGPACK = { headers: { accept: "application/msgpack" } };

function* rowsOf(count: number): Generator<Row> {
  for (let id = 0; id < count; id++) yield ROWS[id];
}

/** A request that asks for MessagePack, or JSON. */
const get = (json = false) => new Request("http://localhost/", json ? {} : MSGPACK);

describe("respond({ arrayLength }): one array, streamed", () => {
  test("MessagePack: the bytes of pack(array), in more than one chunk", async () => {
    for (const count of [0, 1, 15, 16, 65535, 65536, N]) {
      const response = respond(get(), rowsOf(count), { arrayLength: count });
      assert.equal(response.headers.get("content-type"), "application/msgpack");
      const chunks = await Array.fromAsync(response.body!);
      const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
      assert.deepEqual(bytes, peer.pack(ROWS.slice(0, count)), `${count}`);
      if (count === N) assert.ok(chunks.length > 10, `${chunks.length} chunks`);
    }
  });

  test("JSON: a JSON array, streamed as application/json", async () => {
    for (const count of [0, 1, 1000]) {
      const response = respond(get(true), rowsOf(count), { arrayLength: count });
      assert.equal(response.headers.get("content-type"), "application/json");
      assert.equal(await response.text(), JSON.stringify(ROWS.slice(0, count)));
    }
    const replacer: RespondInit["replacer"] = (_key, value) =>
      typeof value === "bigint" ? `${value}n` : value;
    const response = respond(get(true), [1n, undefined, "x"].values(), {
      arrayLength: 3,
      replacer,
    });
    assert.equal(await response.text(), '["1n",null,"x"]');
  });

  test("any source: async generators, ReadableStreams, arrays; and a given Packr", async () => {
    async function* rows() {
      yield* rowsOf(100);
    }
    const sources: [string, () => unknown][] = [
      ["async generator", () => rows()],
      ["ReadableStream", () => ReadableStream.from(rowsOf(100))],
      ["array", () => ROWS.slice(0, 100)],
    ];
    for (const [what, source] of sources) {
      const bytes = await respond(get(), source(), { arrayLength: 100 }).bytes();
      assert.deepEqual(bytes, peer.pack(ROWS.slice(0, 100)), what);
    }
    const records = new Packr({ sequential: true });
    const bytes = await respond(get(), rowsOf(100), { arrayLength: 100, packr: records }).bytes();
    assert.deepEqual(unpack(bytes), ROWS.slice(0, 100));
  });

  test("the wrong count errors the body after the values before: a truncated array", async () => {
    for (const [given, declared] of [[3, 5], [6, 5]]) {
      for (const json of [false, true]) {
        const response = respond(get(json), rowsOf(given), {
          arrayLength: declared,
          packrOptions: { coalesceBytes: 0 },
        });
        const reader = response.body!.getReader();
        const chunks: Uint8Array<ArrayBuffer>[] = [];
        await assert.rejects(
          (async () => {
            for (;;) {
              const step = await reader.read();
              if (step.done) break;
              chunks.push(step.value as Uint8Array<ArrayBuffer>);
            }
          })(),
          {
            name: "RangeError",
            message: given < declared
              ? `The source gave ${given} values, not arrayLength (${declared})`
              : `The source gave more than arrayLength (${declared}) values`,
          },
        );
        const text = new TextDecoder().decode(await new Blob(chunks).arrayBuffer());
        if (json) assert.ok(!text.endsWith("]"), text);
      }
    }
  });

  test("a bad arrayLength or value is refused at once", () => {
    for (const length of [-1, 1.5, 2 ** 32, NaN]) {
      assert.throws(() => respond(get(), rowsOf(1), { arrayLength: length }), {
        name: "RangeError",
        message: /^Cannot use arrayLength/,
      });
    }
    assert.throws(() => respond(get(), { not: "a source" }, { arrayLength: 1 }), {
      name: "TypeError",
    });
  });
});

describe("a streamed array over HTTP: fetchValues({ arrayElements })", () => {
  let server: Server;
  /** The server's source waits here after its first values, until the client opens it. */
  let gate: Promise<void> = Promise.resolve();
  /** Values the server's source has produced. */
  let produced = 0;

  async function* gated(count: number): AsyncGenerator<Row> {
    for (let id = 0; id < count; id++) {
      if (id === 10) await gate;
      produced++;
      yield ROWS[id];
    }
  }

  before(() => {
    server = serve((request) => {
      const url = new URL(request.url);
      const count = Number(url.searchParams.get("count") ?? N);
      switch (url.pathname) {
        case "/rows":
          return respond(request, gated(count), { arrayLength: count });
        case "/short":
          // declares one more value than it gives
          return respond(request, rowsOf(count), { arrayLength: count + 1 });
        case "/theirs":
          return new Response(encode(ROWS.slice(0, count)), {
            headers: { "content-type": "application/msgpack" },
          });
      }
      return respond(request, { error: "not found" }, { status: 404 });
    });
  });
  after(() => server.close());

  /**
   * Reads `url` with fetchValues and `arrayElements`; the server's source is held after its first
   * values until the client has element 0, so the array must stream at both ends.
   */
  async function streamed(url: string, format?: "json") {
    let open!: () => void;
    gate = new Promise((resolve) => open = resolve);
    produced = 0;
    // a guard against a hang, should either end buffer: not a timing assertion
    let stuck = false;
    const guard = setTimeout(() => {
      stuck = true;
      open();
    }, 20_000);
    const rows: Row[] = [];
    let producedAtFirst = -1;
    try {
      for await (const row of fetchValues<Row>(url, { arrayElements: true, format })) {
        if (rows.length === 0) {
          producedAtFirst = produced;
          open();
        }
        rows.push(row);
      }
    } finally {
      clearTimeout(guard);
    }
    assert.ok(!stuck, "element 0 never arrived while the server's source was waiting");
    assert.ok(producedAtFirst <= 10, `the server had produced ${producedAtFirst} values`);
    return rows;
  }

  test("MessagePack: element 0 arrives before the server produces the rest; all equal", async () => {
    const rows = await streamed(`${server.url}rows`);
    assert.equal(rows.length, N);
    assert.deepEqual(rows, ROWS);
  });

  test("JSON: the same, as a JSON array split element by element", async () => {
    const rows = await streamed(`${server.url}rows?count=20000`, "json");
    assert.deepEqual(rows, ROWS.slice(0, 20000));
  });

  test("@msgpack/msgpack's decodeArrayStream reads our streamed array", async () => {
    gate = Promise.resolve();
    const response = await fetch(`${server.url}rows?count=5000`, MSGPACK);
    const rows: unknown[] = [];
    for await (const row of decodeArrayStream(response.body!)) rows.push(row);
    assert.deepEqual(rows, ROWS.slice(0, 5000));
  });

  test("fetchValues reads @msgpack/msgpack's encoded array element by element", async () => {
    const rows = await Array.fromAsync(
      fetchValues<Row>(`${server.url}theirs?count=5000`, { arrayElements: true }),
    );
    assert.deepEqual(rows, ROWS.slice(0, 5000));
    // without the option: one value, the array
    const [whole] = await Array.fromAsync(fetchValues(`${server.url}theirs?count=5000`));
    assert.deepEqual(whole, ROWS.slice(0, 5000));
  });

  test("a server source that ends early: the client gets the elements, then an error", async () => {
    const rows: Row[] = [];
    await assert.rejects(
      (async () => {
        for await (
          const row of fetchValues<Row>(`${server.url}short?count=1000`, { arrayElements: true })
        ) {
          rows.push(row);
        }
      })(),
      (error) => error instanceof Error,
    );
    assert.ok(rows.length <= 1000);
    assert.deepEqual(rows, ROWS.slice(0, rows.length));
  });
});

describe("readBodyValues({ arrayElements }) on JSON and NDJSON bodies", () => {
  /** A response whose body is `text` in chunks of `size` bytes. */
  function body(text: string, size: number, type = "application/json"): Response {
    const bytes = new TextEncoder().encode(text);
    let at = 0;
    return new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (at >= bytes.length) return controller.close();
          controller.enqueue(bytes.slice(at, at + size));
          at += size;
        },
      }),
      { headers: { "content-type": type } },
    );
  }
  const read = (text: string, size: number, options = {}, type?: string) =>
    Array.fromAsync(readBodyValues(body(text, size, type), { arrayElements: true, ...options }));

  test("elements of every kind, in pieces of any size", async () => {
    const elements = [
      1,
      -2.5e-3,
      "plain",
      'a "quoted" ] } , string \\ with \\" escapes',
      "é€😀 and \u2028",
      [1, [2, [3]], []],
      { a: { b: ["]", "}", ","] }, 'k"ey': null },
      true,
      false,
      null,
      {},
      "",
    ];
    const texts = [
      JSON.stringify(elements),
      JSON.stringify(elements, null, 2),
      ` \n\t${JSON.stringify(elements, null, "\t")}\r\n `,
    ];
    for (const text of texts) {
      for (const size of [1, 2, 3, 7, 64, text.length]) {
        assert.deepEqual(await read(text, size), elements, `${size}`);
      }
    }
  });

  test("an empty array gives nothing; a body that is not an array is one value", async () => {
    for (const text of ["[]", " [ ] ", "[\n]"]) assert.deepEqual(await read(text, 1), []);
    assert.deepEqual(await read('{"a":[1,2]}', 3), [{ a: [1, 2] }]);
    assert.deepEqual(await read(" 7 ", 1), [7]);
    assert.deepEqual(await read("", 1), []);
  });

  test("malformed arrays are a 400 after the elements before", async () => {
    for (const text of ["[1,]", "[,1]", "[1 2]", "[1,2", "[1] x", "[1][2]", '["open]', "[1}"]) {
      const seen: unknown[] = [];
      await assert.rejects(
        (async () => {
          for await (
            const value of readBodyValues(body(text, 1), { arrayElements: true })
          ) seen.push(value);
        })(),
        (error) => {
          assert.ok(error instanceof HttpError, text);
          assert.equal(error.status, 400, text);
          assert.match(error.message, /^Malformed JSON body/, text);
          return true;
        },
      );
      assert.ok(seen.length <= 1, text);
    }
  });

  test("maxValueBytes bounds each element, not the array", async () => {
    const text = JSON.stringify(Array.from({ length: 1000 }, (_, i) => "x".repeat(i % 90)));
    assert.equal((await read(text, 100, { maxValueBytes: 100 })).length, 1000);
    await assert.rejects(read(text, 100, { maxValueBytes: 50 }), {
      status: 413,
      message: "Body value exceeds maxValueBytes (50 bytes)",
    });
  });

  test("NDJSON: each line that holds an array is expanded", async () => {
    const text = '[1,2]\n"x"\n[]\n[[3]]\n{"a":[4]}\n';
    assert.deepEqual(
      await read(text, 2, {}, "application/x-ndjson"),
      [1, 2, "x", [3], { a: [4] }],
    );
  });
});
