// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { decodeOne } from "./decoder.ts";
import {
  applyDecodeSettings,
  createDecodeContext,
  type DecodeContext,
  decodeContextOf,
} from "./context.ts";
import {
  type ForEach,
  type MessagePackSource,
  unpackMany,
  type UnpackWindow,
  unpackWindow,
} from "./unpack.ts";
import { type Extension, ExtensionRegistry, globalExtensions } from "../_core/extensions.ts";
import type { ConstructionOption, Structure, UnpackrOptions } from "../_core/options.ts";
import { DECODER, defineOptionAccessors, type Settings } from "../_core/option_table.ts";
import { toBytes } from "../_core/bytes.ts";
import { markSharedLength } from "../_records/table.ts";
import { timestampOfPayload } from "../_core/timestamp.ts";
import { standardOf, type StandardSchemaV1, validateSync } from "../_core/standard_schema.ts";

/** Reads an instance's private settings (set once, by the class's static block). */
const hidden = {} as { settingsOf(unpackr: Unpackr): Settings };

/**
 * The decoding options of an {@linkcode Unpackr}, as properties of the instance (msgpackr copies
 * its options onto the instance, and code written for it reads and assigns them there): reading
 * one gives it as given or last assigned; assigning one changes what the next decode does, but
 * for the {@linkcode ConstructionOption}s, which are read-only (assigning one throws a
 * TypeError). `structures` has an accessor of its own.
 *
 * @example Usage
 * ```ts
 * import { Unpackr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const unpackr = new Unpackr({ int64AsType: "bigint" });
 * unpackr.int64AsType = "auto"; // the next decode reads 64-bit integers as numbers
 * assert.equal(unpackr.unpack(new Uint8Array([0xd3, 0, 0, 0, 0, 0, 0, 0, 5])), 5);
 * assert.throws(() => Object.assign(unpackr, { sequential: true }), TypeError);
 * ```
 */
export interface Unpackr
  extends
    Omit<UnpackrOptions, ConstructionOption>,
    Readonly<Omit<Pick<UnpackrOptions, ConstructionOption & keyof UnpackrOptions>, "structures">> {}

/**
 * A MessagePack decoder with msgpackr's extensions: records (shared or inline structures),
 * structured clone references, string bundles, typed arrays and the other extension types of
 * msgpackr's format (docs/wire-format.md).
 * Options, structures and extensions registered with {@linkcode Unpackr.addExtension} belong to
 * this instance.
 *
 * @example Usage
 * ```ts
 * import { Packr, Unpackr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const structures: string[][] = [];
 * const packr = new Packr({ structures });
 * const bytes = packr.pack({ id: 1, name: "ann" });
 *
 * const unpackr = new Unpackr({ structures });
 * assert.deepEqual(unpackr.unpack(bytes), { id: 1, name: "ann" });
 * ```
 */
export class Unpackr {
  #context: DecodeContext;
  #settings: Settings;

  static {
    hidden.settingsOf = (unpackr) => unpackr.#settings;
  }

  /**
   * Creates a decoder.
   *
   * @param options Decoding options; see {@linkcode UnpackrOptions}.
   */
  constructor(options: UnpackrOptions = {}) {
    const settings: Settings = { ...options };
    // msgpackr turns the deprecated flag into `int64AsType` once, here
    if (options.int64AsNumber) settings.int64AsType = "number";
    this.#settings = settings;
    this.#context = createDecodeContext(settings, this, timestampOfPayload);
    // Detached methods keep this instance (`const { unpack } = unpackr`, as msgpackr code
    // writes): each is also an own property, made once here, calling what the prototype method
    // calls. A method a subclass overrides is bound instead; `decodeMultiple` is only ever this
    // own property (unless a subclass defines it as a method).
    ownMethods(this, Unpackr.prototype, {
      unpack: (source: MessagePackSource, window?: UnpackWindow) => {
        if (window !== undefined) return unpackWindow(this.#context, source, window);
        const bytes = toBytes(source);
        return decodeOne(this.#context, bytes, 0, bytes.length);
      },
      decode: "unpack",
      unpackMultiple: (source: MessagePackSource, forEach?: ForEach) =>
        unpackMany(this.#context, source, forEach),
      decodeMultiple: "unpackMultiple",
    });
  }

  /**
   * The shared structures table this decoder reads records with: the `structures` option's
   * array, or what `getStructures` loaded (`undefined` without either). It carries
   * `sharedLength`, as in msgpackr. Assigning a table makes all of its structures the shared
   * ones, as if given to the constructor.
   */
  get structures(): (Structure[] & { sharedLength?: number }) | undefined {
    return this.#context.records.shared ?? undefined;
  }

  /** Replaces the shared structures table (see the getter). */
  set structures(table: Structure[]) {
    if (!Array.isArray(table)) throw new TypeError("structures must be an array of structures");
    markSharedLength(table);
    this.#context.records.replaceShared(table);
    applyDecodeSettings(this.#context, this.#settings);
  }

  /**
   * Decodes one MessagePack value. Bytes after the value are an error; use
   * {@linkcode Unpackr.unpackMultiple} for a sequence.
   *
   * @param source The bytes (any ArrayBufferView, or an ArrayBuffer).
   * @param window An end offset, or `{ start, end }`, to decode part of `source`.
   * @returns The decoded value.
   *
   * @example Usage
   * ```ts
   * import { Unpackr } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * const unpackr = new Unpackr({ int64AsType: "auto" });
   * assert.equal(unpackr.unpack(new Uint8Array([0xd3, 0, 0, 0, 0, 0, 0, 0, 5])), 5);
   * ```
   */
  // deno-lint-ignore no-explicit-any
  unpack<T = any>(source: MessagePackSource, window?: UnpackWindow): T {
    return unpackWindow(this.#context, source, window) as T;
  }

  /**
   * Decodes one MessagePack value, as {@linkcode Unpackr.unpack}, and validates it with a
   * Standard Schema (Zod, Valibot, ArkType, …): returns the schema's output (transformed where
   * the schema transforms), typed as that output, or throws a `ValidationError` whose message
   * names the first issue's path and message and whose `issues` has them all. Decoding is
   * synchronous, so a schema that answers with a promise (an async refinement) is a `TypeError`:
   * validate those with an async API (`decodeIter` over an async source, `UnpackrStream`).
   *
   * @typeParam S The schema's type.
   * @param schema The schema.
   * @param source The bytes (any ArrayBufferView, or an ArrayBuffer).
   * @param window An end offset, or `{ start, end }`, to decode part of `source`.
   * @returns The schema's output.
   *
   * @example Usage
   * ```ts
   * import { pack, Unpackr } from "@x/msgpackr";
   * import { z } from "zod";
   * import assert from "node:assert/strict";
   *
   * const Order = z.object({ id: z.number(), total: z.string().transform(Number) });
   * const unpackr = new Unpackr({ mapsAsObjects: true });
   * const order = unpackr.unpackAs(Order, pack({ id: 1, total: "9.5" }));
   * assert.equal(order.total, 9.5); // a number: the schema's output
   * assert.throws(() => unpackr.unpackAs(Order, pack({ id: "x", total: "1" })), {
   *   name: "ValidationError",
   *   message: /^Invalid value at \$\.id: /,
   * });
   * ```
   */
  unpackAs<S extends StandardSchemaV1>(
    schema: S,
    source: MessagePackSource,
    window?: UnpackWindow,
  ): StandardSchemaV1.InferOutput<S> {
    const standard = standardOf(schema);
    return validateSync(standard, this.unpack(source, window)) as StandardSchemaV1.InferOutput<S>;
  }

  /**
   * Alias of {@linkcode Unpackr.unpack}.
   *
   * @param source The bytes.
   * @param window An end offset, or `{ start, end }`.
   * @returns The decoded value.
   *
   * @example Usage
   * ```ts
   * import { Decoder } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new Decoder().decode(new Uint8Array([0xa1, 0x61])), "a");
   * ```
   */
  // deno-lint-ignore no-explicit-any
  decode<T = any>(source: MessagePackSource, window?: UnpackWindow): T {
    return this.unpack<T>(source, window);
  }

  /**
   * Decodes a sequence of values. Without `forEach` returns them all; with it, calls
   * `forEach(value, start, end)` for each (byte offsets in `source`) and stops early when it
   * returns `false`. Record definitions carry from one value to the next.
   *
   * @param source The bytes.
   * @param forEach Called with each value and its byte range.
   * @returns The values, when no `forEach` is given.
   *
   * @example Usage
   * ```ts
   * import { Unpackr } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * const unpackr = new Unpackr();
   * assert.deepEqual(unpackr.unpackMultiple(new Uint8Array([1, 2, 3])), [1, 2, 3]);
   * const seen: number[] = [];
   * unpackr.unpackMultiple(new Uint8Array([1, 2, 3]), (value, start, end) => {
   *   seen.push(start, end);
   *   return value !== 2; // stop after the second value
   * });
   * assert.deepEqual(seen, [0, 1, 1, 2]);
   * ```
   */
  // deno-lint-ignore no-explicit-any
  unpackMultiple(source: MessagePackSource): any[];
  /**
   * Calls `forEach(value, start, end)` for each value of a byte sequence, stopping early when
   * it returns `false`.
   *
   * @param source The bytes.
   * @param forEach Called with each value and its byte range.
   */
  unpackMultiple(
    source: MessagePackSource,
    // deno-lint-ignore no-explicit-any
    forEach: (value: any, start: number, end: number) => unknown,
  ): void;
  unpackMultiple(
    source: MessagePackSource,
    // deno-lint-ignore no-explicit-any
    forEach?: (value: any, start: number, end: number) => unknown,
    // deno-lint-ignore no-explicit-any
  ): any[] | void {
    return unpackMany(this.#context, source, forEach);
  }

  /**
   * Alias of {@linkcode Unpackr.unpackMultiple}: each instance's own `decodeMultiple` is its
   * `unpackMultiple`, detached as it is.
   *
   * @example Usage
   * ```ts
   * import { Unpackr } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * const { decodeMultiple } = new Unpackr();
   * assert.deepEqual(decodeMultiple(new Uint8Array([1, 2, 3])), [1, 2, 3]);
   * ```
   */
  declare decodeMultiple: Unpackr["unpackMultiple"];

  /**
   * Registers an extension for this instance only (a `Packr` uses it for packing too). Use the
   * exported `addExtension` to register for every instance.
   *
   * @param extension The extension.
   *
   * @example Usage
   * ```ts
   * import { Packr } from "@x/msgpackr";
   * import assert from "node:assert/strict";
   *
   * class Point {
   *   constructor(public x: number, public y: number) {}
   * }
   * const packr = new Packr();
   * packr.addExtension({
   *   Class: Point,
   *   type: 12,
   *   write: (point: Point) => [point.x, point.y],
   *   read: (data) => new Point(...(data as [number, number])),
   * });
   * const copy = packr.unpack(packr.pack(new Point(1, 2)));
   * assert.ok(copy instanceof Point);
   * ```
   */
  // deno-lint-ignore no-explicit-any
  addExtension<T = any>(extension: Extension<T>): void {
    const context = this.#context;
    if (context.extensions === globalExtensions) {
      context.extensions = new ExtensionRegistry(globalExtensions);
    }
    (context.extensions as ExtensionRegistry).add(extension as Extension);
  }
}

/**
 * Makes each of `methods` an own property of `instance`: the given function (or, for a name, the
 * own property of that name made before it) where the instance has `base`'s method (or neither
 * has one), else the subclass's override bound to the instance.
 */
export function ownMethods(instance: object, base: object, methods: Record<string, unknown>): void {
  const own = instance as Record<string, unknown>;
  for (const name of Object.keys(methods)) {
    const method = own[name] as { bind(self: unknown): unknown };
    const direct = methods[name];
    own[name] = method !== (base as Record<string, unknown>)[name]
      ? method.bind(instance)
      : typeof direct === "string"
      ? own[direct]
      : direct;
  }
}

/** The settings of an instance (for `Packr`'s option accessors). */
export function settingsOfInstance(unpackr: Unpackr): Settings {
  return hidden.settingsOf(unpackr);
}

defineOptionAccessors(
  Unpackr.prototype,
  DECODER,
  settingsOfInstance,
  (unpackr) => applyDecodeSettings(decodeContextOf(unpackr), settingsOfInstance(unpackr)),
);

/**
 * Alias of {@linkcode Unpackr} (the same class).
 * @example Usage
 * ```ts
 * import { Decoder, Unpackr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * assert.equal(Decoder, Unpackr);
 * assert.equal(new Decoder().decode(new Uint8Array([0x07])), 7);
 * ```
 */
export const Decoder: typeof Unpackr = Unpackr;
/**
 * Alias of {@linkcode Unpackr}, as a type.
 * @example Usage
 * ```ts
 * import { type Decoder, Unpackr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * const decoder: Decoder = new Unpackr();
 * assert.ok(decoder instanceof Unpackr);
 * ```
 */
export type Decoder = Unpackr;
