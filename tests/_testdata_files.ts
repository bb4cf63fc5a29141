// Copyright 2026 the @x/msgpackr authors. MIT license.
// The names of the testdata/ files. Imports nothing of the library, so a script can
// use it without loading the main entry (see _reader_probe.ts).

/** The testdata/ files used as sample payloads. */
export const TESTDATA_FILES = [
  "example.json",
  "example2.json",
  "example3.json",
  "example4.json",
  "example5.json",
  "floats.json",
  "sample-large.json",
  "strings2.json",
] as const;
