import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine, type Projector } from '@mem/engine';
import { itemStorePath, openItemStore, projectorSqlite } from '@mem/projector-sqlite';
import { projectLogs } from './support/arbitraries.js';

/*
 * The engine keeps the item store open from one catch-up to the next (an open, and the close's
 * checkpoint and fsync, cost more than a small batch: issue 15 target 1). A kept handle must
 * still see what other engines (processes) wrote, rebuilt or removed in between.
 */
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function counted(): { projector: Projector; opened: () => number } {
  let opened = 0;
  const projector: Projector = {
    ...projectorSqlite,
    init: async (target) => ((opened += 1), projectorSqlite.init(target)),
  };
  return { projector, opened: () => opened };
}

/** Four batches of one project's log. */
function batches(seed: number) {
  const [logs] = fc.sample(
    projectLogs(1).filter((l) => (l['proj-1']?.length ?? 0) >= 8),
    { numRuns: 1, seed },
  );
  const payloads = logs!['proj-1']!;
  const quarter = Math.ceil(payloads.length / 4);
  return [0, 1, 2, 3].map((n) => payloads.slice(n * quarter, (n + 1) * quarter));
}

/** This process's open descriptors of the store's files. */
function openStoreFiles(root: string): string[] {
  const store = itemStorePath(join(root, '.mem'));
  return readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => target.startsWith(store));
}

function projectedSeq(root: string): number {
  const items = openItemStore(itemStorePath(join(root, '.mem')));
  try {
    return items.positions().find((p) => p.project === 'proj-1')?.seq ?? 0;
  } finally {
    items.close();
  }
}

function newRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'mem-kept-'));
  roots.push(root);
  return root;
}

describe('the engine keeps the item store open between catch-ups', () => {
  it('opens it once for many catch-ups and closes it on close()', async () => {
    const root = newRoot();
    const { projector, opened } = counted();
    const engine = new Engine({ root, projectors: [projector] });
    for (const batch of batches(11)) await engine.append('proj-1', batch, { kind: 'test' });
    expect(opened()).toBe(1);
    expect(openStoreFiles(root).length).toBeGreaterThan(0);
    await engine.close();
    expect(openStoreFiles(root)).toEqual([]);
    expect((await engine.verify()).ok).toBe(true);
  });

  it("applies another engine's writes and rebuild through the kept handle, equal to a rebuild", async () => {
    const root = newRoot();
    const { projector, opened } = counted();
    const engine = new Engine({ root, projectors: [projector] });
    const other = new Engine({ root, projectors: [projectorSqlite] });
    const [a, b, c, d] = batches(12);
    await engine.append('proj-1', a!, { kind: 'test' });
    await other.append('proj-1', b!, { kind: 'other' });
    await engine.append('proj-1', c!, { kind: 'test' });
    await other.rebuild();
    await engine.append('proj-1', d!, { kind: 'test' });
    expect(opened()).toBe(1);
    expect(projectedSeq(root)).toBe((await engine.head('proj-1')).seq);
    await other.close();
    expect((await engine.verify()).ok).toBe(true);
    await engine.close();
  });

  it('opens the store afresh when its file was removed under the kept handle', async () => {
    const root = newRoot();
    const { projector, opened } = counted();
    const engine = new Engine({ root, projectors: [projector] });
    const [a, b] = batches(13);
    await engine.append('proj-1', a!, { kind: 'test' });
    const store = itemStorePath(join(root, '.mem'));
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${store}${suffix}`, { force: true });
    await engine.append('proj-1', b!, { kind: 'test' });
    expect(opened()).toBe(2);
    expect(projectedSeq(root)).toBe((await engine.head('proj-1')).seq);
    expect((await engine.verify()).ok).toBe(true);
    await engine.close();
  });

  it('keeps no handle from a catch-up that close() ran beside', async () => {
    const root = newRoot();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let sealing!: () => void;
    const sealed = new Promise<void>((resolve) => (sealing = resolve));
    const projector: Projector = {
      ...projectorSqlite,
      seal: async (handle) => {
        sealing();
        await held;
        return projectorSqlite.seal(handle as never);
      },
    };
    const engine = new Engine({ root, projectors: [projector] });
    const [a] = batches(14);
    const appended = engine.append('proj-1', a!, { kind: 'test' });
    await sealed;
    await engine.close();
    release();
    await appended;
    expect(openStoreFiles(root)).toEqual([]);
  });
});
