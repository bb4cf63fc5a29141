// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

import { JS_DECODE_MAX } from "../_core/thresholds.ts";

// UTF-8 for the hot paths. The JavaScript decoder gives exactly what `TextDecoder` (fatal: false)
// gives: every ill-formed sequence becomes U+FFFD per "maximal subpart" (WHATWG Encoding), so a
// string decodes the same whichever path its length selects. A leading BOM is kept (ignoreBOM),
// so a string that starts with U+FEFF round-trips. The JavaScript encoder writes exactly what
// `TextEncoder` writes: well-formed UTF-8, an unpaired surrogate as U+FFFD.

/** Shared decoder for long strings; keeps a leading BOM like the JavaScript path does. */
export const textDecoder: TextDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
/** Shared encoder for long strings (it writes an unpaired surrogate as U+FFFD). */
export const textEncoder: TextEncoder = new TextEncoder();

const fromCharCode = String.fromCharCode;

// ---- the string decoder used for every MessagePack string ---------------------------------------
//
// Short strings are decoded in JavaScript (`decodeUtf8`); longer ones with `TextDecoder`, whose
// fixed cost per call is more than a short string costs in JavaScript. Both give the same text for
// the same bytes, so a string decodes the same on either side of JS_DECODE_MAX.
// tests/internal/utf8_test.ts checks both paths against `TextDecoder`.

/** Decodes the UTF-8 bytes `b[start, end)` exactly as `TextDecoder` (fatal: false, ignoreBOM). */
export function decodeString(b: Uint8Array, start: number, end: number): string {
  if (end - start > JS_DECODE_MAX) return textDecoder.decode(b.subarray(start, end));
  return decodeUtf8(b, start, end);
}

const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Decodes the UTF-8 bytes `b[start, end)`, or returns `null` when they are ill-formed (the
 * `fatal` option), with a fatal `TextDecoder`.
 */
export function decodeStringStrict(b: Uint8Array, start: number, end: number): string | null {
  try {
    return strictDecoder.decode(b.subarray(start, end));
  } catch {
    return null;
  }
}

// ---- the ASCII test, for the Latin-1 window and the UTF-8 batches -----------------------------

/** A `Buffer.prototype` slice method (`latin1Slice`, `utf8Slice`), as the runtime has it. */
export type SliceMethod = (this: Uint8Array, start: number, end: number) => string;

/**
 * Whether `b[start, end)` is all ASCII, read through `view` (a DataView of `b`): sixteen bytes at
 * a time, stopping at the first group with a byte that is not, then four at a time, and the last
 * one to three bytes as the word that ends the range (overlapping bytes already seen). With no
 * view (a small input, whose view would cost more to make than its strings' bytes cost to read:
 * see EAGER_VIEW_MIN_INPUT in `_core/thresholds.ts`), one byte at a time.
 */
export function isAsciiIn(
  view: DataView | null,
  b: Uint8Array,
  start: number,
  end: number,
): boolean {
  if (view === null) return isAsciiBytes(b, start, end);
  let i = start;
  for (; i + 16 <= end; i += 16) {
    const any = view.getInt32(i) | view.getInt32(i + 4) | view.getInt32(i + 8) |
      view.getInt32(i + 12);
    if ((any & 0x80808080) !== 0) return false;
  }
  for (; i + 4 <= end; i += 4) {
    if ((view.getInt32(i) & 0x80808080) !== 0) return false;
  }
  if (i === end) return true;
  if (end - start >= 4) return (view.getInt32(end - 4) & 0x80808080) === 0;
  for (; i < end; i++) if (b[i] > 0x7f) return false;
  return true;
}

/**
 * Whether `b[start, end)` is all ASCII, read one byte at a time (an input without a view), eight
 * bytes to a test, so that text which is not stops early.
 */
function isAsciiBytes(b: Uint8Array, start: number, end: number): boolean {
  let i = start;
  for (; i + 8 <= end; i += 8) {
    if (
      (b[i] | b[i + 1] | b[i + 2] | b[i + 3] | b[i + 4] | b[i + 5] | b[i + 6] | b[i + 7]) >= 0x80
    ) return false;
  }
  let any = 0;
  for (; i < end; i++) any |= b[i];
  return any < 0x80;
}

/**
 * Decodes UTF-8 from `start` to `end` in JavaScript, with `TextDecoder`'s replacement rules:
 * lead bytes c0, c1 and f5..ff and stray continuation bytes give one U+FFFD each; e0 needs a0..bf
 * next, ed needs 80..9f (no surrogates), f0 needs 90..bf, f4 needs 80..8f; a sequence cut short
 * gives one U+FFFD for its valid prefix and decoding resumes at the offending byte.
 */
export function decodeUtf8(b: Uint8Array, start: number, end: number): string {
  const units: number[] = [];
  let result = "";
  let p = start;
  while (p < end) {
    const byte1 = b[p++];
    if (byte1 < 0x80) {
      units.push(byte1);
    } else if (byte1 < 0xc2 || byte1 > 0xf4) {
      units.push(0xfffd); // continuation byte without a lead, or a lead that is never valid
    } else if (byte1 < 0xe0) {
      const byte2 = p < end ? b[p] : 0;
      if ((byte2 & 0xc0) !== 0x80) {
        units.push(0xfffd);
      } else {
        p++;
        units.push(((byte1 & 0x1f) << 6) | (byte2 & 0x3f));
      }
    } else if (byte1 < 0xf0) {
      const byte2 = p < end ? b[p] : 0;
      const low = byte1 === 0xe0 ? 0xa0 : 0x80;
      const high = byte1 === 0xed ? 0x9f : 0xbf;
      if (byte2 < low || byte2 > high) {
        units.push(0xfffd);
      } else {
        p++;
        const byte3 = p < end ? b[p] : 0;
        if ((byte3 & 0xc0) !== 0x80) {
          units.push(0xfffd);
        } else {
          p++;
          units.push(((byte1 & 0x0f) << 12) | ((byte2 & 0x3f) << 6) | (byte3 & 0x3f));
        }
      }
    } else {
      const byte2 = p < end ? b[p] : 0;
      const low = byte1 === 0xf0 ? 0x90 : 0x80;
      const high = byte1 === 0xf4 ? 0x8f : 0xbf;
      if (byte2 < low || byte2 > high) {
        units.push(0xfffd);
      } else {
        p++;
        const byte3 = p < end ? b[p] : 0;
        if ((byte3 & 0xc0) !== 0x80) {
          units.push(0xfffd);
        } else {
          p++;
          const byte4 = p < end ? b[p] : 0;
          if ((byte4 & 0xc0) !== 0x80) {
            units.push(0xfffd);
          } else {
            p++;
            const codePoint = (((byte1 & 0x07) << 18) | ((byte2 & 0x3f) << 12) |
              ((byte3 & 0x3f) << 6) | (byte4 & 0x3f)) - 0x10000;
            units.push(0xd800 | (codePoint >> 10), 0xdc00 | (codePoint & 0x3ff));
          }
        }
      }
    }
    if (units.length >= 0x1000) {
      result += fromCharCode.apply(String, units);
      units.length = 0;
    }
  }
  return units.length > 0 ? result + fromCharCode.apply(String, units) : result;
}

/**
 * Writes the leading ASCII run of `string` at `position` and returns its length in characters
 * (`string.length` when the whole string is ASCII). Four characters go in one little-endian 32-bit
 * store through `view`, a DataView of `target`'s bytes with the same indices: both engines write
 * text faster that way than with one store a character. `target` must have room for the whole
 * string.
 */
export function writeAsciiRun(
  target: Uint8Array,
  view: DataView,
  position: number,
  string: string,
): number {
  const length = string.length;
  let i = 0;
  for (; i <= length - 4; i += 4) {
    const c0 = string.charCodeAt(i);
    const c1 = string.charCodeAt(i + 1);
    const c2 = string.charCodeAt(i + 2);
    const c3 = string.charCodeAt(i + 3);
    if ((c0 | c1 | c2 | c3) >= 0x80) break;
    view.setInt32(position + i, c0 | (c1 << 8) | (c2 << 16) | (c3 << 24), true);
  }
  for (; i < length; i++) {
    const c = string.charCodeAt(i);
    if (c >= 0x80) break;
    target[position + i] = c;
  }
  return i;
}

/**
 * Writes `string` as UTF-8 at `position` and returns the position after it: well-formed UTF-8, an
 * unpaired surrogate written as U+FFFD (`ef bf bd`), exactly as `TextEncoder` writes it
 * (docs/wire-format.md, "Strings"). `target` must have room for 3 bytes per UTF-16 code unit, and
 * `view` is a DataView of its bytes with the same indices (for {@linkcode writeAsciiRun}, which
 * writes the leading ASCII run). The 3-byte branch tests for a surrogate once (the test that
 * also finds a pair), so text without surrogates pays nothing more.
 */
export function encodeUtf8Manually(
  target: Uint8Array,
  view: DataView,
  position: number,
  string: string,
): number {
  const i = writeAsciiRun(target, view, position, string);
  return i === string.length ? position + i : writeNonAscii(target, position + i, string, i);
}

/**
 * The rest of {@linkcode encodeUtf8Manually}, from the first non-ASCII unit `i` of `string`,
 * written at `position`. A function of its own so that the ASCII path stays small enough for V8 to
 * inline (npm run bench:paired:deno, strings2.json).
 */
function writeNonAscii(target: Uint8Array, position: number, string: string, i: number): number {
  const length = string.length;
  for (; i < length; i++) {
    let c = string.charCodeAt(i);
    if (c < 0x80) {
      target[position++] = c;
    } else if (c < 0x800) {
      target[position++] = (c >> 6) | 0xc0;
      target[position++] = (c & 0x3f) | 0x80;
    } else {
      if ((c & 0xf800) === 0xd800) {
        if (c < 0xdc00 && (string.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
          // a high surrogate and the low one after it (past the end, charCodeAt is NaN: 0 here)
          c = 0x10000 + ((c & 0x03ff) << 10) + (string.charCodeAt(++i) & 0x03ff);
          target[position++] = (c >> 18) | 0xf0;
          target[position++] = ((c >> 12) & 0x3f) | 0x80;
          target[position++] = ((c >> 6) & 0x3f) | 0x80;
          target[position++] = (c & 0x3f) | 0x80;
          continue;
        }
        c = 0xfffd; // an unpaired surrogate
      }
      target[position++] = (c >> 12) | 0xe0;
      target[position++] = ((c >> 6) & 0x3f) | 0x80;
      target[position++] = (c & 0x3f) | 0x80;
    }
  }
  return position;
}

/**
 * `string` with every unpaired surrogate replaced by U+FFFD, the same UTF-16 length
 * (`String.prototype.toWellFormed`, or the same in JavaScript where the engine lacks it). For
 * strings that are joined before they are encoded (bundles): each must be well-formed before it
 * joins, or a lone high surrogate at the end of one would pair with a low one opening the next.
 */
export function toWellFormed(string: string): string {
  const native = (string as { toWellFormed?: (this: string) => string }).toWellFormed;
  return native !== undefined ? native.call(string) : wellFormedInJavaScript(string);
}

/** A surrogate pair, or a surrogate alone (code units: no `u` flag). */
const SURROGATES = /[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]/g;

/**
 * {@linkcode toWellFormed} for engines without `String.prototype.toWellFormed`: pairs are kept,
 * a surrogate alone becomes U+FFFD.
 */
export function wellFormedInJavaScript(string: string): string {
  return string.replace(SURROGATES, (match) => match.length === 2 ? match : "\ufffd");
}
