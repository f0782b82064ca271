import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  applyBatches,
  readTree,
  removeTempTargets,
  sampleEvents,
  tempTarget,
} from '../test/support.js';
import { projectorVault } from './index.js';

const exec = promisify(execFile);

async function git(vaultDir: string, ...args: string[]): Promise<string> {
  const { stdout } = await exec('git', [
    '-C',
    vaultDir,
    '-c',
    'user.name=mem test',
    '-c',
    'user.email=test@mem.invalid',
    '-c',
    'commit.gpgsign=false',
    ...args,
  ]);
  return stdout;
}

afterAll(removeTempTargets);

describe('a committed vault', () => {
  it('has no diff after a reset and rebuild, and keeps human notes and skills', async () => {
    const events = await sampleEvents();
    const target = await tempTarget({ emitEvidenceNotes: true });
    await mkdir(join(target.vaultDir, 'skills', '_drafts', 'fix-kong'), { recursive: true });
    await writeFile(
      join(target.vaultDir, 'skills', '_drafts', 'fix-kong', 'SKILL.md'),
      '---\nname: fix-kong\n---\nDraft.\n',
    );
    await mkdir(join(target.vaultDir, 'poimen'), { recursive: true });
    await writeFile(join(target.vaultDir, 'poimen', 'my-notes.md'), '# My notes\n');
    await git(target.vaultDir, 'init', '--quiet');
    await applyBatches(target, 'poimen', [events.slice(0, 10), events.slice(10)]);
    await git(target.vaultDir, 'add', '-A');
    await git(target.vaultDir, 'commit', '--quiet', '-m', 'vault');
    const committed = await readTree(target.vaultDir);

    await projectorVault.reset(target);
    expect([...(await readTree(target.vaultDir)).keys()]).toEqual([
      'poimen/my-notes.md',
      'skills/_drafts/fix-kong/SKILL.md',
    ]);
    await applyBatches(target, 'poimen', [events]);

    await git(target.vaultDir, 'diff', '--exit-code'); // rejects on any difference
    expect(await git(target.vaultDir, 'status', '--porcelain')).toBe('');
    expect(await readTree(target.vaultDir)).toEqual(committed);
  });
});
