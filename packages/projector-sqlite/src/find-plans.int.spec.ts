import { itemId } from '@mem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectStretch } from '@mem/engine';
import Database from 'better-sqlite3';
import { chainEvents, projected, sealedStoreOf, tempRoot } from '../test/support.js';
import { projectorSqlite } from './projector.js';
import { itemStorePath } from './store-files.js';
import { itemReader } from './item-reads.js';
import type { ItemFindQuery } from './item-rows.js';

const P = 'demo';
const thread = itemId(P, 1);
const payloads = [
  { type: 'item_added', item_type: 'thread', summary: 'Port the loader', tags: ['ops'] },
  { type: 'item_added', item_type: 'task', summary: 'Under it', parent: thread, tags: ['ops'] },
  { type: 'item_added', item_type: 'task', summary: 'Tagged alone', tags: ['ops'] },
  { type: 'item_added', item_type: 'fact', summary: 'Anchored', anchors: [thread] },
  { type: 'item_added', item_type: 'task', summary: 'Another tag', tags: ['web'] },
  { type: 'item_added', item_type: 'task', summary: 'Deleted one', parent: thread, tags: ['ops'] },
  { type: 'item_deleted', item: itemId(P, 6), reason: 'wrong' },
];

const base: ItemFindQuery = {
  projects: [P],
  includeDeleted: false,
  attention: ['active', 'reference'],
  recencyWeight: 0.5,
  includeStale: true,
  now: new Date('2026-03-01T00:00:00Z'),
  limit: 20,
  offset: 0,
  candidates: 1000,
  heldBackLimit: 20,
};

describe("find's structural filters", () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => root.cleanup());

  it.each([
    ['a tag', { tag: 'ops' }, [1, 2, 3], 'item_tag_by_tag'],
    ['a tag and a type', { tag: 'ops', type: 'task' }, [2, 3], 'item_tag_by_tag'],
    ['a parent', { parent: thread }, [2], 'item_by_parent'],
    ['an anchor', { anchor: thread }, [4], 'edge_by_parent'],
    ['a deleted child too', { parent: thread, includeDeleted: true }, [2, 6], 'item_by_parent'],
  ] as const)(
    'with %s read the rows that filter holds (its index drives), never every item of the project',
    async (_, filter, seqs, index) => {
      const { db, statements, unrecorded: prepare } = await sealedStoreOf(root.target, P, payloads);
      try {
        const found = itemReader(db).findItems({ ...base, ...filter });
        expect(found.items.map((r) => r.id).sort()).toEqual(seqs.map((s) => itemId(P, s)).sort());
        expect(found.total).toBe(seqs.length);
        const finds = statements.filter((sql) => /FROM (item_tag dt|edge de|item i)/.test(sql));
        expect(finds.length).toBeGreaterThanOrEqual(2);
        for (const sql of finds) {
          const plan = (
            prepare(`EXPLAIN QUERY PLAN ${sql}`).all(emptyParams(sql)) as { detail: string }[]
          )
            .map((r) => r.detail)
            .join('\n');
          // A scan of the table, or a range over the project alone, reads every item of it.
          expect(plan).not.toMatch(
            /SCAN i\b|SEARCH i USING [A-Z ]*?(INDEX \w+ |KEY )\(project=\?\)/,
          );
          expect(plan).toContain(index);
        }
      } finally {
        db.close();
      }
    },
  );
});

describe('a keyword find a tag, parent or anchor drives', () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => root.cleanup());

  // Trigger: a parent with 14 k children and a keyword, ~113 ms at 114 k items, most of it the
  // freshness of every matched child read from its item row. Held-back ones are read from the
  // rows that can be held (the partial indexes) instead; the answer is the same.
  it.each([
    ['a tag', { tag: 'ops' }, [1, 2]],
    ['a parent', { parent: thread }, [2]],
    ['an anchor', { anchor: thread }, [4]],
  ] as const)(
    'with %s joins no hit of node_fts to its item row, and holds back what freshness holds',
    async (_, filter, seqs) => {
      const held = { type: 'item_added', valid_until: '2026-02-01T00:00:00.000Z' };
      const {
        db,
        statements,
        unrecorded: prepare,
      } = await sealedStoreOf(root.target, P, [
        ...payloads,
        { ...held, item_type: 'fact', summary: 'Expired loader', tags: ['ops'], anchors: [thread] },
        { ...held, item_type: 'fact', summary: 'Expired elsewhere loader', tags: ['web'] },
      ]);
      try {
        const query = {
          ...base,
          ...filter,
          phrases: ['"loader"', '"under"', '"anchored"', '"tagged"'],
        };
        const found = itemReader(db).findItems({ ...query, includeStale: false });
        expect(found.items.map((r) => r.id)).toEqual(
          expect.arrayContaining(seqs.map((s) => itemId(P, s))),
        );
        // The expired match is tagged ops and anchored to the thread, never its child.
        const holds = !('parent' in filter);
        expect(found.heldBack.map((r) => r.id)).toEqual(holds ? [itemId(P, 8)] : []);
        expect(found.heldBackTotal).toBe(holds ? 1 : 0);
        expect(found.total).toBe(found.items.length);
        const stale = itemReader(db).findItems({ ...query, includeStale: true });
        expect(stale.total).toBe(found.total + found.heldBackTotal);
        const scans = statements.filter((sql) => sql.includes('node_fts MATCH'));
        expect(scans.length).toBeGreaterThanOrEqual(1);
        const plans = scans.map((sql) =>
          (prepare(`EXPLAIN QUERY PLAN ${sql}`).all(emptyParams(sql)) as { detail: string }[])
            .map((r) => r.detail)
            .join('\n'),
        );
        const keywordScans = plans.filter((plan) => /SCAN f VIRTUAL TABLE/.test(plan));
        expect(keywordScans.length).toBeGreaterThanOrEqual(1);
        // The item row of a hit is its node id: item's rowid (migration 0036), item_by_node before.
        for (const plan of keywordScans)
          expect(plan).not.toMatch(/item_by_node|SEARCH i USING INTEGER PRIMARY KEY/);
      } finally {
        db.close();
      }
    },
  );
});

/** Each named parameter of `sql` bound to null: a plan needs them bound, not meaningful. */
function emptyParams(sql: string): Record<string, null> {
  return Object.fromEntries([...sql.matchAll(/@(\w+)/g)].map((m) => [m[1]!, null]));
}

describe('a keyword find a parent drives', () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => root.cleanup());

  // Trigger: a parent's 12 k children listed by edge, one item lookup each (~19 ms CPU at 100 k
  // items) on every keyword find under it. They are its scope token's postings in item_fts now,
  // moved by a relate, an unrelate and a delete, on the writing connection (its triggers) and in
  // the sealed copy (rebuilt) alike.
  const other = itemId(P, 2);
  const moved = [
    { type: 'item_added', item_type: 'thread', summary: 'Port the loader' },
    { type: 'item_added', item_type: 'thread', summary: 'Other loader' },
    { type: 'item_added', item_type: 'task', summary: 'Deleted loader', parent: thread },
    { type: 'item_added', item_type: 'task', summary: 'Moved loader', parent: thread },
    { type: 'item_added', item_type: 'task', summary: 'Adopted loader' },
    { type: 'item_unrelated', item: itemId(P, 4), relation: 'parent', target: thread, reason: 'x' },
    { type: 'item_related', item: itemId(P, 4), relation: 'parent', target: other },
    { type: 'item_related', item: itemId(P, 5), relation: 'parent', target: thread },
    { type: 'item_deleted', item: itemId(P, 3), reason: 'wrong' },
  ];
  const cases = [
    [{ parent: thread }, [5]],
    [{ parent: thread, includeDeleted: true }, [3, 5]],
    [{ parent: other }, [4]],
    [{ parent: other, type: 'fact' }, []],
  ] as const;

  it.each([
    ['as written', false],
    ['sealed', true],
  ] as const)(
    '%s, lists its children by their parent token, never by edge, and finds the same items',
    async (_, sealed) => {
      const handle = await projectorSqlite.init(root.target);
      await projectStretch(projectorSqlite, handle, P, projected(chainEvents(P, moved)));
      if (sealed) await projectorSqlite.seal(handle);
      await projectorSqlite.close(handle);
      const db = new Database(itemStorePath(root.target.stateDir), { readonly: true });
      const statements: string[] = [];
      const prepare = db.prepare.bind(db);
      db.prepare = (sql: string) => {
        statements.push(sql);
        return prepare(sql);
      };
      try {
        for (const [filter, seqs] of cases) {
          const found = itemReader(db).findItems({ ...base, ...filter, phrases: ['"loader"'] });
          expect(found.items.map((r) => r.id).sort()).toEqual(seqs.map((s) => itemId(P, s)).sort());
          expect(found.total).toBe(seqs.length);
        }
        const keyword = statements.filter((sql) => sql.includes('node_fts MATCH'));
        expect(keyword.length).toBeGreaterThanOrEqual(1);
        for (const sql of keyword) expect(sql).not.toContain('FROM edge');
      } finally {
        db.close();
      }
    },
  );

  it('with a parent that is no item id answers nothing, never an FTS5 syntax error', async () => {
    const handle = await projectorSqlite.init(root.target);
    await projectStretch(projectorSqlite, handle, P, projected(chainEvents(P, moved)));
    await projectorSqlite.close(handle);
    const db = new Database(itemStorePath(root.target.stateDir), { readonly: true });
    try {
      const parents = ['it-" OR loader', 'it-x) OR (loader', 'it-* NEAR', thread.toUpperCase()];
      for (const parent of parents) {
        const found = itemReader(db).findItems({ ...base, parent, phrases: ['"loader"'] });
        expect([found.items, found.total]).toEqual([[], 0]);
      }
    } finally {
      db.close();
    }
  });
});
