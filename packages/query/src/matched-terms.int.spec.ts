import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ItemStore } from '@mem/projector-sqlite';
import { evidence, memory, run, testStore, type TestStore } from '../test/store.js';
import { queryMemory } from './query-memory.js';

/*
 * Eight lines hold all three searched words, each word rare enough in the store that every one
 * of them clears the relevance floor by its BM25 alone: their coverage decides nothing, so only
 * the rows of the page need their matched terms — and the keyword recall already knows them.
 */
const HOLDERS = 8;
const holder = (i: number) =>
  `- Zeppelin ${i} waits in the hangar while its rockets are checked (bay ${i}).`;

const FILLERS = 200;
const unrelated = (i: number) => `- Note ${i}: the garden hose needed attention in week ${i}.`;

let store: TestStore;

beforeAll(async () => {
  store = await testStore({
    demo: [
      ...Array.from({ length: HOLDERS }, (_, i) => [
        run(`r-${i}`, 'L1', `hangar-${i}`),
        evidence(`r-${i}`, 1, holder(i)),
        memory(`r-${i}`, 'L1', 1, holder(i), [holder(i)]),
      ]).flat(),
      ...Array.from({ length: FILLERS }, (_, i) => [
        run(`r-filler-${i}`, 'L1', `filler-${i}`),
        evidence(`r-filler-${i}`, 1, unrelated(i)),
        memory(`r-filler-${i}`, 'L1', 1, unrelated(i), [unrelated(i)]),
      ]).flat(),
    ],
  });
});
afterAll(() => store.cleanup());

/** The store, recording the node ids each matchedTerms call was asked about. */
function spied(items: ItemStore): { items: ItemStore; asked: number[] } {
  const asked: number[] = [];
  const proxy = new Proxy(items, {
    get(target, name, receiver) {
      if (name === 'matchedTerms')
        return (matches: readonly string[], ids: readonly number[]) => {
          asked.push(...ids);
          return target.matchedTerms(matches, ids);
        };
      return Reflect.get(target, name, receiver) as unknown;
    },
  });
  return { items: proxy, asked };
}

describe('queryMemory: matched terms for the page, not for every candidate', () => {
  it('asks the store about the page’s rows only when BM25 alone decides the floor', async () => {
    const { items, asked } = spied(store.items);
    const answer = await queryMemory(
      { text: 'zeppelin hangar rockets', projects: ['demo'], limit: 2 },
      { items },
    );
    expect(answer.results).toHaveLength(2);
    for (const hit of answer.results) {
      expect(hit.ranking.keyword!.bm25_norm).toBeGreaterThanOrEqual(1.5);
      expect(hit.ranking.keyword!.matched_terms).toEqual(['zeppelin', 'hangar', 'rockets']);
      expect(hit.ranking.keyword!.coverage).toBe(1);
      expect(hit.ranking.floor_passed_by).toEqual(['keyword']);
    }
    const all = await queryMemory(
      { text: 'zeppelin hangar rockets', projects: ['demo'], limit: 20 },
      { items: store.items },
    );
    expect(all.results).toHaveLength(HOLDERS);
    // Not even those: each word is one FTS5 token, which the keyword recall's postings already
    // say each hit holds (keyword-recall.ts termsHeld).
    expect(asked).toEqual([]);
  });
});
