import type Database from 'better-sqlite3';

/*
 * projector_meta rows:
 *   version         projector version that wrote the file
 *   sqlite_version  SQLite library that wrote it (another library writes other bytes)
 *   sealed          '1' in a canonical copy; '0' from the first write after it
 *   rebuilding      '1' from the moment the file is created empty or a project's rows are
 *                   dropped until the next seal, which then writes the canonical copy; '0' in
 *                   that copy, so a later catch-up is written in place
 */

/** What projector_meta records about the file. */
export interface StoreMeta {
  version: string | undefined;
  sqliteVersion: string | undefined;
  sealed: string | undefined;
  rebuilding: string | undefined;
}

/**
 * The meta statements of each open connection, prepared on first use. Trigger: the engine keeps
 * the store open and asks it before every catch-up whether it still serves (reuse-store.ts).
 * Why: preparing these three statements each time was ~0.4 ms of an add_items(100) at 100 k
 * (profiled, stop 33); SQLite re-prepares a statement itself when the schema changed under it.
 */
const metaStatements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

function prepared(db: Database.Database, sql: string): Database.Statement {
  let statements = metaStatements.get(db);
  if (!statements) metaStatements.set(db, (statements = new Map<string, Database.Statement>()));
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = db.prepare(sql)));
  return statement;
}

/** The SQLite library that writes the bytes (one per process: asked once per connection). */
const sqliteVersions = new WeakMap<Database.Database, string>();
export function sqliteVersion(db: Database.Database): string {
  let version = sqliteVersions.get(db);
  if (version === undefined) {
    version = (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
    sqliteVersions.set(db, version);
  }
  return version;
}

export function readMeta(db: Database.Database): StoreMeta {
  const rows = prepared(db, 'SELECT key, value FROM projector_meta ORDER BY key').all() as {
    key: string;
    value: string;
  }[];
  const get = (key: string) => rows.find((r) => r.key === key)?.value;
  return {
    version: get('version'),
    sqliteVersion: get('sqlite_version'),
    sealed: get('sealed'),
    rebuilding: get('rebuilding'),
  };
}

/** Writes every meta row, in key order (inside the caller's transaction). */
export function writeMeta(
  db: Database.Database,
  version: number,
  state: { sealed: boolean; rebuilding: boolean },
): void {
  const put = db.prepare(
    'INSERT INTO projector_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  put.run('rebuilding', state.rebuilding ? '1' : '0');
  put.run('sealed', state.sealed ? '1' : '0');
  put.run('sqlite_version', sqliteVersion(db));
  put.run('version', String(version));
}

/** Marks the live file as changed since its last seal. */
export const MARK_UNSEALED_SQL = `UPDATE projector_meta SET value = '0' WHERE key = 'sealed' AND value <> '0'`;

/** Marks the file as being rebuilt: its next seal writes the canonical copy. */
export const MARK_REBUILDING_SQL = `UPDATE projector_meta SET value = '1' WHERE key = 'rebuilding'`;

/** Whether the next seal must write the canonical copy (see `rebuilding` above). */
export function isRebuilding(db: Database.Database): boolean {
  const row = prepared(db, `SELECT value FROM projector_meta WHERE key = 'rebuilding'`).get() as
    { value: string } | undefined;
  return row?.value === '1';
}
