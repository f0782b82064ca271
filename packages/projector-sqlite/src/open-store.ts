import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { MemError, makePrivateDirectory } from '@mem/core';
import { isDiskFull } from './disk-full.js';
import { installEmptyStore } from './empty-store.js';
import { openLive, type ItemStoreHandle } from './handle.js';
import { loadMigrations, migrate } from './migrations.js';
import { openWritable } from './open-database.js';
import { fileIdentity } from './reuse-store.js';
import { removeDatabaseFiles, storeFiles } from './store-files.js';
import { readMeta, sqliteVersion, writeMeta } from './store-meta.js';

/**
 * Opens the item store under `stateDir` for projecting, creating it when absent and emptying
 * it (the engine then replays the log) when it was written by another projector version,
 * another schema or another SQLite library, or is not a database at all. It is derived state:
 * dropping it loses nothing the log does not hold. Nothing is sealed here: a file a crash left
 * mid-rebuild still says so, and the next seal writes its copy.
 */
export async function openStore(stateDir: string, version: number): Promise<ItemStoreHandle> {
  makePrivateDirectory(stateDir);
  const files = storeFiles(stateDir);
  removeDatabaseFiles(files.sealing);
  removeDatabaseFiles(files.ftsScratch);
  let sealed = existsSync(files.live) ? currentSealState(files.live, version) : 'absent';
  if (sealed === 'incompatible') {
    // A database other connections may hold (another version's server): emptied in place.
    await installEmptyStore(files, version);
    sealed = 'unsealed';
  } else if (sealed === 'damaged' || sealed === 'absent') {
    // Trigger: nothing, or no database, at the path. Why: no connection can read it, so no
    // -wal or -shm of it is shared. Outcome: whatever is there is replaced by a new file.
    removeDatabaseFiles(files.live);
    createEmpty(files.live, version);
    sealed = 'unsealed';
  }
  const live = openLive(files.live);
  return {
    files,
    stateDir,
    identity: fileIdentity(files.live),
    ...live,
    dirty: sealed === 'unsealed',
    uncommitted: 0,
    rewrote: false,
  };
}

type SealState = 'sealed' | 'unsealed' | 'incompatible' | 'damaged' | 'absent';

function currentSealState(path: string, version: number): SealState {
  let db: Database.Database | undefined;
  try {
    db = openWritable(path);
    if (!migrationsMatch(db)) return 'incompatible';
    const meta = readMeta(db);
    if (meta.version !== String(version) || meta.sqliteVersion !== sqliteVersion(db))
      return 'incompatible';
    return meta.sealed === '1' ? 'sealed' : 'unsealed';
  } catch (error) {
    // Trigger: the file is not a database, or is damaged. Why: it is droppable derived state.
    // Outcome: recreated empty, and the engine replays the log into it. Any other failure (busy,
    // I/O, a full disk, no permission) leaves the file alone and is reported.
    if (isDamaged(error)) return 'damaged';
    // A full disk is named as such by the projector's namingFullDisk (NO_SPACE).
    if (isDiskFull(error, dirname(path))) throw error;
    throw new MemError(
      'IO_FAILED',
      `cannot open ${path}: ${(error as Error).message}`,
      { path },
      { cause: error },
    );
  } finally {
    db?.close();
  }
}

function migrationsMatch(db: Database.Database): boolean {
  const hasLedger = db
    .prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'`)
    .get();
  if (!hasLedger) return false;
  const applied = db.prepare('SELECT name, sha256 FROM schema_migrations ORDER BY name').all() as {
    name: string;
    sha256: string;
  }[];
  const expected = loadMigrations();
  return (
    applied.length === expected.length &&
    applied.every((row, i) => row.name === expected[i]?.name && row.sha256 === expected[i]?.sha256)
  );
}

function createEmpty(path: string, version: number): void {
  const db = openWritable(path);
  try {
    migrate(db);
    db.transaction(() => writeMeta(db, version, { sealed: false, rebuilding: true }))();
  } finally {
    db.close();
  }
}

function isDamaged(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT';
}
