import { MemError } from '@mem/core';
import type { Fused } from './fusion.js';
import type { Reranker } from './ports.js';

/**
 * Scores the candidates with the reranker and writes `ranking.rerank` (rank 1 = best score).
 * The caller passes the head of the fused order that survived the floor: a reranker reorders,
 * it never brings back what recall or the floor left out.
 */
export async function rerankCandidates(
  reranker: Reranker,
  query: string,
  candidates: readonly Fused[],
  texts: readonly string[],
): Promise<void> {
  if (candidates.length === 0) return;
  const scores = await reranker.rerank(query, texts);
  if (
    scores.length !== candidates.length ||
    scores.some((s) => typeof s !== 'number' || !Number.isFinite(s))
  ) {
    throw new MemError(
      'MODEL_FAILED',
      `reranker ${reranker.name}: expected ${candidates.length} finite scores, got ${JSON.stringify(scores).slice(0, 200)}`,
      {
        reranker: reranker.name,
      },
    );
  }
  const order = scores
    .map((score, i) => ({ score, i }))
    .sort((a, b) => b.score - a.score || a.i - b.i);
  order.forEach(({ score, i }, position) => {
    candidates[i]!.ranking.rerank = { rank: position + 1, score };
  });
}
