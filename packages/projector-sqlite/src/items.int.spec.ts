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
import { openItemStore } from './item-store.js';
import { itemNodeId } from './node-id.js';
import { projectorSqlite } from './projector.js';

const P = 'demo';
// Ids are derived from each item_added event's seq (1-based, in log order).
const THREAD = itemId(P, 1);
const TASK = itemId(P, 2);
const FACT = itemId(P, 3);

const payloads = [
  { type: 'item_added', item_type: 'thread', summary: 'Theme loader rework', tags: ['ui'] },
  {
    type: 'item_added',
    item_type: 'task',
    summary: 'Port the loader',
    parent: THREAD,
    due: '2026-02-01T00:00:00Z',
  },
  {
    type: 'item_added',
    item_type: 'fact',
    summary: 'The loader caches parsed themes',
    anchors: [THREAD],
    reason: 'learned while porting',
  },
  {
    type: 'item_updated',
    item: TASK,
    summary: 'Port the theme loader to ESM',
    detail: 'ESM only; drop the CJS shim',
    reason: 'clearer',
  },
  { type: 'item_related', item: TASK, relation: 'link', target: FACT },
  { type: 'item_resolved', item: TASK, from: 'open', status: 'done', reason: 'merged' },
  {
    type: 'item_unrelated',
    item: TASK,
    relation: 'link',
    target: FACT,
    reason: 'not related after all',
  },
  { type: 'item_deleted', item: FACT, reason: 'wrong' },
];

describe('curated items in the item store', () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => root.cleanup());

  async function apply(batch: Record<string, unknown>[]) {
    const events = chainEvents(P, batch);
    const handle = await projectorSqlite.init(root.target);
    await projectStretch(projectorSqlite, handle, P, projected(events));
    await projectorSqlite.seal(handle);
    await projectorSqlite.close(handle);
    return { events, file: join(root.target.stateDir, 'items.sqlite') };
  }

  it('items are node rows of kind item with their state, tags and relations beside them', async () => {
    const { events, file } = await apply(payloads);
    const db = new Database(file, { readonly: true });
    try {
      expect(
        db
          .prepare(`SELECT kind, level, text, deleted_at FROM node WHERE project = ? ORDER BY seq`)
          .all(P),
      ).toEqual([
        { kind: 'item', level: 'I', text: 'Theme loader rework', deleted_at: null },
        {
          kind: 'item',
          level: 'I',
          text: 'Port the theme loader to ESM\n\nESM only; drop the CJS shim',
          deleted_at: null,
        },
        {
          kind: 'item',
          level: 'I',
          text: 'The loader caches parsed themes',
          deleted_at: events[7]!.event.ts,
        },
      ]);
      expect(
        db
          .prepare(
            `SELECT id, type, status, summary, due, deleted_at, created_seq, updated_seq, updated_ts FROM item WHERE project = ? ORDER BY created_seq`,
          )
          .all(P),
      ).toEqual([
        {
          id: THREAD,
          type: 'thread',
          status: 'open',
          summary: 'Theme loader rework',
          due: null,
          deleted_at: null,
          created_seq: 1,
          updated_seq: 1,
          updated_ts: events[0]!.event.ts,
        },
        {
          id: TASK,
          type: 'task',
          status: 'done',
          summary: 'Port the theme loader to ESM',
          due: '2026-02-01T00:00:00Z',
          deleted_at: null,
          created_seq: 2,
          // The unlink (seq 7) is its last write: relations count as activity, as the ledger says.
          updated_seq: 7,
          updated_ts: events[6]!.event.ts,
        },
        {
          id: FACT,
          type: 'fact',
          status: null,
          summary: 'The loader caches parsed themes',
          due: null,
          deleted_at: events[7]!.event.ts,
          created_seq: 3,
          updated_seq: 8,
          updated_ts: events[7]!.event.ts,
        },
      ]);
      expect(
        db.prepare(`SELECT id, tag FROM item_tag WHERE project = ? ORDER BY id, tag`).all(P),
      ).toEqual([{ id: THREAD, tag: 'ui' }]);
      expect(
        db
          .prepare(
            `SELECT child_sha, parent_sha, kind FROM edge WHERE project = ? AND child_level = 'I' ORDER BY kind, child_sha`,
          )
          .all(P),
      ).toEqual([{ child_sha: FACT, parent_sha: THREAD, kind: 'anchor' }]);
      // The parent is the item row's column (migration 0034), no edge.
      expect(
        db.prepare(`SELECT id, parent FROM item WHERE project = ? AND parent IS NOT NULL`).all(P),
      ).toEqual([{ id: TASK, parent: THREAD }]);
    } finally {
      db.close();
    }
    const store = openItemStore(file);
    try {
      // One search over memories and items: the updated text is what the keyword index holds.
      expect(store.search('ESM').map((hit) => hit.node.text)).toEqual([
        'Port the theme loader to ESM\n\nESM only; drop the CJS shim',
      ]);
    } finally {
      store.close();
    }
  });

  it("an item node's rowid is its seq's block slot and offset: the items of a batch are neighbours", async () => {
    const { file } = await apply(payloads);
    const db = new Database(file, { readonly: true });
    try {
      const rows = db
        .prepare(
          `SELECT n.id AS node, i.node_id, i.created_seq FROM item i JOIN node n ON n.id = i.node_id WHERE i.project = ? ORDER BY i.created_seq`,
        )
        .all(P) as { node: number; node_id: number; created_seq: number }[];
      expect(rows.map((r) => r.node)).toEqual([1, 2, 3].map((seq) => itemNodeId(P, seq)));
      expect(rows.map((r) => r.node - rows[0]!.node)).toEqual([0, 1, 2]);
      // The item's FTS5 rows (node_fts, item_fts) are keyed by the same id.
      const fts = db.prepare(`SELECT rowid FROM item_fts ORDER BY rowid`).all() as {
        rowid: number;
      }[];
      expect(fts.map((r) => r.rowid)).toEqual(rows.map((r) => r.node));
    } finally {
      db.close();
    }
  });

  it('an item row is its own "added" history entry: item_history holds only the events after it', async () => {
    const events = chainEvents(P, payloads, {
      writer: { kind: 'api', principal: 'alice', token: 'laptop' },
    });
    const handle = await projectorSqlite.init(root.target);
    await projectStretch(projectorSqlite, handle, P, projected(events));
    await projectorSqlite.seal(handle);
    await projectorSqlite.close(handle);
    const file = join(root.target.stateDir, 'items.sqlite');
    const db = new Database(file, { readonly: true });
    try {
      // Three items added, none of them a history row (a write keyed by the random item id).
      expect(
        db
          .prepare(`SELECT type, count(*) AS n FROM item_history GROUP BY type ORDER BY type`)
          .all(),
      ).toEqual([
        { type: 'item_deleted', n: 1 },
        { type: 'item_related', n: 2 },
        { type: 'item_resolved', n: 1 },
        { type: 'item_unrelated', n: 2 },
        { type: 'item_updated', n: 1 },
      ]);
    } finally {
      db.close();
    }
    const store = openItemStore(file);
    try {
      const entry = (seq: number, type: string, reason: string | null, more = {}) => ({
        seq,
        ts: events[seq - 1]!.event.ts,
        type,
        actor: 'alice',
        token: 'laptop',
        reason,
        text: null,
        conversation: null,
        relation: null,
        other: null,
        side: null,
        ...more,
      });
      expect(store.itemHistory(P, FACT)).toEqual([
        entry(3, 'item_added', 'learned while porting'),
        entry(5, 'item_related', null, { relation: 'link', other: TASK, side: 'target' }),
        entry(7, 'item_unrelated', 'not related after all', {
          relation: 'link',
          other: TASK,
          side: 'target',
        }),
        entry(8, 'item_deleted', 'wrong'),
      ]);
      expect(store.itemHistory(P, THREAD)).toEqual([entry(1, 'item_added', null)]);
      // An id no item_added made has no history, not an "added" entry of nothing.
      expect(store.itemHistory(P, itemId(P, 99))).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('a store applied event by event holds the rows of one rebuild, and its bytes once sealed canonically', async () => {
    await apply(payloads);
    const whole = await rebuiltContents(root.target);
    root.cleanup();
    root = tempRoot();
    for (let i = 1; i <= payloads.length; i++) {
      const events = chainEvents(P, payloads.slice(0, i));
      const handle = await projectorSqlite.init(root.target);
      await projectStretch(projectorSqlite, handle, P, projected(events.slice(i - 1)));
      await projectorSqlite.seal(handle);
      await projectorSqlite.close(handle);
    }
    const caughtUp = await canonicalContents(root.target);
    expect(caughtUp.digest).toEqual(whole.digest);
    expect(caughtUp.bytes.equals(whole.bytes)).toBe(true);
  });
});
