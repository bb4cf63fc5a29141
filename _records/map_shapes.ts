// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { type PlainRoot, plainRoot } from "./plain_root.ts";
import { createShapeBuilder } from "./reader.ts";
import { type KeyNode, ShapeTree } from "./shape_tree.ts";
import { BUILDER_AFTER_ENDS } from "../_core/thresholds.ts";

// Plain maps decoded as objects, built by shape. One store per entry, `object[key] = value`, from
// one store site that sees every property name of every map, defeats the engines' inline caches
// (bench/object_building.ts compares it with an object literal). Records avoid this with a
// builder per shape; plain maps carry no shape, but the same key sequences come back map after
// map (items of a list, events of a log). So the decoder follows each map's keys down its tree of
// key sequences (`_records/shape_tree.ts`; a key met where it was met last is compared as bytes,
// not decoded), keeps the values on a stack meanwhile, and when the map ends builds its object in
// one go: with the shape's builder once the sequence has ended 4 maps (a compiled object literal
// in the default build, a pooled builder in the no-eval build, both from `_records/reader.ts`,
// whose compiled readers are cached and pooled builders lent per key list, so a shape that comes
// back after the tree was renewed finds its builder again), else with the stores. A pooled
// builder is lent: when the pool takes it back, the shape uses the stores and asks again. Maps of
// more than `MAX_SHAPED_KEYS` entries are not followed (dictionaries, not shapes), and a map whose
// next key the tree has no node for is finished with the stores. Compiling shares the records'
// allowance of 32 shapes per decode.
//
// Repeated shapes decode markedly faster this way; only maps keyed by ids that are new in every
// message pay for the walk without gaining from it, and lose a little.
// Chosen by measurement: npm run bench:deno / bench:bun (plain `unpack`).

/** A key sequence of maps decoded as objects, with what the decoder keeps for its objects. */
export interface MapShape extends KeyNode<MapShape> {
  /** The keys in order, made when they are first needed. */
  names: string[] | null;
  /** Maps that ended here, until the count at which the next builder is asked for. */
  ends: number;
  nextBuilderAt: number;
  /** Builds the object from the values on the stack at `cursor`; null until it is earned. */
  build: (() => Record<string, unknown>) | null;
  /**
   * Where objects built by stores start (`_records/plain_root.ts`): those of this key sequence
   * before it earned a builder, and of those that continue past it where the tree has no node
   * (the root's: maps the tree does not follow); made when first needed.
   */
  root: PlainRoot | null;
  /**
   * The first key (a child of the root) of the map that last came as the value of this node's
   * key, or null: a nested map's first key is predicted from it rather than from the root's
   * `hot`, which the outer maps' first keys take (`{id, params: {orderId, …}}` would otherwise
   * miss at the root twice per message).
   */
  valueHot: MapShape | null;
}

/** The decoder's tree of the key sequences of maps decoded as objects. */
export const mapShapes: ShapeTree<MapShape> = new ShapeTree<MapShape>(
  // the decoder's own node literal, not shared with the encoder's (see `CreateNode`)
  (id, key, parent, size, keyAt) => ({
    id,
    key,
    parent,
    size,
    hot: null,
    children: null,
    keyAt,
    keyLength: 0,
    names: null,
    ends: 0,
    nextBuilderAt: BUILDER_AFTER_ENDS,
    build: null,
    root: null,
    valueHot: null,
  }),
);

/**
 * Renews the tree when it is due (`ShapeTree.renewIfFull`), and with it the root of the maps the
 * tree did not follow meanwhile: what they added there is not kept.
 */
export function renewMapShapesIfFull(): void {
  if (mapShapes.renewIfFull()) mapShapes.root.root = null;
}

/** A plain object to store the entries of a map whose keys begin with `shape`'s into. */
export function objectFrom(shape: MapShape): Record<string, unknown> {
  return new (shape.root ??= plainRoot())();
}

function namesOf(shape: MapShape): string[] {
  const names = new Array<string>(shape.size);
  for (let node = shape; node.parent !== null; node = node.parent) names[node.size - 1] = node.key;
  return names;
}

// ---- the value stack ---------------------------------------------------------------------------
//
// A map's values wait here, from `base` up, while its keys are followed; a map inside a value
// uses the slots above. The decoder writes `valueStack[top++]`; builders read with `popValue`.
// Slots are cleared after each top-level decode (`releaseValueStack`), so the stack keeps no
// decoded value alive.

/** Values of the maps being read. */
export const valueStack: unknown[] = [];
/** One past the highest slot written since the stack was last cleared. */
let highWater = 0;
let cursor = 0;

/** The next value for a builder (the value reader every shape builder is made with). */
function popValue(): unknown {
  return valueStack[cursor++];
}

/** Records that slots below `end` hold values (cleared by {@linkcode releaseValueStack}). */
export function markStackUse(end: number): void {
  if (end > highWater) highWater = end;
}

/** Drops every value from the stack (after a top-level decode, whether it succeeded or not). */
export function releaseValueStack(): void {
  if (highWater === 0) return;
  // a few slots in a loop: on V8 a call to `fill` costs as much as decoding a small map
  if (highWater <= 16) {
    for (let i = 0; i < highWater; i++) valueStack[i] = undefined;
  } else {
    valueStack.fill(undefined, 0, highWater);
  }
  highWater = 0;
}

/**
 * The object of a map whose keys ended at `shape`, with its `shape.size` values on the stack
 * from `base`. `compile`: this decode allows compiled builders.
 */
export function objectOfShape(shape: MapShape, base: number, compile: boolean): object {
  const build = shape.build;
  if (build !== null) {
    cursor = base;
    return build();
  }
  if (++shape.ends >= shape.nextBuilderAt) {
    shape.build = createShapeBuilder(
      shapeNames(shape),
      popValue,
      compile,
      () => releaseBuilder(shape),
    );
    shape.nextBuilderAt *= 4;
  }
  return storeValues(shape, shape.size, base);
}

/**
 * The builder pool takes back the builder it lent `shape` (between top-level decodes): the
 * stores again, and a builder asked for again soon.
 */
function releaseBuilder(shape: MapShape): void {
  shape.build = null;
  shape.nextBuilderAt = shape.ends + BUILDER_AFTER_ENDS;
}

/**
 * A plain object (from `shape`'s root) with the first `count` keys of `shape` stored from the
 * stack at `base`, in order.
 */
export function storeValues(shape: MapShape, count: number, base: number): Record<string, unknown> {
  const names = shapeNames(shape);
  const object = objectFrom(shape);
  for (let i = 0; i < count; i++) object[names[i]] = valueStack[base + i];
  return object;
}

/** The keys of `shape`, in order, made when first needed. */
export function shapeNames(shape: MapShape): readonly string[] {
  return shape.names ??= namesOf(shape);
}
