// Copyright 2026 the @x/msgpackr authors. MIT license.
// The browser benchmark's page, bundled and served by `browser.ts`: it times the bundle under test
// (`./bundle.js`) against msgpackr's browser build (the global `msgpackr`, which a classic script
// of the page sets before this module runs) and JSON, in paired slices as `paired.ts` does, and
// reports on the console: a line per cell, then one when it is done, or one error.

import { type Library, type Prepared, prepareJson, prepareLibrary } from "./_prepare.ts";
import { pairedSlices } from "./_slices.ts";
import type { PairedCell } from "./paired.ts";

/** What the page reports when it is done, after its cells. */
export interface PageDone {
  crossOriginIsolated: boolean;
  /** The page's Content-Security-Policy violations: "directive blocked-URI". */
  violations: string[];
}

/** A report of the page: a console line of `__BENCH__` and this as JSON. */
export type PageReport = { cell: PairedCell } | { done: PageDone } | { error: string };

function report(message: PageReport): void {
  console.log(`__BENCH__${JSON.stringify(message)}`);
}

/** A payload as `browser.ts` sends it (`payloads.msgpack`: an array of these). */
export interface SentPayload {
  name: string;
  value: unknown;
  json: boolean;
}

/** The rival's decoder, to read the payloads (msgpackr's options, beyond ours). */
type PayloadReader = new (options: { mapsAsObjects: true; copyBuffers: true }) => {
  unpack(bytes: Uint8Array): unknown;
};

/** Our codec against each rival, as `paired.ts` compares them. */
const COMPARISONS: [mine: string, rival: string][] = [
  ["ours", "msgpackr"],
  ["ours records", "msgpackr records"],
  ["ours", "JSON"],
  ["ours records", "JSON"],
];
const OPERATIONS = ["pack", "unpack"] as const;

const violations: string[] = [];
document.addEventListener("securitypolicyviolation", (event) => {
  violations.push(`${event.effectiveDirective} ${event.blockedURI}`);
});

const params = new URL(location.href).searchParams;
const setting = (name: string): string => {
  const value = params.get(name);
  if (value === null) throw new Error(`The page's address has no ${name}`);
  return value;
};

/** Times every cell of every payload and reports each. */
async function main(): Promise<void> {
  const pairs = Number(setting("pairs"));
  const sliceMs = Number(setting("sliceMs"));
  const warmUpPairs = Number(setting("warmUpPairs"));
  const noEval = setting("noEval") === "true";
  const payloadFilter = params.get("payload") ?? "";

  const rival = (globalThis as unknown as { msgpackr?: Library }).msgpackr;
  if (rival === undefined) throw new Error("msgpackr's browser build did not load");
  // a computed address: the bundle is loaded as the page finds it, not bundled into this module
  const ours = await import(new URL("bundle.js", import.meta.url).href) as Library;
  const response = await fetch(new URL("payloads.msgpack", import.meta.url));
  const reader = new (rival.Unpackr as unknown as PayloadReader)({
    mapsAsObjects: true,
    copyBuffers: true,
  });
  const sent = reader.unpack(new Uint8Array(await response.arrayBuffer())) as SentPayload[];

  for (const payload of sent) {
    if (!payload.name.includes(payloadFilter)) continue;
    const codecs: Record<string, () => Prepared> = {
      "ours": () => prepareLibrary(ours, false, payload.value, noEval),
      "ours records": () => prepareLibrary(ours, true, payload.value, noEval),
      "msgpackr": () => prepareLibrary(rival, false, payload.value),
      "msgpackr records": () => prepareLibrary(rival, true, payload.value),
      "JSON": () => prepareJson(payload.value),
    };
    const prepared = new Map<string, Prepared>();
    const prepare = (name: string): Prepared => {
      if (!prepared.has(name)) prepared.set(name, codecs[name]());
      return prepared.get(name)!;
    };
    for (const [mine, rivalName] of COMPARISONS) {
      if (rivalName === "JSON" && !payload.json) continue;
      for (const operation of OPERATIONS) {
        const run = (codec: Prepared) => operation === "pack" ? codec.encode : codec.decode;
        const cell: PairedCell = {
          payload: payload.name,
          mine,
          rival: rivalName,
          operation,
          ...pairedSlices(
            run(prepare(mine)),
            run(prepare(rivalName)),
            pairs,
            sliceMs,
            warmUpPairs,
          ),
        };
        report({ cell });
        // lets the console deliver the line, and the page answer, between cells
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    }
  }
  report({ done: { crossOriginIsolated: globalThis.crossOriginIsolated, violations } });
}

main().catch((error: unknown) => {
  const text = error instanceof Error ? `${error.stack ?? error}` : String(error);
  report({ error: text });
});
