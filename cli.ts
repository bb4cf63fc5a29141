#!/usr/bin/env node
// Copyright 2026 the @x/msgpackr authors. MIT license.

/**
 * `msgpackr`, a command line tool that makes MessagePack payloads readable: `decode` turns
 * MessagePack (one value or a sequence) into JSON, `encode` turns JSON or NDJSON back into
 * MessagePack, and `inspect` prints an annotated dump of the bytes — offset, hex, wire type and
 * value of every item, record ids with their field names, msgpackr's extensions by name — that
 * stops at the exact offset where truncated or malformed input breaks.
 *
 * ```sh
 * deno run --allow-read jsr:@x/msgpackr/cli decode payload.bin
 * npx @x/msgpackr inspect --structures structures.json payload.bin
 * bunx @x/msgpackr decode --ndjson stream.bin | bunx @x/msgpackr encode > copy.bin
 * ```
 *
 * Input is a file argument or standard input; only data goes to standard output, messages go
 * to standard error. Exit status: 0 on success, 1 when the input cannot be decoded or encoded
 * (the message gives the offset of the bad byte), 2 on a usage error. `--help` lists the
 * options: `--ndjson`, `--records` / `--no-records`, `--structures FILE`, `--sequential`,
 * `--float32 MODE` and `--bundle-strings`, which behave like the library options of the same
 * names.
 *
 * `decode` writes plain JSON wherever JSON says everything, and a tag object
 * `{"$msgpack": NAME, ...}` for the rest: `bigint`, `bin`, `date`, `timestamp`, `undefined`,
 * `c1`, `map` (a Map, or maps whose keys are not strings), `set`, `error`, `regexp`, `typed`,
 * `id` / `ref` (structured clone), `ext` (any other extension), numbers in a wire format other
 * than the one a Packr picks (`float64` 1.0, `float32`, `uint16`, `uint64`…), headers that are
 * not the smallest (`"header": "str16"`), and `object` for an object that has a `$msgpack` key
 * of its own. `encode` reads the tags back, so `decode | encode` with the same options gives
 * the same bytes. The functions below do the same work in a program.
 *
 * @example Usage
 * ```ts
 * import { decodeToJson, encodeFromJson } from "@x/msgpackr/cli";
 * import { pack } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const bytes = pack({ id: 7n, data: new Uint8Array([1, 2]) });
 * const json = decodeToJson(bytes, { ndjson: true });
 * assert.equal(
 *   json,
 *   '{"id":{"$msgpack":"bigint","value":"7"},"data":{"$msgpack":"bin","base64":"AQI="}}\n',
 * );
 * assert.deepEqual(encodeFromJson(json), bytes);
 * ```
 *
 * @module
 */

import { type CliArguments, parseArguments, USAGE, UsageError } from "./_cli/args.ts";
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
import { TaggedConverter } from "./_cli/tagged_json.ts";
import { WireWalker } from "./_cli/wire.ts";
import { TaggedWriter } from "./_cli/writer.ts";
import { DecodeError } from "./_core/errors.ts";
import type { Float32Option } from "./_format/float32.ts";
import type { Structure } from "./_core/options.ts";
import { DEFAULT_MAX_DEPTH, unpack } from "./_decode/unpackr.ts";

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
 * const options: CliOptions = { records: true };
 * const bytes = new Packr().pack([{ a: 1 }, { a: 2 }]);
 * assert.deepEqual(encodeFromJson(decodeToJson(bytes, options), options), bytes);
 * ```
 */
export interface CliOptions {
  /**
   * Encoding: write objects as records, like `new Packr()` (`true`), or as maps, like `pack()`.
   * Decoding: `false` decodes every map as a plain object, like
   * `new Unpackr({ useRecords: false })`; otherwise maps that are not what `pack()` writes for
   * an object are tagged.
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
   * Float32 handling, like `useFloat32`. Decoding shows float32 values that this mode writes as
   * plain numbers (rounded to decimal digits for `DECIMAL_ROUND` and `DECIMAL_FIT`).
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
    maxDepth: DEFAULT_MAX_DEPTH,
  });
}

/**
 * Decodes MessagePack (one value or a sequence of values) to tagged JSON: one JSON document
 * per value, pretty or (with `ndjson`) one line each.
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
 * import { Packr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const packr = new Packr({ sequential: true });
 * const bytes = new Uint8Array([...packr.pack({ a: 1 }), ...packr.pack({ a: 1.5 })]);
 * assert.equal(decodeToJson(bytes, { ndjson: true }), '{"a":1}\n{"a":1.5}\n');
 * ```
 */
export function decodeToJson(bytes: Uint8Array, options: CliOptions = {}): string {
  const reader = walker(bytes, options);
  reader.readAll();
  const converter = new TaggedConverter(bytes, {
    mapsAsObjects: options.records === false,
    float32: options.float32 ?? 0,
  });
  const out: string[] = [];
  for (const node of reader.roots) {
    // roots with a label are the strings of a string bundle, not values
    if (node.label === null) out.push(printJson(converter.convert(node), !options.ndjson), "\n");
  }
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
  const values = parseJsonSequence(text);
  if (values.length === 0) throw new JsonInputError("The input holds no JSON value", 0);
  const structures = options.structures ?? null;
  const writer = new TaggedWriter({
    records: options.records ?? (structures !== null || options.sequential === true),
    float32: options.float32 ?? 0,
    structures,
    sequential: options.sequential === true,
    bundleStrings: options.bundleStrings === true,
    maxDepth: DEFAULT_MAX_DEPTH,
    locate(index) {
      const { line, column } = lineAndColumn(text, index);
      return ` at line ${line}, column ${column}`;
    },
  });
  return writer.encodeAll(values);
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
  return { text: inspectLines(reader.roots, bytes, error).join("\n") + "\n", error };
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

async function run(parsed: CliArguments, io: CliIO): Promise<number> {
  if (parsed.file === null && io.isTerminal("stdin")) {
    throw new UsageError("No input: give a file, or pipe data into standard input");
  }
  if (parsed.command === "encode" && io.isTerminal("stdout")) {
    throw new UsageError("Refusing to write MessagePack to a terminal: redirect standard output");
  }
  const options: CliOptions = {
    sequential: parsed.sequential,
    float32: parsed.float32,
    bundleStrings: parsed.bundleStrings,
    ndjson: parsed.ndjson,
  };
  if (parsed.records !== null) options.records = parsed.records;
  if (parsed.structuresFile !== null) {
    const file = parsed.structuresFile;
    options.structures = parseStructures(await readInput(io, file), file);
  }
  const input = await readInput(io, parsed.file);
  switch (parsed.command) {
    case "decode":
      await io.write("stdout", decodeToJson(input, options));
      return 0;
    case "encode": {
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(input);
      } catch {
        throw new SyntaxError("The input is not UTF-8 text");
      }
      await io.write("stdout", encodeFromJson(text, options));
      return 0;
    }
    default: {
      const { text, error } = inspectBytes(input, options);
      await io.write("stdout", text);
      if (error === null) return 0;
      await io.write("stderr", `error: ${lowerFirst(error.message)}\n`);
      return 1;
    }
  }
}

/**
 * Runs the command line tool: `msgpackr decode|encode|inspect [options] [file]`. Writes data to
 * standard output and messages to standard error, and returns the exit status: 0 on success,
 * 1 for input that cannot be read, decoded or encoded, 2 for a usage error.
 *
 * @param args The arguments after the program name.
 * @param io Where input comes from and output goes (the runtime's standard streams and files).
 * @returns The exit status.
 *
 * @example Usage
 * ```ts
 * import { type CliIO, main } from "@x/msgpackr/cli";
 * import assert from "node:assert/strict";
 *
 * let stdout = "";
 * const io: CliIO = {
 *   readFile: () => Promise.resolve(new Uint8Array([0x81, 0xa1, 0x61, 0x01])),
 *   readStdin: () => Promise.resolve(new Uint8Array()),
 *   isTerminal: () => false,
 *   write: (_stream, data) => {
 *     stdout += data;
 *     return Promise.resolve();
 *   },
 * };
 * assert.equal(await main(["decode", "--ndjson", "payload.bin"], io), 0);
 * assert.equal(stdout, '{"$msgpack":"map","value":{"a":1}}\n');
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
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof UsageError) {
      await io.write("stderr", `error: ${lowerFirst(message)}\nRun "msgpackr --help" for usage.\n`);
      return 2;
    }
    await io.write("stderr", `error: ${lowerFirst(message)}\n`);
    return 1;
  }
}

if (isMainModule(import.meta)) setExitCode(await main());
