// Copyright 2026 the @x/msgpackr authors. MIT license.
/**
 * Why the interpreted (no-eval) record reader stays behind the generated one: the cost of building
 * an object of a known shape, without the rest of the decoder. Thirty shapes of 3 to 10 fields
 * (as a real decoder sees many shapes, so no call site stays monomorphic); each bench builds one
 * object of every shape, reading the values from a shared supplier like the decoder's `read()`.
 *
 *   deno run -A bench/object_building.ts
 *   bun bench/object_building.ts
 *
 * - literal: a generated function per shape returning `{ a: r(), b: r() }` (the default build);
 * - pooled: the interpreted reader's builder (`createObjectBuilder`): each shape gets its own copy
 *   of the store code written out in `_records/builders.ts`, and a template copy above 8 fields;
 * - loop: `{}` then `object[names[i]] = r()` (the interpreted reader of 0.1.0);
 * - keyed overwrite: a generated literal with every property already present, then the same
 *   keyed stores overwriting them (tells whether a pre-shaped object would help: it does not,
 *   the keyed store with a name that varies per iteration is the cost);
 * - constructor: a per-shape `function` whose prototype is Object.prototype, then keyed stores;
 * - spread: `{ ...template }` then keyed stores;
 * - array: the same values into an array (the floor: no property names at all).
 */

import { bench, do_not_optimize, run, summary } from "mitata";
import { createObjectBuilder } from "../_records/reader.ts";
import "../_records/builder_pool.ts"; // the no-eval build's pool, as no_eval.ts installs it

const values = Array.from({ length: 1 << 16 }, (_, i) => i);
let cursor = 0;
const read = (): number => values[cursor++ & 0xffff];

type Builder = () => unknown;

const shapes: string[][] = Array.from(
  { length: 30 },
  (_, shape) => Array.from({ length: 3 + (shape % 8) }, (_, field) => `f${shape}_${field}`),
);

function literal(names: string[]): Builder {
  const body = `return function(){return {${names.map((name) => `${name}:r()`).join(",")}}}`;
  return new Function("r", body)(read);
}

function pooled(names: string[]): Builder {
  return createObjectBuilder(names, read);
}

function loop(names: string[]): Builder {
  const count = names.length;
  return () => {
    const object: Record<string, unknown> = {};
    for (let i = 0; i < count; i++) object[names[i]] = read();
    return object;
  };
}

function keyedOverwrite(names: string[]): Builder {
  const count = names.length;
  const template = new Function(
    `return function(){return {${names.map((name) => `${name}:0`).join(",")}}}`,
  )() as () => Record<string, unknown>;
  return () => {
    const object = template();
    for (let i = 0; i < count; i++) object[names[i]] = read();
    return object;
  };
}

function constructor(names: string[]): Builder {
  const count = names.length;
  const Shape = function () {} as unknown as new () => Record<string, unknown>;
  Shape.prototype = Object.prototype;
  return () => {
    const object = new Shape();
    for (let i = 0; i < count; i++) object[names[i]] = read();
    return object;
  };
}

function spread(names: string[]): Builder {
  const count = names.length;
  const template: Record<string, unknown> = {};
  for (const name of names) template[name] = 0;
  return () => {
    const object = { ...template };
    for (let i = 0; i < count; i++) object[names[i]] = read();
    return object;
  };
}

function array(names: string[]): Builder {
  const count = names.length;
  return () => {
    const result = new Array(count);
    for (let i = 0; i < count; i++) result[i] = read();
    return result;
  };
}

const strategies = {
  literal,
  pooled,
  loop,
  "keyed overwrite": keyedOverwrite,
  constructor,
  spread,
  array,
};

summary(() => {
  for (const [name, strategy] of Object.entries(strategies)) {
    const builders = shapes.map(strategy);
    // every strategy but the array must build plain objects with the shape's keys, in order
    if (name !== "array") {
      for (const [i, build] of builders.entries()) {
        const object = build() as object;
        if (
          Object.getPrototypeOf(object) !== Object.prototype ||
          Object.keys(object).join() !== shapes[i].join()
        ) throw new Error(`${name} builds the wrong object`);
      }
    }
    const registered = bench(name, () => {
      let last: unknown;
      for (let i = 0; i < builders.length; i++) last = do_not_optimize(builders[i]());
      return last;
    });
    if (name === "literal") registered.baseline();
  }
});

await run();
