// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The decoding exports of `pack.ts` (a Packr decodes too), with the record reader compiler
// installed. `pack.ts` takes them from here, so that the compiler comes with them: a program that
// only packs never imports this module, and ships no compiler.

import "./compiler.ts";

export { Encoder, Packr } from "../_encode/packr.ts";
export { Decoder, Unpackr } from "../_decode/unpackr.ts";
export { decode, unpack } from "../_decode/unpack.ts";
