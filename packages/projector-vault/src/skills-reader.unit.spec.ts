import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readVaultSkills } from './skills-reader.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function vault(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mem-skills-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('readVaultSkills', () => {
  it('lists loadable skills by name with their frontmatter, never drafts', async () => {
    const dir = vault({
      'skills/kong-body/SKILL.md':
        '---\nname: kong-body\ndescription: buffer sizes\npromoted_at: 2026-08-20\n---\nRaise the buffer.\n',
      'skills/_drafts/half-baked/SKILL.md': '---\nname: half-baked\n---\nnot yet\n',
      'skills/empty-dir/README.md': 'no skill here',
    });
    const { skills, refused } = await readVaultSkills(dir);
    expect(refused).toEqual([]);
    expect(skills).toEqual([
      {
        name: 'kong-body',
        frontmatter: { name: 'kong-body', description: 'buffer sizes', promoted_at: '2026-08-20' },
        body: 'Raise the buffer.\n',
      },
    ]);
  });

  it('is empty when the vault has no skills directory', async () => {
    expect(await readVaultSkills(vault({}))).toEqual({ skills: [], refused: [] });
  });
});
