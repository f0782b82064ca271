import { userInfo } from 'node:os';
import type { QueryDeps } from '@mem/query';
import { openRegistry, type Reads, type Registry } from '@mem/registry';
import { cliConfig } from './config.js';
import { openEngine, openExistingEngine, type GlobalOptions } from './context.js';
import type { CliIO } from './io.js';
import type { OpenQueryDeps } from './query-deps.js';
import { preferSmallHeap } from './small-heap.js';
import { VERSION } from './version.js';

/** A registry over the data root of `globals`, and how to release it. */
export interface OpenedRegistry {
  registry: Registry;
  /** Why the vector side is missing, when it was asked for and is (a line for stderr), else null. */
  vectorNote: string | null;
  /** The vector side exists but another process holds it: a query's own answer says so (recall.vector 'failed'). */
  vectorsHeld: boolean;
  /**
   * Tries once more to open the vector side that was held at opening (its holder may have
   * stopped): true when this process now has it, and every later query of the registry uses
   * it; false when it is still held (the queries stay keyword-only and say so). Always false
   * where the vector side was not held.
   */
  reopenVectors(): Promise<boolean>;
  close(): Promise<void>;
}

export interface OpenCliRegistryOptions {
  runJobs: boolean;
  log?: (line: string) => void;
  /**
   * A reading command: the data root and these projects must exist (NOT_FOUND), checked before
   * anything is created; and it keeps current only the projections it reads.
   */
  existing?: { projects: readonly string[] };
  /**
   * A writing command naming these projects: the data root and each project must exist
   * (NOT_FOUND), checked before anything is written.
   */
  writesTo?: { projects: readonly string[] };
  /** What the operations to run read (default `vectors`: everything a server offers); nothing more is opened. */
  reads?: Reads;
  /** The process runs one operation and exits (a CLI command, not `mem serve` or `mem mcp`): opened for a quick start. */
  oneShot?: boolean;
  /** An item write (Operation.vectorsLater): pgvector is left to the next vector read. */
  vectorsLater?: boolean;
  /** `mem serve`: pgvector caught up after each write, off its path; a failure is a line on `log`. */
  catchUpAfterWrites?: boolean;
}

/** How a registry command opens its registry: openCliRegistry, or a running server's (the warm socket). */
export type RegistryOpener = (
  io: CliIO,
  globals: GlobalOptions,
  options: OpenCliRegistryOptions,
) => Promise<OpenedRegistry>;

/**
 * The composition root of the registry surfaces (the CLI's generated commands, `mem serve`,
 * `mem mcp`): the engine of `mem`'s other commands, and the query side `mem query` uses.
 */
export async function openCliRegistry(
  io: CliIO,
  globals: GlobalOptions,
  options: OpenCliRegistryOptions,
): Promise<OpenedRegistry> {
  const reads = options.reads ?? 'vectors';
  // Administration keeps only the SQLite projection current, and a reading command or a one-shot
  // write only what it reads: the others catch up on their next open (a query catches pgvector
  // up before recall). A write waits for SQLite and the vault alone (Projector.deferred), so a
  // one-shot one never starts the embedded Postgres.
  const projections =
    reads === 'control'
      ? 'control'
      : reads === 'stores' && (options.existing || (options.oneShot && options.vectorsLater))
        ? 'stores'
        : 'all';
  const mustExist = options.existing ?? options.writesTo;
  const engine = mustExist
    ? await openExistingEngine(io, globals, mustExist.projects, projections)
    : await openEngine(io, globals, projections);
  if (options.oneShot && reads === 'self') {
    // A local run (`mem ingest`, `mem synthesize`, a reference corpus) opens PGlite once, for
    // the catch-up of what it wrote: on the baseline compiler its peak RSS is ~65 MB lower
    // (wasm-tier.ts; issue 15 target 5). The module is loaded already (projectorsFor, 'all').
    const { preferBaselineWasm } = await import('@mem/projector-pgvector');
    preferBaselineWasm();
    // And a JavaScript heap sized to what is live, not to V8's speed-first growth (small-heap.ts).
    preferSmallHeap();
  }
  let query: OpenQueryDeps | undefined;
  const config = cliConfig(io, globals);
  if (reads === 'vectors') {
    // Imported here: the embedder and the vector recall are a query's alone (issue 15, target 6).
    const { openQueryDeps } = await import('./query-deps.js');
    query = await openQueryDeps(engine, config, {
      oneShot: options.oneShot === true,
    });
  }
  // The registry keeps its own item store current per request; only the vector side is taken.
  const { items: _items, ...vectorSide }: Partial<QueryDeps> = query?.deps ?? {};
  const frozen = config.MEM_NOW;
  try {
    const registry = await openRegistry({
      engine,
      version: VERSION,
      config,
      ...(frozen !== undefined ? { recallNow: () => new Date(frozen) } : {}),
      runJobs: options.runJobs,
      // verify reads the log alone; a local ingest catches up where it runs (and a dry run opens nothing).
      openStores: reads !== 'log' && reads !== 'self',
      ...(query ? { queryDeps: vectorSide } : {}),
      ...(options.catchUpAfterWrites
        ? {
            catchUpAfterWrites: {
              onError: (error: unknown) =>
                options.log?.(
                  JSON.stringify({
                    ts: new Date().toISOString(),
                    level: 'error',
                    catch_up: 'after write',
                    error: (error as Error)?.message ?? String(error),
                  }),
                ),
            },
          }
        : {}),
      ...(options.log
        ? {
            onJobError: (job, error) =>
              options.log!(
                JSON.stringify({
                  ts: new Date().toISOString(),
                  level: 'error',
                  job: job.jobId,
                  project: job.project,
                  error: (error as Error)?.message ?? String(error),
                }),
              ),
          }
        : {}),
    });
    const vectorsHeld = Boolean(query?.deps.vectorsUnavailable);
    let reopening: Promise<boolean> | null = null;
    const reopen = async (): Promise<boolean> => {
      const { openQueryDeps } = await import('./query-deps.js');
      const again = await openQueryDeps(engine, config);
      if (!again.deps.vectors) {
        await again.close();
        return false;
      }
      // The registry spreads this object into every query (ops/query.ts, ops/context.ts): the
      // fields set here are what the next query reads. Only the vector side moves; the floor,
      // weights and embedder settings are the environment's, as before.
      Object.assign(vectorSide, {
        vectors: again.deps.vectors,
        embedder: again.deps.embedder,
        vectorsUnavailable: null,
      });
      const before = query;
      query = again;
      await before?.close();
      return true;
    };
    return {
      registry,
      vectorNote: query?.vectorNote ?? null,
      vectorsHeld,
      reopenVectors: async () => {
        if (!vectorsHeld || vectorSide.vectors) return Boolean(vectorSide.vectors);
        // Concurrent calls share one attempt: two would each open the embedded Postgres.
        reopening ??= reopen().finally(() => (reopening = null));
        return reopening;
      },
      close: async () => {
        await reopening?.catch(() => false);
        await registry.close();
        await query?.close();
      },
    };
  } catch (error) {
    await query?.close();
    throw error;
  }
}

/** Who the local root of trust is, as recorded on what the CLI appends. */
export function localPrincipal(): string {
  try {
    return `local:${userInfo().username}`;
  } catch {
    return 'local';
  }
}
