// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import type { Structure } from "../_core/options.ts";
import type { RecordType } from "./reader.ts";

/**
 * Sets `sharedLength` on a shared structures table, as msgpackr keeps it on its arrays (code
 * written for msgpackr reads it): the number of shared structures, which here is the whole
 * table. Not enumerable, so the table still compares equal to a plain array of the same keys; a
 * frozen table is left alone.
 */
export function markSharedLength(table: Structure[]): void {
  if (!Object.isExtensible(table)) return;
  Object.defineProperty(table, "sharedLength", {
    value: table.length,
    writable: true,
    configurable: true,
  });
}

/** Creates a record type for a slot (the decoder supplies its value reader). */
export type RecordTypeFactory = (
  keys: readonly string[] | null,
  twoByte: boolean,
  shared: boolean,
) => RecordType;

/**
 * The record structures one decoder knows, by slot (record id − 0x40; two-byte ids reach slots
 * 64..8191). Shared structures come from the `structures` array (read live, so a Packr appending
 * to it is seen) or from `getStructures`, loaded lazily; their types are cached here. Inline
 * definitions overwrite slots and are logged, so that a message's definitions can be undone at
 * its end (non-sequential), after a failed read (so a retried read sees the old table), or at the
 * end of a nested decode. Undoing also restores any shared slot a message redefined, which
 * msgpackr forgets to do for the `structures` option (docs/wire-format.md, "The decoder's
 * structure table").
 */
export class RecordTable {
  /** Record type per slot; `undefined` = not known yet (may still be shared, see `resolve`). */
  types: (RecordType | undefined)[] = [];
  /** The shared structures: the caller's `structures` array, or what `getStructures` returned. */
  shared: Structure[] | null;
  /** Loads shared structures; called at most once per top-level decode when a slot misses. */
  readonly getStructures: (() => Structure[] | undefined | null) | null;
  /** Whether `getStructures` was already tried during the current top-level decode. */
  triedLoading = false;
  /** Decodes of this instance in progress (more than one: a nested decode of this instance). */
  decodes = 0;
  readonly #createType: RecordTypeFactory;
  #syncedShared: Structure[] | null = null;
  #syncedLength = 0;
  #undoSlots: number[] = [];
  /** The last type defined inline per slot (kept after undo, for `previousDefinition`). */
  #lastDefined: (RecordType | undefined)[] = [];
  #undoTypes: (RecordType | undefined)[] = [];
  /**
   * Per slot, the index of its newest undo entry: valid while it is below the log's length and
   * the entry there names the slot.
   */
  #loggedAt: number[] = [];
  /**
   * The log's length at the newest `mark` (lowered by a rollback below it, cleared by `commit`).
   * A slot logged at or after it needs no second entry: undoing to any mark taken so far lands on
   * what the first entry restores. So a value that redefines a slot again and again (thousands of
   * shapes through 64 slots) logs each slot once, and the types it replaces are not kept.
   */
  #markedAt = 0;

  constructor(
    shared: Structure[] | null,
    getStructures: (() => Structure[] | undefined | null) | null,
    createType: RecordTypeFactory,
  ) {
    this.shared = shared;
    if (shared !== null) markSharedLength(shared);
    this.getStructures = getStructures;
    this.#createType = createType;
  }

  /** Entries of the undo log (for tests: at most one per slot between two marks). */
  get undoEntries(): number {
    return this.#undoSlots.length;
  }

  /** Number of logged definitions; pass it to `rollback` to undo everything after this point. */
  mark(): number {
    return this.#markedAt = this.#undoSlots.length;
  }

  /** Forgets the undo log: the definitions made so far stay (sequential mode). */
  commit(): void {
    // called after every value of a stream: truncating an empty array is not free in V8
    if (this.#undoSlots.length === 0) return;
    this.#undoSlots.length = 0;
    this.#undoTypes.length = 0;
    this.#markedAt = 0;
  }

  /** Forgets the structures defined inline: each slot holds its shared structure, if any, again. */
  forgetDefinitions(): void {
    dropTypes(this.types, false);
  }

  /** Undoes the definitions logged after `mark`, newest first. */
  rollback(mark: number): void {
    if (this.#markedAt > mark) this.#markedAt = mark;
    const slots = this.#undoSlots;
    if (slots.length === mark) return;
    const types = this.#undoTypes;
    for (let i = slots.length - 1; i >= mark; i--) this.types[slots[i]] = types[i];
    slots.length = mark;
    types.length = mark;
  }

  /**
   * Drops cached shared types when the shared array was replaced or changed length since the last
   * decode (a Packr sharing the array appended to it). Called at the start of a top-level decode.
   */
  syncShared(): void {
    const shared = this.shared;
    const length = shared === null ? 0 : shared.length;
    if (shared === this.#syncedShared && length === this.#syncedLength) return;
    this.#syncedShared = shared;
    this.#syncedLength = length;
    dropTypes(this.types, true);
  }

  /** Installs structures loaded by `getStructures` (or merged by a Packr) as the shared table. */
  replaceShared(structures: Structure[]): void {
    markSharedLength(structures);
    this.shared = structures;
    this.#syncedShared = null;
    this.syncShared();
    // a slot this message redefined keeps its definition; undoing it now lands on the new table
    dropTypes(this.#undoTypes, true);
  }

  /**
   * The type for a slot that holds none yet: a shared structure (cached), a two-byte dispatcher
   * for slots 32..63 when more than 32 structures are shared (every shared slot ≥ 32 uses two-byte
   * ids, including those given directly as `structures`; docs/wire-format.md, "Two-byte ids"), or
   * `undefined`.
   */
  resolve(slot: number): RecordType | undefined {
    const shared = this.shared;
    if (shared === null) return undefined;
    const keys = shared[slot];
    const twoByte = slot >= 32 && slot < 64 && shared.length > 32;
    if (keys == null ? !twoByte : !Array.isArray(keys)) return undefined;
    const type = this.#createType(keys ?? null, twoByte, true);
    this.types[slot] = type;
    return type;
  }

  /**
   * The type last defined inline at `slot` when it has exactly these keys, else `undefined`.
   * Messages that each define the same shape (every non-sequential message does) then reuse one
   * type, and its generated reader, instead of building a new one per message.
   */
  previousDefinition(
    slot: number,
    keys: readonly unknown[],
    twoByte: boolean,
  ): RecordType | undefined {
    const previous = this.#lastDefined[slot];
    if (previous === undefined || previous.twoByte !== twoByte) return undefined;
    const known = previous.keys!;
    if (known.length !== keys.length) return undefined;
    for (let i = 0; i < keys.length; i++) if (known[i] !== keys[i]) return undefined;
    return previous;
  }

  /** Defines a structure inline at `slot` (logged): a new type, or the one given. */
  define(slot: number, keys: readonly string[], twoByte: boolean, reuse?: RecordType): RecordType {
    const type = reuse ?? this.#createType(keys, twoByte, false);
    this.#lastDefined[slot] = type;
    this.#set(slot, type);
    return type;
  }

  /**
   * Makes slot `dispatchSlot` (32..63) read a high byte, so references to a two-byte definition
   * at a higher slot resolve even when nothing else lives there (fixes msgpackr's second
   * two-byte bug; docs/wire-format.md, "Two-byte ids").
   */
  ensureDispatcher(dispatchSlot: number): void {
    const existing = this.types[dispatchSlot] ?? this.resolve(dispatchSlot);
    if (existing === undefined) this.#set(dispatchSlot, this.#createType(null, true, false));
  }

  #set(slot: number, type: RecordType): void {
    const slots = this.#undoSlots;
    const at = this.#loggedAt[slot];
    if (at === undefined || at < this.#markedAt || at >= slots.length || slots[at] !== slot) {
      this.#loggedAt[slot] = slots.length;
      slots.push(slot);
      this.#undoTypes.push(this.types[slot]);
    }
    this.types[slot] = type;
  }
}

/** Empties the entries of `types` that are shared (`shared`) or defined inline (not). */
function dropTypes(types: (RecordType | undefined)[], shared: boolean): void {
  for (let i = 0; i < types.length; i++) if (types[i]?.shared === shared) types[i] = undefined;
}
