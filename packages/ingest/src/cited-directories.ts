import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { MemError, citedDirectoriesField } from '@mem/core';

/**
 * The `cites:` list of a standing-queries file (`queries/<project>.yaml`), each directory as its
 * path components under the data root; null when the file lists none. Only `cites` is read: the
 * registry's source check needs it on every read that judges a citation, and the rest of the
 * file (sources that may not be on this disk) is loadStandingQueries' business. A file that
 * cannot be read, is empty or holds no mapping (caught mid-save), is not YAML, or has a bad
 * entry is CONFIG_INVALID naming the file (and `cites[i]`): never read as "lists nothing", which
 * would open the project's directories to every other project. Its own entry point
 * (`@mem/ingest/cites`): it loads yaml and core alone, not the ingest pipeline.
 */
export function readCitedDirectories(file: string): string[][] | null {
  const invalid = (where: string, message: string): never => {
    throw new MemError('CONFIG_INVALID', `${file}: ${where}: ${message}`, {
      file,
      path: where,
      field: 'cites',
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
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length > 0)
    invalid('(file)', `not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
  const raw: unknown = doc.toJS();
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return invalid('(file)', 'expected a mapping (sources:, queries:, cites:), got none');
  if (!('cites' in raw)) return null;
  const parsed = citedDirectoriesField.safeParse(raw.cites);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = ['cites', ...issue.path.map((p) => `[${String(p)}]`)].join('');
    return invalid(where, issue.message.replace(/^Invalid input: /, ''));
  }
  return parsed.data.map((dir) => dir.split('/'));
}
