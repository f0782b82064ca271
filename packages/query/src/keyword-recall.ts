import type { ItemStore, KeywordPosting, KeywordStatistics, NodeRow } from '@mem/projector-sqlite';
import type { SignalHit } from './fusion.js';
import { bm25Idf, bm25Term } from './keyword-bm25.js';
import type { QueryLevel } from './ports.js';

/**
 * `or`: every node holding a term, ranked by BM25. `and-then-or`: nodes holding every term first
 * (by BM25), then the other hits — so a complete match can never rank below a partial one.
 */
export type KeywordStrategy = 'or' | 'and-then-or';

export interface RecallFilter {
  projects: readonly string[];
  levels: readonly QueryLevel[];
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
 * is read and scored, so a pasted log of 32 common words would cost hundreds of milliseconds;
 * the commonest words weigh least in BM25. Terms left out are scored on the best candidates
 * only, and still count in matched_terms and coverage. Returns the kept terms in their
 * original order.
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
 * Candidates a bounded term's postings are read for (at least the recall depth): the best by
 * the searched terms' BM25. A term in every node then costs this many rows, not N.
 */
export const RESCORED_CANDIDATES = 1_000;

/**
 * Keyword recall over the reachable set alone: the projects and levels of `filter`, live nodes
 * only. Decision: BM25's statistics (N, average length, each term's document frequency) are
 * those of exactly the set the recall may return — the levels filter included — so the answer,
 * its scores and the postings budget are a function of what the caller can be shown and of
 * nothing else (FTS5's own bm25() counts every project, level and tombstoned node).
 *
 * Work is bounded, not proportional to the postings: at most `budget` + 1 postings of a token
 * are read (a token held by more is counted inside SQLite, one row back), the rarest terms
 * within `budget` postings are searched and their nodes become the candidates; the commonest
 * terms (`leftOut`) are not searched but still scored, exactly, on the best
 * RESCORED_CANDIDATES candidates — for those nodes only. When no term is left out every node holding a term is scored, and the
 * answer is the exhaustive BM25 ranking.
 */
export function recallKeyword(
  items: ItemStore,
  terms: readonly string[],
  filter: RecallFilter,
  depth: number,
  strategy: KeywordStrategy,
  budget: number,
): { hits: SignalHit[]; nodes: NodeRow[]; leftOut: string[]; held: TermsHeld } {
  if (terms.length === 0 || filter.projects.length === 0 || filter.levels.length === 0)
    return { hits: [], nodes: [], leftOut: [], held: { byNode: new Map(), others: [] } };
  const set = {
    projects: filter.projects,
    levels: filter.levels,
    includeSuperseded: filter.includeSuperseded === true,
  };
  const tokensOf = items.ftsTokens(terms);
  const tokens = [...new Set(tokensOf.flat())];
  // Each token's postings, read up to one past the budget: a token held by more nodes than
  // that is never searched (unless it is the rarest), so only its count is asked for.
  const read = new Map(
    tokens.map((token) => [token, items.tokenPostings(token, set, { limit: budget + 1 })]),
  );
  const df = new Map(
    tokens.map((token) => {
      const list = read.get(token)!;
      return [token, list.length <= budget ? list.length : items.tokenFrequency(token, set)];
    }),
  );
  const frequencies = tokensOf.map((ts) => ts.reduce((sum, token) => sum + df.get(token)!, 0));
  const { kept, leftOut } = termsWithinBudget(terms, frequencies, budget);
  const keptTokens = tokensOf.filter((_, i) => kept.includes(terms[i]!));
  const statistics = items.keywordStatistics(set);
  const scoring = { tokens, df, statistics };
  const searched = new Set(keptTokens.flat());
  const candidates = new Map<number, Candidate>();
  for (const token of tokens) {
    if (!searched.has(token)) continue;
    const whole = read.get(token)!.length === df.get(token)! ? read.get(token)! : null;
    addPostings(candidates, token, whole ?? items.tokenPostings(token, set), scoring);
  }
  if (candidates.size === 0)
    return { hits: [], nodes: [], leftOut, held: { byNode: new Map(), others: [] } };
  // `and-then-or`: nodes holding every searched term first; each group in BM25 order.
  const groups = strategy === 'and-then-or' && kept.length > 1;
  for (const node of candidates.values())
    node.complete =
      groups && keptTokens.every((ts) => ts.length > 0 && ts.every((t) => node.tokens.has(t)))
        ? 1
        : 0;
  const order = (a: Candidate, b: Candidate) =>
    b.complete - a.complete || b.bm25 - a.bm25 || a.id - b.id;
  let ranked = [...candidates.values()].map(summed).sort(order);
  const unsearched = tokens.filter((token) => !searched.has(token));
  if (unsearched.length > 0) {
    // Trigger: terms left out of the search. Why: each weighs least (the commonest), yet a
    // pasted log is mostly such words; dropping them would rank by a few words of sixty.
    // Outcome: they are scored on the best candidates only, and the ranking is over those.
    ranked = ranked.slice(0, Math.max(RESCORED_CANDIDATES, depth));
    const head = new Map(ranked.map((node) => [node.id, node]));
    const ids = ranked.map((node) => node.id).sort((a, b) => a - b);
    for (const token of unsearched) {
      const whole = read.get(token)!.length === df.get(token)! ? read.get(token)! : null;
      const postings = whole
        ? whole.filter((posting) => head.has(posting.id))
        : items.tokenPostings(token, set, { ids });
      addPostings(head, token, postings, scoring);
    }
    ranked = ranked.map(summed).sort(order);
  }
  const top = ranked.slice(0, depth);
  const nodes = items.nodesById(top.map((hit) => hit.id));
  const scale = singleNodeIdf(statistics.nodes);
  return {
    hits: top.map((hit, i) => {
      const node = nodes[i]!;
      const { bm25 } = hit;
      return {
        key: { project: node.project, level: node.level, sha256: node.sha256 },
        score: bm25,
        keyword: { bm25_norm: bm25 / scale, matched_terms: [], coverage: 0 },
      };
    }),
    nodes,
    leftOut,
    held: termsHeld(tokensOf, top),
  };
}

/**
 * Which terms each hit holds, for the terms FTS5 indexes as one token (`others`: the indexes
 * of the rest, a phrase of several tokens or none, which FTS5 must still be asked about).
 */
export interface TermsHeld {
  /** Node id → indexes into the terms, ascending: the one-token terms the node holds. */
  byNode: ReadonlyMap<number, readonly number[]>;
  others: readonly number[];
}

/**
 * TermsHeld of the hits, from the tokens their postings brought: every hit is among the best
 * candidates, which every term's postings were read for (searched, or rescored), so a
 * one-token term is held exactly when its token's postings hold the node — what
 * `MATCH '"term"'` finds, asked of FTS5 one term at a time (matched-terms.ts).
 */
function termsHeld(tokensOf: readonly string[][], top: readonly Candidate[]): TermsHeld {
  const single = tokensOf.map((ts) => (ts.length === 1 ? ts[0]! : null));
  const byNode = new Map<number, number[]>();
  for (const hit of top)
    byNode.set(
      hit.id,
      single.flatMap((token, i) => (token !== null && hit.tokens.has(token) ? [i] : [])),
    );
  return { byNode, others: single.flatMap((token, i) => (token === null ? [i] : [])) };
}

interface Candidate {
  id: number;
  /** Each token's share of the node's BM25, by the token's index in the query (0: not held). */
  parts: Float64Array;
  tokens: Set<string>;
  bm25: number;
  /** 1 when an `and-then-or` recall finds every searched term in the node. */
  complete: number;
}

interface Scoring {
  tokens: readonly string[];
  df: ReadonlyMap<string, number>;
  statistics: KeywordStatistics;
}

/** Adds a token's BM25 share to the nodes of its postings, each becoming a candidate. */
function addPostings(
  candidates: Map<number, Candidate>,
  token: string,
  postings: readonly KeywordPosting[],
  { tokens, df, statistics }: Scoring,
): void {
  const index = tokens.indexOf(token);
  const idf = bm25Idf(statistics.nodes, df.get(token)!);
  const averageLength = statistics.tokens / statistics.nodes;
  for (const { id, tf, length } of postings) {
    let node = candidates.get(id);
    if (!node) {
      node = {
        id,
        parts: new Float64Array(tokens.length),
        tokens: new Set(),
        bm25: 0,
        complete: 0,
      };
      candidates.set(id, node);
    }
    node.parts[index] = bm25Term(idf, tf, length, averageLength);
    node.tokens.add(token);
  }
}

/** Sets BM25, summed in token order whatever order the shares came in: the same sum, the same float, every time. */
function summed(node: Candidate): Candidate {
  node.bm25 = node.parts.reduce((sum, part) => sum + part, 0);
  return node;
}
