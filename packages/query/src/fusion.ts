import { FUSION_SIGNALS } from '@mem/core';
import type { QueryLevel } from './ports.js';
import type { KeywordRank, Ranking, Signal } from './result.js';
import { TIER_ORDER, tierOf } from './tier.js';

/** Reciprocal rank fusion's k (Cormack et al. 2009): damps the head so one list cannot dominate. */
export const RRF_K = 60;

/** A node as recall names it. */
export interface NodeKey {
  project: string;
  level: QueryLevel;
  sha256: string;
}

/** One signal's hits, best first: score is BM25 for keyword, cosine similarity for vectors. */
export interface SignalHit {
  key: NodeKey;
  score: number;
  /** Keyword hits: what the ranking reports beside BM25 (see KeywordRank). */
  keyword?: Omit<KeywordRank, 'rank' | 'bm25'>;
}

export type SignalLists = Partial<Record<Signal, readonly SignalHit[]>>;

/** A fused candidate: its key and its ranking (rerank and floor still empty). */
export interface Fused {
  key: NodeKey;
  ranking: Ranking;
}

/** Every signal, in the order rankings list them. */
export const SIGNALS: readonly Signal[] = FUSION_SIGNALS;

/** A node's identity as one string (project, level, sha256). */
export function nodeKeyString(key: NodeKey): string {
  return `${key.project}\u0000${key.level}\u0000${key.sha256}`;
}

/** How much each signal's ranks count in the fusion (1 = plain RRF). */
export type SignalWeights = Record<Signal, number>;

/** Plain RRF: every signal counts the same. */
export const EQUAL_WEIGHTS: SignalWeights = { keyword: 1, vector_text: 1, vector_symptom: 1 };

/** A signal's contribution in millionths: integers, so fusion is exact and order-independent. */
export function rrfMicro(rank: number, weight = 1): number {
  return Math.round((weight * 1e6) / (RRF_K + rank));
}

/**
 * Fuses ranked lists by (weighted) reciprocal rank: Σ weight / (60 + rank). A node's rank in a
 * list is its first position (1-based), shared with the nodes before it of an equal score; a node absent from a list gets nothing from it. `ran` names the signals the
 * query ran, so a ranking says when a signal was missing rather than silent.
 */
export function fuse(
  lists: SignalLists,
  ran: readonly Signal[],
  weights: SignalWeights = EQUAL_WEIGHTS,
): Fused[] {
  const byKey = new Map<string, Fused>();
  for (const signal of SIGNALS) {
    const hits = lists[signal];
    if (!hits) continue;
    let position = 0;
    let rank = 0;
    let previous: number | null = null;
    for (const hit of hits) {
      const id = nodeKeyString(hit.key);
      let fused = byKey.get(id);
      if (!fused) {
        fused = { key: hit.key, ranking: emptyRanking(ran) };
        byKey.set(id, fused);
      }
      if (fused.ranking[signal] !== null) continue; // a duplicate in one list counts once
      position += 1;
      // Equal scores share a rank (competition ranking, 1224): which of two equal matches a
      // list names first is no relevance, and the band order (band-order.ts) lets recency
      // decide between them instead.
      if (hit.score !== previous) rank = position;
      previous = hit.score;
      if (signal === 'keyword')
        fused.ranking.keyword = {
          rank,
          bm25: hit.score,
          bm25_norm: hit.score,
          matched_terms: [],
          coverage: 0,
          ...hit.keyword,
        };
      else fused.ranking[signal] = { rank, similarity: hit.score };
      fused.ranking.rrf_score_micro += rrfMicro(rank, weights[signal]);
    }
  }
  return [...byKey.values()].sort(compareFused);
}

function emptyRanking(ran: readonly Signal[]): Ranking {
  return {
    signals: SIGNALS.filter((s) => ran.includes(s)),
    keyword: null,
    vector_text: null,
    vector_symptom: null,
    rrf_score_micro: 0,
    rerank: null,
    floor_passed_by: [],
    order: null,
  };
}

/**
 * The total order of results: reranked before not reranked; then the score (the rerank score
 * when reranked, else the fused one); at an equal score the tier decides (L1/L2 before L0 before
 * R, seed 001: learned outranks documented by rule); then the fused score, level, project and
 * sha256, so no two results tie.
 */
export function compareFused(a: Fused, b: Fused): number {
  const ra = a.ranking.rerank;
  const rb = b.ranking.rerank;
  if ((ra === null) !== (rb === null)) return ra === null ? 1 : -1;
  const reranked = ra !== null && rb !== null;
  if (reranked && ra.score !== rb.score) return rb.score - ra.score;
  const fused = b.ranking.rrf_score_micro - a.ranking.rrf_score_micro;
  if (!reranked && fused !== 0) return fused;
  const tier = TIER_ORDER.indexOf(tierOf(a.key.level)) - TIER_ORDER.indexOf(tierOf(b.key.level));
  if (tier !== 0) return tier;
  if (fused !== 0) return fused;
  return (
    compareStrings(a.key.level, b.key.level) ||
    compareStrings(a.key.project, b.key.project) ||
    compareStrings(a.key.sha256, b.key.sha256)
  );
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
