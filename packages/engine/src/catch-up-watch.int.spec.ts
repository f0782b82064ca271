import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemError } from '@mem/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from './engine.js';
import type { ProjectionPosition, Projector } from './projector.js';

/*
 * Engine.watchCatchUps: a watcher learns, under the projection lock and before the log is read,
 * which projections a catch-up brings to the head, and is told of its success — never of a
 * failed one. The read stores accept the log's signatures on it (registry stores.ts), so a
 * watcher told of too much would let a read miss a write.
 */
const P = 'demo';
const writer = { kind: 'cli' } as const;
const tombstone = (reason: string) => ({ type: 'tombstone', target: 'a'.repeat(64), reason });
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function tempRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'mem-watch-'));
  roots.push(root);
  return root;
}

/** A projector in memory; `fail` makes project() throw, `held` init() say CONFLICT; `applied` counts batches. */
function memory(name: string): Projector<null> & { fail: boolean; held: boolean; applied: number } {
  let position: ProjectionPosition | null = null;
  const projector = {
    name,
    version: 1,
    handles: ['tombstone' as never],
    fail: false,
    held: false,
    applied: 0,
    init: () =>
      projector.held
        ? Promise.reject(new MemError('CONFLICT', `${name} is held by another process`))
        : Promise.resolve(null),
    position: () => Promise.resolve(position),
    project: (_handle: null, _project: string, batch: { through: ProjectionPosition }) => {
      if (projector.fail) return Promise.reject(new Error(`${name} failed`));
      position = batch.through;
      projector.applied += 1;
      return Promise.resolve();
    },
    seal: () => Promise.resolve(),
    outputs: () => Promise.resolve([]),
    close: () => Promise.resolve(),
    reset: () => {
      position = null;
      return Promise.resolve();
    },
  };
  return projector;
}

/** Records each catch-up a watcher is told of: the projections, and whether it succeeded. */
function watch(engine: Engine) {
  const told: { projections: string[]; done: boolean }[] = [];
  engine.watchCatchUps((projections) => {
    const entry = { projections: [...projections], done: false };
    told.push(entry);
    return () => {
      entry.done = true;
    };
  });
  return told;
}

describe('Engine.watchCatchUps', () => {
  it('tells of each catch-up before it applies anything and again once it succeeded', async () => {
    const a = memory('a');
    const engine = new Engine({ root: tempRoot(), projectors: [a, memory('b')] });
    const told = watch(engine);
    const applied: number[] = [];
    engine.watchCatchUps(() => {
      applied.push(a.applied);
      return () => applied.push(a.applied);
    });
    await engine.append(P, [tombstone('one')], writer);
    expect(told).toEqual([{ projections: ['a', 'b'], done: true }]);
    expect(applied).toEqual([0, 1]);
  });

  it('does not tell of a failed catch-up’s success, and a throwing watcher fails nothing', async () => {
    const a = memory('a');
    const engine = new Engine({ root: tempRoot(), projectors: [a] });
    engine.watchCatchUps(() => {
      throw new Error('watcher broke');
    });
    const told = watch(engine);
    a.fail = true;
    await expect(engine.append(P, [tombstone('one')], writer)).rejects.toMatchObject({
      code: 'PROJECTION_FAILED',
    });
    expect(told).toEqual([{ projections: ['a'], done: false }]);
    a.fail = false;
    await engine.catchUp();
    expect(told.at(-1)).toEqual({ projections: ['a'], done: true });
  });

  it('leaves out a projection another process holds, which that catch-up skipped', async () => {
    const held = memory('held');
    const engine = new Engine({ root: tempRoot(), projectors: [memory('a'), held] });
    const told = watch(engine);
    held.held = true;
    const report = await engine.catchUp();
    expect(report.skipped).toEqual([expect.objectContaining({ projector: 'held' })]);
    expect(told).toEqual([{ projections: ['a'], done: true }]);
  });

  it('stops telling a watcher once it is unwatched', async () => {
    const engine = new Engine({ root: tempRoot(), projectors: [memory('a')] });
    let calls = 0;
    const unwatch = engine.watchCatchUps(() => {
      calls += 1;
      return undefined;
    });
    await engine.catchUp();
    unwatch();
    await engine.catchUp();
    expect(calls).toBe(1);
  });
});
