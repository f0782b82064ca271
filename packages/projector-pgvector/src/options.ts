import { join, resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { MemConfig } from '@mem/core';
import { cachedEmbedder, embedderFromEnv, type Embedder } from '@mem/embed';
import type { BackendConfig } from './backend/open-backend.js';

/** Where the projection lives; the same for the projector and its readers. */
export interface PgvectorBackendOptions {
  /**
   * Postgres with pgvector >= 0.7, through `pg`. Absent: DATABASE_URL of `config`; null or empty:
   * the embedded PGlite under `<stateDir>/pg/` even when DATABASE_URL is set.
   */
  databaseUrl?: string | null;
  /**
   * A PGlite instance with the vector extension that the caller owns (a server sharing one,
   * tests). Each state directory gets its own schema in it. Wins over databaseUrl.
   */
  pglite?: PGlite;
  /** What DATABASE_URL and the embedder come from (loadConfig's result); absent: every default. */
  config?: MemConfig;
}

export interface PgvectorOptions extends PgvectorBackendOptions {
  /** Default: `embedderFromEnv(config)` cached under `<stateDir>/cache/embeddings/`. */
  embedder?: Embedder;
}

/** The backend the options name. */
export function backendConfig(options: PgvectorBackendOptions): BackendConfig {
  const config = options.config ?? {};
  const databaseUrl = options.databaseUrl === undefined ? config.DATABASE_URL : options.databaseUrl;
  // MEM_TEST_PGLITE_TEMPLATE is set by the test suite only (test/support/pglite-template.global.ts).
  return {
    databaseUrl: databaseUrl || null,
    pglite: options.pglite,
    pgliteTemplate: config.MEM_TEST_PGLITE_TEMPLATE || null,
  };
}

/**
 * The embedder of `options`, or the environment's cached under `<stateDir>/cache/embeddings/`:
 * one per state directory for the life of the projector, so the cache's index is read once, not
 * at every `init` (the engine opens projectors per operation).
 */
export function embedderSource(options: PgvectorOptions): (stateDir: string) => Embedder {
  const byDir = new Map<string, Embedder>();
  return (stateDir) => {
    if (options.embedder) return options.embedder;
    const key = resolve(stateDir);
    let embedder = byDir.get(key);
    if (!embedder) {
      embedder = cachedEmbedder(
        embedderFromEnv(options.config ?? {}),
        join(key, 'cache', 'embeddings'),
      );
      byDir.set(key, embedder);
    }
    return embedder;
  };
}
