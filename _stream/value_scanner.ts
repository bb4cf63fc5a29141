// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Finds where one top-level value ends without building it, so a stream can wait for a value that
// arrives in many chunks and decode it once, in time linear in its size. The scanner walks the
// headers of msgpackr's dialect with an explicit stack of remaining element counts, and can stop
// at any byte and resume there when more bytes have arrived. Header sizes and lengths come from
// `_format/tokens.ts`.
//
// What a header says about the bytes that follow:
// - arrays push n elements, maps 2n, str/bin/ext skip their payload, scalars have fixed sizes
//   (docs/wire-format.md, "Standard types");
// - 0x40..0x7f: a record id (then as many values as its structure has fields; two bytes in
//   two-byte mode) or a fixint when no structure is known for the slot (docs/wire-format.md,
//   "Records");
// - `d4 72 ID` / `d5 72 LO HI`: an inline definition, then a keys array, then one value per key;
// - tags whose value follows the ext: custom extensions with `read` (fixext1 form only:
//   docs/wire-format.md, "Custom extensions"), Set (0x73), Error (0x65), RegExp (0x78),
//   structured-clone id (0x69), the string bundle (0x62), and `c1` inside a bundle (the length
//   follows as a value);
// - after a top-level value that opened a bundle, the value ends after the last bundle's two
//   strings, found at the bundle's payload start + its 4-byte offset field (docs/wire-format.md,
//   "Bundled strings").
// The decoder stays the authority: the scanner only says "complete", "need more" or "cannot
// follow" (bad bytes, or a header it cannot size), and the caller then lets the decoder judge.

import type { DecodeContext } from "../_decode/decoder.ts";
import type { Extension } from "../_core/extensions.ts";
import type { RecordTable } from "../_records/table.ts";
import {
  ARRAY,
  fieldAt,
  HEADER_SIZE,
  lengthAt,
  STR,
  TOKEN_KIND,
  uint32At,
} from "../_format/tokens.ts";

/** `scan` result: the value continues past the bytes given; see `needEnd`. */
export const NEED_MORE = 0;
/** `scan` result: the value ends at `end`. */
export const COMPLETE = 1;
/** `scan` result: the bytes are not a valid value (the decoder will say why). */
export const INVALID = 2;
/** `scan` result: the scanner cannot size what follows; leave it to the decoder. */
export const UNCERTAIN = 3;
/** What {@linkcode ValueScanner.scan} found. */
export type ScanResult = typeof NEED_MORE | typeof COMPLETE | typeof INVALID | typeof UNCERTAIN;

/** The part of a record type the scanner needs. */
interface SlotShape {
  /** Field values per record. */
  readonly size: number;
  /** The id's first byte is followed by a high byte (docs/wire-format.md, "Two-byte ids"). */
  readonly twoByte: boolean;
  /** `null` for a slot that only dispatches two-byte ids. */
  readonly keys: readonly unknown[] | null;
}

// stack frame kinds
/** Counting elements of an array, map, record or the top level. */
const ELEMENTS = 0;
/** After `d4 72 ID` / `d5 72 LO HI`: the next token must be the keys array's header. */
const KEYS_EXPECTED = 1;
/** Counting the keys of an inline definition; then its values follow. */
const KEYS = 2;

// what an ext's type makes of it
const PAYLOAD = 0;
const TAG = 1;
const BAD = 2;
const MORE = 3;

const DEFINED: readonly unknown[] = Object.freeze([]);

/**
 * A resumable end-of-value finder for one top-level value at offset 0 of a growing buffer.
 * `reset()` before each value; `scan(bytes, length, context)` whenever the buffer has grown.
 */
export class ValueScanner {
  /** With {@linkcode COMPLETE}: the offset just after the value. */
  end = 0;
  /** With {@linkcode NEED_MORE}: the least buffer length with which the scan can progress. */
  needEnd = 1;
  /** Bytes looked at so far, over all values (for tests that prove linear work). */
  examined = 0;

  #pos = 0;
  #depth = 0;
  /** Elements left per open frame. */
  #counts: number[] = [];
  #kinds: number[] = [];
  /** For definition frames: slot * 2 + (two-byte ? 1 : 0). */
  #slots: number[] = [];
  /** For KEYS frames: the number of keys, which is the number of values that follow. */
  #sizes: number[] = [];
  /** Offset of the active bundle's strings, or -1 when the value has opened no bundle. */
  #bundleAt = -1;
  /** Bundle strings read after the value (0, 1, 2); -1 before jumping to them. */
  #bundleStrings = -1;
  /** Structures defined inline earlier in this value (not yet in the decoder's table). */
  #inline = new Map<number, SlotShape>();
  #triedLoading = false;
  #failed = -1;

  /** Starts over for a new value at offset 0. */
  reset(): void {
    this.#pos = 0;
    this.#depth = 1;
    this.#counts[0] = 1;
    this.#kinds[0] = ELEMENTS;
    this.#bundleAt = -1;
    this.#bundleStrings = -1;
    this.#inline.clear();
    this.#triedLoading = false;
    this.#failed = -1;
    this.end = 0;
    this.needEnd = 1;
  }

  /**
   * Continues scanning `bytes[0, length)`, which must start with the bytes given before.
   *
   * @param bytes The buffer holding the value from offset 0.
   * @param length How many bytes of it are valid.
   * @param context The decoder's context: record table, extensions, settings.
   * @returns What was found.
   */
  scan(bytes: Uint8Array, length: number, context: DecodeContext): ScanResult {
    if (this.#failed >= 0) return this.#failed as ScanResult;
    const records = context.records;
    records.syncShared(); // as the decoder does: the shared array may have grown
    const decoders = context.extensions.decoders();
    const counts = this.#counts;
    const kinds = this.#kinds;
    const headerSize = HEADER_SIZE; // a local reads faster in the loop than the import
    const entry = this.#pos;
    let pos = entry;
    let depth = this.#depth;
    let need = 0;
    let result: ScanResult;
    main: for (;;) {
      if (depth === 0) {
        result = this.#finish(bytes, length, pos);
        pos = this.#pos;
        need = this.needEnd;
        break;
      }
      if (pos >= length) {
        need = pos + 1;
        result = NEED_MORE;
        break;
      }
      const token = bytes[pos];
      const top = depth - 1;
      if (kinds[top] === KEYS_EXPECTED) {
        // the keys of an inline definition: only an array header is followed
        if (TOKEN_KIND[token] !== ARRAY) {
          result = UNCERTAIN;
          break;
        }
        const header = HEADER_SIZE[token];
        if (pos + header > length) {
          need = pos + header;
          result = NEED_MORE;
          break;
        }
        const count = lengthAt(bytes, pos);
        pos += header;
        kinds[top] = KEYS;
        counts[top] = count;
        this.#sizes[top] = count;
      } else if (token < 0x40) { // positive fixint
        pos++;
        counts[top]--;
      } else if (token < 0x80) { // record id, or fixint when no structure is known
        let shape = this.#lookup(token & 0x3f, records);
        if (shape === undefined && this.#loadShared(records)) {
          shape = this.#lookup(token & 0x3f, records);
        }
        let fields = 0;
        let size = 1;
        if (shape !== undefined) {
          if (shape.twoByte) {
            if (pos + 2 > length) {
              need = pos + 2;
              result = NEED_MORE;
              break;
            }
            size = 2;
            const high = bytes[pos + 1];
            if (high !== 0) {
              const slot = (token & 0x3f) + (high << 5);
              shape = this.#lookup(slot, records);
              if (shape === undefined && this.#loadShared(records)) {
                shape = this.#lookup(slot, records);
              }
            }
            if (shape === undefined || shape.keys === null) {
              result = records.getStructures === null ? INVALID : UNCERTAIN;
              break;
            }
          }
          fields = shape.size;
        }
        pos += size;
        counts[top]--;
        if (fields > 0) {
          counts[depth] = fields;
          kinds[depth++] = ELEMENTS;
        }
      } else if (token < 0x90) {
        // fixmap (like fixarray and fixstr below, its length is in the low bits: a mask costs less
        // here than a table load)
        pos++;
        counts[top]--;
        if (token > 0x80) {
          counts[depth] = (token & 0x0f) * 2;
          kinds[depth++] = ELEMENTS;
        }
      } else if (token < 0xa0) { // fixarray
        pos++;
        counts[top]--;
        if (token > 0x90) {
          counts[depth] = token & 0x0f;
          kinds[depth++] = ELEMENTS;
        }
      } else if (token < 0xc0) { // fixstr
        pos += 1 + (token & 0x1f);
        counts[top]--;
      } else if (token >= 0xe0) { // negative fixint
        pos++;
        counts[top]--;
      } else {
        // the ext cases leave their type, payload start and length for the step after the switch
        let extensionType = -1;
        let extensionStart = 0;
        let extensionLength = 0;
        switch (token) {
          case 0xc1: // C1, or inside a bundle a bundled string: its length follows as a value
            pos++;
            if (this.#bundleAt < 0) counts[top]--;
            break;
          case 0xc4: // bin8, 16, 32
          case 0xc5:
          case 0xc6:
          case 0xd9: // str8, 16, 32
          case 0xda:
          case 0xdb: {
            const header = headerSize[token];
            if (pos + header > length) {
              need = pos + header;
              result = NEED_MORE;
              break main;
            }
            // a str, bin, array or map header is its first byte and its length field
            pos += header + fieldAt(bytes, pos + 1, header - 1);
            counts[top]--;
            break;
          }
          case 0xc7: // ext8, 16, 32
          case 0xc8:
          case 0xc9:
          case 0xd6: // fixext4, 8, 16
          case 0xd7:
          case 0xd8: {
            const header = headerSize[token];
            if (pos + header > length) {
              need = pos + header;
              result = NEED_MORE;
              break main;
            }
            extensionType = bytes[pos + header - 1];
            extensionStart = pos + header;
            extensionLength = lengthAt(bytes, pos);
            break;
          }
          case 0xdc: // array16, 32
          case 0xdd:
          case 0xde: // map16, 32
          case 0xdf: {
            const header = headerSize[token];
            if (pos + header > length) {
              need = pos + header;
              result = NEED_MORE;
              break main;
            }
            const count = fieldAt(bytes, pos + 1, header - 1) * (token >= 0xde ? 2 : 1);
            pos += header;
            counts[top]--;
            if (count > 0) {
              counts[depth] = count;
              kinds[depth++] = ELEMENTS;
            }
            break;
          }
          case 0xd4: { // fixext1: record definition, a custom tag, or a 1-byte payload
            if (pos + 3 > length) {
              need = pos + 3;
              result = NEED_MORE;
              break main;
            }
            const type = bytes[pos + 1];
            if (type === 0x72) {
              counts[top]--;
              counts[depth] = 1;
              kinds[depth] = KEYS_EXPECTED;
              this.#slots[depth++] = (bytes[pos + 2] & 0x3f) * 2;
              pos += 3;
              break;
            }
            const custom = decoders[type];
            if (custom !== undefined && !custom.unpack && custom.read) {
              pos += 3; // a tag: the value follows
              break;
            }
            extensionType = type;
            extensionStart = pos + 2;
            extensionLength = 1;
            break;
          }
          case 0xd5: { // fixext2: two-byte record definition, or a 2-byte payload
            if (pos + 2 > length) {
              need = pos + 2;
              result = NEED_MORE;
              break main;
            }
            if (bytes[pos + 1] === 0x72) {
              if (pos + 4 > length) {
                need = pos + 4;
                result = NEED_MORE;
                break main;
              }
              const low = bytes[pos + 2];
              const high = bytes[pos + 3];
              if ((low & 0x3f) < 32) {
                result = INVALID;
                break main;
              }
              const dispatchSlot = 32 + (low & 0x1f);
              if (high !== 0 && this.#lookup(dispatchSlot, records) === undefined) {
                this.#inline.set(dispatchSlot, { size: 0, twoByte: true, keys: null });
              }
              counts[top]--;
              counts[depth] = 1;
              kinds[depth] = KEYS_EXPECTED;
              this.#slots[depth++] = (dispatchSlot + (high << 5)) * 2 + (high === 0 ? 1 : 0);
              pos += 4;
              break;
            }
            extensionType = bytes[pos + 1];
            extensionStart = pos + 2;
            extensionLength = 2;
            break;
          }
          default: // nil, false, true, float32/64, (u)int8/16/32/64
            pos += headerSize[token];
            counts[top]--;
        }
        if (extensionType >= 0) {
          const kind = this.#extension(
            bytes,
            length,
            extensionType,
            extensionStart,
            extensionLength,
            context,
            decoders,
          );
          if (kind === MORE) {
            need = this.needEnd;
            result = NEED_MORE;
            break;
          }
          if (kind === BAD) {
            result = INVALID;
            break;
          }
          pos = extensionStart + extensionLength;
          if (kind === PAYLOAD) counts[top]--; // a tag's value is the element instead
        }
      }
      // close the frames that are complete; a definition's keys are followed by its values
      while (depth > 0 && counts[depth - 1] === 0) {
        depth--;
        if (kinds[depth] === KEYS) {
          const slotBits = this.#slots[depth];
          const fields = this.#sizes[depth];
          this.#inline.set(slotBits >> 1, {
            size: fields,
            twoByte: (slotBits & 1) === 1,
            keys: DEFINED,
          });
          kinds[depth] = ELEMENTS;
          if (fields > 0) {
            counts[depth] = fields;
            depth++;
          }
        }
      }
    }
    this.#depth = depth;
    if (result === NEED_MORE) {
      this.needEnd = need;
      this.#pos = pos;
      // bytes consumed, plus the partial header looked at and left for the next call
      this.examined += Math.max(0, Math.min(pos, length) - entry) + Math.max(0, length - pos);
    } else {
      this.#pos = pos;
      this.examined += Math.max(0, Math.min(pos, length) - entry);
      if (result !== COMPLETE) this.#failed = result;
    }
    return result;
  }

  /** After the value's elements: the end, or the end of the last bundle's strings. */
  #finish(bytes: Uint8Array, length: number, pos: number): ScanResult {
    if (this.#bundleAt >= 0) {
      if (this.#bundleStrings < 0) {
        pos = this.#bundleAt;
        this.#bundleStrings = 0;
      }
      while (this.#bundleStrings < 2) {
        if (pos >= length) return this.#needMore(pos, pos + 1);
        const token = bytes[pos];
        if (TOKEN_KIND[token] !== STR) {
          this.#pos = pos;
          return INVALID;
        }
        const header = HEADER_SIZE[token];
        if (pos + header > length) return this.#needMore(pos, pos + header);
        pos += header + lengthAt(bytes, pos);
        this.#bundleStrings++;
      }
    }
    if (pos > length) return this.#needMore(pos, pos);
    this.#pos = pos;
    this.end = pos;
    return COMPLETE;
  }

  #needMore(pos: number, needEnd: number): ScanResult {
    this.#pos = pos;
    this.needEnd = needEnd;
    return NEED_MORE;
  }

  /** What an ext of `type` with a `length`-byte payload at `start` is (not fixext1 tags). */
  #extension(
    bytes: Uint8Array,
    available: number,
    type: number,
    start: number,
    length: number,
    context: DecodeContext,
    decoders: readonly (Extension | undefined)[],
  ): number {
    const custom = decoders[type];
    if (custom !== undefined) return custom.unpack ? PAYLOAD : BAD;
    switch (type) {
      case 0x00: // undefined
      case 0xff: // timestamp
      case 0x42: // "B" big integer
      case 0x70: // "p" pointer
      case 0x74: // "t" typed array
        return PAYLOAD;
      case 0x73: // "s" Set
      case 0x65: // "e" Error
      case 0x78: // "x" RegExp
        return TAG;
      case 0x69: // "i": the next value is object #id
        return context.rejectReferences || length !== 4 ? BAD : TAG;
      case 0x62: { // "b": string bundle; the next value is the element
        if (length < 4) return BAD;
        if (start + 4 > available) {
          this.needEnd = start + 4;
          return MORE;
        }
        const stringsAt = start + uint32At(bytes, start);
        if (stringsAt < start + length) return BAD;
        this.#bundleAt = stringsAt;
        return TAG;
      }
    }
    return BAD;
  }

  /** The structure a record id's slot has: defined earlier in this value, or the decoder's. */
  #lookup(slot: number, records: RecordTable): SlotShape | undefined {
    if (this.#inline.size !== 0) {
      const inline = this.#inline.get(slot);
      if (inline !== undefined) return inline;
    }
    return records.types[slot] ?? records.resolve(slot);
  }

  /**
   * An unknown slot makes the decoder try `getStructures` once per value (docs/wire-format.md,
   * "The decoder's structure table"); the scanner does the same, so both see the same table.
   * Returns whether structures were loaded.
   */
  #loadShared(records: RecordTable): boolean {
    if (records.getStructures === null || this.#triedLoading) return false;
    this.#triedLoading = true;
    let loaded: unknown;
    try {
      loaded = records.getStructures();
    } catch {
      return false; // the decoder will call it again and report the error
    }
    if (!Array.isArray(loaded)) return false;
    records.replaceShared(
      Object.isFrozen(loaded) ? loaded.map((keys: string[]) => keys.slice()) : loaded,
    );
    return true;
  }
}
