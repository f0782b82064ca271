import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where one project's items may cite local files. `own`: the directories its standing-queries
 * file lists under `cites:` (each as its path components under the data root), or null when it
 * lists none; `others`: every directory another project lists.
 */
export interface CitedRoots {
  own: readonly (readonly string[])[] | null;
  others: readonly (readonly string[])[];
}

interface Known {
  stamp: string;
  dirs: string[][] | null;
}

/** Each standing-queries file's `cites:` list, with the stamp (size, mtime, inode) it was read at. */
const KNOWN = new Map<string, Known>();

/**
 * Every project's `cites:` list under `queriesDir` (`<project>.yaml`), a project named by its
 * file's name. Trigger: any read or write that checks a cited local path. Why: a project's
 * citations are confined by its own list and kept out of every other project's, so all files
 * are read. Outcome: a map project → directories (null: none listed); a file is parsed again
 * only when its stamp moved; no queries directory is no lists. A file that is not YAML, or
 * whose `cites` entry is bad, is CONFIG_INVALID naming the file and `cites[i]`: refused, never
 * guessed (a wrong guess would open one project's directory to another).
 */
export async function citedDirectoriesByProject(
  queriesDir: string,
): Promise<Map<string, string[][] | null>> {
  let names: string[];
  try {
    names = readdirSync(queriesDir).filter((n) => n.endsWith('.yaml'));
  } catch {
    return new Map();
  }
  const byProject = new Map<string, string[][] | null>();
  for (const name of names.sort()) {
    const file = join(queriesDir, name);
    let stamp: string;
    try {
      const info = statSync(file);
      if (!info.isFile()) continue;
      stamp = `${info.size}:${info.mtimeMs}:${info.ino}`;
    } catch {
      continue;
    }
    let known = KNOWN.get(file);
    if (known?.stamp !== stamp) {
      // Its own entry point: yaml and core, not the ingest pipeline (a cold orient loads none of it).
      const { readCitedDirectories } = await import('@mem/ingest/cites');
      known = { stamp, dirs: readCitedDirectories(file) };
      KNOWN.set(file, known);
    }
    byProject.set(name.slice(0, -'.yaml'.length), known.dirs);
  }
  return byProject;
}

/** One project's CitedRoots out of every project's lists. */
export function citedRootsOf(
  lists: ReadonlyMap<string, string[][] | null>,
  project: string,
): CitedRoots {
  const others: string[][] = [];
  for (const [name, dirs] of lists) if (name !== project && dirs !== null) others.push(...dirs);
  return { own: lists.get(project) ?? null, others };
}
