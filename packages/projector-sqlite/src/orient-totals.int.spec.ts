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
import { itemReader } from './item-reads.js';
import { projectorSqlite } from './projector.js';

const P = 'demo';
const THREAD = itemId(P, 1);
const FACT = itemId(P, 2);
const RULE = itemId(P, 3);
const TASK = itemId(P, 4);

// Tags added, replaced and dropped with a deleted item; an anchor added, removed and re-added.
const payloads = [
  { type: 'item_added', item_type: 'thread', summary: 'Loader rework', tags: ['ui', 'perf'] },
  {
    type: 'item_added',
    item_type: 'fact',
    summary: 'Themes cache',
    anchors: [THREAD],
    tags: ['ui'],
  },
  { type: 'item_added', item_type: 'rule', summary: 'ESM only', tags: ['build', 'ui'] },
  { type: 'item_added', item_type: 'task', summary: 'Port it', parent: THREAD, tags: ['perf'] },
  { type: 'item_updated', item: TASK, tags: ['build'], reason: 'retagged' },
  { type: 'item_unrelated', item: FACT, relation: 'anchor', target: THREAD, reason: 'general' },
  { type: 'item_related', item: RULE, relation: 'anchor', target: THREAD },
  { type: 'item_deleted', item: THREAD, reason: 'superseded' },
];

const T2 = itemId(P, 9);
const SUB = itemId(P, 10);
const SUB2 = itemId(P, 11);
// Trees: nested tasks, one resolved, one deleted with a live child under it, one moved between threads.
const trees = [
  ...payloads,
  { type: 'item_added', item_type: 'thread', summary: 'Second thread' },
  { type: 'item_added', item_type: 'task', summary: 'Sub', parent: TASK },
  { type: 'item_added', item_type: 'task', summary: 'Sub sub', parent: SUB },
  { type: 'item_resolved', item: SUB, from: 'open', status: 'done', reason: 'merged' },
  { type: 'item_unrelated', item: TASK, relation: 'parent', target: THREAD, reason: 'moved' },
  { type: 'item_related', item: TASK, relation: 'parent', target: T2 },
  { type: 'item_updated', item: SUB2, summary: 'Sub sub, renamed', reason: 'clearer' },
  { type: 'item_deleted', item: SUB, reason: 'wrong' },
];

// The walk the reads did before the totals were kept: every live descendant, from scratch.
const RECOUNT_TREES = `WITH RECURSIVE tree(project, root, id) AS (
    SELECT project, id, id FROM item
    UNION ALL
    SELECT t.project, t.root, c.id FROM tree t
      JOIN item c ON c.project = t.project AND c.parent = t.id AND c.deleted_at IS NULL)
  SELECT t.root AS id, max(c.updated_ts || char(31) || printf('%016d', c.updated_seq)) AS activity,
    sum(t.id <> t.root AND (c.status IS NULL OR c.status NOT IN ('done', 'dropped'))) AS open
  FROM tree t JOIN item c ON c.project = t.project AND c.id = t.id GROUP BY t.root ORDER BY t.root`;

const RECOUNT_TAGS = `SELECT t.project, t.tag, count(*) AS count FROM item_tag t
  JOIN item i ON i.project = t.project AND i.id = t.id WHERE i.deleted_at IS NULL
  GROUP BY t.project, t.tag ORDER BY t.project, t.tag`;
const RECOUNT_ANCHORS = `SELECT i.id, (SELECT count(*) FROM edge e WHERE e.project = i.project
  AND e.child_level = 'I' AND e.child_sha = i.id AND e.parent_level = 'I' AND e.kind = 'anchor') AS count
  FROM item i ORDER BY i.id`;

describe("orient's totals in the item store", () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => root.cleanup());

  async function applyEach(batch: Record<string, unknown>[]) {
    for (let i = 1; i <= batch.length; i++) {
      const events = chainEvents(P, batch.slice(0, i));
      const handle = await projectorSqlite.init(root.target);
      await projectStretch(projectorSqlite, handle, P, projected(events.slice(i - 1)));
      await projectorSqlite.seal(handle);
      await projectorSqlite.close(handle);
    }
    return join(root.target.stateDir, 'items.sqlite');
  }

  it('tag counts and anchor counts kept by the writes equal a recount, event by event as after a rebuild', async () => {
    const file = await applyEach(payloads);
    const db = new Database(file, { readonly: true });
    try {
      expect(
        db.prepare('SELECT project, tag, count FROM item_tag_count ORDER BY project, tag').all(),
      ).toEqual(db.prepare(RECOUNT_TAGS).all());
      expect(
        db.prepare('SELECT project, tag, count FROM item_tag_count ORDER BY tag').all(),
      ).toEqual([
        { project: P, tag: 'build', count: 2 },
        { project: P, tag: 'ui', count: 2 },
      ]);
      expect(db.prepare('SELECT project, items FROM item_live_count').all()).toEqual(
        db
          .prepare(
            'SELECT project, count(*) AS items FROM item WHERE deleted_at IS NULL GROUP BY project',
          )
          .all(),
      );
      expect(db.prepare('SELECT id, anchor_count AS count FROM item ORDER BY id').all()).toEqual(
        db.prepare(RECOUNT_ANCHORS).all(),
      );
    } finally {
      db.close();
    }
    const caughtUp = await canonicalContents(root.target);
    const whole = await rebuiltContents(root.target);
    expect(caughtUp.bytes.equals(whole.bytes)).toBe(true);
  });

  it("each item's tree activity and open descendants, kept by the writes, equal a walk of its tree after every event", async () => {
    for (let n = 1; n <= trees.length; n++) {
      root.cleanup();
      root = tempRoot();
      const file = await applyEach(trees.slice(0, n));
      const db = new Database(file, { readonly: true });
      try {
        const kept = db
          .prepare(`SELECT id, tree_activity AS activity, tree_open AS open FROM item ORDER BY id`)
          .all() as { id: string }[];
        const live = new Set(
          (
            db.prepare('SELECT id FROM item WHERE deleted_at IS NULL').all() as { id: string }[]
          ).map((r) => r.id),
        );
        // A deleted item's own totals are never read: it ends its branch.
        const walked = (db.prepare(RECOUNT_TREES).all() as { id: string }[]).filter((r) =>
          live.has(r.id),
        );
        expect(
          kept.filter((r) => live.has(r.id)),
          `after ${n} events`,
        ).toEqual(walked);
      } finally {
        db.close();
      }
    }
    const caughtUp = await canonicalContents(root.target);
    const whole = await rebuiltContents(root.target);
    expect(caughtUp.bytes.equals(whole.bytes)).toBe(true);
  });

  it("one batch's births write each parent's totals once, and a batch that also moves, resolves and deletes them equals a walk", async () => {
    const A = itemId(P, 1);
    const B = itemId(P, 2);
    const births = [
      { type: 'item_added', item_type: 'thread', summary: 'A' },
      { type: 'item_added', item_type: 'thread', summary: 'B' },
      ...Array.from({ length: 20 }, (_, i) => ({
        type: 'item_added',
        item_type: 'task',
        summary: `Task ${i}`,
        parent: A,
      })),
    ];
    const handle = await projectorSqlite.init(root.target);
    // Counts the writes of A's totals on the writing connection.
    handle.db.exec(`CREATE TEMP TABLE a_writes (n INTEGER);
      CREATE TEMP TRIGGER a_written AFTER UPDATE OF tree_open ON main.item WHEN new.id = '${A}'
      BEGIN INSERT INTO temp.a_writes VALUES (1); END;`);
    await projectStretch(projectorSqlite, handle, P, projected(chainEvents(P, births)));
    expect(handle.db.prepare('SELECT count(*) AS n FROM temp.a_writes').get()).toEqual({ n: 1 });
    expect(
      handle.db
        .prepare('SELECT tree_open AS open FROM item WHERE project = ? AND id = ?')
        .get(P, A),
    ).toEqual({ open: 20 });
    await projectorSqlite.close(handle);

    // Newborns moved, resolved and deleted, and their own children born, in the batch that adds them.
    root.cleanup();
    root = tempRoot();
    const [c3, c4, c5, c6, c8] = [3, 4, 5, 6, 8].map((seq) => itemId(P, seq));
    const mixed = [
      ...births.slice(0, 2),
      ...[3, 4, 5, 6, 7].map((i) => ({
        type: 'item_added',
        item_type: 'task',
        summary: `T${i}`,
        parent: A,
      })),
      { type: 'item_added', item_type: 'task', summary: 'Under 3', parent: c3 },
      { type: 'item_deleted', item: c4, reason: 'wrong' },
      { type: 'item_unrelated', item: c5, relation: 'parent', target: A, reason: 'moved' },
      { type: 'item_related', item: c5, relation: 'parent', target: B },
      { type: 'item_resolved', item: c6, from: 'open', status: 'done', reason: 'merged' },
      { type: 'item_added', item_type: 'task', summary: 'Under 8', parent: c8 },
      { type: 'item_added', item_type: 'task', summary: 'Under 5', parent: c5 },
      { type: 'item_deleted', item: c3, reason: 'superseded' },
    ];
    const writer = await projectorSqlite.init(root.target);
    await projectStretch(projectorSqlite, writer, P, projected(chainEvents(P, mixed)));
    await projectorSqlite.seal(writer);
    await projectorSqlite.close(writer);
    const db = new Database(join(root.target.stateDir, 'items.sqlite'), { readonly: true });
    try {
      const live = new Set(
        (db.prepare('SELECT id FROM item WHERE deleted_at IS NULL').all() as { id: string }[]).map(
          (r) => r.id,
        ),
      );
      const kept = db
        .prepare(`SELECT id, tree_activity AS activity, tree_open AS open FROM item ORDER BY id`)
        .all() as { id: string }[];
      const walked = (db.prepare(RECOUNT_TREES).all() as { id: string }[]).filter((r) =>
        live.has(r.id),
      );
      expect(kept.filter((r) => live.has(r.id))).toEqual(walked);
      expect(
        db
          .prepare('SELECT id, tree_open AS open FROM item WHERE id IN (?, ?) ORDER BY id')
          .all(A, B),
      ).toEqual(
        [
          // 7 alone: 3 (with 8 and 8's child under it) and 4 deleted, 5 moved, 6 done.
          { id: A, open: 1 },
          // 5 and the child born under it after the move.
          { id: B, open: 2 },
        ].sort((x, y) => (x.id < y.id ? -1 : 1)),
      );
      // 8 lives on under the deleted 3, with its own child open.
      expect(db.prepare('SELECT tree_open AS open FROM item WHERE id = ?').get(c8)).toEqual({
        open: 1,
      });
    } finally {
      db.close();
    }
  });

  it("orient's open threads are read from their rows, not by walking their trees", async () => {
    const file = await applyEach(trees);
    const db = new Database(file);
    try {
      // Parents dropped behind the totals' back (no trigger on this connection): a read that
      // walks the trees would see it.
      db.exec(`UPDATE item SET parent = NULL`);
      expect(
        itemReader(db)
          .openThreads([P])
          .map((r) => [r.id, r.open_count, r.activity_seq]),
      ).toEqual([[T2, 1, 14]]);
    } finally {
      db.close();
    }
  });

  it('orient reads the kept totals and the unanchored index, not every tagging or fact', async () => {
    const file = await applyEach(payloads);
    // Taggings and liveness changed behind the totals' back: a read that recounts would see it.
    const tampered = new Database(file);
    try {
      const reads = itemReader(tampered);
      expect(reads.unanchored([P], 'fact').map((r) => r.id)).toEqual([FACT]);
      expect(reads.unanchored([P], 'rule')).toEqual([]);
      tampered.exec(`DELETE FROM item_tag`);
      tampered.exec(`UPDATE item SET deleted_at = 'x'`);
      expect(reads.liveCounts([P])).toEqual([{ project: P, items: 3 }]);
      expect(reads.tagCounts([P])).toEqual([
        { tag: 'build', count: 2 },
        { tag: 'ui', count: 2 },
      ]);
    } finally {
      tampered.close();
    }
    const db = new Database(file, { readonly: true });
    try {
      const plan = db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT i.id FROM item i WHERE i.project IN (SELECT value FROM json_each(?))
            AND i.type = 'fact' AND i.anchor_count = 0 AND i.deleted_at IS NULL ORDER BY i.project, i.created_seq, i.id`,
        )
        .all(JSON.stringify([P])) as { detail: string }[];
      expect(plan.map((r) => r.detail).join('\n')).toContain('USING INDEX item_unanchored');
    } finally {
      db.close();
    }
  });
});
