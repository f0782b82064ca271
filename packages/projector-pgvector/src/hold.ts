import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { hasErrorCode } from '@mem/core';
import { embeddedDir } from './backend/open-backend.js';
import { acquirePglite, isPgliteOpen } from './backend/pglite-registry.js';
import { preferBaselineWasm } from './backend/wasm-tier.js';
import { backendConfig, type PgvectorBackendOptions } from './options.js';

/**
 * Keeps the embedded PGlite of `stateDir` open in this process until `release`, so that what
 * opens it meanwhile (the projector's catch-up, then openVectorRecall) shares one instance.
 * Why: opening an existing PGlite directory is seconds of a cold `mem query`; catch-up and
 * recall each opened it once (issue 15, target 6). A no-op when there is nothing to hold: a
 * Postgres or caller-owned backend, no cluster yet, or one another process holds (CONFLICT:
 * the catch-up skips it and the recall says why, as without a hold; `busy` says so, at the cost
 * of one lock attempt, so a caller that only wants the PGlite can stop there).
 */
export async function holdEmbeddedPglite(
  options: PgvectorBackendOptions & {
    stateDir: string;
    /** A one-shot process (a CLI read): the first open compiles Postgres for a quick start (wasm-tier.ts). */
    quickStart?: boolean;
  },
): Promise<{ release(): Promise<void>; busy: boolean }> {
  const config = backendConfig(options);
  const dir = embeddedDir(options.stateDir);
  const none = { release: async () => undefined, busy: false };
  if (config.pglite || config.databaseUrl || !existsSync(join(dir, 'PG_VERSION'))) return none;
  if (options.quickStart && !isPgliteOpen(dir)) preferBaselineWasm();
  try {
    const held = await acquirePglite(dir);
    return { release: held.release, busy: false };
  } catch (error) {
    if (hasErrorCode(error, 'CONFLICT')) return { ...none, busy: true };
    throw error;
  }
}
