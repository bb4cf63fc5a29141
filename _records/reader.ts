// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Readers for records (docs/wire-format.md, "Records"; how readers are chosen and compiled:
// docs/architecture.md). Every record type starts on the interpreted reader, a loop of stores.
// A shape read often earns a faster builder from the one source its build installs: the default
// build installs a compiler (`_records/compiler.ts`) that turns the shape into a reader returning
// an object literal; the no-eval build installs the pool of written-out builders
// (`_records/builder_pool.ts`). This module never builds code itself and never imports either,
// so each build ships only its own source, and the no-eval build contains no code generation.

import { plainRoot } from "./plain_root.ts";
import {
  COMPILE_AFTER_READS,
  MAX_COMPILES_PER_DECODE,
  POOL_AFTER_READS,
} from "../_core/thresholds.ts";

/** Builds one object of a shape, reading its values with the shape's value reader. */
export type ObjectBuilder = () => Record<string, unknown>;

/**
 * The no-eval build's pool of builders, as `_records/builder_pool.ts` installs it: `lend` a
 * shape's builder (or `null`: none left now) until the pool is renewed, which calls `release`;
 * `generation` changes at each renewal; `renewIfDue` runs between top-level decodes.
 */
export interface BuilderPool {
  lend(names: readonly string[], read: () => unknown, release: () => void): ObjectBuilder | null;
  generation(): number;
  renewIfDue(): void;
}

/** Reads the field values of one record at the decoder's position and returns the object. */
export type RecordBodyReader = () => object;

/**
 * Builds a specialised reader for one shape. Receives the property names (already renamed for
 * safety), the value reader (the decoder's `read` for records, the value stack's for plain maps)
 * and whether to freeze the result. Returns `null` when it will not compile the shape now (no
 * allowance left in this decode), or ever (a shape too large). May throw (for example under a
 * Content-Security-Policy); the caller then stays on the interpreted reader for good.
 */
export type RecordReaderCompiler = (
  propertyNames: readonly string[],
  read: () => unknown,
  freeze: boolean,
) => RecordBodyReader | null;

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
  /** Reads one record body; replaced by a compiled reader after a few reads. */
  read: RecordBodyReader;
}

// MAX_COMPILES_PER_DECODE: compiling a shape costs far more than reading a record, so without a
// cap a crafted message with thousands of distinct shapes could spend seconds in the compiler;
// shapes beyond the cap stay interpreted and may compile in a later decode. Each decode has its
// own allowance, so what one decode spends never keeps another's shapes from compiling.

let compiler: RecordReaderCompiler | null = null;
let pool: BuilderPool | null = null;
let compilesLeft = MAX_COMPILES_PER_DECODE;

/** Gives the next top-level decode its compile allowance. */
export function resetCompileAllowance(): void {
  compilesLeft = MAX_COMPILES_PER_DECODE;
}

/** Takes one compile from this decode's allowance (for the compiler, before compiling). */
export function takeCompileAllowance(): boolean {
  if (compilesLeft <= 0) return false;
  compilesLeft--;
  return true;
}

/** Installs the code-generating record reader compiler (default build only). */
export function installRecordReaderCompiler(recordReaderCompiler: RecordReaderCompiler): void {
  compiler = recordReaderCompiler;
}

/** Installs the pool of written-out builders (no-eval build only). */
export function installBuilderPool(builderPool: BuilderPool): void {
  pool = builderPool;
}

/** Renews the pool when it is due (see `_records/builder_pool.ts`); before a top-level decode. */
export function renewPoolIfDue(): void {
  if (pool !== null) pool.renewIfDue();
}

/** A shape's pooled builder, lent until `release`; `null` without a pool or when none is left. */
function lend(
  names: readonly string[],
  read: () => unknown,
  release: () => void,
): ObjectBuilder | null {
  return pool !== null ? pool.lend(names, read, release) : null;
}

/** The pool's generation (0 without a pool): a type the pool refused asks again once it changes. */
function poolGeneration(): number {
  return pool !== null ? pool.generation() : 0;
}

/**
 * Property names for a structure's keys: `__proto__` becomes `__proto_` (msgpackr's documented
 * rule; docs/wire-format.md, "__proto__"), so a record can never replace an object's prototype.
 */
function toPropertyNames(keys: readonly string[]): string[] {
  return keys.map((key) => key === "__proto__" ? "__proto_" : key);
}

/**
 * Builds with a plain loop: for shapes the pool has no builder for. Its objects start from a root
 * of their own (`_records/plain_root.ts` says why).
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

/**
 * Builds objects of one shape without code generation, reading each value with `read` (for
 * bench/object_building.ts and tests): the shape's builder from the pool where the no-eval build
 * installed it (`_records/builder_pool.ts`; see `_records/builders.ts` why that is much faster than
 * a loop), shared with every other holder of the same shape and `read`, else the loop. A pooled
 * builder is lent until the pool is renewed (only ever between top-level decodes), which calls
 * `release`.
 */
export function createObjectBuilder(
  names: readonly string[],
  read: () => unknown,
  release: () => void = () => {},
): ObjectBuilder {
  if (names.length === 0) return () => ({});
  return lend(names, read, release) ?? loopBuilder(names, read);
}

/**
 * A builder for plain maps of one key sequence (`_records/map_shapes.ts`), reading the values
 * with `read`: compiled when `compile` (the decoder's `compileRecordReaders`) and a compiler is
 * installed and allowed, else the shape's pooled builder, lent until the pool calls `release`.
 * `null`: not now (this decode's compile allowance is spent, or the pool is; ask again later).
 */
export function createShapeBuilder(
  names: readonly string[],
  read: () => unknown,
  compile: boolean,
  release: () => void,
): ObjectBuilder | null {
  if (compile && compiler !== null) {
    const compiled = tryCompile(names, read, false) as ObjectBuilder | null;
    if (compiled !== null || compiler !== null) return compiled;
  }
  return lend(names, read, release);
}

/** A reader returning what `build` builds, frozen when the decoder freezes its data. */
function asReader(build: ObjectBuilder, freeze: boolean): RecordBodyReader {
  return freeze ? () => Object.freeze(build()) : build;
}

/** Options of {@linkcode createRecordType}. */
export interface RecordTypeOptions {
  twoByte: boolean;
  shared: boolean;
  freeze: boolean;
  /** This decoder allows compiled readers (`compileRecordReaders` option). */
  compile: boolean;
}

/**
 * Creates the record type for `keys`. Its reader is interpreted: a plain loop for the first read,
 * then (from the `POOL_AFTER_READS`th read) the shape's own pooled builder where the pool is
 * installed, so a type read only once (a shape redefined in every message) never pays for finding
 * one. When a compiler is installed and allowed, a shape read `COMPILE_AFTER_READS` times gets a
 * compiled reader instead; if compiling throws, compilation is switched off for the whole process
 * and the shape carries on interpreted. A pooled builder is lent (`_records/builder_pool.ts`):
 * when the pool takes it back the type reads with the loop and earns one again; a type the pool
 * refused reads with the loop and asks again once the pool was renewed.
 */
export function createRecordType(
  keys: readonly string[] | null,
  read: () => unknown,
  options: RecordTypeOptions,
): RecordType {
  const names = keys === null ? [] : toPropertyNames(keys);
  const freeze = options.freeze;
  const loop = asReader(loopBuilder(names, read), freeze);
  /** What the type reads with until it is compiled: the loop, or its lent pooled builder. */
  let interpreted = loop;
  const type: RecordType = {
    keys,
    size: names.length,
    twoByte: options.twoByte,
    shared: options.shared,
    read: loop,
  };
  const compile = options.compile && compiler !== null;
  let compiled = false;
  /** The pool's generation when it last refused this type a builder (-1: never). */
  let refusedIn = -1;
  // the pool takes its builder back (between top-level decodes): the loop again, and earn anew
  const release = () => {
    interpreted = loop;
    if (!compiled) type.read = earn;
  };
  /** Whether `interpreted` is the shape's pooled builder, borrowing it if the pool lends it now. */
  const usePool = (): boolean => {
    if (interpreted !== loop || names.length === 0) return true; // an empty shape needs none
    if (refusedIn === poolGeneration()) return false;
    const build = lend(names, read, release);
    if (build === null) {
      refusedIn = poolGeneration();
      return false;
    }
    interpreted = asReader(build, freeze);
    return true;
  };
  // refused by the pool: the loop, until the pool is renewed (a test on this slow path only)
  const waitForPool = (): object => {
    if (refusedIn !== poolGeneration()) type.read = earn;
    return loop();
  };
  let reads = 0;
  let nextCompile = COMPILE_AFTER_READS;
  const earn = (): object => {
    reads++;
    if (!compile) {
      if (reads >= POOL_AFTER_READS) type.read = usePool() ? interpreted : waitForPool;
    } else if (reads > nextCompile) {
      const faster = tryCompile(names, read, freeze);
      if (faster !== null) {
        compiled = true;
        type.read = faster;
      } else {
        const pooled = usePool();
        // generation is forbidden: the interpreted reader for good
        if (compiler === null) type.read = pooled ? interpreted : waitForPool;
        else nextCompile *= 4; // no compile allowed now: try again much later
      }
    }
    return interpreted();
  };
  type.read = earn;
  return type;
}

/**
 * A compiled reader, or `null`: not now (no allowance left in this decode) or never (compiling
 * threw, and `compiler` is now `null` for the rest of the process).
 */
function tryCompile(
  names: readonly string[],
  read: () => unknown,
  freeze: boolean,
): RecordBodyReader | null {
  if (compiler === null) return null;
  try {
    return compiler(names, read, freeze);
  } catch {
    // code generation is forbidden here (CSP, Trusted Types, a worker runtime): stop trying
    compiler = null;
    return null;
  }
}
