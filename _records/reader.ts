// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { plans, RECORD_BUILDERS, STORE_CHUNKS, STORES_PER_CHUNK } from "./builders.ts";

// Readers for records (docs/wire-format.md, "Records"; how readers are chosen and compiled:
// docs/architecture.md). Every record type starts on the interpreted reader, which builds objects
// with store code that no other shape uses (`_records/builders.ts`). The default build installs a
// compiler (`_records/compiler.ts`) that turns a shape read often into a reader returning an
// object literal; this module never builds code itself, so the no-eval build, which does not
// install a compiler, contains no code generation at all.

/** Reads the field values of one record at the decoder's position and returns the object. */
export type RecordBodyReader = () => object;

/**
 * Builds a specialised reader for one shape. Receives the property names (already renamed for
 * safety), the value reader (the decoder's `read` for records, the value stack's for plain maps)
 * and whether to freeze the result. Returns `null` when it will not compile the shape now (no
 * allowance left in this decode, or too many shapes). May throw (for example under a
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

/** Reads before a shape is compiled: the defining read plus two more, as msgpackr. */
const COMPILE_AFTER_READS = 3;
/** Reads of a type (without a compiler) from which it uses its shape's pooled builder. */
const POOL_AFTER_READS = 2;
/**
 * Most shapes compiled during one top-level decode. Compiling a shape costs far more than
 * reading a record, so without a cap a crafted message with thousands of distinct shapes could
 * spend seconds in the compiler; shapes beyond the cap stay interpreted and may compile in a later
 * decode.
 */
const MAX_COMPILES_PER_DECODE = 32;

let compiler: RecordReaderCompiler | null = null;
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

/**
 * Property names for a structure's keys: `__proto__` becomes `__proto_` (msgpackr's documented
 * rule; docs/wire-format.md, "__proto__"), so a record can never replace an object's prototype.
 */
function toPropertyNames(keys: readonly string[]): string[] {
  return keys.map((key) => key === "__proto__" ? "__proto_" : key);
}

/**
 * Builders handed out so far, by value reader (the decoder's `read` for records, the map value
 * stack's for plain maps) and shape (`JSON.stringify` of the property names): every record type
 * of a shape, in any decoder, uses the same builder, so its caches keep seeing one shape.
 * Bounded by the pools: once they are spent, new shapes use the loop and are not kept.
 */
const buildersByShape = new Map<() => unknown, Map<string, () => Record<string, unknown>>>();
let pooledShapes = 0;
let nextFreeBuilder = 0;
let nextFreeChunk = 0;

/** Shapes that have a builder of their own (for tests: the pools are spent at 64). */
export function pooledShapeCount(): number {
  return pooledShapes;
}

/**
 * The engine's own copy of a property name, for the names a pooled builder stores (made once per
 * builder: internalizing a name costs more than a store). Names decoded from an inline definition
 * are fresh strings; a keyed store with one makes V8 look it up in its table of property names on
 * every store, while the string an object's key list hands back is that table's entry. This
 * speeds V8 up on shapes first met inline; JavaScriptCore neither gains nor loses.
 */
function internalized(name: string): string {
  return Object.keys({ [name]: 0 })[0];
}

/**
 * Most properties of a shape whose pooled builder starts its objects from `{}`; larger shapes start
 * from a copy of a template that has every property. V8 turns an object that gains 20 or so
 * properties by keyed stores into a slow dictionary (16 leaves a margin), while a copy of a
 * template made by JSON.parse has them all at once, in the object itself, as a literal would.
 * Smaller shapes start from `{}`, because there the copy costs more than the stores that grow the
 * object (on JavaScriptCore it is a call into the runtime).
 * Chosen by measurement: deno run -A bench/object_building.ts / bun bench/object_building.ts.
 */
export const MOST_PROPERTIES_WITHOUT_TEMPLATE = 16;

/** Builds with a plain loop: for shapes that came after the pools ran out. */
function loopBuilder(names: readonly string[], read: () => unknown): () => Record<string, unknown> {
  const count = names.length;
  return () => {
    const object: Record<string, unknown> = {};
    for (let i = 0; i < count; i++) object[names[i]] = read();
    return object;
  };
}

/**
 * Builds objects of one shape without code generation, reading each value with `read`: the core of
 * the interpreted reader (exported for bench/object_building.ts). The shape gets its own builder
 * from the pool of `_records/builders.ts` (see there why that is much faster than a loop), shared
 * with every later reader of the same shape (all readers of a decoder pass the same `read`; a shape
 * met again with another `read` gets the loop).
 */
export function createObjectBuilder(
  names: readonly string[],
  read: () => unknown,
): () => Record<string, unknown> {
  if (names.length === 0) return () => ({});
  return pooledBuilder(names, read) ?? loopBuilder(names, read);
}

/** The shape's pooled builder reading with `read`, or `null` once the pools are spent. */
function pooledBuilder(
  names: readonly string[],
  read: () => unknown,
): (() => Record<string, unknown>) | null {
  const shape = JSON.stringify(names);
  let builders = buildersByShape.get(read);
  const known = builders?.get(shape);
  if (known !== undefined) return known;
  const chunkCount = Math.ceil(names.length / STORES_PER_CHUNK) - 1;
  if (
    nextFreeBuilder === RECORD_BUILDERS.length || nextFreeChunk + chunkCount > STORE_CHUNKS.length
  ) return null;
  plans[nextFreeBuilder] = {
    names: names.map(internalized),
    read,
    // JSON.parse makes an object with all its properties in place, as a literal would
    template: names.length <= MOST_PROPERTIES_WITHOUT_TEMPLATE
      ? null
      : JSON.parse(JSON.stringify(Object.fromEntries(names.map((name) => [name, null])))),
    rest: STORE_CHUNKS.slice(nextFreeChunk, nextFreeChunk + chunkCount),
  };
  nextFreeChunk += chunkCount;
  const build = RECORD_BUILDERS[nextFreeBuilder++];
  if (builders === undefined) buildersByShape.set(read, builders = new Map());
  builders.set(shape, build);
  pooledShapes++;
  return build;
}

/**
 * A builder for plain maps of one key sequence (`_records/map_shapes.ts`), reading the values
 * with `read`: compiled when `compile` (the decoder's `compileRecordReaders`) and a compiler is
 * installed and allowed, else the shape's pooled builder. `null`: not now (this decode's compile
 * allowance is spent; ask again later) or none (the pools are spent).
 */
export function createShapeBuilder(
  names: readonly string[],
  read: () => unknown,
  compile: boolean,
): (() => Record<string, unknown>) | null {
  if (compile && compiler !== null) {
    const compiled = tryCompile(names, read, false) as (() => Record<string, unknown>) | null;
    if (compiled !== null || compiler !== null) return compiled;
  }
  return pooledBuilder(names, read);
}

/** A reader returning what `build` builds, frozen when the decoder freezes its data. */
function asReader(build: () => Record<string, unknown>, freeze: boolean): RecordBodyReader {
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
 * then (from the `POOL_AFTER_READS`th read) the shape's own pooled builder, so a type read only
 * once (a shape redefined in every message) never pays for finding one. When a compiler is
 * installed and allowed, a shape read `COMPILE_AFTER_READS` times gets a compiled reader instead;
 * if compiling throws, compilation is switched off for the whole process and the shape carries on
 * with its pooled builder.
 */
export function createRecordType(
  keys: readonly string[] | null,
  read: () => unknown,
  options: RecordTypeOptions,
): RecordType {
  const names = keys === null ? [] : toPropertyNames(keys);
  const freeze = options.freeze;
  let interpreted = asReader(loopBuilder(names, read), freeze);
  const type: RecordType = {
    keys,
    size: names.length,
    twoByte: options.twoByte,
    shared: options.shared,
    read: interpreted,
  };
  const compile = options.compile && compiler !== null;
  let pooled = false;
  const usePool = () => {
    if (pooled) return;
    pooled = true;
    interpreted = asReader(createObjectBuilder(names, read), freeze);
  };
  let reads = 0;
  let nextCompile = COMPILE_AFTER_READS;
  type.read = () => {
    reads++;
    if (!compile) {
      if (reads >= POOL_AFTER_READS) {
        usePool();
        type.read = interpreted;
      }
    } else if (reads > nextCompile) {
      const faster = tryCompile(names, read, freeze);
      if (faster !== null) type.read = faster;
      else {
        usePool();
        if (compiler === null) type.read = interpreted; // generation is forbidden: for good
        else nextCompile *= 4; // no compile allowed now: try again much later
      }
    }
    return interpreted();
  };
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
