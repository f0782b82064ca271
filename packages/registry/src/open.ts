import { KeyedSerial, type MemConfig } from '@mem/core';
import type { Engine } from '@mem/engine';
import type { LiveJob } from '@mem/ingest';
import type { QueryDeps } from '@mem/query';
import type { RegistryContext } from './context.js';
import { IngestRuntime } from './ingest-runtime.js';
import { OPERATIONS } from './ops/index.js';
import { Registry } from './registry.js';
import { ProjectionStores } from './stores.js';

export interface OpenRegistryOptions {
  engine: Engine;
  version: string;
  config: MemConfig;
  /** Run accepted ingest jobs in this process (default true); false accepts and records only. */
  runJobs?: boolean;
  now?: () => Date;
  /** The clock of freshness verdicts (default `now`): a frozen one reads a fixture the same on any day. */
  recallNow?: () => Date;
  queryDeps?: Omit<QueryDeps, 'items'>;
  onJobError?: (job: LiveJob, error: unknown) => void;
  /**
   * Catch the projections up now (default true); false leaves it to the first operation that
   * reads a store. Why: a CLI command runs one operation, and `verify` reads the log alone: a
   * catch-up first would refuse a tampered tail before verify could report where it is.
   */
  openStores?: boolean;
  /** RegistryContext.catchUpAfterWrites: a server catches pgvector up after each write, off its path. */
  catchUpAfterWrites?: RegistryContext['catchUpAfterWrites'];
  /** RegistryContext.aroundVectorReads. */
  aroundVectorReads?: RegistryContext['aroundVectorReads'];
}

/**
 * The registry over one data root, ready to serve: projections caught up, and (when it runs
 * jobs) every job the log accepted and never finished queued again.
 */
export async function openRegistry(options: OpenRegistryOptions): Promise<Registry> {
  const stores = new ProjectionStores(options.engine);
  const runJobs = options.runJobs ?? true;
  if (options.openStores ?? true) await stores.open();
  const jobs = new IngestRuntime({
    engine: options.engine,
    findJob: async (jobId) => (await stores.fresh()).control.ingestJob(jobId),
    config: options.config,
    run: runJobs,
    ...(options.onJobError ? { onError: options.onJobError } : {}),
  });
  const context: RegistryContext = {
    engine: options.engine,
    stores,
    jobs,
    config: options.config,
    version: options.version,
    now: options.now ?? (() => new Date()),
    recallNow: options.recallNow ?? options.now ?? (() => new Date()),
    serial: new KeyedSerial(),
    acceptance: jobs,
    ...(options.queryDeps ? { queryDeps: options.queryDeps } : {}),
    ...(options.catchUpAfterWrites ? { catchUpAfterWrites: options.catchUpAfterWrites } : {}),
    ...(options.aroundVectorReads ? { aroundVectorReads: options.aroundVectorReads } : {}),
  };
  const registry = new Registry(context, OPERATIONS);
  if (runJobs) await jobs.resume((await stores.fresh()).control.unfinishedIngestJobs());
  return registry;
}
