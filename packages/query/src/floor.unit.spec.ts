import { describe, expect, it } from 'vitest';
import { floorPassedBy } from './floor.js';
import type { Ranking } from './result.js';

const base: Ranking = {
  signals: ['keyword', 'vector_text', 'vector_symptom'],
  keyword: null,
  vector_text: null,
  vector_symptom: null,
  rrf_score_micro: 0,
  rerank: null,
  floor_passed_by: [],
  order: null,
};
const floor = { minCoverage: 0.8, minKeyword: 0.7, minSimilarity: 0.3 };

describe('floorPassedBy', () => {
  it('names every signal whose score clears its absolute threshold', () => {
    expect(
      floorPassedBy(
        {
          ...base,
          keyword: { rank: 1, bm25: 9, bm25_norm: 0.7, matched_terms: [], coverage: 0.5 },
          vector_symptom: { rank: 1, similarity: 0.31 },
        },
        floor,
      ),
    ).toEqual(['keyword', 'vector_symptom']);
    expect(floorPassedBy({ ...base, vector_text: { rank: 1, similarity: 0.3 } }, floor)).toEqual([
      'vector_text',
    ]);
    // A keyword hit holding enough of the searched terms clears it whatever its BM25.
    expect(
      floorPassedBy(
        {
          ...base,
          keyword: { rank: 3, bm25: 1, bm25_norm: 0.1, matched_terms: ['a', 'b'], coverage: 0.8 },
        },
        floor,
      ),
    ).toEqual(['keyword']);
  });

  it('is empty below every threshold, however good the rank', () => {
    expect(
      floorPassedBy(
        {
          ...base,
          keyword: { rank: 1, bm25: 30, bm25_norm: 0.69, matched_terms: [], coverage: 0.79 },
          vector_text: { rank: 1, similarity: 0.29 },
        },
        floor,
      ),
    ).toEqual([]);
    expect(floorPassedBy(base, floor)).toEqual([]);
  });
});
