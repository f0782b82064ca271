import { itemId } from '@mem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sealedStoreOf, tempRoot } from '../test/support.js';
import { itemReader } from './item-reads.js';

const P = 'demo';
const payloads = [
  { type: 'item_added', item_type: 'thread', summary: 'Port the loader' },
  { type: 'item_added', item_type: 'rule', summary: 'Run the tests first', tags: ['ci'] },
  {
    type: 'item_added',
    item_type: 'fact',
    summary: 'The cache expires',
    valid_until: '2026-09-01T00:00:00.000Z',
    tags: ['cache'],
  },
  { type: 'item_added', item_type: 'fact', summary: 'Anchored one', anchors: [itemId(P, 1)] },
  { type: 'item_related', item: itemId(P, 3), relation: 'link', target: itemId(P, 1) },
  { type: 'item_added', item_type: 'fact', summary: 'Filed away' },
  { type: 'item_attention_set', item: itemId(P, 6), attention: 'archive', reason: 'old' },
];

describe("orient's always-loaded rules and facts", () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => root.cleanup());

  it('are read with what T0 shows and judges (text, freshness inputs), never their tags or relations', async () => {
    const { db, statements } = await sealedStoreOf(root.target, P, payloads);
    try {
      const reads = itemReader(db);
      expect(reads.loadedKnowledge([P], 'rule')).toEqual([
        expect.objectContaining({ id: itemId(P, 2), summary: 'Run the tests first' }),
      ]);
      const facts = reads.loadedKnowledge([P], 'fact');
      expect(facts).toEqual([
        {
          project: P,
          id: itemId(P, 3),
          type: 'fact',
          status: null,
          summary: 'The cache expires',
          created_ts: expect.any(String) as string,
          valid_until: '2026-09-01T00:00:00.000Z',
          review_after: null,
          // The cited source is a freshness input too: T0 re-reads it as find_items does.
          source_uri: null,
          source_sha256: null,
        },
      ]);
      // Three sub-queries a row (tags, anchors and the other relations) that T0 never shows.
      expect(statements.length).toBeGreaterThan(0);
      for (const sql of statements) expect(sql).not.toMatch(/\bitem_tag\b|\bedge\b/);
    } finally {
      db.close();
    }
  });
});
