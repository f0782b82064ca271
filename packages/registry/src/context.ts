import type { MemConfig } from '@mem/core';
import type { Engine } from '@mem/engine';
import type { QueryDeps } from '@mem/query';
import type { IngestJobs } from './jobs/ingest-jobs.js';
import type { KeyedSerial } from './serial.js';
import type { ProjectionStores } from './stores.js';

/** What operation implementations work with: one data root, its stores and its job runner. */
export interface RegistryContext {
  engine: Engine;
  stores: ProjectionStores;
  jobs: IngestJobs;
  /** loadConfig's result: what ingest jobs resolve sources and choose controllers by. */
  config: MemConfig;
  /** mem's version, as /version reports it. */
  version: string;
  now: () => Date;
  /** Check-then-append sections, one at a time per key (`_system`, `ingest:<project>`). */
  serial: KeyedSerial;
  /**
   * Ingest acceptances appended but not yet projected, by project and ingest_id: a retry of one
   * gets the same job (the projection cannot tell it yet). Entries leave when projected.
   */
  accepting: Map<string, { jobId: string; projected: Promise<void> }>;
  /** The vector side of a query (embedder, pgvector recall, reranker) when configured; keyword-only without. */
  queryDeps?: Omit<QueryDeps, 'items'>;
}
