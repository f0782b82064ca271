import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadGroundingCache, saveGroundingCache, type SourceEntry } from './grounding-cache.js';

// Every readFile of the module under test goes through this spy: the test counts reads of the cache.
vi.mock('node:fs/promises', async (original) => {
  const real = await original<typeof import('node:fs/promises')>();
  return { ...real, readFile: vi.fn(real.readFile) };
});

/*
 * The grounding cache is read on every query of a project with standing queries (query
 * freshness): it is parsed once per change of the file, not once per query (issue 15 target 3).
 */
let dir: string;
let path: string;
const entry = (grounding: SourceEntry['grounding']): SourceEntry => ({
  files: [{ path: '/s/a.jsonl', size: 10, mtime_ms: 1, ino: 2 }],
  grounding,
});
const readsOfCache = () =>
  vi.mocked(fsp.readFile).mock.calls.filter(([file]) => file === path).length;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mem-grounding-cache-'));
  path = join(dir, 'cache', 'p.json');
  vi.mocked(fsp.readFile).mockClear();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('loadGroundingCache', () => {
  it('reads the file once while its stamp holds, and again when it changes', async () => {
    await saveGroundingCache(path, new Map([['claude:a', entry({ k1: 'unchanged' })]]));
    const first = await loadGroundingCache(path);
    const second = await loadGroundingCache(path);
    expect(readsOfCache()).toBe(1);
    expect(second).toEqual(first);
    expect(first.get('claude:a')?.grounding).toEqual({ k1: 'unchanged' });

    // A save (a new file renamed over it) is read by the next load.
    await saveGroundingCache(path, new Map([['claude:a', entry({ k1: 'changed' })]]));
    expect((await loadGroundingCache(path)).get('claude:a')?.grounding).toEqual({ k1: 'changed' });
    expect(readsOfCache()).toBe(2);

    // So is a write in place of the same size (another process, a hand edit): its stamp moved.
    const text = JSON.stringify({
      version: 1,
      sources: { 'claude:a': entry({ k1: 'unchanged' }) },
    });
    writeFileSync(path, `${text.replace('unchanged', 'changed  ')}\n`);
    expect((await loadGroundingCache(path)).get('claude:a')).toBeUndefined(); // not the cache's shape: empty
    expect(readsOfCache()).toBe(3);
  });

  it("gives each caller its own map: one caller's changes are not another's cache", async () => {
    await saveGroundingCache(path, new Map([['claude:a', entry({ k1: 'unchanged' })]]));
    const mine = await loadGroundingCache(path);
    mine.set('claude:b', entry({}));
    mine.delete('claude:a');
    const theirs = await loadGroundingCache(path);
    expect([...theirs.keys()]).toEqual(['claude:a']);
  });

  it('a cache that is gone is empty, and a new one is read', async () => {
    await saveGroundingCache(path, new Map([['claude:a', entry({ k1: 'unchanged' })]]));
    expect((await loadGroundingCache(path)).size).toBe(1);
    rmSync(path);
    expect((await loadGroundingCache(path)).size).toBe(0);
    await saveGroundingCache(path, new Map([['claude:c', entry({})]]));
    expect([...(await loadGroundingCache(path)).keys()]).toEqual(['claude:c']);
  });
});

describe('saveGroundingCache', () => {
  it('two saves at once each rename a whole file of their own, and the cache is one of them', async () => {
    const saves = [1, 2, 3, 4].map((n) =>
      saveGroundingCache(path, new Map([['claude:a', entry({ [`k${n}`]: 'unchanged' })]])),
    );
    await expect(Promise.all(saves)).resolves.toBeDefined();
    const kept = Object.keys((await loadGroundingCache(path)).get('claude:a')?.grounding ?? {});
    expect(kept).toHaveLength(1);
    expect(['k1', 'k2', 'k3', 'k4']).toContain(kept[0]);
  });
});
