// Copyright 2026 the @x/msgpackr authors. MIT license.
// The `schema` option of http.ts with the real schema libraries (zod, valibot, arktype): on the
// server (readBody, readBodyValues) a body that fails is a 400 HttpError naming the first issue's
// path, with every issue; on the client (fetchValue, fetchValues, over real HTTP on 127.0.0.1) a
// response that fails is a ValidationError. MessagePack and JSON bodies are validated alike, each
// value of a sequence in order, async refinements are awaited, transforms give their output, and
// the results are typed as the schema's output.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import * as v from "valibot";
import { type } from "arktype";
import {
  fetchValue,
  fetchValues,
  HttpError,
  readBody,
  readBodyValues,
  respond,
  type StandardSchemaV1,
  ValidationError,
} from "../http.ts";
import { pack } from "../mod.ts";
import { serve, type Server } from "./_http.ts";
import { type Equal, keys, LIBRARIES } from "./_schemas.ts";

const BODIES = {
  msgpack: (value: unknown) => ({ type: "application/msgpack", body: pack(value) }),
  json: (value: unknown) => ({ type: "application/json", body: JSON.stringify(value) }),
} as const;

function post(kind: keyof typeof BODIES, value: unknown): Request {
  const { type: contentType, body } = BODIES[kind](value);
  return new Request("http://localhost/orders", {
    method: "POST",
    headers: { "content-type": contentType },
    body,
  });
}

function sequence(kind: "msgpack" | "ndjson", values: unknown[]): Request {
  const body = kind === "msgpack"
    ? new Uint8Array(values.flatMap((value) => [...pack(value)]))
    : values.map((value) => JSON.stringify(value)).join("\n") + "\n";
  return new Request("http://localhost/orders", {
    method: "POST",
    headers: {
      "content-type": kind === "msgpack" ? "application/msgpack" : "application/x-ndjson",
    },
    body,
  });
}

/** A 400 for `{ id: "x" }`, as the server answers it. */
function isBadBody(error: unknown, index?: number): boolean {
  assert.ok(error instanceof HttpError, String(error));
  assert.equal(error.status, 400);
  const subject = index === undefined ? "body" : `body value \\(index ${index}\\)`;
  assert.match(error.message, new RegExp(`^Invalid ${subject} at \\$\\.id: \\S`));
  assert.ok(error.issues !== undefined && error.issues.length >= 1);
  assert.deepEqual(keys(error.issues[0]), ["id"]);
  assert.ok(error.cause instanceof ValidationError);
  assert.equal(error.cause.message, error.message);
  return true;
}

/** A ValidationError for `{ id: "x" }` in a response. */
function isBadResponse(error: unknown, index?: number): boolean {
  assert.ok(error instanceof ValidationError, String(error));
  const subject = index === undefined ? "response" : `response value \\(index ${index}\\)`;
  assert.match(error.message, new RegExp(`^Invalid ${subject} at \\$\\.id: \\S`));
  assert.deepEqual(keys(error.issues[0]), ["id"]);
  assert.equal(error.index, index);
  return true;
}

for (const library of LIBRARIES) {
  describe(`readBody and readBodyValues with ${library.name} schemas`, () => {
    for (const kind of ["msgpack", "json"] as const) {
      test(`a ${kind} body: accepted, transformed, or a 400 at ["id"]`, async () => {
        assert.deepEqual(
          await readBody(post(kind, { id: 1, name: "ann" }), { schema: library.order }),
          {
            id: 1,
            name: "ann",
          },
        );
        assert.deepEqual(
          await readBody(post(kind, { id: 1, name: "ann" }), { schema: library.measured }),
          { id: 1, name: 3 },
        );
        await assert.rejects(
          readBody(post(kind, { id: "x", name: "ann" }), { schema: library.order }),
          (error) => isBadBody(error),
        );
      });
    }

    test("multiple: each value validated, a failure names its index", async () => {
      const rows = [{ id: 1, name: "ann" }, { id: "x", name: "bob" }];
      assert.deepEqual(
        await readBody(sequence("msgpack", rows.slice(0, 1)), {
          multiple: true,
          schema: library.measured,
        }),
        [{ id: 1, name: 3 }],
      );
      for (const kind of ["msgpack", "ndjson"] as const) {
        await assert.rejects(
          readBody(sequence(kind, rows), { multiple: true, schema: library.order }),
          (error) => isBadBody(error, 1),
        );
      }
    });

    for (const kind of ["msgpack", "ndjson"] as const) {
      test(`readBodyValues of ${kind}: outputs as they arrive, then a 400 naming the index`, async () => {
        const rows = [{ id: 1, name: "ann" }, { id: 2, name: "bob" }, { id: "x", name: "cy" }];
        const seen: unknown[] = [];
        await assert.rejects(async () => {
          for await (
            const row of readBodyValues(sequence(kind, rows), { schema: library.measured })
          ) {
            seen.push(row);
          }
        }, (error) => isBadBody(error, 2));
        assert.deepEqual(seen, [{ id: 1, name: 3 }, { id: 2, name: 3 }]);
      });
    }
  });
}

describe("the schema option beside the other checks", () => {
  test("the body's own errors come first: 415, 413, 400 for malformed bytes", async () => {
    const schema = z.object({ id: z.number() });
    const text = new Request("http://localhost/", { method: "POST", body: "hi" });
    await assert.rejects(readBody(text, { schema }), { status: 415 });
    await assert.rejects(
      readBody(post("json", { id: 1, pad: "x".repeat(100) }), { schema, maxBytes: 50 }),
      {
        status: 413,
      },
    );
    const malformed = new Request("http://localhost/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    await assert.rejects(readBody(malformed, { schema }), (error) => {
      assert.ok(error instanceof HttpError && error.status === 400);
      assert.match(error.message, /^Malformed JSON body/);
      assert.equal(error.issues, undefined);
      return true;
    });
  });

  test("async refinements are awaited on the server", async () => {
    const Positive = z.object({
      id: z.number().refine(async (id) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return id > 0;
      }, "id must be positive"),
    });
    assert.deepEqual(await readBody(post("msgpack", { id: 1 }), { schema: Positive }), { id: 1 });
    await assert.rejects(readBody(post("json", { id: -1 }), { schema: Positive }), {
      status: 400,
      message: "Invalid body at $.id: id must be positive",
    });
    const seen: unknown[] = [];
    await assert.rejects(async () => {
      for await (
        const row of readBodyValues(sequence("ndjson", [{ id: 1 }, { id: -2 }]), {
          schema: Positive,
        })
      ) {
        seen.push(row);
      }
    }, { status: 400, message: "Invalid body value (index 1) at $.id: id must be positive" });
    assert.deepEqual(seen, [{ id: 1 }]);
  });

  test("the decoding options still apply (one decoder per options object)", async () => {
    const schema = z.object({ big: z.bigint() });
    const options = { schema, int64AsType: "bigint" as const };
    const body = new Uint8Array([0x81, 0xa3, 0x62, 0x69, 0x67, 0xd3, 0, 0, 0, 0, 0, 0, 0, 7]);
    const request = new Request("http://localhost/", {
      method: "POST",
      headers: { "content-type": "application/msgpack" },
      body,
    });
    assert.deepEqual(await readBody(request, options), { big: 7n });
  });

  test("the results are typed as the schema's output", async () => {
    const Order = z.object({ id: z.number(), at: z.string().transform((text) => new Date(text)) });
    type Order = { id: number; at: Date };
    const one = readBody(post("json", { id: 1, at: "2026-01-02" }), { schema: Order });
    const oneTyped: Equal<typeof one, Promise<Order>> = true;
    const many = readBody(sequence("ndjson", [{ id: 1, at: "2026-01-02" }]), {
      schema: Order,
      multiple: true,
    });
    const manyTyped: Equal<typeof many, Promise<Order[]>> = true;
    const values = readBodyValues(sequence("ndjson", []), { schema: Order });
    const valuesTyped: Equal<typeof values, AsyncGenerator<Order, void, undefined>> = true;
    assert.ok(oneTyped && manyTyped && valuesTyped);
    assert.ok((await one).at instanceof Date);
    assert.ok((await many)[0]!.at instanceof Date);
    assert.deepEqual(await Array.fromAsync(values), []);
  });
});

describe("fetchValue and fetchValues with a schema, over HTTP", () => {
  let server: Server;
  /** What the server answers at each path. */
  const replies: Record<string, unknown> = {
    "/user": { id: 7, name: "ann" },
    "/bad-user": { id: "x", name: "ann" },
    "/rows": [{ id: 1, name: "ann" }, { id: 2, name: "bob" }, { id: "x", name: "cy" }],
  };
  before(() => {
    server = serve((request) => {
      const path = new URL(request.url).pathname;
      if (path === "/empty") return new Response(null, { status: 204 });
      const value = replies[path];
      if (path === "/rows") {
        return respond(
          request,
          (function* () {
            yield* value as unknown[];
          })(),
        );
      }
      return respond(request, value);
    });
  });
  after(() => server.close());

  for (const library of LIBRARIES) {
    for (const format of ["msgpack", "json"] as const) {
      test(`${library.name}, ${format}: accepted, transformed, or a ValidationError at ["id"]`, async () => {
        assert.deepEqual(await fetchValue(`${server.url}user`, { format, schema: library.order }), {
          id: 7,
          name: "ann",
        });
        assert.deepEqual(
          await fetchValue(`${server.url}user`, { format, schema: library.measured }),
          { id: 7, name: 3 },
        );
        await assert.rejects(
          fetchValue(`${server.url}bad-user`, { format, schema: library.order }),
          (error) => isBadResponse(error),
        );
        const seen: unknown[] = [];
        await assert.rejects(async () => {
          for await (
            const row of fetchValues(`${server.url}rows`, { format, schema: library.measured })
          ) {
            seen.push(row);
          }
        }, (error) => isBadResponse(error, 2));
        assert.deepEqual(seen, [{ id: 1, name: 3 }, { id: 2, name: 3 }]);
      });
    }
  }

  test("a response without content is validated as undefined", async () => {
    assert.equal(await fetchValue(`${server.url}empty`, { schema: z.undefined() }), undefined);
    await assert.rejects(fetchValue(`${server.url}empty`, { schema: z.object({}) }), {
      name: "ValidationError",
      message: /^Invalid response at \$: /,
    });
  });

  test("async refinements are awaited on the client; a bad schema fails before any request", async () => {
    const Known = z.object({
      id: z.number().refine((id) => Promise.resolve(id === 7), "unknown id"),
    });
    assert.deepEqual(await fetchValue(`${server.url}user`, { schema: Known }), { id: 7 });
    let sent = 0;
    const counting = (input: Request | URL | string, init?: RequestInit) => {
      sent++;
      return fetch(input, init);
    };
    await assert.rejects(
      fetchValue(`${server.url}user`, {
        schema: {} as unknown as StandardSchemaV1,
        fetch: counting,
      }),
      { name: "TypeError", message: /^Cannot use schema/ },
    );
    assert.equal(sent, 0);
  });

  test("a server's 400 for a body that fails its schema reaches the client with the issues", async () => {
    const Order = v.object({ id: v.number() });
    const orders = serve(async (request) => {
      try {
        return respond(request, await readBody(request, { schema: Order }), { status: 201 });
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        return respond(request, { error: error.message, issues: error.issues?.map(keys) }, {
          status: error.status,
        });
      }
    });
    try {
      assert.deepEqual(await fetchValue(orders.url, { body: { id: 1 }, schema: Order }), { id: 1 });
      await assert.rejects(fetchValue(orders.url, { body: { id: "x" } }), (error) => {
        assert.ok(error instanceof HttpError);
        assert.equal(error.status, 400);
        const body = error.body as { error: string; issues: string[][] };
        assert.match(body.error, /^Invalid body at \$\.id: /);
        assert.deepEqual(body.issues, [["id"]]);
        return true;
      });
    } finally {
      await orders.close();
    }
  });

  test("the results are typed as the schema's output", async () => {
    const User = type({ id: "number", name: "string" });
    const user = fetchValue(`${server.url}user`, { schema: User });
    const userTyped: Equal<typeof user, Promise<{ id: number; name: string }>> = true;
    const rows = fetchValues(`${server.url}rows`, { schema: User });
    const rowsTyped: Equal<
      typeof rows,
      AsyncGenerator<{ id: number; name: string }, void, undefined>
    > = true;
    assert.ok(userTyped && rowsTyped);
    assert.equal((await user).name, "ann");
    await rows.return();
  });
});
