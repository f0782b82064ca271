import { mkdir, open, readFile, rename, rm, rmdir, unlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import {
  MemError,
  PRIVATE_FILE_MODE,
  ioError,
  isMemError,
  isNoSpaceErrno,
  makePrivateDirectory,
} from '@mem/core';
import type { ExistingFile } from './plan.js';

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? 'UNKNOWN';
}

function ioFailed(action: string, path: string, error: unknown): MemError {
  if (isMemError(error)) return error;
  if (isNoSpaceErrno(error)) return ioError(action, path, error);
  return new MemError(
    'IO_FAILED',
    `vault projector: cannot ${action} ${path}: ${codeOf(error)}`,
    { path, action, errno: codeOf(error) },
    { cause: error },
  );
}

/**
 * Writes `content` to `path` so that a reader sees the old bytes or the new, never a mix:
 * a temp file beside it, fsync, rename over. The caller fsyncs the directory (once per batch).
 * `private`: the file is 0600 and created directories 0700 (state under `.mem/`); notes are
 * the user's to share and keep 0644.
 */
export async function writeFileAtomic(
  path: string,
  content: string,
  options: { private?: boolean } = {},
): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.tmp`);
  try {
    if (options.private) makePrivateDirectory(dir);
    else await mkdir(dir, { recursive: true });
    const handle = await open(temp, 'w', options.private ? PRIVATE_FILE_MODE : 0o644);
    try {
      if (options.private) await handle.chmod(PRIVATE_FILE_MODE);
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw ioFailed('write', path, error);
  }
}

/** fsync a directory so renames and unlinks in it are durable. A directory that is gone has nothing to sync. */
export async function fsyncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    // Windows cannot open or fsync a directory; there the rename itself is the best on offer.
    if (codeOf(error) === 'ENOENT' || process.platform === 'win32') return;
    throw ioFailed('fsync directory', dir, error);
  } finally {
    await handle?.close();
  }
}

/** The text of a file, undefined when it does not exist, or why it could not be read. */
export async function readExisting(path: string): Promise<ExistingFile | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') return undefined;
    return { unreadable: codeOf(error) };
  }
}

/** Deletes a file; one already gone is fine. */
export async function removeFile(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (codeOf(error) !== 'ENOENT') throw ioFailed('delete', path, error);
  }
}

/** Removes `dir` and its parents while they are empty, stopping at (and never removing) `stopAt`; returns the parents of what it removed. */
export async function pruneEmptyDirs(dir: string, stopAt: string): Promise<string[]> {
  const changed: string[] = [];
  const inside = (path: string): boolean => {
    const rel = relative(stopAt, path);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  };
  let current = dir;
  while (inside(current)) {
    try {
      await rmdir(current);
    } catch {
      break; // not empty (or already gone): leave it
    }
    current = dirname(current);
    changed.push(current);
  }
  return changed;
}
