// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Bytes as text for the command line tool: base64 (tagged JSON, `--base64` input) and hex
// (tagged JSON input, `inspect`, `--hex` input).

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
 * UTF-8 that may hold lone surrogates as 3-byte sequences (WTF-8, as msgpackr writes them in
 * short strings); `null` when the bytes are not even that: not UTF-8 but for surrogates, an
 * overlong form, or a high and a low surrogate written as two 3-byte sequences (WTF-8 writes a
 * pair as one 4-byte sequence).
 */
export function decodeWtf8(bytes: Uint8Array): string | null {
  let out = "";
  /** Where the last 3-byte high surrogate ended. */
  let highEnd = -1;
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
    if (code >= 0xdc00 && code < 0xe000 && highEnd === i) return null;
    out += String.fromCodePoint(code);
    i += size;
    if (code >= 0xd800 && code < 0xdc00) highEnd = i;
  }
  return out;
}

/** Input given as text that is not the dump it claims to be (exit status 1). */
export class DumpError extends SyntaxError {
  constructor(message: string) {
    super(message);
    this.name = "DumpError";
  }
}

function badCharacter(kind: string, text: string, index: number): never {
  const char = String.fromCodePoint(text.codePointAt(index)!);
  throw new DumpError(
    `The input is not ${kind}: ${JSON.stringify(char)} at character ${index + 1}`,
  );
}

/**
 * The bytes of a hex dump as logs and consoles show one: pairs of hex digits, any white space
 * between them, and `0x` before the first digit or before any group that follows white space
 * (`0x81a161`, `81 a1 61`, `0x81 0xa1 0x61`). Throws {@linkcode DumpError}.
 */
export function parseHexDump(text: string): Uint8Array {
  const digits: number[] = [];
  let groupStart = true;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09 || code === 0xfeff) {
      groupStart = true;
      continue;
    }
    if (groupStart && code === 0x30 && (text[i + 1] === "x" || text[i + 1] === "X")) {
      i++;
      groupStart = false;
      continue;
    }
    groupStart = false;
    const digit = code >= 0x30 && code <= 0x39
      ? code - 0x30
      : code >= 0x61 && code <= 0x66
      ? code - 0x57
      : code >= 0x41 && code <= 0x46
      ? code - 0x37
      : -1;
    if (digit < 0) badCharacter("hex", text, i);
    digits.push(digit);
  }
  if (digits.length % 2 !== 0) {
    throw new DumpError(
      `The hex input has an odd number of digits (${digits.length}): a byte is cut in half`,
    );
  }
  const bytes = new Uint8Array(digits.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = digits[2 * i] * 16 + digits[2 * i + 1];
  return bytes;
}

/**
 * The bytes of base64 text: standard or URL-safe alphabet, padding optional, white space (line
 * breaks) anywhere. Throws {@linkcode DumpError}.
 */
export function parseBase64Dump(text: string): Uint8Array {
  let clean = "";
  let padding = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === " " || char === "\n" || char === "\r" || char === "\t" || char === "\ufeff") {
      continue;
    }
    if (char === "=") {
      padding++;
      continue;
    }
    const code = text.charCodeAt(i);
    const valid = (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) ||
      (code >= 0x30 && code <= 0x39) || char === "+" || char === "/" || char === "-" ||
      char === "_";
    if (!valid || padding > 0) badCharacter("base64", text, i);
    clean += char === "-" ? "+" : char === "_" ? "/" : char;
  }
  if (clean.length % 4 === 1 || padding > 2 || (padding > 0 && (clean.length + padding) % 4)) {
    throw new DumpError(
      `The base64 input has a wrong length (${clean.length} characters): it is cut short`,
    );
  }
  const bytes = fromBase64(clean + "=".repeat((4 - clean.length % 4) % 4));
  if (bytes === null) throw new DumpError("The input is not base64");
  return bytes;
}
