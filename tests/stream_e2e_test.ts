// Copyright 2026 the @x/msgpackr authors. MIT license.
// End to end over real HTTP on 127.0.0.1: a `Deno.serve` (under Deno) or `Bun.serve` (under Bun)
// server streams 100,000 records as an `application/msgpack` body built with PackrStream, and a
// `fetch` client decodes them with UnpackrStream (and decodeIter): every record, in order.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { decodeIter, IncompleteDataError, PackrStream, UnpackrStream } from "../mod.ts";

const COUNT = 100_000;

interface Row {
  id: number;
  name: string;
  active: boolean;
  score: number;
  tags: (string | number)[];
}

function row(id: number): Row {
  return { id, name: `user ${id}`, active: id % 2 === 0, score: id * 1.5, tags: ["t", id % 10] };
}

async function* rows(count: number): AsyncGenerator<Row> {
  for (let id = 0; id < count; id++) yield row(id);
}

interface Server {
  url: string;
  close(): Promise<void>;
}

interface BunServer {
  url: URL;
  stop(closeActiveConnections?: boolean): Promise<void> | void;
}

interface BunLike {
  serve(options: {
    hostname: string;
    port: number;
    fetch: (request: Request) => Response | Promise<Response>;
  }): BunServer;
}

/** Starts an HTTP server on 127.0.0.1 with the runtime's own API. */
function serve(handler: (request: Request) => Response | Promise<Response>): Server {
  const bun = (globalThis as { Bun?: BunLike }).Bun;
  if (bun !== undefined) {
    const server = bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handler });
    return { url: server.url.href, close: async () => await server.stop(true) };
  }
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  return { url: `http://127.0.0.1:${server.addr.port}/`, close: () => server.shutdown() };
}

/** Responds to every request with the records packed by a PackrStream. */
function recordServer(): Server {
  return serve((request) => {
    const count = Number(new URL(request.url).searchParams.get("count") ?? COUNT);
    const body = ReadableStream.from(rows(count)).pipeThrough(new PackrStream());
    return new Response(body, { headers: { "content-type": "application/msgpack" } });
  });
}

function assertRow(value: unknown, id: number): void {
  const actual = value as Row;
  if (
    actual.id !== id || actual.name !== `user ${id}` || actual.active !== (id % 2 === 0) ||
    actual.score !== id * 1.5 || actual.tags[0] !== "t" || actual.tags[1] !== id % 10
  ) {
    assert.deepEqual(value, row(id));
  }
}

describe("streams over HTTP", () => {
  test("UnpackrStream decodes 100,000 records streamed by a server with PackrStream", async () => {
    const server = recordServer();
    try {
      const response = await fetch(server.url);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), "application/msgpack");
      let received = 0;
      for await (const value of response.body!.pipeThrough(new UnpackrStream())) {
        assertRow(value, received++);
      }
      assert.equal(received, COUNT);
    } finally {
      await server.close();
    }
  });

  test("decodeIter decodes the same response body", async () => {
    const server = recordServer();
    try {
      const response = await fetch(server.url);
      let received = 0;
      for await (const value of decodeIter(response.body!)) assertRow(value, received++);
      assert.equal(received, COUNT);
    } finally {
      await server.close();
    }
  });

  test("UnpackrStream reports a response cut off inside a record, after the records before", async () => {
    const server = serve(async () => {
      const bytes = new Uint8Array(
        await new Response(ReadableStream.from(rows(100)).pipeThrough(new PackrStream()))
          .arrayBuffer(),
      );
      return new Response(bytes.subarray(0, bytes.length - 3), {
        headers: { "content-type": "application/msgpack" },
      });
    });
    try {
      const response = await fetch(server.url);
      let received = 0;
      await assert.rejects(async () => {
        for await (const value of response.body!.pipeThrough(new UnpackrStream())) {
          assertRow(value, received++);
        }
      }, IncompleteDataError);
      assert.equal(received, 99);
    } finally {
      await server.close();
    }
  });

  test("a server decodes a request body streamed with PackrStream", async () => {
    const server = serve(async (request) => {
      let count = 0;
      for await (const value of request.body!.pipeThrough(new UnpackrStream())) {
        assertRow(value, count++);
      }
      return Response.json({ count });
    });
    try {
      const body = ReadableStream.from(rows(20_000)).pipeThrough(new PackrStream());
      const response = await fetch(server.url, {
        method: "POST",
        body,
        headers: { "content-type": "application/msgpack" },
        duplex: "half",
      } as RequestInit);
      assert.deepEqual(await response.json(), { count: 20_000 });
    } finally {
      await server.close();
    }
  });
});
