// Copyright 2026 the @x/msgpackr authors. MIT license.
// Run by bounded_caches_test.ts in a fresh process, so that the process-wide caches start empty
// and the heap holds nothing of other tests. Usage: <deno run -A | bun> _cache_probe.ts [decodes]
//
// Well-behaved decoders read their usual payloads (records with inline and with shared
// structures, plain maps; with generated readers, and with the interpreted reader), then hostile
// decoders read `decodes` messages (10,000 by default), each full of record shapes and map key
// sets never seen before, and long keys, then the well-behaved decoders, and new ones, read their
// payloads again. Prints one JSON line: the sizes of the caches, the heap after each phase, the
// reader each well-behaved decoder reads its records and maps with, and whether every decode
// gave what was packed.

import process from "node:process";
import { pack, Packr, type Structure, unpack, Unpackr } from "../../mod.ts";
import { decodeContextOf } from "../../_decode/context.ts";
import { objectShapes } from "../../_encode/encoder.ts";
import { codeCacheSize } from "../../_core/code_cache.ts";
import { builderPoolState } from "../../_records/builder_pool.ts";
import { RECORD_BUILDERS } from "../../_records/builders.ts";
import { mapShapes } from "../../_records/map_shapes.ts";
import type { ObjectBuilder } from "../../_records/reader.ts";
import { heapBytes } from "../../fuzz/_fuzz.ts";
import { collectGarbage, compilingLoadMessage, LONG_KEY, poolingLoadMessage } from "../_hostile.ts";

const decodes = Number(process.argv[2] ?? 10_000);

/** How a record type or a map shape builds its objects. */
function kindOf(reader: (() => unknown) | null | undefined): string {
  if (reader === null || reader === undefined) return "none";
  if (/^read\d+$/.test(reader.name)) return "generated";
  if (RECORD_BUILDERS.includes(reader as () => Record<string, unknown>)) return "pooled";
  return "loop";
}

let mismatches = 0;
function check(decoded: unknown, expected: unknown): void {
  if (JSON.stringify(decoded) !== JSON.stringify(expected)) mismatches++;
}

// ---- the well-behaved side ---------------------------------------------------------------------

/** A service's usual message: rows of two record shapes, with nested plain maps. */
function usualPayload(prefix: string): unknown {
  return Array.from(
    { length: 40 },
    (_, i) =>
      i % 4 === 0 ? { [`${prefix}Id`]: i, [`${prefix}Kind`]: "note", text: `note ${i}` } : {
        [`${prefix}Id`]: i,
        [`${prefix}Name`]: `row ${i}`,
        [`${prefix}Score`]: i * 1.5,
        [`${prefix}Meta`]: { [`${prefix}Created`]: 1700000000 + i, [`${prefix}Tags`]: ["a"] },
      },
  );
}
const ROW_KEYS = (prefix: string) => [
  `${prefix}Id`,
  `${prefix}Name`,
  `${prefix}Score`,
  `${prefix}Meta`,
];
const META_KEYS = (prefix: string) => [`${prefix}Created`, `${prefix}Tags`];

/** A decoder of one kind and the payload it reads, with the readers it ends up with. */
class Client {
  readonly unpackr: Unpackr;
  readonly #inline: Uint8Array;
  readonly #shared: Uint8Array;
  readonly #maps: Uint8Array;
  readonly #sharedUnpackr: Unpackr;
  readonly #value: unknown;
  readonly #prefix: string;

  constructor(prefix: string, compileRecordReaders: boolean) {
    this.#prefix = prefix;
    this.#value = usualPayload(prefix);
    const structures: Structure[] = [];
    this.#inline = new Packr().pack(this.#value);
    this.#shared = new Packr({ structures }).pack(this.#value);
    this.#maps = pack(this.#value);
    this.unpackr = new Unpackr({ compileRecordReaders, mapsAsObjects: true });
    this.#sharedUnpackr = new Unpackr({ compileRecordReaders, structures });
  }

  /** Reads each payload `times` times. */
  read(times: number): void {
    for (let i = 0; i < times; i++) {
      check(this.unpackr.unpack(this.#inline), this.#value);
      check(this.#sharedUnpackr.unpack(this.#shared), this.#value);
      check(this.unpackr.unpack(this.#maps), this.#value);
    }
  }

  /** The readers of its row shape: inline and shared records, and plain maps. */
  readers(): { inline: string; shared: string; map: string; nestedMap: string } {
    const rowKeys = ROW_KEYS(this.#prefix);
    const records = decodeContextOf(this.unpackr).records;
    let inline: ObjectBuilder | undefined;
    for (let slot = 0; slot < 64 && inline === undefined; slot++) {
      inline = records.previousDefinition(slot, rowKeys, false)?.read;
    }
    const sharedTypes = decodeContextOf(this.#sharedUnpackr).records.types;
    const shared = sharedTypes.find((type) => type?.keys?.join() === rowKeys.join())?.read;
    return {
      inline: kindOf(inline),
      shared: kindOf(shared),
      map: kindOf(mapShapes.find(rowKeys)?.build),
      nestedMap: kindOf(mapShapes.find(META_KEYS(this.#prefix))?.build),
    };
  }
}

// ---- the run -----------------------------------------------------------------------------------

function heap(): number {
  collectGarbage();
  collectGarbage();
  return heapBytes();
}

const generating = new Client("gen", true);
const interpreted = new Client("int", false);
generating.read(80);
interpreted.read(80);
const before = { generating: generating.readers(), interpreted: interpreted.readers() };
const heapBefore = heap();

// one decoder per kind, as a server decodes every request with one
const hostileGenerating = new Unpackr({ mapsAsObjects: true });
const hostileInterpreted = new Unpackr({ mapsAsObjects: true, compileRecordReaders: false });
const hostilePackr = new Packr();
let heapMidway = 0;
for (let n = 0; n < decodes; n++) {
  const [decoder, bytes] = n % 2 === 0
    ? [hostileGenerating, compilingLoadMessage(n, hostilePackr)]
    : [hostileInterpreted, poolingLoadMessage(n, hostilePackr)];
  decoder.unpackMultiple(bytes);
  if (n === decodes >> 2) heapMidway = heap();
}
const heapAfterLoad = heap();
const caches = {
  compiled: codeCacheSize(),
  mapShapes: mapShapes.size,
  objectShapes: objectShapes.size,
  pooledShapes: builderPoolState().shapes,
  loans: builderPoolState().loans,
  longKeyNodes: [
    mapShapes.find([`${LONG_KEY}${decodes - 2}`]),
    objectShapes.find([`${LONG_KEY}${decodes - 2}`]),
  ]
    .filter((node) => node !== undefined).length,
};

// the well-behaved decoders again, and new ones (trees and pool renew 64 decodes after filling)
generating.read(80);
interpreted.read(80);
// with shapes first seen now
const newGenerating = new Client("late", true);
const newInterpreted = new Client("lateInt", false);
newGenerating.read(80);
newInterpreted.read(80);
const after = {
  generating: generating.readers(),
  interpreted: interpreted.readers(),
  newGenerating: newGenerating.readers(),
  newInterpreted: newInterpreted.readers(),
};
check(unpack(pack({ ok: true })), { ok: true });

console.log(JSON.stringify({
  decodes,
  mismatches,
  caches,
  heap: { before: heapBefore, midway: heapMidway, afterLoad: heapAfterLoad },
  before,
  after,
}));
