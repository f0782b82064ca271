import { AsyncLocalStorage } from 'node:async_hooks';
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
  /**
   * Why the vector side is missing, when it was asked for and is (a line for stderr), else null;
   * read when needed: it changes when the embedded PGlite moves between processes.
   */
  readonly vectorNote: string | null;
  /** The vector side exists but another process holds it: a query's own answer says so (recall.vector 'failed'). */
  vectorsHeld: boolean;
  /**
   * Tries once more to open the embedded vector side that another process held (at opening, or
   * since releaseVectors; its holder may have stopped or let it go): true when this process now
   * has it, and every later query of the registry uses it; false when it is still held (one lock
   * attempt, nothing else run: the queries stay keyword-only and say so). Always false where the
   * vector side was never held elsewhere.
   */
  reopenVectors(): Promise<boolean>;
  /** Whether this process has the embedded PGlite's vector side open now (and may hand it over). */
  holdsVectors(): boolean;
  /**
   * Hands the embedded PGlite back (a `mem serve` on the root takes it): waits for the reads of
   * the vectors running here, holds new ones until it is closed, and closes it; from then on
   * they are keyword-only here, saying so (CONFLICT), until reopenVectors takes it again. False
   * when there was nothing to hand over (not open here, or not the embedded PGlite).
   */
  releaseVectors(): Promise<boolean>;
  /**
   * Runs `read` (a call of the registry that reads the vectors), asked while this process holds
   * them, as one step with that hold: its output; or null, `read` stopped before it reached the
   * vectors, when they were handed over (releaseVectors) before it got there — it would have
   * answered keyword-only here while their new holder answers with them.
   */
  readHeldVectors<T>(read: () => Promise<T>): Promise<{ output: T } | null>;
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
  /**
   * `mem serve`: while another process (a `mem mcp` started first) holds the embedded PGlite,
   * each read of the vectors first tries to take it (one lock attempt while it is still held),
   * so the server answers with vectors as soon as it is let go.
   */
  reclaimVectors?: boolean;
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
  // The embedded PGlite serves one process: the vector side can move between processes (held
  // elsewhere at opening, or handed over by releaseVectors). A DATABASE_URL never moves.
  const movable = Boolean(query) && !config.DATABASE_URL;
  let heldElsewhere = Boolean(query?.deps.vectorsUnavailable);
  let vectorNote = query?.vectorNote ?? null;
  let reopening: Promise<boolean> | null = null;
  const reopen = async (): Promise<boolean> => {
    const { openQueryDeps } = await import('./query-deps.js');
    // One lock attempt while another process still holds it: no catch-up, no open re-run.
    const again = await openQueryDeps(engine, config, { onlyIfFree: true });
    if (!again) return false;
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
    heldElsewhere = false;
    vectorNote = null;
    await before?.close();
    return true;
  };
  const reopenVectors = async (): Promise<boolean> => {
    if (!movable || !heldElsewhere) return Boolean(vectorSide.vectors);
    // Concurrent calls share one attempt: two would each open the embedded Postgres.
    reopening ??= reopen().finally(() => (reopening = null));
    return reopening;
  };
  // The reads of the vectors running here, and a hand-over in progress (new reads wait for it).
  let running = 0;
  let drained: (() => void) | null = null;
  let handing: Promise<boolean> | null = null;
  const aroundVectorReads = async <T>(read: () => Promise<T>): Promise<T> => {
    while (handing) await handing;
    if (heldElsewhere && askedWhileHeld.getStore()) throw new HandedOverOnTheWay();
    if (options.reclaimVectors && heldElsewhere) await reopenVectors();
    running += 1;
    try {
      return await read();
    } finally {
      running -= 1;
      if (running === 0) drained?.();
    }
  };
  const handOver = async (): Promise<boolean> => {
    await reopening?.catch(() => false);
    if (!movable || heldElsewhere || !vectorSide.vectors) return false;
    while (running > 0) await new Promise<void>((resolve) => (drained = resolve));
    drained = null;
    const message = `the embedded pgvector projection ${engine.paths.stateDir}/pg was handed to another process on this data root`;
    Object.assign(vectorSide, {
      vectors: null,
      embedder: null,
      vectorsUnavailable: { code: 'CONFLICT', message },
    });
    heldElsewhere = true;
    vectorNote = `${message}: keyword recall only`;
    const before = query;
    query = undefined;
    await before?.close();
    return true;
  };
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
      ...(movable ? { aroundVectorReads } : {}),
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
    return {
      registry,
      get vectorNote() {
        return vectorNote;
      },
      vectorsHeld: heldElsewhere,
      reopenVectors,
      holdsVectors: () => movable && !heldElsewhere && Boolean(vectorSide.vectors),
      releaseVectors: async () => {
        handing ??= handOver().finally(() => (handing = null));
        return handing;
      },
      readHeldVectors: async (read) => {
        try {
          return { output: await askedWhileHeld.run(true, read) };
        } catch (error) {
          if (error instanceof HandedOverOnTheWay) return null;
          throw error;
        }
      },
      close: async () => {
        await reopening?.catch(() => false);
        await handing?.catch(() => false);
        await registry.close();
        await query?.close();
      },
    };
  } catch (error) {
    await query?.close();
    throw error;
  }
}

/**
 * Set around a read that readHeldVectors runs: its run reaches the vectors (aroundVectorReads)
 * some awaits after the hold was checked (the token is read from disk first), and a hand-over
 * may end in between. Why the async context and not an argument: the read goes through the
 * registry's invoke, which the route does not own.
 */
const askedWhileHeld = new AsyncLocalStorage<true>();

/** Thrown by aroundVectorReads to readHeldVectors alone: the vectors left before the read reached them. */
class HandedOverOnTheWay extends Error {}

/** Who the local root of trust is, as recorded on what the CLI appends. */
export function localPrincipal(): string {
  try {
    return `local:${userInfo().username}`;
  } catch {
    return 'local';
  }
}
