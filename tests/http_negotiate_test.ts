// Copyright 2026 the @x/msgpackr authors. MIT license.
// The negotiation table of http.ts as pure functions: `negotiate` on `Accept` headers (RFC 9110
// weights, wildcards, refusals, ties, malformed ranges), and the classification of
// `Content-Type` headers that `readBody` reads.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { negotiate } from "../http.ts";
import { NEGOTIATION_TABLE } from "./_http.ts";
import { parseAccept } from "../_http/negotiate.ts";
import { bodyKindOf } from "../_http/media_type.ts";

const MSGPACK = "application/msgpack";
const JSON_ = "application/json";

describe("negotiate()", () => {
  for (const [accept, expected, why] of NEGOTIATION_TABLE) {
    test(`${JSON.stringify(accept)} → ${expected} (${why})`, () => {
      assert.equal(negotiate(accept), expected);
      // the cached answer is the same
      assert.equal(negotiate(accept), expected);
    });
  }

  test("undefined is no header", () => {
    assert.equal(negotiate(undefined), JSON_);
  });

  test("many distinct headers: the cache stays bounded and answers stay right", () => {
    for (let i = 0; i < 500; i++) {
      const q = (i % 1000) / 1000;
      const accept = `application/msgpack;q=${q}, application/json;q=0.5`;
      assert.equal(negotiate(accept), q >= 0.5 ? MSGPACK : JSON_, accept);
    }
  });
});

describe("parseAccept()", () => {
  test("ranges keep their order and q; invalid ones are skipped", () => {
    assert.deepEqual(parseAccept("text/*;q=0.3, foo, */*;q=x, Application/JSON;charset=x;q=1.0"), [
      { type: "text", subtype: "*", q: 0.3 },
      { type: "application", subtype: "json", q: 1 },
    ]);
  });
});

describe("bodyKindOf() (the Content-Type readBody reads)", () => {
  const table: readonly (readonly [string | null, string | null])[] = [
    ["application/msgpack", "msgpack"],
    ["application/x-msgpack", "msgpack"],
    ["application/vnd.msgpack", "msgpack"],
    ["Application/MsgPack; foo=bar", "msgpack"],
    ["application/json", "json"],
    ["application/json; charset=utf-8", "json"],
    ["application/json;charset=UTF-8", "json"],
    ["application/json; charset=iso-8859-1", "json"],
    [" APPLICATION/JSON ", "json"],
    ["application/problem+json", "json"],
    ["application/vnd.api+json; charset=utf-8", "json"],
    ["application/x-ndjson", "ndjson"],
    ["application/ndjson", "ndjson"],
    ["application/jsonl", "ndjson"],
    ["text/plain", null],
    ["text/json", null],
    ["application/octet-stream", null],
    ["application/x-www-form-urlencoded", null],
    ["multipart/form-data; boundary=x", null],
    ["+json", null],
    ["application/+json", null],
    ["", null],
    [null, null],
  ];
  for (const [contentType, kind] of table) {
    test(`${JSON.stringify(contentType)} → ${kind}`, () => {
      assert.equal(bodyKindOf(contentType), kind);
    });
  }
});
