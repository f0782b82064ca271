import { setFlagsFromString } from 'node:v8';

/** V8 flags that grow the JavaScript heap conservatively (and keep the young generation small). */
export const SMALL_HEAP_FLAGS = '--optimize-for-size';

/**
 * Tells V8 to size its heap for memory rather than speed, from now on and process-wide.
 * Why: a local ingest's live heap is ~40–60 MB and flat, but with V8's default heap growth
 * (old space up to ~4× what the last full collection kept, a 16 MB semi-space) its heap reached
 * 166 MB at the end of a 100 MB transcript's loop, mostly garbage not yet collected, and that
 * sat under the final catch-up's SQLite seal and PGlite: peak RSS 298–301 MB at 100 MB, 388 MB
 * at 1 GB (issue 15 target 5, a 1 GB ingest under 300 MB on Node's default heap). With this the
 * heap stays within ~1.3× of what is live. No cap: a larger live heap still grows as it needs.
 * For one-shot local runs (ingest, synthesize, a reference corpus); a server keeps the default.
 */
export function preferSmallHeap(): void {
  setFlagsFromString(SMALL_HEAP_FLAGS);
}
