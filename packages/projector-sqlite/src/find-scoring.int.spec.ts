import { itemId } from '@mem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sealedStoreOf, tempRoot } from '../test/support.js';
import { itemReader } from './item-reads.js';

const P = 'demo';
const fact = (summary: string, extra: Record<string, unknown> = {}) => ({
  type: 'item_added',
  item_type: 'fact',
  summary,
  ...extra,
});

// Every item matches "theme OR loader"; one is expired, one deleted; BM25 orders the rest.
const payloads = [
  fact('The theme loader caches parsed themes'),
  fact('Loader loader loader: the loader retries'),
  fact('Theme names are case-insensitive'),
  fact('The theme loader ran out of time', { valid_until: '2026-01-01T00:00:00.000Z' }),
  fact('A deleted theme note'),
  { type: 'item_deleted', item: itemId(P, 5), reason: 'wrong' },
];

describe('find_items over the item store', () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => root.cleanup());

  it('scores the matches once (BM25 in one statement), with exact totals and the page in score order', async () => {
    const { db, statements, unrecorded: prepare } = await sealedStoreOf(root.target, P, payloads);
    try {
      const query = {
        projects: [P],
        match: 'theme OR loader',
        includeDeleted: false,
        includeStale: false,
        now: new Date('2026-03-01T00:00:00.000Z'),
        heldBackLimit: 10,
        attention: ['active', 'reference'] as const,
        // No recency in the fusion: the page is then BM25's order, which the check below states.
        recencyWeight: 0,
      };
      const reads = itemReader(db);
      const first = reads.findItems({ ...query, limit: 2, offset: 0 });
      const rest = reads.findItems({ ...query, limit: 2, offset: 2 });
      expect([first.total, first.heldBackTotal, rest.total]).toEqual([3, 1, 3]);
      expect(first.heldBack.map((r) => r.id)).toEqual([itemId(P, 4)]);
      // The exact order BM25 gives over the same hits, ties by creation.
      const ranked = (
        prepare(`SELECT i.id FROM node_fts f JOIN item i ON i.node_id = f.rowid
          WHERE node_fts MATCH 'theme OR loader' AND i.deleted_at IS NULL AND i.valid_until IS NULL
          ORDER BY bm25(node_fts), i.created_seq`).all() as { id: string }[]
      ).map((r) => r.id);
      expect([...first.items, ...rest.items].map((r) => r.id)).toEqual(ranked);
      expect(statements.filter((sql) => sql.includes('bm25(')).length).toBe(1);
    } finally {
      db.close();
    }
  });
});
