// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The `inspect` command's dump: one line per item read by `_cli/wire.ts`, like a protocol
// debugger shows frames.
//
//   000000  92                       fixarray  2 items
//   000001  d4 72 40                   r record def 0x40  {id, name}
//   000004  92                           keys: fixarray  2 items
//
// Columns: the offset of the item's first byte (hex), its own bytes in hex (the header of a
// container, the whole token of a scalar; more than 9 bytes are cut with "…"), then, indented
// by nesting, a label (record field or map key the value belongs to), the wire type, and a
// preview of the value. When the input breaks, the last line says where and why.

import type { DecodeError } from "../_core/errors.ts";
import { toHex } from "./text.ts";
import { shortestFloat32 } from "./tagged_json.ts";
import { timestampIso } from "./time.ts";
import type { TimestampValue, WireNode } from "./wire.ts";

const BYTES_SHOWN = 9;
const BYTES_WIDTH = BYTES_SHOWN * 3;
const PREVIEW_CHARS = 40;

/** Renders the items of a walk (and the error that stopped it, if any) as dump lines. */
export function inspectLines(
  roots: readonly WireNode[],
  bytes: Uint8Array,
  error: DecodeError | null,
): string[] {
  const printer = new DumpPrinter(bytes);
  for (const node of roots) printer.item(node, 0, node.label === null ? "" : `${node.label}: `);
  if (error !== null) {
    printer.lines.push(`${printer.offset(error.offset)}  error: ${lowerFirst(error.message)}`);
  }
  return printer.lines;
}

/** An error message as the tool prints it after "error: " (a leading acronym keeps its case). */
export function lowerFirst(message: string): string {
  if (/^[A-Z][A-Z0-9]/.test(message)) return message;
  return message.charAt(0).toLowerCase() + message.slice(1);
}

function quoteName(name: string): string {
  if (/^[A-Za-z_$][\w$]*$/.test(name) && name.length <= PREVIEW_CHARS) return name;
  return previewString(name);
}

/** Field names of a record, cut after about 60 characters. */
function fieldList(keys: readonly string[]): string {
  let list = "";
  for (let i = 0; i < keys.length; i++) {
    const name = quoteName(keys[i]);
    if (i > 0 && list.length + name.length > 60) return `{${list}, … ${keys.length - i} more}`;
    list += (i > 0 ? ", " : "") + name;
  }
  return `{${list}}`;
}

function previewString(text: string): string {
  if (text.length <= PREVIEW_CHARS) return JSON.stringify(text);
  const quoted = JSON.stringify(text.slice(0, PREVIEW_CHARS));
  return quoted.slice(0, -1) + '…"';
}

function plural(count: number | bigint, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** A timestamp as an ISO date, with nanoseconds when they are not whole milliseconds. */
function timestampText(value: TimestampValue): string {
  const { seconds, nanoseconds } = value;
  return timestampIso(seconds, nanoseconds) ?? `${seconds} s + ${nanoseconds} ns`;
}

const EXT_NAMES: Record<string, string> = {
  bigint: "B (bigint)",
  typed: "t",
  set: "s (Set)",
  error: "e (Error)",
  regexp: "x (RegExp)",
  id: "i (object id)",
  ref: "p (reference)",
  bundle: "b (string bundle)",
};

class DumpPrinter {
  readonly lines: string[] = [];
  readonly #bytes: Uint8Array;
  readonly #offsetWidth: number;

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
    this.#offsetWidth = Math.max(6, bytes.length.toString(16).length);
  }

  offset(offset: number): string {
    return offset.toString(16).padStart(this.#offsetWidth, "0");
  }

  #line(node: WireNode, end: number, depth: number, text: string): void {
    const shown = this.#bytes.subarray(node.offset, Math.min(end, node.offset + BYTES_SHOWN));
    let hex = toHex(shown, " ");
    if (end - node.offset > BYTES_SHOWN) {
      hex = toHex(shown.subarray(0, BYTES_SHOWN - 1), " ") + " …";
    }
    this.lines.push(
      `${this.offset(node.offset)}  ${hex.padEnd(BYTES_WIDTH)}  ${"  ".repeat(depth)}${text}`,
    );
  }

  item(node: WireNode, depth: number, label: string): void {
    const [type, value] = this.#describe(node);
    this.#line(node, node.headerEnd, depth, `${label}${type}${value === "" ? "" : "  " + value}`);
    if (node.prefix !== null) {
      for (const item of node.prefix) {
        this.item(item, depth + 1, item.label === null ? "" : `${item.label}: `);
      }
    }
    const children = node.children;
    if (children === null || node.kind === "bundled") return;
    if (node.kind === "map") {
      for (let i = 0; i < children.length; i++) {
        let childLabel = "";
        if (i & 1) {
          let key = children[i - 1];
          while (key.kind === "bundle" && key.children!.length > 0) key = key.children![0];
          childLabel = key.kind === "str" || key.kind === "bundled"
            ? `${quoteName(key.value as string)}: `
            : "value: ";
        }
        this.item(children[i], depth + 1, childLabel);
      }
    } else if (node.kind === "record") {
      const keys = node.keys ?? [];
      for (let i = 0; i < children.length; i++) {
        this.item(children[i], depth + 1, `${quoteName(keys[i] ?? `#${i}`)}: `);
      }
    } else {
      for (const child of children) this.item(child, depth + 1, "");
    }
  }

  /** The type and value columns of an item. */
  #describe(node: WireNode): [string, string] {
    const complete = node.end >= 0 || node.children !== null;
    const value = node.value;
    switch (node.kind) {
      case "nil":
        return ["nil", "null"];
      case "bool":
        return ["bool", String(value)];
      case "int":
        return [node.format, complete ? String(value) : "(truncated)"];
      case "float": {
        if (!complete) return [node.format, "(truncated)"];
        const number = value as number;
        if (node.format === "float32") {
          const short = shortestFloat32(number);
          return ["float32", short === number ? String(number) : `${short} (${number})`];
        }
        return ["float64", Object.is(number, -0) ? "-0" : String(number)];
      }
      case "str": {
        if (node.payloadStart < 0) return [node.format, "(truncated)"];
        const text = value as string;
        const present = Math.max(0, this.#bytes.length - node.payloadStart);
        let preview = previewString(text);
        if (node.encoding === "invalid") preview += " (not UTF-8)";
        else if (node.encoding === "wtf8") preview += " (lone surrogate)";
        if (node.end < 0) preview += ` (${present} of ${plural(node.count, "byte")})`;
        else if (text.length > PREVIEW_CHARS) preview += ` (${plural(node.count, "byte")})`;
        return [node.format, preview];
      }
      case "bin":
        return [node.format, plural(node.count, "byte")];
      case "array":
        return [node.format, plural(node.count, "item")];
      case "map":
        return [node.format, plural(node.count, "entry").replace(/entrys$/, "entries")];
      case "record": {
        const id = this.#bytes.subarray(
          node.definition ? node.offset + 2 : node.offset,
          node.headerEnd,
        );
        const keys = node.keys === null ? "" : fieldList(node.keys);
        const idText = Array.from(id, (byte) => `0x${byte.toString(16).padStart(2, "0")}`).join(
          " ",
        );
        if (node.definition) return [`r record def ${idText}`, keys];
        return [`record ref ${idText}${node.shared ? " shared" : ""}`, keys];
      }
      case "c1":
        return ["c1", "(never used byte)"];
      case "bundled":
        if (typeof value !== "string") return ["bundled str", "(truncated)"];
        return [
          "bundled str",
          `${previewString(value as string)} (${node.count > 0 ? "+" : ""}${node.count})`,
        ];
    }
    // extensions
    const type = node.extType > 127 ? node.extType - 256 : node.extType;
    const typeText = type < 0 ? String(type) : `0x${type.toString(16).padStart(2, "0")}`;
    if (!complete || node.payloadStart < 0 || node.payloadStart + node.count > this.#bytes.length) {
      return [`ext ${typeText}`, `(${node.format}, truncated)`];
    }
    switch (node.kind) {
      case "undefined":
        return [`ext 0 undefined`, node.format === "fixext1" ? "" : `(${node.format})`];
      case "timestamp": {
        const time = value as TimestampValue | null;
        const form = { 4: "timestamp32", 8: "timestamp64", 12: "timestamp96" }[node.count];
        if (time === null) return [`ext -1 timestamp`, "invalid date"];
        return [`ext -1 ${form}`, timestampText(time)];
      }
      case "bigint":
        return [`ext 0x42 ${EXT_NAMES.bigint}`, String(value)];
      case "typed":
        return [`ext 0x74 t (${value})`, plural(node.count - 1, "byte")];
      case "id":
        return [`ext 0x69 ${EXT_NAMES.id}`, `#${value}`];
      case "ref":
        return [
          `ext 0x70 ${EXT_NAMES.ref}`,
          `#${value}${node.danglingRef ? " (no such id before it)" : ""}`,
        ];
      case "bundle": {
        if (node.count < 4) return [`ext 0x62 ${EXT_NAMES.bundle}`, "(invalid)"];
        const at = node.payloadStart +
          new DataView(this.#bytes.buffer, this.#bytes.byteOffset).getUint32(node.payloadStart);
        return [`ext 0x62 ${EXT_NAMES.bundle}`, `strings at ${this.offset(at)}`];
      }
      case "set":
      case "error":
      case "regexp":
        return [`ext ${typeText} ${EXT_NAMES[node.kind]}`, ""];
    }
    return [`ext ${typeText}`, `${node.format}, ${plural(node.count, "byte")}`];
  }
}
