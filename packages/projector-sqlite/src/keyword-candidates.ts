import type Database from 'better-sqlite3';
import { varints } from './keyword-statistics.js';

/*
 * A keyword find's candidates — its best K delivered matches by FTS5's BM25 over node_fts, equal
 * scores by rowid (the order FTS5's ORDER BY rank gives them) — found without scoring every
 * match when a bound proves them (MaxScore, one step). Trigger: a query mixing a selective term
 * with words most items hold ("thread theme loader" over 100 k items). Why: ORDER BY rank made
 * FTS5 score and sort every match (~0.8 µs a match at 100 k) to keep K. Outcome: the rarest
 * phrases within a postings budget are searched alone; their delivered matches are scored by
 * FTS5 itself under the whole query (the same statistics and floats as ORDER BY rank: only
 * rows that pass `+rowid IN` are scored) and the K-th of them must beat every score a match
 * holding none of those phrases can reach: each other phrase adds less than idf × (k1 + 1). Proven,
 * the K best are the answer; else null, and the caller ranks every match as before. What stays:
 * FTS5 still walks every match's postings for the whole query, and bm25() counts each phrase's
 * hits once (its idf). The query package's keyword leg bounds its work the same way (rarest
 * terms within a budget, a term's postings read to one past it) but scores in JavaScript over
 * its own statistics; a find must give FTS5's floats (its log and its compiler's arithmetic), so
 * FTS5 scores.
 */

/** FTS5's bm25() k1: a term's share of a score is below idf × (k1 + 1), whatever its tf. */
const K1 = 1.2;
/** FTS5 clamps an idf ≤ 0 to this. */
const IDF_FLOOR = 1e-6;

/** The postings a find may search to prove its candidates: at most one past this per term. */
export const KEYWORD_BUDGET = 5_000;

/** One candidate: the node, and its relevance rank among the candidates (equal scores share one). */
export interface KeywordCandidate {
  node_id: number;
  relevance: number;
}

/**
 * The K best delivered matches of `phrases` (each one FTS5 phrase, the query their OR), or null
 * when the bound does not prove them within `budget` postings. `delivered` is a SQL condition
 * on `i`, the item of a match (its params in `params`); `match` is the phrases' OR.
 */
export function boundedCandidates(
  prepared: (sql: string) => Database.Statement,
  query: {
    phrases: readonly string[];
    match: string;
    delivered: string;
    params: Record<string, unknown>;
    k: number;
    budget: number;
  },
): KeywordCandidate[] | null {
  const { phrases, k, budget } = query;
  if (phrases.length < 2 || budget < k) return null;
  // Each phrase's hits, read to one past the budget: a phrase held by more is counted as that.
  const count = prepared(
    'SELECT count(*) AS hits FROM (SELECT rowid FROM node_fts WHERE node_fts MATCH @phrase LIMIT @cap)',
  );
  const hits = phrases.map(
    (phrase) => (count.get({ phrase, cap: budget + 1 }) as { hits: number }).hits,
  );
  const byRarity = phrases.map((_, i) => i).sort((a, b) => hits[a]! - hits[b]! || a - b);
  const searched: number[] = [];
  let postings = 0;
  for (const i of byRarity) {
    if (postings + hits[i]! > budget) break;
    searched.push(i);
    postings += hits[i]!;
  }
  // Nothing left out (every match is a candidate) or too few to hold K: rank them all.
  if (searched.length === 0 || searched.length === phrases.length || postings < k) return null;
  const scored = prepared(`SELECT f.rowid AS node_id, f.rank AS score FROM node_fts f
      WHERE node_fts MATCH @match AND +f.rowid IN (SELECT i.node_id
        FROM (SELECT rowid FROM node_fts WHERE node_fts MATCH @searched) s
        CROSS JOIN item i ON i.node_id = s.rowid WHERE ${query.delivered})`).all({
    ...query.params,
    match: query.match,
    searched: searched.map((i) => phrases[i]).join(' OR '),
  }) as { node_id: number; score: number }[];
  if (scored.length < k) return null;
  scored.sort((a, b) => a.score - b.score || a.node_id - b.node_id);
  // A match holding no searched phrase scores below the left-out phrases' bound; the K-th must
  // beat it (the margin covers rounding in the bound's sum, never a real score gap). Each
  // left-out phrase weighs at most by the idf of its hits so far (one past the budget); when
  // that is too loose, its hits are counted on inside SQLite (one row back) up to half the
  // rows, where its idf reaches FTS5's floor, and the bound tried again.
  const rows = ftsRowCount(prepared);
  const kth = -scored[k - 1]!.score;
  const leftOut = phrases.map((_, i) => i).filter((i) => !searched.includes(i));
  const beats = () =>
    kth > leftOut.reduce((sum, i) => sum + idf(rows, hits[i]!) * (K1 + 1), 0) * (1 + 1e-9);
  if (!beats()) {
    const cap = Math.ceil(rows / 2);
    for (const i of leftOut)
      if (hits[i]! > budget)
        hits[i] = (count.get({ phrase: phrases[i], cap }) as { hits: number }).hits;
    if (!beats()) return null;
  }
  return rankedCandidates(scored, k);
}

/**
 * The `k` best of `scored` (FTS5 ranks: bm25 negated) in FTS5's ORDER BY rank order — rank, then
 * rowid — each with its relevance rank (rank() over the score: equal scores share one).
 */
export function rankedCandidates(
  scored: readonly { node_id: number; score: number }[],
  k: number,
): KeywordCandidate[] {
  const sorted = [...scored].sort((a, b) => a.score - b.score || a.node_id - b.node_id);
  const out: KeywordCandidate[] = [];
  for (let i = 0; i < Math.min(k, sorted.length); i += 1) {
    const tied = i > 0 && sorted[i]!.score === sorted[i - 1]!.score;
    out.push({ node_id: sorted[i]!.node_id, relevance: tied ? out[i - 1]!.relevance : i + 1 });
  }
  return out;
}

/** FTS5's bm25() idf of a phrase matching `hits` of `rows` rows (clamped at IDF_FLOOR). */
function idf(rows: number, hits: number): number {
  return Math.max(Math.log((rows - hits + 0.5) / (hits + 0.5)), IDF_FLOOR);
}

/** The rows node_fts holds, as bm25() reads it: the first varint of FTS5's averages record (id 1). */
function ftsRowCount(prepared: (sql: string) => Database.Statement): number {
  const row = prepared('SELECT block FROM node_fts_data WHERE id = 1').get() as
    { block: Uint8Array } | undefined;
  return row ? varints(row.block)[0]! : 0;
}
