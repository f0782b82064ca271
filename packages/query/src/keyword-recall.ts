import type { ItemStore, KeywordPosting, KeywordStatistics, NodeRow } from '@mem/projector-sqlite';
import type { SignalHit } from './fusion.js';
import { bm25Idf, bm25Term } from './keyword-bm25.js';
import type { RecallLevel } from './ports.js';

/**
 * `or`: every node holding a term, ranked by BM25. `and-then-or`: nodes holding every term first
 * (by BM25), then the other hits — so a complete match can never rank below a partial one.
 */
export type KeywordStrategy = 'or' | 'and-then-or';

export interface RecallFilter {
  projects: readonly string[];
  levels: readonly RecallLevel[];
  /** Also lines a `superseded` event replaced (keyword recall only: the vector index drops them). */
  includeSuperseded?: boolean;
}

/**
 * FTS5's IDF of a term found in one of `indexed` nodes — the most one matched term can weigh
 * (FTS5 clamps an IDF ≤ 0 to 1e-6, and so does this).
 */
export function singleNodeIdf(indexed: number): number {
  return bm25Idf(indexed, 1);
}

/**
 * The terms a recall searches for: the rarest first while their postings (document
 * frequencies in the reachable set) fit `budget`, the rarest always. Every posting of a kept term
 * is scored and sorted, so a pasted log of 32 common words would cost hundreds of
 * milliseconds; the commonest words weigh least in BM25. Terms left out still count in
 * matched_terms and coverage. Returns the kept terms in their original order.
 */
export function termsWithinBudget(
  terms: readonly string[],
  frequencies: readonly number[],
  budget: number,
): { kept: string[]; leftOut: string[] } {
  const byRarity = terms
    .map((term, i) => ({ term, i, df: frequencies[i] ?? 0 }))
    .sort((a, b) => a.df - b.df || a.i - b.i);
  const keep = new Set<number>();
  let postings = 0;
  for (const { i, df } of byRarity) {
    if (keep.size > 0 && postings + df > budget) continue;
    keep.add(i);
    postings += df;
  }
  return {
    kept: terms.filter((_, i) => keep.has(i)),
    leftOut: terms.filter((_, i) => !keep.has(i)),
  };
}

/**
 * Keyword recall over the reachable set alone: the projects and levels of `filter`, live nodes
 * only. Decision: BM25's statistics (N, average length, each term's document frequency) are
 * those of exactly the set the recall may return — the levels filter included — so the answer,
 * its scores and the postings budget are a function of what the caller can be shown and of
 * nothing else (FTS5's own bm25() counts every project, level and tombstoned node). FTS5
 * supplies the tokens and, per token, the nodes holding it with their term frequencies and
 * lengths; every posting of the kept terms in the set is scored, so no cut depends on other rows.
 */
export function recallKeyword(
  items: ItemStore,
  terms: readonly string[],
  filter: RecallFilter,
  depth: number,
  strategy: KeywordStrategy,
  budget: number,
): { hits: SignalHit[]; nodes: NodeRow[]; leftOut: string[] } {
  if (terms.length === 0 || filter.projects.length === 0 || filter.levels.length === 0)
    return { hits: [], nodes: [], leftOut: [] };
  const set = {
    projects: filter.projects,
    levels: filter.levels,
    includeSuperseded: filter.includeSuperseded === true,
  };
  const tokensOf = items.ftsTokens(terms);
  const postings = new Map<string, KeywordPosting[]>();
  for (const token of tokensOf.flat())
    if (!postings.has(token)) postings.set(token, items.tokenPostings(token, set));
  const frequencies = tokensOf.map((tokens) =>
    tokens.reduce((sum, token) => sum + postings.get(token)!.length, 0),
  );
  const { kept, leftOut } = termsWithinBudget(terms, frequencies, budget);
  const keptTokens = tokensOf.filter((_, i) => kept.includes(terms[i]!));
  const scored = scoreNodes(keptTokens, postings, items.keywordStatistics(set));
  if (scored.length === 0) return { hits: [], nodes: [], leftOut };
  // `and-then-or`: nodes holding every kept term first; stable, so each group stays in BM25 order.
  const complete = (node: ScoredNode) =>
    strategy === 'and-then-or' && kept.length > 1 && node.terms === keptTokens.length ? 1 : 0;
  scored.sort((a, b) => complete(b) - complete(a) || b.bm25 - a.bm25 || a.id - b.id);
  const top = scored.slice(0, depth);
  const nodes = items.nodesById(top.map((hit) => hit.id));
  const scale = singleNodeIdf(items.keywordStatistics(set).nodes);
  return {
    hits: top.map(({ bm25 }, i) => {
      const node = nodes[i]!;
      return {
        key: { project: node.project, level: node.level, sha256: node.sha256 },
        score: bm25,
        keyword: { bm25_norm: bm25 / scale, matched_terms: [], coverage: 0 },
      };
    }),
    nodes,
    leftOut,
  };
}

interface ScoredNode {
  id: number;
  bm25: number;
  /** How many of the kept terms (all of their tokens) the node holds. */
  terms: number;
}

/** BM25 of every node holding a kept token, summed in term order (the same sum, the same float, every time). */
function scoreNodes(
  keptTokens: readonly string[][],
  postings: ReadonlyMap<string, KeywordPosting[]>,
  statistics: KeywordStatistics,
): ScoredNode[] {
  const byId = new Map<number, ScoredNode & { tokens: Set<string> }>();
  const averageLength = statistics.tokens / statistics.nodes;
  for (const token of new Set(keptTokens.flat())) {
    const list = postings.get(token)!;
    const idf = bm25Idf(statistics.nodes, list.length);
    for (const { id, tf, length } of list) {
      let node = byId.get(id);
      if (!node) byId.set(id, (node = { id, bm25: 0, terms: 0, tokens: new Set() }));
      node.bm25 += bm25Term(idf, tf, length, averageLength);
      node.tokens.add(token);
    }
  }
  return [...byId.values()].map(({ id, bm25, tokens }) => ({
    id,
    bm25,
    terms: keptTokens.filter((ts) => ts.length > 0 && ts.every((t) => tokens.has(t))).length,
  }));
}
