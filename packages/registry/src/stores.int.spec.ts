import { rmSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { itemId } from '@mem/core';
import { Engine, type Projector } from '@mem/engine';
import { itemStorePath, projectorSqlite } from '@mem/projector-sqlite';
import { tempDataRoot } from '../../../test/api/support.js';
import { ProjectionStores } from './stores.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

const cli = { kind: 'cli' } as const;
const task = (summary: string) => ({ type: 'item_added', item_type: 'task', summary });

describe('the read stores across catch-ups', () => {
  // Trigger: add_items at 100 k items checkpoints the store at most commits. Why: the mtime
  // check reopened both read connections after each (~4 ms CPU, a cold page cache).
  it('keeps its connections when a checkpoint moves the file’s mtime, and reads the new rows', async () => {
    const { root, cleanup } = tempDataRoot(['alpha']);
    cleanups.push(cleanup);
    const engine = new Engine({ root, projectors: [projectorSqlite] });
    const stores = new ProjectionStores(engine);
    cleanups.push(() => stores.close());
    const added = await engine.append('alpha', [task('first')], cli);
    const before = await stores.fresh();
    const path = itemStorePath(engine.paths.stateDir);
    const mtime = statSync(path).mtimeMs;

    await new Promise((resolve) => setTimeout(resolve, 20));
    // A new summary rewrites text: the catch-up's seal checkpoints the store (seal.ts).
    const { last_seq } = await engine.append(
      'alpha',
      [
        {
          type: 'item_updated',
          item: itemId('alpha', added.last_seq),
          summary: 'renamed',
          reason: 'test',
        },
      ],
      cli,
    );
    expect(statSync(path).mtimeMs).not.toBe(mtime);

    const after = await stores.fresh();
    expect(after.items).toBe(before.items);
    expect(after.control).toBe(before.control);
    expect(after.items.positions()).toContainEqual(
      expect.objectContaining({ project: 'alpha', seq: last_seq }),
    );
  });

  it('reopens a store that is another file now, and reads it', async () => {
    const { root, cleanup } = tempDataRoot(['alpha']);
    cleanups.push(cleanup);
    const engine = new Engine({ root, projectors: [projectorSqlite] });
    const stores = new ProjectionStores(engine);
    cleanups.push(() => stores.close());
    const { last_seq } = await engine.append('alpha', [task('first')], cli);
    const before = await stores.fresh();

    rmSync(engine.paths.stateDir, { recursive: true, force: true });
    const after = await stores.fresh();
    expect(after.items).not.toBe(before.items);
    expect(after.items.positions()).toContainEqual(
      expect.objectContaining({ project: 'alpha', seq: last_seq }),
    );
  });
});

describe('the read stores after this engine’s own catch-up', () => {
  // Trigger: every add_items(100) at 100 k began with a catch-up of nothing: the store saw the
  // log move by the append before it, whose own catch-up had already applied it (stop 34).
  it('runs no catch-up for a move the engine’s own catch-up covered', async () => {
    const { root, cleanup } = tempDataRoot(['alpha']);
    cleanups.push(cleanup);
    const engine = new Engine({ root, projectors: [projectorSqlite] });
    const stores = new ProjectionStores(engine);
    cleanups.push(() => stores.close());
    await stores.fresh();
    const { last_seq } = await engine.append('alpha', [task('first')], cli, {
      catchUp: 'write-path',
    });
    const catchUp = vi.spyOn(engine, 'catchUp');
    const view = await stores.fresh();
    expect(catchUp).not.toHaveBeenCalled();
    expect(view.items.positions()).toContainEqual(
      expect.objectContaining({ project: 'alpha', seq: last_seq }),
    );
  });

  // The signatures a catch-up accepts are those of the log before it read any head: an append
  // by another process while it runs is not covered, and the next read catches it up.
  it('still catches up what another process appended while that catch-up ran', async () => {
    const { root, cleanup } = tempDataRoot(['alpha']);
    cleanups.push(cleanup);
    const other = new Engine({ root, projectors: [projectorSqlite] });
    let meanwhile: number | undefined;
    let armed = false;
    const racing: Projector = {
      ...(projectorSqlite as Projector),
      async project(handle, project, batch) {
        await (projectorSqlite as Projector).project(handle, project, batch);
        if (!armed) return;
        armed = false;
        // Another process appends after this catch-up read the head, before it seals.
        meanwhile = (await other.append('alpha', [task('meanwhile')], cli, { catchUp: 'later' }))
          .last_seq;
      },
    };
    const engine = new Engine({ root, projectors: [racing] });
    const stores = new ProjectionStores(engine);
    cleanups.push(() => stores.close());
    await stores.fresh();
    armed = true;
    const own = await engine.append('alpha', [task('own')], cli, { catchUp: 'write-path' });
    expect(meanwhile).toBe(own.last_seq + 1);
    const view = await stores.fresh();
    expect(view.items.positions()).toContainEqual(
      expect.objectContaining({ project: 'alpha', seq: meanwhile }),
    );
  });
});
