import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { itemId } from '@mem/core';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealedStoreOf, tempRoot } from '../test/support.js';
import { itemReader } from './item-reads.js';
import type { ItemFindQuery } from './item-rows.js';

/*
 * Issue 13 §6: a keyword find proves its candidates from its rarest terms when a bound allows
 * (keyword-candidates.ts) and never scores the other matches. Its work is counted, not timed: in a copy
 * of the store node_fts reads its content through a view that counts each row read, and keeps
 * no sizes (columnsize=0), so bm25() reads a match's text once each time it scores it. The
 * answer is compared with the one ranking every match (keywordBudget 0) on the same store.
 */

const P = 'bound';
const fact = (summary: string, extra: Record<string, unknown> = {}) => ({
  type: 'item_added',
  item_type: 'fact',
  summary,
  ...extra,
});

/**
 * A thread, then 240 items holding "common"; 15 of them "zephyr" (equal texts but two: they tie
 * in BM25, so the cut at the candidate cap falls inside a tie), 105 others "quorum" (weak: in
 * 44 % of the items), 6 "xylem"; one zephyr is deleted, one archived, one expires. Tasks and
 * facts alternate by 16; every fourth task is under the thread, every fourth fact anchored to
 * it; each item has one of three tags.
 */
const THREAD = itemId(P, 1);
const item = (i: number) => itemId(P, i + 2);
const payloads: Record<string, unknown>[] = [
  { type: 'item_added', item_type: 'thread', summary: 'The home thread' },
  ...Array.from({ length: 240 }, (_, i) => {
    const task = Math.floor(i / 16) % 2 === 0;
    return {
      ...fact(
        `common ${i % 16 === 3 ? `zephyr${i % 48 === 3 ? ' zephyr' : ''}` : i % 2 === 1 ? 'quorum' : 'filler'} note ${i}${i % 40 === 7 ? ' xylem' : ''}`,
        i === 51 ? { valid_until: '2026-01-01T00:00:00.000Z' } : {},
      ),
      tags: [`t${i % 3}`],
      ...(task ? { item_type: 'task' } : {}),
      ...(task && i % 4 === 0 ? { parent: THREAD } : {}),
      ...(!task && i % 4 === 3 ? { anchors: [THREAD] } : {}),
    };
  }),
  { type: 'item_deleted', item: item(19), reason: 'wrong' },
  { type: 'item_attention_set', item: item(35), attention: 'archive', reason: 'filed' },
];

const base: ItemFindQuery = {
  projects: [P],
  phrases: ['"zephyr"', '"quorum"', '"common"'],
  includeDeleted: false,
  attention: ['active', 'reference'],
  recencyWeight: 0.5,
  includeStale: false,
  now: new Date('2026-03-01T00:00:00Z'),
  limit: 3,
  offset: 0,
  candidates: 5,
  heldBackLimit: 5,
};
/** zephyr's 15 postings fit; with xylem's 6 they would not, quorum's 105 and common's 240 never. */
const BUDGET = 20;

let root: ReturnType<typeof tempRoot>;
let counted: Database.Database;
let reads = 0;

beforeAll(async () => {
  root = tempRoot();
  const sealed = await sealedStoreOf(root.target, P, payloads);
  const copy = join(root.root, 'counted.sqlite');
  copyFileSync(sealed.db.name, copy);
  sealed.db.close();
  counted = new Database(copy);
  counted.function('mem_counted_read', (text: unknown) => {
    reads += 1;
    return text;
  });
  counted.exec(`DROP TABLE node_fts;
    CREATE VIEW node_counted AS SELECT id, mem_counted_read(text) AS text FROM node;
    CREATE VIRTUAL TABLE node_fts USING fts5 (text, content = 'node_counted', content_rowid = 'id',
      columnsize = 0, tokenize = 'porter unicode61 remove_diacritics 2');
    INSERT INTO node_fts (node_fts) VALUES ('rebuild');`);
});
afterAll(() => {
  counted.close();
  root.cleanup();
});

/** The find's answer and how many matches bm25() scored for it. */
function find(query: ItemFindQuery, keywordBudget: number) {
  reads = 0;
  const found = itemReader(counted, { keywordBudget }).findItems(query);
  return {
    scored: reads,
    answer: {
      total: found.total,
      heldBackTotal: found.heldBackTotal,
      heldBack: found.heldBack.map((r) => r.id),
      items: found.items.map((r) => [
        r.id,
        r.relevance_rank,
        r.recency_rank,
        r.band,
        r.fused_score_micro,
      ]),
    },
  };
}

describe('a keyword find with a selective term', () => {
  it('scores only the matches of its rarest terms, and answers as ranking every match does', () => {
    const bounded = find(base, BUDGET);
    const exhaustive = find(base, 0);
    expect(exhaustive.scored).toBeGreaterThanOrEqual(230);
    // zephyr's live, delivered matches only (15 less the deleted, archived and expired ones).
    expect(bounded.scored).toBeLessThanOrEqual(12);
    expect(bounded.answer).toEqual(exhaustive.answer);
    expect(bounded.answer.items.length).toBe(3);
  });

  // Each: the change, and whether a budget of 60 proves the candidates (fewer matches scored).
  it.each<[string, Partial<ItemFindQuery>, boolean]>([
    ['the second page', { offset: 3 }, true],
    ['a page past the cap', { offset: 4, limit: 4 }, true],
    ['a type', { type: 'task', candidates: 3 }, true],
    ['deleted ones too', { includeDeleted: true }, true],
    ['every tier', { attention: ['active', 'reference', 'archive'] }, true],
    ['stale ones too', { includeStale: true }, true],
    ['more candidates than zephyr holds', { candidates: 13 }, false],
    ['recency first', { recencyWeight: 2 }, true],
    ['quorum and common (none within the budget)', { phrases: ['"quorum"', '"common"'] }, false],
    ['zephyr and quorum', { phrases: ['"quorum"', '"zephyr"'], candidates: 8 }, true],
    ['xylem too', { phrases: ['"common"', '"xylem"', '"zephyr"', '"quorum"'] }, true],
    ['more candidates than the searched terms hold', { candidates: 40, limit: 20 }, false],
    // A tag, parent or anchor drives the find: only its matches are scored.
    ['a tag', { tag: 't1', candidates: 20, limit: 10 }, true],
    ['a tag, a page past the cap', { tag: 't2', candidates: 5, offset: 6, limit: 5 }, true],
    ['a tag and a type, stale too', { tag: 't0', type: 'fact', includeStale: true }, true],
    ['a parent', { parent: THREAD, phrases: ['"filler"', '"note"'], candidates: 200 }, true],
    ['an anchor', { anchor: THREAD, phrases: ['"zephyr"', '"quorum"'] }, true],
    ['an anchor, deleted too', { anchor: THREAD, includeDeleted: true, limit: 50 }, true],
  ])('%s: the same answer as ranking every match', (_, change, proven) => {
    const query = { ...base, ...change };
    const exhaustive = find(query, 0);
    for (const budget of [BUDGET, 60])
      expect(find(query, budget).answer, String(budget)).toEqual(exhaustive.answer);
    expect(find(query, 60).scored < exhaustive.scored).toBe(proven);
  });
});
