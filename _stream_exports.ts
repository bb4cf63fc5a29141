// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Everything the stream entry point exports; shared by `stream.ts`, `mod.ts` and `no_eval.ts`.

export {};
