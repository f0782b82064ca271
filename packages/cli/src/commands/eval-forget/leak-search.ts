import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { LeakObservation } from '@mem/eval';

/** Every plain file under `dir`, relative to it, sorted. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * A byte search, not a query: SQLite files are read whole, so every table, FTS shadow table,
 * free page and WAL frame is searched, and so are PGlite's files (every vector row), the vault
 * and every cache. The text is looked for as written and as JSON escapes it.
 */
export function leakSearch(
  root: string,
  text: string,
  skip: (file: string) => boolean,
): LeakObservation {
  const needles = [...new Set([text, JSON.stringify(text).slice(1, -1)])].map((n) =>
    Buffer.from(n, 'utf8'),
  );
  const searched = filesUnder(root).filter((file) => !skip(file));
  return { searched_files: searched, holding: filesHolding(root, searched, needles) };
}

/** The files (relative to `root`) holding any of `needles`. */
export function filesHolding(root: string, files: readonly string[], needles: readonly Buffer[]) {
  return files.filter((file) => {
    const bytes = readFileSync(join(root, file));
    return needles.some((needle) => bytes.includes(needle));
  });
}
