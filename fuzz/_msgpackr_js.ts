// Copyright 2026 the @x/msgpackr authors. MIT license.
// A private instance of npm msgpackr's pure-JavaScript build, for the differential oracle.
//
// `import "msgpackr"` gives msgpackr as Node, Deno and Bun load it: with its native string
// extractor when the msgpackr-extract addon loads (`isNativeAccelerationEnabled`), and sharing its
// module state (structures, extensions, the source being read) with every other test of the
// process. The differential oracle must not depend on either, so it evaluates msgpackr's own UMD
// build (`dist/index.js`, built by msgpackr from the same sources, without the addon) into an
// `exports` object of its own: same code, its own module state, never native. One guard and one
// counter are added (guardEndlessRecursion, watchBundleJump); neither changes what it decodes.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as msgpackr from "msgpackr";

/** What this file loads: msgpackr's module API, and one counter the copy adds. */
export type Msgpackr = typeof msgpackr & {
  /**
   * Values after which msgpackr jumped past a string bundle from a position already beyond the
   * end of the input, which hides that it read past the end (see watchBundleJump).
   */
  readonly overrunsHiddenByBundleJump: number;
};

/** The message of the error {@linkcode guardEndlessRecursion} adds. */
export const ENDLESS_RECURSION_GUARD =
  "msgpackr would read past the end without end (guard of fuzz/_msgpackr_js.ts)";

/**
 * msgpackr's reader of two-byte record ids takes the byte after the end of the input (undefined)
 * for a high byte, which makes it the reader's own slot again: it calls itself, one byte further
 * each time, without end. On V8 that is a stack overflow; on JavaScriptCore (Bun), which
 * eliminates the tail call, an endless loop. The guard throws where that begins, so that the
 * differential oracle can give msgpackr every input; it changes nothing else.
 */
function guardEndlessRecursion(source: string, file: string): string {
  const read = "let highByte = src[position$1++];";
  const parts = source.split(read);
  if (parts.length !== 2) throw new Error(`${file}: the two-byte id reader is not where expected`);
  return parts.join(
    `if (position$1 >= srcEnd) throw new Error(${
      JSON.stringify(ENDLESS_RECURSION_GUARD)
    }); ${read}`,
  );
}

/**
 * When a top-level value that holds a string bundle ends, msgpackr sets its position to the end
 * of the bundle's strings, whatever position it reached: a read past the end of the input inside
 * the value goes unnoticed. The watch counts those cases (`overrunsHiddenByBundleJump`), so the
 * table of differences can tell them apart; it changes nothing else.
 */
function watchBundleJump(source: string, file: string): string {
  const jump = "position$1 = bundledStrings$1.postBundlePosition;";
  const parts = source.split(jump);
  if (parts.length !== 2) throw new Error(`${file}: the jump past bundles is not where expected`);
  return parts.join(`if (position$1 > srcEnd) exports.overrunsHiddenByBundleJump++; ${jump}`);
}

/** A TextDecoder that keeps a leading BOM (the standard one drops it). */
class BomKeepingTextDecoder extends TextDecoder {
  constructor(label?: string, options?: TextDecoderOptions) {
    super(label, { ...options, ignoreBOM: true });
  }
}

/**
 * Evaluates msgpackr's JavaScript build into a new instance (module state of its own). With
 * `keepBom`, its TextDecoder keeps a leading BOM.
 */
export function loadMsgpackrJs(keepBom = false): Msgpackr {
  // the package's CommonJS entry is dist/node.cjs; the UMD build lies beside it
  const entry = createRequire(import.meta.url).resolve("msgpackr");
  const file = entry.replace(/[^/\\]+$/, "index.js");
  const source = watchBundleJump(guardEndlessRecursion(readFileSync(file, "utf8"), file), file);
  const module = { exports: { overrunsHiddenByBundleJump: 0 } as Record<string, unknown> };
  // the UMD wrapper takes the CommonJS branch when `exports` and `module` exist
  new Function("exports", "module", "define", "TextDecoder", source)(
    module.exports,
    module,
    undefined,
    keepBom ? BomKeepingTextDecoder : TextDecoder,
  );
  const loaded = module.exports as unknown as Msgpackr;
  if (typeof loaded.Unpackr !== "function" || loaded.isNativeAccelerationEnabled) {
    throw new Error(`${file} is not msgpackr's JavaScript build`);
  }
  msgpackrC1s.push(loaded.C1);
  return loaded;
}

/** The C1 object of `import "msgpackr"` and of every instance loaded here (each has its own). */
export const msgpackrC1s: object[] = [msgpackr.C1];

/** msgpackr 2.1.3, pure JavaScript, with module state of its own (see the file comment). */
export const msgpackrJs: Msgpackr = loadMsgpackrJs();

/**
 * Another such instance whose TextDecoder keeps a leading BOM, as we do on purpose: where it
 * agrees with us and {@linkcode msgpackrJs} does not, the BOM is the whole difference.
 */
export const msgpackrJsKeepingBom: Msgpackr = loadMsgpackrJs(true);
