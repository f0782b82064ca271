import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { MemError } from '@mem/core';

/** Every `*.jsonl` file under `dir`, recursively, as absolute-or-given-prefix paths in code-point order. */
export async function findJsonlFiles(dir: string): Promise<string[]> {
  await assertDirectory(dir);
  const found: string[] = [];
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop() as string;
    let entries;
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch (cause) {
      throw new MemError(
        'IO_FAILED',
        `cannot list transcript directory ${current}`,
        { dir: current },
        { cause },
      );
    }
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if ((entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith('.jsonl'))
        found.push(path);
    }
  }
  return sortPaths(found);
}

/**
 * Paths in a stable order: UTF-16 code-unit order of the whole path, so a session file
 * `<id>.jsonl` precedes its `<id>/subagents/…` ('.' sorts before '/'). Duplicates removed.
 */
export function sortPaths(paths: readonly string[]): string[] {
  return [...new Set(paths)].sort();
}

/** `path` relative to `root`, with `/` separators. */
export function relativePath(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}

/** Throws NOT_FOUND / INVALID_INPUT unless `dir` is a directory. */
export async function assertDirectory(dir: string): Promise<void> {
  const kind = await pathKind(dir);
  if (kind === 'missing')
    throw new MemError('NOT_FOUND', `transcript directory not found: ${dir}`, { dir });
  if (kind !== 'directory')
    throw new MemError('INVALID_INPUT', `expected a directory of transcripts: ${dir}`, { dir });
}

/** What is at `path`: a file, a directory, nothing, or something else. */
export async function pathKind(path: string): Promise<'file' | 'directory' | 'missing' | 'other'> {
  try {
    const info = await stat(path);
    return info.isDirectory() ? 'directory' : info.isFile() ? 'file' : 'other';
  } catch (cause) {
    if ((cause as { code?: unknown }).code === 'ENOENT') return 'missing';
    throw new MemError('IO_FAILED', `cannot stat ${path}`, { path }, { cause });
  }
}
