import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { lstat, readlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSource, citingScope, type ComponentLooks } from './source-check.js';

/*
 * Stop 33 (board "Cited sources"): each answer resolved every listed `cites:` directory beneath
 * the data root afresh (~0.06 ms an entry; 256 entries: 16–40 ms an answer). A resolution is
 * now kept across answers while the directories its walk read entries of keep their stamps.
 * A listed directory that becomes a symlink, is removed or is swapped must still be seen by the
 * next answer.
 *
 * `later` stands for an answer more than 2 s after the directories were last changed (the racy
 * rule keeps nothing stamped within 2 s of the answer's start); `tick()` puts each change in a
 * later clock tick than the stamps already kept, which that rule guarantees outside specs.
 */
const base = realpathSync(mkdtempSync(join(tmpdir(), 'mem-source-kept-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const TEXT = 'Deploys go blue.\n';
const sha256 = createHash('sha256').update(TEXT).digest('hex');
const later = () => Date.now() + 60_000;
const tick = () => new Promise((done) => setTimeout(done, 30));

function counting(): { looks: ComponentLooks; lstats: string[] } {
  const lstats: string[] = [];
  return {
    lstats,
    looks: {
      lstat: (p) => {
        lstats.push(p);
        return lstat(p);
      },
      readlink: (p) => readlink(p),
    },
  };
}

describe('listed directories resolved in an earlier answer', () => {
  const root = join(base, 'swaps');
  const paths = { root, queriesDir: join(root, 'queries') };
  for (const dir of ['queries', 'shelf', 'deep/mid/docs', 'vendor/d/docs'])
    mkdirSync(join(root, dir), { recursive: true });
  for (const dir of ['a', 'b', 'c1', 'c2', 'd/docs']) {
    mkdirSync(join(root, 'vendor', dir), { recursive: true });
    writeFileSync(join(root, 'vendor', dir, 'f.md'), TEXT);
  }
  symlinkSync('vendor/b', join(root, 'link'));
  symlinkSync('vendor/c1', join(root, 'swap'));
  // `own` lists four directories; `other` lists none, so it cites what no other project lists.
  writeFileSync(
    join(root, 'queries', 'own.yaml'),
    'cites:\n  - shelf\n  - link\n  - swap\n  - deep/mid/docs\n',
  );
  const other = async (uri: string) =>
    checkSource(
      { project: 'other', source_uri: uri, source_sha256: sha256 },
      citingScope(paths, undefined, later),
    );

  it('sees a listed directory that became a symlink', async () => {
    expect(await other('vendor/a/f.md')).toBe('unchanged');
    expect(await other('vendor/a/f.md')).toBe('unchanged');
    await tick();
    renameSync(join(root, 'shelf'), join(root, 'shelf-was'));
    symlinkSync('vendor/a', join(root, 'shelf'));
    expect(await other('vendor/a/f.md')).toBe('outside');
  });

  it('sees a listed symlink removed', async () => {
    expect(await other('vendor/b/f.md')).toBe('outside');
    expect(await other('vendor/b/f.md')).toBe('outside');
    await tick();
    rmSync(join(root, 'link'));
    expect(await other('vendor/b/f.md')).toBe('unchanged');
  });

  it('sees a listed symlink swapped for one to another directory', async () => {
    expect(await other('vendor/c1/f.md')).toBe('outside');
    expect(await other('vendor/c2/f.md')).toBe('unchanged');
    await tick();
    rmSync(join(root, 'swap'));
    symlinkSync('vendor/c2', join(root, 'swap'));
    expect(await other('vendor/c1/f.md')).toBe('unchanged');
    expect(await other('vendor/c2/f.md')).toBe('outside');
  });

  it('sees a directory above a listed one swapped for a symlink', async () => {
    expect(await other('vendor/d/docs/f.md')).toBe('unchanged');
    expect(await other('vendor/d/docs/f.md')).toBe('unchanged');
    await tick();
    renameSync(join(root, 'deep', 'mid'), join(root, 'deep', 'mid-was'));
    symlinkSync('../vendor/d', join(root, 'deep', 'mid'));
    expect(await other('vendor/d/docs/f.md')).toBe('outside');
  });
});

describe('256 listed directories', () => {
  const root = join(base, 'many');
  const paths = { root, queriesDir: join(root, 'queries') };
  mkdirSync(join(root, 'queries'), { recursive: true });
  const entries = Array.from({ length: 256 }, (_, i) => `many/e${i}`);
  for (const entry of entries) mkdirSync(join(root, entry), { recursive: true });
  writeFileSync(
    join(root, 'queries', 'own.yaml'),
    `cites:\n${entries.map((e) => `  - ${e}\n`).join('')}`,
  );
  const answer = async (clock?: () => number) => {
    const { looks, lstats } = counting();
    const roots = await citingScope(paths, looks, clock).rootsOf('other');
    expect(roots.own).toBeNull();
    expect(roots.others).toHaveLength(256);
    return lstats;
  };

  it('are not walked again by a later answer: one lstat per directory read, not per entry', async () => {
    const first = await answer(later);
    expect(first.filter((p) => p.startsWith(join(root, 'many') + '/'))).toHaveLength(256);
    const second = await answer(later);
    // The data root and many/: the directories whose entries the walks read.
    expect(second.sort()).toEqual([root, join(root, 'many')]);
  });

  it('are walked again while a directory they read changed within 2 s of the answer', async () => {
    const fresh = join(base, 'fresh');
    mkdirSync(join(fresh, 'queries'), { recursive: true });
    mkdirSync(join(fresh, 'docs'));
    writeFileSync(join(fresh, 'queries', 'own.yaml'), 'cites:\n  - docs\n');
    const { looks, lstats } = counting();
    for (let i = 0; i < 2; i++)
      await citingScope({ root: fresh, queriesDir: join(fresh, 'queries') }, looks).rootsOf('x');
    expect(lstats.filter((p) => p === join(fresh, 'docs'))).toHaveLength(2);
  });
});
