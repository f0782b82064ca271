import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { MemError } from '@mem/core';

/** The largest note capture reads: a projected note is kilobytes; more is not a note of ours. */
export const NOTE_MAX_BYTES = 1 << 20;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function refused(path: string, reason: string, message: string): MemError {
  return new MemError('INVALID_INPUT', `${path}: ${message}; nothing was captured`, {
    path,
    reason,
  });
}

function errno(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'UNKNOWN';
}

/**
 * Reads a vault file as untrusted input: a symlink, a file resolving outside the vault, one over
 * NOTE_MAX_BYTES or not valid UTF-8 is INVALID_INPUT naming it (`details.reason`); a missing
 * file is null. Why so strict: capture turns these bytes into log events nothing later undoes.
 */
export async function readVaultFile(vaultDir: string, path: string): Promise<string | null> {
  const absolute = join(vaultDir, path);
  let info;
  try {
    info = await lstat(absolute);
  } catch (error) {
    if (errno(error) === 'ENOENT') return null;
    throw new MemError(
      'IO_FAILED',
      `cannot read ${path}: ${errno(error)}`,
      { path },
      { cause: error },
    );
  }
  if (info.isSymbolicLink())
    throw refused(path, 'symlink', 'is a symbolic link; capture reads only files inside the vault');
  if (!info.isFile()) throw refused(path, 'not_a_file', 'is not a regular file');
  const outside = relative(await realpath(vaultDir), await realpath(absolute));
  if (outside.startsWith(`..${sep}`) || outside === '..')
    throw refused(path, 'outside_vault', 'resolves outside the vault');
  if (info.size > NOTE_MAX_BYTES)
    throw refused(
      path,
      'too_large',
      `is ${info.size} bytes, over the ${NOTE_MAX_BYTES}-byte limit of a note`,
    );
  const bytes = await readFile(absolute);
  try {
    return utf8.decode(bytes);
  } catch {
    throw refused(path, 'invalid_utf8', 'is not valid UTF-8');
  }
}

/**
 * The top-level markdown files of `project`'s vault folder, vault-relative and sorted; the
 * folder itself must be a real directory inside the vault (a symlinked folder is refused).
 */
export async function listProjectNotes(vaultDir: string, project: string): Promise<string[]> {
  const dir = join(vaultDir, project);
  try {
    if ((await lstat(dir)).isSymbolicLink())
      throw refused(project, 'symlink', 'the project folder is a symbolic link');
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.name.endsWith('.md') && !e.name.startsWith('.') && !e.isDirectory())
      .map((e) => `${project}/${e.name}`)
      .sort();
  } catch (error) {
    if (error instanceof MemError) throw error;
    if (errno(error) === 'ENOENT') return [];
    throw new MemError(
      'IO_FAILED',
      `cannot list ${dir}: ${errno(error)}`,
      { path: dir },
      { cause: error },
    );
  }
}
