// Copyright 2026 the @x/msgpackr authors. MIT license.
// This module is browser compatible.

// The sizes and counts at which the codec takes one path rather than another, with the bench that
// chose it ("Chosen by"), or, where no comment names one, the bench that measures it ("Measured
// by"). None but TRANSITIONS_BEFORE_REBUILD changes a byte of output, and none a decoded value:
// they decide which code makes them. Where the engine decides, the candidates are here and the
// engine module picks one.

// ---- decoding strings --------------------------------------------------------------------------

/**
 * Longest string decoded in JavaScript (`_strings/utf8.ts`); longer ones go to `TextDecoder`.
 * Measured by: npm run bench:paired:deno / :bun (strings2.json).
 */
export const JS_DECODE_MAX = 64;
/**
 * Longest map key (bytes) the key cache holds: every fixstr key (at most 31 bytes).
 * Measured by: npm run bench:paired:deno / :bun.
 */
export const KEY_CACHE_MAX_BYTES = 32;
/** log2 of the key cache's entries (4096). Measured by: npm run bench:paired:deno / :bun. */
export const KEY_CACHE_BITS = 12;
/**
 * Longest string value (bytes) the value cache holds.
 * Measured by: npm run bench:paired:deno / :bun (strings2.json, 1,000 log events).
 */
export const VALUE_CACHE_MAX_BYTES = 16;
/**
 * log2 of the value cache's entries (2048).
 * Measured by: npm run bench:paired:deno / :bun (strings2.json).
 */
export const VALUE_CACHE_BITS = 11;
/**
 * Lookups found in another entry of a cache set before that string moves back to its own.
 * Measured by: npm run bench:paired:deno / :bun (strings2.json).
 */
export const PROMOTE_AFTER = 32;
/**
 * Shortest ASCII string sliced from a Latin-1 window (V8 copies shorter slices anyway).
 * Chosen by: npm run bench:paired:deno / :bun (sample-large.json).
 */
export const MIN_SLICED = 13;
/**
 * Longest string sliced from a Latin-1 window where the engine has `latin1Slice` (else 0).
 * Chosen by: npm run bench:paired:deno / :bun (sample-large.json, 1,000 log events).
 */
export const MAX_SLICED_WITH_LATIN1 = 256;
/**
 * Input bytes one Latin-1 window covers at most.
 * Chosen by: npm run bench:paired:deno / :bun (sample-large.json).
 */
export const WINDOW_BYTES = 4096;
/**
 * A medium string farther than this from the previous one is made on its own, opening no window.
 * Chosen by: npm run bench:paired:deno / :bun (sample-large.json).
 */
export const NEAR_BYTES = 1024;
/**
 * Input bytes one UTF-8 batch spans at most.
 * Chosen by: npm run bench:paired:deno / :bun (unicode text).
 */
export const BATCH_BYTES = 4096;
/**
 * Longest non-ASCII string a UTF-8 batch's lookahead takes.
 * Chosen by: npm run bench:paired:deno / :bun (unicode text).
 */
export const BATCH_LONGEST = 1024;
/**
 * Input bytes one batch lookahead walks at most: twice a batch's span.
 * Chosen by: npm run bench:paired:deno / :bun (unicode text).
 */
export const BATCH_LOOKAHEAD = 2 * BATCH_BYTES;
/**
 * Gaps of a batch at least this long are zeroed by one `fill`, shorter ones by stores.
 * Chosen by: npm run bench:paired:deno / :bun (unicode text).
 */
export const FILL_GAP = 64;
/**
 * Most input bytes between two non-ASCII strings of one batch.
 * Chosen by: npm run bench:paired:deno (sample-large.json).
 */
export const MAX_GAP = 512;

// ---- decoder input -----------------------------------------------------------------------------

/**
 * Decoder inputs this long get their DataView when the decode starts (`_decode/decoder.ts`). On a
 * long input the view pays for itself: floats read faster from a view that exists from the start,
 * and so do the words that maps compare keys by (`readShapedMap`), that the value cache compares
 * strings by and that ASCII tests read. A shorter input makes one only for a 64-bit integer or its
 * seventh float (`FLOATS_BEFORE_VIEW`) and reads those words and bytes with byte loads instead,
 * because there a DataView costs more to make than its reads would save (more than a whole decode
 * of a message of a few hundred bytes, when each message is a fresh array).
 * Chosen by: npm run bench:paired:deno / :bun.
 */
export const EAGER_VIEW_MIN_INPUT = 512;
/**
 * Floats an input without a view reads from its bytes before it makes one.
 * Measured by: npm run bench:paired:deno / :bun (small messages).
 */
export const FLOATS_BEFORE_VIEW = 6;
/**
 * Largest buffer whose input's DataView is kept for the next decode of the same array.
 * Chosen by: npm run bench:paired:bun (unicode text, sample-large.json).
 */
export const KEPT_VIEW_MAX_BUFFER = 0x10000;

// ---- records and map shapes (decoding) ---------------------------------------------------------

/**
 * Uses of a record type or a map shape built by the loop before it asks for a faster builder
 * (compiled or pooled: `_records/reader.ts`); the next use asks, and after a refusal it waits four
 * times as many. As msgpackr, which compiles a record type on its 4th read; measured by: deno run
 * -A bench/record_readers.ts / bun bench/record_readers.ts, npm run bench:deno / bench:bun.
 */
export const USES_BEFORE_BUILDER = 3;
/**
 * Most shapes compiled during one top-level decode, with the decodes nested in it: compiling costs
 * far more than reading, so a flood of new shapes stays on the loop (and may compile in a later
 * decode); each decode has its own allowance, so one decode's flood never stops another's.
 * Measured by: npm run bench:hostile:deno / :bun.
 */
export const MAX_COMPILES_PER_DECODE = 32;
/**
 * Maps with more entries are decoded with plain stores, not followed as shapes.
 * Chosen by: npm run bench:deno / bench:bun (plain `unpack`).
 */
export const MAX_SHAPED_KEYS = 64;
/**
 * Most properties of a shape whose pooled builder starts from `{}` rather than a template copy.
 * Chosen by: deno run -A bench/object_building.ts / bun bench/object_building.ts.
 */
export const MOST_PROPERTIES_WITHOUT_TEMPLATE = 16;
/**
 * Weighted new nodes of the encoder's record tree before it is rebuilt from the shared ones. As
 * msgpackr (the record ids, so the bytes, depend on it): not a bench choice.
 */
export const TRANSITIONS_BEFORE_REBUILD = 10000;

// ---- encoding ----------------------------------------------------------------------------------

/**
 * Longest string (UTF-16 units) the encoder writes in JavaScript where Bun's `Buffer` `utf8Write`
 * writes longer ones.
 * Chosen by: npm run bench:paired:bun (strings2.json).
 */
export const MANUAL_UTF8_MAX_WITH_UTF8_WRITE = 31;
/**
 * Longest string (UTF-16 units) the encoder writes in JavaScript where `encodeInto` writes longer
 * ones (V8, browsers).
 * Chosen by: npm run bench:paired:deno (strings2.json).
 */
export const MANUAL_UTF8_MAX_WITH_ENCODE_INTO = 63;
/**
 * Objects of a shape written by the generic path before its writer is generated.
 * Measured by: npm run bench:paired:deno / :bun.
 */
export const WRITES_BEFORE_COMPILE = 4;
/**
 * Writers generated during one top-level pack at most: a bound on compiling, not tuned; npm run
 * bench:paired:deno / :bun measures packs under it.
 */
export const MAX_COMPILES_PER_PACK = 16;
/**
 * Most properties of a shape that gets a generated writer.
 * Chosen by: npm run bench:ab:deno -- --b=DIR / :bun (example4.json).
 */
export const MAX_WRITER_PROPERTIES = 16;
/**
 * Binary values this long are gathered into `pack()`'s result, not copied through the arena.
 * Measured by: deno run -A bench/binary_throughput.ts / bun bench/binary_throughput.ts.
 */
export const LARGE_BYTES_MIN = 0x4000;
/** Bytes of the shared encoder arena. Measured by: npm run bench:paired:deno / :bun. */
export const ARENA_SIZE = 8192;
/**
 * Arenas grown beyond this are dropped after the pack, so one huge message is not kept.
 * Measured by: npm run bench:allocation:deno / :bun.
 */
export const ARENA_KEEP_LIMIT = 0x1000000;
/**
 * Output up to this size grows to four times its bytes (in 4 KiB pages), beyond it by 2x (at least
 * `GROW_MIN_STEP`).
 * As msgpackr; measured by: deno run -A bench/binary_throughput.ts.
 */
export const GROW_FOURFOLD_MAX = 0x1000000;
/**
 * Output beyond this size grows by 1.25x instead of 2x.
 * As msgpackr; measured by: deno run -A bench/binary_throughput.ts.
 */
export const GROW_DOUBLE_MAX = 0x4000000;
/**
 * Least size a buffer of over `GROW_FOURFOLD_MAX` bytes grows to.
 * As msgpackr; measured by: deno run -A bench/binary_throughput.ts.
 */
export const GROW_MIN_STEP = 0x400000;
