// Copyright 2026 the @x/msgpackr authors. MIT license.
// The differential oracle: hostile bytes decoded by our Unpackr and by msgpackr's, with the same
// options. Inputs are mutations of valid msgpackr encodings (records, sequential streams, string
// bundles, structured clone, moreTypes, shared structures with two-byte ids, timestamps, bigints).
// Where both decode, the values must be equal; where one fails and the other does not, or the
// values differ, the case must be one that fuzz/_differences.ts lists as an intended difference,
// or it is a failure (printed with the hex bytes and the configuration, to replay).
//
// msgpackr's side is its pure-JavaScript build with module state of its own (fuzz/_msgpackr_js.ts),
// so the oracle does not depend on whether msgpackr's native addon loads. Each case builds fresh
// decoders on both sides from fresh options (msgpackr writes into the options it is given and
// into a `structures` array), each side with its own copy of any shared structures.

import * as msgpackr from "msgpackr";
import { Unpackr, type UnpackrOptions } from "../mod.ts";
import { concatBytes } from "../_core/bytes.ts";
import { globalExtensions } from "../_core/extensions.ts";
import {
  applyMutation,
  crossLibraryPrototypeOf,
  type DiffOptions,
  mulberry32,
  randomMutation,
  toHex,
  valuesDiffer,
} from "./_fuzz.ts";
import { msgpackrC1s, msgpackrJs } from "./_msgpackr_js.ts";
import { shapedValue, shapePool } from "./_shaped.ts";
import { explainDifference } from "./_differences.ts";

/** How one input is decoded on both sides. */
export interface DifferentialConfig {
  readonly name: string;
  /** Fresh decoder options (called once per side and case). */
  options(): UnpackrOptions;
  /** Decode with `unpackMultiple` (a sequence of values) instead of `unpack`. */
  readonly multiple: boolean;
}

/** One decode: the value, or what was thrown. */
export type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** What a differential case found, before the table of differences is consulted. */
export interface Mismatch {
  kind: "ours fails" | "msgpackr fails" | "values differ";
  detail: string;
}

/** Everything the table of differences may look at. */
export interface DifferentialCase {
  readonly bytes: Uint8Array;
  readonly config: DifferentialConfig;
  readonly ours: Outcome;
  readonly theirs: Outcome;
}

/** The result of a case no row of the table explains. */
export interface DifferentialFailure {
  config: string;
  kind: Mismatch["kind"];
  /** Stable text (numbers removed) to tell distinct failures apart. */
  signature: string;
  /** What differs, the configuration and the bytes in hex, for a report. */
  detail: string;
}

/** Options for msgpackr, typed as its declarations want them. */
function theirOptions(options: UnpackrOptions): msgpackr.Options {
  return options as unknown as msgpackr.Options;
}

/** Decodes `bytes` with our Unpackr. */
export function decodeOurs(bytes: Uint8Array, config: DifferentialConfig): Outcome {
  try {
    const unpackr = new Unpackr(config.options());
    return {
      ok: true,
      value: config.multiple ? unpackr.unpackMultiple(bytes) : unpackr.unpack(bytes),
    };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Decodes `bytes` with msgpackr's Unpackr (its JavaScript build). */
export function decodeTheirs(bytes: Uint8Array, config: DifferentialConfig): Outcome {
  try {
    const unpackr = new msgpackrJs.Unpackr(theirOptions(config.options()));
    return {
      ok: true,
      value: config.multiple ? unpackr.unpackMultiple(bytes) : unpackr.unpack(bytes),
    };
  } catch (error) {
    return { ok: false, error };
  } finally {
    msgpackrJs.clearSource();
  }
}

/** Compares msgpackr's values with ours: Buffers as Uint8Arrays, msgpackr's C1 as ours. */
export const prototypeOf: (value: object) => object | null = crossLibraryPrototypeOf(msgpackrC1s);

/**
 * Where two values decoded from the same bytes differ, or null. `sameErrorText` relaxes the
 * comparison of Errors' name and message (for a row of the table of differences).
 */
export function decodedDiffer(
  ours: unknown,
  theirs: unknown,
  sameErrorText?: DiffOptions["sameErrorText"],
): string | null {
  return valuesDiffer(ours, theirs, {
    identity: true,
    prototypeOf,
    ...(sameErrorText ? { sameErrorText } : {}),
  });
}

/** How the two outcomes disagree, or null when they agree (both fail, or equal values). */
export function mismatchOf(ours: Outcome, theirs: Outcome): Mismatch | null {
  if (!ours.ok && !theirs.ok) return null;
  if (!ours.ok) return { kind: "ours fails", detail: `ours: ${describeError(ours.error)}` };
  if (!theirs.ok) {
    return { kind: "msgpackr fails", detail: `msgpackr: ${describeError(theirs.error)}` };
  }
  const difference = decodedDiffer(ours.value, theirs.value);
  return difference === null ? null : { kind: "values differ", detail: difference };
}

/** An error as `Class: message` (the message cut). */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return `threw ${typeof error} ${String(error).slice(0, 100)}`;
  return `${error.constructor.name}: ${error.message.slice(0, 200)}`;
}

/**
 * Decodes `bytes` on both sides and returns the failure no row of fuzz/_differences.ts explains,
 * or null. `explained` (optional) counts the rows that explained a mismatch.
 */
export function checkDifferential(
  bytes: Uint8Array,
  config: DifferentialConfig,
  explained?: Map<string, number>,
): DifferentialFailure | null {
  if (usesGlobalExtension(bytes)) {
    explained?.set(NOT_COMPARED, (explained.get(NOT_COMPARED) ?? 0) + 1);
    return null;
  }
  const ours = decodeOurs(bytes, config);
  const theirs = decodeTheirs(bytes, config);
  const mismatch = mismatchOf(ours, theirs);
  if (mismatch === null) return null;
  const input: DifferentialCase = { bytes, config, ours, theirs };
  const row = explainDifference(input, mismatch);
  if (row !== null) {
    explained?.set(row, (explained.get(row) ?? 0) + 1);
    return null;
  }
  const other = mismatch.kind === "ours fails"
    ? theirs.ok ? "msgpackr decodes it" : ""
    : mismatch.kind === "msgpackr fails"
    ? "we decode it"
    : "";
  return {
    config: config.name,
    kind: mismatch.kind,
    signature: `differential ${mismatch.kind}: ${
      mismatch.detail.replace(/\d+/g, "N").replace(/".*?"/g, "S").slice(0, 120)
    }`,
    detail: `${config.name}: ${mismatch.kind}${other ? ` (${other})` : ""}: ${mismatch.detail}\n` +
      `  hex: ${toHex(bytes)}`,
  };
}

/** What `checkDifferential` counts in `explained` for inputs it does not compare. */
export const NOT_COMPARED = "not compared: an extension type registered with addExtension";

/**
 * Whether `bytes` hold an ext header (any form) of a type that our exported `addExtension`
 * registered: every Unpackr of ours decodes it, msgpackr's copy does not know it. Tests that run
 * in the same process (Bun runs every test file in one) register some; such inputs are skipped.
 */
function usesGlobalExtension(bytes: Uint8Array): boolean {
  const decoders = globalExtensions.decoders();
  if (!decoders.some((extension) => extension !== undefined)) return false;
  for (let i = 0; i < bytes.length; i++) {
    const token = bytes[i];
    const at = token >= 0xd4 && token <= 0xd8
      ? i + 1
      : token === 0xc7
      ? i + 2
      : token === 0xc8
      ? i + 3
      : token === 0xc9
      ? i + 5
      : -1;
    if (at >= 0 && at < bytes.length && decoders[bytes[at]] !== undefined) return true;
  }
  return false;
}

// ---- configurations and seeds -----------------------------------------------------------------

/** Shared structures both sides know: 40, so slots 32..39 take two-byte ids. */
export function sharedTable(): string[][] {
  return shapePool(mulberry32(0x7ab1e), 40);
}

const copyTable = (table: readonly (readonly string[])[]): string[][] =>
  table.map((keys) => [...keys]);

const SHARED = sharedTable();

/** The decoder configurations of the differential cases. */
export const DIFFERENTIAL_CONFIGS: Record<string, DifferentialConfig> = {
  plain: { name: "Unpackr()", options: () => ({}), multiple: false },
  objects: {
    name: "Unpackr({mapsAsObjects})",
    options: () => ({ mapsAsObjects: true }),
    multiple: false,
  },
  sequential: {
    name: "Unpackr({sequential}).unpackMultiple",
    options: () => ({ sequential: true }),
    multiple: true,
  },
  loaded: {
    name: "Unpackr({getStructures: 40 shared})",
    options: () => ({ getStructures: () => copyTable(SHARED) }),
    multiple: false,
  },
  direct: {
    name: "Unpackr({structures: 40 shared})",
    options: () => ({ structures: copyTable(SHARED) }),
    multiple: false,
  },
  auto: {
    name: "Unpackr({int64AsType: auto})",
    options: () => ({ int64AsType: "auto" }),
    multiple: false,
  },
};

/** A seed kind: how a valid encoding is made, and the configuration that decodes it. */
interface SeedKind {
  name: string;
  encode(random: () => number): Uint8Array;
  configs: readonly DifferentialConfig[];
}

const POOL = shapePool(mulberry32(0x5eed5), 12);

function value(random: () => number, moreTypes: boolean, references: boolean, c1: boolean) {
  return shapedValue(random, {
    shapes: POOL,
    moreTypes,
    references,
    c1: c1 ? msgpackr.C1 : null,
    bom: true,
    maxDepth: 2,
  });
}

/** Kinds of valid msgpackr encodings that are mutated into differential inputs. */
export const SEED_KINDS: readonly SeedKind[] = [
  {
    name: "records",
    encode: (random) => new msgpackr.Packr().pack(value(random, false, false, true)),
    configs: [DIFFERENTIAL_CONFIGS.plain, DIFFERENTIAL_CONFIGS.objects],
  },
  {
    name: "sequential messages",
    encode: (random) => {
      const packr = new msgpackr.Packr({ sequential: true });
      const parts = Array.from(
        { length: 1 + Math.floor(random() * 4) },
        () => packr.pack(value(random, false, false, true)),
      );
      return concatBytes(parts);
    },
    configs: [DIFFERENTIAL_CONFIGS.sequential],
  },
  {
    name: "bundleStrings",
    encode: (random) =>
      new msgpackr.Packr({ bundleStrings: true }).pack(value(random, false, false, false)),
    configs: [DIFFERENTIAL_CONFIGS.plain],
  },
  {
    name: "structuredClone",
    encode: (random) =>
      new msgpackr.Packr({ structuredClone: true }).pack(value(random, true, true, true)),
    configs: [DIFFERENTIAL_CONFIGS.plain],
  },
  {
    name: "moreTypes",
    encode: (random) =>
      new msgpackr.Packr({ moreTypes: true }).pack(value(random, true, false, true)),
    configs: [DIFFERENTIAL_CONFIGS.plain, DIFFERENTIAL_CONFIGS.auto],
  },
  {
    name: "shared structures",
    encode: (random) =>
      new msgpackr.Packr({ structures: copyTable(SHARED), maxSharedStructures: 40 }).pack(
        Array.from({ length: 1 + Math.floor(random() * 5) }, () => {
          const keys = SHARED[Math.floor(random() * SHARED.length)];
          return Object.fromEntries(keys.map((key) => [key, value(random, false, false, true)]));
        }),
      ),
    configs: [DIFFERENTIAL_CONFIGS.loaded, DIFFERENTIAL_CONFIGS.direct],
  },
  {
    name: "timestamps and bigints",
    encode: (random) => {
      const items = Array.from({ length: 1 + Math.floor(random() * 6) }, () => {
        const r = random();
        if (r < 0.4) {
          return new Date(Math.floor((random() - 0.3) * 2 ** 45) * (random() < 0.5 ? 1000 : 1));
        }
        if (r < 0.5) return new Date(NaN);
        if (r < 0.8) return BigInt.asIntN(64, BigInt(Math.floor(random() * 2 ** 53)) << 11n);
        return (BigInt(Math.floor(random() * 2 ** 53)) << BigInt(Math.floor(random() * 200))) *
          (random() < 0.5 ? -1n : 1n);
      });
      return new msgpackr.Packr({ moreTypes: true, useTimestamp32: random() < 0.3 }).pack(items);
    },
    configs: [DIFFERENTIAL_CONFIGS.plain, DIFFERENTIAL_CONFIGS.auto],
  },
];

/** Longest input tried: msgpackr has fewer limits than we do, so inputs stay small. */
export const MAX_DIFFERENTIAL_BYTES = 4096;

/** One random differential input: a mutated seed and its configuration. */
export interface DifferentialInput {
  seed: string;
  bytes: Uint8Array;
  config: DifferentialConfig;
}

/** A random differential input (0 to 4 mutations of a random valid encoding). */
export function randomDifferentialInput(random: () => number): DifferentialInput {
  const kind = SEED_KINDS[Math.floor(random() * SEED_KINDS.length)];
  let bytes: Uint8Array = new Uint8Array(kind.encode(random));
  const mutations = Math.floor(random() * 5);
  for (let i = 0; i < mutations; i++) bytes = applyMutation(bytes, randomMutation(random));
  if (bytes.length > MAX_DIFFERENTIAL_BYTES) bytes = bytes.slice(0, MAX_DIFFERENTIAL_BYTES);
  const config = kind.configs[Math.floor(random() * kind.configs.length)];
  return { seed: kind.name, bytes, config };
}
