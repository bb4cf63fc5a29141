// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The builders of the objects of records and of plain maps (docs/wire-format.md, "Records"; how
// builders are chosen and compiled: docs/architecture.md), one provider for both. A record type
// or a map shape (`_records/map_shapes.ts`) starts on a loop of stores; used often, it earns a
// faster builder from the one source its build installs in `builderSources`: the default build
// installs a compiler (`_records/compiler.ts`) that turns the shape into a function returning an
// object literal; the no-eval build installs the pool of written-out builders
// (`_records/builder_pool.ts`). This module never builds code itself and never imports either,
// so each build ships only its own source, and the no-eval build contains no code generation.
// It keeps no state of a decode: the compile allowance is the decoder's (`CompileAllowance`).

import { plainRoot } from "./plain_root.ts";
import { USES_BEFORE_BUILDER } from "../_core/thresholds.ts";

/** Builds one object of a shape, reading its values with the shape's value reader. */
export type ObjectBuilder = () => Record<string, unknown>;

/** Compiles left in the decode in progress (`MAX_COMPILES_PER_DECODE` a decode). */
export interface CompileAllowance {
  compilesLeft: number;
}

/**
 * Builds a compiled builder for one shape: from the property names (already renamed for safety),
 * the value reader (the decoder's `read` for records, the value stack's for plain maps) and
 * whether to freeze the result. Takes a compile from `allowance` when it compiles (not for a
 * cached builder); `null`: not now (none left), or never (a shape too large). May throw (under a
 * Content-Security-Policy, say); the provider then drops it for good.
 */
export type RecordReaderCompiler = (
  propertyNames: readonly string[],
  read: () => unknown,
  freeze: boolean,
  allowance: CompileAllowance,
) => ObjectBuilder | null;

/**
 * The no-eval build's pool, as `_records/builder_pool.ts` installs it: `lend` a shape's builder
 * (or `null`: none left now) until the pool is renewed, which calls `release`; `renewIfDue`
 * runs before each top-level decode.
 */
export interface BuilderPool {
  lend(names: readonly string[], read: () => unknown, release: () => void): ObjectBuilder | null;
  renewIfDue(): void;
}

/** Where faster builders come from: what the build installs (process-wide). */
export const builderSources: {
  /** Set by `_records/compiler.ts`; `null` again for good once code generation threw. */
  compile: RecordReaderCompiler | null;
  /** Set by `_records/builder_pool.ts`. */
  pool: BuilderPool | null;
} = { compile: null, pool: null };

/** A record structure as one decoder knows it. */
export interface RecordType {
  /** Property names as sent (null for a slot that only dispatches two-byte ids). */
  readonly keys: readonly string[] | null;
  /** Number of field values a record of this type holds. */
  readonly size: number;
  /**
   * The id's first byte is followed by a high byte (slots 32..63 in two-byte mode;
   * docs/wire-format.md, "Two-byte ids").
   */
  readonly twoByte: boolean;
  /** Cached from a shared structure (dropped when the shared table changes), not defined inline. */
  readonly shared: boolean;
  /** Reads one record body: its earning builder, then the faster one it earned. */
  read: ObjectBuilder;
}

/**
 * Property names for a structure's keys: `__proto__` becomes `__proto_` (msgpackr's documented
 * rule; docs/wire-format.md, "__proto__"), so a record can never replace an object's prototype.
 */
function toPropertyNames(keys: readonly string[]): string[] {
  return keys.map((key) => key === "__proto__" ? "__proto_" : key);
}

/**
 * Builds with a plain loop, until a faster builder is earned. Its objects start from a root of
 * their own (`_records/plain_root.ts` says why).
 */
function loopBuilder(names: readonly string[], read: () => unknown): ObjectBuilder {
  const count = names.length;
  const root = plainRoot();
  return () => {
    const object = new root();
    for (let i = 0; i < count; i++) object[names[i]] = read();
    return object;
  };
}

/** `build`, or a builder freezing what it builds. */
function frozenIf(freeze: boolean, build: ObjectBuilder): ObjectBuilder {
  return freeze ? () => Object.freeze(build()) : build;
}

/**
 * Builds objects of one shape without code generation, reading each value with `read` (for
 * bench/object_building.ts and tests): the shape's builder from the pool where the no-eval build
 * installed it (see `_records/builders.ts` why that is much faster than a loop), shared with
 * every other holder of the same shape and `read` and lent until `release`, else the loop.
 */
export function createObjectBuilder(
  names: readonly string[],
  read: () => unknown,
  release: () => void = () => {},
): ObjectBuilder {
  if (names.length === 0) return () => ({});
  return builderSources.pool?.lend(names, read, release) ?? loopBuilder(names, read);
}

/**
 * A faster builder than the loop: compiled where `allowance` is given (the decoder compiles) and
 * a compiler is installed, else the shape's pooled builder, lent until the pool calls `release`.
 * `null`: none now.
 */
function fasterBuilder(
  names: readonly string[],
  read: () => unknown,
  freeze: boolean,
  allowance: CompileAllowance | null,
  release: () => void,
): ObjectBuilder | null {
  const compile = builderSources.compile;
  if (allowance !== null && compile !== null) {
    try {
      return compile(names, read, freeze, allowance);
    } catch {
      // code generation is forbidden here (CSP, Trusted Types, a worker runtime): stop trying
      builderSources.compile = null;
    }
  }
  const pooled = names.length > 0 ? builderSources.pool?.lend(names, read, release) : null;
  return pooled == null ? null : frozenIf(freeze, pooled);
}

/**
 * The builder a record type or a map shape starts with, and the one promotion rule: it builds
 * with the loop, and its call after `USES_BEFORE_BUILDER` calls asks for a faster builder, which
 * it passes to `install` (the holder calls that one directly from then on) and builds with. A
 * refusal (no compile left in this decode, the pool spent) asks again after four times as many
 * calls as it last waited. When the pool takes a lent builder back (only between top-level
 * decodes), the holder gets this builder again and earns anew. `allowance` is asked when the call
 * is due: the decode's compile allowance, or null where the decoding instance does not compile.
 */
export function earningBuilder(
  names: readonly string[],
  read: () => unknown,
  freeze: boolean,
  allowance: () => CompileAllowance | null,
  install: (build: ObjectBuilder) => void,
): ObjectBuilder {
  const loop = frozenIf(freeze, loopBuilder(names, read));
  let wait = USES_BEFORE_BUILDER;
  let left = wait;
  const release = () => {
    left = wait = USES_BEFORE_BUILDER;
    install(earn);
  };
  const earn = (): Record<string, unknown> => {
    if (left-- > 0) return loop();
    const faster = fasterBuilder(names, read, freeze, allowance(), release);
    if (faster === null) {
      left = wait *= 4;
      return loop();
    }
    install(faster);
    return faster();
  };
  return earn;
}

/** Options of {@linkcode createRecordType}. */
export interface RecordTypeOptions {
  twoByte: boolean;
  shared: boolean;
  freeze: boolean;
  /** The decode's compile allowance when the type's builder is due (see `earningBuilder`). */
  allowance: () => CompileAllowance | null;
}

/** Creates the record type for `keys`, reading its values with `read`. */
export function createRecordType(
  keys: readonly string[] | null,
  read: () => unknown,
  options: RecordTypeOptions,
): RecordType {
  const names = keys === null ? [] : toPropertyNames(keys);
  const { twoByte, shared, freeze } = options;
  const type: RecordType = { keys, size: names.length, twoByte, shared, read: null! };
  type.read = earningBuilder(names, read, freeze, options.allowance, (build) => type.read = build);
  return type;
}
