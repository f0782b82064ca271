import { statSync } from 'node:fs';
import type { ItemStoreHandle } from './handle.js';
import { migrationsMatch } from './migrations.js';
import { readMeta, sqliteVersion } from './store-meta.js';
import { removeDatabaseFiles } from './store-files.js';

/**
 * Open item-store connections kept between the engine's locked operations, one per state dir.
 * Trigger: every catch-up (two per add_items: the write lock's check that the store is current,
 * then the append's) opened the file, prepared ~50 statements, created the TEMP triggers and
 * started on a cold page cache, and closed it all again: at 10 k items that was ~16 ms of a
 * 100-item add, and a no-op catch-up cost as much as the open. Why keeping it is safe: the store
 * is never renamed or deleted under a connection (a rebuild installs in place through SQLite's
 * backup API), SQLite re-reads what another connection or process committed at the start of
 * each transaction, and a parked connection holds no lock. Outcome: `take` hands back the parked
 * connection after checking what openStore would have checked (the same file, the same
 * migrations, projector and SQLite versions); anything else closes it and the caller opens anew.
 */
interface Parked {
  handle: ItemStoreHandle;
  /**
   * The file the connection opened (device and inode). Trigger: a store deleted and recreated
   * (`.mem` dropped, a purge) under a parked connection. Outcome: another inode at the path
   * retires it. Its number cannot come back by chance: SQLite's own open descriptor keeps the
   * old inode alive while parked. Why no descriptor of our own pins it: closing any descriptor
   * of a file drops every POSIX lock the process holds on it, SQLite's included (the shared
   * lock each WAL connection keeps), so another process could take this file for unused.
   */
  ino: number;
  dev: number;
  /**
   * The file's schema cookie when parked. Trigger: another process installed a store into the
   * file (a reset's empty store, a rebuild's canonical copy: install-store.ts advances the
   * cookie) while this connection was parked. Why: such an install may have been killed after
   * its backup committed and before its checkpoint, leaving the new store in the -wal; a fresh
   * open's last close checkpointed it into the file, a parked connection never closes, so the
   * next seal (a no-op on a store that says sealed) left the file's own pages the old store's
   * (install-crash.int.spec.ts, 2 of 3 runs). Outcome: a moved cookie retires the connection
   * and the caller opens the store afresh, exactly as without parking.
   */
  schema: number;
}

const parked = new Map<string, Parked>();

/** At most this many state dirs keep a connection (verify builds scratch stores and drops them). */
const MAX_PARKED = 4;

let exitHooked = false;

/** Parks `handle` (its work committed by the caller) for the next `take` of its state dir. */
export function park(handle: ItemStoreHandle): void {
  evict(handle.stateDir);
  let entry: Parked;
  try {
    const { ino, dev } = statSync(handle.files.live);
    const schema = handle.db.pragma('schema_version', { simple: true }) as number;
    entry = { handle, ino, dev, schema };
  } catch {
    handle.db.close();
    return;
  }
  parked.set(handle.stateDir, entry);
  while (parked.size > MAX_PARKED) evict(parked.keys().next().value!);
  if (!exitHooked) {
    exitHooked = true;
    // A clean exit closes every connection, so the last one checkpoints and removes the -wal
    // as an unpooled close did.
    process.on('exit', closeParked);
  }
}

/**
 * The parked connection of `stateDir` as a fresh handle (nothing uncommitted, `dirty` from the
 * file's meta), or null when there is none or it no longer fits the file at the path.
 */
export function take(stateDir: string, version: number): ItemStoreHandle | null {
  const entry = parked.get(stateDir);
  if (!entry) return null;
  parked.delete(stateDir);
  const { handle } = entry;
  try {
    const now = statSync(handle.files.live, { throwIfNoEntry: false });
    if (!now || now.ino !== entry.ino || now.dev !== entry.dev || !handle.db.open) {
      retire(entry);
      return null;
    }
    const { db } = handle;
    if (db.pragma('schema_version', { simple: true }) !== entry.schema || !migrationsMatch(db)) {
      retire(entry);
      return null;
    }
    const meta = readMeta(db);
    if (meta.version !== String(version) || meta.sqliteVersion !== sqliteVersion(db)) {
      retire(entry);
      return null;
    }
    // As openStore does: a copy a seal that crashed (here or in another process) left beside it.
    removeDatabaseFiles(handle.files.sealing);
    removeDatabaseFiles(handle.files.ftsScratch);
    handle.dirty = meta.sealed !== '1';
    handle.uncommitted = 0;
    handle.rewrote = false;
    return handle;
  } catch {
    // Whatever failed here (a damaged file, I/O) openStore meets again and reports.
    retire(entry);
    return null;
  }
}

/**
 * Closes the parked connection of `stateDir`, if any: before a reset that must hold the file
 * alone, and when its owner is done with the data root (a registry's close), so no file of it
 * stays open.
 */
export function evict(stateDir: string): void {
  const entry = parked.get(stateDir);
  if (!entry) return;
  parked.delete(stateDir);
  retire(entry);
}

function retire({ handle }: Parked): void {
  // SQLite neither checkpoints into nor deletes the -wal of a file that moved (databaseIsUnmoved).
  if (handle.db.open) handle.db.close();
}

function closeParked(): void {
  for (const stateDir of [...parked.keys()]) {
    try {
      evict(stateDir);
    } catch {
      // At exit nothing is left to tell; the next open recovers the -wal.
    }
  }
}
