// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import type { ConstructionOption, PackrOptions } from "./options.ts";

// The one table of options: for each option of `PackrOptions` (which holds the decoding ones of
// `UnpackrOptions` too), which side reads it, whether it may be assigned after construction, and
// its default. It drives the decode and encode contexts (`resolveOptions`: each option of a side,
// as given or its default), the accessors of `Unpackr` and `Packr` (`defineOptionAccessors`) and
// the documented defaults (tests/options_table_test.ts compares each `@default` of
// `_core/options.ts` with this table). A new option is a field of the option types and a row
// here; `deno check` fails on one without the other.

// The flags of a row. DECODER: read by decoders (it shapes a `DecodeContext`, and an `Unpackr`
// has its accessor). ENCODER: read by encoders (an `EncodeContext`, a `Packr`'s accessor). LIVE:
// may be assigned to an instance after construction (`packr.useFloat32 = 1`, as msgpackr code
// does), and the instance's contexts are resolved again; without it the option is read at
// construction only, and assigning it throws. The combinations are constants of their own, so
// that the row types keep them and the types below can tell the sides apart.

/** Read by decoders. */
export const DECODER = 1;
/** Read by encoders. */
export const ENCODER = 2;
/** Assignable after construction. */
export const LIVE = 4;
const BOTH = 3;
const DECODER_LIVE = 5;
const ENCODER_LIVE = 6;
const BOTH_LIVE = 7;

/** The options as given to a constructor, and as assigned to the instance since. */
export type Settings = Readonly<Record<string, unknown>> & PackrOptions;

/**
 * The row an option must have: `LIVE` exactly when it is not a `ConstructionOption`, so the
 * table and the documented read-only options agree (`deno check` fails otherwise).
 */
type RowOf<Name extends keyof PackrOptions> = Name extends ConstructionOption
  ? readonly [typeof DECODER | typeof ENCODER | typeof BOTH, unknown?]
  : readonly [typeof DECODER_LIVE | typeof ENCODER_LIVE | typeof BOTH_LIVE, unknown?];

const hasSharedStructures = (settings: Settings): boolean =>
  !!(settings.structures || settings.saveStructures || settings.getStructures);

/** Every option, in the order the contexts hold them. */
export const OPTIONS = {
  useRecords: [BOTH],
  mapsAsObjects: [DECODER_LIVE, (settings: Settings): boolean => settings.useRecords === false],
  structures: [BOTH],
  getStructures: [BOTH],
  sequential: [BOTH, false],
  trusted: [DECODER_LIVE, false],
  maxSharedStructures: [
    BOTH,
    (settings: Settings): number => hasSharedStructures(settings) ? 32 : 0,
  ],
  useFloat32: [BOTH_LIVE, 0],
  int64AsType: [DECODER_LIVE, "bigint"],
  timestamps: [DECODER_LIVE, "date"],
  int64AsNumber: [DECODER, false],
  copyBuffers: [DECODER_LIVE, false],
  structuredClone: [BOTH_LIVE],
  plainDataOnly: [DECODER_LIVE, false],
  moreTypes: [ENCODER_LIVE, (settings: Settings): boolean => settings.structuredClone === true],
  bundleStrings: [ENCODER_LIVE, false],
  freezeData: [DECODER, false],
  allowArraysInMapKeys: [DECODER_LIVE, false],
  fatal: [DECODER_LIVE, false],
  maxDepth: [BOTH_LIVE, 1000],
  compileRecordReaders: [DECODER, true],
  saveStructures: [ENCODER],
  shouldShareStructure: [ENCODER],
  maxOwnStructures: [
    ENCODER,
    (settings: Settings): number => hasSharedStructures(settings) || settings.sequential ? 32 : 64,
  ],
  useTimestamp32: [ENCODER_LIVE, false],
  useInt64: [ENCODER_LIVE, false],
  canonical: [ENCODER, false],
  onInvalidDate: [ENCODER_LIVE],
  encodeUndefinedAsNil: [ENCODER_LIVE, false],
  variableMapSize: [ENCODER, false],
  coercibleKeyAsNumber: [ENCODER, false],
  skipValues: [ENCODER],
  writeFunction: [ENCODER_LIVE],
  useToJSON: [ENCODER_LIVE, true],
  mapAsEmptyObject: [ENCODER_LIVE, false],
  setAsEmptyObject: [ENCODER_LIVE, false],
  largeBigIntToFloat: [ENCODER_LIVE, false],
  largeBigIntToString: [ENCODER_LIVE, false],
  useBigIntExtension: [ENCODER_LIVE, false],
} as const satisfies { readonly [Name in keyof PackrOptions]-?: RowOf<Name> };

/** The row flags that include `Side` (`DECODER`, `ENCODER` or `LIVE`). */
type FlagsWith<Side extends number> = Side extends typeof DECODER ? 1 | 3 | 5 | 7
  : Side extends typeof ENCODER ? 2 | 3 | 6 | 7
  : 4 | 5 | 6 | 7;

/** The names of the options a side reads (`DECODER` or `ENCODER`). */
export type OptionName<Side extends number> = {
  [Name in keyof typeof OPTIONS]: (typeof OPTIONS)[Name][0] extends FlagsWith<Side> ? Name
    : never;
}[keyof typeof OPTIONS];

/**
 * The options a side reads, as its context holds them (each as given, or its default): the part
 * of a `DecodeContext` or `EncodeContext` that `resolveOptions` makes.
 */
export type ResolvedOptions<Side extends number> = {
  -readonly [Name in OptionName<Side>]-?: (typeof OPTIONS)[Name] extends readonly [number, infer F]
    ? Exclude<PackrOptions[Name], undefined>
    : PackrOptions[Name];
};

/** The default deepest nesting (`maxDepth`). */
export const DEFAULT_MAX_DEPTH: number = OPTIONS.maxDepth[1] as number;

/**
 * The options `side` reads, each as given in `settings` or else its default (`undefined` without
 * one; a function in the table gives it from the other settings, as no default is a function),
 * in the table's order. The result is made by keyed stores, which leave an engine's object
 * in its slow dictionary form: copy it into the context with a spread (`{ ...resolved }`), which
 * makes a fast object, or assign it onto an existing context.
 */
export function resolveOptions(settings: Settings, side: number): Record<string, unknown> {
  const resolved: Record<string, unknown> = {};
  for (const name in OPTIONS) {
    const [flags, fallback] = OPTIONS[name as keyof PackrOptions];
    if (!(flags & side)) continue;
    const value = settings[name];
    resolved[name] = value !== undefined
      ? value
      : typeof fallback === "function"
      ? fallback(settings)
      : fallback;
  }
  return resolved;
}

/**
 * Defines the option accessors of a class for the options `side` reads (msgpackr copies its
 * options onto the instance, and code written for it reads and assigns them there). Reading one
 * gives it as given or last assigned. Assigning a `LIVE` one stores it and calls `apply`, which
 * rewrites the instance's contexts in place, so the next call uses it at no cost per call;
 * assigning another, read at construction only, throws rather than being ignored. An option the
 * class defines itself (`structures`) keeps the class's accessor.
 */
export function defineOptionAccessors<Instance extends object>(
  prototype: Instance,
  side: number,
  settingsOf: (instance: Instance) => Record<string, unknown>,
  apply: (instance: Instance) => void,
): void {
  for (const name in OPTIONS) {
    const [flags] = OPTIONS[name as keyof PackrOptions];
    if (!(flags & side) || Object.hasOwn(prototype, name)) continue;
    Object.defineProperty(prototype, name, {
      get(this: Instance): unknown {
        return settingsOf(this)[name];
      },
      set: flags & LIVE
        ? function (this: Instance, value: unknown): void {
          const settings = settingsOf(this);
          const previous = settings[name];
          settings[name] = value;
          try {
            apply(this);
          } catch (error) {
            settings[name] = previous;
            throw error;
          }
        }
        : function (this: Instance): void {
          const className = this.constructor.name;
          throw new TypeError(
            `${name} is read when the ${className} is made: pass it to new ${className}({ ${name} })`,
          );
        },
      configurable: true,
    });
  }
}
