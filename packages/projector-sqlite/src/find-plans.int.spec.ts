import { itemId } from '@mem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sealedStoreOf, tempRoot } from '../test/support.js';
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
    ['a parent', { parent: thread }, [2], 'edge_by_parent'],
    ['an anchor', { anchor: thread }, [4], 'edge_by_parent'],
    ['a deleted child too', { parent: thread, includeDeleted: true }, [2, 6], 'edge_by_parent'],
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

/** Each named parameter of `sql` bound to null: a plan needs them bound, not meaningful. */
function emptyParams(sql: string): Record<string, null> {
  return Object.fromEntries([...sql.matchAll(/@(\w+)/g)].map((m) => [m[1]!, null]));
}
