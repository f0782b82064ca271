import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { MemError, makePrivateDirectory } from '@mem/core';
import { lockPgliteDir } from '@mem/engine';
import { initCluster } from './pglite-initdb.js';
import { pgliteStartParams } from './pglite-settings.js';

interface Entry {
  db: Promise<PGlite>;
  refs: number;
  unlock: () => void;
}

/**
 * One PGlite per data directory per process, shared by reference count: the projector and a
 * reader (openVectorRecall) in one process must not open the directory twice. The last release
 * closes it and drops the cross-process lock.
 */
const open = new Map<string, Entry>();

/**
 * Opens (or shares) the PGlite of `dir`, creating the cluster when the directory is new: by
 * initdb, or (tests only, see BackendConfig.pgliteTemplate) by copying `template`.
 */
export async function acquirePglite(
  dir: string,
  template?: string | null,
): Promise<{ db: PGlite; release: () => Promise<void> }> {
  const key = resolve(dir);
  let entry = open.get(key);
  if (!entry) {
    if (template) assertCluster(template);
    // PGlite makes its own files inside; an owner-only directory keeps them all owner-only.
    makePrivateDirectory(key);
    const unlock = lockPgliteDir(key);
    // Created under the lock: one creator at a time, and nobody opens a cluster while it is made.
    const created: Entry = { db: createPglite(key, template), refs: 0, unlock };
    open.set(key, created);
    created.db.catch(() => {
      open.delete(key);
      unlock();
    });
    entry = created;
  }
  entry.refs += 1;
  const current = entry;
  let released = false;
  const db = await current.db;
  return {
    db,
    release: async () => {
      if (released) return;
      released = true;
      current.refs -= 1;
      if (current.refs > 0) return;
      open.delete(key);
      try {
        await db.close();
      } finally {
        current.unlock();
      }
    },
  };
}

/** True while this process holds `dir` open. */
export function isPgliteOpen(dir: string): boolean {
  return open.has(resolve(dir));
}

/** PGlite resumes a directory holding PG_VERSION; anything else would be initdb'd over. */
function isCluster(dir: string): boolean {
  return existsSync(join(dir, 'PG_VERSION'));
}

function assertCluster(template: string): void {
  if (!isCluster(template)) {
    throw new MemError(
      'CONFIG_INVALID',
      `MEM_TEST_PGLITE_TEMPLATE ${template} is not an initialised PGlite data directory (no PG_VERSION in it)`,
      {
        template,
        expected: "a PGlite data directory made by the test suite's global setup",
      },
    );
  }
}

async function createPglite(dir: string, template: string | null | undefined): Promise<PGlite> {
  try {
    // Imported on first open, not with the projector: a process that never opens the embedded
    // Postgres (DATABASE_URL, or a command that keeps only SQLite current) never loads it.
    const [{ PGlite }, { vector }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite-pgvector'),
    ]);
    const startParams = pgliteStartParams(PGlite.defaultStartParams);
    // initdb (seconds, ~790 MB) runs in a child; tests copy the template, made once, instead.
    if (!isCluster(dir)) await initCluster(dir, startParams, template);
    return await PGlite.create(dir, { extensions: { vector }, startParams });
  } catch (error) {
    if (error instanceof MemError) throw error;
    throw new MemError(
      'IO_FAILED',
      `cannot open the embedded Postgres (PGlite) at ${dir}: ${(error as Error).message}`,
      { dir },
      { cause: error },
    );
  }
}
