// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Command line arguments of the tool and its usage text.

import type { Float32Option } from "../_format/float32.ts";

/** What the command line asks for. */
export interface CliArguments {
  command: "decode" | "encode" | "inspect" | "fetch" | "help";
  /** Input file; `null` for standard input. */
  file: string | null;
  /** `fetch`: the URL. */
  url: string | null;
  /** `--exact`: the byte-preserving tagged form instead of plain JSON. */
  exact: boolean;
  /** `--hex` / `--base64`: input (decode, inspect) or output (encode) as text. */
  text: "hex" | "base64" | null;
  ndjson: boolean;
  /** `--records` / `--no-records`; `null` when neither was given. */
  records: boolean | null;
  structuresFile: string | null;
  sequential: boolean;
  float32: Float32Option;
  bundleStrings: boolean;
  /** `fetch -H`: request headers, as given ("Name: value"). */
  headers: string[];
  /** `fetch -X`: the method; `null` for GET, or POST with `-d`. */
  method: string | null;
  /** `fetch -d`: the JSON to send (`@FILE`: read from FILE, `@-`: standard input). */
  data: string | null;
  /** `fetch --send-json`: send `-d` as JSON rather than MessagePack. */
  sendJson: boolean;
  /** `--max-depth N`: the deepest nesting accepted; `null` for the library's `maxDepth` default. */
  maxDepth: number | null;
}

/** A command line the tool does not understand (exit status 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** The `--help` text. */
export const USAGE: string = `Usage: msgpackr <command> [options] [file | URL]

Commands:
  decode   MessagePack (one value or a sequence of values) to JSON, one document
           per value.
  inspect  Annotated dump: offset (hex), bytes (hex), type and value of every item,
           indented by nesting. Broken input is shown up to the offset where it breaks.
  fetch    Requests URL with "Accept: application/msgpack, application/json;q=0.9"
           and prints the body: MessagePack as JSON, each value as soon as it has
           arrived; JSON and text as they are. The status line and the content type
           go to standard error.
  encode   JSON or NDJSON (one or more JSON texts) to MessagePack, the tags of either
           form included; numbers are read as JSON.parse reads them.

decode, inspect and encode read FILE, or standard input when FILE is "-" or missing.

The two JSON forms of decode and fetch:
  (default) The JSON the sending service would print: objects for maps with string
           keys, integers with all their digits, floats (1.0 stays 1.0), null. What
           JSON cannot show is a tag, {"$msgpack": "bin", "base64": "AQI="}: bin, ext,
           timestamp, map (keys that are not strings, or repeat), float64/float32
           NaN and infinities, undefined, and msgpackr's types. Use it to read data.
  --exact  How every item was written (integer widths, map and string headers,
           float32), so that "decode --exact | encode" gives the same bytes back. Use
           it to edit data.

Options:
  --exact             decode, fetch: the byte-preserving form (see above)
  --ndjson            decode, fetch: one compact JSON line per value (default: pretty)
  --hex, --base64     decode, inspect: the input is a hex dump (white space and 0x
                      allowed) or base64 (standard or URL-safe, white space allowed),
                      as logs and consoles show payloads; encode: write it so
  -H, --header 'Name: value'
                      fetch: a request header (repeatable)
  -X, --request METHOD
                      fetch: the method (default: GET, or POST with -d)
  -d, --data JSON     fetch: send JSON as MessagePack (Content-Type:
                      application/msgpack): integers as integers up to 64 bits, other
                      numbers as float64, tags as decode writes them. @FILE reads the
                      JSON from FILE, @- from standard input
  --send-json         fetch: send -d as JSON (Content-Type: application/json)
  --records           encode: objects as records, like new Packr() (default: maps,
                      like pack())
  --no-records        decode, fetch: every map as an object, keys made strings, like
                      new Unpackr({ useRecords: false })
  --structures FILE   shared structures saved by a Packr: a JSON or MessagePack array of
                      key arrays. encode: implies --records; FILE is only read, shapes
                      that are not in it are defined inline.
  --sequential        encode: record definitions carry over from one value to the
                      next, like new Packr({ sequential: true }); implies --records
                      (decode always keeps definitions from one value to the next)
  --float32 MODE      never, always, decimal-round or decimal-fit, like useFloat32
                      (decode: float32 values that MODE writes are shown as plain
                      numbers; decimal-round and decimal-fit round them to decimals)
  --bundle-strings    encode: gather strings into bundles, like bundleStrings: true
  --max-depth N       deepest nesting of arrays, maps, records and tags accepted, like
                      maxDepth (default 1000); deeper input is an error (exit 1)
  -h, --help          print this help

An option that does not apply to a command is accepted and ignored, so the same options
can be given to decode and encode.

Under Deno, fetch needs --allow-net, and reading files --allow-read.

Exit status: 0 on success; 1 when the input cannot be read, decoded or encoded (the
message gives the offset of the bad byte), when fetch gets a status other than 2xx
(the body is printed) or cannot connect; 2 on a usage error.

Examples:
  msgpackr fetch http://localhost:8080/orders/42
  msgpackr fetch -X POST -H 'Authorization: Bearer T' -d '{"id": 5000000000}' URL
  msgpackr decode --base64 < dump.txt
  msgpackr inspect --hex <<< '81 a2 69 64 cf 00 00 00 01 2a 05 f2 00'
  msgpackr decode --exact payload.bin | msgpackr encode > copy.bin
  deno run --allow-read --allow-net jsr:@x/msgpackr/cli fetch URL
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

const COMMANDS = ["decode", "encode", "inspect", "fetch"];

/** Parses the arguments after the program name; throws {@linkcode UsageError}. */
export function parseArguments(args: readonly string[]): CliArguments {
  const parsed: CliArguments = {
    command: "help",
    file: null,
    url: null,
    exact: false,
    text: null,
    ndjson: false,
    records: null,
    structuresFile: null,
    sequential: false,
    float32: 0,
    bundleStrings: false,
    headers: [],
    method: null,
    data: null,
    sendJson: false,
    maxDepth: null,
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
    // --name=value, and the value of -H, -X, -d written right after the letter (-XPOST)
    const equals = arg.indexOf("=");
    const attached = /^-[HXd]./.test(arg);
    const name = attached
      ? arg.slice(0, 2)
      : arg.startsWith("--") && equals > 0
      ? arg.slice(0, equals)
      : arg;
    const inline = attached ? arg.slice(2) : name === arg ? null : arg.slice(equals + 1);
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
      case "--exact":
        parsed.exact = flag();
        break;
      case "--hex":
      case "--base64":
        flag();
        if (parsed.text !== null && parsed.text !== name.slice(2)) {
          throw new UsageError("Options --hex and --base64 cannot be given together");
        }
        parsed.text = name === "--hex" ? "hex" : "base64";
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
      case "-H":
      case "--header": {
        const header = value();
        const colon = header.indexOf(":");
        if (colon <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header.slice(0, colon).trim())) {
          throw new UsageError(`Header ${JSON.stringify(header)} is not "Name: value"`);
        }
        parsed.headers.push(header);
        break;
      }
      case "-X":
      case "--request": {
        const method = value();
        if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(method)) {
          throw new UsageError(`Method ${JSON.stringify(method)} is not an HTTP method`);
        }
        parsed.method = method;
        break;
      }
      case "-d":
      case "--data":
        parsed.data = value();
        break;
      case "--send-json":
        parsed.sendJson = flag();
        break;
      case "--max-depth": {
        const depth = value();
        if (!/^[1-9]\d{0,8}$/.test(depth)) {
          throw new UsageError(
            `--max-depth needs a whole number from 1 to 999999999, not ${JSON.stringify(depth)}`,
          );
        }
        parsed.maxDepth = Number(depth);
        break;
      }
      default:
        throw new UsageError(`Unknown option ${name}`);
    }
  }
  if (help) return parsed;
  const command = positional.shift();
  if (command === undefined) {
    throw new UsageError("Missing command (decode, inspect, fetch or encode)");
  }
  if (command === "help") return parsed;
  if (!COMMANDS.includes(command)) {
    throw new UsageError(`Unknown command "${command}" (use decode, inspect, fetch or encode)`);
  }
  parsed.command = command as CliArguments["command"];
  if (positional.length > 1) {
    throw new UsageError(`Too many arguments: ${positional.slice(1).join(" ")}`);
  }
  const file = positional[0];
  if (command === "fetch") {
    if (file === undefined) throw new UsageError("fetch needs a URL");
    parsed.url = file;
    return parsed;
  }
  parsed.file = file === undefined || file === "-" ? null : file;
  return parsed;
}
