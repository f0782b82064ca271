import { setFlagsFromString } from 'node:v8';

/**
 * V8 flags that keep WebAssembly on the baseline compiler (Liftoff): no optimizing tier-up, eager
 * or dynamic. TurboFan still compiles a function Liftoff cannot (unlike `--liftoff-only`).
 */
export const BASELINE_WASM_FLAGS = '--no-wasm-tier-up --no-wasm-dynamic-tiering';

/**
 * Compiles the WebAssembly this process loads from now on (PGlite's Postgres) for a quick start.
 * Why: with tier-up on, V8 re-compiles Postgres's hot functions with TurboFan on background
 * threads, and Node's event loop waits for all of them whenever it runs out of callbacks
 * (NodePlatform::DrainTasks): a cold `mem query` stalled up to a second in its catch-up and its
 * first recall. A one-shot command is over before optimized code would pay that back; a server
 * or a rebuild (an HNSW build runs in the module for minutes) keeps the default. A local ingest
 * takes it too, for memory: the optimizing compiles and their code held ~65 MB more RSS at its
 * final catch-up (issue 15 target 5). Process-wide, and only for modules compiled after it:
 * call it before the first PGlite opens.
 */
export function preferBaselineWasm(): void {
  setFlagsFromString(BASELINE_WASM_FLAGS);
}
