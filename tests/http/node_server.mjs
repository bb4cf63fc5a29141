// Copyright 2026 the @x/msgpackr authors. MIT license.
// A Node server written with npm `msgpackr` and node:http (not with this library), for
// tests/http_test.ts to read with fetchValue and fetchValues. Prints its base URL on the first
// line of stdout, then serves until it is killed.
//
//   GET  /value     MessagePack (pack) when Accept mentions msgpack, else JSON
//   GET  /records   MessagePack records (new Packr()), as application/x-msgpack
//   GET  /stream    ?count=N rows through msgpackr's PackrStream (sequential records)
//   POST /echo      { received: <the body, decoded by its Content-Type> } as MessagePack
//   GET  /missing   404 with a MessagePack body

import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { pack, Packr, PackrStream, unpack } from "msgpackr";

const value = JSON.parse(readFileSync(new URL("value.json", import.meta.url), "utf8"));

function send(response, status, type, body) {
  response.writeHead(status, { "content-type": type, "content-length": body.length });
  response.end(body);
}

const server = createServer(async (request, response) => {
  const url = new URL(request.url, "http://localhost/");
  const accept = request.headers.accept ?? "";
  if (url.pathname === "/value") {
    if (accept.includes("msgpack")) send(response, 200, "application/msgpack", pack(value));
    else send(response, 200, "application/json", Buffer.from(JSON.stringify(value)));
  } else if (url.pathname === "/records") {
    send(response, 200, "application/x-msgpack", new Packr().pack([value, value]));
  } else if (url.pathname === "/stream") {
    const count = Number(url.searchParams.get("count") ?? 10);
    response.writeHead(200, { "content-type": "application/msgpack" });
    const stream = new PackrStream();
    stream.pipe(response);
    for (let id = 0; id < count; id++) stream.write({ id, name: `row ${id}` });
    stream.end();
  } else if (url.pathname === "/echo") {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    const type = request.headers["content-type"] ?? "";
    const received = type.includes("msgpack") ? unpack(body) : JSON.parse(body.toString("utf8"));
    send(response, 200, "application/msgpack", pack({ received }));
  } else {
    send(response, 404, "application/msgpack", pack({ error: "not here" }));
  }
});

server.listen(0, "127.0.0.1", () => {
  console.log(`http://127.0.0.1:${server.address().port}/`);
});
process.on("SIGTERM", () => process.exit(0));
