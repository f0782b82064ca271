import { statSync } from 'node:fs';
import type { ItemStoreHandle } from './handle.js';
import { readMeta, sqliteVersion } from './store-meta.js';

/** Which file a path names: a store replaced by another file (not installed in place) has another. */
export function fileIdentity(path: string): string | null {
  try {
    const { dev, ino } = statSync(path, { bigint: true });
    return `${dev}:${ino}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Whether an open handle may serve the next catch-up under `stateDir` (the engine keeps the
 * store open between catch-ups: an open and its close cost more than a small batch, the close
 * a checkpoint and an fsync). Another process may have changed the store since, under the
 * projection lock: an install in place (a rebuild, a reset) keeps the file, and this
 * connection reads the new rows and schema on its next statement; only the meta row `sealed`
 * is read again, since this handle's `dirty` said what the file held when it last wrote it.
 * Not reusable: a file replaced or removed (a damaged store recreated, `.mem` deleted), or one
 * emptied for another projector version or SQLite library — the next open resets it.
 */
export function storeServes(handle: ItemStoreHandle, stateDir: string, version: number): boolean {
  if (!handle.db.open || handle.db.inTransaction || handle.stateDir !== stateDir) return false;
  if (fileIdentity(handle.files.live) !== handle.identity) return false;
  const meta = readMeta(handle.db);
  if (meta.version !== String(version) || meta.sqliteVersion !== sqliteVersion(handle.db))
    return false;
  handle.dirty = meta.sealed !== '1';
  handle.rewrote = false;
  handle.uncommitted = 0;
  return true;
}
