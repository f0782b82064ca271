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
 * Stop 32 (board "Cited sources"): every component of every cited path is lstat'ed, so an
 * answer judging N items in one deep directory paid N × depth lstats. One answer's scope
 * remembers each component's lstat and readlink; a new answer looks again, so a symlink
 * swapped in between two answers is seen by the second.
 */
const base = realpathSync(mkdtempSync(join(tmpdir(), 'mem-source-scope-')));
const root = join(base, 'root');
const outside = join(base, 'outside');
const deep = ['a', 'b', 'c', 'd', 'e', 'f'];
mkdirSync(join(root, ...deep), { recursive: true });
mkdirSync(join(root, 'queries'));
mkdirSync(outside);
const TEXT = 'Deploys go blue.\n';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const N = 20;
for (let i = 0; i < N; i++) writeFileSync(join(root, ...deep, `f${i}.md`), TEXT);
writeFileSync(join(outside, 'f0.md'), TEXT);
afterAll(() => rmSync(base, { recursive: true, force: true }));

const paths = { root, queriesDir: join(root, 'queries') };
function counting(): { looks: ComponentLooks; lstats: Map<string, number> } {
  const lstats = new Map<string, number>();
  return {
    lstats,
    looks: {
      lstat: (p) => {
        lstats.set(p, (lstats.get(p) ?? 0) + 1);
        return lstat(p);
      },
      readlink: (p) => readlink(p),
    },
  };
}
const cite = (name: string) => ({
  project: 'p',
  source_uri: [...deep, name].join('/'),
  source_sha256: sha256(TEXT),
});

describe("one answer's scope", () => {
  it('lstats each directory component once for N items citing files in one deep directory', async () => {
    const { looks, lstats } = counting();
    const scope = citingScope(paths, looks);
    const verdicts = await Promise.all(
      Array.from({ length: N }, (_, i) => checkSource(cite(`f${i}.md`), scope)),
    );
    expect(verdicts).toEqual(Array.from({ length: N }, () => 'unchanged'));
    for (let depth = 1; depth <= deep.length; depth++)
      expect(lstats.get(join(root, ...deep.slice(0, depth))), deep[depth - 1]).toBe(1);
    // One per directory component, one per file: not N × depth.
    expect([...lstats.values()].reduce((a, b) => a + b, 0)).toBe(deep.length + N);
  });

  it('is never kept past the answer: a directory swapped for a symlink to outside is seen by the next', async () => {
    const first = citingScope(paths);
    expect(await checkSource(cite('f0.md'), first)).toBe('unchanged');
    const moved = join(root, 'a', 'b', 'c', 'd', 'e', 'f-was');
    renameSync(join(root, ...deep), moved);
    symlinkSync(outside, join(root, ...deep));
    try {
      expect(await checkSource(cite('f0.md'), citingScope(paths))).toBe('outside');
    } finally {
      rmSync(join(root, ...deep));
      renameSync(moved, join(root, ...deep));
    }
  });
});
