// Copyright 2026 the @x/msgpackr authors. MIT license.
// Helpers for the records, shared structures, sequential and re-entrant tests: run the same
// sequence of packs through our Packr and msgpackr's, with the same options, and compare.

import * as msgpackr from "msgpackr";
import { pack, Packr, type PackrOptions, type Structure, unpack } from "../mod.ts";
import { TESTDATA_FILES } from "./_testdata_files.ts";
import { hex, readTestdata } from "./_util.ts";

export { TESTDATA_FILES };

/** Our options, typed for msgpackr (its `.d.ts` types are narrower than what it accepts). */
export function theirOptions(options: PackrOptions): msgpackr.Options {
  return options as unknown as msgpackr.Options;
}

/** msgpackr's live structures table of a Packr (not in its `.d.ts`). */
export function theirStructures(packr: msgpackr.Packr): Structure[] {
  return (packr as unknown as { structures: Structure[] }).structures;
}

/** Both encoders, built from the same options (a factory: msgpackr mutates its options). */
export interface PackrPair {
  ours: Packr;
  theirs: msgpackr.Packr;
}

/** Builds our Packr and msgpackr's from fresh copies of the same options. */
export function packrPair(makeOptions: () => PackrOptions = () => ({})): PackrPair {
  return {
    ours: new Packr(makeOptions()),
    theirs: new msgpackr.Packr(theirOptions(makeOptions())),
  };
}

/** One pack call of a sequence: the value and both encoders' bytes. */
export interface PackedStep {
  value: unknown;
  ours: Uint8Array;
  theirs: Uint8Array;
}

/** Feeds both encoders the same values, one `pack` call each, in order. */
export function packBoth(pair: PackrPair, values: readonly unknown[]): PackedStep[] {
  return values.map((value) => ({
    value,
    ours: pair.ours.pack(value),
    theirs: new Uint8Array(pair.theirs.pack(value)),
  }));
}

/** The steps' bytes as hex, ours and msgpackr's, for one `assert.deepEqual`. */
export function hexSteps(steps: readonly PackedStep[]): { ours: string[]; theirs: string[] } {
  return {
    ours: steps.map((step) => hex(step.ours)),
    theirs: steps.map((step) => hex(step.theirs)),
  };
}

/** Key arrays as plain arrays (drops msgpackr's extra properties on the table). */
export function plainStructures(structures: readonly unknown[]): string[][] {
  return Array.from(structures, (keys) => Array.from(keys as string[]));
}

/** A fresh deep copy of a structures table, for a decoder that must not share the encoder's. */
export function copyStructures(structures: readonly unknown[]): Structure[] {
  return plainStructures(structures);
}

/** `count` objects, each of a distinct shape: `{ <prefix>i: i, x: "v<i>" }`. */
export function distinctShapes(count: number, prefix = "k", offset = 0): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => ({ [prefix + (i + offset)]: i, x: `v${i}` }));
}

/** Every testdata payload, parsed, by file name. */
export async function allBenchData(): Promise<Map<string, unknown>> {
  const entries = await Promise.all(
    TESTDATA_FILES.map(async (name) => [name, await readTestdata(name)] as const),
  );
  return new Map(entries);
}

/**
 * A shared-structures "file" in memory: the table is stored as MessagePack bytes, so every load
 * returns a fresh array, as reading a real file would. Counts loads and saves.
 */
export class StructureStore {
  #file: Uint8Array | null = null;
  /** Bumped at every successful save. */
  version = 0;
  loads = 0;
  saves = 0;
  declined = 0;

  /** The stored table, or `undefined` when nothing was saved yet. */
  load(): Structure[] | undefined {
    this.loads++;
    return this.#file === null ? undefined : unpack(this.#file) as Structure[];
  }

  /** The stored table without counting a load (for assertions). */
  peek(): Structure[] {
    return this.#file === null ? [] : unpack(this.#file) as Structure[];
  }

  /** Replaces the stored table. */
  save(structures: readonly Structure[]): void {
    this.saves++;
    this.version++;
    this.#file = pack(plainStructures(structures));
  }
}

/**
 * Options of a Packr persisting to `store` with the documented handshake: inside the "transaction"
 * read the stored table, ask `isCompatible`, and decline (`false`) when another process saved
 * meanwhile.
 */
export function storeOptions(store: StructureStore, extra: PackrOptions = {}): PackrOptions {
  return {
    ...extra,
    getStructures: () => store.load(),
    saveStructures: (structures, isCompatible) => {
      const existing = store.load();
      if (!isCompatible(existing)) {
        store.declined++;
        return false;
      }
      store.save(structures);
    },
  };
}
