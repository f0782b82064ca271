import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fsync,
  mkdirSync,
  openSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE, fsyncDirectory, ioError } from '@mem/core';

const fsyncAsync = promisify(fsync);

/** Read + append: O_APPEND makes every write land at the current end, even after a truncate. */
const APPEND = constants.O_RDWR | constants.O_APPEND;

/** fsync a directory, so an entry created in it survives a power cut (core's, which skips Windows). */
export { fsyncDirectory };

/** mkdir -p with private modes, fsyncing the parent of every directory it creates. Disk full is NO_SPACE naming it. */
export function ensureDirectory(path: string): void {
  if (existsSync(path)) return;
  const parent = dirname(path);
  if (parent !== path) ensureDirectory(parent);
  try {
    mkdirSync(path, { mode: PRIVATE_DIRECTORY_MODE });
    chmodSync(path, PRIVATE_DIRECTORY_MODE);
    fsyncDirectory(parent);
  } catch (error) {
    // Another process may create it between the check and the mkdir: that is fine.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw ioError('create directory', path, error);
  }
}

/**
 * Opens a segment for reading and appending, creating it (mode 0600, and its directory) when
 * absent. A created file is made durable by fsyncing its directory.
 */
export function openSegment(path: string): number {
  try {
    return openSync(path, APPEND);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw ioError('open', path, error);
  }
  ensureDirectory(dirname(path));
  return createPrivate(path, APPEND);
}

/** Opens `path` with `flags | O_CREAT` as a private file and makes its directory entry durable. */
export function createPrivate(path: string, flags: number): number {
  let fd: number | undefined;
  try {
    fd = openSync(path, flags | constants.O_CREAT, PRIVATE_FILE_MODE);
    fchmodSync(fd, PRIVATE_FILE_MODE);
    fsyncDirectory(dirname(path));
    return fd;
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    throw ioError('create', path, error);
  }
}

/**
 * Writes every byte (looping on a short write, which a regular file rarely gives). Synchronous:
 * a write lands in the page cache in microseconds, less than a hop to the thread pool costs;
 * only the fsync waits on the disk, and that one stays off the event loop.
 */
export function writeFully(fd: number, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
}

/** Makes a file's bytes durable; the log's hook for it (EventLogOptions.fsync) defaults to fsyncFile. */
export type FsyncFile = (fd: number) => Promise<void>;

/** The real fsync (data and metadata), off the event loop. */
export function fsyncFile(fd: number): Promise<void> {
  return fsyncAsync(fd);
}
