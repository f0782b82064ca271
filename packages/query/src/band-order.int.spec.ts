import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  evidence,
  fillerNotes,
  linedMemory,
  run,
  sha,
  type TestStore,
  testStore,
} from '../test/store.js';
import { queryMemory } from './query-memory.js';

/*
 * Issue 13 §5 on a real SQLite store: inside a relevance band recency orders, and a temporal
 * cue in the query doubles its weight. Each fact is appended as its own memory, in order, so
 * the later one has the higher seq.
 */

// Equal BM25 for "parser": the same length, the term once each.
const OLD_TIE = 'The parser was rewritten on Friday by Bob.';
const NEW_TIE = 'The parser was rewritten on Monday by Ann.';
// "tokenizer": the older line holds it twice (stronger), the newer once, in the same band.
const OLD_STRONG = 'The tokenizer tokenizer splits words at hyphens now.';
const NEW_WEAK = 'The tokenizer splits words at quotes and dashes now.';

let store: TestStore;

function fact(runId: string, t: number, text: string) {
  return [
    run(runId, 'L1', runId),
    evidence(runId, t, text),
    linedMemory(runId, 'L1', t, [[text, [text]]]),
  ];
}

beforeAll(async () => {
  store = await testStore({
    demo: [
      ...fact('r-old-tie', 1, OLD_TIE),
      ...fact('r-old-strong', 2, OLD_STRONG),
      ...fillerNotes(6),
      ...fact('r-new-tie', 3, NEW_TIE),
      ...fact('r-new-weak', 4, NEW_WEAK),
    ],
  });
});
afterAll(() => store.cleanup());

const lines = async (text: string) =>
  (await queryMemory({ text, projects: ['demo'], levels: ['L1'] }, { items: store.items })).results;

describe('mem query: relevance bands, then recency (issue 13 §5)', () => {
  it('orders lines of equal relevance newest first, and says why', async () => {
    const results = await lines('who rewrote the parser');
    expect(results.map((r) => r.sha256).slice(0, 2)).toEqual([sha(NEW_TIE), sha(OLD_TIE)]);
    expect(results[0]!.ranking.order).toMatchObject({
      relevance_rank: 1,
      recency_rank: 1,
      usage_rank: null,
      pinned: false,
      temporal_cue: null,
    });
    expect(results[1]!.ranking.order.relevance_rank).toBe(1);
    expect(results[0]!.ranking.order.band).toBe(results[1]!.ranking.order.band);
  });

  it('a temporal cue doubles recency but never lifts the weaker newer line over the stronger older one', async () => {
    const plain = await lines('tokenizer splits');
    expect(plain.map((r) => r.sha256).slice(0, 2)).toEqual([sha(OLD_STRONG), sha(NEW_WEAK)]);
    const cued = await lines('latest tokenizer splits');
    // Relevance first: the two are a rank apart, so in different bands; the cue orders only
    // near-equal relevance (band-order.unit.spec.ts).
    expect(cued.map((r) => r.sha256).slice(0, 2)).toEqual([sha(OLD_STRONG), sha(NEW_WEAK)]);
    expect(cued[0]!.ranking.order).toMatchObject({
      temporal_cue: 'latest',
      weights: { relevance: 1, recency: 2, usage: 1 },
    });
    expect(Number.isInteger(cued[0]!.ranking.order.fused_score_micro)).toBe(true);
  });
});
