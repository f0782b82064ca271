import { rmSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { itemId } from '@mem/core';
import { Engine } from '@mem/engine';
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
