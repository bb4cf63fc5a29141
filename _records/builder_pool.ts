// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { plans, RECORD_BUILDERS, STORE_CHUNKS, STORES_PER_CHUNK } from "./builders.ts";
import { plainRoot } from "./plain_root.ts";
import { MOST_PROPERTIES_WITHOUT_TEMPLATE } from "../_core/thresholds.ts";
import { builderSources, type ObjectBuilder } from "./reader.ts";

// The no-eval build's pool of object builders of `_records/builders.ts` (why they exist: there)
// and who holds them. `no_eval.ts` imports this module, which installs the pool as the source of
// faster builders (`_records/reader.ts`); the default build, which compiles its builders, never
// does, so it does not carry the pool. Each shape gets a builder of its own, so its store sites
// see one property name each; every holder of that shape (record types of any decoder, map
// shapes) shares it. The pool is small, so builders are lent, never given: every loan is written
// in a ledger with the holder's `release`, and the pool is renewed
// - `RUNS_BEFORE_RENEWAL` top-level decodes after it was first found spent (input with more
//   shapes than builders, or input made to spend them), so new shapes get builders again;
// - at the next top-level decode when the ledger is full, so that it stays bounded (it holds
//   its holders alive until then).
// Renewing calls every `release` (the holder goes back to its loop and may ask again), forgets
// every loan, and lends the builders afresh. It happens only between top-level decodes
// (`renewBuilderPoolIfDue`, called by the decoder), never while a builder is building. Holders
// that were refused ask again later (`earningBuilder` in `_records/reader.ts`).
// None of this adds work per value: the ledger is written when a builder is lent, and read when
// the pool is renewed.

// MOST_PROPERTIES_WITHOUT_TEMPLATE: most properties of a shape whose pooled builder starts its
// objects from `{}`; larger shapes start from a copy of a template that has every property. V8
// turns an object that gains 20 or so properties by keyed stores into a slow dictionary (16 leaves
// a margin), while a copy of a template made by JSON.parse has them all at once, in the object
// itself, as a literal would. Smaller shapes start from `{}`, because there the copy costs more
// than the stores that grow the object (on JavaScriptCore it is a call into the runtime).
// Chosen by measurement: deno run -A bench/object_building.ts / bun bench/object_building.ts.

/** Top-level decodes a spent pool waits before it is renewed. */
const RUNS_BEFORE_RENEWAL = 64;
/** Most loans before the pool is renewed: bounds the holders the ledger keeps alive. */
export const MAX_LOANS = 2048;
/**
 * Most characters in the names of a shape that gets a builder: a plan keeps its names (and the
 * ledger keeps the holders, and theirs), so input with long keys cannot make them hold much.
 */
const MAX_POOLED_NAME_CHARS = 2048;

/** The pool's state (process-wide): changed when a builder is lent and when it is renewed. */
const pool = {
  /**
   * Builders lent in this generation, by value reader (the decoder's `read` for records, the
   * value stack's for plain maps) and shape (`JSON.stringify` of the property names).
   */
  byShape: new Map<() => unknown, Map<string, ObjectBuilder>>(),
  /** Builders (so shapes) and chunks handed out in this generation. */
  builders: 0,
  chunks: 0,
  /** How each holder of a lent builder is told to stop using it. */
  ledger: [] as (() => void)[],
  /** A request was refused since the last renewal (no builder or chunk left, or a full ledger). */
  spent: false,
  runsSinceSpent: 0,
  /** Renewals so far (for tests). */
  generation: 0,
};

/** Shapes with a builder and loans in this generation, and the pool's generation (for tests). */
export function builderPoolState(): { shapes: number; loans: number; generation: number } {
  return { shapes: pool.builders, loans: pool.ledger.length, generation: pool.generation };
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
 * Lends the shape's pooled builder (reading with `read`) until the pool takes it back, when it
 * calls `release`: from then on the holder must not call the builder (it may ask again). Returns
 * `null` when the pool has no builder for the shape now (spent, or its names are too long).
 *
 * @param names The property names, at least one.
 * @param read The value reader the builder calls for each property.
 * @param release Called when the loan ends (between top-level decodes).
 * @returns The builder, or `null`.
 */
export function lendBuilder(
  names: readonly string[],
  read: () => unknown,
  release: () => void,
): ObjectBuilder | null {
  if (pool.ledger.length >= MAX_LOANS) {
    pool.spent = true;
    return null;
  }
  const shape = JSON.stringify(names);
  let builders = pool.byShape.get(read);
  let build = builders?.get(shape);
  if (build === undefined) {
    if (shape.length > MAX_POOLED_NAME_CHARS) return null;
    const chunks = pool.chunks;
    const chunkCount = Math.ceil(names.length / STORES_PER_CHUNK) - 1;
    if (pool.builders === RECORD_BUILDERS.length || chunks + chunkCount > STORE_CHUNKS.length) {
      pool.spent = true;
      return null;
    }
    plans[pool.builders] = {
      names: names.map(internalized),
      read,
      root: plainRoot(),
      // JSON.parse makes an object with all its properties in place, as a literal would
      template: names.length <= MOST_PROPERTIES_WITHOUT_TEMPLATE
        ? null
        : JSON.parse(JSON.stringify(Object.fromEntries(names.map((name) => [name, null])))),
      rest: STORE_CHUNKS.slice(chunks, pool.chunks = chunks + chunkCount),
    };
    build = RECORD_BUILDERS[pool.builders++];
    if (builders === undefined) pool.byShape.set(read, builders = new Map());
    builders.set(shape, build);
  }
  pool.ledger.push(release);
  return build;
}

/**
 * Called before each top-level decode: renews the pool when it is due (see the top of this
 * module). The common case is one test.
 */
export function renewBuilderPoolIfDue(): void {
  if (!pool.spent) return;
  if (pool.ledger.length < MAX_LOANS && ++pool.runsSinceSpent < RUNS_BEFORE_RENEWAL) return;
  const releases = pool.ledger;
  Object.assign(pool, { ledger: [], spent: false, runsSinceSpent: 0, builders: 0, chunks: 0 });
  pool.byShape.clear();
  plans.length = 0; // no builder is lent now: drop what the plans hold
  pool.generation++;
  for (const release of releases) release();
}

builderSources.pool = { lend: lendBuilder, renewIfDue: renewBuilderPoolIfDue };
