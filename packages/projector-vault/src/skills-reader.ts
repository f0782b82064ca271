import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MemError } from '@mem/core';
import matter from 'gray-matter';

/** A loadable skill as read back: its directory name, frontmatter (JSON-native) and markdown body. */
export interface VaultSkill {
  name: string;
  frontmatter: Record<string, unknown>;
  body: string;
}

const SKILL_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

function jsonNative(value: unknown): unknown {
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  return value;
}

/**
 * The loadable skills of a vault: `skills/<name>/SKILL.md`, sorted by name. `skills/_drafts/`
 * (machine-written, never auto-loaded) and any other directory starting with `_` or `.` are
 * never listed. A SKILL.md whose frontmatter does not parse is skipped; one that cannot be
 * read is IO_FAILED, naming it. No `skills/` directory: no skills.
 */
export async function readVaultSkills(vaultDir: string): Promise<VaultSkill[]> {
  const dir = join(vaultDir, 'skills');
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory() && SKILL_NAME.test(e.name)).map((e) => e.name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'UNKNOWN';
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new MemError('IO_FAILED', `cannot list ${dir}: ${code}`, { path: dir, errno: code }, { cause: error });
  }
  const skills: VaultSkill[] = [];
  for (const name of names.sort()) {
    let text: string;
    try {
      text = await readFile(join(dir, name, 'SKILL.md'), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'UNKNOWN';
      if (code === 'ENOENT') continue; // a directory without SKILL.md is not a skill
      throw new MemError('IO_FAILED', `cannot read skills/${name}/SKILL.md: ${code}`, { path: `skills/${name}/SKILL.md`, errno: code }, { cause: error });
    }
    try {
      // Options are always passed: gray-matter caches (and shares) results of option-less calls forever.
      const parsed = matter(text, {});
      skills.push({ name, frontmatter: Object.fromEntries(Object.entries(parsed.data).map(([k, v]) => [k, jsonNative(v)])), body: parsed.content });
    } catch {
      continue; // frontmatter that is not YAML: not a skill anyone can load
    }
  }
  return skills;
}
