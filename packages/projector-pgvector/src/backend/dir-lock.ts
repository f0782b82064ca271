import { closeSync, fchmodSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { MemError, PRIVATE_FILE_MODE } from '@mem/core';

/**
 * PGlite serves one process: two processes opening one data directory corrupt it, and PGlite
 * does not stop them. This lock file (`<dir>.lock`, holding the owner's pid) does: it is taken
 * when a process opens the directory and removed when it closes it. A lock whose process is gone
 * (a crash) is taken over.
 */
export function lockDataDir(dir: string): () => void {
  const file = `${dir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', PRIVATE_FILE_MODE);
      fchmodSync(fd, PRIVATE_FILE_MODE);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new MemError('IO_FAILED', `cannot lock ${dir}: ${(error as Error).message}`, { dir }, { cause: error });
      }
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
        throw new MemError(
          'CONFLICT',
          `the embedded pgvector projection ${dir} is open in process ${owner}: PGlite serves one process at a time (set DATABASE_URL to share the projection between processes)`,
          { dir, pid: owner },
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new MemError('CONFLICT', `cannot lock ${dir}: another process keeps taking ${file}`, { dir });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
