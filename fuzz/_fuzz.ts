// Copyright 2026 the @x/msgpackr authors. MIT license.
// Fuzzing helpers shared by tests/fuzz_test.ts (bounded, fast-check) and fuzz/fuzz.ts (long runs):
// the decoder configurations hostile bytes are fed to, the rules a decode must keep (only our
// error classes, sane offsets, no prototype changes, bounded time and memory, same result through
// the stream decoder), mutations of valid encodings, value arbitraries per option set with the
// value each set is expected to decode to, and a deep comparison that reports where values differ.

import fc from "fast-check";
import {
  C1,
  C1Type,
  DecodeError,
  FLOAT32_OPTIONS,
  IncompleteDataError,
  pack,
  Packr,
  Timestamp,
  unpack,
  Unpackr,
} from "../mod.ts";
import { concatBytes } from "../_core/bytes.ts";
import { TYPED_ARRAYS } from "../_format/typed_array_ext.ts";
import { objectOf } from "./_shaped.ts";
import { ChunkDecoder } from "../_stream/chunk_decoder.ts";
import { UnpackrStream } from "../stream.ts";

// ---- randomness --------------------------------------------------------------------------------

/** The tests' generator (mulberry32), named apart from the `random` variables that hold one. */
export { random as mulberry32 } from "../tests/_util.ts";

/** Bytes as lowercase hex without separators. */
export function toHex(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i++) text += bytes[i].toString(16).padStart(2, "0");
  return text;
}

// ---- decoder configurations --------------------------------------------------------------------

/** One way of decoding bytes; `decode` throws what the decoder throws. */
export interface DecodeTarget {
  readonly name: string;
  decode(bytes: Uint8Array): unknown;
}

/** Shared structures with awkward keys; more than 32 entries switch ids to two bytes. */
function sharedStructures(count: number): string[][] {
  const keys = ["__proto__", "constructor", "prototype", "toString", "valueOf", "a", "0", ""];
  return Array.from({ length: count }, (_, i) => [keys[i % keys.length], `k${i}`].slice(i % 2));
}

/**
 * Decoders with every kind of configuration: plain and record decoders, maps as objects or Maps,
 * shared structures (one- and two-byte ids, `getStructures`), sequential, freezeData, int64 modes,
 * timestamps as Timestamps, float32 rounding, copyBuffers, arrays as map keys, no compiled
 * readers, a small maxDepth, `structuredClone: false`, `plainDataOnly`, custom extensions that
 * decode their payload again, and `unpackMultiple`. Instances are fresh on every call (a sequential decoder keeps definitions), so
 * a failing input reproduces on its own.
 */
export function decodeTargets(): DecodeTarget[] {
  const nested = new Unpackr({ mapsAsObjects: true });
  nested.addExtension({ type: 1, unpack: (bytes) => unpack(bytes) });
  nested.addExtension({ type: 2, read: (data) => ({ wrapped: data }) });
  nested.addExtension({
    type: 3,
    unpack: (bytes) => new Unpackr({ sequential: true }).unpackMultiple(bytes),
  });
  const decoders: [string, Unpackr][] = [
    ["Unpackr()", new Unpackr()],
    ["Unpackr({mapsAsObjects})", new Unpackr({ mapsAsObjects: true })],
    ["Unpackr({structures: 3})", new Unpackr({ structures: sharedStructures(3) })],
    [
      "Unpackr({structures: 40, mapsAsObjects})",
      new Unpackr({ structures: sharedStructures(40), mapsAsObjects: true }),
    ],
    ["Unpackr({getStructures})", new Unpackr({ getStructures: () => sharedStructures(70) })],
    ["Unpackr({sequential})", new Unpackr({ sequential: true })],
    ["Unpackr({freezeData})", new Unpackr({ freezeData: true, mapsAsObjects: true })],
    ["Unpackr({int64AsType: string})", new Unpackr({ int64AsType: "string" })],
    ["Unpackr({int64AsType: auto})", new Unpackr({ int64AsType: "auto" })],
    ["Unpackr({timestamps: timestamp})", new Unpackr({ timestamps: "timestamp" })],
    ["Unpackr({useFloat32: DECIMAL_ROUND})", new Unpackr({ useFloat32: 3 })],
    ["Unpackr({copyBuffers})", new Unpackr({ copyBuffers: true })],
    [
      "Unpackr({allowArraysInMapKeys})",
      new Unpackr({ allowArraysInMapKeys: true, mapsAsObjects: true }),
    ],
    ["Unpackr({compileRecordReaders: false})", new Unpackr({ compileRecordReaders: false })],
    ["Unpackr({maxDepth: 4})", new Unpackr({ maxDepth: 4 })],
    ["Unpackr({structuredClone: false})", new Unpackr({ structuredClone: false })],
    ["Unpackr({plainDataOnly})", new Unpackr({ plainDataOnly: true, mapsAsObjects: true })],
    ["Unpackr with nested-decoding extensions", nested],
    ["Packr()", new Packr()],
  ];
  const targets: DecodeTarget[] = [{ name: "unpack", decode: (bytes) => unpack(bytes) }];
  for (const [name, decoder] of decoders) {
    targets.push({ name, decode: (bytes) => decoder.unpack(bytes) });
  }
  const multiple = new Unpackr({ structures: sharedStructures(40) });
  targets.push({
    name: "Unpackr({structures: 40}).unpackMultiple",
    decode: (bytes) => multiple.unpackMultiple(bytes),
  });
  return targets;
}

// ---- the rules ---------------------------------------------------------------------------------

/** A broken rule, with the configuration that broke it. */
export interface Failure {
  target: string;
  /** Stable text (numbers removed) to tell distinct failures apart. */
  signature: string;
  detail: string;
}

/** A failure; the signature leaves the target out, so one bug in all configurations counts once. */
function failure(target: string, kind: string, detail: string): Failure {
  return { target, signature: kind, detail: `${target}: ${detail}` };
}

/** Why `error` is not an acceptable decode error for `bytes`, or null when it is. */
export function errorProblem(error: unknown, bytes: Uint8Array): string | null {
  if (!(error instanceof DecodeError)) {
    const name = error instanceof Error ? error.constructor.name : typeof error;
    return `threw ${name} instead of a DecodeError: ${String(error).slice(0, 300)}`;
  }
  const incomplete = error instanceof IncompleteDataError;
  if (error.name !== (incomplete ? "IncompleteDataError" : "DecodeError")) {
    return `error name ${error.name}`;
  }
  if (error.incomplete !== incomplete) return `incomplete is ${error.incomplete}`;
  if (!Number.isInteger(error.offset) || error.offset < 0 || error.offset > bytes.length) {
    return `offset ${error.offset} outside 0..${bytes.length}`;
  }
  // "at offset N" (the stream decoder's end-of-stream error says "the stream ended N bytes…")
  if (
    typeof error.message !== "string" ||
    !/\boffset \d+|the stream ended \d+ bytes/.test(error.message)
  ) {
    return `message does not say where: ${JSON.stringify(error.message)}`;
  }
  const missing = (error as IncompleteDataError).missingBytes;
  if (missing !== undefined && !(Number.isInteger(missing) && missing > 0)) {
    return `missingBytes ${missing}`;
  }
  return null;
}

interface PrototypeSnapshot {
  readonly target: object;
  readonly name: string;
  readonly keys: readonly (string | symbol)[];
  readonly prototype: object | null;
}

const WATCHED: [string, object][] = [
  ["Object.prototype", Object.prototype],
  ["Array.prototype", Array.prototype],
  ["Function.prototype", Function.prototype],
  ["Map.prototype", Map.prototype],
  ["Set.prototype", Set.prototype],
  ["String.prototype", String.prototype],
  ["Number.prototype", Number.prototype],
  ["Error.prototype", Error.prototype],
  ["Date.prototype", Date.prototype],
  ["RegExp.prototype", RegExp.prototype],
  ["Uint8Array.prototype", Uint8Array.prototype],
];

function snapshot(): PrototypeSnapshot[] {
  return WATCHED.map(([name, target]) => ({
    target,
    name,
    keys: Reflect.ownKeys(target),
    prototype: Object.getPrototypeOf(target),
  }));
}

const PRISTINE = snapshot();

/** Which built-in prototype gained, lost or changed a property since startup, or null. */
export function prototypeProblem(): string | null {
  for (const { target, name, keys, prototype } of PRISTINE) {
    const now = Reflect.ownKeys(target);
    if (now.length !== keys.length || now.some((key, i) => key !== keys[i])) {
      return `${name} keys changed: ${
        now.filter((key) => !keys.includes(key)).map(String).join(", ")
      }`;
    }
    if (Object.getPrototypeOf(target) !== prototype) return `${name} prototype replaced`;
  }
  for (const key in {}) return `a fresh object has the enumerable property ${key}`;
  return null;
}

const ALLOWED_PROTOTYPES = new Set<object | null>([
  null,
  Object.prototype,
  Array.prototype,
  Map.prototype,
  Set.prototype,
  Date.prototype,
  RegExp.prototype,
  Error.prototype,
  EvalError.prototype,
  RangeError.prototype,
  ReferenceError.prototype,
  SyntaxError.prototype,
  TypeError.prototype,
  URIError.prototype,
  ArrayBuffer.prototype,
  DataView.prototype,
  C1Type.prototype,
  Timestamp.prototype,
  ...TYPED_ARRAYS.map((type) => type.prototype),
]);
if (typeof AggregateError === "function") ALLOWED_PROTOTYPES.add(AggregateError.prototype);

/**
 * Why a decoded value is suspicious, or null: an object whose prototype is not a built-in one
 * (a decoded `__proto__` key would make another decoded object the prototype), or a plain object
 * with an own `__proto__` property (the default renames it `__proto_`, as msgpackr). Walks at
 * most `limit` objects.
 */
export function valueProblem(value: unknown, limit = 20000): string | null {
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0 && seen.size < limit) {
    const item = stack.pop();
    if (item === null || typeof item !== "object" || seen.has(item)) continue;
    seen.add(item);
    const prototype = Object.getPrototypeOf(item);
    if (!ALLOWED_PROTOTYPES.has(prototype)) return "decoded object with a non-built-in prototype";
    if (ArrayBuffer.isView(item) || item instanceof ArrayBuffer) continue;
    if (item instanceof Map) {
      for (const [key, entry] of item) stack.push(key, entry);
    } else if (item instanceof Set) {
      for (const entry of item) stack.push(entry);
    } else if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) stack.push(item[i]);
    } else {
      if (Object.hasOwn(item, "__proto__") && !(item instanceof Error)) {
        return "decoded object with an own __proto__ property";
      }
      for (const key of Object.keys(item)) stack.push((item as Record<string, unknown>)[key]);
    }
  }
  return null;
}

/** Heap bytes in use (JS heap plus external memory such as ArrayBuffers). */
export function heapBytes(): number {
  if (typeof Deno !== "undefined") {
    const usage = Deno.memoryUsage();
    return usage.heapUsed + usage.external;
  }
  const usage = (globalThis as unknown as {
    process: { memoryUsage(): { heapUsed: number; external: number } };
  }).process.memoryUsage();
  return usage.heapUsed + usage.external;
}

/** Limits for {@linkcode checkDecode}. */
export interface CheckLimits {
  /** Most milliseconds one decode may take. */
  maxMilliseconds: number;
  /** Most heap growth in bytes one decode may cause, on top of `bytesPerInputByte` per byte. */
  maxHeapGrowth: number;
  bytesPerInputByte: number;
  /** Measure the heap (costs ~8 µs per decode). */
  measureHeap: boolean;
}

/** Defaults: generous enough never to fire on a healthy decoder, tight enough to catch a bomb. */
export const DEFAULT_LIMITS: CheckLimits = {
  maxMilliseconds: 1000,
  maxHeapGrowth: 64 * 1024 * 1024,
  bytesPerInputByte: 1024,
  measureHeap: true,
};

/**
 * Decodes `bytes` with every target and returns the rules broken: a throw that is not a
 * well-formed DecodeError, a changed built-in prototype, a suspicious decoded value, a slow
 * decode, a large heap growth.
 */
export function checkDecode(
  bytes: Uint8Array,
  targets: readonly DecodeTarget[] = decodeTargets(),
  limits: CheckLimits = DEFAULT_LIMITS,
): Failure[] {
  const failures: Failure[] = [];
  for (const target of targets) {
    const heapBefore = limits.measureHeap ? heapBytes() : 0;
    const started = performance.now();
    let value: unknown;
    let ok = false;
    try {
      value = target.decode(bytes);
      ok = true;
    } catch (error) {
      const problem = errorProblem(error, bytes);
      if (problem !== null) {
        failures.push(failure(target.name, problem.replace(/\d+/g, "N").slice(0, 160), problem));
      }
    }
    const elapsed = performance.now() - started;
    if (elapsed > limits.maxMilliseconds) {
      failures.push(failure(target.name, "slow", `took ${elapsed.toFixed(0)} ms`));
    }
    if (limits.measureHeap) {
      const growth = heapBytes() - heapBefore;
      if (growth > limits.maxHeapGrowth + limits.bytesPerInputByte * bytes.length) {
        failures.push(
          failure(target.name, "heap", `heap grew ${(growth / 1048576).toFixed(1)} MiB`),
        );
      }
    }
    if (ok) {
      const problem = valueProblem(value);
      if (problem !== null) failures.push(failure(target.name, problem, problem));
    }
    const prototypes = prototypeProblem();
    if (prototypes !== null) failures.push(failure(target.name, "prototype", prototypes));
  }
  return failures;
}

/**
 * Feeds `bytes` to the stream decoder in chunks of the given sizes (cycled) and compares with a
 * sequential `unpackMultiple` of the whole. The stream must deliver exactly the values the whole
 * decode delivers before it stops (all of them when it succeeds), and then stop with an error of
 * the same class at the same stream offset, or succeed where it succeeds. The one exception is
 * documented: a length header that promises more than `maxIncompleteBufferSize` makes the stream
 * give up at once with a DecodeError, possibly before the bytes that make the whole decode fail
 * otherwise have arrived (so it may deliver fewer values than the whole decode). Returns the rule
 * broken, or null.
 */
export function checkStream(bytes: Uint8Array, chunkSizes: readonly number[]): Failure | null {
  if (bytes.length === 0) return null; // no chunks: nothing to decode, unlike unpackMultiple
  const decoder = new ChunkDecoder();
  const values: unknown[] = [];
  let streamError: unknown = null;
  try {
    for (const chunk of chunksOf(bytes, chunkSizes)) decoder.push(chunk, values);
    decoder.end(values);
  } catch (error) {
    streamError = error;
  }
  return compareWithWhole("stream (ChunkDecoder)", bytes, values, streamError);
}

/**
 * {@linkcode checkStream} through `UnpackrStream`: each chunk is written and awaited while the
 * readable side is read, then the stream is closed; the values read and the error the stream
 * ends with are held to the same rules.
 */
export async function checkUnpackrStream(
  bytes: Uint8Array,
  chunkSizes: readonly number[],
): Promise<Failure | null> {
  if (bytes.length === 0) return null;
  const stream = new UnpackrStream();
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const values: unknown[] = [];
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      values.push(value);
    }
  })();
  let writeError: unknown = null;
  try {
    for (const chunk of chunksOf(bytes, chunkSizes)) await writer.write(chunk);
    await writer.close();
  } catch (error) {
    writeError = error;
  }
  let streamError: unknown = null;
  try {
    await reading;
  } catch (error) {
    streamError = error;
  }
  if (streamError === null && writeError !== null) streamError = writeError;
  return compareWithWhole("stream (UnpackrStream)", bytes, values, streamError);
}

/** `bytes` cut into chunks of the given sizes (cycled). */
function chunksOf(bytes: Uint8Array, chunkSizes: readonly number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let offset = 0, i = 0; offset < bytes.length; i++) {
    const size = Math.max(1, chunkSizes[i % chunkSizes.length]);
    chunks.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  return chunks;
}

/** The rules of {@linkcode checkStream}, for what a stream delivered and how it ended. */
function compareWithWhole(
  name: string,
  bytes: Uint8Array,
  values: readonly unknown[],
  streamError: unknown,
): Failure | null {
  let wholeValues: unknown[];
  let wholeError: unknown = null;
  try {
    wholeValues = new Unpackr({ sequential: true }).unpackMultiple(bytes);
  } catch (error) {
    wholeError = error;
    wholeValues = error instanceof DecodeError ? error.values ?? [] : [];
  }
  const both = () => `whole: ${String(wholeError)}; stream: ${String(streamError)}`;
  if (streamError !== null) {
    const problem = errorProblem(streamError, bytes);
    if (problem !== null) {
      return failure(name, `stream: ${problem.replace(/\d+/g, "N").slice(0, 160)}`, problem);
    }
  }
  if (
    streamError instanceof DecodeError && !(streamError instanceof IncompleteDataError) &&
    /^Maximum incomplete buffer size exceeded/.test(streamError.message)
  ) {
    // the documented exception: only a prefix of the values, and the whole decode must fail too
    if (!(wholeError instanceof DecodeError)) {
      return failure(name, "stream: gave up on a value the whole decode reads", both());
    }
    if (values.length > wholeValues.length) {
      return failure(name, "stream: more values", `${values.length} vs ${wholeValues.length}`);
    }
    const difference = valuesDiffer(values, wholeValues.slice(0, values.length), {
      identity: false,
    });
    return difference === null ? null : failure(name, "stream: different values", difference);
  }
  if ((wholeError === null) !== (streamError === null)) {
    return failure(name, "stream: disagrees on success", both());
  }
  if (wholeError !== null) {
    const whole = wholeError as DecodeError;
    const stream = streamError as DecodeError;
    if (whole.constructor !== stream.constructor) {
      return failure(name, "stream: disagrees on the error class", both());
    }
    if (whole.offset !== stream.offset) {
      return failure(
        name,
        "stream: disagrees on the error offset",
        `whole at ${whole.offset}, stream at ${stream.offset}: ${both()}`,
      );
    }
  }
  if (values.length !== wholeValues.length) {
    return failure(
      name,
      "stream: value count",
      `${values.length} values vs ${wholeValues.length} from the whole decode; ${both()}`,
    );
  }
  const difference = valuesDiffer(values, wholeValues, { identity: false });
  if (difference !== null) return failure(name, "stream: different values", difference);
  return null;
}

// ---- mutations ---------------------------------------------------------------------------------

/** One edit of a byte string; fields are taken modulo what they index. */
export interface Mutation {
  kind: number;
  at: number;
  value: number;
  length: number;
}

/**
 * Bytes that mean something in msgpackr's dialect: every header kind, record ids, the extension
 * types ("r", "b", "i", "p", "s", "e", "x", "t", "B"), and UTF-8 lead bytes that are never valid.
 */
export const INTERESTING_BYTES: readonly number[] = (
  "00 01 0f 10 1f 20 3f 40 41 5f 60 61 7f 80 81 8f 90 91 9f a0 a1 bf c0 c1 c4 c5 c6 c7 c8 c9 " +
  "ca cb cc cf d3 d4 d5 d6 d7 d8 d9 da db dc dd de df e0 ff 72 62 69 70 73 65 78 74 42 ed f4 f5"
).split(" ").map((byte) => parseInt(byte, 16));

/** Length values that probe the checks: small, off by one, 16- and 32-bit extremes. */
const LENGTHS = [0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 255, 256, 0x7fff, 0xffff, 0x7fffffff];

/** Number of mutation kinds {@linkcode applyMutation} knows. */
export const MUTATION_KINDS = 11;

/** Applies one mutation; returns a new array (the input is not changed). */
export function applyMutation(bytes: Uint8Array, mutation: Mutation): Uint8Array {
  const length = bytes.length;
  const at = length === 0 ? 0 : mutation.at % length;
  const value = mutation.value;
  switch (mutation.kind % MUTATION_KINDS) {
    case 0: { // flip a bit
      if (length === 0) return Uint8Array.of(value & 0xff);
      const copy = bytes.slice();
      copy[at] ^= 1 << (value & 7);
      return copy;
    }
    case 1: { // set an interesting byte
      if (length === 0) return Uint8Array.of(INTERESTING_BYTES[value % INTERESTING_BYTES.length]);
      const copy = bytes.slice();
      copy[at] = INTERESTING_BYTES[value % INTERESTING_BYTES.length];
      return copy;
    }
    case 2: // truncate
      return bytes.slice(0, at);
    case 3: { // insert random bytes
      const insert = new Uint8Array(1 + (mutation.length % 8));
      let seed = value;
      for (let i = 0; i < insert.length; i++) {
        seed = (Math.imul(seed, 1103515245) + 12345) | 0;
        insert[i] = i === 0 && value & 1
          ? INTERESTING_BYTES[(seed >>> 8) % INTERESTING_BYTES.length]
          : seed >>> 16;
      }
      const where = length === 0 ? 0 : mutation.at % (length + 1);
      return concatBytes([bytes.subarray(0, where), insert, bytes.subarray(where)]);
    }
    case 4: { // delete a range
      const end = Math.min(length, at + 1 + (mutation.length % 16));
      return concatBytes([bytes.subarray(0, at), bytes.subarray(end)]);
    }
    case 5: { // copy a range elsewhere (inserted)
      if (length === 0) return bytes.slice();
      const from = value % length;
      const piece = bytes.subarray(from, Math.min(length, from + 1 + (mutation.length % 64)));
      return concatBytes([bytes.subarray(0, at), piece, bytes.subarray(at)]);
    }
    case 6: { // corrupt the length field of the first length-carrying header at or after `at`
      const copy = bytes.slice();
      for (let i = at; i < length; i++) {
        const width = lengthFieldWidth(copy[i]);
        if (width === 0) continue;
        let field = LENGTHS[value % LENGTHS.length] + ((value >> 8) % 3) - 1;
        if (field < 0) field = 0;
        for (let j = width; j >= 1; j--) {
          if (i + j < length) copy[i + j] = field & 0xff;
          field = Math.floor(field / 256);
        }
        return copy;
      }
      return copy;
    }
    case 7: { // change the count of the first fixmap/fixarray/fixstr at or after `at`
      const copy = bytes.slice();
      for (let i = at; i < length; i++) {
        if (copy[i] >= 0x80 && copy[i] < 0xc0) {
          copy[i] = (copy[i] & (copy[i] < 0xa0 ? 0xf0 : 0xe0)) |
            (value & (copy[i] < 0xa0 ? 0x0f : 0x1f));
          return copy;
        }
      }
      return copy;
    }
    case 8: { // change a record id or fixint 0x40..0x7f
      const copy = bytes.slice();
      for (let i = at; i < length; i++) {
        if (copy[i] >= 0x40 && copy[i] < 0x80) {
          copy[i] = 0x40 | (value & 0x3f);
          return copy;
        }
      }
      return copy;
    }
    case 9: // repeat the whole input (as a sequence, or a second copy appended)
      return concatBytes([bytes, bytes.subarray(0, at + 1)]);
    default: { // overwrite 4 bytes with a big-endian 32-bit value (offsets, ids, lengths)
      const copy = bytes.slice();
      const field = LENGTHS[value % LENGTHS.length] ^ (mutation.length & 0xff);
      for (let j = 0; j < 4 && at + j < length; j++) copy[at + j] = (field >>> (24 - 8 * j)) & 0xff;
      return copy;
    }
  }
}

/** Width of the length field that follows a header byte (0 for headers without one). */
function lengthFieldWidth(token: number): number {
  switch (token) {
    case 0xc4:
    case 0xc7:
    case 0xd9:
      return 1;
    case 0xc5:
    case 0xc8:
    case 0xda:
    case 0xdc:
    case 0xde:
      return 2;
    case 0xc6:
    case 0xc9:
    case 0xdb:
    case 0xdd:
    case 0xdf:
      return 4;
  }
  return 0;
}

/** A fast-check arbitrary of mutations. */
export const mutationArbitrary: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.nat({ max: MUTATION_KINDS - 1 }),
  at: fc.nat(),
  value: fc.nat(),
  length: fc.nat({ max: 255 }),
});

/** A random mutation from `random`. */
export function randomMutation(random: () => number): Mutation {
  return {
    kind: Math.floor(random() * MUTATION_KINDS),
    at: Math.floor(random() * 0x7fffffff),
    value: Math.floor(random() * 0x7fffffff),
    length: Math.floor(random() * 256),
  };
}

// ---- option sets and value arbitraries ---------------------------------------------------------

/** What values an option set can carry through a round trip. */
export interface Features {
  /** Map keys: any value (decoded as Map), only strings (maps decode to objects). */
  mapKeys: "any" | "string";
  /** Typed arrays keep their type, Sets/RegExps their class, bigints any size. */
  moreTypes: boolean;
  /** Shared references and cycles survive (structuredClone). */
  references: boolean;
  /**
   * C1 can be written: not while bundling strings, where `c1` introduces a bundled string (the
   * format cannot tell them apart; msgpackr has the same limit).
   */
  c1: boolean;
}

/** A way to encode and decode a value, and what the value decodes to. */
export interface OptionSet {
  readonly name: string;
  readonly features: Features;
  /** Packs and unpacks one value (fresh instances each time unless the set is stateful). */
  roundTrip(value: unknown): unknown;
  /** The encoder of this set (for mutation seeds). */
  encode(value: unknown): Uint8Array;
  /** The value `roundTrip` must return for `value`. */
  expected(value: unknown): unknown;
}

const RECORD_KEYS = ["id", "name", "value", "tags", "__proto__", "constructor", "prototype"];

/** Option sets of the round-trip properties (the list). */
export function optionSets(): OptionSet[] {
  const plain: Features = { mapKeys: "string", moreTypes: false, references: false, c1: true };
  const records: Features = { mapKeys: "any", moreTypes: false, references: false, c1: true };
  const viaPackr = (
    name: string,
    features: Features,
    options: ConstructorParameters<typeof Packr>[0],
    expected: (value: unknown) => unknown,
    decoderOptions?: ConstructorParameters<typeof Unpackr>[0],
  ): OptionSet => ({
    name,
    features,
    roundTrip(value) {
      const packr = new Packr(options);
      const bytes = packr.pack(value);
      return decoderOptions ? new Unpackr(decoderOptions).unpack(bytes) : packr.unpack(bytes);
    },
    encode: (value) => new Packr(options).pack(value),
    expected,
  });
  const sharedTable: string[][] = [];
  const sharedPackr = new Packr({ structures: sharedTable });
  const sharedUnpackr = new Unpackr({ structures: sharedTable });
  const sequentialPackr = new Packr({ sequential: true });
  const sequentialUnpackr = new Unpackr({ sequential: true });
  return [
    {
      name: "pack/unpack",
      features: plain,
      roundTrip: (value) => unpack(pack(value)),
      encode: (value) => pack(value),
      expected: (value) => expectedDecoded(value, { mapsAsObjects: true, moreTypes: false }),
    },
    viaPackr(
      "Packr() records",
      records,
      {},
      (value) => expectedDecoded(value, { mapsAsObjects: false, moreTypes: false }),
    ),
    {
      // one Packr and one Unpackr share the structures array across values
      name: "Packr({structures})",
      features: records,
      roundTrip: (value) => sharedUnpackr.unpack(sharedPackr.pack(value)),
      encode: (value) => sharedPackr.pack(value),
      expected: (value) => expectedDecoded(value, { mapsAsObjects: false, moreTypes: false }),
    },
    {
      // definitions persist from value to value in both
      name: "Packr({sequential})",
      features: records,
      roundTrip: (value) => sequentialUnpackr.unpack(sequentialPackr.pack(value)),
      encode: (value) => new Packr({ sequential: true }).pack(value),
      expected: (value) => expectedDecoded(value, { mapsAsObjects: false, moreTypes: false }),
    },
    viaPackr(
      "Packr({structuredClone})",
      { mapKeys: "any", moreTypes: true, references: true, c1: true },
      { structuredClone: true },
      (value) => expectedDecoded(value, { mapsAsObjects: false, moreTypes: true }),
    ),
    viaPackr(
      "Packr({bundleStrings})",
      { ...records, c1: false },
      { bundleStrings: true },
      (value) => expectedDecoded(value, { mapsAsObjects: false, moreTypes: false }),
    ),
    viaPackr(
      "Packr({bundleStrings, useRecords: false})",
      { ...plain, c1: false },
      { bundleStrings: true, useRecords: false },
      (value) => expectedDecoded(value, { mapsAsObjects: true, moreTypes: false }),
    ),
    viaPackr(
      "Packr({moreTypes})",
      { mapKeys: "any", moreTypes: true, references: false, c1: true },
      { moreTypes: true },
      (value) => expectedDecoded(value, { mapsAsObjects: false, moreTypes: true }),
    ),
    viaPackr(
      "Packr({useFloat32: DECIMAL_FIT})",
      records,
      { useFloat32: FLOAT32_OPTIONS.DECIMAL_FIT },
      (value) => expectedDecoded(value, { mapsAsObjects: false, moreTypes: false }),
    ),
    viaPackr(
      "Packr({useFloat32: ALWAYS})",
      records,
      { useFloat32: FLOAT32_OPTIONS.ALWAYS },
      (value) => expectedDecoded(value, { mapsAsObjects: false, moreTypes: false, float32: true }),
    ),
    viaPackr(
      "Packr({variableMapSize, useRecords: false})",
      plain,
      { variableMapSize: true, useRecords: false },
      (value) => expectedDecoded(value, { mapsAsObjects: true, moreTypes: false }),
    ),
    viaPackr(
      "Packr({mapsAsObjects}) records",
      plain,
      { mapsAsObjects: true },
      (value) => expectedDecoded(value, { mapsAsObjects: true, moreTypes: false }),
    ),
  ];
}

interface ExpectOptions {
  mapsAsObjects: boolean;
  moreTypes: boolean;
  float32?: boolean;
}

/** A property name as the decoder makes it from a map key (maps as objects). */
function propertyName(key: unknown): string {
  const name = key === null ? "null" : String(key).toWellFormed();
  return name === "__proto__" ? "__proto_" : name;
}

/**
 * What msgpackr's format makes of `value` as we write it: strings are well-formed (an unpaired
 * surrogate is U+FFFD), -0 is 0, holes are undefined, `__proto__` keys are `__proto_`, maps
 * become objects (string keys) or Maps, and without `moreTypes` Sets become arrays, RegExps
 * `[source, flags]`, non-byte typed arrays, ArrayBuffers and DataViews their bytes. With `float32`, fractions in the float32 range become float32. Shared references stay
 * shared in the result (compare with `identity` only for structured clone, where they survive).
 */
export function expectedDecoded(
  value: unknown,
  options: ExpectOptions,
  memo: Map<object, unknown> = new Map(),
): unknown {
  switch (typeof value) {
    case "number":
      if (Object.is(value, -0)) return 0;
      if (
        options.float32 && !Number.isInteger(value) && value < 0x100000000 &&
        value >= -0x80000000
      ) {
        return Math.fround(value);
      }
      return value;
    case "string":
      return value.toWellFormed();
    case "object":
      break;
    default:
      return value;
  }
  if (value === null || value === C1 || value instanceof Date) return value;
  if (memo.has(value)) return memo.get(value);
  const recurse = (item: unknown) => expectedDecoded(item, options, memo);
  if (value instanceof Uint8Array && value.constructor === Uint8Array && !options.moreTypes) {
    return value.slice();
  }
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
    if (options.moreTypes) return value;
    const bytes = value instanceof ArrayBuffer
      ? new Uint8Array(value)
      : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    return bytes.slice();
  }
  if (value instanceof RegExp) return options.moreTypes ? value : [value.source, value.flags];
  if (Array.isArray(value) || (value instanceof Set && !options.moreTypes)) {
    const array: unknown[] = [];
    memo.set(value, array);
    for (const item of value as Iterable<unknown>) array.push(recurse(item));
    return array;
  }
  if (value instanceof Set) {
    const set = new Set();
    memo.set(value, set);
    for (const item of value) set.add(recurse(item));
    return set;
  }
  if (value instanceof Map && !options.mapsAsObjects) {
    const map = new Map();
    memo.set(value, map);
    for (const [key, item] of value) map.set(recurse(key), recurse(item));
    return map;
  }
  const object: Record<string, unknown> = {};
  memo.set(value, object);
  const entries: [unknown, unknown][] = value instanceof Map
    ? [...value]
    : Object.keys(value).map((key) => [key, (value as Record<string, unknown>)[key]]);
  for (const [key, item] of entries) {
    Object.defineProperty(object, propertyName(key), {
      value: recurse(item),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return object;
}

/** Strings that cross the decoder's paths: ASCII, non-ASCII, around 31/32/64-byte thresholds. */
export const stringArbitrary: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: "binary", maxLength: 40 }), // lone surrogates too: written as U+FFFD
  fc.string({ unit: "grapheme", minLength: 25, maxLength: 80 }),
  fc.string({ unit: "binary-ascii", minLength: 28, maxLength: 70 }),
  fc.string({ minLength: 200, maxLength: 300 }),
  fc.constantFrom("", "\u{1F600}", "\uFEFFbom", "é".repeat(40), "a".repeat(65), "key"),
);

const keyArbitrary: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...RECORD_KEYS, "a", "b", "0", "12", "toString", "") },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
);

const typedArrayArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  fc.int8Array({ maxLength: 8 }),
  fc.uint8ClampedArray({ maxLength: 8 }),
  fc.int16Array({ maxLength: 8 }),
  fc.uint16Array({ maxLength: 8 }),
  fc.int32Array({ maxLength: 8 }),
  fc.uint32Array({ maxLength: 8 }),
  fc.float32Array({ maxLength: 8 }),
  fc.float64Array({ maxLength: 8 }),
  fc.bigInt64Array({ maxLength: 4 }),
  fc.bigUint64Array({ maxLength: 4 }),
  fc.uint8Array({ maxLength: 8 }).map((bytes) => bytes.buffer),
  fc.uint8Array({ maxLength: 8 }).map((bytes) => new DataView(bytes.buffer)),
);

/**
 * Values an option set can round-trip: every MessagePack scalar (NaN, ±0, ±Infinity, 64-bit
 * bigints, undefined), strings of every path, Dates, byte arrays, typed arrays, Sets, RegExps,
 * C1, arrays, objects whose shapes repeat (records), Maps, and with `references` shared
 * references and cycles.
 */
export function valueArbitrary(features: Features, maxDepth = 4): fc.Arbitrary<unknown> {
  const scalars: fc.Arbitrary<unknown>[] = [
    fc.integer(),
    fc.integer({ min: -0x80000000, max: 0xffffffff }),
    fc.integer({ min: 0x38, max: 0x88 }), // record id bytes as integers
    fc.double(),
    fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((x) => Math.round(x * 1000) / 1000),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }),
    fc.constantFrom(null, undefined, true, false, -0, NaN, Infinity, 2 ** 53, 2 ** 64),
    stringArbitrary,
    fc.date({ noInvalidDate: true }),
    fc.uint8Array({ maxLength: 40 }),
    typedArrayArbitrary,
    fc.constantFrom(/a+/gi, /x/, /[\u0100-\uffff]$/u),
  ];
  if (features.c1) scalars.push(fc.constant(C1));
  if (features.moreTypes) {
    scalars.push(fc.bigInt({ min: -(2n ** 300n), max: 2n ** 300n }));
  }
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", maxDepth },
      ...scalars,
      fc.array(tie("value"), { maxLength: 6 }),
      fc.array(fc.integer({ min: -40, max: 200 }), { minLength: 14, maxLength: 70 }),
      fc.array(fc.tuple(keyArbitrary, tie("value")), { maxLength: 6 }).map(objectOf),
      // repeated shapes: the records path (definitions, references, compiled readers)
      fc.tuple(
        fc.subarray(RECORD_KEYS, { minLength: 1 }),
        fc.array(fc.array(tie("value"), { minLength: 7, maxLength: 7 }), {
          minLength: 1,
          maxLength: 8,
        }),
      ).map(([keys, rows]) => rows.map((row) => objectOf(keys.map((key, i) => [key, row[i]])))),
      fc.array(
        fc.tuple(features.mapKeys === "any" ? tie("value") : keyArbitrary, tie("value")),
        { maxLength: 5 },
      ).map((entries) => new Map(entries)),
      fc.array(tie("value"), { maxLength: 5 }).map((items) => new Set(items)),
    ),
  }));
  if (!features.references) return value;
  return fc.tuple(value, fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 4 })).map((
    [root, links],
  ) => addReferences(root, links));
}

/**
 * Makes some containers of `root` also refer to others (shared references, and cycles when the
 * target is an ancestor): each link appends container `to` to container `from`.
 */
function addReferences(root: unknown, links: readonly [number, number][]): unknown {
  const containers: object[] = [];
  const seen = new Set<object>();
  const visit = (item: unknown) => {
    if (item === null || typeof item !== "object" || seen.has(item)) return;
    seen.add(item);
    if (Array.isArray(item)) {
      containers.push(item);
      item.forEach(visit);
    } else if (item instanceof Map) {
      containers.push(item);
      item.forEach(visit);
    } else if (item instanceof Set) {
      item.forEach(visit);
    } else if (Object.getPrototypeOf(item) === Object.prototype) {
      containers.push(item);
      Object.values(item).forEach(visit);
    }
  };
  visit(root);
  if (containers.length === 0) return root;
  for (const [from, to] of links) {
    const source = containers[from % containers.length];
    const target = containers[to % containers.length];
    if (Array.isArray(source)) source.push(target);
    else if (source instanceof Map) source.set(`ref${source.size}`, target);
    else (source as Record<string, unknown>)[`ref${Object.keys(source).length}`] = target;
  }
  return root;
}

// ---- comparison --------------------------------------------------------------------------------

/** Options of {@linkcode valuesDiffer}. */
export interface DiffOptions {
  /** Shared references must be shared the same way in both (structured clone). */
  identity: boolean;
  /**
   * The class an object counts as (default `Object.getPrototypeOf`): lets values of two libraries
   * compare, where msgpackr returns Node Buffers for bin and its own C1 object.
   */
  prototypeOf?: (value: object) => object | null;
  /** Whether two Errors' name and message count as equal (default: both strictly equal). */
  sameErrorText?: (actual: Error, expected: Error) => boolean;
}

/**
 * Where `actual` and `expected` differ, or null when they are equal: same types and prototypes,
 * numbers by `Object.is` (NaN equals NaN, -0 does not equal 0), Dates by time (invalid dates are
 * equal), typed arrays by type and bytes, RegExps by source and flags, Errors by name, message,
 * cause and (AggregateError) errors, objects by own enumerable keys (any order), Maps and Sets by
 * entries (in order), and with `identity` the same sharing of objects. Cycles are fine.
 */
export function valuesDiffer(
  actual: unknown,
  expected: unknown,
  options: DiffOptions,
): string | null {
  const prototypeOf = options.prototypeOf ?? Object.getPrototypeOf;
  const pairs = new Map<unknown, unknown>();
  const reverse = new Map<unknown, unknown>();
  const compare = (a: unknown, e: unknown, path: string): string | null => remember(a, e, path);
  const compareOnce = (a: unknown, e: unknown, path: string): string | null => {
    if (typeof a !== typeof e) return `${path}: ${describe(a)} vs expected ${describe(e)}`;
    if (a === null || e === null || typeof a !== "object") {
      return Object.is(a, e) ? null : `${path}: ${describe(a)} vs expected ${describe(e)}`;
    }
    const ao = a as object;
    const eo = e as object;
    if (equal.get(ao)?.has(eo)) return null; // compared before (a DAG): linear, not exponential
    if (options.identity) {
      // one-to-one: an object met again must meet its partner again
      if (pairs.has(eo) || reverse.has(ao)) {
        return pairs.get(eo) === ao && reverse.get(ao) === eo
          ? null
          : `${path}: references are shared differently`;
      }
      pairs.set(eo, ao);
      reverse.set(ao, eo);
    } else {
      // as (possibly infinite) trees: a pair already being compared is assumed equal
      let partners = comparing.get(ao);
      if (partners?.has(eo)) return null;
      if (partners === undefined) comparing.set(ao, partners = new Set());
      partners.add(eo);
    }
    try {
      if (prototypeOf(ao) !== prototypeOf(eo)) {
        return `${path}: ${describe(ao)} vs expected ${describe(eo)}`;
      }
      if (ao instanceof Date) {
        return Object.is(ao.getTime(), (eo as Date).getTime())
          ? null
          : `${path}: ${ao.getTime()} vs expected ${(eo as Date).getTime()}`;
      }
      if (ao instanceof RegExp) {
        const er = eo as RegExp;
        return ao.source === er.source && ao.flags === er.flags
          ? null
          : `${path}: ${ao} vs expected ${er}`;
      }
      if (ArrayBuffer.isView(ao) || ao instanceof ArrayBuffer) {
        const bytes = (x: ArrayBufferView | ArrayBuffer) =>
          x instanceof ArrayBuffer ? new Uint8Array(x) : new Uint8Array(
            x.buffer,
            x.byteOffset,
            x.byteLength,
          );
        const ab = bytes(ao);
        const eb = bytes(eo as ArrayBufferView);
        if (ab.length !== eb.length) return `${path}: ${ab.length} bytes vs ${eb.length}`;
        for (let i = 0; i < ab.length; i++) {
          if (ab[i] !== eb[i]) return `${path}: byte ${i} differs`;
        }
        return null;
      }
      if (ao instanceof Error) {
        const ee = eo as Error;
        const sameText = options.sameErrorText?.(ao, ee) ??
          (ao.name === ee.name && ao.message === ee.message);
        if (!sameText) {
          return `${path}: ${ao} vs expected ${ee}`;
        }
        const problem = compare(ao.cause, ee.cause, `${path}.cause`);
        if (problem !== null || !(ao instanceof AggregateError)) return problem;
        return compare(ao.errors, (ee as AggregateError).errors, `${path}.errors`);
      }
      if (ao instanceof Map || ao instanceof Set) {
        const ae = [...(ao as Map<unknown, unknown>).entries()];
        const ee = [...(eo as Map<unknown, unknown>).entries()];
        if (ae.length !== ee.length) return `${path}: size ${ae.length} vs ${ee.length}`;
        for (let i = 0; i < ae.length; i++) {
          const problem = compare(ae[i][0], ee[i][0], `${path}.key(${i})`) ??
            compare(ae[i][1], ee[i][1], `${path}.get(${i})`);
          if (problem !== null) return problem;
        }
        return null;
      }
      if (Array.isArray(ao)) {
        const ea = eo as unknown[];
        if (ao.length !== ea.length) return `${path}: length ${ao.length} vs ${ea.length}`;
        for (let i = 0; i < ao.length; i++) {
          const problem = compare(ao[i], ea[i], `${path}[${i}]`);
          if (problem !== null) return problem;
        }
        return null;
      }
      const ak = Object.keys(ao).sort();
      const ek = Object.keys(eo).sort();
      if (ak.length !== ek.length || ak.some((key, i) => key !== ek[i])) {
        return `${path}: keys ${JSON.stringify(ak)} vs expected ${JSON.stringify(ek)}`;
      }
      for (const key of ak) {
        const problem = compare(
          (ao as Record<string, unknown>)[key],
          (eo as Record<string, unknown>)[key],
          `${path}.${key}`,
        );
        if (problem !== null) return problem;
      }
      return null;
    } finally {
      if (!options.identity) comparing.get(ao)!.delete(eo);
    }
  };
  const comparing = new Map<object, Set<object>>();
  const equal = new Map<object, Set<object>>();
  const remember = (a: unknown, e: unknown, path: string): string | null => {
    const problem = compareOnce(a, e, path);
    if (problem === null && a !== null && typeof a === "object" && typeof e === "object") {
      let seen = equal.get(a);
      if (seen === undefined) equal.set(a, seen = new Set());
      seen.add(e as object);
    }
    return problem;
  };
  return remember(actual, expected, "value");
}

/**
 * A {@linkcode DiffOptions.prototypeOf} for values decoded by msgpackr: a Node Buffer counts as a
 * Uint8Array, and the C1 objects given (msgpackr's, one per loaded copy of msgpackr; the array is
 * read at each call, so copies loaded later can be added to it) as ours.
 */
export function crossLibraryPrototypeOf(
  foreignC1s: readonly object[],
): (value: object) => object | null {
  return (value) => {
    const prototype = Object.getPrototypeOf(value);
    if (
      value instanceof Uint8Array && prototype !== Uint8Array.prototype &&
      prototype?.constructor?.name === "Buffer"
    ) {
      return Uint8Array.prototype;
    }
    for (const c1 of foreignC1s) {
      if (Object.getPrototypeOf(c1) === prototype) return C1Type.prototype;
    }
    return prototype;
  };
}

function describe(value: unknown): string {
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "string") return JSON.stringify(value.slice(0, 40));
  if (value === null || typeof value !== "object") return String(value);
  return Object.getPrototypeOf(value)?.constructor?.name ?? "null-prototype object";
}

// ---- structure-aware random input --------------------------------------------------------------

/**
 * Random bytes shaped like msgpackr data: headers of every kind with plausible or forged lengths,
 * record definitions (sometimes with keys that are not an array of strings) and references,
 * two-byte ids, string bundles with random offsets and `c1` strings, reference ids and pointers,
 * Set/Error/RegExp tags, typed arrays, timestamps, bigints, and strings of random (often
 * ill-formed) UTF-8. Most of it is nearly valid, which takes the decoder deep into its paths.
 */
export function randomTokens(random: () => number, maxDepth = 6): Uint8Array {
  const out: number[] = [];
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const int = (max: number) => Math.floor(random() * max);
  const u16 = (n: number) => out.push((n >> 8) & 0xff, n & 0xff);
  const u32 = (n: number) =>
    out.push((n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
  const count = () => {
    const r = random();
    return r < 0.8 ? int(5) : r < 0.95 ? int(40) : pick(LENGTHS);
  };
  const textBytes = (length: number) => {
    const kind = int(4);
    for (let i = 0; i < length; i++) {
      if (kind === 0) out.push(0x20 + int(0x5f));
      else if (kind === 1) out.push(int(256));
      else if (kind === 2) {
        out.push(
          pick([
            0xc0,
            0xc1,
            0xc2,
            0xe0,
            0xed,
            0xef,
            0xf0,
            0xf4,
            0xf5,
            0x80,
            0xbf,
            0x9f,
            0xa0,
            0x8f,
            0x90,
            0x41,
          ]),
        );
      } else {
        // well-formed UTF-8 with an occasional cut
        const code = pick([0x41, 0xe9, 0x20ac, 0xfeff, 0x1f600, 0xd7ff, 0xe000, 0x10ffff]);
        const encoded = new TextEncoder().encode(String.fromCodePoint(code));
        const take = random() < 0.1 ? int(encoded.length) : encoded.length;
        for (let j = 0; j < take && i < length; j++, i++) out.push(encoded[j]);
        i--;
      }
    }
  };
  const string = (length = random() < 0.7 ? int(12) : pick([31, 32, 33, 63, 64, 65, 200])) => {
    if (length < 32 && random() < 0.8) out.push(0xa0 | length);
    else if (length < 256 && random() < 0.7) out.push(0xd9, length);
    else if (random() < 0.7) {
      out.push(0xda);
      u16(length);
    } else {
      out.push(0xdb);
      u32(length);
    }
    textBytes(random() < 0.95 ? length : int(length + 1));
  };
  const value = (depth: number): void => {
    const r = int(depth >= maxDepth ? 6 : 24);
    switch (r) {
      case 0:
        out.push(pick([0x00, 0x01, 0x3f, 0xc0, 0xc2, 0xc3, 0xe0, 0xff, 0xc1]));
        return;
      case 1: {
        const token = pick([0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf, 0xd0, 0xd1, 0xd2, 0xd3]);
        out.push(token);
        const size = [4, 8, 1, 2, 4, 8, 1, 2, 4, 8][token - 0xca];
        for (let i = 0; i < size; i++) out.push(int(256));
        return;
      }
      case 2:
      case 3:
        string();
        return;
      case 4: { // bin
        const length = count();
        if (length < 256) out.push(0xc4, length);
        else {
          out.push(0xc6);
          u32(length);
        }
        for (let i = 0; i < Math.min(length, 64); i++) out.push(int(256));
        return;
      }
      case 5: // record reference (or a fixint), maybe with a high byte
        out.push(0x40 + int(64));
        if (random() < 0.3) out.push(int(4));
        return;
      case 6:
      case 7: { // array
        const n = count();
        if (n < 16 && random() < 0.8) out.push(0x90 | n);
        else if (n < 0x10000) {
          out.push(0xdc);
          u16(n);
        } else {
          out.push(0xdd);
          u32(n);
        }
        for (let i = 0; i < Math.min(n, 6); i++) value(depth + 1);
        return;
      }
      case 8:
      case 9: { // map
        const n = count();
        if (n < 16 && random() < 0.8) out.push(0x80 | n);
        else {
          out.push(0xde);
          u16(n & 0xffff);
        }
        for (let i = 0; i < Math.min(n, 4); i++) {
          if (random() < 0.8) string(int(10));
          else value(depth + 1);
          value(depth + 1);
        }
        return;
      }
      case 10:
      case 11: { // record definition, one- or two-byte
        if (random() < 0.7) out.push(0xd4, 0x72, 0x40 + int(64));
        else out.push(0xd5, 0x72, pick([0x60, 0x61, 0x7f, 0x41]), int(4));
        const keys = int(4);
        if (random() < 0.9) {
          out.push(0x90 | keys);
          for (let i = 0; i < keys; i++) {
            if (random() < 0.9) {
              const name = pick(["a", "b", "__proto__", "constructor", "prototype", "toString"]);
              out.push(0xa0 | name.length, ...new TextEncoder().encode(name));
            } else value(depth + 1);
          }
        } else value(depth + 1);
        for (let i = 0; i < keys; i++) value(depth + 1);
        return;
      }
      case 12: { // reference id then a value, or a pointer
        out.push(0xd6, random() < 0.5 ? 0x69 : 0x70);
        u32(random() < 0.9 ? int(4) : int(0x7fffffff));
        if (out[out.length - 5] === 0x69) value(depth + 1);
        return;
      }
      case 13: { // a string bundle: header, value, then (roughly) its two strings
        const at = out.length;
        out.push(0xd6, 0x62, 0, 0, 0, 0);
        value(depth + 1);
        const offset = random() < 0.8 ? out.length - (at + 2) : int(64);
        out[at + 2] = (offset >>> 24) & 0xff;
        out[at + 3] = (offset >> 16) & 0xff;
        out[at + 4] = (offset >> 8) & 0xff;
        out[at + 5] = offset & 0xff;
        string();
        string();
        return;
      }
      case 14: // a bundled string
        out.push(0xc1, pick([0x00, 0x01, 0x03, 0xff, 0xfe, 0xc1, 0xa0]));
        return;
      case 15: // Set, Error, RegExp tags: an array follows (or not)
        out.push(0xd4, pick([0x73, 0x65, 0x78]), 0x00);
        value(depth + 1);
        return;
      case 16: { // typed array
        const length = int(20);
        out.push(0xc7, length, 0x74);
        if (length > 0) out.push(pick([0, 1, 3, 7, 8, 9, 10, 0x10, 0x11, 0x63]));
        for (let i = 1; i < length; i++) out.push(int(256));
        return;
      }
      case 17: { // timestamp
        const length = pick([4, 8, 12, 1, 3]);
        out.push(0xc7, length, 0xff);
        for (let i = 0; i < length; i++) out.push(int(256));
        return;
      }
      case 18: { // bigint "B" and other fixed exts
        const token = pick([0xd4, 0xd5, 0xd6, 0xd7, 0xd8]);
        out.push(token, pick([0x42, 0x00, 0x01, 0x02, 0x03, 0x05, 0xff, 0x74, 0x62]));
        for (let i = 0; i < 1 << (token - 0xd4); i++) out.push(int(256));
        return;
      }
      case 19: { // ext8/16/32 with a forged or real length
        const length = count();
        const token = pick([0xc7, 0xc8, 0xc9]);
        out.push(token);
        if (token === 0xc7) out.push(length & 0xff);
        else if (token === 0xc8) u16(length & 0xffff);
        else u32(length);
        out.push(pick([0x01, 0x02, 0x03, 0x42, 0x62, 0x69, 0x70, 0x72, 0x74, 0xff]));
        for (let i = 0; i < Math.min(length, 32); i++) out.push(int(256));
        return;
      }
      case 20: // a custom read-extension tag (type 2 in decodeTargets) then a value
        out.push(0xd4, 0x02, 0x00);
        value(depth + 1);
        return;
      case 21: { // a custom unpack extension (types 1 and 3) whose payload is msgpack again
        const inner = randomTokens(random, Math.max(1, maxDepth - depth - 2));
        out.push(0xc7, Math.min(inner.length, 255), pick([0x01, 0x03]));
        for (let i = 0; i < Math.min(inner.length, 255); i++) out.push(inner[i]);
        return;
      }
      default: // a deeper chain of one-element containers
        for (let i = int(8); i >= 0; i--) out.push(pick([0x91, 0x81, 0xa1, 0x41]));
        value(depth + 1);
    }
  };
  value(0);
  if (random() < 0.1) value(0); // a second value: trailing bytes, or a sequence
  return Uint8Array.from(out);
}

/** Random bytes, half from {@linkcode INTERESTING_BYTES}. */
export function randomBytes(random: () => number, maxLength = 64): Uint8Array {
  const bytes = new Uint8Array(Math.floor(random() * (maxLength + 1)));
  for (let i = 0; i < bytes.length; i++) {
    bytes[i] = random() < 0.5
      ? INTERESTING_BYTES[Math.floor(random() * INTERESTING_BYTES.length)]
      : Math.floor(random() * 256);
  }
  return bytes;
}
