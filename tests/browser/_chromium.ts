// Copyright 2026 the @x/msgpackr authors. MIT license.
// Debian's Chromium as the browser test and the browser benchmark launch it.

import { type Browser, chromium } from "playwright-core";

/** The Chromium binary: `$CHROMIUM`, else Debian's `/usr/bin/chromium`. */
export const CHROMIUM: string = Deno.env.get("CHROMIUM") ?? "/usr/bin/chromium";

/** Launches {@linkcode CHROMIUM} headless, without the sandbox, GPU or background traffic. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
