// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

/**
 * A decode or encode context: `options` (each option of a side, in the option table's order)
 * copied by keyed stores into a fresh object, then that spread with `rest`. Every context of a
 * side is made here, from the option table (`_decode/context.ts`, `_encode/context.ts`) or
 * written out (the exported `unpack`'s and `pack`'s), so that they share one hidden class
 * whichever is made first, and the reader's and writer's loads from `context` stay monomorphic.
 * The spread also makes a fast object of the copy, which so many keyed stores leave in an
 * engine's slow dictionary form.
 */
export function contextObject<Context>(options: object, rest: object): Context {
  const resolved: Record<string, unknown> = {};
  for (const name in options) resolved[name] = (options as Record<string, unknown>)[name];
  return { ...resolved, ...rest } as Context;
}
