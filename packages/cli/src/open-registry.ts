import { userInfo } from 'node:os';
import { openRegistry, type Registry } from '@mem/registry';
import { openEngine, openExistingEngine, type GlobalOptions } from './context.js';
import type { CliIO } from './io.js';
import { openQueryDeps } from './query-deps.js';
import { VERSION } from './version.js';

/** A registry over the data root of `globals`, and how to release it. */
export interface OpenedRegistry {
  registry: Registry;
  close(): Promise<void>;
}

export interface OpenCliRegistryOptions {
  runJobs: boolean;
  log?: (line: string) => void;
  /** A reading command: the data root and these projects must exist (NOT_FOUND), checked before anything is created. */
  existing?: { projects: readonly string[] };
}

/**
 * The composition root of the registry surfaces (the CLI's generated commands, `mem serve`,
 * `mem mcp`): the engine of `mem`'s other commands, and the query side `mem query` uses.
 */
export async function openCliRegistry(io: CliIO, globals: GlobalOptions, options: OpenCliRegistryOptions): Promise<OpenedRegistry> {
  const engine = options.existing ? await openExistingEngine(io, globals, options.existing.projects) : openEngine(io, globals);
  await engine.catchUp(); // the query side opens the store: on a fresh root it must exist first
  const query = await openQueryDeps(engine, io.env);
  // The registry keeps its own item store current per request; only the vector side is taken.
  const { items: _items, ...vectorSide } = query.deps;
  const registry = await openRegistry({
    engine,
    version: VERSION,
    env: io.env,
    runJobs: options.runJobs,
    queryDeps: vectorSide,
    ...(options.log ? { onJobError: (job, error) => options.log!(JSON.stringify({ ts: new Date().toISOString(), level: 'error', job: job.jobId, project: job.project, error: (error as Error)?.message ?? String(error) })) } : {}),
  });
  return {
    registry,
    close: async () => {
      await registry.close();
      await query.close();
    },
  };
}

/** Who the local root of trust is, as recorded on what the CLI appends. */
export function localPrincipal(): string {
  try {
    return `local:${userInfo().username}`;
  } catch {
    return 'local';
  }
}
