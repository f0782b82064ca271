import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { vaultSkillsCache } from './skills-cache.js';
import { readVaultSkills } from './skills-reader.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function vault(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mem-skills-cache-'));
  dirs.push(dir);
  return dir;
}

function writeSkill(dir: string, name: string, description: string): void {
  mkdirSync(join(dir, 'skills', name), { recursive: true });
  writeFileSync(
    join(dir, 'skills', name, 'SKILL.md'),
    `---\nname: ${name}\ndescription: ${description}\n---\nbody\n`,
  );
}

/** A cache over the real reader that counts how often it reads the vault. */
function countedCache() {
  let reads = 0;
  const cache = vaultSkillsCache((dir) => {
    reads++;
    return readVaultSkills(dir);
  });
  return { cache, reads: () => reads };
}

const names = async (cache: ReturnType<typeof vaultSkillsCache>, dir: string) =>
  (await cache.read(dir)).skills.map((s) => `${s.name}:${String(s.frontmatter['description'])}`);

describe('vaultSkillsCache', () => {
  it('reads the skills once for many requests while nothing changed', async () => {
    const dir = vault();
    writeSkill(dir, 'kubectl', 'pods');
    const { cache, reads } = countedCache();
    for (let i = 0; i < 20; i++) expect(await names(cache, dir)).toEqual(['kubectl:pods']);
    expect(reads()).toBe(1);
  });

  it('is never stale: a new skill, a rewritten SKILL.md and a removed one are seen on the next read', async () => {
    const dir = vault();
    const { cache, reads } = countedCache();
    expect(await names(cache, dir)).toEqual([]); // no skills/ directory yet
    writeSkill(dir, 'kubectl', 'pods');
    expect(await names(cache, dir)).toEqual(['kubectl:pods']);
    writeSkill(dir, 'kubectl', 'jobs'); // same size, same directory entries
    expect(await names(cache, dir)).toEqual(['kubectl:jobs']);
    writeSkill(dir, 'npm', 'ci');
    expect(await names(cache, dir)).toEqual(['kubectl:jobs', 'npm:ci']);
    unlinkSync(join(dir, 'skills', 'npm', 'SKILL.md')); // the directory stays
    expect(await names(cache, dir)).toEqual(['kubectl:jobs']);
    expect(await names(cache, dir)).toEqual(['kubectl:jobs']);
    expect(reads()).toBe(5);
  });

  it('keeps one entry per vault', async () => {
    const [a, b] = [vault(), vault()];
    writeSkill(a, 'one', 'a');
    writeSkill(b, 'two', 'b');
    const { cache, reads } = countedCache();
    expect(await names(cache, a)).toEqual(['one:a']);
    expect(await names(cache, b)).toEqual(['two:b']);
    expect(await names(cache, a)).toEqual(['one:a']);
    expect(reads()).toBe(2);
  });
});
