// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { globalExtensions } from "../_core/extensions.ts";
import type { ExtensionTable } from "../_core/registered_extensions.ts";
import { contextObject } from "../_core/context_object.ts";
import {
  DECODER,
  type ResolvedOptions,
  resolveOptions,
  type Settings,
} from "../_core/option_table.ts";
import type { RecordTable } from "../_records/table.ts";
import type { timestampOfPayload } from "../_core/timestamp.ts";
import { disabledExtensionsOf } from "./extension_policy.ts";
import { createRecordTable, installOptionReaders } from "./decoder.ts";

// What a decode needs from the decoder that runs it: the decoding options as given or their
// defaults (`_core/option_table.ts`), what the reader derives from them, the record table and the
// extensions. An `Unpackr` (or a `Packr`'s decoding half, or a stream) makes one with
// `createDecodeContext`; the exported `unpack` has its own, with no class around it and no
// options (`_decode/unpack.ts`), so the readers that only options reach are installed here.

installOptionReaders();

/** How 64-bit integers decode: 0 bigint, 1 number, 2 string, 3 auto. */
export type Int64Mode = 0 | 1 | 2 | 3;

const INT64_MODES: Record<string, Int64Mode> = { bigint: 0, number: 1, string: 2, auto: 3 };

/** The fields the reader derives from the options, written again when an option is assigned. */
interface DerivedFlags {
  /** `int64AsType` as the reader switches on it. */
  int64: Int64Mode;
  /** `useFloat32` is `DECIMAL_ROUND` or `DECIMAL_FIT`: float32 values are rounded. */
  roundFloat32: boolean;
  /** `timestamps: "timestamp"`: timestamps decode by {@linkcode DecodeContext.readTimestamp}. */
  exactTimestamps: boolean;
  /**
   * Built-in extensions this decoder refuses (`structuredClone: false`, `plainDataOnly`), a bit
   * mask of `_decode/extension_policy.ts`; 0 for none.
   */
  disabledExtensions: number;
  /**
   * Inline definitions persist from one `unpack` to the next (`trusted`, or `sequential` without
   * `trusted: false`, for a decoder with a structure table); otherwise each `unpack` undoes its own
   * (docs/wire-format.md, "The decoder's structure table").
   */
  keepDefinitions: boolean;
  /**
   * `unpackMultiple` keeps definitions between calls (msgpackr: for a decoder with a structure
   * table: `structures`, `getStructures` or `sequential`).
   */
  persistInMultiple: boolean;
}

/** Everything a decode needs from the decoder that runs it. */
export interface DecodeContext extends ResolvedOptions<typeof DECODER>, DerivedFlags {
  readonly records: RecordTable;
  extensions: ExtensionTable;
  /**
   * How `timestamps: "timestamp"` decodes a timestamp payload into a `Timestamp`, given by the
   * decoders that take options (`Unpackr`, the streams), so that the exported `unpack` does not
   * ship the class; null in its context, which has no options.
   */
  readonly readTimestamp: typeof timestampOfPayload | null;
}

function derive(
  settings: Settings,
  records: RecordTable,
  readTimestamp: typeof timestampOfPayload | null,
): DerivedFlags {
  // msgpackr's deprecated `int64AsNumber` (an Unpackr turns it into `int64AsType` when made)
  const int64Type = settings.int64AsType ?? (settings.int64AsNumber ? "number" : "bigint");
  if (!Object.hasOwn(INT64_MODES, int64Type)) {
    throw new TypeError(`Unknown int64AsType "${int64Type}"`);
  }
  const timestamps = settings.timestamps ?? "date";
  if (timestamps !== "date" && (timestamps !== "timestamp" || readTimestamp === null)) {
    throw new TypeError(`Unknown timestamps "${timestamps}"`);
  }
  const sequential = settings.sequential === true;
  // msgpackr: only a decoder with a table keeps definitions, and `sequential` sets `trusted`
  // unless that is `false`
  const hasTable = records.shared !== null || records.getStructures !== null || sequential;
  return {
    int64: INT64_MODES[int64Type],
    exactTimestamps: timestamps === "timestamp",
    roundFloat32: (settings.useFloat32 ?? 0) > 2,
    disabledExtensions: disabledExtensionsOf(settings),
    keepDefinitions: hasTable && (!!settings.trusted || (sequential && settings.trusted !== false)),
    persistInMultiple: hasTable,
  };
}

/** The decode context of each `Unpackr` (and `Packr`), for the streams given one. */
const contexts = new WeakMap<object, DecodeContext>();

/** The decode context of `decoder`, an `Unpackr` (or `Packr`). */
export function decodeContextOf(decoder: object): DecodeContext {
  const context = contexts.get(decoder);
  if (context === undefined) throw new TypeError("Not an Unpackr");
  return context;
}

/**
 * A decode context for `settings`, with a record table of its own and the global extensions;
 * `owner` (an Unpackr) can then find it with {@linkcode decodeContextOf}. `readTimestamp` is how
 * `timestamps: "timestamp"` decodes (without it, that option is refused).
 */
export function createDecodeContext(
  settings: Settings,
  owner?: object,
  readTimestamp: typeof timestampOfPayload | null = null,
): DecodeContext {
  const records = createRecordTable(
    settings.structures ?? null,
    settings.getStructures ?? null,
    settings.freezeData === true,
  );
  const context = contextObject<DecodeContext>(resolveOptions(settings, DECODER), {
    ...derive(settings, records, readTimestamp),
    records,
    extensions: globalExtensions,
    readTimestamp,
  });
  if (owner !== undefined) contexts.set(owner, context);
  return context;
}

/** Writes the options of `settings` (one was assigned) into `context` again. */
export function applyDecodeSettings(context: DecodeContext, settings: Settings): void {
  const kept = context.keepDefinitions;
  Object.assign(
    context,
    resolveOptions(settings, DECODER),
    derive(settings, context.records, context.readTimestamp),
  );
  // a decoder made without `trusted` knows no definition of earlier messages (msgpackr trims its
  // table at the next `unpack`): those kept while it held are forgotten
  if (kept && !context.keepDefinitions) context.records.forgetDefinitions();
}
