// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { shortWordAt, wordAt } from "../_core/bytes.ts";

// A tree of key sequences, like an engine's hidden classes: the root is the empty sequence, and a
// node's children are the sequences one key longer. Objects of one shape walk the same path, and
// each node keeps the encoded bytes of its key (a fixstr), so a codec that meets the key where
// it met it last can skip the work on it: the decoder compares the input with the kept bytes
// instead of decoding the key (`_decode/decoder.ts`), the encoder copies them instead of encoding
// it (`_encode/encoder.ts`). Each codec has a tree of its own; both use this code. The encoder's
// records walk trees of their own too, one per Packr, whose nodes keep record ids.
//
// Every step checks the node's `hot` child first (the child it stepped to last: consecutive
// objects usually repeat it), with one string comparison, and only then its map of children.
//
// Bounds, for hostile or shapeless data (objects keyed by ids): a node's first child is made at
// once (a chain of keys is learned from one object), a further child only when the same key
// comes to the node a second time, so keys that never repeat make no nodes (a first sighting is
// noted in a small table of pending pairs); a key longer than `MAX_KEY_LENGTH` makes no node (so
// a node holds at most that much text, whatever the input); the tree holds at most `MAX_SHAPES`
// nodes, after which it makes none; a full tree is dropped `RUNS_BEFORE_RENEWAL` top-level runs
// (decodes or packs) later and learned again. A records tree is unbounded (`bounded` false): every
// shape needs its node, as record ids are msgpackr's, and it keeps no key bytes.

/** A key sequence: the node of its last key (`Node` is the codec's own node type). */
export interface KeyNode<Node extends KeyNode<Node>> {
  /** Never reused in its tree (the pending table names nodes by id, not by reference). */
  readonly id: number;
  /** The last key of the sequence ("" at the root). */
  readonly key: string;
  readonly parent: Node | null;
  /** Number of keys. */
  readonly size: number;
  /** The child stepped to last: checked before `children`. */
  hot: Node | null;
  /** Every child, once there are two (a single child is only `hot`). */
  children: Map<string, Node> | null;
  /** Where the key's encoded bytes start in the tree's `keyWords`. */
  readonly keyAt: number;
  /** Their length; 0 while none are kept (the key came in another encoding, or not yet). */
  keyLength: number;
}

/**
 * Makes a node with `hot` and `children` null and `keyLength` 0. Each codec writes its own
 * object literal, whose FIRST property the other's lacks, so the engines give the encoder's and
 * the decoder's nodes hidden classes that share no ancestor: code that reads nodes of one kind
 * stays specialised to them. V8 starts a literal from a map chosen by its property count and
 * adds the properties in order, so two literals of one count that begin alike share those maps
 * and their field types, which made V8's whole decoder markedly slower once the encoder had run
 * (tests/internal/map_shapes_test.ts checks the first properties differ).
 * Chosen by measurement: npm run bench:ab:deno.
 */
export type CreateNode<Node> = (
  id: number,
  key: string,
  parent: Node | null,
  size: number,
  keyAt: number,
) => Node;

/** Most nodes in a tree. */
export const MAX_SHAPES = 4096;
/**
 * Longest key (in UTF-16 units) a node is made for: an object with a longer one is not followed
 * from there (longer names are rare, and more likely data than a field's name).
 */
export const MAX_KEY_LENGTH = 64;
/** Top-level runs a full tree is kept before it is dropped and learned again. */
export const RUNS_BEFORE_RENEWAL = 64;
/** Words reserved per node in `keyWords`: a fixstr header and up to 31 bytes. */
const KEY_SLOT = 8;

/** Slots of the pending table (a power of two); see `seenBefore`. */
const PENDING_BITS = 10;
const PENDING_SLOTS = 1 << PENDING_BITS;

/** One tree of key sequences with the encoded bytes of its keys. */
export class ShapeTree<Node extends KeyNode<Node>> {
  /** The empty sequence, where every object starts (its `keyAt` is never read). */
  readonly root: Node;
  /**
   * The encoded key of each node (header and bytes, at most 32 bytes), at its `keyAt`, as 32-bit
   * little-endian words so that it is compared or copied four bytes at a time:
   *   length ≥ 4: word 0 = bytes [0, 4), word 1 = bytes [length - 4, length), then the words
   *               at 4, 8, … while before length - 4 (the last may overlap word 1);
   *   length < 4: word 0 = `shortWordAt` of the bytes (byte i at bits 8i, for i < length).
   */
  readonly keyWords: Int32Array;
  #count = 0;
  #nextId = 0;
  #full = false;
  #runsSinceFull = 0;
  readonly #pendingIds: Int32Array;
  readonly #pendingKeys: string[];
  #pendingTurn = 0;
  readonly #createNode: CreateNode<Node>;
  readonly #bounded: boolean;

  constructor(createNode: CreateNode<Node>, bounded = true) {
    this.#createNode = createNode;
    this.#bounded = bounded;
    this.keyWords = new Int32Array(bounded ? MAX_SHAPES * KEY_SLOT : 0);
    this.#pendingIds = new Int32Array(bounded ? PENDING_SLOTS : 0).fill(-1);
    this.#pendingKeys = new Array(bounded ? PENDING_SLOTS : 0).fill("");
    this.root = this.#create("", null);
  }

  /** Nodes in the tree (for tests). */
  get size(): number {
    return this.#count;
  }

  #create(key: string, parent: Node | null): Node {
    return this.#createNode(
      this.#nextId++ & 0x3fffffff,
      key,
      parent,
      parent === null ? 0 : parent.size + 1,
      (this.#count % MAX_SHAPES) * KEY_SLOT,
    );
  }

  /**
   * The child of `shape` for `key` (it becomes `hot`), made if new; `null` when a bounded tree
   * has none and makes none now (a first sighting of a further child, or a full tree). The codecs'
   * hot paths test the `hot` child inline first, so the common step costs no call.
   */
  step(shape: Node, key: string): Node | null {
    const hot = shape.hot;
    if (hot !== null && hot.key === key) return hot;
    let child = hot === null ? undefined : shape.children?.get(key);
    if (child === undefined) {
      if (this.#bounded) {
        if (key.length > MAX_KEY_LENGTH) return null;
        if (hot !== null && !this.#seenBefore(shape.id, key)) return null;
        if (this.#count >= MAX_SHAPES) {
          this.#full = true;
          return null;
        }
      }
      child = this.#create(key, shape);
      this.#count++;
      if (hot !== null) {
        if (shape.children === null) shape.children = new Map([[hot.key, hot]]);
        shape.children.set(key, child);
      }
    }
    shape.hot = child;
    return child;
  }

  /**
   * Keeps `encoded[start, end)`, the encoded key of `shape`, as its key bytes when it is a fixstr
   * (at most 32 bytes: one slot); a key in another encoding is not kept.
   */
  keepKey(shape: Node, encoded: Uint8Array, start: number, end: number): void {
    const header = encoded[start];
    if (header < 0xa0 || header >= 0xc0) return;
    const words = this.keyWords;
    const at = shape.keyAt;
    const length = end - start;
    if (length < 4) {
      words[at] = shortWordAt(encoded, start, length);
    } else {
      words[at] = wordAt(encoded, start);
      words[at + 1] = wordAt(encoded, end - 4);
      for (let offset = 4, w = at + 2; offset < length - 4; offset += 4, w++) {
        words[w] = wordAt(encoded, start + offset);
      }
    }
    shape.keyLength = length;
  }

  /**
   * Whether `key` came to the node `shapeId` before (and was noted); notes it if not. A pair may
   * sit in either of two slots, and a new pair overwrites them in turn, so two pairs whose slots
   * collide still find each other.
   */
  #seenBefore(shapeId: number, key: string): boolean {
    const last = key.length - 1;
    const hash = Math.imul(
      shapeId ^ Math.imul(last, 0x2f) ^ Math.imul(key.charCodeAt(0) | 0, 0x3b1) ^
        Math.imul(key.charCodeAt(last) | 0, 0x1f0d),
      0x9e3779b1,
    );
    const first = hash >>> (32 - PENDING_BITS);
    const second = (hash >>> 12) & (PENDING_SLOTS - 1);
    const ids = this.#pendingIds;
    const keys = this.#pendingKeys;
    if (ids[first] === shapeId && keys[first] === key) {
      ids[first] = -1;
      return true;
    }
    if (ids[second] === shapeId && keys[second] === key) {
      ids[second] = -1;
      return true;
    }
    const slot = (this.#pendingTurn ^= 1) === 0 ? first : second;
    ids[slot] = shapeId;
    keys[slot] = key;
    return false;
  }

  /**
   * Called before each top-level run: a tree that filled up is dropped and learned again, not at
   * once but `RUNS_BEFORE_RENEWAL` runs later, so data with more shapes than the tree holds
   * (small maps keyed by ids, say) does not spend every run rebuilding it. Returns whether it
   * was dropped.
   */
  renewIfFull(): boolean {
    if (!this.#full || ++this.#runsSinceFull < RUNS_BEFORE_RENEWAL) return false;
    this.#full = false;
    this.#runsSinceFull = 0;
    this.#count = 0;
    this.root.hot = null;
    this.root.children = null;
    return true;
  }

  /** The node of a key sequence, if the tree has it (for tests). */
  find(keys: readonly string[]): Node | undefined {
    let shape: Node | undefined = this.root;
    for (const key of keys) {
      shape = shape.hot?.key === key ? shape.hot : shape.children?.get(key);
      if (shape === undefined) return undefined;
    }
    return shape;
  }
}
