// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The encoder's record structures (docs/wire-format.md, "Choosing ids" and "Shared structures"):
// which object shapes have record ids, which ids are shared, when a new shape becomes shared or
// gets an inline ("own") id, how ids are reused, and the save/reload protocol for shared
// structures. This module decides ids; the encoder writes the bytes. Shapes are the nodes of a
// tree of key sequences of the Packr's own (`_records/shape_tree.ts`, unbounded), of the encoder's
// node type, which keeps a shape's record id.

import type { IsCompatible, Structure } from "../_core/options.ts";
import type { ENCODER, ResolvedOptions } from "../_core/option_table.ts";
import { markSharedLength } from "./table.ts";
import { ShapeTree } from "./shape_tree.ts";
import { TRANSITIONS_BEFORE_REBUILD } from "../_core/thresholds.ts";
import { createKeyShape, type KeyShape } from "../_encode/encoder.ts";

/**
 * State kept around a nested `pack` of the same Packr (docs/wire-format.md, "Packs inside
 * packs").
 */
export interface NestedSave {
  nextId: number;
  nextOwnId: number | undefined;
  ownQueue: KeyShape[];
  ownIds: number[];
  hiddenShared: [KeyShape, number][];
  transitionsCount: number;
  pendingLength: number;
}

/** The options a {@linkcode StructureEncoder} reads, each as given or its default. */
export type StructureOptions = Pick<
  ResolvedOptions<typeof ENCODER>,
  | "structures"
  | "getStructures"
  | "saveStructures"
  | "shouldShareStructure"
  | "sequential"
  | "maxSharedStructures"
  | "maxOwnStructures"
>;

/** Per-Packr record structure state and policy. */
export class StructureEncoder {
  readonly maxShared: number;
  readonly maxOwn: number;
  readonly sharedLimitId: number;
  readonly maxStructureId: number;
  readonly twoByte: boolean;
  readonly sequential: boolean;
  readonly shouldShare: ((keys: Structure) => boolean) | null;
  readonly saveStructures: ((s: Structure[], c: IsCompatible) => boolean | void) | null;
  readonly getStructures: (() => Structure[] | undefined | null) | null;
  /** Called when the shared table is replaced (reload, merge) so the decoder side follows. */
  readonly onReplaced: (shared: Structure[]) => void;

  /** The live shared table: the caller's `structures` array, or a loaded or internal one. */
  shared: Structure[];
  /** `getStructures` must be called before the next pack. */
  uninitialized: boolean;
  /** The shapes met so far; `null` = rebuild before use. */
  shapes: ShapeTree<KeyShape> | null = null;
  /** Shared structures the tree knows; more in `shared` means another Packr appended some. */
  treeSharedLength = 0;
  /** Next id to hand out: shared ids below `sharedLimitId`, then own ids. */
  nextId = 0x40;
  /** Next own id for shapes kept out of the shared table. */
  nextOwnId: number | undefined = undefined;
  /** Nodes holding own ids, oldest first; the oldest loses its id when the queue is full. */
  ownQueue: KeyShape[] = [];
  /** Length of the shared table when it was last loaded or saved. */
  lastSavedLength = 0;
  transitionsCount = 0;
  serializationsSinceRebuild = 0;
  /** This pack made new shared structures, to be saved. */
  hasSharedUpdate = false;
  /** Depth of nested packs of this Packr. */
  reentrantDepth = 0;
  /** Shapes first seen in nested packs, promoted to shared after the outermost pack. */
  pending: Structure[] | null = null;
  /** A pack of this Packr is running. */
  packing = false;

  /**
   * @param options The encoder's options, each as given or its default (`_core/option_table.ts`).
   * @param table The shared table to start from.
   * @param onReplaced Called when the shared table is replaced.
   */
  constructor(
    options: StructureOptions,
    table: Structure[],
    onReplaced: (shared: Structure[]) => void,
  ) {
    this.sequential = options.sequential;
    const maxShared = this.maxShared = options.maxSharedStructures;
    if (maxShared > 8160) throw new RangeError("Maximum maxSharedStructure is 8160");
    const maxOwn = this.maxOwn = options.maxOwnStructures;
    this.twoByte = maxShared > 32 || maxOwn + maxShared > 64;
    this.sharedLimitId = maxShared + 0x40;
    this.maxStructureId = maxShared + maxOwn + 0x40;
    if (this.maxStructureId > 8256) {
      throw new RangeError("Maximum maxSharedStructure + maxOwnStructure is 8192");
    }
    this.shouldShare = options.shouldShareStructure ?? null;
    this.saveStructures = options.saveStructures ?? null;
    this.getStructures = options.getStructures ?? null;
    this.onReplaced = onReplaced;
    this.shared = table;
    markSharedLength(table);
    this.uninitialized = !options.structures && this.getStructures !== null;
    this.lastSavedLength = table.length;
  }

  /** Replaces the shared table (loaded, or merged from `isCompatible`). */
  replaceShared(loaded: Structure[] | undefined | null): void {
    let table = loaded ?? [];
    if (Object.isFrozen(table)) table = table.map((keys) => keys.slice());
    this.shared = table;
    markSharedLength(table);
    this.uninitialized = false;
    this.shapes = null;
    this.onReplaced(table);
  }

  /** Readies the state at the start of a pack (outermost or nested). */
  beginPack(): void {
    if (this.uninitialized) this.replaceShared(this.getStructures!());
    const sharedLength = this.shared.length;
    if (sharedLength > this.maxShared) {
      throw new RangeError(
        `Shared structures is larger than maximum shared structures, try increasing maxSharedStructures to ${sharedLength}`,
      );
    }
    if (this.shapes === null || sharedLength < this.treeSharedLength) {
      const nestedWithSave = this.reentrantDepth && this.saveStructures;
      this.rebuildTree(
        nestedWithSave ? Math.min(sharedLength, this.lastSavedLength) : sharedLength,
      );
      if (!this.reentrantDepth) this.lastSavedLength = sharedLength;
    } else if (sharedLength > this.treeSharedLength) {
      // another Packr sharing this array appended shapes: learn them
      this.#learn(this.treeSharedLength, sharedLength);
      if (!this.reentrantDepth) this.lastSavedLength = sharedLength;
    }
    this.#resetNextId(sharedLength);
    if (!this.reentrantDepth) {
      this.hasSharedUpdate = false;
      this.pending = null;
    }
  }

  /** Rebuilds the tree from the first `count` shared structures. */
  rebuildTree(count: number): void {
    this.shapes = new ShapeTree(createKeyShape, false);
    this.#learn(0, count);
  }

  /** Enters shared structures `from`..`to` into the tree. */
  #learn(from: number, to: number): void {
    for (let i = from; i < to; i++) if (this.shared[i]) this.#place(this.shared[i], i + 0x40, true);
    this.treeSharedLength = to;
  }

  /** Gives the node of `keys` the id `recordId`, unless it has one and `always` is false. */
  #place(keys: Structure, recordId: number, always: boolean): KeyShape | null {
    const node = this.nodeFor(keys);
    if (node.recordId && !always) return null;
    node.recordId = recordId;
    node.keys = keys;
    return node;
  }

  /** The next id after `sharedLength` shared ones; sequential mode keeps a higher one. */
  #resetNextId(sharedLength: number): void {
    const first = sharedLength + 0x40;
    this.nextId = this.sequential ? Math.max(this.nextId, first) : first;
  }

  /** The node of a key sequence, made as needed (in a tree there is: a pack has begun). */
  nodeFor(keys: readonly string[]): KeyShape {
    const shapes = this.shapes!;
    let node = shapes.root;
    for (const key of keys) node = shapes.step(node, key)!; // unbounded: always a node
    return node;
  }

  /**
   * Decides the id of a new shape reached at `node` (docs/wire-format.md, "Choosing ids"): shared
   * while there is room and the shape may be shared, else an own id (reused in a cycle). Returns
   * the id, or 0 to write the object as a plain map. Records the decision in the tree and the
   * tables.
   */
  allocate(node: KeyShape, keys: Structure, newNodes: number): number {
    let recordId = this.nextId || 0x40;
    const nestedWithSave = this.reentrantDepth > 0 && this.saveStructures !== null;
    const rejected = this.shouldShare !== null && !this.shouldShare(keys);
    if (recordId < this.sharedLimitId && (nestedWithSave || rejected)) {
      if (nestedWithSave && !rejected) (this.pending ??= []).push(keys);
      if (!this.maxOwn) return 0;
      // the first own id (or one past the last) wraps to the start of the own range
      recordId = this.nextOwnId ?? this.maxStructureId;
      if (!(recordId < this.maxStructureId)) recordId = this.sharedLimitId;
      this.nextOwnId = recordId + 1;
    } else {
      if (recordId >= this.maxStructureId) {
        if (!this.maxOwn) return 0;
        recordId = this.sharedLimitId;
      }
      this.nextId = recordId + 1;
    }
    node.recordId = recordId;
    node.keys = keys;
    if (recordId < this.sharedLimitId) {
      this.shared[recordId - 0x40] = keys;
      markSharedLength(this.shared);
      this.treeSharedLength = this.shared.length;
      this.hasSharedUpdate = true;
    } else {
      if (newNodes) this.transitionsCount += this.serializationsSinceRebuild * newNodes;
      if (this.ownQueue.length >= this.maxOwn) this.ownQueue.shift()!.recordId = 0;
      this.ownQueue.push(node);
    }
    return recordId;
  }

  /** After a pack: forget own ids (non-sequential), rebuild the tree now and then (msgpackr's). */
  endPack(): void {
    if (this.serializationsSinceRebuild < 10) this.serializationsSinceRebuild++;
    if (this.transitionsCount > TRANSITIONS_BEFORE_REBUILD && !this.reentrantDepth) {
      this.shapes = null;
      this.serializationsSinceRebuild = 0;
      this.transitionsCount = 0;
      this.ownQueue = [];
    } else if (this.ownQueue.length > 0 && !this.sequential) {
      for (const node of this.ownQueue) node.recordId = 0;
      this.ownQueue = [];
    }
  }

  /**
   * After the outermost pack without error: promotes shapes first seen in nested packs to shared
   * (docs/wire-format.md, "Packs inside packs"), within `maxShared` and `shouldShare`.
   */
  promotePending(): void {
    const toPromote = this.pending;
    this.pending = null;
    if (toPromote === null || this.saveStructures === null) return;
    let sharedLength = this.shared.length;
    if (this.shapes === null) this.rebuildTree(sharedLength);
    for (let i = 0; i < toPromote.length && sharedLength < this.maxShared; i++) {
      const keys = toPromote[i];
      if (this.#place(keys, sharedLength + 0x40, false) === null) continue;
      this.shared[sharedLength++] = keys;
      this.hasSharedUpdate = true;
    }
    markSharedLength(this.shared);
    this.treeSharedLength = sharedLength;
    this.#resetNextId(sharedLength);
  }

  /**
   * `isCompatible` for `saveStructures` (docs/wire-format.md, "Saving and reloading"): merges a
   * newer stored table when it differs.
   */
  isCompatible: IsCompatible = (existing) => {
    const compatible = !existing || this.lastSavedLength === existing.length;
    if (!compatible) this.replaceShared(existing);
    return compatible;
  };

  /** The save failed (threw): roll the shared table back to what was last saved. */
  rollbackShared(): void {
    if (this.getStructures) this.uninitialized = true;
    this.shared.length = this.lastSavedLength;
    markSharedLength(this.shared);
    this.shapes = null;
  }

  /**
   * Before a nested pack of this Packr: hide own ids and unsaved shared ids (docs/wire-format.md,
   * "Packs inside packs").
   */
  saveForNested(): NestedSave {
    const saved: NestedSave = {
      nextId: this.nextId,
      nextOwnId: this.nextOwnId,
      ownQueue: this.ownQueue,
      ownIds: this.ownQueue.map((node) => node.recordId),
      hiddenShared: [],
      transitionsCount: this.transitionsCount,
      pendingLength: this.pending?.length ?? 0,
    };
    for (const node of this.ownQueue) node.recordId = 0;
    this.ownQueue = [];
    if (this.hasSharedUpdate && this.saveStructures && this.shapes) {
      // shared shapes the outer pack made so far are not saved yet: the nested buffer must not
      // reference them
      for (let i = this.lastSavedLength; i < this.shared.length; i++) {
        const node = this.shared[i] && this.nodeFor(this.shared[i]);
        if (node?.recordId === i + 0x40) {
          saved.hiddenShared.push([node, i + 0x40]);
          node.recordId = 0;
        }
      }
    }
    this.nextId = this.shared.length + 0x40;
    this.nextOwnId = undefined;
    this.transitionsCount = 0;
    this.reentrantDepth++;
    return saved;
  }

  /** After a nested pack: give the outer pack its ids back. */
  restoreAfterNested(saved: NestedSave, succeeded: boolean): void {
    this.reentrantDepth--;
    if (!succeeded && this.pending) this.pending.length = saved.pendingLength;
    for (const node of this.ownQueue) node.recordId = 0;
    if (this.shapes !== null) {
      for (const [node, id] of saved.hiddenShared) node.recordId = id;
      for (let i = 0; i < saved.ownQueue.length; i++) {
        const node = saved.ownQueue[i];
        if (!node.recordId) node.recordId = saved.ownIds[i];
      }
    } else {
      // the nested pack rebuilt the tree: re-enter the outer pack's own shapes
      this.rebuildTree(this.shared.length);
      for (let i = 0; i < saved.ownQueue.length; i++) {
        const keys = saved.ownQueue[i].keys;
        const node = keys && this.#place(keys, saved.ownIds[i], false);
        if (node) saved.ownQueue[i] = node;
      }
    }
    this.ownQueue = saved.ownQueue;
    this.nextId = Math.max(saved.nextId, this.shared.length + 0x40);
    this.nextOwnId = saved.nextOwnId;
    this.transitionsCount += saved.transitionsCount;
  }
}
