import { rmSync } from 'node:fs';
import { MemError } from '@mem/core';
import { lockPgliteDir } from '@mem/engine';
import { embeddedDir, openBackend, type BackendConfig } from './backend/open-backend.js';
import { isPgliteOpen } from './backend/pglite-registry.js';
import { quoteIdent } from './schema/identifiers.js';
import { readMeta } from './schema/prepare-schema.js';

/** Every table holding a project's rows, children before parents. */
const PROJECT_TABLES = [
  'memory_vector',
  'memory_item',
  'memory_line_edge',
  'memory_line_successor',
  'memory_line',
  'memory_supersede',
  'memory_edge',
  'failure_signature',
  'memory_node',
  'memory_head',
  'memory_tombstone',
  'memory_run',
  'projection_state',
] as const;

/**
 * Drops the projection at `stateDir`: all of it (the embedded data directory, or the schema on a
 * shared database), or one project's rows. Leaves everything else alone, the embedding cache
 * included: it never changes what a rebuild writes.
 */
export async function resetProjection(
  config: BackendConfig,
  stateDir: string,
  project?: string,
): Promise<void> {
  const embedded = !config.pglite && !config.databaseUrl;
  if (embedded && project === undefined) {
    const dir = embeddedDir(stateDir);
    if (isPgliteOpen(dir)) {
      throw new MemError(
        'CONFLICT',
        `cannot reset ${dir}: this process still has it open (close the projector and readers first)`,
        { dir },
      );
    }
    // Another process with the directory open keeps its lock: CONFLICT, instead of deleting under it.
    const unlock = lockPgliteDir(dir);
    try {
      rmSync(dir, { recursive: true, force: true });
    } finally {
      unlock();
    }
    return;
  }
  const backend = await openBackend(config, stateDir, { create: false });
  if (!backend) return;
  try {
    const { client, schema } = backend;
    const s = quoteIdent(schema);
    if (project === undefined) {
      await client.exec(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
      return;
    }
    if (!(await readMeta(client, schema))) return;
    await client.transaction(async (tx) => {
      for (const table of PROJECT_TABLES)
        await tx.query(`DELETE FROM ${s}.${table} WHERE project = $1`, [project]);
    });
  } finally {
    await backend.client.close();
  }
}
