// Copyright 2026 the @x/msgpackr authors. MIT license.
// Prints the SHA-256 of the canonical bytes of tests/_canonical_corpus.ts: tests/canonical_test.ts
// bundles this script and runs it with Node, which runs no TypeScript.

import { canonicalCorpusHash } from "./_canonical_corpus.ts";

console.log(await canonicalCorpusHash());
