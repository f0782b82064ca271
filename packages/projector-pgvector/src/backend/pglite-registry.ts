import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { MemError, makePrivateDirectory } from '@mem/core';
import { lockPgliteDir } from '@mem/engine';

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

/** Opens (or shares) the PGlite of `dir`, creating the cluster when the directory is new. */
export async function acquirePglite(dir: string): Promise<{ db: PGlite; release: () => Promise<void> }> {
  const key = resolve(dir);
  let entry = open.get(key);
  if (!entry) {
    // PGlite makes its own files inside; an owner-only directory keeps them all owner-only.
    makePrivateDirectory(key);
    const unlock = lockPgliteDir(key);
    const created: Entry = { db: createPglite(key), refs: 0, unlock };
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

async function createPglite(dir: string): Promise<PGlite> {
  try {
    return await PGlite.create(dir, { extensions: { vector } });
  } catch (error) {
    throw new MemError('IO_FAILED', `cannot open the embedded Postgres (PGlite) at ${dir}: ${(error as Error).message}`, { dir }, { cause: error });
  }
}
