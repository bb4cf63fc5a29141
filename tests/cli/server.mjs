// Copyright 2026 the @x/msgpackr authors. MIT license.
// A service for tests/cli_fetch_test.ts, written with Node's http module and npm's msgpackr
// (not this library). Run with `node tests/cli/server.mjs`: it listens on 127.0.0.1 on a free
// port and prints its URL (`http://127.0.0.1:PORT`, no trailing slash) on its first line of output.
//
//   GET /value        200, application/msgpack: one value
//   GET /json         200, application/json: a JSON text, spacing kept
//   GET /ndjson       200, application/x-ndjson: lines written one by one
//   GET /sequence     200, application/msgpack: three values in one write
//   GET /stream?id=X  200, application/msgpack: a first value and half of a second, then,
//                     once GET /release?id=X has come (or after 20 s), the rest and a third
//   GET /error        404, application/msgpack: an error value
//   GET /broken       200, application/msgpack: a value cut short
//   GET /empty        204, no body
//   ANY /echo         200, application/msgpack: the method, the content type, the accept and
//                     x-test headers, and the request body in hex

import { createServer } from "node:http";
import { Packr } from "msgpackr";

const packr = new Packr({ useRecords: false, int64AsType: "bigint" });
const waiting = new Map();

function send(response, status, type, body) {
  response.writeHead(status, type === null ? {} : { "content-type": type });
  response.end(body);
}

const server = createServer((request, response) => {
  const url = new URL(request.url, "http://localhost");
  switch (url.pathname) {
    case "/value":
      return send(
        response,
        200,
        "application/msgpack",
        packr.pack({ id: 5000000000n, name: "Ada", price: 9.5, tags: ["x"] }),
      );
    case "/json":
      return send(response, 200, "application/json; charset=utf-8", '{"a":  1, "b": [true]}');
    case "/ndjson": {
      response.writeHead(200, { "content-type": "application/x-ndjson" });
      response.write('{"n":1}\n');
      setTimeout(() => response.end('{"n":2}\n'), 50);
      return;
    }
    case "/sequence":
      return send(
        response,
        200,
        "application/msgpack",
        Buffer.concat([packr.pack(1), packr.pack({ two: 2 }), packr.pack([3])]),
      );
    case "/stream": {
      response.writeHead(200, { "content-type": "application/msgpack" });
      const second = packr.pack({ second: "x".repeat(100), big: 2n ** 63n });
      response.write(Buffer.concat([packr.pack({ first: 1 }), second.subarray(0, 40)]));
      const rest = () => {
        clearTimeout(timer);
        waiting.delete(url.searchParams.get("id"));
        response.write(second.subarray(40, 60));
        setTimeout(() => response.end(Buffer.concat([second.subarray(60), packr.pack(3)])), 20);
      };
      const timer = setTimeout(rest, 20000);
      waiting.set(url.searchParams.get("id"), rest);
      return;
    }
    case "/release": {
      const rest = waiting.get(url.searchParams.get("id"));
      if (rest !== undefined) rest();
      return send(response, rest === undefined ? 404 : 200, "text/plain", "released");
    }
    case "/error":
      return send(
        response,
        404,
        "application/msgpack",
        packr.pack({ error: "not found", code: 404 }),
      );
    case "/broken":
      return send(response, 200, "application/msgpack", packr.pack(["abc", 1]).subarray(0, 4));
    case "/empty":
      return send(response, 204, null, undefined);
    case "/echo": {
      const chunks = [];
      request.on("data", (chunk) => chunks.push(chunk));
      request.on("end", () => {
        send(
          response,
          200,
          "application/msgpack",
          packr.pack({
            method: request.method,
            contentType: request.headers["content-type"] ?? null,
            accept: request.headers.accept ?? null,
            test: request.headers["x-test"] ?? null,
            body: Buffer.concat(chunks).toString("hex"),
          }),
        );
      });
      return;
    }
  }
  send(response, 404, "text/plain", "no such path\n");
});

server.listen(0, "127.0.0.1", () => {
  console.log(`http://127.0.0.1:${server.address().port}`);
});
