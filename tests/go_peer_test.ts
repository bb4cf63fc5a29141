// Copyright 2026 the @x/msgpackr authors. MIT license.
// A Go service as the peer: tests/go/peer/main.go, written with Debian's
// golang-github-vmihailenco-msgpack.v5-dev as a Go developer writes it (structs with tagged
// fields, Go's integer widths, time.Time, []byte), built here with Debian's golang-go in GOPATH
// mode (GO111MODULE=off GOPATH=/usr/share/gocode; CI installs both, and without them these tests
// fail). Checked under the runtime running the tests (Deno or Bun):
//
// - Go → us: every payload of the Go program's corpus decodes, with the options the README gives
//   for other services (`mapsAsObjects: true, int64AsType: "auto"`), to what Go meant: Go's
//   `encoding/json` text of the same value, read with exact integers. Integers within ±2^53 are
//   numbers, beyond them bigints; time.Time is a Date (to the millisecond), []byte a Uint8Array,
//   structs and maps plain objects. The same through UnpackrStream and decodeIter.
// - us → Go: what a Packr with `useInt64` writes unmarshals into typed Go structs (int64 fields
//   with Date.now()-sized values, uint64, nested structs, []byte, time.Time), compared with what
//   Go reports; msgpackr's float64 for the same value is refused by Go.
// - HTTP both ways: fetchValue and fetchValues against a Go net/http server; a Go HTTP client
//   posting to our Deno.serve / Bun.serve handler built with readBody and respond.
// - `msgpackr decode` of Go's bytes prints what `encoding/json` prints for the same value, with
//   time.Time and []byte as the tool's documented `timestamp` and `bin` tags.
// - time.Time to the nanosecond both ways, in every era (before 1970, past 2106 and 2514, beyond
//   a Date's years, near the ends of int64 seconds): Go writes the spec's smallest form, which
//   `timestamps: "timestamp"` decodes to Go's seconds and nanoseconds and `pack` writes back byte
//   for byte; Go unmarshals our Timestamps (and Temporal.Instants) to the same instant; both
//   refuse a timestamp of another length.
//
// Go writes the members of a map in random order (encoding/json sorts them), so members are
// compared by name.

import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { accessSync, constants, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { FLOAT32_OPTIONS, pack, Packr, unpack, Unpackr } from "../mod.ts";
import { decodeIter, UnpackrStream } from "../stream.ts";
import { fetchValue, fetchValues, HttpError, readBody, respond } from "../http.ts";
import { concatBytes } from "../_core/bytes.ts";
import { ROOT, runCli, text } from "./_cli.ts";
import { type Exact, parseExact } from "./_exact_json.ts";
import { serve } from "./_http.ts";
import { run, start } from "./_process.ts";
import {
  assertBytewise,
  assertSameInstant,
  assertSmallestForms,
  BAD_TIMESTAMPS,
  instantPayloads,
} from "./_timestamp_peer.ts";
import { base64Bytes, base64Text, fromHex, hex } from "./_util.ts";

const GO = "/usr/bin/go";
/** What the README tells a user to decode another service's MessagePack with. */
const FROM_OTHER_SERVICES = { mapsAsObjects: true, int64AsType: "auto" } as const;
/** What the README tells a user to pack for another service with. */
const FOR_OTHER_SERVICES = new Packr({ useRecords: false, useInt64: true });

// ---- the Go program --------------------------------------------------------------------------

const temp = mkdtempSync(join(tmpdir(), "msgpackr-go-"));
after(() => rmSync(temp, { recursive: true, force: true }));

/** Whether Go's default build cache (under $HOME/.cache) can be written. */
function homeWritable(): boolean {
  const home = process.env.HOME;
  if (home === undefined || home === "") return false;
  try {
    accessSync(home, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Builds tests/go/peer offline; a clear failure when Debian's Go packages are missing. */
function buildPeer(): string {
  assert.ok(
    existsSync(GO),
    `${GO} is missing: these tests need Debian's golang-go and ` +
      "golang-github-vmihailenco-msgpack.v5-dev (apt-get install, as .ci/run does)",
  );
  const output = join(temp, "peer");
  const env: Record<string, string | undefined> = {
    ...process.env,
    GO111MODULE: "off",
    GOPATH: "/usr/share/gocode",
    GOPROXY: "off",
    GOFLAGS: "",
    CGO_ENABLED: "0",
  };
  if (process.env.GOCACHE === undefined && !homeWritable()) env.GOCACHE = join(temp, "cache");
  try {
    execFileSync(GO, ["build", "-o", output, "./tests/go/peer"], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "");
    assert.fail(
      `go build ./tests/go/peer failed (is golang-github-vmihailenco-msgpack.v5-dev ` +
        `installed under /usr/share/gocode?)\n${stderr}`,
    );
  }
  return output;
}

const PEER = buildPeer();

/** The members of a JSON object by name. */
function membersOf(value: Exact, path: string): Map<string, Exact> {
  assert.ok(
    typeof value === "object" && value !== null && !Array.isArray(value),
    `${path}: Go has an object`,
  );
  return new Map((value as { members: [string, Exact][] }).members);
}

interface Case {
  name: string;
  bytes: Uint8Array;
  /** `encoding/json` of the value, read with exact numbers. */
  json: Exact;
}

const corpus: Case[] = parseExact(
  execFileSync(PEER, ["corpus"], { encoding: "utf8", maxBuffer: 1 << 26 }),
).map((line) => {
  const entry = membersOf(line, "corpus");
  return {
    name: entry.get("name") as string,
    bytes: base64Bytes(entry.get("msgpack") as string),
    json: entry.get("json")!,
  };
});

function caseNamed(name: string): Case {
  const found = corpus.find((entry) => entry.name === name);
  assert.ok(found, `the Go corpus has a case ${JSON.stringify(name)}`);
  return found;
}

/** Runs `peer decode` on values packed here; what Go unmarshalled (as its JSON), or its error. */
async function goDecodes(
  items: readonly { type: string; bytes: Uint8Array }[],
): Promise<({ json: Exact } | { error: string })[]> {
  const input =
    items.map(({ type, bytes }) => JSON.stringify({ type, msgpack: base64Text(bytes) })).join(
      "\n",
    ) + "\n";
  const result = await run(PEER, ["decode"], input);
  assert.equal(result.code, 0, result.stderr);
  return text(result.stdout).trimEnd().split("\n").map((line) => {
    const parsed = parseExact(line)[0] as { members: [string, Exact][] };
    const [name, value] = parsed.members[0];
    return name === "json" ? { json: value } : { error: value as string };
  });
}

// ---- what Go meant ---------------------------------------------------------------------------

/** `2023-11-14T22:13:20.123456789Z` as [milliseconds of the whole second, nanoseconds]. */
function instant(iso: string, path: string): [number, number] {
  const match = /^(.+T\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/.exec(iso);
  assert.ok(match, `${path}: ${iso} is an RFC 3339 time in UTC`);
  return [Date.parse(`${match[1]}Z`), Number((match[2] ?? "").padEnd(9, "0"))];
}

/**
 * Asserts that a value of ours is what Go's `encoding/json` text says: integers within ±2^53 as
 * numbers and beyond as bigints, floats as numbers, a base64 string as a Uint8Array (Go's
 * []byte), an RFC 3339 string as a Date to the millisecond (Go's time.Time), objects as plain
 * objects with the same members.
 */
function assertMeans(ours: unknown, go: Exact, path = "value"): void {
  if (go === null || typeof go === "boolean") {
    assert.equal(ours, go, path);
  } else if (typeof go === "bigint") {
    const safe = go >= -(2n ** 53n) && go <= 2n ** 53n;
    assert.equal(typeof ours, safe ? "number" : "bigint", `${path}: ${go}`);
    assert.equal(ours, safe ? Number(go) : go, path);
  } else if (typeof go === "number") {
    assert.equal(ours, go, path);
  } else if (typeof go === "string") {
    if (ours instanceof Uint8Array) {
      assert.equal(base64Text(ours), go, `${path}: []byte`);
    } else if (ours instanceof Date) {
      const [seconds, nanoseconds] = instant(go, path);
      assert.equal(ours.getTime(), seconds + Math.floor(nanoseconds / 1e6), `${path}: time.Time`);
    } else {
      assert.equal(ours, go, path);
    }
  } else if (Array.isArray(go)) {
    assert.ok(Array.isArray(ours), `${path}: an array`);
    assert.equal(ours.length, go.length, `${path}: length`);
    go.forEach((item, i) => assertMeans(ours[i], item, `${path}[${i}]`));
  } else {
    assert.ok(
      typeof ours === "object" && ours !== null && Object.getPrototypeOf(ours) === Object.prototype,
      `${path}: a plain object`,
    );
    const members = membersOf(go, path);
    const object = ours as Record<string, unknown>;
    assert.deepEqual(Object.keys(object).sort(), [...members.keys()].sort(), `${path}: members`);
    for (const [name, value] of members) assertMeans(object[name], value, `${path}.${name}`);
  }
}

// ---- Go → us ---------------------------------------------------------------------------------

describe("Go's msgpack as the producer", () => {
  test("the corpus has Go's every integer width, floats, times, bytes, structs and maps", () => {
    assert.ok(corpus.length >= 15, `${corpus.length} cases`);
    const widths = unpack(caseNamed("widths").bytes);
    // int8..int64 and uint8..uint64 in their own forms: d0 d1 d2 d3, cc cd ce cf
    const bytes = [...caseNamed("widths").bytes];
    for (const code of [0xd0, 0xd1, 0xd2, 0xd3, 0xcc, 0xcd, 0xce, 0xcf]) {
      assert.ok(bytes.includes(code), `a ${code.toString(16)} header`);
    }
    // msgpackr's defaults: every int64 field a bigint, so arithmetic and JSON.stringify throw
    assert.equal(widths.millis, 1700000000123n);
    assert.equal(unpack(caseNamed("order").bytes).qty, 3n);
    assert.ok(new Unpackr().unpack(caseNamed("order").bytes) instanceof Map);
  });

  test("Unpackr with mapsAsObjects and int64AsType auto gives what Go meant, every case", () => {
    const unpackr = new Unpackr(FROM_OTHER_SERVICES);
    for (const entry of corpus) assertMeans(unpackr.unpack(entry.bytes), entry.json, entry.name);
    const order = unpackr.unpack(caseNamed("order").bytes);
    assert.equal(typeof order.qty, "number");
    assert.equal(order.qty + 1, 4);
    assert.equal(JSON.parse(JSON.stringify(order)).customer.id, 5000000000);
    assert.ok(order.created instanceof Date);
    assert.ok(order.receipt instanceof Uint8Array);
    const widths = unpackr.unpack(caseNamed("widths").bytes);
    assert.equal(widths.i64_max, 2n ** 63n - 1n);
    assert.equal(widths.u64_max, 2n ** 64n - 1n);
    assert.equal(widths.safe, 2 ** 53 - 1);
    assert.equal(widths.unsafe, 2n ** 53n + 1n);
    // time.Time keeps milliseconds: the nanoseconds are dropped
    const times = unpackr.unpack(caseNamed("times").bytes);
    assert.equal(times.nanos.getTime(), 1700000000123);
    assert.equal(times.before.getTime(), -1500);
    assert.equal(times.zero.toISOString(), "0001-01-01T00:00:00.000Z");
  });

  test("UnpackrStream and decodeIter with the same options, in small chunks", async () => {
    const all = concatBytes(corpus.map((entry) => entry.bytes));
    const chunks = () => {
      const list: Uint8Array[] = [];
      for (let at = 0; at < all.length; at += 7) list.push(all.slice(at, at + 7));
      return list;
    };
    const streamed = await Array.fromAsync(
      ReadableStream.from(chunks()).pipeThrough(new UnpackrStream(FROM_OTHER_SERVICES)),
    );
    const iterated = [...decodeIter(chunks(), FROM_OTHER_SERVICES)];
    for (const values of [streamed, iterated]) {
      assert.equal(values.length, corpus.length);
      corpus.forEach((entry, i) => assertMeans(values[i], entry.json, entry.name));
    }
  });
});

// ---- time.Time to the nanosecond --------------------------------------------------------------

interface GoTime {
  name: string;
  seconds: bigint;
  nanoseconds: number;
  /** Go's `Format` in UTC with 9 fraction digits. */
  text: string;
  bytes: Uint8Array;
}

const goTimes: GoTime[] = parseExact(
  execFileSync(PEER, ["times"], { encoding: "utf8" }),
).map((line) => {
  const entry = membersOf(line, "times");
  return {
    name: entry.get("name") as string,
    seconds: BigInt(entry.get("seconds") as string),
    nanoseconds: Number(entry.get("nanoseconds")),
    text: entry.get("text") as string,
    bytes: base64Bytes(entry.get("msgpack") as string),
  };
});

/** Our ISO text with Go's year: no `+`, no zeros padded past four digits. */
function goYearText(text: string): string {
  return text.replace(/^([+-])0*(\d{4,})/, (_, sign, digits) => (sign === "-" ? "-" : "") + digits);
}

describe("Go's time.Time with nanoseconds, both ways", () => {
  test("Go writes the spec's smallest form, in every era", () => {
    assert.ok(goTimes.length >= 15, `${goTimes.length} times`);
    assert.ok(goTimes.some((time) => time.seconds < 0n && time.nanoseconds > 0));
    assert.ok(goTimes.some((time) => time.seconds > 2n ** 34n));
    assert.ok(goTimes.some((time) => time.seconds > 8640000000000n)); // beyond a Date
    assertSmallestForms(goTimes);
  });

  test("timestamps: \"timestamp\" gives Go's instant, and packs Go's bytes back", () => {
    for (const time of goTimes) {
      const value = assertSameInstant(time);
      assert.equal(goYearText(value.toString()), time.text, time.name);
      // in a map (de 00 01 a2 61 74, then the value)
      assert.equal(hex(FOR_OTHER_SERVICES.pack({ at: value }).subarray(6)), hex(time.bytes));
      // the default Date: the millisecond that holds the instant, or an invalid Date beyond
      const date = unpack(time.bytes) as Date;
      const millis = time.seconds * 1000n + BigInt(Math.floor(time.nanoseconds / 1e6));
      if (millis >= -(8640000000000n * 1000n) && millis <= 8640000000000n * 1000n) {
        assert.equal(date.getTime(), Number(millis), time.name);
      } else {
        assert.ok(Number.isNaN(date.getTime()), time.name);
      }
    }
    // a struct of Go's, and in a stream one byte at a time
    const times = new Unpackr({ ...FROM_OTHER_SERVICES, timestamps: "timestamp" }).unpack(
      caseNamed("times").bytes,
    );
    assert.equal(String(times.nanos), "2023-11-14T22:13:20.123456789Z");
    assert.equal(String(times.before), "1969-12-31T23:59:58.500000000Z");
    assert.equal(String(times.far), "2500-01-02T03:04:05.000000006Z");
    assertBytewise(goTimes);
  });

  test("Go unmarshals our Timestamps and Temporal.Instants to the same instant", async () => {
    const { payloads, expected } = instantPayloads([
      ...goTimes.map((time) => [time.seconds, time.nanoseconds] as const),
      [-(2n ** 63n), 0], // where Go's Format wraps, its Unix() does not
      [-(2n ** 63n), 999999999],
      [-62135596801n, 999999999], // the last nanosecond before year 1
    ]);
    const items = payloads.map((bytes) => ({ type: "Time", bytes }));
    const results = await goDecodes(items);
    assert.equal(results.length, expected.length);
    results.forEach((result, i) => {
      const [seconds, nanoseconds] = expected[i];
      assert.ok("json" in result, "error" in result ? result.error : "");
      const members = membersOf(result.json, "time");
      assert.equal(members.get("seconds"), String(seconds), `${seconds} s`);
      assert.equal(members.get("nanoseconds"), BigInt(nanoseconds), `${seconds} s`);
    });
  });

  test("Go refuses a timestamp of another length, as we do", async () => {
    const results = await goDecodes(
      BAD_TIMESTAMPS.map((text) => ({ type: "Time", bytes: fromHex(text) })),
    );
    BAD_TIMESTAMPS.forEach((text, i) => {
      const result = results[i];
      assert.ok("error" in result, text);
      assert.match(result.error, /invalid ext len=\d+ decoding time/);
      assert.throws(
        () => unpack(fromHex(text)),
        /^DecodeError: Invalid timestamp extension length/,
      );
    });
  });
});

// ---- us → Go ---------------------------------------------------------------------------------

/** An event as a JavaScript service sends it, in the field order of Go's Event struct. */
function eventOf(at: number) {
  return {
    at,
    id: 2 ** 53 - 1,
    seq: 3,
    small: -128,
    u16: 65535,
    i32: -(2 ** 31),
    u32: 2 ** 32 - 1,
    neg: -(2 ** 40) - 7,
    big: 2n ** 64n - 1n,
    ratio: 0.1,
    name: "é€😀",
    payload: new Uint8Array([0, 1, 254, 255]),
    when: new Date(at),
    tags: ["a", "b"],
    items: [{ sku: "A-1", qty: 2, price: 12.5 }, { sku: "B-2", qty: 5000000000, price: 0.5 }],
    customer: { id: 2 ** 40, name: "Ada", vip: true },
    labels: { zone: "eu", tier: "gold" },
  };
}

describe("Go unmarshals what we pack into typed structs", () => {
  test("useInt64: int64 and uint64 fields, nested structs, []byte and time.Time", async () => {
    const at = Date.now();
    const event = eventOf(at);
    const [got, msgpackr, records] = await goDecodes([
      { type: "Event", bytes: FOR_OTHER_SERVICES.pack(event) },
      { type: "Event", bytes: pack(event) },
      { type: "Event", bytes: new Packr({ useRecords: false, useInt64: true }).pack({ at }) },
    ]);
    assert.ok("json" in got, "error" in got ? got.error : "");
    assertMeans(event, got.json, "event");
    assert.equal(membersOf(got.json, "event").get("at"), BigInt(at));
    // msgpackr's bytes: Date.now() is a float64, which Go's int64 refuses
    assert.ok("error" in msgpackr);
    assert.match(msgpackr.error, /invalid code=cb decoding int64/);
    assert.ok("json" in records);
    assert.equal(membersOf(records.json, "records").get("at"), BigInt(at));
  });

  test("a Go float32 field takes float32 only: pack with useFloat32 for it", async () => {
    const [float64, float32] = await goDecodes([
      { type: "Gauge", bytes: FOR_OTHER_SERVICES.pack({ value: 0.75 }) },
      {
        type: "Gauge",
        bytes: new Packr({ useRecords: false, useFloat32: FLOAT32_OPTIONS.ALWAYS }).pack({
          value: 0.75,
        }),
      },
    ]);
    assert.ok("error" in float64);
    assert.match(float64.error, /invalid code=cb decoding float32/);
    assert.ok("json" in float32);
    assert.equal(membersOf(float32.json, "gauge").get("value"), 0.75);
  });
});

// ---- HTTP both ways --------------------------------------------------------------------------

describe("HTTP with a Go service", () => {
  test("fetchValue and fetchValues read a Go net/http server, and post to it", async () => {
    const go = await start(PEER, ["server"]);
    try {
      const order = await fetchValue<{ qty: number; id: number }>(`${go.url}order`);
      assertMeans(order, caseNamed("order").json, "order");
      assert.equal(typeof order.qty, "number");
      assert.equal(order.qty + 1, 4);
      assert.equal(typeof JSON.stringify(order), "string");

      const orders = await Array.fromAsync(
        fetchValues<{ id: number }>(`${go.url}orders?count=5`),
      );
      assert.deepEqual(orders.map((entry) => entry.id), [0, 1, 2, 3, 4].map((i) => i * 2 ** 33));
      for (const entry of orders) assert.deepEqual({ ...entry, id: order.id }, order);

      // our body into Go's typed Event, packed back by Go
      const at = Date.now();
      const event = eventOf(at);
      const back = await fetchValue<ReturnType<typeof eventOf>>(`${go.url}event`, { body: event });
      assert.deepEqual(back, event);
      assert.equal(back.at, at);
      // msgpackr's choice (float64 for Date.now()) is refused by Go
      await assert.rejects(
        fetchValue(`${go.url}event`, { body: event, packrOptions: { useInt64: false } }),
        (error) => {
          assert.ok(error instanceof HttpError);
          assert.equal(error.status, 400);
          assert.match(String(error.body), /invalid code=cb decoding int64/);
          return true;
        },
      );
    } finally {
      await go.stop();
    }
  });

  test("a Go client posts to readBody, reads respond's { at: Date.now() } as int64", async () => {
    const bodies: Record<string, unknown>[] = [];
    const at = Date.now();
    const server = serve(async (request) => {
      const body = await readBody<{ qty: number }>(request);
      bodies.push(body);
      const reply = { at, qty: body.qty + 1, json: JSON.stringify(body) };
      const msgpackr = new URL(request.url).searchParams.has("msgpackr");
      return respond(request, reply, msgpackr ? { packrOptions: { useInt64: false } } : {});
    });
    try {
      const result = await run(PEER, ["client", server.url]);
      assert.equal(result.code, 0, result.stderr);
      const printed = membersOf(parseExact(text(result.stdout))[0], "client");
      assert.equal(printed.get("status"), 200n);
      assert.equal(printed.get("type"), "application/msgpack");
      const reply = membersOf(printed.get("reply")!, "reply");
      assert.equal(reply.get("at"), BigInt(at));
      assert.equal(reply.get("qty"), 4n);

      const [body] = bodies;
      assertMeans(body, caseNamed("order").json, "body");
      assert.equal(typeof body.qty, "number");
      assert.equal(typeof body.id, "number");
      assert.equal(reply.get("json"), JSON.stringify(body));

      const refused = await run(PEER, ["client", `${server.url}?msgpackr`]);
      assert.equal(refused.code, 0, refused.stderr);
      const error = membersOf(parseExact(text(refused.stdout))[0], "client").get("error");
      assert.match(String(error), /invalid code=cb decoding int64/);
    } finally {
      await server.close();
    }
  });
});

// ---- the command line tool -------------------------------------------------------------------

/**
 * Asserts that the tool's JSON is Go's: the same JSON but for []byte, a `bin` tag of the same
 * base64, and time.Time, a `timestamp` tag of the same instant to the nanosecond.
 */
function assertPrintsAsGo(ours: Exact, go: Exact, path: string): void {
  if (typeof ours === "object" && ours !== null && !Array.isArray(ours)) {
    const members = new Map(ours.members);
    const tag = members.get("$msgpack");
    if (tag === "bin") {
      assert.equal(members.get("base64"), go, `${path}: []byte`);
      return;
    }
    if (tag === "timestamp") {
      assert.equal(typeof go, "string", `${path}: time.Time`);
      assert.deepEqual(
        instant(members.get("value") as string, path),
        instant(go as string, path),
        `${path}: time.Time`,
      );
      return;
    }
    const theirs = membersOf(go, path);
    assert.deepEqual([...members.keys()].sort(), [...theirs.keys()].sort(), `${path}: members`);
    for (const [name, value] of members) {
      assertPrintsAsGo(value, theirs.get(name)!, `${path}.${name}`);
    }
  } else if (Array.isArray(ours)) {
    assert.ok(Array.isArray(go), `${path}: an array`);
    assert.equal(ours.length, go.length, `${path}: length`);
    ours.forEach((item, i) => assertPrintsAsGo(item, go[i], `${path}[${i}]`));
  } else {
    // integers (bigint) stay apart from floats (number)
    assert.equal(ours, go, path);
  }
}

describe("msgpackr decode of Go's bytes", () => {
  test("prints what encoding/json prints, time.Time and []byte as their tags", async () => {
    const file = join(temp, "go.mp");
    writeFileSync(file, concatBytes(corpus.map((entry) => entry.bytes)));
    const result = await runCli(["decode", "--ndjson", file]);
    assert.equal(result.stderr, "");
    assert.equal(result.code, 0);
    const lines = text(result.stdout).trimEnd().split("\n");
    assert.equal(lines.length, corpus.length);
    corpus.forEach((entry, i) => assertPrintsAsGo(parseExact(lines[i])[0], entry.json, entry.name));
    // the tags are there
    const order = lines[corpus.indexOf(caseNamed("order"))];
    assert.match(
      order,
      /"created":\{"\$msgpack":"timestamp","value":"2023-11-14T22:13:20\.123Z"\}/,
    );
    assert.match(order, /"receipt":\{"\$msgpack":"bin","base64":"AAEC\/v8="\}/);
  });
});
