// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// Erroring a stream discards the chunks still queued on its readable side, so a stream that fails
// after producing values would lose them. The streams therefore wait until the reader has taken
// every queued chunk before erroring. Web Streams offer no event for that, so the queue is polled
// at macrotask pace (only on this error path): with the readable `highWaterMark` of 0,
// `desiredSize` is minus the number of queued chunks, 0 once the queue is empty (or the stream
// was cancelled) and null once it is errored.
//
// The poll keeps the process alive, as any pending stream operation does, so that a reader about
// to ask for the next chunk gets the error. A reader that takes nothing for `IDLE_LIMIT_MS` may
// have been dropped without cancelling the stream; from then on the poll's timers let the
// process exit (Node and Bun timers are unref'd, Deno's with `Deno.unrefTimer`).

/** How long a reader may take no chunk before the poll stops keeping the process alive. */
const IDLE_LIMIT_MS = 10_000;

/**
 * Rejects with `error` once the readable side of `controller`'s stream has no queued chunks.
 *
 * @param controller The controller of the stream (a TransformStream's or a ReadableStream's).
 * @param error The error to reject with.
 * @returns A promise that rejects with `error`.
 */
export async function errorWhenDrained(
  controller: { readonly desiredSize: number | null },
  error: unknown,
): Promise<never> {
  let queued = controller.desiredSize ?? 0;
  let lastProgress = Date.now();
  let delay = 0;
  while (queued < 0) {
    const idle = Date.now() - lastProgress > IDLE_LIMIT_MS;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, delay);
      if (!idle) return;
      if (typeof timer !== "number") (timer as { unref?(): void }).unref?.();
      else (globalThis as { Deno?: { unrefTimer?(id: number): void } }).Deno?.unrefTimer?.(timer);
    });
    const now = controller.desiredSize ?? 0;
    if (now !== queued) {
      queued = now;
      lastProgress = Date.now();
    }
    delay = Math.min(delay * 2 + 1, 50);
  }
  throw error;
}
