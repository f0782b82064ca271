import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MemError, assertProjectName } from '@mem/core';
import matter from 'gray-matter';

/** A note as read back: vault-relative path, frontmatter (JSON-native: YAML dates become YYYY-MM-DD), markdown body. */
export interface VaultNote {
  path: string;
  frontmatter: Record<string, unknown>;
  body: string;
}

const LEVELS = new Set(['L0', 'L1', 'L2']);

function jsonNative(value: unknown): unknown {
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  return value;
}

async function markdownFiles(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isFile() && e.name.endsWith('.md') && !e.name.startsWith('.')).map((e) => e.name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'UNKNOWN';
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new MemError('IO_FAILED', `cannot list ${dir}: ${code}`, { path: dir, errno: code }, { cause: error });
  }
}

function parseNote(path: string, text: string, project: string): VaultNote | null {
  let parsed;
  try {
    // Options are always passed: gray-matter caches (and shares) results of option-less calls forever.
    parsed = matter(text, {});
  } catch {
    return null; // not YAML frontmatter: not a note this projector wrote
  }
  const frontmatter = Object.fromEntries(Object.entries(parsed.data).map(([k, v]) => [k, jsonNative(v)]));
  if (frontmatter['project'] !== project || !LEVELS.has(frontmatter['level'] as string)) return null;
  return { path, frontmatter, body: parsed.content };
}

/**
 * The mem notes of `project` in `vaultDir` (index, L1 notes, evidence notes), sorted by path.
 * Files without mem frontmatter for this project (a human's notes) are skipped; a file that
 * cannot be read is IO_FAILED, naming it.
 */
export async function readVaultNotes(vaultDir: string, project: string): Promise<VaultNote[]> {
  assertProjectName(project);
  const notes: VaultNote[] = [];
  for (const sub of ['', 'evidence/']) {
    const dir = join(vaultDir, project, sub);
    for (const name of await markdownFiles(dir)) {
      const path = `${project}/${sub}${name}`;
      let text: string;
      try {
        text = await readFile(join(dir, name), 'utf8');
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? 'UNKNOWN';
        throw new MemError('IO_FAILED', `cannot read note ${path}: ${code}`, { path, errno: code }, { cause: error });
      }
      const note = parseNote(path, text, project);
      if (note) notes.push(note);
    }
  }
  return notes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
