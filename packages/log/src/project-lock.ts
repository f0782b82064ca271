import { closeSync, constants, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { MemError, ioError } from '@mem/core';
import { createPrivate, ensureDirectory } from './durable-fs.js';
import { tryLock, unlock, waitForLock } from 'fs-native-extensions';
import { withKeyedMutex } from './mutex.js';

/**
 * Runs `fn` holding the exclusive cross-process lock on `fd` (an OFD lock on Linux, flock on
 * macOS). Why a kernel lock and not a lockfile: it dies with its holder, so a SIGKILLed writer
 * never stalls the next one. The in-process queue in front means one process parks at most one
 * thread-pool thread in waitForLock per project.
 */
export async function withProjectLock<T>(
  key: string,
  openLock: () => number,
  closeLock: (fd: number) => void,
  fn: (lockFd: number) => Promise<T>,
): Promise<T> {
  return withKeyedMutex(key, async () => {
    const fd = openLock();
    try {
      await acquire(fd, key);
      try {
        return await fn(fd);
      } finally {
        unlock(fd);
      }
    } finally {
      closeLock(fd);
    }
  });
}

async function acquire(fd: number, key: string): Promise<void> {
  try {
    if (!tryLock(fd)) await waitForLock(fd);
  } catch (error) {
    throw new MemError(
      'LOCK_FAILED',
      `could not lock ${key}: ${(error as Error).message}`,
      { path: key },
      { cause: error },
    );
  }
}

/**
 * Runs `fn` holding the exclusive cross-process lock on the file at `path` (created if
 * missing, parent directories included). For other single-writer sections of a data root,
 * such as the projection catch-up.
 */
export async function withFileLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  return withProjectLock(
    path,
    () => openLockFile(path),
    (fd) => closeSync(fd),
    () => fn(),
  );
}

/**
 * Takes the exclusive cross-process lock on the file at `path` without waiting, for a lock held
 * as long as a resource stays open (not around one call): the release function, or null when
 * another open file description holds it — another process, or another open of this one. The
 * file is never removed: a process waiting on the old inode and one creating a new file would
 * both hold "the" lock.
 */
export function holdFileLock(path: string): (() => void) | null {
  const fd = openLockFile(path);
  let held: boolean;
  try {
    held = tryLock(fd);
  } catch (error) {
    closeSync(fd);
    throw new MemError(
      'LOCK_FAILED',
      `could not lock ${path}: ${(error as Error).message}`,
      { path },
      { cause: error },
    );
  }
  if (!held) {
    closeSync(fd);
    return null;
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    try {
      unlock(fd);
    } finally {
      closeSync(fd);
    }
  };
}

/** Opens a lock file, creating it (0600, and its directories 0700) when absent. */
function openLockFile(path: string): number {
  try {
    return openSync(path, constants.O_RDWR);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw ioError('open', path, error);
  }
  ensureDirectory(dirname(path));
  return createPrivate(path, constants.O_RDWR);
}
