import { chmodSync, closeSync, constants, fchmodSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE } from './file-modes.js';
import { ioError } from './io-error.js';

/** mkdir -p whose every created directory is 0700 (chmod after mkdir: the umask masks a mode given to mkdir). */
export function makePrivateDirectory(path: string): void {
  let first: string | undefined;
  try {
    first = mkdirSync(path, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
    if (first === undefined) return;
    for (let dir = path; ; dir = dirname(dir)) {
      chmodSync(dir, PRIVATE_DIRECTORY_MODE);
      if (dir === first || dirname(dir) === dir) break;
    }
  } catch (error) {
    throw ioError('create directory', path, error);
  }
}

/**
 * Creates `path` empty with mode 0600 unless it exists (true when it created it), for a file a
 * library then opens and fills: SQLite gives its journal the database file's mode.
 */
export function createPrivateFile(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
      PRIVATE_FILE_MODE,
    );
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EEXIST') return false;
    throw ioError('create', path, error);
  }
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
  } finally {
    closeSync(fd);
  }
  return true;
}
