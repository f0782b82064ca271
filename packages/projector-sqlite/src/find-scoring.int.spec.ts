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
        phrases: ['theme', 'loader'],
        includeDeleted: false,
        includeStale: false,
        now: new Date('2026-03-01T00:00:00.000Z'),
        heldBackLimit: 10,
        attention: ['active', 'reference'] as const,
        // No recency in the fusion: the page is then BM25's order, which the check below states.
        recencyWeight: 0,
        candidates: 1000,
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
      // BM25 is FTS5's rank (bm25 with no weights): one statement scores.
      expect(statements.filter((sql) => /bm25\(|\.rank\b/.test(sql)).length).toBe(1);
    } finally {
      db.close();
    }
  });

  it('ranks a page among the best matches by BM25 up to the candidate cap: recency cannot lift a weaker match past it, and the total counts every match', async () => {
    // Six matches of "cache", strongest first by BM25 (more of the word in a shorter text), the
    // strongest oldest; filler so the word carries weight (IDF) in the index.
    const filler = Array.from({ length: 8 }, (_, i) => fact(`Unrelated note ${i} about deploys`));
    const matches = [
      fact('cache cache cache cache'),
      fact('cache cache cache warm'),
      fact('cache cache warm path notes'),
      fact('cache warm path notes for the loader'),
      fact('a cache of parsed themes kept by the loader for later'),
      fact('the loader keeps a cache of the parsed themes for every path it has seen'),
    ];
    const {
      db,
      statements,
      unrecorded: prepare,
    } = await sealedStoreOf(root.target, P, [...filler, ...matches]);
    try {
      const query = {
        projects: [P],
        phrases: ['cache'],
        includeDeleted: false,
        includeStale: false,
        now: new Date('2026-03-01T00:00:00.000Z'),
        heldBackLimit: 10,
        attention: ['active', 'reference'] as const,
        // Recency weighs as much as relevance: newer matches would outrank older ones in a band.
        recencyWeight: 1,
        offset: 0,
      };
      const reads = itemReader(db);
      const capped = reads.findItems({ ...query, limit: 2, candidates: 3 });
      expect(capped.total).toBe(6);
      const strongest = (
        prepare(`SELECT i.id FROM node_fts f JOIN item i ON i.node_id = f.rowid
          WHERE node_fts MATCH 'cache' ORDER BY f.rank LIMIT 3`).all() as { id: string }[]
      ).map((r) => r.id);
      expect(strongest).toEqual([9, 10, 11].map((seq) => itemId(P, seq)));
      // Every rank is among the three candidates: the newest of them is recency 1.
      expect(capped.items.map((r) => r.recency_rank).every((rank) => rank <= 3)).toBe(true);
      expect(capped.items.every((r) => strongest.includes(r.id))).toBe(true);
      // A page deeper than the cap ranks among offset + limit.
      const deep = reads.findItems({ ...query, limit: 2, offset: 4, candidates: 3 });
      expect(deep.items).toHaveLength(2);
      expect(deep.total).toBe(6);
      // The candidates are read in FTS5's rank order and cut there: no sort of every match.
      const page = statements.find((sql) => sql.includes('LIMIT @candidates'))!;
      const plan = (
        prepare(`EXPLAIN QUERY PLAN ${page}`).all({
          // A plan needs every parameter bound, not meaningful values.
          ...Object.fromEntries([...page.matchAll(/@(\w+)/g)].map((m) => [m[1]!, null])),
          projects: JSON.stringify([P]),
          attention: JSON.stringify(['active']),
          match: 'cache',
        }) as { detail: string; id: number; parent: number }[]
      ).map((r) => r.detail);
      // The materialised candidates: from its MATERIALIZE line to the scan that reads them.
      const candidates = plan.slice(
        plan.indexOf('MATERIALIZE ranked'),
        plan.findIndex((d) => /^SCAN r$/.test(d)),
      );
      expect(candidates.join('\n')).toMatch(/SCAN f VIRTUAL TABLE/);
      expect(candidates.join('\n')).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
    } finally {
      db.close();
    }
  });

  it('holds back at the boundary instant as Date.parse reads it, to the millisecond', async () => {
    const now = new Date('2026-03-01T00:00:00.500Z');
    const { db } = await sealedStoreOf(root.target, P, [
      fact('theme one', { valid_until: '2026-03-01T00:00:00.400Z' }),
      fact('theme two', { valid_until: '2026-03-01T00:00:00.500Z' }),
      fact('theme three', { valid_until: '2026-03-01T00:00:00.600Z' }),
      fact('theme four', { valid_until: '2026-03-01T00:00:01Z' }),
      fact('theme five', { valid_until: '2026-02-28T23:59:59.999Z' }),
      fact('theme six', { review_after: '2026-03-01T00:00:00Z' }),
    ]);
    try {
      const found = itemReader(db).findItems({
        projects: [P],
        phrases: ['theme'],
        includeDeleted: false,
        includeStale: false,
        now,
        heldBackLimit: 10,
        attention: ['active', 'reference'],
        recencyWeight: 0,
        limit: 10,
        offset: 0,
        candidates: 1000,
      });
      expect(found.heldBack.map((r) => r.id)).toEqual([1, 2, 5, 6].map((s) => itemId(P, s)));
      expect(found.items.map((r) => r.id).sort()).toEqual([3, 4].map((s) => itemId(P, s)).sort());
      expect(found.total).toBe(2);
    } finally {
      db.close();
    }
  });
});
