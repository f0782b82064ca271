import { statfsSync } from 'node:fs';
import { ioError, isNoSpaceErrno } from '@mem/core';
import { storeFiles } from './store-files.js';

/**
 * SQLite's own word for a full disk (SQLITE_FULL), or the errno of a file call beside it; with
 * `dir`, also an I/O error of SQLite's while `dir`'s file system has no block left. Why: in WAL
 * mode an open creates the -wal and sizes the -shm, and a failure there is SQLITE_IOERR_* (a
 * "disk I/O error"), not SQLITE_FULL.
 */
export function isDiskFull(error: unknown, dir?: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_FULL' || isNoSpaceErrno(error)) return true;
  if (dir === undefined || typeof code !== 'string' || !code.startsWith('SQLITE_IOERR'))
    return false;
  try {
    return statfsSync(dir).bavail === 0;
  } catch {
    return false;
  }
}

/**
 * Runs one step of the projector, turning a full disk into NO_SPACE naming the item store.
 * Why here: better-sqlite3's SqliteError names no file, and the engine would make it an untyped
 * PROJECTION_FAILED. Every other error passes through as it was.
 */
export async function namingFullDisk<T>(
  stateDir: string,
  step: string,
  run: () => T | Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isDiskFull(error, stateDir)) throw error;
    throw ioError(`${step} the item store`, storeFiles(stateDir).live, error, {
      noSpace: true,
      details: { projector: 'sqlite' },
    });
  }
}
