// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Command line arguments of the tool and its usage text.

import type { Float32Option } from "../_format/float32.ts";

/** What the command line asks for. */
export interface CliArguments {
  command: "decode" | "encode" | "inspect" | "help";
  /** Input file; `null` for standard input. */
  file: string | null;
  ndjson: boolean;
  /** `--records` / `--no-records`; `null` when neither was given. */
  records: boolean | null;
  structuresFile: string | null;
  sequential: boolean;
  float32: Float32Option;
  bundleStrings: boolean;
}

/** A command line the tool does not understand (exit status 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** The `--help` text. */
export const USAGE: string = `Usage: msgpackr <command> [options] [file]

Reads FILE, or standard input when FILE is "-" or missing, and writes to standard output.

Commands:
  decode   MessagePack (one value or a sequence of values) to JSON, one document per
           value. Values JSON cannot show are tagged, {"$msgpack": "bigint", ...}, so that
           encode turns the output back into the same bytes.
  encode   JSON or NDJSON (one or more JSON texts) to MessagePack, tags included.
  inspect  Annotated dump: offset (hex), bytes (hex), type and value of every item,
           indented by nesting. Broken input is shown up to the offset where it breaks.

Options:
  --ndjson            decode: one compact JSON line per value (default: pretty JSON)
  --records           encode: objects as records, like new Packr() (default: maps, like
                      pack()); decode: the default
  --no-records        decode: every map as a plain object with string keys, like
                      new Unpackr({ useRecords: false }) (default: maps that are not what
                      pack() writes for an object are tagged); encode: the default
  --structures FILE   shared structures saved by a Packr: a JSON or MessagePack array of
                      key arrays. encode: implies --records; FILE is only read, shapes
                      that are not in it are defined inline.
  --sequential        encode: record definitions carry over from one value to the
                      next, like new Packr({ sequential: true }); implies --records
                      (decode always keeps definitions from one value to the next)
  --float32 MODE      never, always, decimal-round or decimal-fit, like useFloat32
                      (decode: float32 values that MODE writes are shown as plain numbers)
  --bundle-strings    encode: gather strings into bundles, like bundleStrings: true
  -h, --help          print this help

An option that does not apply to a command is accepted and ignored, so the same options
can be given to decode and encode.

Exit status: 0 on success; 1 when the input cannot be read, decoded or encoded (the
message gives the offset of the bad byte); 2 on a usage error.

Examples:
  msgpackr decode payload.bin
  msgpackr inspect --structures structures.json payload.bin
  msgpackr decode --ndjson stream.bin | msgpackr encode > copy.bin
  deno run --allow-read jsr:@x/msgpackr/cli decode payload.bin
`;

const FLOAT32_MODES: Record<string, Float32Option> = {
  never: 0,
  always: 1,
  "decimal-round": 3,
  "decimal-fit": 4,
  "0": 0,
  "1": 1,
  "3": 3,
  "4": 4,
};

/** Parses the arguments after the program name; throws {@linkcode UsageError}. */
export function parseArguments(args: readonly string[]): CliArguments {
  const parsed: CliArguments = {
    command: "help",
    file: null,
    ndjson: false,
    records: null,
    structuresFile: null,
    sequential: false,
    float32: 0,
    bundleStrings: false,
  };
  const positional: string[] = [];
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positional.push(arg);
      continue;
    }
    const equals = arg.indexOf("=");
    const name = arg.startsWith("--") && equals > 0 ? arg.slice(0, equals) : arg;
    const inline = name === arg ? null : arg.slice(equals + 1);
    const value = (): string => {
      if (inline !== null) return inline;
      if (i + 1 >= args.length) throw new UsageError(`Option ${name} needs a value`);
      return args[++i];
    };
    const flag = (): true => {
      if (inline !== null) throw new UsageError(`Option ${name} takes no value`);
      return true;
    };
    switch (name) {
      case "-h":
      case "--help":
        help = flag();
        break;
      case "--ndjson":
        parsed.ndjson = flag();
        break;
      case "--records":
        parsed.records = flag();
        break;
      case "--no-records":
        parsed.records = !flag();
        break;
      case "--structures":
        parsed.structuresFile = value();
        break;
      case "--sequential":
        parsed.sequential = flag();
        break;
      case "--bundle-strings":
        parsed.bundleStrings = flag();
        break;
      case "--float32": {
        const mode = value();
        if (!Object.hasOwn(FLOAT32_MODES, mode)) {
          throw new UsageError(
            `Unknown --float32 mode "${mode}" (use never, always, decimal-round or decimal-fit)`,
          );
        }
        parsed.float32 = FLOAT32_MODES[mode];
        break;
      }
      default:
        throw new UsageError(`Unknown option ${name}`);
    }
  }
  if (help) return parsed;
  const command = positional.shift();
  if (command === undefined) throw new UsageError("Missing command (decode, encode or inspect)");
  if (command === "help") return parsed;
  if (command !== "decode" && command !== "encode" && command !== "inspect") {
    throw new UsageError(`Unknown command "${command}" (use decode, encode or inspect)`);
  }
  parsed.command = command;
  if (positional.length > 1) {
    throw new UsageError(`Too many arguments: ${positional.slice(1).join(" ")}`);
  }
  const file = positional[0];
  parsed.file = file === undefined || file === "-" ? null : file;
  return parsed;
}
