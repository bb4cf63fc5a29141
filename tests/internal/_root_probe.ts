// Copyright 2026 the @x/msgpackr authors. MIT license.
// Run by plain_roots_test.ts under `deno run --v8-flags=--allow-natives-syntax`, with `mod.ts` or
// `no_eval.ts` as the argument (one build per process: the no-eval build's builder pool serves
// the default build's interpreted reader too once it is loaded). Fills V8's root of `{}` with
// transitions (objects with thousands of new first keys, built by stores as an application builds
// them), then decodes objects of shapes never seen before on each path that builds objects by
// stores, and prints, as JSON, whether two objects of one shape built by the same path share their
// hidden class (V8's `%HaveSameMap`), with two `{}`s built by stores as the control.

import type * as Library from "../../mod.ts";

const { pack, Packr, unpack, Unpackr } = await import(`../../${Deno.args[0]}`) as typeof Library;

const sameMap = new Function("a", "b", "return %HaveSameMap(a, b)") as (
  a: object,
  b: object,
) => boolean;

// V8 keeps about 1,500 transitions from one hidden class: more first keys than that fill it
for (let i = 0; i < 4000; i++) {
  const object: Record<string, number> = {};
  object[`fill${i}`] = i;
}

let shapes = 0;
/** `count` objects of a shape never seen before, with `keys` keys. */
function objects(count: number, keys = 3): Record<string, unknown>[] {
  const prefix = `probe${shapes++}_`;
  return Array.from({ length: count }, (_, i) => {
    const object: Record<string, unknown> = {};
    for (let key = 0; key < keys; key++) object[`${prefix}${key}`] = i + key;
    return object;
  });
}

/** Whether objects `a` and `b` of a decoded array share their class. */
function shared(decoded: unknown, a: number, b: number): boolean {
  const list = decoded as object[];
  return sameMap(list[a], list[b]);
}

const control = [0, 1].map(() => {
  const object: Record<string, unknown> = {};
  object.control_a = 1;
  object.control_b = 2;
  return object;
});
const records = (count: number, options = {}) =>
  new Unpackr(options).unpack(new Packr().pack(objects(count)));

console.log(JSON.stringify({
  control: sameMap(control[0], control[1]),
  // a record type's first reads: the loop in the default build (until the generated reader), the
  // pooled builder from the second in the no-eval build
  "records, first reads": shared(records(3), 1, 2),
  // the interpreted reader of this build: the loop for good in the default build, the shape's
  // pooled builder from the third record in the no-eval build
  "records, interpreted reader": shared(records(8, { compileRecordReaders: false }), 6, 7),
  // a key sequence's first maps, before it earns a builder
  "plain maps, first maps": shared(unpack(pack(objects(3))), 1, 2),
  "plain maps of more than 64 keys": shared(unpack(pack(objects(2, 70))), 0, 1),
}));
