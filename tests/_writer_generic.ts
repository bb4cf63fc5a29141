// Copyright 2026 the @x/msgpackr authors. MIT license.
// A script run in a subprocess by generated_writer_keys_test.ts: packs every case of
// _writer_cases.ts with the no-eval build, where no writer compiler is installed, so every
// object goes through the generic writer. Prints the hex of each case's value, as a JSON array.
//
// Usage: <deno run -A | bun> tests/_writer_generic.ts

import * as library from "../no_eval.ts";
import { packCase, writerCases } from "./_writer_cases.ts";

console.log(JSON.stringify(writerCases().map((testCase) => packCase(library, testCase))));
