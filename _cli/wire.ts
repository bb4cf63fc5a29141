// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The command line tool's reader: walks MessagePack bytes (msgpackr's dialect) and builds a tree
// of items that remembers how each one was written — offsets, header format, record ids,
// extension types — which is what `inspect` prints and what `decode` needs to emit JSON that
// re-encodes to the same bytes. Each item joins its parent as soon as its first byte is read, so
// when the input breaks, the tree holds everything up to the break and the error names the exact
// offset. The tokens, their sizes and their nesting come from `_format/token_walker.ts`, the walk
// the stream's value scanner uses too; this reader makes an item of each.
//
// Records follow the library decoder (docs/wire-format.md, "Records"): slot = id & 0x3f,
// definitions `d4 72 ID` and `d5 72 LO HI`, two-byte ids for shared slots 32..63 when more than
// 32 structures are shared, definitions that persist from one top-level value to the next (as
// `unpackMultiple` does), and an id byte without a structure read as an integer. Bundles
// (docs/wire-format.md, "Bundled strings"), structured clone ids ("References and cycles") and
// the tag extensions Set/Error/RegExp ("moreTypes codes"), which are followed by a value, are
// understood; any other extension is just its payload.

import { decodeBigIntPayload } from "../_format/bigint_ext.ts";
import { isTimestampLength, timestampParts } from "../_format/timestamp.ts";
import { decodeWtf8 } from "./text.ts";
import { DecodeError, IncompleteDataError } from "../_core/errors.ts";
import type { Structure } from "../_core/options.ts";
import { decodeString, decodeStringStrict } from "../_strings/utf8.ts";
import { decodeTypedArray, typedArrayPayloadProblem } from "../_format/typed_array_ext.ts";
import {
  EXT,
  HEADER_SIZE,
  LENGTH_FIELD,
  lengthAt,
  SCALAR,
  STR,
  TOKEN_KIND,
} from "../_format/tokens.ts";
import {
  ARRAY_TOKEN,
  BAD_EXT,
  BIN_TOKEN,
  BUNDLE_EXT,
  C1_TOKEN,
  COMPLETE,
  DEFINITION_TOKEN,
  EXT_TOKEN,
  INVALID,
  MAP_TOKEN,
  NEED_MORE,
  PAYLOAD_EXT,
  RECORD_TOKEN,
  type RecordShape,
  SCALAR_TOKEN,
  STR_TOKEN,
  TAG_EXT,
  TAG_TOKEN,
  type TokenDialect,
  TokenWalker,
  UNCERTAIN,
} from "../_format/token_walker.ts";

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

/** A slot of the tool's record table. */
interface Slot extends RecordShape {
  readonly keys: string[] | null;
  readonly shared: boolean;
}

/**
 * The tool's record table, which carries definitions from one top-level value to the next as
 * `unpackMultiple` does, and the extensions it knows, as the token walker asks for them.
 */
class WireDialect implements TokenDialect {
  readonly moreStructures = false;
  readonly #structures: readonly Structure[] | null;
  #slots: (Slot | undefined)[] = [];

  constructor(structures: readonly Structure[] | null) {
    this.#structures = structures;
  }

  /**
   * A slot's record type: defined, or shared, or a two-byte dispatcher of the shared structures
   * (docs/wire-format.md, "Two-byte ids").
   */
  recordShape(slot: number): Slot | undefined {
    const known = this.#slots[slot];
    if (known !== undefined) return known;
    const shared = this.#structures;
    if (shared === null) return undefined;
    const keys = shared[slot];
    const twoByte = slot >= 32 && slot < 64 && shared.length > 32;
    if (keys == null && !twoByte) return undefined;
    if (keys != null && !Array.isArray(keys)) return undefined;
    const names = keys == null ? null : keys.map(String);
    const type: Slot = { keys: names, size: names?.length ?? 0, twoByte, shared: true };
    this.#slots[slot] = type;
    return type;
  }

  /** The tool has no `getStructures`: its structures are all given at the start. */
  loadStructures(): boolean {
    return false;
  }

  /**
   * Bundles, structured-clone ids, Set, Error and RegExp are tags; the rest is payload. An id or
   * pointer other than 4 bytes, or a timestamp of another length than 4, 8, 12 or 1, ends the
   * walk at its header (the reader or the walker says why).
   */
  extension(type: number, length: number): number {
    switch (type) {
      case 0xff:
        return isTimestampLength(length) ? PAYLOAD_EXT : BAD_EXT;
      case 0x62:
        return BUNDLE_EXT;
      case 0x69:
        return length === 4 ? TAG_EXT : BAD_EXT;
      case 0x70:
        return length === 4 ? PAYLOAD_EXT : BAD_EXT;
      case 0x73:
      case 0x65:
      case 0x78:
        return TAG_EXT;
    }
    return PAYLOAD_EXT;
  }

  /** An inline definition's keys have been read. */
  define(slot: number, keys: string[], twoByte: boolean): void {
    this.#slots[slot] = { keys, size: keys.length, twoByte, shared: false };
  }

  /**
   * A two-byte definition of a higher slot: references to it go through its dispatch slot, as in
   * the library's decoder (docs/wire-format.md, "Where we differ from msgpackr").
   */
  dispatchThrough(dispatchSlot: number): void {
    if (this.recordShape(dispatchSlot) === undefined) {
      this.#slots[dispatchSlot] = { keys: null, size: 0, twoByte: true, shared: false };
    }
  }
}

/**
 * Walks a whole input: one MessagePack value or a sequence. `readAll` fills `roots` with the
 * top-level items (followed, for a value that used string bundles, by the last bundle's strings)
 * and throws a {@linkcode DecodeError} (an {@linkcode IncompleteDataError} for truncated input)
 * at the first problem, leaving in `roots` what was read up to there. The tokens come from
 * `_format/token_walker.ts`, one at a time; each becomes an item.
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
  readonly #dialect: WireDialect;
  readonly #tokens: TokenWalker;
  /** The items the next token is inside, outermost first. */
  readonly #open: WireNode[] = [];
  #bundle: Bundle | null = null;
  #ids = new Set<number>();

  constructor(bytes: Uint8Array, settings: WalkSettings) {
    this.#b = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#end = bytes.length;
    this.#settings = settings;
    this.#dialect = new WireDialect(settings.structures);
    this.#tokens = new TokenWalker(this.#dialect);
  }

  /** Offset just after the last value read. */
  get position(): number {
    return this.#pos;
  }

  /**
   * A token walker that knows this walk's record table: it finds where the next value ends as
   * its bytes arrive (`run`), before this walk reads it.
   */
  finder(): TokenWalker {
    return new TokenWalker(this.#dialect);
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
    const tokens = this.#tokens;
    const open = this.#open;
    open.length = 0;
    tokens.feed(this.#b, this.#end);
    tokens.begin(this.#pos);
    for (;;) {
      const kind = tokens.next();
      if (kind === COMPLETE) break;
      if (kind === NEED_MORE) this.#incomplete();
      if (kind === INVALID || kind === UNCERTAIN) this.#invalid(tokens.problem, tokens.problemAt);
      const node = this.#item(kind);
      if (tokens.depth - 1 > open.length) open.push(node); // its elements follow
      else this.#complete(node);
      while (open.length > tokens.depth - 1 && open.length > 0) this.#complete(open.pop()!);
      if (tokens.failure >= 0) {
        // (the one problem this dialect leaves uncertain) the keys of the innermost open
        // definition, read whole, are not an array
        open.at(-1)!.prefix![0].label = "keys";
        this.#invalid(tokens.problem, tokens.problemAt);
      }
    }
    this.#pos = tokens.end;
    const bundle = this.#bundle as Bundle | null;
    if (bundle !== null) {
      // the value's last bundle keeps its strings after the value
      this.roots.push(...bundle.nodes);
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
      this.#valueMissing(missing),
    );
  }

  /**
   * The input ends where a container still expects items. Nested headers that all claim the
   * same bytes add up: when the containers around it still expect more, the message says how
   * many bytes the value needs in all.
   */
  #missingItems(node: WireNode, read: number, noun: string, bytesEach: number): never {
    const end = this.#end;
    const missing = (node.count - read) * bytesEach;
    const total = this.#valueMissing(missing);
    const what = node.kind === "record"
      ? (node.definition ? "record definition" : "record")
      : node.format;
    throw new IncompleteDataError(
      `Unexpected end of data at offset ${this.#where(end)}: ${what} at offset ${
        this.#where(node.offset)
      } has ${read} of ${node.count} ${noun} (at least ${missing} more ${
        missing === 1 ? "byte" : "bytes"
      } needed${total > missing ? `; the value needs at least ${total}` : ""})`,
      this.#base + end,
      total,
    );
  }

  /**
   * The least number of bytes the value still needs when its item at the end needs `missing`:
   * the containers around that item may expect more items, a byte each at least (the walker's
   * `announcedEnd`). It is the error's `missingBytes`.
   */
  #valueMissing(missing: number): number {
    return Math.max(missing, this.#tokens.announcedEnd - this.#end);
  }

  #invalid(message: string, offset: number): never {
    throw new DecodeError(`${message} at offset ${this.#where(offset)}`, this.#base + offset);
  }

  /** An offset of the bytes as messages show it: counted from the start of the input. */
  #where(offset: number): string {
    return describeOffset(this.#base + offset);
  }

  #enter(node: WireNode): void {
    if (this.#open.length >= this.#settings.maxDepth) {
      this.#invalid(`Nesting deeper than maxDepth (${this.#settings.maxDepth})`, node.offset);
    }
  }

  /**
   * The bytes end before the value does (the token walker says `NEED_MORE`): inside a token's
   * header, or where the innermost open item expects its next element.
   */
  #incomplete(): never {
    const end = this.#end;
    if (this.#tokens.pos < end) this.#partial(this.#tokens.pos);
    const node = this.#open.at(-1);
    if (node === undefined) {
      throw new IncompleteDataError(
        `Unexpected end of data at offset ${this.#where(end)}: a value needs 1 more byte`,
        this.#base + end,
        1,
      );
    }
    const read = node.children!.length;
    switch (node.kind) {
      case "array":
        return this.#missingItems(node, read, "items", 1);
      case "map":
        if (read & 1) {
          // a missing value counts one byte, each missing entry two
          const entries = read >> 1;
          this.#truncated(
            node,
            end + 1 + (node.count - entries - 1) * 2,
            `${node.format} at offset ${this.#where(node.offset)} (entry ${
              entries + 1
            } of ${node.count})`,
          );
        }
        return this.#missingItems(node, read >> 1, "entries", 2);
      case "record":
        if (node.definition && node.prefix!.length === 0) {
          this.#truncated(
            node,
            end + 1,
            `record definition at offset ${this.#where(node.offset)} (keys)`,
          );
        }
        return this.#missingItems(node, read, "fields", 1);
      case "bundled":
        return this.#truncated(node, end + 1);
    }
    // an extension followed by its value
    this.#truncated(
      node,
      end + 1,
      `${node.format} at offset ${this.#where(node.offset)} (the value after it)`,
    );
  }

  /** The bytes end inside the header of the token at `offset`: that item, cut. */
  #partial(offset: number): never {
    const b = this.#b;
    const token = b[offset];
    const format = FORMAT_NAMES[token];
    if (token >= 0x40 && token < 0x80) {
      const node = this.#add("record", "record", offset);
      node.headerEnd = offset + 2;
      this.#truncated(node, offset + 2, "two-byte record id");
    }
    const kind = TOKEN_KIND[token];
    if (kind !== EXT) {
      // a scalar, or a str, bin, array or map whose length field is cut
      const node = this.#add(
        kind === SCALAR ? scalarKind(token) : KIND_NAMES[kind],
        format,
        offset,
      );
      node.headerEnd = offset + HEADER_SIZE[token];
      this.#truncated(node, node.headerEnd);
    }
    const node = this.#add("ext", format, offset);
    const typeAt = offset + 1 + LENGTH_FIELD[token];
    if (typeAt > this.#end) {
      node.headerEnd = typeAt;
      this.#truncated(node, typeAt);
    }
    const count = node.count = lengthAt(b, offset);
    if (typeAt >= this.#end) {
      node.headerEnd = typeAt + 1;
      this.#truncated(node, typeAt + 1 + count);
    }
    const type = node.extType = b[typeAt];
    if (type === 0x72 && (token === 0xd4 || token === 0xd5)) {
      (node as { kind: WireKind }).kind = "record";
      node.definition = true;
      node.headerEnd = typeAt + (token === 0xd5 ? 3 : 2);
      this.#truncated(node, node.headerEnd);
    }
    // the walker stops before a payload only where it needs its first bytes (a bundle's field)
    node.payloadStart = typeAt + 1;
    node.headerEnd = typeAt + 1 + count;
    this.#setExtKind(node, type);
    this.#truncated(node, node.headerEnd);
  }

  // ---- items -----------------------------------------------------------------------------------

  /** A new item, added where the next token goes: in the innermost open item, or a root. */
  #add(kind: WireKind, format: string, offset: number): WireNode {
    const node = new WireNode(kind, format, offset);
    const parent = this.#open.at(-1);
    if (parent === undefined) {
      this.roots.push(node);
    } else if (parent.definition && parent.prefix!.length === 0) {
      parent.prefix!.push(node); // labelled "keys" once read whole
    } else {
      parent.children!.push(node);
    }
    return node;
  }

  /** The item of the token the walker has just read (`kind`). */
  #item(kind: number): WireNode {
    const tokens = this.#tokens;
    const offset = tokens.offset;
    const token = this.#b[offset];
    const format = FORMAT_NAMES[token];
    let node: WireNode;
    let container = true;
    switch (kind) {
      case SCALAR_TOKEN:
        node = this.#scalar(this.#add(scalarKind(token), format, offset), token);
        container = false;
        break;
      case STR_TOKEN:
        node = this.#str(this.#add("str", format, offset), tokens.headerEnd, tokens.count);
        container = false;
        break;
      case BIN_TOKEN:
        node = this.#payload(this.#add("bin", format, offset), tokens.headerEnd, tokens.count);
        container = false;
        break;
      case ARRAY_TOKEN:
      case MAP_TOKEN:
        node = this.#add(kind === ARRAY_TOKEN ? "array" : "map", format, offset);
        node.count = tokens.count;
        node.headerEnd = tokens.headerEnd;
        node.children = [];
        break;
      case EXT_TOKEN:
      case TAG_TOKEN:
        node = this.#add("ext", format, offset);
        if (tokens.failure === INVALID && this.#b[tokens.headerEnd - 1] === 0xff) {
          // a timestamp of a wrong length: reported below, before its payload is read or
          // waited for
          node.extType = 0xff;
          node.count = tokens.count;
          node.headerEnd = tokens.headerEnd;
          container = false;
          break;
        }
        node = this.#ext(node, tokens.headerEnd, tokens.count);
        container = node.children !== null;
        break;
      case RECORD_TOKEN: {
        node = this.#add("record", "record", offset);
        node.headerEnd = tokens.headerEnd;
        node.children = [];
        // the walker knows the definitions of this value without their keys: the table has them
        const type = tokens.shape === undefined
          ? undefined
          : this.#dialect.recordShape(tokens.slot);
        container = type !== undefined;
        if (type !== undefined) {
          node.slot = tokens.slot;
          node.keys = type.keys;
          node.shared = type.shared;
          node.count = type.size;
        }
        break;
      }
      case DEFINITION_TOKEN:
        node = this.#add("record", format, offset);
        node.definition = true;
        node.extType = 0x72;
        node.count = token === 0xd4 ? 1 : 2;
        node.headerEnd = tokens.headerEnd;
        node.prefix = [];
        node.children = [];
        if (tokens.failure < 0) {
          node.slot = tokens.slot;
          if (token === 0xd5 && this.#b[offset + 3] !== 0) {
            this.#dialect.dispatchThrough(32 + (tokens.slot & 0x1f));
          }
        }
        break;
      case C1_TOKEN:
        node = this.#add("c1", format, offset);
        container = false;
        break;
      default: // BUNDLED_TOKEN
        node = this.#add("bundled", "bundled str", offset);
        node.children = [];
        container = false; // no nesting limit for its length
    }
    // a problem in the token's header (keys that are not an array come up once they are read)
    if (tokens.failure === INVALID) this.#invalid(tokens.problem, tokens.problemAt);
    if (container) this.#enter(node);
    return node;
  }

  /** The definition whose keys `node` is, or null. */
  #definitionOf(node: WireNode): WireNode | null {
    const parent = this.#open.at(-1);
    return parent !== undefined && parent.definition && parent.prefix![0] === node ? parent : null;
  }

  /** `node`'s last element has been read (or it has none). */
  #complete(node: WireNode): void {
    node.end = this.#tokens.pos;
    const definition = this.#definitionOf(node);
    if (definition !== null && node.kind === "array") {
      // a definition's keys: the record type of its slot (docs/wire-format.md, "Inline
      // definitions")
      node.label = "keys";
      const keys = node.children!.map((key) => this.#propertyName(key));
      const at = definition.offset;
      this.#dialect.define(definition.slot, keys, this.#b[at] === 0xd5 && this.#b[at + 3] === 0);
      definition.keys = keys;
      definition.count = keys.length;
    } else if (node.kind === "bundled") {
      this.#bundled(node);
    }
  }

  /** nil, a boolean, an integer or a float: the whole token is its header. */
  #scalar(node: WireNode, token: number): WireNode {
    const at = node.offset + 1;
    node.headerEnd = node.offset + HEADER_SIZE[token];
    // the walker steps over a scalar without looking at its bytes: they may not all be here
    if (node.headerEnd > this.#end) this.#truncated(node, node.headerEnd);
    node.end = node.headerEnd;
    const view = this.#view;
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

  /** `count` payload bytes at `start` (bin, and the part shared by str). */
  #payload(node: WireNode, start: number, count: number): WireNode {
    node.count = count;
    node.payloadStart = start;
    node.headerEnd = start + count;
    if (start + count > this.#end) this.#truncated(node, start + count);
    node.end = start + count;
    return node;
  }

  #str(node: WireNode, start: number, count: number): WireNode {
    try {
      this.#payload(node, start, count);
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
    // WTF-8 as msgpackr writes it: only under 64 units (from 64 it writes U+FFFD)
    const text = bytes.length < 0xc0 ? decodeWtf8(bytes) : null;
    if (text !== null && text.length < 0x40) {
      node.encoding = "wtf8";
      return text;
    }
    node.encoding = "invalid";
    return decodeString(this.#b, start, end);
  }

  /** A record key as a property name (docs/wire-format.md, "Maps and keys"). */
  #propertyName(key: WireNode): string {
    const name = keyName(key);
    if (name === null) this.#invalid(`Invalid property type for record: ${key.kind}`, key.offset);
    return name;
  }

  // ---- extensions ------------------------------------------------------------------------------

  /**
   * An ext of `count` payload bytes at `start`; a tag gets its `children`, the value after it
   * (docs/wire-format.md, "moreTypes codes", "References and cycles").
   */
  #ext(node: WireNode, start: number, count: number): WireNode {
    const type = this.#b[start - 1];
    node.count = count;
    node.extType = type;
    node.payloadStart = start;
    node.headerEnd = start + count;
    this.#setExtKind(node, type);
    if (start + count > this.#end) this.#truncated(node, start + count);
    node.end = start + count;
    const b = this.#b;
    switch (node.kind) {
      case "timestamp":
        node.value = this.#timestamp(start, count);
        break;
      case "bigint":
        node.value = decodeBigIntPayload(b, start, count);
        break;
      case "typed":
        node.value = TYPED_ARRAY_NAMES.get(b[start])!;
        break;
      case "bundle":
        this.#openBundle(node);
        break;
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
          break;
        }
        this.#ids.add(id);
        node.end = -1;
        node.children = [];
        break;
      }
      case "set":
      case "error":
      case "regexp":
        node.end = -1;
        node.children = [];
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

  /** The fields of a timestamp payload; null for msgpackr's 1-byte invalid Date. */
  #timestamp(start: number, count: number): TimestampValue | null {
    if (count === 1) return null;
    const [seconds, nanoseconds] = timestampParts(this.#b, start, count);
    return { seconds, nanoseconds };
  }

  // ---- string bundles --------------------------------------------------------------------------

  /**
   * A "b" extension (docs/wire-format.md, "Bundled strings"): its two strings, read now for the
   * bundled strings of the value that follows it.
   */
  #openBundle(node: WireNode): void {
    const start = node.payloadStart;
    const after = node.end;
    if (node.count < 4) this.#invalid("Invalid string bundle extension", node.offset);
    const stringsAt = start + this.#view.getUint32(start);
    if (stringsAt < after) this.#invalid("String bundle offset out of range", start);
    const nodes: WireNode[] = [];
    if (stringsAt >= this.#end) {
      this.#truncated(
        node,
        stringsAt + 1,
        `string bundle at offset ${this.#where(node.offset)} (its strings at offset ${
          this.#where(stringsAt)
        })`,
      );
    }
    const nonAscii = this.#bundleString(nodes, "bundle strings, non-ASCII", stringsAt);
    const ascii = this.#bundleString(nodes, "bundle strings, ASCII", nonAscii.end);
    const bundle: Bundle = {
      nonAscii: nonAscii.value as string,
      ascii: ascii.value as string,
      nonAsciiPosition: 0,
      asciiPosition: 0,
      stringsAt,
      end: ascii.end,
      nodes,
    };
    const previous = this.#bundle;
    if (previous !== null && previous.stringsAt >= start && previous.stringsAt < after) {
      node.prefix = previous.nodes;
    }
    this.#bundle = bundle;
    node.end = -1;
    node.children = [];
  }

  /** One of a bundle's strings, at `offset`. */
  #bundleString(out: WireNode[], label: string, offset: number): WireNode {
    if (offset >= this.#end) {
      const node = new WireNode("str", "str", offset);
      out.push(node);
      node.label = label;
      this.#truncated(node, offset + 1, `${label} at offset ${this.#where(offset)}`);
    }
    const b = this.#b;
    const token = b[offset];
    if (TOKEN_KIND[token] !== STR) this.#invalid("Expected string", offset);
    const node = new WireNode("str", FORMAT_NAMES[token], offset);
    out.push(node);
    node.label = label;
    const start = offset + HEADER_SIZE[token];
    node.headerEnd = start;
    if (start > this.#end) this.#truncated(node, start);
    return this.#str(node, start, lengthAt(b, offset));
  }

  /** `c1` + a count while a bundle is open: the next characters of one of its strings. */
  #bundled(node: WireNode): void {
    node.headerEnd = node.end;
    const countNode = node.children![0];
    const count = countNode.value;
    if (countNode.kind !== "int" || typeof count !== "number") {
      this.#invalid("Bundled string length must be an integer", node.offset);
    }
    const bundle = this.#bundle!;
    let text: string;
    if (count > 0) {
      const end = bundle.asciiPosition + count;
      if (end > bundle.ascii.length) this.#invalid("Bundled string out of range", node.offset);
      text = bundle.ascii.slice(bundle.asciiPosition, end);
      bundle.asciiPosition = end;
    } else {
      const end = bundle.nonAsciiPosition - count;
      if (end > bundle.nonAscii.length) this.#invalid("Bundled string out of range", node.offset);
      text = bundle.nonAscii.slice(bundle.nonAsciiPosition, end);
      bundle.nonAsciiPosition = end;
    }
    node.value = text;
    node.count = count;
  }
}

/** Item kinds of the standard formats, by `TOKEN_KIND`. */
const KIND_NAMES: readonly WireKind[] = ["int", "str", "bin", "array", "map", "ext", "c1"];

/** The kind of a scalar's item. */
function scalarKind(token: number): WireKind {
  return token === 0xc0
    ? "nil"
    : token === 0xc2 || token === 0xc3
    ? "bool"
    : token === 0xca || token === 0xcb
    ? "float"
    : "int";
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
