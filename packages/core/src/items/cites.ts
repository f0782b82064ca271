import { z } from 'zod';

/**
 * mem's own state under the data root, never cited (the registry's source check refuses it
 * too): a citation into it would tell one project of another's.
 */
const OWN_STATE = new Set(['log', 'queries', 'vault']);

/**
 * One entry of a standing-queries file's `cites:` list: a directory, relative to the data root,
 * whose files the project's items may cite (`docs`, `runbooks/payments`). Trigger: an absolute
 * path, a drive letter, a backslash, an empty, `.` or `..` component, a component starting
 * with '.', or a first component naming mem's own log/, queries/ or vault/ (in any case). Why:
 * the list confines what a token holder may probe through a citation's freshness verdict; an
 * entry that leaves the root or names its state would re-open what it is there to close.
 * Outcome: a zod issue, which the loaders turn into CONFIG_INVALID naming `cites[i]`. A
 * trailing '/' and `.` parts are dropped (`./docs/` is `docs`), as other paths in the file
 * are read.
 */
export const citedDirectoryField = z
  .string()
  .trim()
  .min(1, 'expected a directory relative to the data root')
  .transform((dir) =>
    dir.includes('\\')
      ? dir
      : dir
          .replace(/\/+$/u, '')
          .split('/')
          .filter((part, _i, parts) => part !== '.' || parts.length === 1)
          .join('/'),
  )
  .superRefine((dir, issues) => {
    const problem = citedDirectoryProblem(dir);
    if (problem !== null) issues.addIssue({ code: 'custom', message: problem });
  });

function citedDirectoryProblem(dir: string): string | null {
  const expected = 'expected a directory relative to the data root';
  if (dir.startsWith('/') || /^[A-Za-z]:/u.test(dir)) return `${expected}, got an absolute path`;
  if (dir.includes('\\')) return `${expected} with '/' between its parts, got a backslash`;
  const parts = dir.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..'))
    return `${expected}, got an empty, '.' or '..' part`;
  if (parts.some((p) => p.startsWith('.')))
    return `${expected}, got a part starting with '.' (.git, .env and .mem are never cited)`;
  if (OWN_STATE.has(parts[0]!.toLowerCase()))
    return `${expected}, got mem's own ${parts[0]}/ (log/, queries/ and vault/ are never cited)`;
  return null;
}

/**
 * The most directories one `cites:` list names. Why: every answer that judges a citation resolves
 * each listed directory of every project (symlinks followed beneath the root), so a list of
 * thousands would make each orient and find pay for them. Outcome: CONFIG_INVALID naming `cites`.
 */
export const MAX_CITED_DIRECTORIES = 256;

/** The `cites:` list of a standing-queries file: at least one directory when given, at most 256. */
export const citedDirectoriesField = z
  .array(citedDirectoryField)
  .min(1, 'expected at least one directory (leave `cites` out for the default)')
  .max(
    MAX_CITED_DIRECTORIES,
    `expected at most ${MAX_CITED_DIRECTORIES} directories (list a parent directory instead)`,
  );
