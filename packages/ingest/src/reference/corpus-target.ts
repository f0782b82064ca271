import { statSync } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { MemError } from '@mem/core';

/** What a directory corpus reads when no glob is given: documentation text. */
export const DEFAULT_CORPUS_GLOBS = ['**/*.markdown', '**/*.md', '**/*.mdx', '**/*.txt'];

const GLOB_CHARS = /[*?[\]{}!]/;

/**
 * `mem ref add PATH|GLOB`: a directory is its own root (documentation globs), a file is read
 * alone (its directory the root), and a glob's root is the path before its first glob segment.
 */
export function corpusTarget(target: string, cwd: string): { root: string; globs: string[] } {
  const segments = target.split('/');
  const firstGlob = segments.findIndex((s) => GLOB_CHARS.test(s));
  if (firstGlob >= 0) {
    const head = segments.slice(0, firstGlob).join('/');
    const root = head === '' ? (isAbsolute(target) ? '/' : cwd) : resolve(cwd, head);
    return { root, globs: [segments.slice(firstGlob).join('/')] };
  }
  const path = resolve(cwd, target);
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch (cause) {
    // A path that is not there is NOT_FOUND (exit 1), as every missing file the CLI is given.
    throw new MemError(
      'NOT_FOUND',
      `${target}: no such file or directory`,
      { field: 'path', path: target },
      { cause },
    );
  }
  return isFile
    ? { root: dirname(path), globs: [basename(path).replace(/[*?[\]{}!]/g, '\\$&')] }
    : { root: path, globs: DEFAULT_CORPUS_GLOBS };
}
