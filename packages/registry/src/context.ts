import type { KeyedSerial, MemConfig } from '@mem/core';
import type { Engine } from '@mem/engine';
import type { QueryDeps } from '@mem/query';
import type { IngestRuntime } from './ingest-runtime.js';
import type { ProjectionStores } from './stores.js';

/** What operation implementations work with: one data root, its stores and its job runner. */
export interface RegistryContext {
  engine: Engine;
  stores: ProjectionStores;
  jobs: IngestRuntime;
  /** loadConfig's result: what ingest jobs resolve sources and choose controllers by. */
  config: MemConfig;
  /** mem's version, as /version reports it. */
  version: string;
  now: () => Date;
  /** The caller's clock freshness verdicts are read against (MEM_NOW); apart from `now`, which tokens and idempotency read. */
  recallNow: () => Date;
  /** The `_system` check-then-append section: one administration write at a time. */
  serial: KeyedSerial;
  /** Ingest acceptances: one per ingest_id, queued on `jobs`. */
  acceptance: Pick<IngestRuntime, 'accept'>;
  /** The vector side of a query (embedder, pgvector recall, reranker) when configured; keyword-only without. */
  queryDeps?: Omit<QueryDeps, 'items'>;
  /**
   * Set by a long-lived process (`mem serve`): after each write, the projections a write leaves
   * behind (pgvector) are caught up in the background (ProjectionStores.catchUpLater), their
   * failures handed to `onError`.
   */
  catchUpAfterWrites?: { onError: (error: unknown) => void };
  /**
   * Runs each read of the vectors (an operation with `reads: 'vectors'`), set by a process whose
   * vector side may move (`mem serve`, `mem mcp`: the embedded PGlite is handed between them):
   * it may take the vector side first, and knows when none is running, so it can let it go.
   */
  aroundVectorReads?: <T>(read: () => Promise<T>) => Promise<T>;
}
