import { existsSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { hasErrorCode } from '@mem/core';
import { lockPgliteDir, pgliteLockPath } from '@mem/engine';

/**
 * Whether some open file description (another process, or an open of this one) holds the kernel
 * lock of the PGlite directory `dir`: probes it by taking and releasing it. The lock file stays
 * after a release, so whether it exists says nothing.
 */
export function pgliteHeld(dir: string): boolean {
  try {
    lockPgliteDir(dir)();
    return false;
  } catch (error) {
    if (hasErrorCode(error, 'CONFLICT')) return true;
    throw error;
  }
}

/**
 * Which of `pids` hold the PGlite directory `dir` open now: the processes with its lock file
 * among their open files (a holder keeps it open for as long as it holds the lock; a process
 * that only tried closed it at once). Linux's /proc: elsewhere it throws, naming why.
 */
export function pgliteHolders(dir: string, pids: readonly number[]): number[] {
  const lock = lockPathOf(dir);
  return pids.filter((pid) => {
    const fds = `/proc/${pid}/fd`;
    let entries: string[];
    try {
      entries = readdirSync(fds);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && existsSync('/proc/self/fd'))
        return false; // the process is gone
      throw error;
    }
    return entries.some((fd) => {
      try {
        return readlinkSync(`${fds}/${fd}`) === lock;
      } catch {
        return false; // closed meanwhile
      }
    });
  });
}

/** The lock file of `dir` as /proc names it: its real path. */
function lockPathOf(dir: string): string {
  const path = pgliteLockPath(dir);
  return join(realpathSync(dirname(path)), basename(path));
}
