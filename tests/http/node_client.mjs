// Copyright 2026 the @x/msgpackr authors. MIT license.
// A Node client written with npm `msgpackr` (not with this library), reading the responses of a
// server built with http.ts. Run by tests/http_test.ts as `node node_client.mjs <base URL>`;
// prints what it read as one JSON text. It reads with `int64AsType: "auto"`, as a msgpackr peer
// of http.ts should: integers beyond 32 bits arrive as uint64/int64, which msgpackr's defaults
// read as bigints (`bigDefault` reports that).

import { pack, Packr, unpack, Unpackr } from "msgpackr";

const peer = new Unpackr({ useRecords: false, int64AsType: "auto" });

const base = process.argv[2];

async function get(path, accept) {
  const response = await fetch(new URL(path, base), accept ? { headers: { accept } } : {});
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    vary: response.headers.get("vary"),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

async function post(path, contentType, body) {
  const response = await fetch(new URL(path, base), {
    method: "POST",
    headers: { "content-type": contentType, accept: "application/msgpack" },
    body,
  });
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    value: peer.unpack(Buffer.from(await response.arrayBuffer())),
  };
}

const msgpack = await get("value", "application/msgpack");
const xMsgpack = await get("value", "application/x-msgpack");
const json = await get("value");
const stream = await get("stream?count=100", "application/msgpack");
const records = await get("value?records=1", "application/msgpack");

console.log(JSON.stringify({
  msgpack: { type: msgpack.type, vary: msgpack.vary, value: peer.unpack(msgpack.bytes) },
  bigDefault: typeof unpack(msgpack.bytes).big,
  xMsgpack: { type: xMsgpack.type, value: peer.unpack(xMsgpack.bytes) },
  json: { type: json.type, value: JSON.parse(json.bytes.toString("utf8")) },
  stream: { type: stream.type, values: peer.unpackMultiple(stream.bytes) },
  records: { type: records.type, value: peer.unpack(records.bytes) },
  echo: await post("echo", "application/msgpack", pack({ sent: "by node", n: [1, 2] })),
  echoRecords: await post("echo", "application/msgpack", new Packr().pack([{ a: 1 }, { a: 2 }])),
}));
