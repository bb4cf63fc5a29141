// Copyright 2026 the @x/msgpackr authors. MIT license.
// The per-value bound of http.ts (`maxValueBytes`): `readBodyValues` and `readBody` with
// `multiple: true` refuse with a 413 `HttpError` the first value over the bound wherever it
// stands (alone, last, first, between smaller ones, after values at the bound), and hold each
// value to the bound on its own: values at and just under it pass, however many, while the
// whole body is within `maxBytes` (past which it is a 413 of its own). For MessagePack sequences,
// NDJSON lines (with and without a final newline) and a JSON body; delivered in one chunk and in
// chunks of 1 byte, of odd sizes and of sizes around the bound; in `Request`s, and over real
// HTTP on 127.0.0.1 (`Deno.serve` under Deno, `Bun.serve` under Bun) with the default bound of
// 1 MiB too.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  DEFAULT_MAX_BODY_BYTES,
  HttpError,
  readBody,
  type ReadBodyOptions,
  readBodyValues,
  type ReadBodyValuesOptions,
  respond,
} from "../http.ts";
import { pack } from "../mod.ts";
import { concatBytes } from "../_core/bytes.ts";
import { serve, type Server } from "./_http.ts";

/** The bound of the in-process tests, small enough for 1-byte chunks. */
const BOUND = 100;
/** A bound above the piece `readBodyValues` hands the stream decoder (64 KiB) at once. */
const LARGE_BOUND = 70_000;
const utf8 = new TextEncoder();

type Format = "msgpack" | "ndjson" | "ndjson, no final newline" | "json";
const CONTENT_TYPES: Record<Format, string> = {
  msgpack: "application/msgpack",
  ndjson: "application/x-ndjson",
  "ndjson, no final newline": "application/x-ndjson",
  json: "application/json",
};

/** The string whose encoding in `format` takes `size` bytes (one NDJSON line, without "\n"). */
function valueOfSize(format: Format, size: number): string {
  if (format !== "msgpack") return "x".repeat(size - 2); // the quotes of a JSON string
  const header = size <= 32 ? 1 : size <= 257 ? 2 : size <= 65538 ? 3 : 5;
  const value = "x".repeat(size - header);
  assert.equal(pack(value).length, size, `a MessagePack string of ${size} bytes`);
  return value;
}

/** The body of values of these sizes, and where each value starts. */
function bodyOf(format: Format, sizes: readonly number[]): { bytes: Uint8Array; starts: number[] } {
  const values = sizes.map((size) => valueOfSize(format, size));
  const starts: number[] = [];
  let offset = 0;
  for (const size of sizes) {
    starts.push(offset);
    offset += size + (format === "msgpack" ? 0 : 1);
  }
  if (format === "msgpack") {
    return { bytes: concatBytes(values.map((value) => pack(value))), starts };
  }
  const lines = values.map((value) => JSON.stringify(value));
  const text = format === "ndjson" ? lines.map((line) => `${line}\n`).join("") : lines.join("\n");
  return { bytes: utf8.encode(text), starts };
}

/** `bytes` as a stream of chunks of `size` bytes (the last one shorter). */
function streamOf(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

/** How a body arrives: whole, or as a stream of chunks of one size. */
interface Delivery {
  name: string;
  chunk: number | null;
}

function deliveries(bound: number, small: boolean): Delivery[] {
  const sizes = small ? [1, 7, bound - 1, bound, bound + 1, 3 * bound + 7] : [1009, 65536, 65537];
  return [
    { name: "one chunk", chunk: null },
    ...sizes.map((chunk) => ({
      name: `${chunk}-byte chunks`,
      chunk,
    })),
  ];
}

/** A POST of `bytes` as `format`, its body whole or streamed. */
function requestOf(format: Format, bytes: Uint8Array, delivery: Delivery): Request {
  return new Request("http://localhost/", {
    method: "POST",
    headers: { "content-type": CONTENT_TYPES[format] },
    body: delivery.chunk === null ? bytes : streamOf(bytes, delivery.chunk),
    duplex: "half",
  } as RequestInit);
}

/** Value sizes: a body of these values, and whether it passes under `bound`. */
interface Layout {
  name: string;
  sizes: (bound: number) => number[];
}

const PASSING: Layout[] = [
  { name: "one value at the bound", sizes: (b) => [b] },
  { name: "one value just under the bound", sizes: (b) => [b - 1] },
  {
    name: "values at and just under the bound, together five times over it",
    sizes: (b) => [b - 1, b, b - 1, b, b - 1],
  },
  { name: "small values", sizes: () => [3, 4, 3] },
];
const FAILING: Layout[] = [
  { name: "the only value, just over", sizes: (b) => [b + 1] },
  { name: "the last value, after smaller ones", sizes: (b) => [3, b - 1, b + 1] },
  { name: "the first value, before smaller ones", sizes: (b) => [b + 1, 3, 3] },
  { name: "between smaller ones", sizes: (b) => [3, b + 1, 3] },
  { name: "after values at the bound", sizes: (b) => [b, b, b + 1, b] },
  { name: "far over, after a small one", sizes: (b) => [3, 5 * b] },
];
/** A JSON body is one value. */
const JSON_LAYOUTS = (layouts: Layout[]) =>
  layouts.filter((layout) => layout.sizes(10).length === 1);

type Reader = "readBodyValues" | "readBody multiple";

/** What a reader gave: the values before an error, and the error. */
interface Outcome {
  values: unknown[];
  error?: unknown;
}

async function read(
  reader: Reader,
  request: Request,
  options: ReadBodyValuesOptions & ReadBodyOptions,
): Promise<Outcome> {
  const values: unknown[] = [];
  try {
    if (reader === "readBody multiple") {
      values.push(...await readBody(request, { ...options, multiple: true }));
    } else {
      for await (const value of readBodyValues(request, options)) values.push(value);
    }
    return { values };
  } catch (error) {
    return { values, error };
  }
}

/** Checks a 413 for the first value over `bound`, at index `over` of a body of `sizes`. */
function assertValueTooLarge(
  outcome: Outcome,
  format: Format,
  reader: Reader,
  sizes: number[],
  starts: number[],
  bound: number,
  context: string,
): void {
  const { error, values } = outcome;
  assert.ok(error instanceof HttpError, `${context}: an HttpError, got ${error}`);
  assert.equal(error.status, 413, `${context}: ${error.message}`);
  const over = sizes.findIndex((size) => size > bound);
  const match =
    /^Body value(?: at offset (\d+)| on line (\d+))? exceeds maxValueBytes \((\d+) bytes\)$/
      .exec(error.message);
  assert.ok(match !== null, `${context}: ${error.message}`);
  assert.equal(Number(match[3]), bound, context);
  if (match[1] !== undefined) {
    assert.equal(format, "msgpack", context);
    assert.equal(Number(match[1]), starts[over], `${context}: the offset of the value`);
  } else if (match[2] !== undefined) {
    assert.equal(Number(match[2]), over + 1, `${context}: the line of the value`);
  } else {
    // only a streamed NDJSON line still incomplete, or a JSON body, is refused without a place
    assert.ok(format !== "msgpack" && (reader === "readBodyValues" || format === "json"), context);
  }
  if (reader === "readBodyValues") {
    // the values before it were read, none after
    assert.deepEqual(
      values,
      sizes.slice(0, over).map((size) => valueOfSize(format, size)),
      `${context}: the values before it`,
    );
  }
}

describe("readBodyValues and readBody multiple hold each value to maxValueBytes", () => {
  for (const reader of ["readBodyValues", "readBody multiple"] as const) {
    for (const format of Object.keys(CONTENT_TYPES) as Format[]) {
      for (const bound of [BOUND, LARGE_BOUND]) {
        const small = bound === BOUND;
        test(`${reader}, ${format}, maxValueBytes ${bound}`, async () => {
          const passing = format === "json" ? JSON_LAYOUTS(PASSING) : PASSING;
          const failing = format === "json" ? JSON_LAYOUTS(FAILING) : FAILING;
          for (const delivery of deliveries(bound, small)) {
            for (const layout of [...passing, ...failing]) {
              const sizes = layout.sizes(bound);
              const { bytes, starts } = bodyOf(format, sizes);
              const context = `${layout.name}, ${delivery.name}`;
              const outcome = await read(reader, requestOf(format, bytes, delivery), {
                maxValueBytes: bound,
                maxBytes: 16 * bound,
              });
              if (passing.includes(layout)) {
                assert.equal(outcome.error, undefined, `${context}: ${outcome.error}`);
                assert.deepEqual(
                  outcome.values,
                  sizes.map((size) => valueOfSize(format, size)),
                  context,
                );
              } else {
                assertValueTooLarge(outcome, format, reader, sizes, starts, bound, context);
              }
            }
          }
        });
      }
    }
  }

  test("maxBytes bounds the whole body: at it passes, one byte over is a 413 of its own", async () => {
    for (const reader of ["readBodyValues", "readBody multiple"] as const) {
      for (const format of ["msgpack", "ndjson"] as const) {
        const sizes = [BOUND - 1, BOUND, BOUND - 1];
        const { bytes } = bodyOf(format, sizes);
        for (const delivery of deliveries(BOUND, true)) {
          const context = `${reader}, ${format}, ${delivery.name}`;
          const at = await read(reader, requestOf(format, bytes, delivery), {
            maxValueBytes: BOUND,
            maxBytes: bytes.length,
          });
          assert.equal(at.error, undefined, `${context}: ${at.error}`);
          assert.equal(at.values.length, 3, context);
          const under = await read(reader, requestOf(format, bytes, delivery), {
            maxValueBytes: BOUND,
            maxBytes: bytes.length - 1,
          });
          assert.ok(under.error instanceof HttpError, context);
          assert.equal(under.error.status, 413, context);
          assert.equal(under.error.message, `Body exceeds maxBytes (${bytes.length - 1} bytes)`);
        }
      }
    }
  });
});

describe("over real HTTP", () => {
  let server: Server;

  before(() => {
    server = serve(async (request) => {
      const url = new URL(request.url);
      const options: ReadBodyValuesOptions & ReadBodyOptions = {};
      for (const name of ["maxValueBytes", "maxBytes"] as const) {
        const value = url.searchParams.get(name);
        if (value !== null) options[name] = Number(value);
      }
      const outcome = await read(
        url.pathname === "/values" ? "readBodyValues" : "readBody multiple",
        request,
        options,
      );
      if (outcome.error === undefined) {
        return respond(request, { lengths: outcome.values.map((value) => String(value).length) });
      }
      if (!(outcome.error instanceof HttpError)) throw outcome.error;
      return respond(request, { error: outcome.error.message }, { status: outcome.error.status });
    });
  });

  after(async () => {
    await server.close();
  });

  async function post(
    path: string,
    format: Format,
    bytes: Uint8Array,
    delivery: Delivery,
  ): Promise<{ status: number; body: { lengths?: number[]; error?: string } }> {
    const response = await fetch(`${server.url}${path.slice(1)}`, {
      method: "POST",
      headers: { "content-type": CONTENT_TYPES[format], accept: "application/json" },
      body: delivery.chunk === null ? bytes : streamOf(bytes, delivery.chunk),
      duplex: "half",
      signal: AbortSignal.timeout(30_000),
    } as RequestInit);
    return { status: response.status, body: await response.json() };
  }

  test("each layout: the values pass or the first one over is a 413", async () => {
    for (const path of ["/values", "/multiple"]) {
      for (const format of ["msgpack", "ndjson", "json"] as const) {
        const layouts = format === "json" ? JSON_LAYOUTS([...PASSING, ...FAILING]) : [
          ...PASSING,
          ...FAILING,
        ];
        for (
          const delivery of [{ name: "one chunk", chunk: null }, {
            name: "7-byte chunks",
            chunk: 7,
          }]
        ) {
          for (const layout of layouts) {
            const sizes = layout.sizes(BOUND);
            const { bytes } = bodyOf(format, sizes);
            const context = `${path}, ${format}, ${layout.name}, ${delivery.name}`;
            const { status, body } = await post(
              `${path}?maxValueBytes=${BOUND}&maxBytes=${16 * BOUND}`,
              format,
              bytes,
              delivery,
            );
            if (PASSING.includes(layout)) {
              assert.equal(status, 200, `${context}: ${body.error}`);
              const lengths = sizes.map((size) => valueOfSize(format, size).length);
              assert.deepEqual(body.lengths, lengths, context);
            } else {
              assert.equal(status, 413, context);
              assert.match(String(body.error), /exceeds maxValueBytes \(100 bytes\)$/, context);
            }
          }
        }
      }
    }
  });

  test("the default bound: a value of 1 MiB passes, one byte more is a 413", async () => {
    for (const path of ["/values", "/multiple?maxBytes=8388608"]) {
      for (const format of ["msgpack", "ndjson"] as const) {
        for (
          const delivery of [{ name: "one chunk", chunk: null }, { name: "chunks", chunk: 65_537 }]
        ) {
          const context = `${path}, ${format}, ${delivery.name}`;
          const at = bodyOf(format, [3, DEFAULT_MAX_BODY_BYTES, 3]).bytes;
          const fine = await post(path, format, at, delivery);
          assert.equal(fine.status, 200, `${context}: ${fine.body.error}`);
          assert.equal(fine.body.lengths?.length, 3, context);
          const over = bodyOf(format, [3, DEFAULT_MAX_BODY_BYTES + 1, 3]).bytes;
          const refused = await post(path, format, over, delivery);
          assert.equal(refused.status, 413, context);
          assert.match(
            String(refused.body.error),
            new RegExp(`exceeds maxValueBytes \\(${DEFAULT_MAX_BODY_BYTES} bytes\\)$`),
            context,
          );
        }
      }
    }
  });

  test("maxBytes over HTTP: by Content-Length up front, and while reading a stream", async () => {
    const { bytes } = bodyOf("msgpack", [BOUND - 1, BOUND - 1, BOUND - 1]);
    for (const path of ["/values", "/multiple"]) {
      for (
        const delivery of [{ name: "one chunk", chunk: null }, { name: "7-byte chunks", chunk: 7 }]
      ) {
        const context = `${path}, ${delivery.name}`;
        const query = `?maxValueBytes=${BOUND}&maxBytes=`;
        const at = await post(`${path}${query}${bytes.length}`, "msgpack", bytes, delivery);
        assert.equal(at.status, 200, `${context}: ${at.body.error}`);
        const over = await post(`${path}${query}${bytes.length - 1}`, "msgpack", bytes, delivery);
        assert.equal(over.status, 413, context);
        assert.equal(over.body.error, `Body exceeds maxBytes (${bytes.length - 1} bytes)`, context);
      }
    }
  });
});
