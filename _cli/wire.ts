// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The command line tool's reader: walks MessagePack bytes (msgpackr's dialect) and builds a tree
// of items that remembers how each one was written — offsets, header format, record ids,
// extension types — which is what `inspect` prints and what `decode` needs to emit JSON that
// re-encodes to the same bytes. Each item joins its parent as soon as its first byte is read, so
// when the input breaks, the tree holds everything up to the break and the error names the exact
// offset. Header sizes and lengths come from `_format/tokens.ts`.
//
// Records follow the library decoder (docs/wire-format.md, "Records"): slot = id & 0x3f,
// definitions `d4 72 ID` and `d5 72 LO HI`, two-byte ids for shared slots 32..63 when more than
// 32 structures are shared, definitions that persist from one top-level value to the next (as
// `unpackMultiple` does), and an id byte without a structure read as an integer. Bundles
// (docs/wire-format.md, "Bundled strings"), structured clone ids ("References and cycles") and
// the tag extensions Set/Error/RegExp ("moreTypes codes"), which are followed by a value, are
// understood; any other extension is just its payload.

import { decodeBigIntPayload } from "../_format/bigint_ext.ts";
import { decodeWtf8 } from "./text.ts";
import { DecodeError, IncompleteDataError } from "../_core/errors.ts";
import type { Structure } from "../_core/options.ts";
import { decodeString, decodeStringStrict, encodeUtf8Manually } from "../_strings/utf8.ts";
import { decodeTypedArray, typedArrayPayloadProblem } from "../_format/typed_array_ext.ts";
import {
  ARRAY,
  BIN,
  EXT,
  HEADER_SIZE,
  INLINE_LENGTH,
  LENGTH_FIELD,
  lengthAt,
  MAP,
  NEVER_USED,
  STR,
  TOKEN_KIND,
} from "../_format/tokens.ts";

/** What an item is. */
export type WireKind =
  | "nil"
  | "bool"
  | "int"
  | "float"
  | "str"
  | "bin"
  | "array"
  | "map"
  | "record"
  | "c1"
  | "ext"
  | "undefined"
  | "timestamp"
  | "bigint"
  | "typed"
  | "set"
  | "error"
  | "regexp"
  | "id"
  | "ref"
  | "bundle"
  | "bundled";

/** A timestamp extension's fields. */
export interface TimestampValue {
  seconds: bigint;
  nanoseconds: number;
}

/** One item of the input: a scalar, a container, a record, or an extension. */
export class WireNode {
  readonly kind: WireKind;
  /** Name of the format of the first byte: "fixint", "uint16", "fixstr", "map16", "fixext4"… */
  readonly format: string;
  /** Offset of the first byte. */
  readonly offset: number;
  /** End of this item's own bytes: the whole token for scalars, the header for containers. */
  headerEnd: number;
  /** End of the item with everything in it; -1 while incomplete. */
  end = -1;
  /** Declared size: payload bytes (str, bin, ext), items (array), entries (map), fields. */
  count = 0;
  /**
   * Scalars: number, bigint, boolean, null or the (lossily decoded) string; extensions: see
   * `kind` (timestamp: a {@linkcode TimestampValue} or null when invalid, typed: the type name,
   * id/ref: the reference number, bigint: the bigint, bundled: the string).
   */
  value: unknown = undefined;
  /**
   * A string's bytes: well-formed UTF-8, UTF-8 with lone surrogates as msgpackr writes them in
   * short strings (WTF-8: `value` has the surrogates), or neither (`value` has U+FFFD for the
   * bad bytes, as the library decoder gives).
   */
  encoding: "utf8" | "wtf8" | "invalid" = "utf8";
  /** Array items, map keys and values alternately, record fields, or the value after a tag. */
  children: WireNode[] | null = null;
  /**
   * Items shown before the children: a record definition's keys array; for a later string
   * bundle, the previous bundle's strings that its payload holds.
   */
  prefix: WireNode[] | null = null;
  /** Unsigned extension type byte, or -1. */
  extType = -1;
  /** Offset of the extension payload, or -1. */
  payloadStart = -1;
  /** Records: the field names (null when a two-byte slot has none). */
  keys: string[] | null = null;
  /** Records: the slot (record id − 0x40, up to 8191 with two-byte ids). */
  slot = -1;
  /** Records: the structure came from the shared structures. */
  shared = false;
  /** Records: an inline definition (`d4 72` / `d5 72`) rather than a reference. */
  definition = false;
  /** A structured-clone reference to an id not defined before it in the same value. */
  danglingRef = false;
  /** A fixed role shown by `inspect` ("keys", "bundle strings"…), or null. */
  label: string | null = null;

  constructor(kind: WireKind, format: string, offset: number) {
    this.kind = kind;
    this.format = format;
    this.offset = offset;
    this.headerEnd = offset + 1;
  }
}

/** Settings of a walk. */
export interface WalkSettings {
  /** Shared structures (the `structures` a Packr saved), or null. */
  structures: readonly Structure[] | null;
  /** Deepest nesting accepted. */
  maxDepth: number;
}

interface Slot {
  keys: string[] | null;
  twoByte: boolean;
  shared: boolean;
}

interface Bundle {
  nonAscii: string;
  ascii: string;
  nonAsciiPosition: number;
  asciiPosition: number;
  /** Offset of the bundle's two strings, and just after them. */
  stringsAt: number;
  end: number;
  nodes: WireNode[];
}

/** `12 (0xc)`: how offsets appear in messages. */
export function describeOffset(offset: number): string {
  return `${offset} (0x${offset.toString(16)})`;
}

/**
 * Names of the typed arrays of the "t" extension by code byte, in code order: the types the
 * library's decoder makes for them.
 */
export const TYPED_ARRAY_NAMES: ReadonlyMap<number, string> = new Map(
  Array.from({ length: 256 }, (_, code) => code)
    .filter((code) => typedArrayPayloadProblem(code, 0) === null)
    .map((code) => [code, decodeTypedArray(new Uint8Array([code]), 0, 1).constructor.name]),
);

/** The name of each first byte's format, as `inspect` shows it and the `"header"` of a tag. */
export const FORMAT_NAMES: readonly string[] = (() => {
  const names = new Array<string>(256);
  names.fill("fixint", 0x00, 0x80);
  names.fill("fixmap", 0x80, 0x90);
  names.fill("fixarray", 0x90, 0xa0);
  names.fill("fixstr", 0xa0, 0xc0);
  names.fill("negative fixint", 0xe0, 0x100);
  // deno-fmt-ignore
  const named = [
    "nil", "never used (0xc1)", "false", "true", // 0xc0
    "bin8", "bin16", "bin32", "ext8", // 0xc4
    "ext16", "ext32", "float32", "float64", // 0xc8
    "uint8", "uint16", "uint32", "uint64", // 0xcc
    "int8", "int16", "int32", "int64", // 0xd0
    "fixext1", "fixext2", "fixext4", "fixext8", // 0xd4
    "fixext16", "str8", "str16", "str32", // 0xd8
    "array16", "array32", "map16", "map32", // 0xdc
  ];
  for (let i = 0; i < named.length; i++) names[0xc0 + i] = named[i];
  return names;
})();

/**
 * Walks a whole input: one MessagePack value or a sequence. `readAll` fills `roots` with the
 * top-level items (followed, for a value that used string bundles, by the last bundle's strings)
 * and throws a {@linkcode DecodeError} (an {@linkcode IncompleteDataError} for truncated input)
 * at the first problem, leaving in `roots` what was read up to there.
 */
export class WireWalker {
  /** Top-level items, in order. */
  readonly roots: WireNode[] = [];
  #b: Uint8Array;
  #view: DataView;
  #end: number;
  readonly #settings: WalkSettings;
  #pos = 0;
  /** Offset in the whole input of the first byte of `#b` (see `continueWith`). */
  #base = 0;
  #slots: (Slot | undefined)[] = [];
  #bundle: Bundle | null = null;
  #ids = new Set<number>();

  constructor(bytes: Uint8Array, settings: WalkSettings) {
    this.#b = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#end = bytes.length;
    this.#settings = settings;
  }

  /** Offset just after the last value read. */
  get position(): number {
    return this.#pos;
  }

  /** Reads every top-level value. */
  readAll(): void {
    if (this.#end === 0) {
      throw new IncompleteDataError(
        "Unexpected end of data at offset 0 (0x0): the input is empty",
        0,
        1,
      );
    }
    while (this.#pos < this.#end) this.readNext();
  }

  /**
   * Reads one top-level value into `roots`, followed, for a value that used string bundles, by
   * the last bundle's strings.
   */
  readNext(): void {
    this.#bundle = null;
    this.#ids.clear();
    this.#read(this.roots, 0);
    const bundle = this.#bundle as Bundle | null;
    if (bundle !== null) {
      // the value's last bundle keeps its strings after the value: reading continues there
      this.roots.push(...bundle.nodes);
      if (bundle.end > this.#pos) this.#pos = bundle.end;
      this.#bundle = null;
    }
  }

  /**
   * Continues the walk over new bytes that start with the next value, at offset `base` of the
   * whole input (a stream drops the bytes of the values it has read): record definitions carry
   * over, `roots` starts empty, item offsets count from the new bytes, messages from the input.
   */
  continueWith(bytes: Uint8Array, base: number): void {
    this.#base = base;
    this.#b = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#end = bytes.length;
    this.#pos = 0;
    this.roots.length = 0;
  }

  /**
   * Reads the next value like {@linkcode readNext}, or, when the bytes end inside it, throws the
   * {@linkcode IncompleteDataError} with the walk as it was before: no item added, record
   * definitions of the partial value undone. Then {@linkcode continueWith} longer bytes.
   */
  tryReadNext(): void {
    const slots = this.#slots.slice();
    const start = this.#pos;
    const roots = this.roots.length;
    try {
      this.readNext();
    } catch (error) {
      if (error instanceof IncompleteDataError) {
        this.#slots = slots;
        this.#pos = start;
        this.roots.length = roots;
      }
      throw error;
    }
  }

  // ---- errors ----------------------------------------------------------------------------------

  /** The input ends before `node` does; `needEnd` is the least end offset that would do. */
  #truncated(node: WireNode, needEnd: number, detail?: string): never {
    const end = this.#end;
    if (node.headerEnd > end) node.headerEnd = end;
    const missing = needEnd - end;
    const what = detail ?? `${node.format} at offset ${this.#where(node.offset)}`;
    throw new IncompleteDataError(
      `Unexpected end of data at offset ${this.#where(end)}: ${what} needs ${missing} more ${
        missing === 1 ? "byte" : "bytes"
      }`,
      this.#base + end,
      missing,
    );
  }

  /** The input ends where a container still expects items. */
  #missingItems(node: WireNode, read: number, noun: string, bytesEach: number): never {
    const end = this.#end;
    const missing = (node.count - read) * bytesEach;
    const what = node.kind === "record"
      ? (node.definition ? "record definition" : "record")
      : node.format;
    throw new IncompleteDataError(
      `Unexpected end of data at offset ${this.#where(end)}: ${what} at offset ${
        this.#where(node.offset)
      } has ${read} of ${node.count} ${noun} (at least ${missing} more ${
        missing === 1 ? "byte" : "bytes"
      } needed)`,
      this.#base + end,
      missing,
    );
  }

  #invalid(message: string, offset: number): never {
    throw new DecodeError(`${message} at offset ${this.#where(offset)}`, this.#base + offset);
  }

  /** An offset of the bytes as messages show it: counted from the start of the input. */
  #where(offset: number): string {
    return describeOffset(this.#base + offset);
  }

  #enter(node: WireNode, depth: number): void {
    if (depth >= this.#settings.maxDepth) {
      this.#invalid(`Nesting deeper than maxDepth (${this.#settings.maxDepth})`, node.offset);
    }
  }

  // ---- items -----------------------------------------------------------------------------------

  #node(out: WireNode[], kind: WireKind, format: string, offset: number): WireNode {
    const node = new WireNode(kind, format, offset);
    out.push(node);
    return node;
  }

  /** A token whose first byte gives its size: `size` more bytes after the first. */
  #fixed(out: WireNode[], kind: WireKind, format: string, offset: number, size: number) {
    const node = this.#node(out, kind, format, offset);
    node.headerEnd = offset + 1 + size;
    if (node.headerEnd > this.#end) this.#truncated(node, offset + 1 + size);
    this.#pos = node.end = node.headerEnd;
    return node;
  }

  /**
   * The length of `node`'s token: from its first byte, or from the 1, 2 or 4 bytes after it,
   * which the position then moves past.
   */
  #length(node: WireNode): number {
    const b = this.#b;
    const field = LENGTH_FIELD[b[node.offset]];
    if (field === 0) return INLINE_LENGTH[b[node.offset]];
    const at = node.offset + 1;
    node.headerEnd = at + field;
    if (at + field > this.#end) this.#truncated(node, at + field);
    this.#pos = at + field;
    return lengthAt(b, node.offset);
  }

  #read(out: WireNode[], depth: number): WireNode {
    const offset = this.#pos;
    const token = this.#b[this.#pos++];
    if (token >= 0x40 && token < 0x80) return this.#recordOrInteger(out, offset, token, depth);
    const format = FORMAT_NAMES[token];
    let node: WireNode;
    switch (TOKEN_KIND[token]) {
      case STR:
        node = this.#node(out, "str", format, offset);
        return this.#str(node, this.#length(node));
      case BIN:
        node = this.#node(out, "bin", format, offset);
        return this.#payload(node, this.#length(node));
      case ARRAY:
        node = this.#node(out, "array", format, offset);
        return this.#array(node, this.#length(node), depth);
      case MAP:
        node = this.#node(out, "map", format, offset);
        return this.#map(node, this.#length(node), depth);
      case EXT:
        node = this.#node(out, "ext", format, offset);
        return this.#ext(node, this.#length(node), depth);
      case NEVER_USED:
        if (this.#bundle !== null) return this.#bundled(out, offset, depth);
        return this.#fixed(out, "c1", format, offset, 0);
    }
    return this.#scalar(out, offset, token);
  }

  /** nil, a boolean, an integer or a float: the whole token is its header. */
  #scalar(out: WireNode[], offset: number, token: number): WireNode {
    const kind: WireKind = token === 0xc0
      ? "nil"
      : token === 0xc2 || token === 0xc3
      ? "bool"
      : token === 0xca || token === 0xcb
      ? "float"
      : "int";
    const node = this.#fixed(out, kind, FORMAT_NAMES[token], offset, HEADER_SIZE[token] - 1);
    const view = this.#view;
    const at = offset + 1;
    switch (token) {
      case 0xc0:
        node.value = null;
        break;
      case 0xc2:
      case 0xc3:
        node.value = token === 0xc3;
        break;
      case 0xca:
        node.value = view.getFloat32(at);
        break;
      case 0xcb:
        node.value = view.getFloat64(at);
        break;
      case 0xcc:
        node.value = this.#b[at];
        break;
      case 0xcd:
        node.value = view.getUint16(at);
        break;
      case 0xce:
        node.value = view.getUint32(at);
        break;
      case 0xcf:
        node.value = view.getBigUint64(at);
        break;
      case 0xd0:
        node.value = view.getInt8(at);
        break;
      case 0xd1:
        node.value = view.getInt16(at);
        break;
      case 0xd2:
        node.value = view.getInt32(at);
        break;
      case 0xd3:
        node.value = view.getBigInt64(at);
        break;
      default: // positive or negative fixint
        node.value = token < 0x80 ? token : token - 0x100;
    }
    return node;
  }

  /** `count` payload bytes at the current position (bin, and the part shared by str). */
  #payload(node: WireNode, count: number): WireNode {
    const start = this.#pos;
    node.count = count;
    node.payloadStart = start;
    node.headerEnd = start + count;
    if (start + count > this.#end) this.#truncated(node, start + count);
    this.#pos = node.end = start + count;
    return node;
  }

  #str(node: WireNode, count: number): WireNode {
    const start = this.#pos;
    try {
      this.#payload(node, count);
    } finally {
      node.value = this.#decodeString(start, Math.min(start + count, this.#end), node);
    }
    return node;
  }

  /**
   * A string's text, and in `node.encoding` how it was written: UTF-8; else lone surrogates in
   * the 3-byte form msgpackr writes under 64 units (docs/wire-format.md, "Strings"); else bad
   * bytes, replaced as the library decoder replaces them.
   */
  #decodeString(start: number, end: number, node: WireNode): string {
    const strict = decodeStringStrict(this.#b, start, end);
    if (strict !== null) return strict;
    const bytes = this.#b.subarray(start, end);
    const text = bytes.length < 0xc0 ? decodeWtf8(bytes) : null;
    if (text !== null && text.length < 0x40) {
      const check = new Uint8Array(text.length * 3);
      const length = encodeUtf8Manually(check, new DataView(check.buffer), 0, text);
      if (length === bytes.length && check.subarray(0, length).every((b, i) => b === bytes[i])) {
        node.encoding = "wtf8";
        return text;
      }
    }
    node.encoding = "invalid";
    return decodeString(this.#b, start, end);
  }

  #array(node: WireNode, count: number, depth: number): WireNode {
    node.count = count;
    node.headerEnd = this.#pos;
    const children: WireNode[] = node.children = [];
    this.#enter(node, depth);
    for (let i = 0; i < count; i++) {
      if (this.#pos >= this.#end) this.#missingItems(node, i, "items", 1);
      this.#read(children, depth + 1);
    }
    node.end = this.#pos;
    return node;
  }

  #map(node: WireNode, count: number, depth: number): WireNode {
    node.count = count;
    node.headerEnd = this.#pos;
    const children: WireNode[] = node.children = [];
    this.#enter(node, depth);
    for (let i = 0; i < count * 2; i++) {
      if (this.#pos >= this.#end) {
        // a missing value counts one byte, each missing entry two
        const read = i >> 1;
        if (i & 1) {
          this.#truncated(
            node,
            this.#end + 1 + (count - read - 1) * 2,
            `${node.format} at offset ${this.#where(node.offset)} (entry ${read + 1} of ${count})`,
          );
        }
        this.#missingItems(node, read, "entries", 2);
      }
      this.#read(children, depth + 1);
    }
    node.end = this.#pos;
    return node;
  }

  // ---- records ---------------------------------------------------------------------------------

  /**
   * A slot without a known structure: a shared structure, or a two-byte dispatcher
   * (docs/wire-format.md, "Two-byte ids").
   */
  #resolve(slot: number): Slot | undefined {
    const known = this.#slots[slot];
    if (known !== undefined) return known;
    const shared = this.#settings.structures;
    if (shared === null) return undefined;
    const keys = shared[slot];
    const twoByte = slot >= 32 && slot < 64 && shared.length > 32;
    if (keys == null && !twoByte) return undefined;
    if (keys != null && !Array.isArray(keys)) return undefined;
    const type: Slot = { keys: keys == null ? null : keys.map(String), twoByte, shared: true };
    this.#slots[slot] = type;
    return type;
  }

  #recordOrInteger(out: WireNode[], offset: number, token: number, depth: number): WireNode {
    let slot = token & 0x3f;
    let type = this.#resolve(slot);
    if (type === undefined) return this.#scalar(out, offset, token);
    const node = this.#node(out, "record", "record", offset);
    if (type.twoByte) {
      node.headerEnd = offset + 2;
      if (this.#pos >= this.#end) this.#truncated(node, offset + 2, "two-byte record id");
      const high = this.#b[this.#pos++];
      if (high !== 0) {
        slot += high << 5;
        type = this.#resolve(slot);
      }
      if (type === undefined || type.keys === null) {
        this.#invalid(`Record id is not defined for ${slot}`, offset);
      }
    }
    node.slot = slot;
    node.keys = type.keys;
    node.shared = type.shared;
    node.count = type.keys!.length;
    node.headerEnd = this.#pos;
    return this.#fields(node, depth);
  }

  /** `d4 72 ID` / `d5 72 LO HI`, then the keys array, then the first record's fields. */
  #definition(node: WireNode, twoByteForm: boolean, depth: number): WireNode {
    const b = this.#b;
    const typeAt = node.offset + 1;
    node.definition = true;
    node.headerEnd = typeAt + (twoByteForm ? 3 : 2);
    if (node.headerEnd > this.#end) this.#truncated(node, node.headerEnd);
    let slot: number;
    let twoByte = false;
    if (twoByteForm) {
      const low = b[typeAt + 1];
      const high = b[typeAt + 2];
      if ((low & 0x3f) < 32) {
        this.#invalid(`Invalid two-byte record id 0x${low.toString(16)}`, node.offset);
      }
      const dispatch = 32 + (low & 0x1f);
      if (high !== 0 && this.#resolve(dispatch) === undefined) {
        // references to the higher slot go through this one, as in the library's decoder
        // (docs/wire-format.md, "Where we differ from msgpackr")
        this.#slots[dispatch] = { keys: null, twoByte: true, shared: false };
      }
      slot = dispatch + (high << 5);
      twoByte = high === 0;
    } else {
      slot = b[typeAt + 1] & 0x3f;
    }
    this.#pos = node.headerEnd;
    node.slot = slot;
    this.#enter(node, depth);
    const prefix: WireNode[] = node.prefix = [];
    if (this.#pos >= this.#end) {
      this.#truncated(
        node,
        this.#pos + 1,
        `record definition at offset ${this.#where(node.offset)} (keys)`,
      );
    }
    const keysNode = this.#read(prefix, depth + 1);
    keysNode.label = "keys";
    if (keysNode.kind !== "array") {
      this.#invalid("Record definition keys must be an array", keysNode.offset);
    }
    const keys = keysNode.children!.map((key) => this.#propertyName(key));
    this.#slots[slot] = { keys, twoByte, shared: false };
    node.keys = keys;
    node.count = keys.length;
    return this.#fields(node, depth);
  }

  /** A record key as a property name (docs/wire-format.md, "Maps and keys"). */
  #propertyName(key: WireNode): string {
    const name = keyName(key);
    if (name === null) this.#invalid(`Invalid property type for record: ${key.kind}`, key.offset);
    return name;
  }

  #fields(node: WireNode, depth: number): WireNode {
    const children: WireNode[] = node.children = [];
    const count = node.count;
    if (!node.definition) this.#enter(node, depth);
    for (let i = 0; i < count; i++) {
      if (this.#pos >= this.#end) this.#missingItems(node, i, "fields", 1);
      this.#read(children, depth + 1);
    }
    node.end = this.#pos;
    return node;
  }

  // ---- extensions ------------------------------------------------------------------------------

  /** An ext of `count` payload bytes; the position is at its type byte. */
  #ext(node: WireNode, count: number, depth: number): WireNode {
    const typeAt = this.#pos;
    node.count = count;
    node.headerEnd = typeAt + 1;
    if (typeAt >= this.#end) this.#truncated(node, typeAt + 1 + count);
    const type = this.#b[typeAt];
    node.extType = type;
    if (type === 0x72 && (count === 1 || count === 2) && node.format.startsWith("fixext")) {
      (node as { kind: WireKind }).kind = "record";
      return this.#definition(node, count === 2, depth);
    }
    const start = node.payloadStart = typeAt + 1;
    node.headerEnd = start + count;
    if (start + count > this.#end) {
      this.#setExtKind(node, type);
      this.#truncated(node, start + count);
    }
    this.#pos = node.end = start + count;
    this.#setExtKind(node, type);
    const b = this.#b;
    switch (node.kind) {
      case "timestamp":
        node.value = this.#timestamp(start, count);
        return node;
      case "bigint":
        node.value = decodeBigIntPayload(b, start, count);
        return node;
      case "typed":
        node.value = TYPED_ARRAY_NAMES.get(b[start])!;
        return node;
      case "bundle":
        return this.#openBundle(node, depth);
      case "id":
      case "ref": {
        if (count !== 4) {
          this.#invalid(
            `Invalid reference ${node.kind === "id" ? "id" : "pointer"} extension length ${count}`,
            node.offset,
          );
        }
        const id = node.value = this.#view.getUint32(start);
        if (node.kind === "ref") {
          node.danglingRef = !this.#ids.has(id);
          return node;
        }
        this.#ids.add(id);
        return this.#tagged(node, depth);
      }
      case "set":
      case "error":
      case "regexp":
        return this.#tagged(node, depth);
    }
    return node;
  }

  #setExtKind(node: WireNode, type: number): void {
    let kind: WireKind = "ext";
    const count = node.count;
    switch (type) {
      case 0x00:
        kind = "undefined";
        break;
      case 0xff:
        kind = "timestamp";
        break;
      case 0x42:
        kind = "bigint";
        break;
      case 0x62:
        kind = "bundle";
        break;
      case 0x69:
        kind = "id";
        break;
      case 0x70:
        kind = "ref";
        break;
      case 0x73:
        kind = "set";
        break;
      case 0x65:
        kind = "error";
        break;
      case 0x78:
        kind = "regexp";
        break;
      case 0x74: {
        const start = node.payloadStart;
        if (
          start < this.#end && count > 0 &&
          typedArrayPayloadProblem(this.#b[start], count - 1) === null
        ) {
          kind = "typed";
        }
        break;
      }
    }
    (node as { kind: WireKind }).kind = kind;
  }

  #timestamp(start: number, count: number): TimestampValue | null {
    const view = this.#view;
    if (count === 4) return { seconds: BigInt(view.getUint32(start)), nanoseconds: 0 };
    if (count === 8) {
      const high = view.getUint32(start);
      return {
        seconds: (BigInt(high & 3) << 32n) + BigInt(view.getUint32(start + 4)),
        nanoseconds: high >>> 2,
      };
    }
    if (count === 12) {
      return { seconds: view.getBigInt64(start + 4), nanoseconds: view.getUint32(start) };
    }
    return null;
  }

  /** Set, Error, RegExp and structured-clone ids: the value follows the extension. */
  #tagged(node: WireNode, depth: number): WireNode {
    const children: WireNode[] = node.children = [];
    node.end = -1;
    this.#enter(node, depth);
    if (this.#pos >= this.#end) {
      this.#truncated(
        node,
        this.#pos + 1,
        `${node.format} at offset ${this.#where(node.offset)} (the value after it)`,
      );
    }
    this.#read(children, depth + 1);
    node.end = this.#pos;
    return node;
  }

  // ---- string bundles --------------------------------------------------------------------------

  /**
   * A "b" extension (docs/wire-format.md, "Bundled strings"): its two strings, then the value
   * that follows it.
   */
  #openBundle(node: WireNode, depth: number): WireNode {
    const start = node.payloadStart;
    const after = this.#pos;
    if (node.count < 4) this.#invalid("Invalid string bundle extension", node.offset);
    const stringsAt = start + this.#view.getUint32(start);
    if (stringsAt < after) this.#invalid("String bundle offset out of range", start);
    const nodes: WireNode[] = [];
    const bundle: Bundle = {
      nonAscii: "",
      ascii: "",
      nonAsciiPosition: 0,
      asciiPosition: 0,
      stringsAt,
      end: stringsAt,
      nodes,
    };
    if (stringsAt >= this.#end) {
      this.#truncated(
        node,
        stringsAt + 1,
        `string bundle at offset ${this.#where(node.offset)} (its strings at offset ${
          this.#where(stringsAt)
        })`,
      );
    }
    this.#pos = stringsAt;
    bundle.nonAscii = this.#bundleString(nodes, "bundle strings, non-ASCII");
    bundle.ascii = this.#bundleString(nodes, "bundle strings, ASCII");
    bundle.end = this.#pos;
    const previous = this.#bundle;
    if (previous !== null && previous.stringsAt >= start && previous.stringsAt < after) {
      node.prefix = previous.nodes;
    }
    this.#bundle = bundle;
    this.#pos = after;
    return this.#tagged(node, depth);
  }

  #bundleString(out: WireNode[], label: string): string {
    const offset = this.#pos;
    if (offset >= this.#end) {
      const node = this.#node(out, "str", "str", offset);
      node.label = label;
      this.#truncated(node, offset + 1, `${label} at offset ${this.#where(offset)}`);
    }
    const token = this.#b[offset];
    if (TOKEN_KIND[token] !== STR) this.#invalid("Expected string", offset);
    const node = this.#node(out, "str", FORMAT_NAMES[token], offset);
    node.label = label;
    this.#pos++;
    return this.#str(node, this.#length(node)).value as string;
  }

  /** `c1` + a count while a bundle is active: the next characters of one of its strings. */
  #bundled(out: WireNode[], offset: number, depth: number): WireNode {
    const node = this.#node(out, "bundled", "bundled str", offset);
    const children: WireNode[] = node.children = [];
    if (this.#pos >= this.#end) this.#truncated(node, this.#pos + 1);
    const countNode = this.#read(children, depth + 1);
    node.headerEnd = this.#pos;
    const count = countNode.value;
    if (countNode.kind !== "int" || typeof count !== "number") {
      this.#invalid("Bundled string length must be an integer", offset);
    }
    const bundle = this.#bundle!;
    let text: string;
    if (count > 0) {
      const end = bundle.asciiPosition + count;
      if (end > bundle.ascii.length) this.#invalid("Bundled string out of range", offset);
      text = bundle.ascii.slice(bundle.asciiPosition, end);
      bundle.asciiPosition = end;
    } else {
      const end = bundle.nonAsciiPosition - count;
      if (end > bundle.nonAscii.length) this.#invalid("Bundled string out of range", offset);
      text = bundle.nonAscii.slice(bundle.nonAsciiPosition, end);
      bundle.nonAsciiPosition = end;
    }
    node.value = text;
    node.count = count;
    node.end = this.#pos;
    return node;
  }
}

/**
 * The property name a decoded key stands for (the library's rule: strings as they are, numbers
 * and booleans as text, nil and undefined as "null"/"undefined"), or `null` for a key that
 * cannot be a property name.
 */
export function keyName(key: WireNode): string | null {
  switch (key.kind) {
    case "bundle": // a bundle opened inside the keys array
      return keyName(key.children![0]);
    case "str":
    case "bundled":
      return key.value as string;
    case "int":
    case "float":
    case "bool":
      return String(key.value);
    case "nil":
      return "null";
    case "undefined":
      return "undefined";
  }
  return null;
}
