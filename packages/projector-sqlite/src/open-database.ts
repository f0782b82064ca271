import Database from 'better-sqlite3';

/** SQLite's page size is part of the bytes: pin it rather than trust the build default. */
export const PAGE_SIZE = 4096;

/**
 * Opens an item store for writing. Rollback journal, never WAL: the sealed file must be
 * readable without a reader creating -wal/-shm beside it, and WAL is a persistent property
 * of the file header.
 */
export function openWritable(path: string): Database.Database {
  const db = new Database(path);
  db.pragma(`page_size = ${PAGE_SIZE}`);
  db.pragma('journal_mode = DELETE');
  db.pragma('foreign_keys = OFF');
  return db;
}
