// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import type { Extension } from "./extensions.ts";

// The extensions that the exported `unpack` and `pack` see, apart from the registry class: those
// registered with `addExtension`, none until `_core/extensions.ts` (the module of `addExtension`)
// loads and points this table at its global registry. So a program that never registers one
// ships no registry.

/** What a context reads of its extensions: an `ExtensionRegistry`, or the table below. */
export interface ExtensionTable {
  /** Decoding extensions by unsigned type byte. */
  decoders(): readonly (Extension | undefined)[];
  /** Extensions that encode a class, newest first. */
  encoders(): readonly Extension[];
}

const NO_DECODERS: readonly (Extension | undefined)[] = new Array(256);
const NO_ENCODERS: readonly Extension[] = [];

/** The extensions of the exported `unpack` and `pack`. */
export const registeredExtensions: ExtensionTable = {
  decoders: () => NO_DECODERS,
  encoders: () => NO_ENCODERS,
};
