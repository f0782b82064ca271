import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MemError, hasErrorCode } from '@mem/core';
import type { RefusedFile } from './reader.js';
import { parseNote } from './yaml-frontmatter.js';

/** A loadable skill as read back: its directory name, frontmatter (JSON-native) and markdown body. */
export interface VaultSkill {
  name: string;
  frontmatter: Record<string, unknown>;
  body: string;
}

/** The loadable skills of a vault, and the SKILL.md files whose frontmatter was refused. */
export interface VaultSkills {
  skills: VaultSkill[];
  refused: RefusedFile[];
}

const SKILL_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * The loadable skills of a vault: `skills/<name>/SKILL.md`, sorted by name. `skills/_drafts/`
 * (machine-written, never auto-loaded) and any other directory starting with `_` or `.` are
 * never listed. A SKILL.md whose frontmatter is not plain YAML is never run and not a skill:
 * it is listed in `refused`. One that cannot be read is IO_FAILED, naming it. No `skills/`
 * directory: no skills.
 */
export async function readVaultSkills(vaultDir: string): Promise<VaultSkills> {
  const dir = join(vaultDir, 'skills');
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isDirectory() && SKILL_NAME.test(e.name))
      .map((e) => e.name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'UNKNOWN';
    if (code === 'ENOENT' || code === 'ENOTDIR') return { skills: [], refused: [] };
    throw new MemError(
      'IO_FAILED',
      `cannot list ${dir}: ${code}`,
      { path: dir, errno: code },
      { cause: error },
    );
  }
  const skills: VaultSkill[] = [];
  const refused: RefusedFile[] = [];
  for (const name of names.sort()) {
    let text: string;
    try {
      text = await readFile(join(dir, name, 'SKILL.md'), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'UNKNOWN';
      if (code === 'ENOENT') continue; // a directory without SKILL.md is not a skill
      throw new MemError(
        'IO_FAILED',
        `cannot read skills/${name}/SKILL.md: ${code}`,
        { path: `skills/${name}/SKILL.md`, errno: code },
        { cause: error },
      );
    }
    const path = `skills/${name}/SKILL.md`;
    try {
      const parsed = parseNote(path, text);
      skills.push({
        name,
        frontmatter: Object.fromEntries(Object.entries(parsed.data)),
        body: parsed.content,
      });
    } catch (error) {
      if (!hasErrorCode(error, 'FRONTMATTER_REFUSED')) throw error;
      refused.push({ path, code: error.code, message: error.message });
    }
  }
  return { skills, refused };
}
