// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { type PlainRoot, plainRoot } from "./plain_root.ts";
import { type CompileAllowance, earningBuilder, type ObjectBuilder } from "./reader.ts";
import { type KeyNode, ShapeTree } from "./shape_tree.ts";

// Plain maps decoded as objects, built by shape. One store per entry, `object[key] = value`, from
// one store site that sees every property name of every map, defeats the engines' inline caches
// (bench/object_building.ts compares it with an object literal). Records avoid this with a
// builder per shape; plain maps carry no shape, but the same key sequences come back map after
// map (items of a list, events of a log). So the decoder follows each map's keys down its tree of
// key sequences (`_records/shape_tree.ts`; a key met where it was met last is compared as bytes,
// not decoded), keeps the values on its value stack meanwhile (`_decode/decoder.ts`), and when
// the map ends builds its object in one go with the shape's builder: from `_records/reader.ts`,
// as a record type's, so it earns a compiled object literal (default build) or a pooled builder
// (no-eval build) by the same rule, sharing the records' compile allowance; compiled builders
// are cached and pooled ones lent per key list, so a shape that comes back after the tree was
// renewed finds its builder again. Maps of more than `MAX_SHAPED_KEYS` entries are not followed
// (dictionaries, not shapes), and a map whose next key the tree has no node for is finished with
// the stores.
//
// Repeated shapes decode markedly faster this way; only maps keyed by ids that are new in every
// message pay for the walk without gaining from it, and lose a little.
// Chosen by measurement: npm run bench:deno / bench:bun (plain `unpack`).

/** A key sequence of maps decoded as objects, with what the decoder keeps for its objects. */
export interface MapShape extends KeyNode<MapShape> {
  /** The keys in order, made when they are first needed. */
  names: string[] | null;
  /** Builds the object from the values on the value stack; null until a map first ends here. */
  build: ObjectBuilder | null;
  /**
   * Where the objects of maps that continue past this key sequence where the tree has no node
   * start (`_records/plain_root.ts`; the root's: maps the tree does not follow); made when first
   * needed.
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
  // the decoder's own node literal, its first property one the encoder's lacks (see `CreateNode`)
  (id, key, parent, size, keyAt) => ({
    names: null,
    id,
    key,
    parent,
    size,
    hot: null,
    children: null,
    keyAt,
    keyLength: 0,
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

/**
 * The builder of `shape`, made when a map first ends there: it reads the values with `read` (the
 * decoder's value stack) and earns a faster one (`earningBuilder`).
 */
export function builderOf(
  shape: MapShape,
  read: () => unknown,
  allowance: () => CompileAllowance | null,
): ObjectBuilder {
  const install = (build: ObjectBuilder) => shape.build = build;
  return shape.build = earningBuilder(shapeNames(shape), read, false, allowance, install);
}

/** The keys of `shape`, in order, made when first needed. */
export function shapeNames(shape: MapShape): readonly string[] {
  return shape.names ??= namesOf(shape);
}
