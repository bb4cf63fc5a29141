// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Bytes as text for the command line tool: base64 (tagged JSON) and hex (tagged JSON input,
// `inspect`).

const CHUNK = 0x8000;

/** Standard base64 (with padding) of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}

/** Bytes of standard base64 text (padding optional); `null` when the text is not base64. */
export function fromBase64(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** Lowercase hex of `bytes`, `separator` between bytes. */
export function toHex(bytes: Uint8Array, separator = ""): string {
  const parts = new Array<string>(bytes.length);
  for (let i = 0; i < bytes.length; i++) parts[i] = HEX[bytes[i]];
  return parts.join(separator);
}

/** Bytes of hex text (white space between digits allowed); `null` when it is not hex. */
export function fromHex(text: string): Uint8Array | null {
  const clean = text.replace(/\s+/g, "");
  if (clean.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(clean)) return null;
  const bytes = new Uint8Array(clean.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/**
 * UTF-8 that may hold surrogates as 3-byte sequences (WTF-8, as msgpackr writes lone surrogates
 * in short strings); `null` when the bytes are not even that.
 */
export function decodeWtf8(bytes: Uint8Array): string | null {
  let out = "";
  for (let i = 0; i < bytes.length;) {
    const b0 = bytes[i];
    let code: number;
    let size: number;
    if (b0 < 0x80) {
      code = b0;
      size = 1;
    } else if (b0 >= 0xc2 && b0 < 0xe0) {
      code = b0 & 0x1f;
      size = 2;
    } else if (b0 >= 0xe0 && b0 < 0xf0) {
      code = b0 & 0x0f;
      size = 3;
    } else if (b0 >= 0xf0 && b0 < 0xf5) {
      code = b0 & 0x07;
      size = 4;
    } else {
      return null;
    }
    if (i + size > bytes.length) return null;
    for (let j = 1; j < size; j++) {
      const next = bytes[i + j];
      if ((next & 0xc0) !== 0x80) return null;
      code = (code << 6) | (next & 0x3f);
    }
    if (
      (size === 3 && code < 0x800) || (size === 4 && (code < 0x10000 || code > 0x10ffff))
    ) {
      return null;
    }
    out += String.fromCodePoint(code);
    i += size;
  }
  return out;
}
