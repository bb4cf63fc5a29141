// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// What the first byte of a MessagePack token says about the bytes after it, for the readers that
// step over tokens without building values: the stream's value scanner, the UTF-8 batch
// lookahead and the command line reader. (The decoder's `read()` keeps its own switch.)
//
// A token is a header, then a payload (str, bin, ext) or elements (array, map):
//
//   first byte | length field: 0, 1, 2 or 4 bytes, big-endian | ext only: type byte
//
// A length field of 0 bytes means the first byte gives the length: the low bits of a fixmap,
// fixarray (4 bits) or fixstr (5 bits), the fixed payload size of a fixext. A map's length counts
// entries, two elements each. A scalar's header is the whole token. These are standard
// MessagePack's sizes (docs/wire-format.md, "Standard types"); what msgpackr's dialect reads into
// some of them (record ids in 0x40..0x7f, `d4 72` / `d5 72` definitions, `c1` in a string
// bundle) is each reader's business. Loops that run per token may take a fix format's length
// from its low bits (what `INLINE_LENGTH` holds): there the mask costs less than a table load.

/** {@linkcode TOKEN_KIND}: nil, booleans, integers, floats; the header is the whole token. */
export const SCALAR = 0;
/** {@linkcode TOKEN_KIND}: a string; its length is its payload's bytes. */
export const STR = 1;
/** {@linkcode TOKEN_KIND}: binary data; its length is its payload's bytes. */
export const BIN = 2;
/** {@linkcode TOKEN_KIND}: an array; its length is the number of elements after the header. */
export const ARRAY = 3;
/** {@linkcode TOKEN_KIND}: a map; its length is the number of entries (two elements each). */
export const MAP = 4;
/** {@linkcode TOKEN_KIND}: an extension; the header ends with the type byte, then the payload. */
export const EXT = 5;
/** {@linkcode TOKEN_KIND}: `c1`, which standard MessagePack never uses. */
export const NEVER_USED = 6;

/** The kind of token each first byte starts: {@linkcode SCALAR} … {@linkcode NEVER_USED}. */
export const TOKEN_KIND: Uint8Array = new Uint8Array(256);
/** Bytes of each first byte's header: itself, its length field, an ext's type byte. */
export const HEADER_SIZE: Uint8Array = new Uint8Array(256);
/** Bytes of each first byte's length field: 1, 2 or 4, or 0 when the first byte gives it. */
export const LENGTH_FIELD: Uint8Array = new Uint8Array(256);
/** Where {@linkcode LENGTH_FIELD} is 0: the length the first byte gives (0 for scalars). */
export const INLINE_LENGTH: Uint8Array = new Uint8Array(256);

// every byte starts a 1-byte scalar unless set below
HEADER_SIZE.fill(1);
HEADER_SIZE.set([5, 9, 2, 3, 5, 9, 2, 3, 5, 9], 0xca); // float32, float64, uint8..64, int8..64
/**
 * Sets the tokens from `first` on, one per length field size in `fields`; a fix format's length
 * is its index in the range (a fixext's payload, 1 << index).
 */
function sized(first: number, kind: number, fields: number[]): void {
  fields.forEach((field, i) => {
    TOKEN_KIND[first + i] = kind;
    LENGTH_FIELD[first + i] = field;
    HEADER_SIZE[first + i] = 1 + field + (kind === EXT ? 1 : 0);
    if (field === 0) INLINE_LENGTH[first + i] = kind === EXT ? 1 << i : i;
  });
}
sized(0x80, MAP, Array(16).fill(0)); // fixmap
sized(0x90, ARRAY, Array(16).fill(0)); // fixarray
sized(0xa0, STR, Array(32).fill(0)); // fixstr
sized(0xc1, NEVER_USED, [0]);
sized(0xc4, BIN, [1, 2, 4]); // bin8, bin16, bin32
sized(0xc7, EXT, [1, 2, 4]); // ext8, ext16, ext32
sized(0xd4, EXT, [0, 0, 0, 0, 0]); // fixext1, 2, 4, 8, 16
sized(0xd9, STR, [1, 2, 4]); // str8, str16, str32
sized(0xdc, ARRAY, [2, 4]); // array16, array32
sized(0xde, MAP, [2, 4]); // map16, map32

/**
 * The length of the token at `at`: payload bytes of a str, bin or ext, elements of an array,
 * entries of a map. The caller checks that the header's {@linkcode HEADER_SIZE} bytes are there.
 */
export function lengthAt(bytes: Uint8Array, at: number): number {
  const token = bytes[at];
  const field = LENGTH_FIELD[token]; // big-endian, unsigned
  return field === 0
    ? INLINE_LENGTH[token]
    : field === 1
    ? bytes[at + 1]
    : field === 2
    ? (bytes[at + 1] << 8) | bytes[at + 2]
    : uint32At(bytes, at + 1);
}

/** The big-endian unsigned 32-bit integer at `at`, from byte loads. */
export function uint32At(bytes: Uint8Array, at: number): number {
  return bytes[at] * 0x1000000 + ((bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]);
}
