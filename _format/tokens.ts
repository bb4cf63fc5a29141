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

/** Sets the entries of `first..last` (inclusive). */
function describe(
  first: number,
  last: number,
  kind: number,
  lengthField: number,
  headerSize: number,
): void {
  for (let token = first; token <= last; token++) {
    TOKEN_KIND[token] = kind;
    LENGTH_FIELD[token] = lengthField;
    HEADER_SIZE[token] = headerSize;
  }
}

describe(0x00, 0x7f, SCALAR, 0, 1); // positive fixint
describe(0x80, 0x8f, MAP, 0, 1); // fixmap
describe(0x90, 0x9f, ARRAY, 0, 1); // fixarray
describe(0xa0, 0xbf, STR, 0, 1); // fixstr
describe(0xc0, 0xc0, SCALAR, 0, 1); // nil
describe(0xc1, 0xc1, NEVER_USED, 0, 1);
describe(0xc2, 0xc3, SCALAR, 0, 1); // false, true
describe(0xc4, 0xc4, BIN, 1, 2); // bin8
describe(0xc5, 0xc5, BIN, 2, 3); // bin16
describe(0xc6, 0xc6, BIN, 4, 5); // bin32
describe(0xc7, 0xc7, EXT, 1, 3); // ext8
describe(0xc8, 0xc8, EXT, 2, 4); // ext16
describe(0xc9, 0xc9, EXT, 4, 6); // ext32
describe(0xca, 0xca, SCALAR, 0, 5); // float32
describe(0xcb, 0xcb, SCALAR, 0, 9); // float64
describe(0xcc, 0xcc, SCALAR, 0, 2); // uint8
describe(0xcd, 0xcd, SCALAR, 0, 3); // uint16
describe(0xce, 0xce, SCALAR, 0, 5); // uint32
describe(0xcf, 0xcf, SCALAR, 0, 9); // uint64
describe(0xd0, 0xd0, SCALAR, 0, 2); // int8
describe(0xd1, 0xd1, SCALAR, 0, 3); // int16
describe(0xd2, 0xd2, SCALAR, 0, 5); // int32
describe(0xd3, 0xd3, SCALAR, 0, 9); // int64
describe(0xd4, 0xd8, EXT, 0, 2); // fixext1, 2, 4, 8, 16
describe(0xd9, 0xd9, STR, 1, 2); // str8
describe(0xda, 0xda, STR, 2, 3); // str16
describe(0xdb, 0xdb, STR, 4, 5); // str32
describe(0xdc, 0xdc, ARRAY, 2, 3); // array16
describe(0xdd, 0xdd, ARRAY, 4, 5); // array32
describe(0xde, 0xde, MAP, 2, 3); // map16
describe(0xdf, 0xdf, MAP, 4, 5); // map32
describe(0xe0, 0xff, SCALAR, 0, 1); // negative fixint
for (let token = 0x80; token < 0xa0; token++) INLINE_LENGTH[token] = token & 0x0f;
for (let token = 0xa0; token < 0xc0; token++) INLINE_LENGTH[token] = token & 0x1f;
for (let token = 0xd4; token <= 0xd8; token++) INLINE_LENGTH[token] = 1 << (token - 0xd4);

/**
 * The length of the token at `at`: payload bytes of a str, bin or ext, elements of an array,
 * entries of a map. The caller checks that the header's {@linkcode HEADER_SIZE} bytes are there.
 */
export function lengthAt(bytes: Uint8Array, at: number): number {
  const token = bytes[at];
  const field = LENGTH_FIELD[token];
  return field === 0 ? INLINE_LENGTH[token] : fieldAt(bytes, at + 1, field);
}

/** The big-endian unsigned length field of `size` bytes (1, 2 or 4) at `at`. */
export function fieldAt(bytes: Uint8Array, at: number, size: number): number {
  return size === 1
    ? bytes[at]
    : size === 2
    ? (bytes[at] << 8) | bytes[at + 1]
    : uint32At(bytes, at);
}

/** The big-endian unsigned 32-bit integer at `at`, from byte loads. */
export function uint32At(bytes: Uint8Array, at: number): number {
  return bytes[at] * 0x1000000 + ((bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]);
}
