import Database from 'better-sqlite3';
import { MemError, createPrivateFile } from '@mem/core';
import { migrate } from './migrations.js';
import { removeDatabaseFiles } from './store-files.js';

/** SQLite's page size is part of the bytes: pin it rather than trust the build default. */
export const PAGE_SIZE = 4096;

/**
 * Opens an item store for writing. Rollback journal, never WAL: the sealed file must be
 * readable without a reader creating -wal/-shm beside it, and WAL is a persistent property
 * of the file header.
 */
export function openWritable(path: string): Database.Database {
  // Created 0600 before SQLite opens it: SQLite gives its journal the database file's mode.
  createPrivateFile(path);
  const db = new Database(path);
  db.pragma(`page_size = ${PAGE_SIZE}`);
  db.pragma('journal_mode = DELETE');
  db.pragma('foreign_keys = OFF');
  // A catch-up rewrites rows in place (seal.ts), and SQLite keeps a deleted or shrunk row's
  // bytes in the freed cell or page until reused: a forgotten text would stay in the file.
  // secure_delete zeroes freed content as it is freed (per connection, not stored in the file).
  db.pragma('secure_delete = ON');
  return db;
}

/**
 * A fresh, migrated scratch database at `path` (any old one removed) for files that are built
 * whole and then either published by rename or thrown away: no durable journal, no fsync per
 * commit (the caller fsyncs the finished file once).
 */
export function openScratch(path: string, purpose: string): Database.Database {
  removeDatabaseFiles(path);
  createPrivateFile(path);
  const db = new Database(path);
  try {
    db.pragma(`page_size = ${PAGE_SIZE}`);
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    if (!migrate(db))
      throw new MemError('PROJECTION_FAILED', `cannot migrate the ${purpose} at ${path}`, { path });
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
