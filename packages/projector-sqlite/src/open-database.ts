import Database from 'better-sqlite3';
import { MemError, createPrivateFile } from '@mem/core';
import { migrate } from './migrations.js';
import { removeDatabaseFiles } from './store-files.js';

/** SQLite's page size is part of the bytes: pin it rather than trust the build default. */
export const PAGE_SIZE = 4096;

/**
 * The -wal size, in pages, past which a commit checkpoints (SQLite's default is 1,000). Trigger:
 * an add_items of 100 writes ~1,080 pages at 100 k items, so the default checkpointed after every
 * such commit, copying every page it wrote into the file again (~10 ms CPU of a ~60 ms call).
 * At 8,000 a checkpoint runs every seventh such commit and copies each page the commits between
 * share (an index's or a tree's hot pages) once. Cost: a -wal file of up to ~9,100 pages (~37 MB,
 * 2,100-3,000 before; it keeps its largest size), and a close, an install or a text rewrite
 * checkpoints up to 8,000 pages instead of 1,000.
 */
export const AUTOCHECKPOINT_PAGES = 8000;

/**
 * Opens an item store for writing: WAL, synchronous NORMAL. Why NORMAL is safe here: the
 * store is a projection of the fsynced log, and each commit writes the rows of a batch and
 * the batch's position (projection_state: last seq and head) together, so a commit a power
 * loss drops takes its position with it and the next catch-up replays from the seq the store
 * still records; SQLite's WAL never tears the file. What it saves: a rollback journal with full
 * sync paid two fsyncs and an unlink per commit (99 % of add_items); a WAL commit appends to
 * the -wal and syncs nothing, a checkpoint syncs. Where losing a commit is not acceptable (an
 * install, the end of a text rewrite) a TRUNCATE checkpoint follows, which syncs.
 * Never rename a file over it: other connections share its -wal and -shm by name
 * (install-store.ts).
 */
export function openWritable(path: string): Database.Database {
  // Created 0600 before SQLite opens it: SQLite gives its journal the database file's mode.
  createPrivateFile(path);
  const db = new Database(path);
  try {
    db.pragma(`page_size = ${PAGE_SIZE}`);
    // Creates the -wal and sizes the -shm: on a full disk this is where the open fails, and
    // the connection is closed so nothing holds the file (disk-full.ts names the failure).
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    db.pragma('foreign_keys = OFF');
    // A catch-up rewrites rows in place (seal.ts), and SQLite keeps a deleted or shrunk row's
    // bytes in the freed cell or page until reused: a forgotten text would stay in the file.
    // secure_delete zeroes freed content as it is freed (per connection, not stored in the
    // file); the -wal file still holds the page as it was until a checkpoint truncates it.
    db.pragma('secure_delete = ON');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Copies every page of the -wal file into the database and truncates the -wal file to zero
 * bytes: afterwards no earlier version of a page survives in either file. Throws when a
 * reader kept it from completing (it waits for one, as long as the busy timeout).
 */
export function checkpointTruncate(db: Database.Database, path: string): void {
  const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
  if (result && result.busy !== 0)
    throw new MemError(
      'PROJECTION_FAILED',
      `cannot checkpoint ${path}: a reader held its -wal file, which may still hold rewritten text`,
      { path },
    );
}

/**
 * The page cache, in KiB, of each database a canonical seal opens beside the live store (the
 * FTS scratch, the copy, the stores they attach, the copy read by the install): SQLite's own
 * default, not better-sqlite3's 16,000. Trigger: those files are written and read once, in key
 * order, so a cache saves them next to nothing. Why: four such caches filled up to 64 MB of
 * malloc'd pages during the seal, and glibc kept them resident after the connections closed
 * (freed, but under later allocations), through the rest of the process: ~35 MB at a 100 MB
 * ingest's seal, ~77 MB at 1 GB, all of it under the embedded Postgres opened next (issue 15
 * target 5).
 */
export const SCRATCH_CACHE_KIB = 2000;

/** Attaches `path` as `schema` to a scratch connection, with the scratch page cache. */
export function attachScratch(db: Database.Database, path: string, schema: string): void {
  db.prepare(`ATTACH DATABASE ? AS ${schema}`).run(path);
  db.pragma(`${schema}.cache_size = -${SCRATCH_CACHE_KIB}`);
}

/**
 * A fresh, migrated scratch database at `path` (any old one removed) for files that are built
 * whole and then installed into the live store (install-store.ts) or thrown away: no durable
 * journal, no fsync (the install's checkpoint syncs the live file), a small page cache.
 */
export function openScratch(path: string, purpose: string): Database.Database {
  removeDatabaseFiles(path);
  createPrivateFile(path);
  const db = new Database(path);
  try {
    db.pragma(`page_size = ${PAGE_SIZE}`);
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    db.pragma(`cache_size = -${SCRATCH_CACHE_KIB}`);
    if (!migrate(db))
      throw new MemError('PROJECTION_FAILED', `cannot migrate the ${purpose} at ${path}`, { path });
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
