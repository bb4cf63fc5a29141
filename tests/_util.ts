// Copyright 2026 the @x/msgpackr authors. MIT license.
// Helpers shared by the tests.

/** Bytes as lowercase hex pairs separated by spaces ("d4 72 40"), for readable assertions. */
export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join(" ");
}

/** Bytes from a hex string such as "d4 72 40" (spaces optional). */
export function fromHex(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, "");
  const bytes = new Uint8Array(clean.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** A copy of `bytes` as a plain Uint8Array (msgpackr returns Node Buffers on Deno and Bun too). */
export function plain(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}

/** The tests run under Deno (else under Bun). */
export const isDeno: boolean = typeof (globalThis as { Deno?: unknown }).Deno !== "undefined";

/**
 * Arguments for `process.execPath` that run `script` with the runtime running the tests:
 * `deno run -A [denoFlags] script` or `bun script`.
 */
export function scriptArgs(script: string, denoFlags: readonly string[] = []): string[] {
  return isDeno ? ["run", "-A", ...denoFlags, script] : [script];
}

/** Reads a file of testdata/ as parsed JSON. */
export async function readTestdata(name: string): Promise<unknown> {
  const url = new URL(`../testdata/${name}`, import.meta.url);
  const text = typeof Deno !== "undefined"
    ? await Deno.readTextFile(url)
    : await (await import("node:fs/promises")).readFile(url, "utf8");
  return JSON.parse(text);
}

/** A deterministic pseudo-random generator (mulberry32) giving floats in [0, 1). */
export function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A str header (fixstr, str8 or str16 as the length needs) followed by `bytes`. */
export function strOf(bytes: Uint8Array): number[] {
  const n = bytes.length;
  const header = n < 32 ? [0xa0 | n] : n < 256 ? [0xd9, n] : [0xda, n >> 8, n & 0xff];
  return [...header, ...bytes];
}

/** A MessagePack array (fixarray or array16 header) of the given encoded items. */
export function encodeArray(items: number[][]): Uint8Array {
  const n = items.length;
  const header = n < 16 ? [0x90 | n] : [0xdc, n >> 8, n & 0xff];
  return Uint8Array.from([...header, ...items.flat()]);
}

/**
 * Runs `action` while `globalThis.Function` counts its uses, and returns its result with that
 * count: how many record or map readers the default build compiled meanwhile (the compiler
 * resolves the global `Function` when it compiles). Restored before returning, even on a throw.
 */
export function compilesDuring<T>(action: () => T): { result: T; compiles: number } {
  const RealFunction = globalThis.Function;
  let compiles = 0;
  const spy: FunctionConstructor = new Proxy(RealFunction, {
    apply(target, thisArg, args) {
      compiles++;
      return Reflect.apply(target, thisArg, args);
    },
    construct(target, args, newTarget): object {
      compiles++;
      return Reflect.construct(target, args, newTarget === spy ? target : newTarget);
    },
  });
  (globalThis as { Function: FunctionConstructor }).Function = spy;
  try {
    const result = action();
    return { result, compiles };
  } finally {
    (globalThis as { Function: FunctionConstructor }).Function = RealFunction;
  }
}

/** The bytes of standard base64 text. */
export function base64Bytes(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

/** Standard base64 text of bytes. */
export function base64Text(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
