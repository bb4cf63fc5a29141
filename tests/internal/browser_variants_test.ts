// Copyright 2026 the @x/msgpackr authors. MIT license.
// The modules browsers get in another form (package.json "browser"): each variant exports exactly
// what its module exports, with the same kinds, and switches its mechanism off.
// The build checks that package.json maps each module to its form.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as latin1Window from "../../_strings/latin1_window.ts";
import * as latin1WindowBrowser from "../../_strings/latin1_window_browser.ts";
import * as utf8Batch from "../../_strings/utf8_batch.ts";
import * as utf8BatchBrowser from "../../_strings/utf8_batch_browser.ts";
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
    assert.deepEqual(exportsOf(latin1WindowBrowser), exportsOf(latin1Window));
    assert.deepEqual(exportsOf(utf8BatchBrowser), exportsOf(utf8Batch));
    assert.deepEqual(exportsOf(utf8WriterBrowser), exportsOf(utf8Writer));
  });

  test("the engine's string writer is encodeInto: no Buffer method, V8's threshold", () => {
    assert.equal(utf8WriterBrowser.nativeUtf8Write, null);
    assert.equal(utf8WriterBrowser.MANUAL_UTF8_MAX, 63);
  });

  test("the Latin-1 window is off: no string is taken from it", () => {
    assert.equal(latin1WindowBrowser.MAX_SLICED, 0);
    assert.equal(latin1WindowBrowser.latin1Slice, null);
    assert.equal(latin1WindowBrowser.MIN_SLICED, latin1Window.MIN_SLICED);
    const bytes = new TextEncoder().encode("an ASCII string of some length");
    assert.equal(
      latin1WindowBrowser.sliceAsciiString(bytes, null, 0, bytes.length, bytes.length),
      null,
    );
    assert.equal(latin1WindowBrowser.sliceLongFromWindow(bytes, null, 0, bytes.length), null);
  });

  test("UTF-8 batches are off: each string is decoded alone, as TextDecoder decodes it", () => {
    assert.equal(utf8BatchBrowser.UTF8_BATCHES, false);
    assert.equal(utf8BatchBrowser.utf8Slice, null);
    const bytes = new TextEncoder().encode("naïve café – ünïcödé");
    const expected = new TextDecoder().decode(bytes);
    assert.equal(
      utf8BatchBrowser.nonAsciiString(bytes, null, 0, bytes.length, bytes.length),
      expected,
    );
    assert.equal(utf8BatchBrowser.batchedString(bytes, 0, bytes.length), expected);
    assert.deepEqual(utf8BatchBrowser.utf8BatchCounts(), { batches: 0, lookaheads: 0 });
  });
});
