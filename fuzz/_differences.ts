// Copyright 2026 the @x/msgpackr authors. MIT license.
// The table of intended differences between our decoder and msgpackr's on hostile bytes, for the
// differential oracle (fuzz/_differential.ts). A case where one library fails and the other does
// not, or both decode to different values, passes only when a row here recognizes it. Each row
// is narrow: it names the exact check or behaviour that differs (our error message, the bytes it
// points at, or msgpackr decoding like us once the one thing that differs is taken away), and
// says why we differ. A row marked `intended: false` is a known bug of ours, listed so that the
// oracle keeps running until it is fixed; its test.todo in tests/differential_test.ts fails.

import { DecodeError, IncompleteDataError } from "../mod.ts";
import type { DifferentialCase, Mismatch, Outcome } from "./_differential.ts";
import { decodedDiffer } from "./_differential.ts";
import { decodeTimestamp } from "../_format/timestamp.ts";
import { loadMsgpackrJs, msgpackrJs, msgpackrJsKeepingBom } from "./_msgpackr_js.ts";

/** One intended difference (or known bug). */
export interface Difference {
  /** Short name, printed with the number of cases it explained. */
  readonly name: string;
  /** The mismatches it may explain: which side fails, or that the values differ. */
  readonly sides: readonly Mismatch["kind"][];
  /** Why we differ on purpose (or, for a known bug, what is wrong). */
  readonly why: string;
  /** An intended difference (true) or a known bug of ours waiting for a fix (false). */
  readonly intended: boolean;
  /** A case it explains: a key of DIFFERENTIAL_CONFIGS and the input in hex. */
  readonly example: { readonly config: string; readonly hex: string };
  /** Recognizes the case from the bytes, the configuration and both outcomes. */
  matches(input: DifferentialCase): boolean;
}

/** Our error, when we failed with a DecodeError whose message matches `pattern`. */
function ourError(input: DifferentialCase, pattern: RegExp): DecodeError | null {
  const { ours } = input;
  if (ours.ok || !(ours.error instanceof DecodeError)) return null;
  return pattern.test(ours.error.message) ? ours.error : null;
}

/** The type byte of the ext whose header starts at `offset`, or -1. */
function extTypeAt(bytes: Uint8Array, offset: number): number {
  const token = bytes[offset];
  if (token >= 0xd4 && token <= 0xd8) return bytes[offset + 1] ?? -1;
  if (token === 0xc7) return bytes[offset + 2] ?? -1;
  if (token === 0xc8) return bytes[offset + 3] ?? -1;
  if (token === 0xc9) return bytes[offset + 5] ?? -1;
  return -1;
}

/** Decodes the case's bytes with another msgpackr instance, or other options. */
function rerun(
  input: DifferentialCase,
  instance: typeof msgpackrJs,
  options: Record<string, unknown> = input.config.options() as Record<string, unknown>,
): Outcome {
  try {
    const unpackr = new instance.Unpackr(options);
    return {
      ok: true,
      value: input.config.multiple
        ? unpackr.unpackMultiple(input.bytes)
        : unpackr.unpack(input.bytes),
    };
  } catch (error) {
    return { ok: false, error };
  } finally {
    instance.clearSource();
  }
}

/** Whether msgpackr, decoding the case's bytes, hid a read past the end by its bundle jump. */
function hidesOverrun(input: DifferentialCase): boolean {
  const before = msgpackrJs.overrunsHiddenByBundleJump;
  rerun(input, msgpackrJs);
  return msgpackrJs.overrunsHiddenByBundleJump > before;
}

/** Both outcomes are values and equal. */
function agree(a: Outcome, b: Outcome): boolean {
  return a.ok && b.ok && decodedDiffer(a.value, b.value) === null;
}

/** Both outcomes are equal values, or both are failures. */
function sameOutcome(a: Outcome, b: Outcome): boolean {
  return a.ok ? agree(a, b) : !b.ok;
}

/** The shared structures of the case's configuration (given directly or loaded), or null. */
function sharedStructuresOf(input: DifferentialCase): unknown[] | null {
  const options = input.config.options() as {
    structures?: unknown[];
    getStructures?: () => unknown[];
  };
  return options.structures ?? options.getStructures?.() ?? null;
}

/**
 * msgpackr with the value-level differences of the table taken away: it keeps BOMs, and reads
 * timestamps of 4, 8 and 12 bytes as we do (the millisecond that holds the instant, all 64 bits
 * of the seconds, unsigned nanoseconds; timestamps of other lengths are still msgpackr's, decoded
 * by msgpackrJs). Rows that rerun msgpackr in another way use it, so that a case that also holds
 * one of those differences is explained.
 */
const msgpackrJsLikeUs = loadMsgpackrJs(true);
msgpackrJsLikeUs.addExtension(
  {
    type: 0xff,
    unpack: (data: Uint8Array) =>
      data.length === 4 || data.length === 8 || data.length === 12
        ? decodeTimestamp(data, 0, data.length)
        : msgpackrJs.unpack(Uint8Array.of(0xc7, data.length, 0xff, ...data)),
  } as unknown as Parameters<typeof msgpackrJs.addExtension>[0],
);

/** A timestamp of 4, 8 or 12 bytes (`d6 ff`, `d7 ff`, `c7 0c ff`) anywhere in the bytes. */
function hasTimestamp(bytes: Uint8Array): boolean {
  for (let i = 0; i + 2 < bytes.length; i++) {
    const token = bytes[i];
    if (
      ((token === 0xd6 || token === 0xd7) && bytes[i + 1] === 0xff) ||
      (token === 0xc7 && bytes[i + 1] === 0x0c && bytes[i + 2] === 0xff)
    ) {
      return true;
    }
  }
  return false;
}

/** An ext "B" with an empty payload (`c7 00 42`, `c8 00 00 42`, `c9 00 00 00 00 42`). */
function hasEmptyBigInt(bytes: Uint8Array): boolean {
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return /^(..)*?(c70042|c8000042|c90000000042)/.test(hex);
}

/** A 12-byte timestamp (`c7 0c ff`) whose nanoseconds field has its top bit set. */
function hasSignedNanoseconds(bytes: Uint8Array): boolean {
  for (let i = 0; i + 3 < bytes.length; i++) {
    if (
      bytes[i] === 0xc7 && bytes[i + 1] === 0x0c && bytes[i + 2] === 0xff && bytes[i + 3] >= 0x80
    ) {
      return true;
    }
  }
  return false;
}

/** The rows. */
export const DIFFERENCES: readonly Difference[] = [
  {
    name: "leading BOM kept",
    sides: ["values differ"],
    why: "A string over 64 bytes (and a string bundle, which is one) that starts with U+FEFF: " +
      "msgpackr decodes it with a default TextDecoder, which drops the BOM (and then reads every " +
      "bundled string one unit off); we keep every character " +
      '(docs/wire-format.md, "Where we differ from msgpackr": a byte order mark at the start ' +
      "of a string is kept at every length). Recognized by msgpackr agreeing with us once its " +
      "TextDecoder keeps BOMs.",
    intended: true,
    example: { config: "plain", hex: "d946efbbbf" + "61".repeat(67) },
    matches: (input) => agree(input.ours, rerun(input, msgpackrJsKeepingBom)),
  },
  {
    name: "two-byte ids of shared structures given directly",
    sides: ["msgpackr fails", "values differ", "ours fails"],
    why: "An Unpackr given more than 32 shared structures directly (`structures`, not " +
      "`getStructures`) does not mark slots 32.. as two-byte in msgpackr, which then reads the " +
      "first byte of `60 00` as the integer 96 and misparses the rest; we read two-byte ids " +
      '(docs/wire-format.md, "Where we differ from msgpackr"). Recognized by msgpackr ' +
      "agreeing with us when it loads the same table through getStructures.",
    intended: true,
    example: { config: "direct", hex: "91640015" },
    matches: (input) => {
      const options = input.config.options() as { structures?: unknown[] };
      const table = options.structures;
      if (!Array.isArray(table) || table.length <= 32) return false;
      return sameOutcome(
        input.ours,
        rerun(input, msgpackrJsLikeUs, { getStructures: () => table }),
      );
    },
  },
  {
    name: "two-byte id of a slot beyond the shared table",
    sides: ["ours fails"],
    why: "With more than 32 shared structures, every byte 0x60..0x7f starts a two-byte id, also " +
      "for a slot 32..63 the table does not fill, so that own two-byte definitions resolve " +
      '(docs/wire-format.md, "Where we differ from msgpackr": empty slots 32..63 of a table ' +
      "of more than 32). msgpackr reads such a byte as a positive fixint, as an encoder " +
      "without records writes it; encoders with records write 64..127 as `cc XX`.",
    intended: true,
    example: { config: "loaded", hex: "917d" },
    matches: (input) => {
      const table = sharedStructuresOf(input);
      if (table === null || table.length <= 32) return false;
      const error = ourError(input, /^(Record id is not defined for \d+|Unexpected end)/);
      if (error === null) return false;
      const at = /^Unexpected end/.test(error.message) ? input.bytes.length - 1 : error.offset;
      const token = input.bytes[at];
      return token >= 0x60 && token < 0x80 && (token & 0x3f) >= table.length;
    },
  },
  {
    name: "12-byte timestamp nanoseconds of 2^31 and more",
    sides: ["values differ"],
    why: 'The nanoseconds of a 12-byte timestamp are a u32 (docs/wire-format.md, "Timestamps"); ' +
      "msgpackr shifts the top byte into the sign bit (`data[0] << 24`), so " +
      "nanoseconds of 2^31 and more count as negative, 4294.967296 ms earlier. Only payloads " +
      "with nanoseconds above 999,999,999, which the spec forbids and msgpackr never writes " +
      '(docs/wire-format.md, "Where we differ from msgpackr"). ' +
      "Recognized by msgpackr agreeing with us once its timestamp reads an unsigned u32 (and " +
      "the input has such a timestamp).",
    intended: true,
    example: { config: "plain", hex: "c70cffa1040000000007dba8218000" },
    matches: (input) =>
      hasSignedNanoseconds(input.bytes) &&
      sameOutcome(input.ours, rerun(input, msgpackrJsLikeUs)),
  },
  {
    name: "timestamp to the millisecond that holds it",
    sides: ["values differ"],
    why: "A timestamp whose instant is not a whole millisecond: msgpackr computes " +
      "`seconds * 1000 + ns / 1e6` in float64, which rounds up to the next millisecond near a " +
      "whole second and goes toward 1970 before it (-1 s + 999999999 ns is Date(0)); we give the " +
      'millisecond that holds the instant (docs/wire-format.md, "Timestamps"). msgpackr also ' +
      "reads 48 of the 64 bits of a 12-byte timestamp's seconds, so seconds beyond ±2^48 can " +
      "become a valid Date; for us they are outside a Date's range, an invalid Date. Recognized " +
      "by msgpackr agreeing with us once its timestamps decode as ours (and the input has one).",
    intended: true,
    example: { config: "plain", hex: "c70cff3b9ac9ffffffffffffffffff" },
    matches: (input) =>
      hasTimestamp(input.bytes) && sameOutcome(input.ours, rerun(input, msgpackrJsLikeUs)),
  },
  {
    name: "timestamp of another length than 4, 8, 12 or 1",
    sides: ["ours fails"],
    why: "A timestamp extension (type -1) of another payload length is no timestamp: msgpackr " +
      "returns an invalid Date for it (and waits for all of its bytes first); we refuse it at its " +
      "header with a DecodeError naming the length, before its payload is read or waited for, " +
      "as Go's and Python's msgpack refuse it " +
      '(docs/wire-format.md, "Timestamps"). The 1-byte form is msgpackr\'s invalid Date.',
    intended: true,
    example: { config: "plain", hex: "c705ff0000000000" },
    matches: (input) => {
      const error = ourError(input, /^Invalid timestamp extension length \d+/);
      return error !== null && extTypeAt(input.bytes, error.offset) === 0xff;
    },
  },
  {
    name: "Set, Error or RegExp tag not followed by an array",
    sides: ["ours fails"],
    why: "After the Set (`s`), Error (`e`) or RegExp (`x`) tag msgpackr takes whatever value " +
      "follows: a Set of a string's characters or a Map's entries, an Error or RegExp from the " +
      "indexes of a string or number; we require the array msgpackr writes " +
      '(docs/wire-format.md, "moreTypes codes").',
    intended: true,
    example: { config: "plain", hex: "d47300a3616263" },
    matches: (input) => {
      const error = ourError(input, /^(Set|Error|RegExp) extension must be followed by an array/);
      return error !== null && [0x73, 0x65, 0x78].includes(extTypeAt(input.bytes, error.offset));
    },
  },
  {
    name: "Error or RegExp field that is an object",
    sides: ["ours fails"],
    why: "An Error's name or message, or a RegExp's source or flags, that is an object: msgpackr " +
      "converts it with String(), which can run a hostile toString or take exponential time on " +
      'a graph of references; we reject it (docs/wire-format.md, "moreTypes codes": name and ' +
      "message must be strings or other primitives).",
    intended: true,
    example: { config: "plain", hex: "d4650092a14580" },
    matches: (input) => {
      const error = ourError(input, /^(Error|RegExp) extension \w+ must be a string/);
      return error !== null && [0x65, 0x78].includes(extTypeAt(input.bytes, error.offset));
    },
  },
  {
    name: "reference extension length other than 4",
    sides: ["ours fails"],
    why: "A structured-clone id (`i`, 0x69) or pointer (`p`, 0x70) extension whose payload is " +
      "not 4 bytes: msgpackr reads the id from the last 4 bytes before the end of the payload " +
      "(or before the header, for shorter ones) and goes on; we reject the malformed extension.",
    intended: true,
    example: { config: "plain", hex: "c705690000000001c0" },
    matches: (input) => {
      const error = ourError(input, /^Invalid reference (id|pointer) extension length \d+/);
      return error !== null && [0x69, 0x70].includes(extTypeAt(input.bytes, error.offset));
    },
  },
  {
    name: "bundle strings not right after the value",
    sides: ["ours fails"],
    why: "A string bundle (`b`, 0x62) whose offset points anywhere but to the end of the value " +
      "it wraps: msgpackr reads the strings there and then jumps past them, so the strings may " +
      "overlap the value or the jump may skip bytes; we require the strings to follow the value.",
    intended: true,
    example: { config: "plain", hex: "92d66200000008cbfaa175a95b44802defbfbf5d24a0" },
    matches: (input) =>
      ourError(input, /^String bundle does not start where the value ends/) !== null,
  },
  {
    name: "bundled string past the bundle's end, or of no integer length",
    sides: ["ours fails"],
    why: "A bundled string (`c1` + count) that reaches past the end of the bundle's string, or " +
      "whose count is not an integer: msgpackr returns what slice() makes of it (a shorter or " +
      "empty string) and its cursor goes wrong; we reject it " +
      '(docs/wire-format.md, "Reading bundles").',
    intended: true,
    example: { config: "plain", hex: "91d66200000006c144a0a4000000f6" },
    matches: (input) => {
      const error = ourError(input, /^Bundled string (out of range|length must be an integer)/);
      return error !== null && input.bytes[error.offset] === 0xc1;
    },
  },
  {
    name: "two-byte definition below 0x60",
    sides: ["ours fails"],
    why:
      "A two-byte record definition `d5 72 LO HI` with LO & 0x3f below 32: msgpackr stores the " +
      "structure at a negative slot (a path its encoder never takes) and reads on; we reject it " +
      '(docs/wire-format.md, "Where we differ from msgpackr", malformed input).',
    intended: true,
    example: { config: "plain", hex: "d572409090" },
    matches: (input) => {
      const error = ourError(input, /^Invalid two-byte record id 0x[0-9a-f]+/);
      return error !== null && input.bytes[error.offset] === 0xd5 &&
        input.bytes[error.offset + 1] === 0x72;
    },
  },
  {
    name: "empty bigint extension",
    sides: ["msgpackr fails"],
    why: 'An ext "B" (0x42) with an empty payload is 0n for us ' +
      '(docs/wire-format.md, "The bigint extension", and "Where we differ from msgpackr"); ' +
      "msgpackr reads the missing first byte as undefined and throws a TypeError from " +
      "BigInt(). msgpackr never writes it.",
    intended: true,
    example: { config: "plain", hex: "c70042" },
    matches: (input) =>
      !input.theirs.ok && input.theirs.error instanceof TypeError && hasEmptyBigInt(input.bytes),
  },
  {
    name: "record keys that are a bin or typed array",
    sides: ["ours fails"],
    why: "The keys of a record definition must be an array " +
      '(docs/wire-format.md, "Where we differ from msgpackr": record names that are not an ' +
      "array); msgpackr calls `.map` on " +
      "whatever follows, which a bin or typed array also has (keys become numbers, then " +
      "property names).",
    intended: true,
    example: { config: "plain", hex: "d47240c7017401" },
    matches: (input) => {
      const error = ourError(input, /^Record definition keys must be an array/);
      if (error === null) return false;
      const token = input.bytes[error.offset];
      return (token >= 0xc4 && token <= 0xc9) || (token >= 0xd4 && token <= 0xd8);
    },
  },
  {
    name: "a read past the input hidden by msgpackr's jump past the bundle strings",
    sides: ["ours fails"],
    why: "When a value that holds a string bundle ends, msgpackr sets its position to the end " +
      "of the bundle's strings whatever it read, so a string, bin or ext inside the value that " +
      "runs past the end of the input goes unnoticed (it is cut short); for us the value is " +
      'incomplete (docs/wire-format.md, "Reading bundles": the strings must start exactly ' +
      "where the value ends). Recognized by the counter of such jumps that the oracle's copy " +
      "of msgpackr keeps (fuzz/_msgpackr_js.ts, watchBundleJump).",
    intended: true,
    example: { config: "plain", hex: "92d66200000007c104baa0a4283f3a29" },
    matches: (input) =>
      !input.ours.ok && input.ours.error instanceof IncompleteDataError && hidesOverrun(input),
  },
  {
    name: "bundle strings inside the bundle's own header",
    sides: ["ours fails"],
    why: "A string bundle whose offset points before the end of the ext (offset 0..3 of its " +
      "4-byte payload): msgpackr reads the strings from the bundle's own header bytes and goes " +
      'on; we require the strings after the ext (docs/wire-format.md, "Reading bundles").',
    intended: true,
    example: { config: "sequential", hex: "d66200000000cb41f0000000000000" },
    matches: (input) => {
      const error = ourError(input, /^String bundle offset out of range/);
      return error !== null && input.bytes[error.offset - 1] === 0x62;
    },
  },
  {
    name: "bundle strings that are not str",
    sides: ["ours fails"],
    why: "A string bundle's two strings must be `str` values " +
      '(docs/wire-format.md, "Reading bundles"); msgpackr reads any byte below 0xc0 as a ' +
      "fixstr header, with a negative length for maps and arrays, and goes on.",
    intended: true,
    example: { config: "plain", hex: "92d66200000007c1fa5d24a0" },
    matches: (input) => {
      const error = ourError(input, /^Expected string/);
      return error !== null && input.bytes[error.offset] < 0xc0;
    },
  },
];

/**
 * Inputs on which msgpackr does not come back, documented here; the copy of msgpackr the oracle
 * runs has a guard that throws instead (fuzz/_msgpackr_js.ts), so both libraries fail and the
 * case is no mismatch.
 */
export const MSGPACKR_HAZARDS: readonly { name: string; why: string }[] = [
  {
    name: "two-byte id cut at the end of the input",
    why: "A byte 0x60..0x7f at the very end of the input whose slot holds a two-byte structure " +
      "(loaded through getStructures at a slot 32..63, or defined by `d5 72 LO 00`), as in `91 61` " +
      "with more than 33 loaded structures: msgpackr reads the missing high byte as undefined, " +
      "takes it for a reference to the same slot and calls the same reader again, one byte " +
      "further past the end each time, without end: a stack overflow on V8, an endless loop " +
      "on JavaScriptCore (Bun), which eliminates the tail call. We report the value as " +
      "incomplete (one more byte needed).",
  },
];

/**
 * The name of the row that explains `mismatch` for `input`, or null. Rows are tried in order; a
 * row only explains the sides it lists.
 */
export function explainDifference(input: DifferentialCase, mismatch: Mismatch): string | null {
  for (const row of DIFFERENCES) {
    if (row.sides.includes(mismatch.kind) && row.matches(input)) return row.name;
  }
  return null;
}
