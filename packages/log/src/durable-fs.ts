import { closeSync, constants, existsSync, fsync, fsyncSync, mkdirSync, openSync, write } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';

const fsyncAsync = promisify(fsync);
const writeAsync = promisify(write);

/** Read + append: O_APPEND makes every write land at the current end, even after a truncate. */
const APPEND = constants.O_RDWR | constants.O_APPEND;

/** fsync a directory, so an entry created in it survives a power cut. */
export function fsyncDirectory(path: string): void {
  const fd = openSync(path, constants.O_RDONLY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** mkdir -p, fsyncing the parent of every directory it creates. */
export function ensureDirectory(path: string): void {
  if (existsSync(path)) return;
  const parent = dirname(path);
  if (parent !== path) ensureDirectory(parent);
  try {
    mkdirSync(path);
  } catch (error) {
    // Another process may create it between the check and the mkdir: that is fine.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return;
  }
  fsyncDirectory(parent);
}

/**
 * Opens a segment for reading and appending, creating it (and its directory) when absent.
 * A created file is made durable by fsyncing its directory.
 */
export function openSegment(path: string): number {
  try {
    return openSync(path, APPEND);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  ensureDirectory(dirname(path));
  const fd = openSync(path, APPEND | constants.O_CREAT, 0o644);
  fsyncDirectory(dirname(path));
  return fd;
}

/** Writes every byte (looping on a short write, which a regular file rarely gives). */
export async function writeFully(fd: number, bytes: Uint8Array): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await writeAsync(fd, bytes, done, bytes.length - done);
    done += bytesWritten;
  }
}

/** The real fsync (data and metadata), off the event loop. */
export function fsyncFile(fd: number): Promise<void> {
  return fsyncAsync(fd);
}
