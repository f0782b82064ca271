import { existsSync, readFileSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
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
 * Which of `pids` hold the kernel lock of the PGlite directory `dir` now: the processes with an
 * open of its lock file that carries the lock (its /proc fdinfo lists it). Only an open is not a
 * hold: holdFileLock opens the file, tries the lock and closes it again when another process has
 * it (a `mem serve` does so once a second while `mem mcp` holds the PGlite), so "has it open"
 * would see two holders in that moment. Linux's /proc: elsewhere it throws, naming why.
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
        if (readlinkSync(`${fds}/${fd}`) !== lock) return false;
        // An OFD lock (holdFileLock on Linux) is listed on the open that holds it, never on another.
        return /^lock:.*\bWRITE\b/m.test(readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8'));
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
