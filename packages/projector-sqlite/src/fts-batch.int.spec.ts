import { itemId } from '@mem/core';
import { projectStretch } from '@mem/engine';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chainEvents, projected, tempRoot } from '../test/support.js';
import { digestStore } from './digest.js';
import type { ItemStoreHandle } from './handle.js';
import { varints } from './keyword-statistics.js';
import { projectorSqlite } from './projector.js';
import { sealStore } from './seal.js';

const P = 'demo';
const A = itemId(P, 1);
const B = itemId(P, 2);
const T1 = itemId(P, 3);
const T2 = itemId(P, 4);
const F = itemId(P, 5);
const X = itemId(P, 13);
const Y = itemId(P, 15);

// Every change that moves an item's index entry, several of them to one item, and items added
// and then changed or deleted: what one batch may hold.
const payloads = [
  { type: 'item_added', item_type: 'thread', summary: 'Loader rework' },
  { type: 'item_added', item_type: 'thread', summary: 'Second thread' },
  { type: 'item_added', item_type: 'task', summary: 'Port the loader', parent: A },
  { type: 'item_added', item_type: 'task', summary: 'Drop the shim', parent: A },
  { type: 'item_added', item_type: 'fact', summary: 'Themes cache their fonts' },
  { type: 'item_updated', item: T1, summary: 'Port the theme loader', reason: 'clearer' },
  { type: 'item_updated', item: T2, detail: 'with tests for the shim', reason: 'scope' },
  { type: 'item_resolved', item: T1, from: 'open', status: 'done' },
  { type: 'item_attention_set', item: F, attention: 'archive' },
  { type: 'item_unrelated', item: T2, relation: 'parent', target: A, reason: 'moved' },
  { type: 'item_related', item: T2, relation: 'parent', target: B },
  { type: 'item_deleted', item: F, reason: 'wrong' },
  { type: 'item_added', item_type: 'task', summary: 'Short lived', parent: B },
  { type: 'item_deleted', item: X, reason: 'duplicate' },
  { type: 'item_added', item_type: 'task', summary: 'Named once' },
  { type: 'item_updated', item: Y, summary: 'Named twice', reason: 'renamed' },
];

/**
 * FTS5's write counter of `table` (its structure record, id 10: a 4-byte cookie, a version-2
 * marker on contentless-delete tables, then the levels, the segments and the counter as
 * varints): the leaves its flushes have written, one at least each flush.
 */
function writeCounter(db: Database.Database, table: 'node_fts' | 'item_fts'): number {
  const { block } = db.prepare(`SELECT block FROM ${table}_data WHERE id = 10`).get() as {
    block: Uint8Array;
  };
  const v2 = block[4] === 0xff && block[5] === 0 && block[6] === 0 && block[7] === 1;
  return varints(block.subarray(v2 ? 8 : 4))[2]!;
}

/** item_fts's scope token of a parent (item-fts.ts spells x . _ - as xx xd xu xh). */
const parentToken = (id: string) =>
  `q${id.replace(/[x._-]/g, (c) => ({ x: 'xx', '.': 'xd', _: 'xu', '-': 'xh' })[c]!)}0`;

describe('node_fts and item_fts, indexed once a batch', () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => root.cleanup());

  async function store(): Promise<ItemStoreHandle> {
    return projectorSqlite.init(root.target);
  }

  it('one batch of every kind of change leaves both indexes as a rebuild from the rows, and as one event a batch does', async () => {
    const events = projected(chainEvents(P, payloads));
    let handle = await store();
    let whole: Record<string, string>;
    try {
      await projectStretch(projectorSqlite, handle, P, events);
      whole = await projectorSqlite.digest!(handle);
      const db = handle.db;
      const items = (match: string) =>
        (
          db
            .prepare(
              `SELECT i.id FROM item_fts f JOIN item i ON i.node_id = f.rowid WHERE item_fts MATCH ? ORDER BY i.id`,
            )
            .all(match) as { id: string }[]
        ).map((r) => r.id);
      // Not a vacuous digest: each change is what the index answers.
      expect(items('text : port')).toEqual([T1]);
      expect(items('text : short')).toEqual([X]);
      expect(items('text : named AND text : twice')).toEqual([Y]);
      expect(items('text : once')).toEqual([]);
      expect(items(`text : shim AND scope : ${parentToken(B)}`)).toEqual([T2]);
      expect(items(`scope : ${parentToken(A)}`)).toEqual([T1]);
      expect(items('text : fonts AND scope : l0 AND scope : a3')).toEqual([F]);
      expect(items('text : theme AND scope : s4')).toEqual([T1]);
      const nodes = db
        .prepare(`SELECT count(*) AS n FROM node_fts WHERE node_fts MATCH 'once OR loader'`)
        .get();
      // 'Loader rework' and 'Port the theme loader'; 'Named once' is 'Named twice' now.
      expect(nodes).toEqual({ n: 2 });
      // The canonical seal builds both indexes afresh from node and item (fts-build.ts).
      await sealStore(handle, projectorSqlite.version, { canonical: true });
      expect(digestStore(handle.db)).toEqual(whole);
    } finally {
      await projectorSqlite.close(handle);
    }
    root.cleanup();
    root = tempRoot();
    handle = await store();
    try {
      for (const event of events) await projectStretch(projectorSqlite, handle, P, [event]);
      expect(await projectorSqlite.digest!(handle)).toEqual(whole);
    } finally {
      await projectorSqlite.close(handle);
    }
  });

  it('an add_items of 100 writes each index once, not once per item', async () => {
    const thread = { type: 'item_added', item_type: 'thread', summary: 'Loader rework' };
    const tasks = Array.from({ length: 100 }, (_, i) => ({
      type: 'item_added',
      item_type: 'task',
      summary: `task ${i}: port the theme loader`,
      parent: A,
    }));
    const events = projected(chainEvents(P, [thread, ...tasks]));
    const handle = await store();
    try {
      await projectStretch(projectorSqlite, handle, P, events.slice(0, 1));
      await projectorSqlite.seal(handle);
      const before = [writeCounter(handle.db, 'node_fts'), writeCounter(handle.db, 'item_fts')];
      await projectStretch(projectorSqlite, handle, P, events.slice(1));
      await projectorSqlite.seal(handle);
      const after = [writeCounter(handle.db, 'node_fts'), writeCounter(handle.db, 'item_fts')];
      // Indexed from the triggers, each item was a flush of its own: 100 leaves each.
      expect(after[0]! - before[0]!).toBeLessThanOrEqual(2);
      expect(after[1]! - before[1]!).toBeLessThanOrEqual(2);
      const count = (sql: string) => (handle.db.prepare(sql).get() as { n: number }).n;
      expect(count(`SELECT count(*) AS n FROM node_fts WHERE node_fts MATCH 'theme'`)).toBe(100);
      expect(count(`SELECT count(*) AS n FROM item_fts WHERE item_fts MATCH 'text : theme'`)).toBe(
        100,
      );
    } finally {
      await projectorSqlite.close(handle);
    }
  });
});
