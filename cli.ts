#!/usr/bin/env node
// Copyright 2026 the @x/msgpackr authors. MIT license.

/**
 * `msgpackr`, a command line tool that makes MessagePack payloads readable, whoever wrote them
 * (msgpackr, Python, Go, Java…): `fetch URL` requests an endpoint and prints the MessagePack
 * body as JSON, `decode` turns MessagePack (one value or a sequence; `--hex` or `--base64` for
 * a dump copied from a log) into JSON, `inspect` prints an annotated dump of the bytes — offset,
 * hex, wire type and value of every item, record ids with their field names, msgpackr's
 * extensions by name — that stops at the exact offset where truncated or malformed input
 * breaks, and `encode` turns JSON back into MessagePack.
 *
 * ```sh
 * deno install -g --allow-read --allow-net -n msgpackr jsr:@x/msgpackr/cli
 * msgpackr fetch http://localhost:8080/orders/42
 * msgpackr decode --base64 < dump.txt
 * npx @x/msgpackr inspect payload.bin
 * bunx @x/msgpackr decode --exact payload.bin | bunx @x/msgpackr encode > copy.bin
 * ```
 *
 * Only data goes to standard output, messages go to standard error. Exit status: 0 on success,
 * 1 when the input cannot be read, decoded or encoded (the message gives the offset of the bad
 * byte) or `fetch` gets a status other than 2xx, 2 on a usage error. Under Deno, `fetch` needs
 * `--allow-net` and reading files `--allow-read`. `--help` lists the options.
 *
 * `decode` and `fetch` print, by default, the JSON the sending service would print: a map with
 * string keys is an object, integers have all their digits (5000000000,
 * 18446744073709551615), floats stay floats (`1.0`), `nil` is `null`, records are objects.
 * What JSON cannot show is a tag object `{"$msgpack": NAME, ...}`: `bin` and `ext` (base64),
 * `timestamp` (ISO text to the nanosecond), `map` with `entries` (keys that are not all strings,
 * or repeat), `float64` / `float32` with `"NaN"`, `"Infinity"` or `"-Infinity"`, `undefined`,
 * `str` with `base64` (bytes that are not UTF-8), and msgpackr's `set`, `error`, `regexp`,
 * `typed`, `id` / `ref`, `c1`, `object`.
 *
 * With `exact: true` (`--exact`) they print how every item was written instead — integer widths
 * (`uint16`, `uint64`…), headers that are not the smallest, fixmaps, float32 — so that `encode`
 * gives back the same bytes. The functions below do the same work in a program.
 *
 * @example Usage
 * ```ts
 * import { decodeToJson, encodeFromJson } from "@x/msgpackr/cli";
 * import { pack } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const bytes = pack({ id: 7n, data: new Uint8Array([1, 2]) });
 * assert.equal(
 *   decodeToJson(bytes, { ndjson: true }),
 *   '{"id":7,"data":{"$msgpack":"bin","base64":"AQI="}}\n',
 * );
 * const exact = decodeToJson(bytes, { ndjson: true, exact: true });
 * assert.equal(
 *   exact,
 *   '{"id":{"$msgpack":"bigint","value":"7"},"data":{"$msgpack":"bin","base64":"AQI="}}\n',
 * );
 * assert.deepEqual(encodeFromJson(exact), bytes);
 * ```
 *
 * @module
 */

import { type CliArguments, parseArguments, USAGE, UsageError } from "./_cli/args.ts";
import { buildRequest, runFetch } from "./_cli/fetch.ts";
import { inspectLines, lowerFirst } from "./_cli/inspect.ts";
import {
  BrokenPipe,
  type CliIO,
  isMainModule,
  runtimeArgs,
  runtimeIO,
  setExitCode,
} from "./_cli/io.ts";
import { JsonInputError, lineAndColumn, parseJsonSequence, printJson } from "./_cli/json.ts";
import { PlainConverter } from "./_cli/plain_json.ts";
import { TaggedConverter } from "./_cli/tagged_json.ts";
import { parseBase64Dump, parseHexDump, toBase64, toHex } from "./_cli/text.ts";
import type { ConverterFactory } from "./_cli/value_stream.ts";
import { WireWalker } from "./_cli/wire.ts";
import { TaggedWriter } from "./_cli/writer.ts";
import { DecodeError } from "./_core/errors.ts";
import type { Float32Option } from "./_format/float32.ts";
import type { Structure } from "./_core/options.ts";
import { unpack } from "./_decode/unpack.ts";
import { DEFAULT_MAX_DEPTH } from "./_core/option_table.ts";

export type { CliIO } from "./_cli/io.ts";
export type { DecodeError } from "./_core/errors.ts";
export type { Float32Option } from "./_format/float32.ts";
export type { Structure } from "./_core/options.ts";

/**
 * Options of {@linkcode decodeToJson}, {@linkcode encodeFromJson} and {@linkcode inspectBytes}.
 *
 * @example Usage
 * ```ts
 * import { type CliOptions, decodeToJson, encodeFromJson } from "@x/msgpackr/cli";
 * import { Packr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const options: CliOptions = { records: true, exact: true };
 * const bytes = new Packr().pack([{ a: 1 }, { a: 2 }]);
 * assert.deepEqual(encodeFromJson(decodeToJson(bytes, options), options), bytes);
 * ```
 */
export interface CliOptions {
  /**
   * Decoding: the byte-preserving tagged form, which `encodeFromJson` turns back into the same
   * bytes, instead of the JSON the sending service would print.
   * @default {false}
   */
  exact?: boolean;
  /**
   * Encoding: write objects as records, like `new Packr()` (`true`), or as maps, like `pack()`.
   * Decoding: `false` decodes every map as an object, keys made strings, like
   * `new Unpackr({ useRecords: false })`; otherwise the exact form tags maps that are not what
   * `pack()` writes for an object, and the default form tags maps whose keys are not strings.
   * @default {false} when encoding (`true` with `structures` or `sequential`); unset when decoding
   */
  records?: boolean;
  /** Shared structures, as a Packr saved them (an array of key arrays). */
  structures?: Structure[] | null;
  /**
   * Record definitions carry over from one value to the next, like `sequential: true`.
   * @default {false}
   */
  sequential?: boolean;
  /**
   * Float32 handling, like `useFloat32`. Decoding: `DECIMAL_ROUND` (3) and `DECIMAL_FIT` (4)
   * show float32 values rounded to decimal digits, as the library decoder returns them; the
   * exact form also shows the float32 values this mode writes as plain numbers.
   * @default {0}
   */
  float32?: Float32Option;
  /**
   * Encoding: gather strings into bundles, like `bundleStrings: true`.
   * @default {false}
   */
  bundleStrings?: boolean;
  /**
   * Decoding: one compact JSON line per value instead of pretty JSON.
   * @default {false}
   */
  ndjson?: boolean;
  /**
   * The deepest nesting of arrays, maps, records and tags accepted, as the library's `maxDepth`:
   * deeper input is a `DecodeError` (decoding, inspecting) or a `SyntaxError` (encoding) saying
   * so, never a stack overflow. Encoding also refuses JSON nested deeper than 4 levels per level
   * (a tagged map is three).
   * @default {1000}
   */
  maxDepth?: number;
}

/**
 * What {@linkcode inspectBytes} returns.
 *
 * @example Usage
 * ```ts
 * import { inspectBytes, type InspectResult } from "@x/msgpackr/cli";
 * import assert from "node:assert/strict";
 *
 * const result: InspectResult = inspectBytes(new Uint8Array([0x92, 0x01]));
 * assert.ok(result.error !== null); // the array's second item is missing
 * assert.match(result.text, /fixarray/);
 * ```
 */
export interface InspectResult {
  /** The dump, one line per item, ending with an error line when the input breaks. */
  text: string;
  /** Why the input could not be read to its end, or `null`. */
  error: DecodeError | null;
}

function walker(bytes: Uint8Array, options: CliOptions): WireWalker {
  return new WireWalker(bytes, {
    structures: options.structures ?? null,
    maxDepth: maxDepthOf(options),
  });
}

/** `options.maxDepth`, checked, or the library's default. */
function maxDepthOf(options: CliOptions): number {
  const depth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (!Number.isInteger(depth) || depth < 1) {
    throw new RangeError(`Cannot use maxDepth ${String(depth)}: expected an integer >= 1`);
  }
  return depth;
}

/**
 * Runs `action`; an engine stack overflow in it (possible only with a `maxDepth` far above the
 * default) becomes `error`'s clear message.
 */
function withinStack<T>(action: () => T, error: (message: string) => Error): T {
  try {
    return action();
  } catch (caught) {
    if (caught instanceof RangeError && /call stack/i.test(caught.message)) {
      throw error("Nesting too deep for the call stack (lower maxDepth / --max-depth)");
    }
    throw caught;
  }
}

/** The converter of the JSON form `options` ask for. */
function converterFor(options: CliOptions): ConverterFactory {
  const settings = { mapsAsObjects: options.records === false, float32: options.float32 ?? 0 };
  return options.exact === true
    ? (bytes) => new TaggedConverter(bytes, settings)
    : (bytes) => new PlainConverter(bytes, settings);
}

/**
 * Decodes MessagePack (one value or a sequence of values) to JSON: one JSON document per value,
 * pretty or (with `ndjson`) one line each. By default the JSON the sending service would print,
 * with tags for what JSON cannot show; with `exact`, the tagged form that
 * {@linkcode encodeFromJson} turns back into the same bytes.
 *
 * @param bytes The MessagePack bytes.
 * @param options Decoding options; see {@linkcode CliOptions}.
 * @returns The JSON text, ending with a newline.
 * @throws {DecodeError} When the bytes are not MessagePack (an `IncompleteDataError` when they
 * end too soon); the message and `offset` say where.
 *
 * @example Usage
 * ```ts
 * import { decodeToJson } from "@x/msgpackr/cli";
 * import assert from "node:assert/strict";
 *
 * // {"id": 5000000000, "price": 1.0, "tags": ["x"]} as Python's msgpack writes it
 * const bytes = new Uint8Array([
 *   0x83, 0xa2, 0x69, 0x64, 0xcf, 0, 0, 0, 1, 0x2a, 0x05, 0xf2, 0,
 *   0xa5, 0x70, 0x72, 0x69, 0x63, 0x65, 0xcb, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0,
 *   0xa4, 0x74, 0x61, 0x67, 0x73, 0x91, 0xa1, 0x78,
 * ]);
 * assert.equal(
 *   decodeToJson(bytes, { ndjson: true }),
 *   '{"id":5000000000,"price":1.0,"tags":["x"]}\n',
 * );
 * ```
 */
export function decodeToJson(bytes: Uint8Array, options: CliOptions = {}): string {
  const reader = walker(bytes, options);
  reader.readAll();
  const converter = converterFor(options)(bytes);
  const out: string[] = [];
  withinStack(() => {
    for (const node of reader.roots) {
      // roots with a label are the strings of a string bundle, not values
      if (node.label !== null) continue;
      out.push(printJson(converter.convert(node), !options.ndjson), "\n");
    }
  }, (message) => new DecodeError(`${message} at offset 0`, 0));
  return out.join("");
}

/**
 * Encodes JSON — one text, NDJSON, or several texts separated by white space — to MessagePack,
 * one value per text, reading the tags that {@linkcode decodeToJson} writes. Object members
 * keep their order in the text.
 *
 * @param text The JSON text.
 * @param options Encoding options; see {@linkcode CliOptions}.
 * @returns The MessagePack bytes of every value, one after another.
 * @throws {SyntaxError} When the text is not JSON, or a tag is malformed (the message gives the
 * line and column).
 *
 * @example Usage
 * ```ts
 * import { encodeFromJson } from "@x/msgpackr/cli";
 * import { Packr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const rows = '{"id":1,"name":"ann"}\n{"id":2,"name":"bob"}\n';
 * const packr = new Packr();
 * assert.deepEqual(
 *   encodeFromJson(rows, { records: true }),
 *   new Uint8Array([
 *     ...packr.pack({ id: 1, name: "ann" }),
 *     ...packr.pack({ id: 2, name: "bob" }),
 *   ]),
 * );
 * ```
 */
export function encodeFromJson(text: string, options: CliOptions = {}): Uint8Array {
  const maxDepth = maxDepthOf(options);
  const values = parseJsonSequence(text, false, maxDepth);
  if (values.length === 0) throw new JsonInputError("The input holds no JSON value", 0);
  const structures = options.structures ?? null;
  const writer = new TaggedWriter({
    records: options.records ?? (structures !== null || options.sequential === true),
    float32: options.float32 ?? 0,
    structures,
    sequential: options.sequential === true,
    bundleStrings: options.bundleStrings === true,
    maxDepth,
    locate(index) {
      const { line, column } = lineAndColumn(text, index);
      return ` at line ${line}, column ${column}`;
    },
  });
  return withinStack(
    () => writer.encodeAll(values),
    (message) => new JsonInputError(message, -1),
  );
}

/**
 * An annotated dump of MessagePack bytes, one line per item: offset (hex), the item's own bytes
 * (hex), and, indented by nesting, its wire type and value. Bytes that cannot be read to their
 * end are shown up to the break, followed by an `error:` line with the offset and the reason.
 *
 * @param bytes The MessagePack bytes.
 * @param options `structures` (to name shared records); see {@linkcode CliOptions}.
 * @returns The dump, and the error that stopped it (or `null`).
 *
 * @example Usage
 * ```ts
 * import { inspectBytes } from "@x/msgpackr/cli";
 * import assert from "node:assert/strict";
 *
 * const { text, error } = inspectBytes(new Uint8Array([0x92, 0x01, 0xa3, 0x61]));
 * assert.equal(error?.offset, 4);
 * assert.equal(
 *   text,
 *   [
 *     "000000  92                           fixarray  2 items",
 *     "000001  01                             fixint  1",
 *     '000002  a3 61                          fixstr  "a" (1 of 3 bytes)',
 *     "000004  error: unexpected end of data at offset 4 (0x4): fixstr at offset 2 (0x2) needs 2 more bytes",
 *     "",
 *   ].join("\n"),
 * );
 * ```
 */
export function inspectBytes(bytes: Uint8Array, options: CliOptions = {}): InspectResult {
  const reader = walker(bytes, options);
  let error: DecodeError | null = null;
  try {
    reader.readAll();
  } catch (caught) {
    if (!(caught instanceof DecodeError)) throw caught;
    error = caught;
  }
  const lines = withinStack(
    () => inspectLines(reader.roots, bytes, error),
    (message) => new DecodeError(`${message} at offset 0`, 0),
  );
  return { text: lines.join("\n") + "\n", error };
}

/** Reads a structures file: a JSON array of key arrays, or the same packed as MessagePack. */
function parseStructures(bytes: Uint8Array, file: string): Structure[] {
  let structures: unknown;
  try {
    const text = new TextDecoder().decode(bytes).trimStart();
    structures = text.startsWith("[") ? JSON.parse(text) : unpack(bytes);
  } catch (error) {
    throw new SyntaxError(
      `Cannot read structures file ${file}: ${lowerFirst((error as Error).message)}`,
    );
  }
  const valid = Array.isArray(structures) &&
    structures.every((keys) =>
      keys == null || (Array.isArray(keys) && keys.every((key) => typeof key === "string"))
    );
  if (!valid) {
    throw new SyntaxError(
      `Structures file ${file} is not an array of key arrays (JSON or MessagePack)`,
    );
  }
  return structures as Structure[];
}

async function readInput(io: CliIO, file: string | null): Promise<Uint8Array> {
  try {
    return file === null ? await io.readStdin() : await io.readFile(file);
  } catch (error) {
    throw new Error(`Cannot read ${file ?? "standard input"}: ${(error as Error).message}`);
  }
}

function utf8Text(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new SyntaxError("The input is not UTF-8 text");
  }
}

/** The bytes of the input, read from a hex or base64 dump with `--hex` / `--base64`. */
function inputBytes(input: Uint8Array, text: CliArguments["text"]): Uint8Array {
  if (text === null) return input;
  const dump = new TextDecoder().decode(input);
  return text === "hex" ? parseHexDump(dump) : parseBase64Dump(dump);
}

/** The JSON text `-d` gives: as written, or read from a file (`@FILE`) or standard input. */
async function requestData(io: CliIO, data: string | null): Promise<string | null> {
  if (data === null || !data.startsWith("@")) return data;
  const file = data.slice(1);
  return utf8Text(await readInput(io, file === "-" ? null : file));
}

async function run(parsed: CliArguments, io: CliIO): Promise<number> {
  const fetching = parsed.command === "fetch";
  const textInput = parsed.text !== null && parsed.command !== "encode";
  if (!fetching && parsed.file === null && io.isTerminal("stdin") && !textInput) {
    throw new UsageError("No input: give a file, or pipe data into standard input");
  }
  if (parsed.command === "encode" && parsed.text === null && io.isTerminal("stdout")) {
    throw new UsageError(
      "Refusing to write MessagePack to a terminal: redirect standard output, or use --hex",
    );
  }
  const options: CliOptions = {
    exact: parsed.exact,
    sequential: parsed.sequential,
    float32: parsed.float32,
    bundleStrings: parsed.bundleStrings,
    ndjson: parsed.ndjson,
  };
  if (parsed.maxDepth !== null) options.maxDepth = parsed.maxDepth;
  if (parsed.records !== null) options.records = parsed.records;
  if (parsed.structuresFile !== null) {
    const file = parsed.structuresFile;
    options.structures = parseStructures(await readInput(io, file), file);
  }
  if (fetching) {
    const request = buildRequest({
      url: parsed.url!,
      method: parsed.method,
      headers: parsed.headers,
      data: await requestData(io, parsed.data),
      sendJson: parsed.sendJson,
      maxDepth: maxDepthOf(options),
    });
    return await runFetch(request, io, {
      structures: options.structures ?? null,
      maxDepth: maxDepthOf(options),
      pretty: !parsed.ndjson,
      converter: converterFor(options),
    });
  }
  if (textInput && parsed.file === null && io.isTerminal("stdin")) {
    await io.write("stderr", `Reading ${parsed.text} from the terminal: paste it, then Ctrl-D\n`);
  }
  const input = await readInput(io, parsed.file);
  switch (parsed.command) {
    case "decode":
      await io.write("stdout", decodeToJson(inputBytes(input, parsed.text), options));
      return 0;
    case "encode": {
      const bytes = encodeFromJson(utf8Text(input), options);
      if (parsed.text === null) await io.write("stdout", bytes);
      else {await io.write(
          "stdout",
          (parsed.text === "hex" ? toHex(bytes) : toBase64(bytes)) + "\n",
        );}
      return 0;
    }
    default: {
      const { text, error } = inspectBytes(inputBytes(input, parsed.text), options);
      await io.write("stdout", text);
      if (error === null) return 0;
      await io.write("stderr", `error: ${lowerFirst(error.message)}\n`);
      return 1;
    }
  }
}

/**
 * Runs the command line tool: `msgpackr decode|inspect|encode [options] [file]` or
 * `msgpackr fetch [options] URL`. Writes data to standard output and messages to standard
 * error, and returns the exit status: 0 on success, 1 for input that cannot be read, decoded or
 * encoded and for a `fetch` answered with a status other than 2xx, 2 for a usage error.
 *
 * @param args The arguments after the program name.
 * @param io Where input comes from and output goes (the runtime's standard streams, files and
 * `fetch`).
 * @returns The exit status.
 *
 * @example Usage
 * ```ts
 * import { type CliIO, main } from "@x/msgpackr/cli";
 * import assert from "node:assert/strict";
 *
 * let stdout = "";
 * let stderr = "";
 * const io: CliIO = {
 *   readFile: () => Promise.resolve(new Uint8Array([0x81, 0xa1, 0x61, 0x01])),
 *   readStdin: () => Promise.resolve(new TextEncoder().encode("gaFhAQ==\n")),
 *   isTerminal: () => false,
 *   write: (stream, data) => {
 *     if (stream === "stdout") stdout += data;
 *     else stderr += data;
 *     return Promise.resolve();
 *   },
 *   // a server answering 404 with a MessagePack body
 *   fetch: () =>
 *     Promise.resolve(
 *       new Response(new Uint8Array([0x81, 0xa5, 0x65, 0x72, 0x72, 0x6f, 0x72, 0xc3]), {
 *         status: 404,
 *         statusText: "Not Found",
 *         headers: { "content-type": "application/msgpack" },
 *       }),
 *     ),
 * };
 * assert.equal(await main(["decode", "--ndjson", "payload.bin"], io), 0);
 * assert.equal(await main(["decode", "--ndjson", "--base64"], io), 0);
 * assert.equal(stdout, '{"a":1}\n{"a":1}\n');
 * stdout = "";
 * assert.equal(await main(["fetch", "--ndjson", "http://localhost/orders/1"], io), 1);
 * assert.equal(stdout, '{"error":true}\n');
 * assert.equal(stderr, "HTTP 404 Not Found\ncontent-type: application/msgpack\n");
 * ```
 */
export async function main(
  args: readonly string[] = runtimeArgs(),
  io: CliIO = runtimeIO(),
): Promise<number> {
  let parsed: CliArguments;
  try {
    parsed = parseArguments(args);
    if (parsed.command === "help") {
      await io.write("stdout", USAGE);
      return 0;
    }
    return await run(parsed, io);
  } catch (error) {
    if (error instanceof BrokenPipe) return 0;
    // (a stack overflow anywhere else, with a --max-depth far above the default)
    const message = error instanceof RangeError && /call stack/i.test(error.message)
      ? "Nesting too deep for the call stack (lower --max-depth)"
      : error instanceof Error
      ? error.message
      : String(error);
    if (error instanceof UsageError) {
      await io.write("stderr", `error: ${lowerFirst(message)}\nRun "msgpackr --help" for usage.\n`);
      return 2;
    }
    await io.write("stderr", `error: ${lowerFirst(message)}\n`);
    return 1;
  }
}

if (isMainModule(import.meta)) setExitCode(await main());
