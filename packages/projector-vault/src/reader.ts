import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MemError, assertProjectName, hasErrorCode } from '@mem/core';
import { parseNote } from './yaml-frontmatter.js';

/** A note as read back: vault-relative path, frontmatter (JSON-native: YAML dates become YYYY-MM-DD), markdown body. */
export interface VaultNote {
  path: string;
  frontmatter: Record<string, unknown>;
  body: string;
}

/** A vault file that was not read as a note, and why: a FRONTMATTER_REFUSED error naming it. */
export interface RefusedFile {
  path: string;
  code: string;
  message: string;
}

/** The notes of a project, and the files beside them whose frontmatter was refused. */
export interface VaultNotes {
  notes: VaultNote[];
  refused: RefusedFile[];
}

const LEVELS = new Set(['L0', 'L1', 'L2']);

async function markdownFiles(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isFile() && e.name.endsWith('.md') && !e.name.startsWith('.'))
      .map((e) => e.name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'UNKNOWN';
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new MemError(
      'IO_FAILED',
      `cannot list ${dir}: ${code}`,
      { path: dir, errno: code },
      { cause: error },
    );
  }
}

function memNote(path: string, text: string, project: string): VaultNote | null {
  const parsed = parseNote(path, text);
  const frontmatter = Object.fromEntries(Object.entries(parsed.data));
  if (frontmatter['project'] !== project || !LEVELS.has(frontmatter['level'] as string))
    return null;
  return { path, frontmatter, body: parsed.content };
}

const byPath = (a: { path: string }, b: { path: string }) =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : 0;

/**
 * The mem notes of `project` in `vaultDir` (index, L1 notes, evidence notes), sorted by path.
 * Files without mem frontmatter for this project (a human's notes) are skipped; one whose
 * frontmatter is not plain YAML is never run, and listed in `refused` so the other notes are
 * still served; a file that cannot be read is IO_FAILED, naming it.
 */
export async function readVaultNotes(vaultDir: string, project: string): Promise<VaultNotes> {
  assertProjectName(project);
  const notes: VaultNote[] = [];
  const refused: RefusedFile[] = [];
  for (const sub of ['', 'evidence/']) {
    const dir = join(vaultDir, project, sub);
    for (const name of await markdownFiles(dir)) {
      const path = `${project}/${sub}${name}`;
      let text: string;
      try {
        text = await readFile(join(dir, name), 'utf8');
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? 'UNKNOWN';
        throw new MemError(
          'IO_FAILED',
          `cannot read note ${path}: ${code}`,
          { path, errno: code },
          { cause: error },
        );
      }
      try {
        const note = memNote(path, text, project);
        if (note) notes.push(note);
      } catch (error) {
        if (!hasErrorCode(error, 'FRONTMATTER_REFUSED')) throw error;
        refused.push({ path, code: error.code, message: error.message });
      }
    }
  }
  return { notes: notes.sort(byPath), refused: refused.sort(byPath) };
}
