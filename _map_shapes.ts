// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { createShapeBuilder } from "./_record_reader.ts";

// Shapes of plain maps decoded as objects. A map's object is built with one store per entry,
// `object[key] = value`, from one store site that sees every property name of every map, so the
// engines' inline caches give up on it (bench/object_building.ts: several times the cost of an
// object literal). Records avoid this with a builder per shape; plain maps carry no shape, but
// the same key sequences come back map after map (items of a list, events of a log). So the
// decoder follows each map's keys down a tree of key sequences (a node per sequence seen, a
// child per next key, like an engine's hidden classes), keeps the values on a stack meanwhile,
// and when the map ends builds its object in one go: with the shape's builder once the sequence
// has ended `BUILDER_AFTER_ENDS` maps (a compiled object literal in the default build, a pooled
// builder in the no-eval build, both from `_record_reader.ts`), else with the stores as before.
//
// Bounds, for hostile or shapeless input (maps keyed by ids): maps of more than
// `MAX_SHAPED_KEYS` entries are not followed; a node's second and later children are made only
// when their key comes to it a second time (keys that never repeat make no nodes); the tree
// holds at most `MAX_SHAPES` nodes, and a map whose keys would need more is finished with plain
// stores; a full tree is dropped `DECODES_BEFORE_RENEWAL` top-level decodes later and learned
// again (builders are kept by `_record_reader.ts` per key list, so a shape that comes back finds
// its builder again); compiling shares the records' allowance of 32 shapes per decode.
//
// A key that comes again where it came last (the shape's `hot` child) is not decoded at all:
// the decoder compares the input with the child's encoded key (`keyWords`) and steps.
//
// Measured (scratch A/B of plain `unpack` against the decoder before this module, same process,
// fastest of 15 rounds, 3 runs): Deno 2.9 1.10-1.15x on example4.json, 1.17-1.26x on
// sample-large.json, 1.18-1.29x on the 20-item service response, 1.29-1.41x on 1,000 log
// events, 1.07-1.11x on unicode text; Bun 1.4 1.20-1.28x, 1.38-1.43x, 1.41x, 1.57-1.59x and
// 1.15x. Many small maps keyed by ids, unique per message: 1.0-1.12x slower.

/** A key sequence: the keys of a map so far. */
export interface MapShape {
  readonly id: number;
  /** The last key of the sequence ("" at the root). */
  readonly key: string;
  readonly parent: MapShape | null;
  /** Number of keys. */
  readonly size: number;
  /** The child stepped to last (consecutive maps usually repeat it): checked before `children`. */
  hot: MapShape | null;
  children: Map<string, MapShape> | null;
  /** The keys in order, made when a map first ends here. */
  names: string[] | null;
  /** Maps that ended here, until the count at which the next builder is asked for. */
  ends: number;
  nextBuilderAt: number;
  /** Builds the object from the values on the stack at `cursor`; null until it is earned. */
  build: (() => Record<string, unknown>) | null;
  /** Where the key's encoded bytes (a fixstr, header included) start in `keyWords`. */
  readonly keyAt: number;
  /** Their length; 0 when the key came in another encoding (no byte comparison then). */
  keyLength: number;
}

/** Maps with more entries are decoded with plain stores (dictionaries, not shapes). */
export const MAX_SHAPED_KEYS = 32;
/** Most nodes in the tree. */
export const MAX_SHAPES = 4096;
/** Maps ending at a shape before it asks for a builder (again after a refusal: 4 times later). */
const BUILDER_AFTER_ENDS = 4;

/** Ids for shapes, never reused (the pending table names shapes by id, not by reference). */
let nextShapeId = 0;

/** Words reserved per node in `keyWords`: a fixstr header and up to 31 bytes. */
const KEY_SLOT = 8;
/**
 * The encoded key of each node (a fixstr: header and bytes, `length` ≤ 32 bytes in all), at
 * `keyAt`, as 32-bit little-endian words so the decoder compares four bytes at a time:
 *   length ≥ 4: word 0 = bytes [0, 4), word 1 = bytes [length - 4, length), then the words at
 *               4, 8, … while before length - 4 (the last may overlap word 1);
 *   length < 4: word 0 = the bytes, byte i at bits 8i.
 * When the input holds the same bytes, the decoder steps to the node without decoding the key.
 */
export const keyWords: Int32Array = new Int32Array(MAX_SHAPES * KEY_SLOT);

/** Keeps `encoded[start, end)` (at most 32 bytes) in `keyWords` at `at` (layout above). */
function keepKeyWords(encoded: Uint8Array, start: number, end: number, at: number): void {
  const length = end - start;
  const word = (offset: number) =>
    encoded[start + offset] | (encoded[start + offset + 1] << 8) |
    (encoded[start + offset + 2] << 16) | (encoded[start + offset + 3] << 24);
  if (length < 4) {
    let packed = 0;
    for (let i = 0; i < length; i++) packed |= encoded[start + i] << (8 * i);
    keyWords[at] = packed;
    return;
  }
  keyWords[at] = word(0);
  keyWords[at + 1] = word(length - 4);
  for (let offset = 4, w = at + 2; offset < length - 4; offset += 4, w++) {
    keyWords[w] = word(offset);
  }
}

function createShape(key: string, parent: MapShape | null): MapShape {
  return {
    id: nextShapeId++ & 0x3fffffff,
    keyAt: (shapeCount % MAX_SHAPES) * KEY_SLOT,
    keyLength: 0,
    key,
    parent,
    size: parent === null ? 0 : parent.size + 1,
    hot: null,
    children: null,
    names: null,
    ends: 0,
    nextBuilderAt: BUILDER_AFTER_ENDS,
    build: null,
  };
}

let shapeCount = 0;
let treeFull = false;
/** The empty key sequence, where every map starts (its `keyAt` is never read). */
export const rootShape: MapShape = createShape("", null);

/** Nodes in the tree (for tests). */
export function mapShapeCount(): number {
  return shapeCount;
}

/** The node of a key sequence, if the tree has it (for tests). */
export function shapeOf(keys: readonly string[]): MapShape | undefined {
  let shape: MapShape | undefined = rootShape;
  for (const key of keys) {
    shape = shape.hot?.key === key ? shape.hot : shape.children?.get(key);
    if (shape === undefined) return undefined;
  }
  return shape;
}

/**
 * The child of `shape` for the next key, made if new; `null` when the tree has none and will not
 * make one now (the map is then finished with plain stores). `encoded[start, end)` are the
 * key's bytes when it came as a fixstr (else `end` is `start`), kept for byte comparison.
 */
export function stepShape(
  shape: MapShape,
  key: string,
  encoded: Uint8Array,
  start: number,
  end: number,
): MapShape | null {
  const hot = shape.hot;
  let child = hot === null ? undefined : shape.children?.get(key);
  if (child === undefined) {
    // A shape's first child is made at once (a chain of keys is learned from one map); a
    // further child only when the same key comes to it a second time, so keys that never
    // repeat (ids as keys) make no nodes: a first sighting is noted in a small table of pending
    // (shape, key) pairs and the map is finished with plain stores.
    if (hot !== null && !seenBefore(shape.id, key)) return null;
    if (shapeCount >= MAX_SHAPES) {
      treeFull = true;
      return null;
    }
    child = createShape(key, shape);
    shapeCount++;
    if (end - start <= KEY_SLOT * 4) {
      keepKeyWords(encoded, start, end, child.keyAt);
      child.keyLength = end - start;
    }
    // a first child needs no map: `hot` is its only entry
    if (hot !== null) {
      if (shape.children === null) shape.children = new Map([[hot.key, hot]]);
      shape.children.set(key, child);
    }
  }
  shape.hot = child;
  return child;
}

/**
 * Slots of the pending table (a power of two). A pair may sit in either of two slots, and a new
 * pair overwrites them in turn, so two pairs whose slots collide still find each other.
 */
const PENDING_BITS = 10;
const PENDING_SLOTS = 1 << PENDING_BITS;
const pendingShapeIds = new Int32Array(PENDING_SLOTS).fill(-1);
const pendingKeys: string[] = new Array(PENDING_SLOTS).fill("");
let pendingTurn = 0;

/** Whether `key` came to the shape `shapeId` before (and was noted); notes it if not. */
function seenBefore(shapeId: number, key: string): boolean {
  const last = key.length - 1;
  const hash = Math.imul(
    shapeId ^ Math.imul(last, 0x2f) ^ Math.imul(key.charCodeAt(0) | 0, 0x3b1) ^
      Math.imul(key.charCodeAt(last) | 0, 0x1f0d),
    0x9e3779b1,
  );
  const first = hash >>> (32 - PENDING_BITS); // the top bits
  const second = (hash >>> 12) & (PENDING_SLOTS - 1);
  if (pendingShapeIds[first] === shapeId && pendingKeys[first] === key) {
    pendingShapeIds[first] = -1;
    return true;
  }
  if (pendingShapeIds[second] === shapeId && pendingKeys[second] === key) {
    pendingShapeIds[second] = -1;
    return true;
  }
  const slot = (pendingTurn ^= 1) === 0 ? first : second;
  pendingShapeIds[slot] = shapeId;
  pendingKeys[slot] = key;
  return false;
}

/** Top-level decodes a full tree is kept before it is dropped and learned again. */
export const DECODES_BEFORE_RENEWAL = 64;
let decodesSinceFull = 0;

/**
 * Called before each top-level decode: a tree that filled up is dropped and learned again, not
 * at once but `DECODES_BEFORE_RENEWAL` decodes later, so input with more shapes than the tree
 * holds (small maps keyed by ids, say) does not spend every decode rebuilding it.
 */
export function renewShapesIfFull(): void {
  if (!treeFull || ++decodesSinceFull < DECODES_BEFORE_RENEWAL) return;
  treeFull = false;
  decodesSinceFull = 0;
  shapeCount = 0;
  rootShape.hot = null;
  rootShape.children = null;
}

function namesOf(shape: MapShape): string[] {
  const names = new Array<string>(shape.size);
  for (let node = shape; node.parent !== null; node = node.parent) names[node.size - 1] = node.key;
  return names;
}

// ---- the value stack -----------------------------------------------------------------------------
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
  valueStack.fill(undefined, 0, highWater);
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
  const names = shape.names ??= namesOf(shape);
  if (++shape.ends >= shape.nextBuilderAt) {
    shape.build = createShapeBuilder(names, popValue, compile);
    shape.nextBuilderAt *= 4;
  }
  return storeValues(names, names.length, base);
}

/** `{}` with the first `count` of `names` stored from the stack at `base`, in order. */
export function storeValues(
  names: readonly string[],
  count: number,
  base: number,
): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) object[names[i]] = valueStack[base + i];
  return object;
}

/** The keys of `shape`, in order (for a map finished with plain stores). */
export function shapeNames(shape: MapShape): readonly string[] {
  return shape.names ??= namesOf(shape);
}
