import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LineCounter, isNode, parseDocument } from 'yaml';
import { MemError, citedDirectoriesField } from '@mem/core';

/**
 * The `cites:` list of a standing-queries file (`queries/<project>.yaml`), each directory as its
 * path components under the data root (the queries directory's parent); null when the file
 * lists none. Only `cites` is read: the registry's source check needs it on every read that
 * judges a citation, and the rest of the file (sources that may not be on this disk) is
 * loadStandingQueries' business. A file that cannot be read, is empty or holds no mapping
 * (caught mid-save), is not YAML, has a bad entry, or names no directory under the data root (a
 * typo such as `doc`, or a file) is CONFIG_INVALID naming the file, its line where it has one,
 * and `cites[i]`: never read as "lists nothing", which would open the project's directories to
 * every other project, and a missing directory would hide every item the project cites. Its own
 * entry point (`@mem/ingest/cites`): it loads yaml and core alone, not the ingest pipeline.
 */
export function readCitedDirectories(file: string): string[][] | null {
  const lines = new LineCounter();
  const invalid = (where: string, message: string, at?: number[]): never => {
    const line = at === undefined ? undefined : lines.linePos(at[0]!).line;
    throw new MemError('CONFIG_INVALID', `${file}${line ? `:${line}` : ''}: ${where}: ${message}`, {
      file,
      path: where,
      field: 'cites',
      ...(line ? { line } : {}),
    });
  };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return invalid(
      '(file)',
      `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0)
    invalid(
      '(file)',
      `not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`,
      doc.errors[0]!.pos,
    );
  const raw: unknown = doc.toJS();
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return invalid('(file)', 'expected a mapping (sources:, queries:, cites:), got none');
  if (!('cites' in raw)) return null;
  const rangeOf = (path: (string | number)[]): number[] | undefined => {
    const node = doc.getIn(path, true);
    return isNode(node) && node.range ? node.range : undefined;
  };
  const parsed = citedDirectoriesField.safeParse(raw.cites);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = ['cites', ...issue.path.map((p) => `[${String(p)}]`)].join('');
    const at = rangeOf([
      'cites',
      ...issue.path.map((p) => (typeof p === 'number' ? p : String(p))),
    ]);
    return invalid(where, issue.message.replace(/^Invalid input: /, ''), at ?? rangeOf(['cites']));
  }
  const root = dirname(dirname(file));
  parsed.data.forEach((dir, i) => {
    const absent = citedDirectoryAbsent(root, dir);
    if (absent !== null) invalid(`cites[${i}]`, absent, rangeOf(['cites', i]));
  });
  return parsed.data.map((dir) => dir.split('/'));
}

/**
 * Why a `cites:` entry names no directory under the data root `root` (missing, or a file), or
 * null when it names one.
 */
export function citedDirectoryAbsent(root: string, dir: string): string | null {
  const path = join(root, dir);
  let directory: boolean;
  try {
    directory = statSync(path).isDirectory();
  } catch {
    return `missing directory ${path} (a cites: entry is a directory relative to the data root ${root})`;
  }
  return directory
    ? null
    : `${path} is not a directory (a cites: entry is a directory relative to the data root ${root}; list the directory that holds the file)`;
}
