import type Database from 'better-sqlite3';

/*
 * projector_meta rows:
 *   version         projector version that wrote the file
 *   sqlite_version  SQLite library that wrote it (another library writes other bytes)
 *   sealed          '1' in a canonical copy; '0' from the first write after it
 *   fts_built       '1' while node_fts holds what a rebuild from node would write; '0' from
 *                   the first write that adds or removes a node
 */

/** What projector_meta records about the file. */
export interface StoreMeta {
  version: string | undefined;
  sqliteVersion: string | undefined;
  sealed: string | undefined;
  ftsBuilt: string | undefined;
}

/** The SQLite library that writes the bytes. */
export function sqliteVersion(db: Database.Database): string {
  return (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
}

export function readMeta(db: Database.Database): StoreMeta {
  const rows = db.prepare('SELECT key, value FROM projector_meta ORDER BY key').all() as {
    key: string;
    value: string;
  }[];
  const get = (key: string) => rows.find((r) => r.key === key)?.value;
  return {
    version: get('version'),
    sqliteVersion: get('sqlite_version'),
    sealed: get('sealed'),
    ftsBuilt: get('fts_built'),
  };
}

/** Writes every meta row, in key order (inside the caller's transaction). */
export function writeMeta(
  db: Database.Database,
  version: number,
  state: { sealed: boolean; ftsBuilt: boolean },
): void {
  const put = db.prepare(
    'INSERT INTO projector_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  put.run('fts_built', state.ftsBuilt ? '1' : '0');
  put.run('sealed', state.sealed ? '1' : '0');
  put.run('sqlite_version', sqliteVersion(db));
  put.run('version', String(version));
}

/** Marks the live file as changed since its last seal. */
export const MARK_UNSEALED_SQL = `UPDATE projector_meta SET value = '0' WHERE key = 'sealed' AND value <> '0'`;

/** Marks node_fts as behind node (a node was added or removed). */
export const MARK_FTS_STALE_SQL = `UPDATE projector_meta SET value = '0' WHERE key = 'fts_built' AND value <> '0'`;
