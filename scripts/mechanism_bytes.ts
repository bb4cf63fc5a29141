// Copyright 2026 the @x/msgpackr authors. MIT license.

/**
 * What each speed mechanism (docs/architecture.md, "Why it is fast") costs a page: its minified
 * and gzipped bytes in the browser bundles of four programs that `scripts/size.ts` measures
 * (`unpack`, `pack`, the no-eval `UnpackrStream`, everything).
 *
 *   deno run -A scripts/mechanism_bytes.ts [--no-build] [--json] [--parts] [--show=<mechanism>]
 *     [--update-docs]
 *   (npm run size:mechanisms)
 *
 * - {@linkcode MECHANISMS} is the inventory: one row per mechanism, named as in the docs, with the
 *   code that implements it: whole modules, declarations by name (functions, constants and
 *   classes of a module, class members as `Class.member`), and pieces of code inside them, given
 *   by their text (`nodes`: the largest syntax node that starts with that text; `spans`: from one
 *   text to the end of the next occurrence of another). Texts are looked up in the npm build's
 *   JavaScript (`dist/npm/`: the source without its types), ignoring whitespace. A name or text
 *   that is not found fails the script, so the table is kept in step with the code.
 * - Each program is bundled as `scripts/size.ts` bundles it (the package installed from its
 *   tarball's files, `bun build --minify --target=browser`), with a source map. The map says
 *   where each piece of the minified bundle comes from (module and position), so a byte of the
 *   bundle belongs to a mechanism when it comes from that mechanism's code. "min" is those bytes
 *   of the bundle, counted exactly (no scaling); "gzip" is gzip -9 of the bundle less gzip -9 of
 *   the bundle with those bytes cut out: what the mechanism adds to the compressed bundle.
 * - A byte that several rows claim counts once, for the row whose claimed code around it is the
 *   smallest (a block named inside a function belongs to the block's row, the rest of the
 *   function to the function's row), ties to the earlier row. So the rows add up to "all
 *   mechanisms" (their gzip is measured together, with all their bytes cut at once). A module two
 *   rows share (the shape tree) counts for the first of them whose code ships in the bundle
 *   (`onlyWith`).
 * - Rows marked `browserOff` are switched off in browsers: package.json `browser` maps their
 *   module to a browser form without them, so what their row counts is what is left of them:
 *   that form, and the call sites and lookups that stay. Their cells read "0 (+left)".
 * - As a check of the attribution, each module's bytes attributed through the source map are
 *   compared with bun's metafile (`bytesInOutput`); the largest difference is printed.
 *
 * `--parts` lists each row's bytes per entry of its `code`, and `--show=<mechanism>` prints the
 * minified code counted for it in each bundle (on stderr), for keeping the table right. `--json`
 * prints the measurements as one JSON object ({@linkcode Report}). Each row also counts the code
 * lines of its code in the npm build (blank and comment lines aside; a line belongs to one row by
 * the same rule as a byte). `--update-docs` also writes the lines and bytes into the tables of
 * docs/architecture.md, "Why it is fast" (the row of each mechanism, by its name; the gains stay),
 * and fails when a mechanism has no row there. With `--no-build` it
 * measures the `dist/` already there. Exits with 2 when it cannot measure (a wrong argument, a
 * failed build or bundle, a name or text of the table not found). Needs Deno, `node_modules`
 * (bun, TypeScript) and npm.
 *
 * @module
 */

import { gzipSync } from "node:zlib";
import ts from "npm:typescript@^5.9.3";
import {
  buildPackage,
  bundleProgram,
  bundlerVersion,
  inInstalledProject,
  pathInPackage,
  ROOT,
  type SourceMap,
} from "./_bundle.ts";

/** Where a mechanism's code is: in one module of the package. */
interface Code {
  /** The module, as in the repository ("_decode/decoder.ts"). */
  module: string;
  /** The whole module. */
  whole?: true;
  /** Declarations of the module by name ("readShapedMap", "VALUE_WORDS", "ShapeTree.keepKey"). */
  names?: string[];
  /** Only inside this declaration of the module: `nodes` and `spans`. */
  within?: string;
  /** The largest syntax node that starts with each of these texts, at every occurrence. */
  nodes?: string[];
  /** From the start of the first text to the end of the next occurrence of the second. */
  spans?: [string, string][];
  /** Counts only in bundles that carry this module too (code that costs only beside it). */
  onlyWith?: string;
}

/** A speed mechanism of docs/architecture.md, "Why it is fast". */
interface Mechanism {
  /** Its section there. */
  section: string;
  /** Its name there. */
  name: string;
  code: Code[];
  /** Switched off in browsers (package.json `browser`): its module ships in a browser form. */
  browserOff?: true;
}

const DECODER = "_decode/decoder.ts";
const ENCODER = "_encode/encoder.ts";
const CACHE = "_strings/string_cache.ts";
const THRESHOLDS = "_core/thresholds.ts";
const UTF8 = "_strings/utf8.ts";
const INPUT_WINDOW = "_strings/input_window.ts";
const INPUT_WINDOW_BROWSER = "_strings/input_window_browser.ts";

/** The inventory: each mechanism and the code that implements it, in the docs' order. */
const MECHANISMS: readonly Mechanism[] = [
  {
    section: "Decoding strings",
    name: "Value cache",
    code: [
      {
        module: CACHE,
        names: [
          "createStringCache",
          "valueCache",
          "cachedString",
          "ENTRY_HASH_A",
          "ENTRY_HASH_B",
          "holds",
          "restMatches",
          "cachedStringMiss",
        ],
      },
      { module: DECODER, names: ["VALUE_CACHE_MAX"] },
      { module: THRESHOLDS, names: ["VALUE_CACHE_BITS", "VALUE_CACHE_MAX_BYTES"] },
      { module: DECODER, within: "readString", nodes: ["if (length <= VALUE_CACHE_MAX"] },
    ],
  },
  {
    section: "Decoding strings",
    name: "The cache's hit test written out",
    code: [
      {
        module: DECODER,
        names: ["VALUE_SHIFT", "VALUE_HASH_A", "VALUE_HASH_B", "VALUE_STRINGS", "valueEntry"],
      },
      { module: CACHE, names: ["VALUE_LENGTHS", "VALUE_WORDS", "VALUE_STRIDE", "valueHit"] },
      { module: DECODER, within: "read", nodes: ["if (length > 0 && length <= VALUE_CACHE_MAX"] },
      {
        module: DECODER,
        within: "readStringElements",
        nodes: ["const cacheable ="],
        spans: [[
          "if (length > 0 && length <= VALUE_CACHE_MAX && cacheable)",
          "cachedStringMiss(valueCache, entry, bytes, start, length, first, last); } else",
        ]],
      },
    ],
  },
  {
    section: "Decoding strings",
    name: "Sets of four entries with promotion",
    code: [
      { module: CACHE, names: ["foundInSet", "promote"] },
      { module: THRESHOLDS, names: ["PROMOTE_AFTER"] },
      { module: CACHE, within: "createStringCache", nodes: ["strikes: new Uint8Array"] },
      {
        module: CACHE,
        within: "cachedStringMiss",
        nodes: [
          "for (let other = 1; other < 4; other++)",
          "if (lengths[entry] >= 0)",
          "cache.strikes[entry] = 0;",
        ],
      },
    ],
  },
  {
    section: "Decoding strings",
    name: "Key cache",
    code: [
      { module: CACHE, names: ["keyCache"] },
      { module: THRESHOLDS, names: ["KEY_CACHE_BITS", "KEY_CACHE_MAX_BYTES"] },
      {
        module: DECODER,
        within: "readKey",
        spans: [
          ["length > keyCache.maxBytes", "?"],
          [": cachedString(keyCache", "length)"],
        ],
      },
    ],
  },
  {
    section: "Decoding strings",
    name: "Latin-1 window",
    browserOff: true,
    code: [
      // the module of both (the batch's declarations below go to its row)
      { module: INPUT_WINDOW, whole: true },
      { module: INPUT_WINDOW_BROWSER, whole: true },
      {
        module: THRESHOLDS,
        names: ["MIN_SLICED", "MAX_SLICED_WITH_LATIN1", "WINDOW_BYTES", "NEAR_BYTES"],
      },
      { module: UTF8, names: ["isAsciiIn", "isAsciiBytes"] },
      { module: DECODER, within: "readString", nodes: ["if (length >= MIN_SLICED"] },
      { module: DECODER, within: "begin", nodes: ["closeInputWindow(session.window)"] },
      { module: DECODER, within: "finish", nodes: ["closeInputWindow(session.window)"] },
      { module: DECODER, within: "newDecodeSession", nodes: ["window: new InputWindow()"] },
    ],
  },
  {
    section: "Decoding strings",
    name: "UTF-8 batches",
    browserOff: true,
    code: [
      {
        module: INPUT_WINDOW,
        names: [
          "utf8Slice",
          "decodeStretch",
          "UTF8_BATCHES",
          "SHORTEST",
          "MAX_STRINGS",
          "stretch",
          "InputWindow.batchText",
          "InputWindow.pieces",
          "InputWindow.count",
          "InputWindow.next",
          "InputWindow.lastStart",
          "InputWindow.walkedTo",
          "InputWindow.nonAsciiEnd",
          "counts",
          "nonAsciiString",
          "utf8BatchCounts",
          "batchedString",
          "openBatch",
          "cutText",
        ],
      },
      {
        module: INPUT_WINDOW,
        within: "closeInputWindow",
        nodes: ["w.lastStart = w.walkedTo"],
      },
      { module: INPUT_WINDOW, within: "longString", nodes: ["return batchedString("] },
      {
        module: INPUT_WINDOW_BROWSER,
        names: ["utf8Slice", "UTF8_BATCHES", "nonAsciiString", "utf8BatchCounts"],
      },
      {
        module: THRESHOLDS,
        names: ["BATCH_BYTES", "BATCH_LONGEST", "BATCH_LOOKAHEAD", "FILL_GAP", "MAX_GAP"],
      },
      { module: "_format/token_walker.ts", names: ["tokenSize"] },
      { module: DECODER, names: ["otherString"] },
      { module: DECODER, within: "readString", spans: [["UTF8_BATCHES ?", ":"]] },
    ],
  },
  {
    section: "Decoding objects and arrays",
    name: "Map shapes",
    code: [
      { module: "_records/map_shapes.ts", whole: true },
      { module: THRESHOLDS, names: ["MAX_SHAPED_KEYS"] },
      // shared with the encoder's key bytes, which have it where the decoder's map shapes do not
      { module: "_records/shape_tree.ts", whole: true, onlyWith: "_records/map_shapes.ts" },
      {
        module: DECODER,
        names: [
          "valueStack",
          "stackTop",
          "stackUsed",
          "stackNext",
          "popValue",
          "readShapedMap",
          "readUnshapedRest",
        ],
      },
      {
        module: DECODER,
        within: "readMap",
        spans: [["length <= MAX_SHAPED_KEYS", "readShapedMap(length)"]],
      },
      { module: DECODER, within: "startOutermost", nodes: ["renewMapShapesIfFull();"] },
      {
        module: DECODER,
        within: "endOutermost",
        nodes: [
          "stackTop = 0;",
          "if (stackUsed > 16)",
          "stackUsed = 0;",
        ],
      },
    ],
  },
  {
    section: "Decoding objects and arrays",
    name: "Predicting a nested map's first key",
    code: [
      { module: DECODER, names: ["valueKey"] },
      {
        module: DECODER,
        within: "readShapedMap",
        nodes: [
          "const parentKey = valueKey;",
          "valueKey = null;",
          "if (i === 0 && parentKey !== null)",
          "valueKey = shape;",
        ],
        spans: [["parentKey !== null && parentKey.valueHot !== null", ":"]],
      },
      { module: DECODER, within: "endOutermost", nodes: ["valueKey = null;"] },
      { module: "_records/map_shapes.ts", within: "mapShapes", nodes: ["valueHot: null"] },
    ],
  },
  {
    section: "Decoding objects and arrays",
    name: "Node types of their own for each codec's shape tree",
    code: [
      // one node literal more than a shared one would need, where both trees ship
      {
        module: ENCODER,
        within: "createKeyShape",
        nodes: ["(id, key, parent, size, keyAt) =>"],
        onlyWith: DECODER,
      },
    ],
  },
  {
    section: "Decoding objects and arrays",
    name: "Element loops",
    code: [
      { module: DECODER, names: ["readStringElements", "readNumberElements"] },
      {
        module: DECODER,
        within: "readArray",
        spans: [["const first = src[position];", "readNumberElements(array, length); } else"]],
      },
    ],
  },
  {
    section: "Decoding objects and arrays",
    name: "No DataView for small inputs",
    code: [
      { module: "_format/float_bytes.ts", whole: true },
      { module: THRESHOLDS, names: ["EAGER_VIEW_MIN_INPUT", "FLOATS_BEFORE_VIEW"] },
      {
        module: DECODER,
        names: ["floatsBeforeView", "readFloat64WithoutView"],
      },
      {
        module: DECODER,
        within: "read",
        nodes: ["if (view === null) return readFloat64WithoutView();"],
      },
      {
        module: DECODER,
        within: "readFloat32",
        spans: [
          ["view !== null", "?"],
          [": --floatsBeforeView", "makeView().getFloat32(position)"],
        ],
      },
      {
        module: DECODER,
        within: "begin",
        nodes: ["floatsBeforeView = FLOATS_BEFORE_VIEW;"],
        spans: [["else if (end - start < EAGER_VIEW_MIN_INPUT)", "view = null;"]],
      },
      {
        module: DECODER,
        within: "readShapedMap",
        spans: [[
          "else { // a small input",
          "restMatches(words, at + 2, src, null, p, keyLength); }",
        ]],
      },
    ],
  },
  {
    section: "Decoding objects and arrays",
    name: "A kept view",
    code: [
      {
        module: DECODER,
        names: [
          "keptViewInput",
          "keptViewLength",
          "keptView",
          "forgetLastSource",
        ],
      },
      { module: THRESHOLDS, names: ["KEPT_VIEW_MAX_BUFFER"] },
      {
        module: DECODER,
        within: "makeView",
        nodes: ["if (src.buffer.byteLength <= KEPT_VIEW_MAX_BUFFER)"],
      },
      {
        module: DECODER,
        within: "begin",
        spans: [["if (bytes === keptViewInput", "else"]],
      },
      { module: "_decode/unpack.ts", within: "clearSource", nodes: ["forgetLastSource();"] },
    ],
  },
  {
    section: "Decoding objects and arrays",
    name: "Pooled builders for the no-eval reader",
    code: [
      { module: "_records/builders.ts", whole: true },
      { module: "_records/builder_pool.ts", whole: true },
      { module: THRESHOLDS, names: ["MOST_PROPERTIES_WITHOUT_TEMPLATE"] },
      { module: "_records/reader.ts", names: ["createObjectBuilder"] },
    ],
  },
  {
    section: "Encoding",
    name: "Key bytes from the shape tree",
    code: [
      { module: ENCODER, names: ["objectShapes", "keptKeyWords", "writeObjectKey"] },
      { module: "_records/shape_tree.ts", whole: true },
      { module: ENCODER, within: "encodeTopLevel", nodes: ["objectShapes.renewIfFull()"] },
      {
        module: ENCODER,
        within: "writeMap16Object",
        nodes: ["let shape = bundle === null ? objectShapes.root : null;"],
      },
      {
        module: ENCODER,
        within: "writeVariableMapObject",
        nodes: ["let shape = bundle === null ? objectShapes.root : null;"],
      },
    ],
  },
  {
    section: "Encoding",
    name: "Who writes a string's bytes",
    code: [
      { module: "_strings/utf8_writer.ts", whole: true },
      { module: "_strings/utf8_writer_browser.ts", whole: true },
      {
        module: THRESHOLDS,
        names: ["MANUAL_UTF8_MAX_WITH_UTF8_WRITE", "MANUAL_UTF8_MAX_WITH_ENCODE_INTO"],
      },
      { module: ENCODER, within: "writeString", spans: [["length <= MANUAL_UTF8_MAX", ":"]] },
      { module: ENCODER, within: "encodeUtf8Natively", spans: [["nativeUtf8Write !== null", ":"]] },
    ],
  },
  {
    section: "Encoding",
    name: "ASCII four characters a store",
    code: [
      { module: UTF8, names: ["writeAsciiRun"] },
      {
        module: UTF8,
        within: "encodeUtf8Manually",
        nodes: ["const i = writeAsciiRun("],
      },
    ],
  },
  {
    section: "Encoding",
    name: "Number element loop",
    code: [
      { module: ENCODER, names: ["writeNumberElements"] },
      {
        module: ENCODER,
        within: "writeArray",
        spans: [['if (typeof first === "number"', "else"]],
      },
    ],
  },
  {
    section: "Encoding",
    name: "Per-element typeof dispatch",
    code: [
      {
        module: ENCODER,
        within: "writeArray",
        spans: [[
          'if (typeof item === "number" && position <= safeEnd)',
          "writeString(item); else",
        ]],
      },
    ],
  },
  {
    section: "Encoding",
    name: "Record writer",
    code: [
      { module: ENCODER, names: ["writeRecord"] },
    ],
  },
  {
    section: "Encoding",
    name: "Generated writers",
    code: [
      { module: "_encode/writer_compiler.ts", whole: true },
      {
        module: THRESHOLDS,
        names: ["WRITES_BEFORE_COMPILE", "MAX_COMPILES_PER_PACK", "MAX_WRITER_PROPERTIES"],
      },
      {
        module: ENCODER,
        names: [
          "writerCompiler",
          "installWriterCompiler",
          "compilesLeft",
          "predictedWriters",
          "NEVER",
          "dueForWriter",
          "compileWriter",
          "learnMapShape",
          "shapeKeys",
          "keyScratch",
          "keyScratchView",
          "lastShapes",
          "lastWriter",
          "mapWriters",
          "writeObjectElements",
          "WRITER_HELPERS",
        ],
      },
      {
        module: ENCODER,
        within: "writeMap16Object",
        nodes: [
          "const predicted =",
          "if (predicted !== undefined",
          "if (mapWriters)",
        ],
      },
      {
        module: ENCODER,
        within: "writeRecord",
        nodes: [
          "const writer = node.writer;",
          "if (writer !== null)",
          "if (writerCompiler !== null",
        ],
      },
      {
        module: ENCODER,
        within: "encodeTopLevel",
        nodes: ["compilesLeft = MAX_COMPILES_PER_PACK;"],
      },
      { module: ENCODER, within: "encodeValue", nodes: ["mapWriters ="] },
      { module: ENCODER, within: "createKeyShape", nodes: ["writes: 0", "writer: null"] },
      {
        module: ENCODER,
        within: "writeArray",
        spans: [["else if (mapWriters", "else"]],
      },
    ],
  },
  {
    section: "Encoding",
    name: "One prototype test per object",
    code: [
      { module: ENCODER, names: ["getPrototypeOf", "objectPrototype", "mayHaveInheritedKeys"] },
      { module: ENCODER, within: "writeMap16Object", nodes: ["const mayInherit"] },
      { module: ENCODER, within: "writeRecord", nodes: ["const mayInherit"] },
    ],
  },
  {
    section: "Encoding",
    name: "Large binaries gathered at the end",
    code: [
      { module: ENCODER, names: ["gatherOutput"] },
      {
        module: ENCODER,
        within: "newEncodeSession",
        nodes: ["gatherLargeBytes: false", "largeBytes: null"],
      },
      { module: THRESHOLDS, names: ["LARGE_BYTES_MIN"] },
      {
        module: ENCODER,
        within: "writeBytes",
        nodes: ["const gathered =", "if (gathered)", "(gathered ? 0 : length)"],
      },
      { module: ENCODER, within: "finishValue", nodes: ["if (session.largeBytes !== null)"] },
      { module: ENCODER, within: "encodeTopLevel", nodes: ["session.largeBytes = null;"] },
      {
        module: ENCODER,
        within: "encodeValue",
        nodes: ["session.gatherLargeBytes =", "session.largeBytes = null;"],
      },
    ],
  },
];

/** A browser bundle measured: a program as `scripts/size.ts` bundles it. */
interface BundleEntry {
  /** Its name in `scripts/size.ts`. */
  name: string;
  /** Its heading in the table. */
  title: string;
  program: string;
}

const BUNDLES: readonly BundleEntry[] = [
  { name: "unpack", title: "`unpack`", program: `import { unpack } from "@x/msgpackr/unpack"` },
  { name: "pack", title: "`pack`", program: `import { pack } from "@x/msgpackr/pack"` },
  {
    name: "no-eval-stream",
    title: "no-eval `UnpackrStream`",
    program: `import { UnpackrStream } from "@x/msgpackr/no-eval"`,
  },
  {
    name: "all",
    title: "everything",
    program: `import * as all from "@x/msgpackr"`,
  },
];

/** Bytes of one entry of a mechanism's `code` in a bundle. */
export interface PartBytes {
  /** The entry, as "module: what". */
  part: string;
  minBytes: number;
}

/** A mechanism in one bundle. */
export interface MechanismBytes {
  section: string;
  name: string;
  browserOff: boolean;
  minBytes: number;
  gzipBytes: number;
  /** With `--parts`. */
  parts?: PartBytes[];
}

/** One bundle measured. */
export interface BundleBytes {
  name: string;
  program: string;
  minBytes: number;
  gzipBytes: number;
  mechanisms: MechanismBytes[];
  /** All mechanisms together: their bytes, and gzip with all of them cut out at once. */
  together: { minBytes: number; gzipBytes: number };
  /** The largest difference, in bytes, of a module's attributed bytes from bun's metafile. */
  largestModuleDifference: number;
}

/** What `--json` prints. */
export interface Report {
  bundler: string;
  bundles: BundleBytes[];
  /** Code lines of each mechanism, in the order of the inventory. */
  lines: number[];
}

const JSON_OUTPUT = Deno.args.includes("--json");
const PARTS = Deno.args.includes("--parts");
const BUILD = !Deno.args.includes("--no-build");
const UPDATE_DOCS = Deno.args.includes("--update-docs");
const SHOW = Deno.args.find((arg) => arg.startsWith("--show="))?.slice("--show=".length);
const unknown = Deno.args.filter((arg) =>
  !["--json", "--parts", "--no-build", "--update-docs"].includes(arg) &&
  !arg.startsWith("--show=")
);
if (unknown.length > 0) fail(`unknown arguments: ${unknown.join(" ")}`);
if (SHOW !== undefined && !MECHANISMS.some((mechanism) => mechanism.name === SHOW)) {
  fail(`no mechanism named "${SHOW}"; names: ${MECHANISMS.map((m) => m.name).join(", ")}`);
}

function fail(message: string): never {
  console.error(`mechanism_bytes: ${message}`);
  Deno.exit(2);
}

// ---- finding the code of the table in the npm build ---------------------------------------------

/** The npm build's file of a source module: "_strings/utf8.ts" → "dist/npm/_strings/utf8.js". */
function npmPath(module: string): string {
  return `dist/npm/${module.replace(/\.ts$/, ".js")}`;
}

/** A range of a module's text, claimed by a mechanism. */
interface Claim {
  mechanism: number;
  /** Index of the part (entry of `code`, then its name or text) for `--parts`. */
  part: number;
  start: number;
  end: number;
  onlyWith?: string;
}

/** The parsed npm build of the modules the table names, by npm path. */
const parsed = new Map<string, ts.SourceFile>();

function sourceFile(module: string): ts.SourceFile {
  const path = npmPath(module);
  let file = parsed.get(path);
  if (file === undefined) {
    let text: string;
    try {
      text = Deno.readTextFileSync(`${ROOT}${path}`);
    } catch {
      throw new Error(`${module}: no ${path} in the npm build`);
    }
    file = ts.createSourceFile(path, text, ts.ScriptTarget.ESNext, true, ts.ScriptKind.JS);
    parsed.set(path, file);
  }
  return file;
}

/** The range of a declaration by name: a top-level one, or `Class.member`. */
function declaration(file: ts.SourceFile, name: string): [number, number] | undefined {
  const [outer, member] = name.split(".");
  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name?.text === outer && !member) {
      return [statement.getStart(), statement.end];
    }
    if (ts.isVariableStatement(statement) && !member) {
      const declarations = statement.declarationList.declarations;
      const found = declarations.find((d) => ts.isIdentifier(d.name) && d.name.text === outer);
      if (found === undefined) continue;
      // the whole statement when it declares only this name
      return declarations.length === 1
        ? [statement.getStart(), statement.end]
        : [found.getStart(), found.end];
    }
    if (ts.isClassDeclaration(statement) && statement.name?.text === outer) {
      if (!member) return [statement.getStart(), statement.end];
      const found = statement.members.find((m) =>
        member === "constructor"
          ? ts.isConstructorDeclaration(m)
          : m.name !== undefined && m.name.getText() === member
      );
      if (found !== undefined) return [found.getStart(), found.end];
    }
  }
  return undefined;
}

/** A text to look up, ignoring whitespace (the npm build is formatted by tsc). */
function textPattern(text: string): RegExp {
  const characters = [...text.replace(/\s+/g, "")];
  return new RegExp(
    characters.map((c) => c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("\\s*"),
    "g",
  );
}

/** Where `text` occurs in `[from, to)` of the file: [start, end] of each occurrence. */
function occurrences(
  file: ts.SourceFile,
  text: string,
  from: number,
  to: number,
): [number, number][] {
  const pattern = textPattern(text);
  const found: [number, number][] = [];
  const source = file.text.slice(0, to);
  pattern.lastIndex = from;
  for (let match; (match = pattern.exec(source)) !== null;) {
    found.push([match.index, match.index + match[0].length]);
  }
  return found;
}

/** The largest node that starts at `start` and ends by `limit`. */
function nodeAt(file: ts.SourceFile, start: number, limit: number): [number, number] | undefined {
  let best: ts.Node | undefined;
  const visit = (node: ts.Node): void => {
    if (node.getStart() === start && node.end <= limit && node.kind !== ts.SyntaxKind.SourceFile) {
      if (best === undefined || node.end > best.end) best = node;
    }
    if (node.pos <= start && start < node.end) ts.forEachChild(node, visit);
  };
  visit(file);
  return best === undefined ? undefined : [best.getStart(), best.end];
}

/** Named parts of the table, by index (for `--parts`). */
const partNames: string[] = [];

/** The claims of every mechanism, by npm path of their module; throws on what is not found. */
function claimsOfTable(): Map<string, Claim[]> {
  const claims = new Map<string, Claim[]>();
  const problems: string[] = [];
  const claim = (code: Code, mechanism: number, what: string, range: [number, number]) => {
    const path = npmPath(code.module);
    if (!claims.has(path)) claims.set(path, []);
    partNames.push(`${code.module}: ${what}`);
    claims.get(path)!.push({
      mechanism,
      part: partNames.length - 1,
      start: range[0],
      end: range[1],
      ...(code.onlyWith === undefined ? {} : { onlyWith: npmPath(code.onlyWith) }),
    });
  };
  MECHANISMS.forEach((mechanism, index) => {
    for (const code of mechanism.code) {
      let file: ts.SourceFile;
      try {
        file = sourceFile(code.module);
      } catch (error) {
        problems.push(`${mechanism.name}: ${(error as Error).message}`);
        continue;
      }
      if (code.whole) claim(code, index, "the whole module", [0, file.text.length]);
      for (const name of code.names ?? []) {
        const range = declaration(file, name);
        if (range === undefined) problems.push(`${mechanism.name}: no ${name} in ${code.module}`);
        else claim(code, index, name, range);
      }
      let scope: [number, number] = [0, file.text.length];
      if (code.within !== undefined) {
        const range = declaration(file, code.within);
        if (range === undefined) {
          problems.push(`${mechanism.name}: no ${code.within} in ${code.module}`);
          continue;
        }
        scope = range;
      }
      const where = code.within === undefined ? "" : ` in ${code.within}`;
      for (const text of code.nodes ?? []) {
        const found = occurrences(file, text, scope[0], scope[1]);
        if (found.length === 0) {
          problems.push(`${mechanism.name}: no "${text}"${where} in ${code.module}`);
        }
        for (const [start] of found) {
          const range = nodeAt(file, start, scope[1]);
          if (range === undefined) {
            problems.push(`${mechanism.name}: no syntax node starts at "${text}"${where}`);
          } else claim(code, index, `${text}…${where}`, range);
        }
      }
      for (const [from, to] of code.spans ?? []) {
        const starts = occurrences(file, from, scope[0], scope[1]);
        if (starts.length === 0) {
          problems.push(`${mechanism.name}: no "${from}"${where} in ${code.module}`);
        }
        for (const [start, startEnd] of starts) {
          const [end] = occurrences(file, to, startEnd, scope[1]);
          if (end === undefined) {
            problems.push(
              `${mechanism.name}: no "${to}" after "${from}"${where} in ${code.module}`,
            );
          } else claim(code, index, `${from} … ${to}${where}`, [start, end[1]]);
        }
      }
    }
  });
  if (problems.length > 0) {
    throw new Error(`the table does not match the code:\n  ${problems.join("\n  ")}`);
  }
  return claims;
}

/**
 * Code lines of each mechanism in the npm build's JavaScript (blank and comment lines aside): a
 * line belongs to the smallest claim around its first character, as a byte does.
 */
function linesOfTable(claims: Map<string, Claim[]>): number[] {
  const counts = MECHANISMS.map(() => 0);
  for (const [path, list] of claims) {
    const text = Deno.readTextFileSync(`${ROOT}${path}`);
    let offset = 0;
    for (const line of text.split("\n")) {
      const trimmed = line.trimStart();
      const at = offset + line.length - trimmed.length;
      offset += line.length + 1;
      if (trimmed === "" || /^(\/\/|\/\*|\*)/.test(trimmed)) continue;
      let best: Claim | undefined;
      for (const claim of list) {
        if (claim.start <= at && at < claim.end) {
          if (best === undefined || claim.end - claim.start < best.end - best.start) best = claim;
        }
      }
      if (best !== undefined) counts[best.mechanism]++;
    }
  }
  return counts;
}

// ---- attributing the bytes of a bundle ----------------------------------------------------------

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/**
 * For each character of the bundle, the source it comes from (index in the map's `sources`, or -1)
 * and its offset in that source's text: the source map's segments, each extending to the next.
 */
function origins(code: string, map: SourceMap): { source: Int32Array; offset: Int32Array } {
  const lineStarts = map.sourcesContent.map((text) => {
    const starts = [0];
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    return starts;
  });
  const source = new Int32Array(code.length).fill(-1);
  const offset = new Int32Array(code.length);
  // a segment's fields: generated column (from the line's start), then source index, line and
  // column and name index, each relative to the previous segment's (across lines too)
  const fields = [0, 0, 0, 0, 0];
  let lineStart = 0;
  for (const line of map.mappings.split(";")) {
    const newline = code.indexOf("\n", lineStart);
    const lineEnd = newline < 0 ? code.length : newline;
    fields[0] = 0;
    // the segment in force: its first character, source (or -1) and offset in the source
    let from = lineStart;
    let fromSource = -1;
    let fromOffset = 0;
    const fill = (to: number) => {
      for (let i = from; i < to; i++) {
        source[i] = fromSource;
        offset[i] = fromOffset;
      }
    };
    for (const segment of line.split(",")) {
      if (segment === "") continue;
      const values = vlq(segment);
      for (let i = 0; i < values.length; i++) fields[i] += values[i];
      fill(lineStart + fields[0]);
      from = lineStart + fields[0];
      fromSource = values.length >= 4 ? fields[1] : -1;
      fromOffset = values.length >= 4 ? lineStarts[fields[1]][fields[2]] + fields[3] : 0;
    }
    fill(lineEnd);
    lineStart = lineEnd + 1;
  }
  return { source, offset };
}

/** The numbers of one source map segment (base64 VLQ). */
function vlq(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const character of segment) {
    const digit = BASE64.indexOf(character);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

/** UTF-8 bytes of each character of `code` (a surrogate half counts 2). */
function byteLengths(code: string): Uint8Array {
  const lengths = new Uint8Array(code.length);
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i);
    lengths[i] = c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xe000 ? 2 : 3;
  }
  return lengths;
}

function gzipBytes(text: string): number {
  return gzipSync(new TextEncoder().encode(text), { level: 9 }).length;
}

/** `code` without the characters where `keep` is false. */
function without(code: string, cut: (i: number) => boolean): string {
  let kept = "";
  let from = 0;
  for (let i = 0; i <= code.length; i++) {
    if (i === code.length || cut(i)) {
      kept += code.slice(from, i);
      from = i + 1;
    }
  }
  return kept;
}

async function measure(
  project: string,
  entry: BundleEntry,
  claims: Map<string, Claim[]>,
): Promise<BundleBytes> {
  const bundled = await bundleProgram(project, entry.name, entry.program, { sourceMap: true });
  const code = new TextDecoder().decode(bundled.code);
  const map = bundled.sourceMap!;
  const paths = map.sources.map((source) => pathInPackage(source));
  // the map's texts are the npm build's, which the table was looked up in
  map.sourcesContent.forEach((text, i) => {
    const path = paths[i];
    if (path !== null && parsed.has(path) && parsed.get(path)!.text !== text) {
      throw new Error(`${path} in the bundle differs from the npm build`);
    }
  });
  const shipped = new Set(paths.filter((path) => path !== null));
  const { source, offset } = origins(code, map);
  const bytes = byteLengths(code);
  // per source: its claims that count in this bundle
  const claimsBySource = paths.map((path) =>
    path === null
      ? []
      : (claims.get(path) ?? []).filter((c) => c.onlyWith === undefined || shipped.has(c.onlyWith))
  );
  const owner = new Int32Array(code.length).fill(-1);
  const partOf = new Int32Array(code.length).fill(-1);
  const attributed = new Map<string, number>();
  for (let i = 0; i < code.length; i++) {
    const s = source[i];
    if (s < 0) continue;
    const path = paths[s] ?? `${map.sources[s]} (the program)`;
    attributed.set(path, (attributed.get(path) ?? 0) + bytes[i]);
    let best: Claim | undefined;
    for (const c of claimsBySource[s]) {
      if (offset[i] < c.start || offset[i] >= c.end) continue;
      const size = c.end - c.start;
      const bestSize = best === undefined ? Infinity : best.end - best.start;
      if (size < bestSize || (size === bestSize && c.mechanism < best!.mechanism)) best = c;
    }
    if (best !== undefined) {
      owner[i] = best.mechanism;
      partOf[i] = best.part;
    }
  }
  const gzipWhole = gzipBytes(code);
  const mechanisms = MECHANISMS.map((mechanism, index): MechanismBytes => {
    let minBytes = 0;
    const parts = new Map<number, number>();
    for (let i = 0; i < code.length; i++) {
      if (owner[i] !== index) continue;
      minBytes += bytes[i];
      parts.set(partOf[i], (parts.get(partOf[i]) ?? 0) + bytes[i]);
    }
    const measured: MechanismBytes = {
      section: mechanism.section,
      name: mechanism.name,
      browserOff: mechanism.browserOff === true,
      minBytes,
      gzipBytes: minBytes === 0
        ? 0
        : gzipWhole - gzipBytes(without(code, (i) => owner[i] === index)),
    };
    if (PARTS) {
      measured.parts = [...parts].map(([part, partBytes]) => ({
        part: partNames[part],
        minBytes: partBytes,
      }));
    }
    return measured;
  });
  let together = 0;
  for (let i = 0; i < code.length; i++) if (owner[i] >= 0) together += bytes[i];
  // modules the map attributes nothing to hold only code the bundler writes itself (the
  // namespace object of `import * as`), which no mechanism claims either
  let largestModuleDifference = 0;
  for (const module of bundled.modules) {
    const mapped = attributed.get(module.module);
    if (mapped !== undefined && module.module.startsWith("dist/")) {
      largestModuleDifference = Math.max(largestModuleDifference, Math.abs(mapped - module.bytes));
    }
  }
  if (SHOW !== undefined) {
    const index = MECHANISMS.findIndex((mechanism) => mechanism.name === SHOW);
    const shown = without(code, (i) => owner[i] !== index);
    console.error(`${SHOW} in ${entry.name} (${shown.length} characters):\n${shown}\n`);
  }
  return {
    name: entry.name,
    program: entry.program,
    minBytes: bundled.code.length,
    gzipBytes: gzipWhole,
    mechanisms,
    together: {
      minBytes: together,
      gzipBytes: gzipWhole - gzipBytes(without(code, (i) => owner[i] >= 0)),
    },
    largestModuleDifference,
  };
}

// ---- the report ---------------------------------------------------------------------------------

/** "1,234 / 567", or "—" for nothing. */
function bytesCell(minBytes: number, gzip: number): string {
  return minBytes === 0 ? "—" : `${minBytes.toLocaleString("en")} / ${gzip.toLocaleString("en")}`;
}

/** A mechanism's cell: its bytes, or for one switched off in browsers "0 (+what is left)". */
function mechanismCell(mechanism: MechanismBytes): string {
  if (!mechanism.browserOff) return bytesCell(mechanism.minBytes, mechanism.gzipBytes);
  return mechanism.minBytes === 0
    ? "0"
    : `0 (+${bytesCell(mechanism.minBytes, mechanism.gzipBytes)})`;
}

function percent(part: number, whole: number): string {
  return `${(100 * part / whole).toFixed(1)}%`;
}

/** The cells of the together table's row for a bundle: mechanisms, whole bundle, share. */
function togetherCells(bundle: BundleBytes): string[] {
  return [
    bytesCell(bundle.together.minBytes, bundle.together.gzipBytes),
    bytesCell(bundle.minBytes, bundle.gzipBytes),
    `${percent(bundle.together.minBytes, bundle.minBytes)} / ${
      percent(bundle.together.gzipBytes, bundle.gzipBytes)
    }`,
  ];
}

function markdown(bundles: readonly BundleBytes[], lines: readonly number[]): string {
  const header = `| mechanism | lines | ${BUNDLES.map((b) => b.title).join(" | ")} |`;
  const rule = `|---|---:|${BUNDLES.map(() => "---:").join("|")}|`;
  const out: string[] = [
    "Code lines (npm build, blank and comment lines aside) and minified / gzip -9 bytes of each",
    "mechanism in each bundle (`bun build --minify --target=browser`",
    "of the program from the npm package; —: not in that bundle; everything is",
    `\`${BUNDLES.at(-1)!.program}\`, which bundles as dist/msgpackr.js).`,
  ];
  for (const section of new Set(MECHANISMS.map((m) => m.section))) {
    out.push("", `### ${section}`, "", header, rule);
    MECHANISMS.forEach((mechanism, index) => {
      if (mechanism.section !== section) return;
      const cells = bundles.map((b) => mechanismCell(b.mechanisms[index]));
      out.push(`| ${mechanism.name} | ${lines[index]} | ${cells.join(" | ")} |`);
    });
  }
  out.push(
    "",
    "### All mechanisms together",
    "",
    "| bundle | mechanisms | whole bundle | share |",
    "|---|---:|---:|---:|",
    ...bundles.map((b, i) => `| ${BUNDLES[i].title} | ${togetherCells(b).join(" | ")} |`),
    "",
    "0 (+…): switched off in browsers (package.json `browser` maps its module to a form without it);",
    "+ is what is left of it: that form, and the call sites and lookups that stay.",
    `Attribution check: a module's bytes through the source map differ from bun's metafile by at most ${
      Math.max(...bundles.map((b) => b.largestModuleDifference))
    } bytes.`,
  );
  if (PARTS) {
    for (const bundle of bundles) {
      out.push("", `Parts in ${bundle.name}:`);
      for (const mechanism of bundle.mechanisms) {
        for (const part of mechanism.parts ?? []) {
          out.push(`  ${mechanism.name}: ${part.part}: ${part.minBytes}`);
        }
      }
    }
  }
  return out.join("\n");
}

/** The docs page whose tables `--update-docs` rewrites, and the section they are in. */
const DOCS = "docs/architecture.md";
const DOCS_SECTION = "## Why it is fast";

/**
 * Rewrites the line and byte cells of the tables in the docs' section: in a table whose header
 * has "lines" in its third column and names the bundles after it, the row of each mechanism (by its name in the
 * first cell); in the table of all mechanisms together, the row of each bundle (by its title).
 * The other cells (the gains) stay. Throws when a mechanism or bundle has no row there.
 */
async function updateDocs(
  bundles: readonly BundleBytes[],
  linesOf: readonly number[],
): Promise<void> {
  const text = await Deno.readTextFile(`${ROOT}${DOCS}`);
  const start = text.indexOf(`\n${DOCS_SECTION}\n`);
  if (start < 0) throw new Error(`${DOCS} has no section "${DOCS_SECTION}"`);
  const next = text.indexOf("\n## ", start + 1);
  const end = next < 0 ? text.length : next;
  const cellsOf = (line: string) => line.split("|").slice(1, -1).map((cell) => cell.trim());
  const rowOf = (cells: string[]) => `| ${cells.join(" | ")} |`;
  const titles = BUNDLES.map((b) => b.title);
  const mechanismRows = new Set<string>();
  const bundleRows = new Set<string>();
  let bundleColumns = false;
  const lines = text.slice(start, end).split("\n").map((line) => {
    if (!line.startsWith("|")) {
      bundleColumns = false;
      return line;
    }
    const cells = cellsOf(line);
    if (cells[2] === "lines" && titles.every((title, i) => cells[3 + i] === title)) {
      bundleColumns = true;
    }
    const index = MECHANISMS.findIndex((m) => m.name === cells[0]);
    if (bundleColumns && index >= 0) {
      mechanismRows.add(cells[0]);
      return rowOf([
        ...cells.slice(0, 2),
        String(linesOf[index]),
        ...bundles.map((b) => mechanismCell(b.mechanisms[index])),
      ]);
    }
    const bundle = titles.indexOf(cells[0]);
    if (bundle >= 0 && cells.length === 4) {
      bundleRows.add(cells[0]);
      return rowOf([cells[0], ...togetherCells(bundles[bundle])]);
    }
    return line;
  });
  const missing = [
    ...MECHANISMS.map((m) => m.name).filter((name) => !mechanismRows.has(name)),
    ...titles.filter((title) => !bundleRows.has(title)),
  ];
  if (missing.length > 0) {
    throw new Error(`${DOCS}, "${DOCS_SECTION.slice(3)}", has no row for: ${missing.join(", ")}`);
  }
  await Deno.writeTextFile(
    `${ROOT}${DOCS}`,
    text.slice(0, start) + lines.join("\n") + text.slice(end),
  );
  const formatted = await new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--quiet", DOCS],
    cwd: ROOT,
  }).output();
  if (!formatted.success) throw new Error(`deno fmt ${DOCS} failed`);
}

let claims: Map<string, Claim[]>;
if (BUILD && !await buildPackage()) fail("the build (scripts/build.ts) failed");
try {
  claims = claimsOfTable();
} catch (error) {
  fail((error as Error).message);
}
const linesOf = linesOfTable(claims);
const bundles = await inInstalledProject(async (project) => {
  const bundles: BundleBytes[] = [];
  for (const entry of BUNDLES) bundles.push(await measure(project, entry, claims));
  return bundles;
}).catch((error) => fail(`cannot measure: ${error}`));
const bundler = await bundlerVersion();
if (JSON_OUTPUT) {
  const report: Report = { bundler, bundles, lines: linesOf };
  console.log(JSON.stringify(report, null, 2));
} else {
  console.log(markdown(bundles, linesOf));
}
if (UPDATE_DOCS) {
  await updateDocs(bundles, linesOf).catch((error) =>
    fail(`cannot update the docs: ${error.message}`)
  );
  console.error(`mechanism_bytes: updated the tables of ${DOCS}, "${DOCS_SECTION.slice(3)}"`);
}
