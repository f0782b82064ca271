import { closeSync, fstatSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { openSegment } from './durable-fs.js';
import { withProjectLock } from './project-lock.js';

/**
 * Runs `fn` holding the project's lock: the kernel lock on its first segment. Trigger: a purge
 * renames a rewritten first segment into place, so a lock taken on the file opened before that
 * is on an inode nobody else locks any more. Outcome: once locked, the open file must still be
 * the one at the path; if not, let go and lock the new one.
 */
export async function withSegmentLock<T>(
  lockPath: string,
  fn: (lockFd: number) => Promise<T>,
): Promise<T> {
  for (;;) {
    let stale = false;
    const result = await withProjectLock(
      resolve(lockPath),
      () => openSegment(lockPath),
      closeSync,
      async (lockFd) => {
        if (fstatSync(lockFd).ino !== statSync(lockPath).ino) {
          stale = true;
          return null;
        }
        return { value: await fn(lockFd) };
      },
    );
    if (!stale && result) return result.value;
  }
}
