// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The no-eval build's record builders: installs the pool of written-out builders
// (`_records/builders.ts`) as the interpreted reader's faster builder (`_records/reader.ts`).
// `no_eval.ts` imports this module for that side effect; the default build, which compiles its
// readers, never does, so it does not carry the pool.

import { plans, RECORD_BUILDERS, STORE_CHUNKS, STORES_PER_CHUNK } from "./builders.ts";
import { installBuilderPool } from "./reader.ts";

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

installBuilderPool(pooledBuilder);
