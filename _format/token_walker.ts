// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// One walk over the tokens of msgpackr's dialect, for the readers that follow values without
// building them the way the decoder does: the stream's value scanner (`_stream/value_scanner.ts`
// asks where a value ends) and the command line reader (`_cli/wire.ts` asks how each item was
// written). `tokenSize` gives the UTF-8 batch lookahead the size of a token. The decoder's
// `read()` keeps its own switch.
//
// The walk covers one top-level value. Nesting is an explicit stack of frames, each counting the
// tokens still to come inside it, so the walk can stop at any byte and resume there once more
// bytes have arrived (`feed`, then `run` or `next` again). Each token is read by its kind
// (`TOKEN_KIND` of `_format/tokens.ts`, with its header size and length from the same tables);
// the dialect reads more into some scalars and extensions. What the bytes mean:
// - an array opens a frame of n elements, a map of 2n; str, bin and ext skip their payload; a
//   scalar has a fixed size (docs/wire-format.md, "Standard types");
// - 0x40..0x7f: a record id when the slot has a record type (then a frame of one value per field;
//   a second id byte in two-byte mode), else a fixint (docs/wire-format.md, "Records");
// - `d4 72 ID` / `d5 72 LO HI`: an inline definition: a frame whose first element must be the
//   keys array, then one value per key (docs/wire-format.md, "Inline definitions", "Two-byte
//   ids");
// - a tag (an extension followed by the value it applies to: Set, Error, RegExp, a
//   structured-clone id, a string bundle, a custom `read` extension in fixext1 form) opens a frame
//   of one value, and so does `c1` once a bundle is open (the bundled string's length follows as a
//   value: docs/wire-format.md, "Bundled strings");
// - after a value that opened a bundle, the value ends after the last bundle's two strings, found
//   at the bundle's payload start + its 4-byte offset field.
// What a record slot holds and what an extension type is depend on the reader (the decoder's
// structure table and extensions, or the tool's own table): the walker asks its `TokenDialect`.
// A problem ends the walk with INVALID (the bytes are not a value) or UNCERTAIN (the walker
// cannot size what follows: keys that are not an array, an id `getStructures` may still define;
// a decoder may still read it), with a message. `next` returns the token that shows the problem
// first (for keys that are not an array, the last token of those keys), and the problem after.

import {
  ARRAY,
  BIN,
  HEADER_SIZE,
  INLINE_LENGTH,
  LENGTH_FIELD,
  lengthAt,
  MAP,
  NEVER_USED,
  SCALAR,
  STR,
  TOKEN_KIND,
  uint32At,
} from "./tokens.ts";
import { isTimestampLength, timestampLengthProblem } from "./timestamp.ts";

/** Walk status: the value continues past the bytes given; see {@linkcode TokenWalker.needEnd}. */
export const NEED_MORE = 0;
/** Walk status: the value ends at {@linkcode TokenWalker.end}. */
export const COMPLETE = 1;
/** Walk status: the bytes are not a value; see {@linkcode TokenWalker.problem}. */
export const INVALID = 2;
/** Walk status: the walker cannot size what follows; see {@linkcode TokenWalker.problem}. */
export const UNCERTAIN = 3;

// token kinds: SCALAR_TOKEN … EXT_TOKEN are TOKEN_KIND's SCALAR … EXT + 4, then the dialect's
/** {@linkcode TokenWalker.next}: nil, a boolean, a number (0x40..0x7f without a record type). */
export const SCALAR_TOKEN = 4;
/** {@linkcode TokenWalker.next}: a string; `count` is its payload's bytes. */
export const STR_TOKEN = 5;
/** {@linkcode TokenWalker.next}: binary data; `count` is its payload's bytes. */
export const BIN_TOKEN = 6;
/** {@linkcode TokenWalker.next}: an array header; `count` elements follow. */
export const ARRAY_TOKEN = 7;
/** {@linkcode TokenWalker.next}: a map header; `count` entries (keys and values) follow. */
export const MAP_TOKEN = 8;
/** {@linkcode TokenWalker.next}: an extension that is its payload; `count` payload bytes. */
export const EXT_TOKEN = 9;
/** {@linkcode TokenWalker.next}: an extension (`count` payload bytes) followed by one value. */
export const TAG_TOKEN = 10;
/** {@linkcode TokenWalker.next}: a record id; `shape` has its type, one value per field follows. */
export const RECORD_TOKEN = 11;
/** {@linkcode TokenWalker.next}: an inline definition; the keys array, then the values follow. */
export const DEFINITION_TOKEN = 12;
/** {@linkcode TokenWalker.next}: `c1` outside a string bundle. */
export const C1_TOKEN = 13;
/** {@linkcode TokenWalker.next}: `c1` in a string bundle; its length follows as a value. */
export const BUNDLED_TOKEN = 14;

/** {@linkcode TokenDialect.extension}: the extension is its payload. */
export const PAYLOAD_EXT = 0;
/** {@linkcode TokenDialect.extension}: the extension is followed by the value it applies to. */
export const TAG_EXT = 1;
/** {@linkcode TokenDialect.extension}: a string bundle ("b"), followed by its value. */
export const BUNDLE_EXT = 2;
/** {@linkcode TokenDialect.extension}: the extension cannot be read here. */
export const BAD_EXT = 3;

/** The part of a record type the walker needs. */
export interface RecordShape {
  /** Field values per record. */
  readonly size: number;
  /** The id's first byte is followed by a high byte (docs/wire-format.md, "Two-byte ids"). */
  readonly twoByte: boolean;
  /** `null` for a slot that only dispatches two-byte ids. */
  readonly keys: readonly unknown[] | null;
}

/** What the walker asks its reader about the bytes. */
export interface TokenDialect {
  /**
   * The record type of a slot (record id − 0x40) known before the value, or `undefined`: then an
   * id byte of the slot is a fixint. Definitions read in the value are the walker's own.
   */
  recordShape(slot: number): RecordShape | undefined;
  /**
   * Called when a record id's slot has no type: loads the structures that may define it (as the
   * decoder calls `getStructures`, once per value) and returns whether it did.
   */
  loadStructures(): boolean;
  /**
   * What an extension of `type` with `length` payload bytes is: {@linkcode PAYLOAD_EXT},
   * {@linkcode TAG_EXT}, {@linkcode BUNDLE_EXT} or {@linkcode BAD_EXT}; `fixext1` for the
   * fixext1 form (where a custom `read` extension is a tag).
   */
  extension(type: number, length: number, fixext1: boolean): number;
  /**
   * Whether record types may still appear (`getStructures`): a two-byte id without one is then
   * {@linkcode UNCERTAIN} rather than {@linkcode INVALID}.
   */
  readonly moreStructures: boolean;
}

// frame kinds
/** Counting the elements of an array, map, record, tag, bundled string or the top level. */
const ELEMENTS = 0;
/** An inline definition: counts its keys array (one element), then becomes ELEMENTS. */
const DEFINITION = 1;
/** An inline definition whose keys are not an array: counts them, then the walk fails. */
const NOT_KEYS = 2;

const DEFINED: readonly unknown[] = Object.freeze([]);
const EMPTY = new Uint8Array(0);

/**
 * A resumable walk over the tokens of one top-level value in a growing buffer: `feed` the bytes,
 * `begin` at the value's offset, then `run` to its end or `next` one token at a time; after
 * {@linkcode NEED_MORE}, `feed` the longer buffer and call again.
 *
 * @example Usage
 * ```ts
 * import { COMPLETE, NEED_MORE, TokenWalker } from "./token_walker.ts";
 * import assert from "node:assert/strict";
 *
 * const walker = new TokenWalker({
 *   recordShape: () => undefined,
 *   loadStructures: () => false,
 *   extension: () => 0,
 *   moreStructures: false,
 * });
 * const bytes = new Uint8Array([0x92, 0x01, 0xa1, 0x61]); // [1, "a"]
 * walker.feed(bytes, 2);
 * walker.begin(0);
 * assert.equal(walker.run(), NEED_MORE);
 * walker.feed(bytes, 4);
 * assert.equal(walker.run(), COMPLETE);
 * assert.equal(walker.end, 4);
 * ```
 */
export class TokenWalker {
  /** The buffer holding the value. */
  bytes: Uint8Array = EMPTY;
  /** How many bytes of {@linkcode bytes} have arrived. */
  length = 0;
  /**
   * Where the walk continues: the next token's first byte, or past {@linkcode length} when the
   * last token's payload has not all arrived.
   */
  pos = 0;
  /** Open frames, the top level's included; 0 once the value's tokens are all read. */
  depth = 0;

  // the token `next` returned
  /** Offset of the token's first byte. */
  offset = 0;
  /** End of the token's header: where a payload starts, or the first element. */
  headerEnd = 0;
  /** Payload bytes (str, bin, ext), elements (array), entries (map) or fields (record). */
  count = 0;
  /** An extension's type byte, or -1. */
  extType: number = -1;
  /** A record's or a definition's slot (record id − 0x40, up to 8191 with two-byte ids). */
  slot: number = -1;
  /** A record's type (`undefined` for an id that has none, with a problem pending). */
  shape: RecordShape | undefined = undefined;

  /** With {@linkcode COMPLETE}: the offset just after the value (and its bundle's strings). */
  end = 0;
  /** With {@linkcode NEED_MORE}: the least buffer length with which the walk can progress. */
  needEnd = 1;
  /**
   * With {@linkcode NEED_MORE}: the least offset at which the value can end, whatever the bytes
   * still to come: past every element, map key and value and record field that the headers read
   * so far announce and that has not been read, one byte each (at least `needEnd`). Headers
   * nested in each other that all claim the same trailing bytes add up here, so a reader holding
   * the bytes can refuse a value that would need more than it holds at most.
   */
  leastEnd = 1;
  /** With {@linkcode INVALID} or {@linkcode UNCERTAIN}: what is wrong, and where. */
  problem = "";
  /** The offset {@linkcode problem} names. */
  problemAt = 0;

  readonly #dialect: TokenDialect;
  /** Tokens left per open frame. */
  #counts: number[] = [];
  #frames: number[] = [];
  /** For DEFINITION frames: slot * 2 + (two-byte ? 1 : 0). */
  #slots: number[] = [];
  /**
   * For DEFINITION frames: the number of keys, which is the number of values that follow; for
   * NOT_KEYS frames: the offset of the keys.
   */
  #sizes: number[] = [];
  /** Tokens still to come in the open frames: the sum of `#counts` (kept as tokens are read). */
  #pending = 0;
  /** Offset of the last bundle's strings, or -1 while the value has opened no bundle. */
  #bundleAt = -1;
  /** Bundle strings read after the value (0, 1, 2); -1 before jumping to them. */
  #bundleStrings = -1;
  /** Where the value's own tokens end (the bundle's strings are read after it). */
  #valueEnd = 0;
  /** Record types defined inline earlier in this value. */
  #inline = new Map<number, RecordShape>();
  /** The status the walk ended with (INVALID, UNCERTAIN), or -1. */
  #failed = -1;

  /**
   * The least offset at which the value can end, from the tokens read so far: the walk's position
   * plus a byte for each element, map key and value and record field still expected by the open
   * frames (without a string bundle's strings after the value).
   */
  get announcedEnd(): number {
    return this.pos + this.#pending;
  }

  /**
   * The status a problem has ended the walk with ({@linkcode INVALID}, {@linkcode UNCERTAIN}),
   * or -1: after `next` has returned the token that shows it, and from then on.
   */
  get failure(): number {
    return this.#failed;
  }

  /**
   * A walker for one reader.
   *
   * @param dialect What record slots and extension types mean to the reader.
   */
  constructor(dialect: TokenDialect) {
    this.#dialect = dialect;
  }

  /** The buffer has grown: `bytes[0, length)` holds the bytes given before, and more. */
  feed(bytes: Uint8Array, length: number): void {
    this.bytes = bytes;
    this.length = length;
  }

  /** Starts a new top-level value at `at`; inline definitions of the last one are forgotten. */
  begin(at: number): void {
    this.pos = at;
    this.depth = 1;
    this.#counts[0] = 1;
    this.#frames[0] = ELEMENTS;
    this.#pending = 1;
    this.#bundleAt = -1;
    this.#bundleStrings = -1;
    this.#inline.clear();
    this.#failed = -1;
    this.end = 0;
    this.needEnd = at + 1;
    this.leastEnd = at + 1;
    this.problem = "";
  }

  /** Walks to the end of the value: {@linkcode COMPLETE}, or why it stopped. */
  run(): number {
    return this.#walk(false);
  }

  /**
   * Reads one token and closes the frames it completes; returns its kind
   * ({@linkcode SCALAR_TOKEN} … {@linkcode BUNDLED_TOKEN}) with its fields set, or, when no token
   * can be read, a status. A token whose header shows a problem is returned as read, without
   * opening or closing frames; {@linkcode failure} is then set and the next call returns it.
   */
  next(): number {
    return this.#walk(true);
  }

  #walk(one: boolean): number {
    if (this.#failed >= 0) return this.#failed;
    const bytes = this.bytes;
    const length = this.length;
    const counts = this.#counts;
    const frames = this.#frames;
    const headerSize = HEADER_SIZE; // a local reads faster in the loop than the import
    let pos = this.pos;
    let depth = this.depth;
    let pending = this.#pending;
    let need = 0;
    let result = NEED_MORE;
    // the token read, for `next`
    let kind = SCALAR_TOKEN;
    let offset = pos;
    let header = pos;
    let count = 0;
    let extType = -1;
    let slot = -1;
    let shape: RecordShape | undefined = undefined;
    main: for (;;) {
      if (depth === 0) {
        this.depth = 0;
        this.#pending = 0;
        return this.#finish(pos);
      }
      if (pos >= length) {
        need = pos + 1;
        break;
      }
      const token = bytes[pos];
      const tokenKind = TOKEN_KIND[token];
      const top = depth - 1;
      offset = pos;
      kind = tokenKind + SCALAR_TOKEN; // the token kinds follow TOKEN_KIND's order
      // a definition's keys: an array says how many values follow; any other value is read to its
      // end, and then the walk cannot go on
      if (frames[top] !== ELEMENTS && tokenKind !== ARRAY) {
        frames[top] = NOT_KEYS;
        this.#sizes[top] = pos;
      }
      // the frame the token opens: its kind and its tokens (none when 0)
      let frame = ELEMENTS;
      let opens = 0;
      if (tokenKind === SCALAR) {
        // 0x40..0x7f: a record id when the slot has a record type, else a fixint
        if ((token & 0xc0) === 0x40 && (shape = this.#shape(slot = token & 0x3f, true))) {
          kind = RECORD_TOKEN;
          if (shape.twoByte) {
            if (pos + 2 > length) {
              need = pos + 2;
              break;
            }
            const high = bytes[++pos];
            if (high !== 0) shape = this.#shape(slot += high << 5, true);
            if (shape === undefined || shape.keys === null) {
              shape = undefined;
              header = ++pos;
              const status = this.#dialect.moreStructures ? UNCERTAIN : INVALID;
              this.#fail(status, `Record id is not defined for ${slot}`, offset);
              break;
            }
          }
          count = opens = shape.size;
        }
        header = pos += headerSize[token];
      } else {
        // a fixext1's payload is read with its header: it is a definition's id byte
        const size = token === 0xd4 ? 3 : headerSize[token];
        if (pos + size > length) {
          need = pos + size;
          break;
        }
        header = pos + headerSize[token];
        count = lengthAt(bytes, pos);
        if (tokenKind === STR || tokenKind === BIN) {
          pos = header + count;
        } else if (tokenKind === ARRAY) {
          if (frames[top] !== ELEMENTS) this.#sizes[top] = count; // a definition's keys
          pos = header;
          opens = count;
        } else if (tokenKind === MAP) {
          pos = header;
          opens = count * 2;
        } else if (tokenKind === NEVER_USED) {
          // c1, or in a bundle a bundled string: its length follows as a value
          pos = header;
          if (this.#bundleAt < 0) {
            kind = C1_TOKEN;
          } else {
            kind = BUNDLED_TOKEN;
            opens = 1;
          }
        } else if ((extType = bytes[header - 1]) === 0x72 && (token === 0xd4 || token === 0xd5)) {
          // `d4 72 ID` / `d5 72 LO HI`: an inline definition
          if (pos + 4 > length && token === 0xd5) {
            need = pos + 4;
            break;
          }
          kind = DEFINITION_TOKEN;
          count = 0;
          const low = bytes[header];
          if (token === 0xd4) {
            slot = low & 0x3f;
            this.#slots[depth] = slot * 2;
            header = pos += 3;
          } else {
            const high = bytes[header + 1];
            const dispatchSlot = 32 + (low & 0x1f);
            slot = dispatchSlot + (high << 5);
            header = pos += 4;
            if ((low & 0x3f) < 32) {
              this.#fail(INVALID, `Invalid two-byte record id 0x${low.toString(16)}`, offset);
              break;
            }
            if (high !== 0 && this.#shape(dispatchSlot, false) === undefined) {
              // references to the higher slot go through this one, as in the decoder
              this.#inline.set(dispatchSlot, { size: 0, twoByte: true, keys: null });
            }
            this.#slots[depth] = slot * 2 + (high === 0 ? 1 : 0);
          }
          frame = DEFINITION;
          opens = 1;
        } else {
          const role = this.#dialect.extension(extType, count, token === 0xd4);
          if (role === TAG_EXT || role === BUNDLE_EXT) {
            kind = TAG_TOKEN;
            opens = 1;
          }
          if (role === BUNDLE_EXT) {
            // its payload starts with the 4-byte offset of its strings
            if (count >= 4 && header + 4 > length) {
              need = header + 4;
              break;
            }
            const stringsAt = count < 4 ? -1 : header + uint32At(bytes, header);
            if (count < 4) this.#fail(INVALID, "Invalid string bundle extension", offset);
            else if (stringsAt >= header + count) this.#bundleAt = stringsAt;
            else this.#fail(INVALID, "String bundle offset out of range", header);
          } else if (role === BAD_EXT) {
            // a timestamp's length is judged from its header, before its payload arrives
            const problem = extType === 0xff && !isTimestampLength(count)
              ? timestampLengthProblem(count)
              : `Extension type ${extType} cannot be read here`;
            this.#fail(INVALID, problem, offset);
          }
          pos = header + count;
          if (this.#failed >= 0) break;
        }
      }
      // the token is read (one of the tokens pending); the frame it opens, if any, adds its own
      counts[top]--;
      pending += opens - 1;
      if (opens > 0) {
        counts[depth] = opens;
        frames[depth++] = frame;
      }
      // close the frames that are complete; a definition's keys are followed by its values
      while (depth > 0 && counts[depth - 1] === 0) {
        if (frames[depth - 1] === NOT_KEYS) {
          // the frame stays open: `next` has closed the frames of the keys value
          this.#fail(UNCERTAIN, "Record definition keys must be an array", this.#sizes[depth - 1]);
          break main;
        }
        depth--;
        if (frames[depth] === DEFINITION) {
          const slotBits = this.#slots[depth];
          const fields = this.#sizes[depth];
          this.#inline.set(slotBits >> 1, {
            size: fields,
            twoByte: (slotBits & 1) === 1,
            keys: DEFINED,
          });
          frames[depth] = ELEMENTS;
          if (fields > 0) {
            counts[depth] = fields;
            depth++;
            pending += fields;
          }
        }
      }
      if (one) {
        result = kind;
        break;
      }
    }
    this.pos = pos;
    this.depth = depth;
    this.#pending = pending;
    if (this.#failed >= 0) {
      if (!one) return this.#failed;
      result = kind;
    } else if (result === NEED_MORE) {
      this.needEnd = need;
      // the token at `pos` is among the pending ones
      this.leastEnd = Math.max(need, pos + pending);
      return NEED_MORE;
    }
    this.offset = offset;
    this.headerEnd = header;
    this.count = count;
    this.extType = extType;
    this.slot = slot;
    this.shape = shape;
    return result;
  }

  /** After the value's tokens: its end, or the end of the last bundle's strings after it. */
  #finish(pos: number): number {
    const length = this.length;
    if (this.#bundleAt >= 0) {
      if (this.#bundleStrings < 0) {
        this.#valueEnd = pos;
        pos = this.#bundleAt;
        this.#bundleStrings = 0;
      }
      const bytes = this.bytes;
      while (this.#bundleStrings < 2) {
        if (pos >= length) return this.#needMore(pos, pos + 1);
        const token = bytes[pos];
        if (TOKEN_KIND[token] !== STR) {
          return this.#fail(INVALID, "Expected string", this.pos = pos);
        }
        const header = HEADER_SIZE[token];
        if (pos + header > length) return this.#needMore(pos, pos + header);
        pos += header + lengthAt(bytes, pos);
        this.#bundleStrings++;
      }
      if (this.#valueEnd > pos) pos = this.#valueEnd;
    }
    this.pos = pos;
    if (pos > length) return this.#needMore(pos, pos);
    this.end = pos;
    return COMPLETE;
  }

  /** Ends the walk with a problem: `status` is {@linkcode INVALID} or {@linkcode UNCERTAIN}. */
  #fail(status: number, problem: string, at: number): number {
    this.problem = problem;
    this.problemAt = at;
    return this.#failed = status;
  }

  #needMore(pos: number, needEnd: number): number {
    this.pos = pos;
    this.needEnd = needEnd;
    this.leastEnd = needEnd;
    return NEED_MORE;
  }

  /**
   * The record type of a slot: defined earlier in this value, or the dialect's (which may `load`
   * structures for it).
   */
  #shape(slot: number, load: boolean): RecordShape | undefined {
    const inline = this.#inline.size !== 0 ? this.#inline.get(slot) : undefined;
    if (inline !== undefined) return inline;
    const dialect = this.#dialect;
    const shape = dialect.recordShape(slot);
    if (shape !== undefined || !load || !dialect.loadStructures()) return shape;
    return dialect.recordShape(slot);
  }
}

/**
 * Bytes of the token at `p` that is not a str (str/bin/ext payloads included; only the header of
 * an array or map), for a walk that steps over tokens without following their nesting (the UTF-8
 * batch lookahead): 0 to stop there (`c1`, 32-bit lengths); NaN when a length byte lies past the
 * input.
 *
 * @example Usage
 * ```ts
 * import { tokenSize } from "./token_walker.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(tokenSize(new Uint8Array([0xcd, 0x01, 0x00]), 0), 3); // uint16
 * assert.equal(tokenSize(new Uint8Array([0xc4, 0x02, 0x01, 0x02]), 0), 4); // bin8 of 2 bytes
 * assert.equal(tokenSize(new Uint8Array([0x92, 0x01, 0x02]), 0), 1); // the array's header
 * ```
 */
export function tokenSize(bytes: Uint8Array, p: number): number {
  const token = bytes[p];
  const size = FIXED_TOKEN_SIZES[token];
  if (size !== 0 || LENGTH_FIELD[token] === 4 || TOKEN_KIND[token] === NEVER_USED) return size;
  return HEADER_SIZE[token] + lengthAt(bytes, p); // bin8/16, ext8/16
}

/**
 * Bytes of each token whose first byte gives its size (a scalar, a fixstr or fixext with its
 * payload, the header of an array or map); 0 for the others and for `c1`.
 */
const FIXED_TOKEN_SIZES: Uint8Array = new Uint8Array(256);
for (let token = 0; token < 256; token++) {
  const kind = TOKEN_KIND[token];
  if (kind === ARRAY || kind === MAP) FIXED_TOKEN_SIZES[token] = HEADER_SIZE[token];
  else if (LENGTH_FIELD[token] === 0 && kind !== NEVER_USED) {
    FIXED_TOKEN_SIZES[token] = HEADER_SIZE[token] + INLINE_LENGTH[token];
  }
}
