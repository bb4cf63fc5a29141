// Copyright 2026 the @x/msgpackr authors. MIT license.
// Compressed bodies: request bodies with a Content-Encoding read by readBody and readBodyValues
// (gzip, x-gzip, deflate, br and zstd where the runtime decodes them; the bounds on the decoded
// bytes, a 1 GiB gzip bomb refused with memory bounded; 415 and 400), bodies made by Python's
// gzip and zlib modules and posted by curl, replies compressed by respond({ compress }) read by
// `curl --compressed`, request bodies compressed by fetchValue, compressed replies read by
// fetchValue and fetchValues, and a reply never compressed twice by Deno.serve.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import zlib from "node:zlib";
import {
  fetchValue,
  fetchValues,
  HttpError,
  readBody,
  readBodyValues,
  respond,
  type RespondInit,
} from "../http.ts";
import { pack, Packr, unpack, Unpackr } from "../mod.ts";
import { serve, type Server } from "./_http.ts";
import { run } from "./_process.ts";

const CURL = "/usr/bin/curl";
const PYTHON = "/usr/bin/python3";
const VALUE: unknown = JSON.parse(
  readFileSync(new URL("./http/value.json", import.meta.url), "utf8"),
);
/** A value of a few dozen KiB that compresses well. */
const ROWS = { rows: Array.from({ length: 2000 }, (_, id) => ({ id, name: `row ${id}` })) };
/** A reply of a few KiB (respond compresses single values from 1 KiB). */
const REPLY = { order: VALUE, rows: ROWS.rows.slice(0, 100) };
const objects = new Unpackr({ mapsAsObjects: true, int64AsType: "auto" });
const isDeno = typeof (globalThis as { Deno?: unknown }).Deno !== "undefined" &&
  typeof (globalThis as { Bun?: unknown }).Bun === "undefined";
const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";

/** Whether the runtime's streams have a format. */
function has(Stream: typeof CompressionStream | typeof DecompressionStream, format: string) {
  try {
    new Stream(format as CompressionFormat);
    return true;
  } catch {
    return false;
  }
}

/** HTTP codings and their stream formats, with whether this runtime decodes them. */
const CODINGS: [coding: string, format: string][] = [
  ["gzip", "gzip"],
  ["x-gzip", "gzip"],
  ["deflate", "deflate"],
  ["br", "brotli"],
  ["zstd", "zstd"],
];

async function compress(bytes: Uint8Array | string, format: string): Promise<Uint8Array> {
  const body = new Response(bytes as BodyInit).body!;
  return await new Response(body.pipeThrough(new CompressionStream(format as CompressionFormat)))
    .bytes();
}

async function decompress(bytes: Uint8Array, format: string): Promise<Uint8Array> {
  const body = new Response(bytes as BodyInit).body!;
  return await new Response(
    body.pipeThrough(new DecompressionStream(format as CompressionFormat)),
  ).bytes();
}

/** A POST with a Content-Encoding. */
function post(
  body: BodyInit | Uint8Array | null,
  coding: string,
  type = "application/msgpack",
): Request {
  return new Request("http://localhost/", {
    method: "POST",
    body: body as BodyInit,
    headers: { "content-type": type, "content-encoding": coding },
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
}

/** A body stream over `bytes` in 64 KiB chunks that counts what was pulled and sees a cancel. */
function countingBody(bytes: Uint8Array) {
  const seen = { pulled: 0, cancelled: false };
  let at = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      const chunk = bytes.slice(at, at + 65536);
      at += chunk.length;
      seen.pulled += chunk.length;
      controller.enqueue(chunk);
    },
    cancel() {
      seen.cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { stream, seen };
}

/** 1 GiB of zeros through the runtime's gzip CompressionStream (about 1 MB). */
let bomb: Promise<Uint8Array> | undefined;
function gzipBomb(): Promise<Uint8Array> {
  bomb ??= (async () => {
    const zeros = new Uint8Array(1 << 20);
    const stream = new CompressionStream("gzip");
    const writer = stream.writable.getWriter();
    const written = (async () => {
      for (let i = 0; i < 1024; i++) await writer.write(zeros);
      await writer.close();
    })();
    const bytes = await new Response(stream.readable).bytes();
    await written;
    return bytes;
  })();
  return bomb;
}

describe("compressed request bodies: readBody and readBodyValues", () => {
  test("gzip, x-gzip, deflate, and br and zstd where the runtime decodes them", async () => {
    const bytes = pack(ROWS);
    const decoded: string[] = [];
    for (const [coding, format] of CODINGS) {
      if (!has(DecompressionStream, format)) continue;
      const body = await compress(bytes, format);
      assert.ok(body.length < bytes.length / 3, `${coding} compresses`);
      assert.deepEqual(await readBody(post(body, coding)), ROWS, coding);
      // JSON too, and a coding's name in any case
      const json = await compress(JSON.stringify(ROWS), format);
      assert.deepEqual(
        await readBody(post(json, coding.toUpperCase(), "application/json")),
        ROWS,
        coding,
      );
      decoded.push(coding);
    }
    assert.deepEqual(decoded.slice(0, 3), ["gzip", "x-gzip", "deflate"]);
    // br where DecompressionStream has "brotli" (Deno, Bun), zstd where it has "zstd" (Bun)
    if (isDeno) assert.deepEqual(decoded, ["gzip", "x-gzip", "deflate", "br"]);
    if (isBun) assert.deepEqual(decoded, ["gzip", "x-gzip", "deflate", "br", "zstd"]);
  });

  test("deflate is the zlib format (RFC 9110), as zlib.deflateSync writes it", async () => {
    const body = zlib.deflateSync(pack(VALUE));
    assert.equal(body[0], 0x78); // a zlib header
    assert.deepEqual(await readBody(post(body, "deflate")), VALUE);
    // the raw deflate stream (no zlib header) is not HTTP's deflate
    await assert.rejects(readBody(post(zlib.deflateRawSync(pack(VALUE)), "deflate")), {
      status: 400,
    });
  });

  test("identity, an empty list, and identity beside a coding are no coding", async () => {
    for (const coding of ["identity", "", " , identity"]) {
      assert.deepEqual(await readBody(post(pack(VALUE), coding)), VALUE);
    }
    const body = await compress(pack(VALUE), "gzip");
    assert.deepEqual(await readBody(post(body, "identity, gzip")), VALUE);
  });

  test("415 for an unknown coding or a body coded twice; the body is cancelled", async () => {
    const body = await compress(await compress(pack(VALUE), "gzip"), "gzip");
    for (const coding of ["compress", "gzip, gzip", "deflate, gzip", "exi", "zstd, br, x"]) {
      const { stream, seen } = countingBody(body);
      await assert.rejects(readBody(post(stream, coding)), (error) => {
        assert.ok(error instanceof HttpError);
        assert.equal(error.status, 415);
        assert.match(error.message, /^Unsupported Content-Encoding .*: expected .*gzip, deflate/);
        return true;
      });
      await new Promise((resolve) => setTimeout(resolve, 0));
      assert.ok(seen.cancelled, coding);
      await assert.rejects(
        Array.fromAsync(readBodyValues(post(body, coding))),
        { status: 415 },
      );
    }
  });

  test("400 for a corrupt or truncated compressed body, with the runtime's error as cause", async () => {
    const good = await compress(pack(ROWS), "gzip");
    const corrupt = good.slice();
    corrupt[200] ^= 0xff;
    const cases = [
      ["corrupt", corrupt],
      ["truncated", good.subarray(0, good.length >> 1)],
      ["not gzip at all", pack(ROWS)],
    ] as const;
    for (const [what, body] of cases) {
      await assert.rejects(readBody(post(body, "gzip")), (error) => {
        assert.ok(error instanceof HttpError, what);
        assert.equal(error.status, 400, what);
        assert.match(error.message, /^Malformed gzip body: /, what);
        assert.ok(error.cause instanceof Error, what);
        return true;
      });
      await assert.rejects(Array.fromAsync(readBodyValues(post(body, "gzip"))), {
        status: 400,
      });
      // also without a bound, where the body is read in one piece
      await assert.rejects(readBody(post(body, "gzip"), { maxBytes: Infinity }), { status: 400 });
    }
  });

  test("an empty body with a coding is an empty body", async () => {
    await assert.rejects(readBody(post(new Uint8Array(0), "gzip")), {
      status: 400,
      message: "Empty body",
    });
    assert.deepEqual(await Array.fromAsync(readBodyValues(post(new Uint8Array(0), "gzip"))), []);
  });

  test("maxBytes bounds the decoded bytes: 10 KB of gzip that expand to 10 MiB are a 413", async () => {
    const body = await compress(new Uint8Array(10 << 20), "gzip");
    assert.ok(body.length < 11_000, `${body.length} bytes`);
    // the default bound (1 MiB), and one given
    await assert.rejects(readBody(post(body, "gzip")), {
      status: 413,
      message: "Body exceeds maxBytes (1048576 bytes)",
    });
    await assert.rejects(readBody(post(body, "gzip"), { maxBytes: 65536 }), { status: 413 });
    await assert.rejects(
      Array.fromAsync(readBodyValues(post(body, "gzip"), { maxBytes: 1 << 20 })),
      { status: 413 },
    );
    // within the bound it decodes: a sequence of 10 MiB of zeros
    const values = await readBody<number[]>(post(body, "gzip"), {
      maxBytes: 10 << 20,
      multiple: true,
    });
    assert.equal(values.length, 10 << 20);
  });

  test("maxBytes bounds the coded bytes too: by Content-Length and while reading", async () => {
    // random bytes do not compress: the coded body is larger than the decoded one
    let seed = 2463534242;
    const random = new Uint8Array(3000).map(() => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return seed & 0xff;
    });
    const bytes = pack(random);
    const body = await compress(bytes, "gzip");
    assert.ok(body.length > bytes.length);
    const maxBytes = bytes.length + 1; // the decoded body fits, the coded one does not
    await assert.rejects(readBody(post(body, "gzip"), { maxBytes }), { status: 413 });
    const { stream } = countingBody(body); // no Content-Length: counted while reading
    await assert.rejects(readBody(post(stream, "gzip"), { maxBytes }), {
      status: 413,
      message: `Body exceeds maxBytes (${maxBytes} bytes)`,
    });
    assert.deepEqual(
      await readBody(post(body, "gzip"), { maxBytes: body.length }),
      random,
    );
  });

  test("a 1 GiB gzip bomb (1 MB) is a 413 with memory bounded and the body cancelled", async () => {
    const body = await gzipBomb();
    assert.ok(body.length < 1_100_000, `${body.length} bytes`);
    for (const read of ["readBody", "readBodyValues"]) {
      const { stream, seen } = countingBody(body);
      const request = post(stream, "gzip");
      const rss = process.memoryUsage().rss;
      let values = 0; // the zeros decode to 0s: counted, not kept
      const reading = read === "readBody"
        ? readBody(request, { maxBytes: 4 << 20 })
        : (async () => {
          for await (const _ of readBodyValues(request, { maxBytes: 4 << 20 })) values++;
        })();
      await assert.rejects(reading, {
        status: 413,
        message: "Body exceeds maxBytes (4194304 bytes)",
      });
      // far below the 1 GiB the body inflates to; RSS also holds garbage not yet collected, so
      // the bound leaves room for a busy host's late collections
      const grown = process.memoryUsage().rss - rss;
      assert.ok(grown < 192 << 20, `${read}: rss grew by ${grown} bytes`);
      // decoding stopped at the bound: a few 64 KiB chunks of the body were read, then cancelled
      await new Promise((resolve) => setTimeout(resolve, 0));
      assert.ok(seen.cancelled, read);
      assert.ok(seen.pulled <= 4 * 65536, `${read}: ${seen.pulled} bytes pulled`);
      assert.ok(values <= 4 << 20);
    }
  });

  test("a brotli bomb (64 MiB in about 100 bytes) is a 413 where br is decoded", async () => {
    if (!has(DecompressionStream, "brotli")) return;
    const body = zlib.brotliCompressSync(new Uint8Array(64 << 20), {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
    });
    assert.ok(body.length < 200, `${body.length} bytes`);
    const rss = process.memoryUsage().rss;
    await assert.rejects(readBody(post(body, "br"), { maxBytes: 1 << 20 }), { status: 413 });
    const grown = process.memoryUsage().rss - rss;
    assert.ok(grown < 64 << 20, `rss grew by ${grown} bytes`);
  });

  test("readBodyValues: maxValueBytes bounds each decoded value", async () => {
    const values = ["a".repeat(100), "b".repeat(5000), "c"];
    const body = await compress(
      new Uint8Array(values.flatMap((value) => [...pack(value)])),
      "gzip",
    );
    assert.ok(body.length < 200);
    const seen: string[] = [];
    await assert.rejects(
      (async () => {
        for await (
          const value of readBodyValues<string>(post(body, "gzip"), { maxValueBytes: 1000 })
        ) {
          seen.push(value);
        }
      })(),
      { status: 413, message: "Body value at offset 102 exceeds maxValueBytes (1000 bytes)" },
    );
    assert.deepEqual(seen, [values[0]]);
    assert.deepEqual(
      await Array.fromAsync(readBodyValues(post(body, "gzip"), { maxValueBytes: 5003 })),
      values,
    );
    // readBody({ multiple }) the same way, and NDJSON lines
    await assert.rejects(readBody(post(body, "gzip"), { multiple: true, maxValueBytes: 1000 }), {
      status: 413,
    });
    const ndjson = await compress(values.map((value) => JSON.stringify(value)).join("\n"), "gzip");
    await assert.rejects(
      Array.fromAsync(
        readBodyValues(post(ndjson, "gzip", "application/x-ndjson"), { maxValueBytes: 1000 }),
      ),
      { status: 413, message: /exceeds maxValueBytes \(1000 bytes\)/ },
    );
  });

  test("a Response is read as it is: fetch has decoded it", async () => {
    const response = new Response(pack(VALUE), {
      headers: { "content-type": "application/msgpack", "content-encoding": "gzip" },
    });
    assert.deepEqual(await readBody(response), VALUE);
  });
});

/** Runs curl; returns the status, headers and body. */
async function curl(args: string[]) {
  assert.ok(existsSync(CURL), `${CURL} is missing: install Debian's curl, as .ci/run does`);
  const { code, stdout, stderr } = await run(CURL, ["-sS", "-D", "-", ...args]);
  assert.equal(code, 0, stderr);
  let end = 0;
  while (!(stdout[end] === 13 && stdout[end + 1] === 10 && stdout[end + 2] === 13)) end++;
  const [statusLine, ...lines] = new TextDecoder().decode(stdout.subarray(0, end)).split("\r\n");
  const headers = new Headers(lines.map((line) => {
    const colon = line.indexOf(":");
    return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()] as [string, string];
  }));
  return { status: Number(statusLine.split(" ")[1]), headers, body: stdout.subarray(end + 4) };
}

describe("compressed bodies over HTTP: curl, Python, fetchValue", () => {
  let server: Server;
  /** The Content-Encoding and Accept-Encoding of the last request the server read. */
  const last = { coding: null as string | null, accept: null as string | null };
  let directory: string;

  before(() => {
    directory = mkdtempSync(join(tmpdir(), "msgpackr-coding-"));
    server = serve(async (request) => {
      const url = new URL(request.url);
      last.coding = request.headers.get("content-encoding");
      last.accept = request.headers.get("accept-encoding");
      try {
        switch (url.pathname) {
          case "/echo":
            return respond(request, await readBody(request, { maxBytes: 1 << 20 }));
          case "/values":
            return respond(request, await Array.fromAsync(readBodyValues(request)));
          case "/value": {
            const codings = url.searchParams.get("compress");
            const init: RespondInit = {
              compress: codings === null ? true : codings.split(",") as RespondInit["compress"],
            };
            return respond(request, REPLY, init);
          }
          case "/rows":
            return respond(request, ROWS, { compress: true });
          case "/stream":
            return respond(request, ROWS.rows.values(), { compress: true });
        }
        return respond(request, { error: "not found" }, { status: 404 });
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        return respond(request, { error: error.message }, { status: error.status });
      }
    });
  });
  after(async () => {
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  });

  test("a gzip body made by Python's gzip module, posted by curl, read by readBody", async () => {
    const file = join(directory, "body.gz");
    const script = "import gzip, json, msgpack, sys\n" +
      "value = json.load(open(sys.argv[1]))\n" +
      "open(sys.argv[2], 'wb').write(gzip.compress(msgpack.packb(value)))\n";
    const python = await run(PYTHON, [
      "-c",
      script,
      new URL("./http/value.json", import.meta.url).pathname,
      file,
    ]);
    assert.equal(python.code, 0, python.stderr);
    assert.deepEqual([...readFileSync(file).subarray(0, 2)], [0x1f, 0x8b]); // gzip's magic
    const response = await curl([
      "-H",
      "Content-Type: application/msgpack",
      "-H",
      "Content-Encoding: gzip",
      "--data-binary",
      `@${file}`,
      `${server.url}echo`,
    ]);
    assert.equal(response.status, 200);
    assert.equal(last.coding, "gzip");
    assert.deepEqual(JSON.parse(new TextDecoder().decode(response.body)), VALUE);
  });

  test("a deflate body made by Python's zlib module, posted by curl", async () => {
    const file = join(directory, "body.zz");
    const script = "import zlib, msgpack, sys\n" +
      "open(sys.argv[1], 'wb').write(zlib.compress(msgpack.packb([1, 'two', {'three': 3.5}])))\n";
    const python = await run(PYTHON, ["-c", script, file]);
    assert.equal(python.code, 0, python.stderr);
    const response = await curl([
      "-H",
      "Content-Type: application/msgpack",
      "-H",
      "Content-Encoding: deflate",
      "-H",
      "Accept: application/msgpack",
      "--data-binary",
      `@${file}`,
      `${server.url}echo`,
    ]);
    assert.equal(response.status, 200);
    assert.deepEqual(unpack(response.body), [1, "two", { three: 3.5 }]);
  });

  test("curl --compressed reads a reply of respond({ compress: true }): gzip", async () => {
    const json = await curl(["--compressed", `${server.url}value`]);
    assert.equal(json.headers.get("content-encoding"), "gzip");
    assert.equal(json.headers.get("vary"), "Accept, Accept-Encoding");
    assert.equal(json.headers.get("content-length"), null);
    assert.deepEqual(JSON.parse(new TextDecoder().decode(json.body)), REPLY);
    const msgpack = await curl([
      "--compressed",
      "-H",
      "Accept: application/msgpack",
      `${server.url}value`,
    ]);
    assert.equal(msgpack.headers.get("content-type"), "application/msgpack");
    assert.equal(msgpack.headers.get("content-encoding"), "gzip");
    // the bytes respond packs, decoded by curl
    assert.deepEqual([...msgpack.body], [
      ...new Packr({ useRecords: false, useInt64: true }).pack(REPLY),
    ]);
    // without --compressed curl sends no Accept-Encoding: the body goes as it is
    const plain = await curl([`${server.url}value`]);
    assert.equal(plain.headers.get("content-encoding"), null);
    assert.equal(plain.headers.get("vary"), "Accept, Accept-Encoding");
    assert.deepEqual(JSON.parse(new TextDecoder().decode(plain.body)), REPLY);
  });

  test("curl --compressed reads br and zstd replies where the runtime compresses them", async () => {
    for (const [coding, format] of CODINGS) {
      if (coding === "x-gzip" || !has(CompressionStream, format)) continue;
      const response = await curl(["--compressed", `${server.url}value?compress=${coding}`]);
      assert.equal(response.headers.get("content-encoding"), coding);
      assert.deepEqual(JSON.parse(new TextDecoder().decode(response.body)), REPLY);
    }
    // a coding the client does not accept is not used
    const response = await curl([
      "-H",
      "Accept-Encoding: gzip",
      `${server.url}value?compress=deflate`,
    ]);
    assert.equal(response.headers.get("content-encoding"), null);
  });

  test("fetchValue and fetchValues read compressed replies: fetch decodes them", async () => {
    assert.deepEqual(await fetchValue(`${server.url}rows`), ROWS);
    assert.match(last.accept ?? "", /gzip/); // fetch asks for it by itself
    const raw = await fetch(`${server.url}rows`, { headers: { accept: "application/msgpack" } });
    assert.equal(raw.headers.get("content-encoding"), "gzip");
    await raw.body!.cancel();
    assert.deepEqual(await Array.fromAsync(fetchValues(`${server.url}stream`)), ROWS.rows);
    assert.deepEqual(
      await Array.fromAsync(fetchValues(`${server.url}stream`, { format: "json" })),
      ROWS.rows,
    );
  });

  test("fetchValue compresses its request body on request: single values and streams", async () => {
    for (const [coding, format] of CODINGS) {
      if (coding === "x-gzip" || !has(CompressionStream, format)) continue;
      const compress = coding as "gzip";
      assert.deepEqual(await fetchValue(`${server.url}echo`, { body: ROWS, compress }), ROWS);
      assert.equal(last.coding, coding);
      assert.deepEqual(
        await fetchValue(`${server.url}echo`, { body: ROWS, compress, format: "json" }),
        ROWS,
      );
      assert.deepEqual(
        await fetchValue(`${server.url}values`, { body: ROWS.rows.values(), compress }),
        ROWS.rows,
      );
      assert.equal(last.coding, coding);
    }
    await assert.rejects(
      fetchValue(`${server.url}echo`, { body: 1, compress: "lzma" as "gzip" }),
      { name: "TypeError", message: /Cannot use compress "lzma": expected one of gzip, deflate/ },
    );
  });
});

describe("respond({ compress }): negotiation on Accept-Encoding", () => {
  const big = { text: "compressible ".repeat(200) };
  const ask = (acceptEncoding: string | null, init: RespondInit = { compress: true }) =>
    respond(
      new Request("http://localhost/", {
        headers: acceptEncoding === null ? {} : { "accept-encoding": acceptEncoding },
      }),
      big,
      init,
    );

  test("the coding by the client's weights, the server's order breaking ties", async () => {
    const cases: [string | null, string | null, string][] = [
      ["gzip", "gzip", "one coding"],
      ["GZip", "gzip", "codings are case-insensitive"],
      ["x-gzip", "gzip", "x-gzip is gzip"],
      ["deflate, gzip", "gzip", "a tie goes to the server's first"],
      ["deflate, gzip;q=0.5", "deflate", "a higher q"],
      ["gzip;q=0, deflate", "deflate", "q=0 refuses"],
      ["gzip;q=0.001, deflate;q=0", "gzip", "any q above 0 accepts"],
      ["gzip;q=0.001, identity;q=0.002", null, "identity named with a higher q"],
      ["*", "gzip", "* accepts every coding"],
      ["*;q=0.5, gzip;q=0", "deflate", "* weighs the codings not named"],
      ["*;q=0", null, "* with q=0 refuses every coding"],
      ["identity", null, "identity only"],
      ["gzip;q=0.5", "gzip", "identity weighs only when named"],
      ["gzip;q=0.5, identity", null, "identity weighs more"],
      ["gzip;q=0.5, identity;q=0.5", "gzip", "a tie with identity compresses"],
      ["identity;q=0, gzip;q=0.1", "gzip", "identity refused"],
      ["gzip;q=1.5", null, "an invalid q is skipped"],
      ["gzip;q=0.5;q=1", "gzip", "the first q counts"],
      ["br", null, "br only when named by the server"],
      ["", null, "an empty header: identity only"],
      [null, null, "no header"],
    ];
    for (const [accept, expected, why] of cases) {
      const response = ask(accept);
      assert.equal(response.headers.get("content-encoding"), expected, why);
      assert.equal(response.headers.get("vary"), "Accept, Accept-Encoding", why);
      const bytes = await response.bytes();
      const text = new TextDecoder().decode(
        expected === null ? bytes : await decompress(bytes, expected),
      );
      assert.deepEqual(JSON.parse(text), big, why);
    }
  });

  test("a list of codings is the server's order; codings the runtime lacks are not offered", () => {
    const init: RespondInit = { compress: ["br", "deflate", "gzip"] };
    const br = has(CompressionStream, "brotli") ? "br" : "deflate";
    assert.equal(ask("gzip, deflate, br", init).headers.get("content-encoding"), br);
    assert.equal(ask("gzip, deflate", init).headers.get("content-encoding"), "deflate");
    assert.equal(
      ask("gzip", { compress: "deflate" }).headers.get("content-encoding"),
      null,
    );
    assert.throws(() => ask("gzip", { compress: "lzma" as "gzip" }), {
      name: "TypeError",
      message: /Cannot use compress "lzma"/,
    });
  });

  test("MessagePack and streams too; each decodes to what was sent", async () => {
    const request = new Request("http://localhost/", {
      headers: { accept: "application/msgpack", "accept-encoding": "gzip" },
    });
    const single = respond(request, ROWS, { compress: true });
    assert.equal(single.headers.get("content-type"), "application/msgpack");
    assert.equal(single.headers.get("content-encoding"), "gzip");
    assert.deepEqual(
      objects.unpack(await decompress(await single.bytes(), "gzip")),
      ROWS,
    );
    const stream = respond(request, ROWS.rows.values(), { compress: true });
    assert.equal(stream.headers.get("content-encoding"), "gzip");
    assert.deepEqual(
      objects.unpackMultiple(await decompress(await stream.bytes(), "gzip")),
      ROWS.rows,
    );
    // a stream of one small value is still compressed (its size is not known up front)
    const small = respond(request, [1].values(), { compress: true });
    assert.equal(small.headers.get("content-encoding"), "gzip");
  });

  test("single values under 1 KiB go as they are, with Vary", () => {
    const request = new Request("http://localhost/", { headers: { "accept-encoding": "gzip" } });
    const response = respond(request, { ok: true }, { compress: true });
    assert.equal(response.headers.get("content-encoding"), null);
    assert.equal(response.headers.get("vary"), "Accept, Accept-Encoding");
  });

  test("never twice: a Content-Encoding given is kept and the body not compressed", async () => {
    const gzipped = await compress(JSON.stringify(big), "gzip");
    const response = respond(
      new Request("http://localhost/", { headers: { "accept-encoding": "gzip, deflate" } }),
      new Response(gzipped as BodyInit).body!,
      { compress: true, headers: { "content-encoding": "gzip", vary: "Origin" } },
    );
    assert.equal(response.headers.get("content-encoding"), "gzip");
    assert.equal(response.headers.get("vary"), "Origin, Accept, Accept-Encoding");
  });

  test("a strong ETag becomes weak when the body is compressed", () => {
    const etag = ask("gzip", { compress: true, headers: { etag: '"v1"' } });
    assert.equal(etag.headers.get("etag"), 'W/"v1"');
    const plain = ask(null, { compress: true, headers: { etag: '"v1"' } });
    assert.equal(plain.headers.get("etag"), '"v1"');
  });

  test("compress off: no Vary: Accept-Encoding, nothing compressed", () => {
    const response = ask("gzip", {});
    assert.equal(response.headers.get("content-encoding"), null);
    assert.equal(response.headers.get("vary"), "Accept");
  });
});

describe("the runtime's own compression never compresses a reply twice", () => {
  test("Deno.serve with automaticCompression: JSON ours once, MessagePack never by Deno", async () => {
    if (!isDeno) return;
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {}, automaticCompression: true },
      (request) => {
        const url = new URL(request.url);
        const compress = url.searchParams.has("compress");
        const value = url.searchParams.has("small") ? { n: "x".repeat(200) } : REPLY;
        return respond(request, value, { compress, formatParam: "format" });
      },
    );
    const url = `http://127.0.0.1:${server.addr.port}/`;
    try {
      // ours: gzip, which Deno leaves alone (it skips a response with a Content-Encoding)
      const ours = await curl(["-H", "Accept-Encoding: gzip", `${url}?compress`]);
      assert.equal(ours.headers.get("content-encoding"), "gzip");
      const once = await decompress(ours.body, "gzip");
      assert.deepEqual(JSON.parse(new TextDecoder().decode(once)), REPLY);
      // a small JSON reply we do not compress: Deno compresses it, once
      const deno = await curl(["-H", "Accept-Encoding: gzip", `${url}?compress&small`]);
      assert.equal(deno.headers.get("content-encoding"), "gzip");
      assert.equal(deno.headers.get("vary"), "Accept, Accept-Encoding");
      assert.deepEqual(
        JSON.parse(new TextDecoder().decode(await decompress(deno.body, "gzip"))),
        { n: "x".repeat(200) },
      );
      // MessagePack is not in Deno's list of compressible types: only ours compresses it
      const msgpack = ["-H", "Accept: application/msgpack", "-H", "Accept-Encoding: gzip"];
      const plain = await curl([...msgpack, url]);
      assert.equal(plain.headers.get("content-type"), "application/msgpack");
      assert.equal(plain.headers.get("content-encoding"), null);
      const packed = await curl([...msgpack, `${url}?compress`]);
      assert.equal(packed.headers.get("content-encoding"), "gzip");
      assert.deepEqual(
        objects.unpack(await decompress(packed.body, "gzip")),
        REPLY,
      );
    } finally {
      await server.shutdown();
    }
  });

  test("Bun.serve does not compress by itself", async () => {
    if (!isBun) return;
    const server = serve((request) => respond(request, VALUE));
    try {
      const response = await curl(["-H", "Accept-Encoding: gzip, br", `${server.url}`]);
      assert.equal(response.headers.get("content-encoding"), null);
      assert.deepEqual(JSON.parse(new TextDecoder().decode(response.body)), VALUE);
    } finally {
      await server.close();
    }
  });
});
