// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { type ExtensionTable, registeredExtensions } from "./registered_extensions.ts";

/**
 * Any class whose instances an extension encodes.
 * @example Usage
 * ```ts
 * import type { ExtensionClass } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * class Point {}
 * const cls: ExtensionClass<Point> = Point;
 * assert.ok(new Point() instanceof cls);
 * ```
 */
// deno-lint-ignore no-explicit-any
export type ExtensionClass<T = unknown> = abstract new (...args: any[]) => T;

/**
 * Where `allocateForWrite(size)` lets an extension's `pack` write `size` raw bytes:
 * `target[position]` to `target[position + size - 1]` (`targetView` is a DataView of `target`
 * with the same offsets).
 * @example Usage
 * ```ts
 * import { type Extension, Packr, type WriteTarget } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * class Flag {}
 * const extension: Extension<Flag> = {
 *   Class: Flag,
 *   type: 21,
 *   pack(_flag, allocateForWrite) {
 *     const { target, position }: WriteTarget = allocateForWrite(3);
 *     target.set([0xd4, 21, 0x01], position); // fixext1, type 21, one payload byte
 *   },
 *   unpack: () => new Flag(),
 * };
 * const packr = new Packr();
 * packr.addExtension(extension);
 * assert.deepEqual([...packr.pack(new Flag())], [0xd4, 21, 0x01]);
 * ```
 */
export interface WriteTarget {
  /** The output the bytes go into. */
  target: Uint8Array;
  /** A DataView over `target`, with the same offsets. */
  targetView: DataView;
  /** Where the allocated bytes start in `target`. */
  position: number;
}

/**
 * A custom extension (docs/wire-format.md, "Custom extensions"), registered with `addExtension`
 * for every instance or with `packr.addExtension` for one instance.
 *
 * - `pack(value, allocateForWrite, pack)` returns the payload bytes, written as an ext of `type`;
 *   `unpack(bytes, readValueAt)` gets a view of the payload back. As in msgpackr, `pack` may
 *   instead write raw bytes itself: `allocateForWrite(size)` reserves `size` bytes of the output
 *   and returns where they are ({@linkcode WriteTarget}), and the third argument packs a value
 *   in place; it then returns nothing. A `pack` that returns no bytes and writes nothing is a
 *   `TypeError`. `readValueAt(offset)` decodes the value at a byte offset of the input.
 * - `write(value)` returns a value that is packed in its place, after a `d4 type 00` tag when
 *   `type` is set; returning the value itself packs it as a plain object or array. `read(data)`
 *   receives that value, already decoded.
 * - With `Class` and `write` but no `type`, no tag is written: `write` only reshapes the value.
 * @example Usage
 * ```ts
 * import { type Extension, Packr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * class Temperature {
 *   constructor(public celsius: number) {}
 * }
 * const extension: Extension<Temperature> = {
 *   Class: Temperature,
 *   type: 20,
 *   write: (value) => value.celsius,
 *   read: (celsius: number) => new Temperature(celsius),
 * };
 * const packr = new Packr();
 * packr.addExtension(extension);
 * assert.equal(packr.unpack(packr.pack(new Temperature(21.5))).celsius, 21.5);
 * ```
 */
export interface Extension<T = unknown> {
  /** Instances of this class (and subclasses) use this extension when packing. */
  Class?: ExtensionClass<T>;
  /** Extension type code: 1–100 for applications; -128..127 are all accepted. */
  type?: number;
  /**
   * Encodes a value as the ext payload, or writes raw bytes with `allocateForWrite` (and values
   * with `pack`) and returns nothing.
   */
  pack?: (
    value: T,
    allocateForWrite: (size: number) => WriteTarget,
    pack: (value: unknown) => void,
  ) => Uint8Array | void;
  /** Decodes an ext payload (a view of the input); `readValueAt` decodes a value of the input. */
  unpack?: (bytes: Uint8Array, readValueAt: (offset: number) => unknown) => unknown;
  /** Returns the value to pack in place of `value`. */
  write?: (value: T) => unknown;
  /** Rebuilds a value from what `write` returned, already decoded. */
  // deno-lint-ignore no-explicit-any
  read?: (data: any) => unknown;
}

/**
 * A set of registered extensions. The global registry holds what the exported `addExtension`
 * registers; an instance that registers its own gets a child registry whose entries come first.
 * Lookups are cached and rebuilt when either registry changes.
 */
export class ExtensionRegistry implements ExtensionTable {
  readonly #parent: ExtensionRegistry | null;
  /** Newest first, so a later registration wins (msgpackr's order). */
  readonly #own: Extension[] = [];
  #version = 0;
  #cachedVersion = -1;
  #encoders: Extension[] = [];
  #decoders: (Extension | undefined)[] = [];

  constructor(parent: ExtensionRegistry | null) {
    this.#parent = parent;
  }

  /** Changes whenever this registry or its parent changes. */
  get version(): number {
    return this.#version + (this.#parent === null ? 0 : this.#parent.version);
  }

  /** Registers an extension; throws like msgpackr for an extension that cannot work. */
  add(extension: Extension): void {
    if (extension.Class) {
      if (!extension.pack && !extension.write) {
        throw new TypeError("Extension has no pack or write function");
      }
      if (extension.pack && !extension.type) {
        throw new TypeError("Extension has no type (numeric code to identify the extension)");
      }
    }
    this.#own.unshift(extension);
    this.#version++;
  }

  /** Extensions that encode a class, newest first, own before the parent's. */
  encoders(): readonly Extension[] {
    this.#refresh();
    return this.#encoders;
  }

  /** Decoding extensions by unsigned type byte (own registrations win). */
  decoders(): readonly (Extension | undefined)[] {
    this.#refresh();
    return this.#decoders;
  }

  #refresh(): void {
    const version = this.version;
    if (version === this.#cachedVersion) return;
    this.#cachedVersion = version;
    const inherited = this.#parent === null ? [] : this.#parent.encoders();
    this.#encoders = [...this.#own.filter((extension) => extension.Class), ...inherited];
    const decoders = this.#parent === null ? new Array(256) : [...this.#parent.decoders()];
    for (let i = this.#own.length - 1; i >= 0; i--) {
      const extension = this.#own[i];
      if (extension.type !== undefined && (extension.unpack || extension.read)) {
        decoders[extension.type & 0xff] = extension;
      }
    }
    this.#decoders = decoders;
  }
}

/** Extensions registered with the exported `addExtension`: every instance sees them. */
export const globalExtensions: ExtensionRegistry = new ExtensionRegistry(null);
// the exported `unpack` and `pack` see them too
registeredExtensions.decoders = () => globalExtensions.decoders();
registeredExtensions.encoders = () => globalExtensions.encoders();

/**
 * Registers an extension for every Packr and Unpackr, existing and future (msgpackr's global
 * registry). To keep an extension to one instance, use `packr.addExtension` instead. A later
 * registration for the same class or type wins.
 *
 * @param extension The extension: `Class` and `type` with `pack`/`unpack` (raw payload bytes)
 * or `write`/`read` (a value packed in its place).
 *
 * @example Usage
 * ```ts
 * import { addExtension, Packr } from "@x/msgpackr";
 * import assert from "node:assert/strict";
 *
 * class Money {
 *   constructor(public cents: number) {}
 * }
 * addExtension({
 *   Class: Money,
 *   type: 40,
 *   pack: (money: Money) => new Uint8Array(new Uint32Array([money.cents]).buffer),
 *   unpack: (bytes) => new Money(new Uint32Array(bytes.slice().buffer)[0]),
 * });
 * const packr = new Packr();
 * assert.equal(packr.unpack(packr.pack(new Money(1234))).cents, 1234);
 * ```
 */
// deno-lint-ignore no-explicit-any
export function addExtension<T = any>(extension: Extension<T>): void {
  globalExtensions.add(extension as Extension);
}
