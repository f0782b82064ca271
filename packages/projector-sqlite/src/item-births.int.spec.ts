import { join } from 'node:path';
import Database from 'better-sqlite3';
import { itemId } from '@mem/core';
import { projectStretch } from '@mem/engine';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  canonicalContents,
  chainEvents,
  projected,
  rebuiltContents,
  tempRoot,
} from '../test/support.js';
import { projectorSqlite } from './projector.js';
import { STATEMENT_SQL } from './statements.js';

const P = 'demo';
const THREAD = itemId(P, 1);

// Born under one thread in one batch, in every status an add may give, and a rule with no parent.
const payloads = [
  { type: 'item_added', item_type: 'thread', summary: 'Loader rework' },
  {
    type: 'item_added',
    item_type: 'task',
    summary: 'Proposed port',
    parent: THREAD,
    status: 'proposed',
  },
  { type: 'item_added', item_type: 'task', summary: 'Open port', parent: THREAD },
  {
    type: 'item_added',
    item_type: 'task',
    summary: 'Started port',
    parent: THREAD,
    status: 'in_progress',
  },
  {
    type: 'item_added',
    item_type: 'reminder',
    summary: 'Port reminder',
    parent: THREAD,
    remind_at: '2026-03-02T00:00:00Z',
  },
  { type: 'item_added', item_type: 'rule', summary: 'Alone, no parent' },
];

describe("an item's birth, noted by the shell rather than by triggers (item-births.ts)", () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => root.cleanup());

  it('insertItem is the only planned statement that inserts into item', () => {
    const inserting = Object.entries(STATEMENT_SQL)
      .filter(([, sql]) => /INSERT\s+(OR\s+\w+\s+)?INTO\s+(main\.)?item\s*\(/i.test(sql))
      .map(([name]) => name);
    expect(inserting).toEqual(['insertItem']);
  });

  it("counts the batch's new items live, adds them to their parent's tree and indexes them, as a rebuild does", async () => {
    const handle = await projectorSqlite.init(root.target);
    await projectStretch(projectorSqlite, handle, P, projected(chainEvents(P, payloads)));
    await projectorSqlite.seal(handle);
    await projectorSqlite.close(handle);
    const db = new Database(join(root.target.stateDir, 'items.sqlite'), { readonly: true });
    try {
      expect(db.prepare('SELECT project, items FROM item_live_count').all()).toEqual([
        { project: P, items: 6 },
      ]);
      // A new child is unresolved, whatever its status: the four count.
      expect(db.prepare('SELECT tree_open FROM item WHERE id = ?').get(THREAD)).toEqual({
        tree_open: 4,
      });
      const indexed = db
        .prepare(
          `SELECT i.id FROM item_fts f JOIN item i ON i.node_id = f.rowid
            WHERE item_fts MATCH 'text:port OR text:ports OR text:alone' ORDER BY i.id`,
        )
        .all();
      expect(indexed).toEqual(
        [2, 3, 4, 5, 6]
          .map((seq) => ({ id: itemId(P, seq) }))
          .sort((a, b) => (a.id < b.id ? -1 : 1)),
      );
    } finally {
      db.close();
    }
    const caughtUp = await canonicalContents(root.target);
    const whole = await rebuiltContents(root.target);
    expect(caughtUp.bytes.equals(whole.bytes)).toBe(true);
  });

  it('no trigger fires on an insert into item (each would open a statement journal)', async () => {
    const handle = await projectorSqlite.init(root.target);
    try {
      const triggers = handle.db
        .prepare(
          `SELECT name FROM temp.sqlite_master WHERE type = 'trigger' AND tbl_name = 'item'
            AND sql LIKE '%AFTER INSERT ON main.item%'`,
        )
        .all();
      expect(triggers).toEqual([]);
    } finally {
      await projectorSqlite.close(handle);
    }
  });
});
