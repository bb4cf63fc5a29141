// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The "t" extension (0x74; docs/wire-format.md, "moreTypes codes"): one code byte naming the type,
// then the raw memory bytes of the array (platform order, little-endian in practice).

/** Code byte 0x10: an ArrayBuffer. */
export const ARRAY_BUFFER_CODE = 0x10;
/** Code byte 0x11: a DataView. */
export const DATA_VIEW_CODE = 0x11;

/** A constructor of one of the typed array classes of the extension. */
export type TypedArrayConstructor = {
  new (buffer: ArrayBuffer): ArrayBufferView;
  readonly BYTES_PER_ELEMENT: number;
  readonly name: string;
};

/** Typed array classes by code byte 0..10, in msgpackr's order. */
export const TYPED_ARRAYS: readonly TypedArrayConstructor[] = [
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
];

/**
 * The code byte for a typed array, ArrayBuffer or DataView; 0xff for a type msgpackr has no code
 * for (such as Float16Array), which msgpackr also writes and cannot read back.
 */
export function typedArrayCode(value: ArrayBufferView | ArrayBuffer): number {
  if (value instanceof ArrayBuffer) return ARRAY_BUFFER_CODE;
  if (value instanceof DataView) return DATA_VIEW_CODE;
  const index = TYPED_ARRAYS.indexOf(value.constructor as TypedArrayConstructor);
  if (index >= 0) return index;
  // a subclass: find its built-in ancestor
  for (let i = 0; i < TYPED_ARRAYS.length; i++) {
    if (value instanceof TYPED_ARRAYS[i]) return i;
  }
  return 0xff;
}

/**
 * Why a "t" payload cannot be decoded (an unknown code, or a byte length that is not a whole
 * number of elements), or `null` when it can.
 */
export function typedArrayPayloadProblem(code: number, byteLength: number): string | null {
  if (code === ARRAY_BUFFER_CODE || code === DATA_VIEW_CODE) return null;
  const Type = TYPED_ARRAYS[code];
  if (Type === undefined) return `Could not find typed array for code ${code}`;
  if (byteLength % Type.BYTES_PER_ELEMENT !== 0) {
    return `Cannot decode ${Type.name}: byte length ${byteLength} is not a multiple of ${Type.BYTES_PER_ELEMENT}`;
  }
  return null;
}

/**
 * Decodes a "t" payload whose code and length {@linkcode typedArrayPayloadProblem} accepted:
 * copies the bytes into a fresh, aligned ArrayBuffer and builds the type over all of it.
 */
export function decodeTypedArray(
  bytes: Uint8Array,
  start: number,
  length: number,
): ArrayBufferView | ArrayBuffer {
  const code = bytes[start];
  const buffer = bytes.slice(start + 1, start + length).buffer;
  if (code === ARRAY_BUFFER_CODE) return buffer;
  if (code === DATA_VIEW_CODE) return new DataView(buffer);
  return new TYPED_ARRAYS[code](buffer);
}
