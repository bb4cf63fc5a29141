// Copyright 2026 the @x/msgpackr authors. MIT license.
// msgpackr's pure-JavaScript browser build (no native addon), loaded from its UMD bundle: Deno runs
// it as a script that sets `globalThis.msgpackr`, Bun as CommonJS (its exports).

import type * as msgpackr from "msgpackr";

async function loadMsgpackrBrowser(): Promise<typeof msgpackr> {
  const global = globalThis as { msgpackr?: typeof msgpackr | undefined };
  const saved = global.msgpackr;
  global.msgpackr = undefined;
  const module = await import("../node_modules/msgpackr/dist/index.js") as {
    default?: typeof msgpackr;
  };
  const loaded = global.msgpackr ?? module.default ?? (module as unknown as typeof msgpackr);
  global.msgpackr = saved;
  if (typeof loaded.Unpackr !== "function" || loaded.isNativeAccelerationEnabled) {
    throw new Error("msgpackr's browser build did not load");
  }
  return loaded;
}

/** msgpackr's browser build ("msgpackr pure-JS" in the tables). */
export const msgpackrBrowser: typeof msgpackr = await loadMsgpackrBrowser();
