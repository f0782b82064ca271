import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readVaultSkills, type VaultSkills } from './skills-reader.js';

/** The loadable skills of a vault, read again only when its `skills/` tree changed. */
export interface VaultSkillsCache {
  read(vaultDir: string): Promise<VaultSkills>;
}

/**
 * Remembers each vault's skills under a stamp of its `skills/` tree: the directory itself and
 * every `<name>/SKILL.md` (inode, size, change and modification time in nanoseconds). Why: a
 * context request matched skills by reading and parsing every SKILL.md each time; a stamp is
 * one listing and a stat per skill. The stamp is taken before the read, so a write racing the
 * read only makes the next request read again: the list is never older than the tree.
 */
export function vaultSkillsCache(
  read: (vaultDir: string) => Promise<VaultSkills> = readVaultSkills,
): VaultSkillsCache {
  const held = new Map<string, { stamp: string; skills: Promise<VaultSkills> }>();
  return {
    read: async (vaultDir) => {
      const stamp = await skillsStamp(join(vaultDir, 'skills'));
      // A tree that cannot be stamped is read each time (the reader reports what is wrong).
      if (stamp === null) return read(vaultDir);
      const entry = held.get(vaultDir);
      if (entry?.stamp === stamp) return entry.skills;
      const skills = read(vaultDir);
      held.set(vaultDir, { stamp, skills });
      // A failed read is not remembered: the next request tries again and reports its own error.
      skills.catch(() => {
        if (held.get(vaultDir)?.skills === skills) held.delete(vaultDir);
      });
      return skills;
    },
  };
}

/** The stamp of a `skills/` tree; null when some part of it cannot be listed or stat'ed. */
async function skillsStamp(dir: string): Promise<string | null> {
  const dirStamp = await statStamp(dir);
  if (dirStamp === 'absent' || dirStamp === null) return dirStamp;
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch {
    return null;
  }
  const files = await Promise.all(names.map((name) => statStamp(join(dir, name, 'SKILL.md'))));
  if (files.includes(null)) return null;
  return [dirStamp, ...files.map((file, i) => `${names[i]}=${file}`)].join('\n');
}

async function statStamp(path: string): Promise<string | null> {
  try {
    const s = await stat(path, { bigint: true });
    return `${s.ino}:${s.size}:${s.ctimeNs}:${s.mtimeNs}`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'absent' : null;
  }
}
