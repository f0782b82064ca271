import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MemError, isMemError } from '@mem/core';

/**
 * Where one project's items may cite local files. `own`: the directories its standing-queries
 * file lists under `cites:` (each as its path components under the data root), or null when it
 * lists none; `others`: every directory another project lists (`[]`, the whole root, for a
 * project whose file cannot be read: failedList).
 */
export interface CitedRoots {
  own: readonly (readonly string[])[] | null;
  others: readonly (readonly string[])[];
}

/** A project's `cites:` list as read: its directories, null (lists none), or why it could not be read. */
export type CitedList = string[][] | null | { failed: MemError };

interface Known {
  stamp: string;
  dirs: Promise<string[][] | null>;
}

/**
 * Each standing-queries file's `cites:` list, by the stamp (size, mtime, ctime, inode) it was
 * read at. The parse in flight is kept, so answers that start together parse a file once; a
 * failure is dropped as soon as it settles, so the next answer reads the file again.
 */
const KNOWN = new Map<string, Known>();

/**
 * Every project's `cites:` list under `queriesDir` (`<project>.yaml`), a project named by its
 * file's name. Trigger: any read or write that checks a cited local path. Why: a project's
 * citations are confined by its own list and kept out of every other project's, so all files
 * are read. Outcome: a map project → its list (CitedList); a file is parsed again only when its
 * stamp moved; no queries directory is no lists. A file that cannot be read, is not a regular
 * file (a dangling symlink, a directory), holds no mapping (empty, mid-save), is not YAML or has
 * a bad `cites` entry is `{ failed }` with the CONFIG_INVALID naming it: what it lists is
 * unknown, so citedRootsOf keeps the whole root from every other project (DECISION there).
 */
export async function citedDirectoriesByProject(
  queriesDir: string,
): Promise<Map<string, CitedList>> {
  let names: string[];
  try {
    names = readdirSync(queriesDir).filter((n) => n.endsWith('.yaml'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return new Map();
    // Lists that cannot be read shield nothing if read as none: refused for every project.
    throw new MemError(
      'CONFIG_INVALID',
      `${queriesDir}: cannot be listed (${code ?? String(error)})`,
      {
        file: queriesDir,
        field: 'cites',
      },
    );
  }
  const byProject = new Map<string, CitedList>();
  for (const name of names.sort()) {
    const file = join(queriesDir, name);
    const list = await listOf(file).catch((error: unknown) => ({
      failed: configError(file, error),
    }));
    byProject.set(name.slice(0, -'.yaml'.length), list);
  }
  return byProject;
}

function listOf(file: string): Promise<string[][] | null> {
  let stamp: string;
  try {
    const info = statSync(file);
    if (!info.isFile()) return Promise.reject(configError(file, 'not a regular file'));
    stamp = `${info.size}:${info.mtimeMs}:${info.ctimeMs}:${info.ino}`;
  } catch (error) {
    // Gone since listed, or a symlink to nothing: what it lists is unknown.
    return Promise.reject(configError(file, error));
  }
  const known = KNOWN.get(file);
  if (known?.stamp === stamp) return known.dirs;
  // Its own entry point: yaml and core, not the ingest pipeline (a cold orient loads none of it).
  const dirs = import('@mem/ingest/cites').then(({ readCitedDirectories }) =>
    readCitedDirectories(file),
  );
  const entry = { stamp, dirs };
  KNOWN.set(file, entry);
  dirs.catch(() => {
    if (KNOWN.get(file) === entry) KNOWN.delete(file);
  });
  return dirs;
}

function configError(file: string, error: unknown): MemError {
  if (isMemError(error)) return error;
  const why =
    typeof error === 'string'
      ? error
      : `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  return new MemError('CONFIG_INVALID', `${file}: (file): ${why}`, {
    file,
    path: '(file)',
    field: 'cites',
  });
}

/**
 * One project's CitedRoots out of every project's lists. Throws the CONFIG_INVALID of the
 * project's own file when it could not be read: its owner is the one to fix it.
 *
 * DECISION (stop 32): another project's file that cannot be read counts as listing the whole
 * data root (`[]`): every path is someone else's. So a project listing nothing reads and writes
 * every local citation as `outside` until the bad file is fixed, and a project with its own
 * valid list still cites its own directories. Fail closed over fail open: read as "lists
 * nothing" (as before), an empty file caught mid-save, a dangling symlink or a typo would open
 * that project's directories to every other project for as long as it lasted; refused for
 * every project (CONFIG_INVALID, as before), one project's typo would stop every project's
 * reads and name its file to them.
 */
export function citedRootsOf(lists: ReadonlyMap<string, CitedList>, project: string): CitedRoots {
  const own = lists.get(project) ?? null;
  if (own !== null && !Array.isArray(own)) throw own.failed;
  const others: string[][] = [];
  for (const [name, dirs] of lists) {
    if (name === project || dirs === null) continue;
    if (Array.isArray(dirs)) others.push(...dirs);
    else others.push([]);
  }
  return { own, others };
}
