// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { globalExtensions } from "../_core/extensions.ts";
import type { ExtensionTable } from "../_core/registered_extensions.ts";
import { contextObject } from "../_core/context_object.ts";
import {
  ENCODER,
  type ResolvedOptions,
  resolveOptions,
  type Settings,
} from "../_core/option_table.ts";
import type { StructureEncoder } from "../_records/structures.ts";
import type { EncoderFeatures } from "./encoder.ts";

// What a pack needs from the encoder that runs it: the encoding options as given or their
// defaults (`_core/option_table.ts`), what the writer derives from them, and the extensions. The
// exported `pack` has one of its own, with no class around it and without the writer's features
// (records, bundles, reference ids, variable-size maps): none of its options asks for them, so a
// program that only packs ships none of their code. A `Packr`, and the streams' encoder, add them
// (`_encode/packer.ts`).

/** The fields the writer derives from the options, written again when an option is assigned. */
interface DerivedFlags {
  /** The `useRecords` function: records only for the objects it accepts. */
  recordsPredicate: ((value: object) => boolean) | null;
  /**
   * Objects that are not records get the smallest map header (`variableMapSize`,
   * `coercibleKeyAsNumber`, `skipValues`, `canonical`), else map16 with the count back-patched.
   */
  variableMap: boolean;
  /** Integers 0x40..0x7f as fixints (only when records are off: they are record ids). */
  fixintsTo0x7f: boolean;
  /** Bigints beyond 64 bits as the "B" extension (`useBigIntExtension`, or `moreTypes`). */
  bigIntExtension: boolean;
}

/** Everything a pack needs from the encoder that runs it. */
export interface EncodeContext extends ResolvedOptions<typeof ENCODER>, DerivedFlags {
  /** `this` for extension callbacks (the Packr). */
  readonly owner: object;
  extensions: ExtensionTable;
  /** The record structures; null when records are off (`useRecords: false`). */
  records: StructureEncoder | null;
  /** The writer's features that options ask for; null in the exported `pack`'s context. */
  features: EncoderFeatures | null;
}

function derive(settings: Settings): DerivedFlags {
  const useRecords = settings.useRecords;
  return {
    recordsPredicate: typeof useRecords === "function" ? useRecords : null,
    variableMap: !!(settings.variableMapSize || settings.coercibleKeyAsNumber ||
      settings.skipValues || settings.canonical),
    fixintsTo0x7f: useRecords === false,
    bigIntExtension: settings.useBigIntExtension === true || settings.moreTypes === true ||
      (settings.moreTypes === undefined && settings.structuredClone === true),
  };
}

/**
 * An encode context for `settings`, without records or features (the caller adds them), with
 * the global extensions; `owner` is `this` for extension callbacks.
 */
export function createEncodeContext(settings: Settings, owner: object): EncodeContext {
  return contextObject<EncodeContext>(resolveOptions(settings, ENCODER), {
    ...derive(settings),
    owner,
    extensions: globalExtensions,
    records: null,
    features: null,
  });
}

/** Writes the options of `settings` (one was assigned) into `context` again. */
export function applyEncodeSettings(context: EncodeContext, settings: Settings): void {
  Object.assign(context, resolveOptions(settings, ENCODER), derive(settings));
}
