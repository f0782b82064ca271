import { ioError, isNoSpaceErrno } from '@mem/core';
import { storeFiles } from './store-files.js';

/** SQLite's own word for a full disk (SQLITE_FULL), or the errno of a file call beside it. */
export function isDiskFull(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_FULL' || isNoSpaceErrno(error);
}

/**
 * Runs one step of the projector, turning a full disk into NO_SPACE naming the item store.
 * Why here: better-sqlite3's SqliteError names no file, and the engine would make it an untyped
 * PROJECTION_FAILED. Every other error passes through as it was.
 */
export async function namingFullDisk<T>(stateDir: string, step: string, run: () => T): Promise<T> {
  try {
    return run();
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    throw ioError(`${step} the item store`, storeFiles(stateDir).live, error, {
      noSpace: true,
      details: { projector: 'sqlite' },
    });
  }
}
