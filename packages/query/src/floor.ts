import type { Ranking, Signal } from './result.js';

/**
 * The relevance floor: absolute thresholds per signal. A candidate clears it when any signal it
 * was recalled by clears its threshold; when no candidate does, the query abstains. Absolute,
 * not relative to the best row, so the least-bad row of an unrelated store is not an answer.
 */
export interface RelevanceFloor {
  /** A keyword hit clears the floor holding at least this share of the searched terms (KeywordRank.coverage)… */
  minCoverage: number;
  /** …or with at least this normalised BM25 (KeywordRank.bm25_norm): a match on rare, distinctive terms. */
  minKeyword: number;
  /** Minimum cosine similarity of a vector hit (text or symptom), for this embedder. */
  minSimilarity: number;
}

/** The signals of a ranking that clear the floor, in signal order. */
export function floorPassedBy(ranking: Ranking, floor: RelevanceFloor): Signal[] {
  const passed: Signal[] = [];
  const keyword = ranking.keyword;
  if (
    keyword !== null &&
    (keyword.coverage >= floor.minCoverage || keyword.bm25_norm >= floor.minKeyword)
  )
    passed.push('keyword');
  if (ranking.vector_text !== null && ranking.vector_text.similarity >= floor.minSimilarity)
    passed.push('vector_text');
  if (ranking.vector_symptom !== null && ranking.vector_symptom.similarity >= floor.minSimilarity)
    passed.push('vector_symptom');
  return passed;
}

/**
 * Whether a ranking's keyword coverage can still move it across the floor: a keyword hit
 * whose BM25 falls short and that no vector signal carries over. Any other row clears the
 * floor or not whatever its coverage (which only adds `keyword` to a row already cleared).
 */
export function coverageDecides(ranking: Ranking, floor: RelevanceFloor): boolean {
  if (ranking.keyword === null || ranking.keyword.bm25_norm >= floor.minKeyword) return false;
  return floorPassedBy({ ...ranking, keyword: null }, floor).length === 0;
}
