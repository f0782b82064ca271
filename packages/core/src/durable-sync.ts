import { closeSync, constants, fsyncSync, openSync } from 'node:fs';

/*
 * Making what is already written durable, for the stores that write files themselves (the
 * log, the SQLite seal, the PGlite cluster's first init). One spelling, so the platform rule
 * below holds everywhere: errors are the caller's to type (each names its own step).
 */

/**
 * fsync a file's bytes. Opened read-only on POSIX (fsync needs no write access there); on
 * Windows read-write, as its flush refuses a handle without write access.
 */
export function fsyncPath(path: string): void {
  const fd = openSync(path, process.platform === 'win32' ? constants.O_RDWR : constants.O_RDONLY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * fsync a directory, so an entry created, renamed or removed in it survives a power cut.
 * Windows cannot open a directory for fsync; its renames are durable by other means.
 */
export function fsyncDirectory(path: string): void {
  if (process.platform === 'win32') return;
  fsyncPath(path);
}
