// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Payload of the "B" extension (0x42; docs/wire-format.md, "The bigint extension"): a bigint as
// big-endian two's complement. msgpackr writes whole 64-bit chunks (as many as the sign bit needs)
// for values below 2^65536 in magnitude, and the minimal byte length above that.

const MASK_64 = (1n << 64n) - 1n;

/** Encodes a bigint (beyond the 64-bit range) as msgpackr's "B" extension payload. */
export function encodeBigIntPayload(value: bigint): Uint8Array {
  const empty = value < 0n ? -1n : 0n;
  if (value >> 65536n === empty) {
    const chunks: bigint[] = [];
    let rest = value;
    while (true) {
      chunks.push(rest & MASK_64);
      if (rest >> 63n === empty) break;
      rest >>= 64n;
    }
    // chunks are little-endian order; write each most significant first
    const bytes = new Uint8Array(chunks.length * 8);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < chunks.length; i++) {
      view.setBigUint64((chunks.length - 1 - i) * 8, chunks[i]);
    }
    return bytes;
  }
  const invert = value < 0n;
  let hex = (invert ? ~value : value).toString(16);
  if (hex.length % 2) hex = "0" + hex;
  else if (parseInt(hex.charAt(0), 16) >= 8) hex = "00" + hex;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) {
    const byte = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
    bytes[i] = invert ? ~byte : byte;
  }
  return bytes;
}

/** Decodes a "B" extension payload of any length (first byte signed). */
export function decodeBigIntPayload(bytes: Uint8Array, start: number, length: number): bigint {
  if (length === 0) return 0n;
  const headLength = length % 8 || 8;
  let head = BigInt(bytes[start] & 0x80 ? bytes[start] - 0x100 : bytes[start]);
  for (let i = 1; i < headLength; i++) head = (head << 8n) + BigInt(bytes[start + i]);
  if (length === headLength) return head;
  const view = new DataView(bytes.buffer, bytes.byteOffset + start, length);
  // split in halves so a long payload costs O(n log n) bigint work instead of O(n^2) shifts
  const combine = (from: number, to: number): bigint => {
    if (to - from <= 40) {
      let out = view.getBigUint64(from);
      for (let i = from + 8; i < to; i += 8) out = (out << 64n) | view.getBigUint64(i);
      return out;
    }
    const middle = from + ((to - from) >> 4 << 3);
    return (combine(from, middle) << BigInt((to - middle) * 8)) | combine(middle, to);
  };
  return (head << BigInt((length - headLength) * 8)) | combine(headLength, length);
}
