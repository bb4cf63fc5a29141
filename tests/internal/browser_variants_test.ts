// Copyright 2026 the @x/msgpackr authors. MIT license.
// The modules browsers get in another form (package.json "browser"): each variant exports exactly
// what its module exports, with the same kinds, and switches its mechanism off.
// The build checks that package.json maps each module to its form.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as inputWindow from "../../_strings/input_window.ts";
import * as inputWindowBrowser from "../../_strings/input_window_browser.ts";
import * as utf8Writer from "../../_strings/utf8_writer.ts";
import * as utf8WriterBrowser from "../../_strings/utf8_writer_browser.ts";

/**
 * Each export's name and `typeof`, sorted; a runtime's method that browsers lack (`null` there) as
 * "method".
 */
function exportsOf(module: Record<string, unknown>): string[] {
  return Object.entries(module).map(([name, value]) => {
    const kind = name.endsWith("Slice") || name.endsWith("Write") ? "method" : typeof value;
    return `${name}: ${kind}`;
  }).sort();
}

describe("browser variants", () => {
  test("each exports what its module exports", () => {
    assert.deepEqual(exportsOf(inputWindowBrowser), exportsOf(inputWindow));
    assert.deepEqual(exportsOf(utf8WriterBrowser), exportsOf(utf8Writer));
  });

  test("the engine's string writer is encodeInto: no Buffer method, V8's threshold", () => {
    assert.equal(utf8WriterBrowser.nativeUtf8Write, null);
    assert.equal(utf8WriterBrowser.MANUAL_UTF8_MAX, 63);
  });

  test("the Latin-1 window is off: no string is taken from it", () => {
    assert.equal(inputWindowBrowser.MAX_SLICED, 0);
    assert.equal(inputWindowBrowser.latin1Slice, null);
    const w = new inputWindowBrowser.InputWindow();
    const bytes = new TextEncoder().encode("an ASCII string of some length");
    assert.equal(
      inputWindowBrowser.sliceAsciiString(w, bytes, null, 0, bytes.length, bytes.length),
      null,
    );
    // a long string that a window would cover is decoded on its own
    assert.equal(
      inputWindowBrowser.longString(w, bytes, null, 0, bytes.length),
      "an ASCII string of some length",
    );
  });

  test("UTF-8 batches are off: each string is decoded alone, as TextDecoder decodes it", () => {
    assert.equal(inputWindowBrowser.UTF8_BATCHES, false);
    assert.equal(inputWindowBrowser.utf8Slice, null);
    const w = new inputWindowBrowser.InputWindow();
    const bytes = new TextEncoder().encode("naïve café – ünïcödé");
    const expected = new TextDecoder().decode(bytes);
    assert.equal(
      inputWindowBrowser.nonAsciiString(w, bytes, null, 0, bytes.length, bytes.length),
      expected,
    );
    assert.equal(inputWindowBrowser.longString(w, bytes, null, 0, bytes.length), expected);
    assert.deepEqual(inputWindowBrowser.utf8BatchCounts(), { batches: 0, lookaheads: 0 });
  });
});
