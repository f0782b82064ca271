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
    /** Each phrase's hits if counted already (to one past the budget). */
    hits?: readonly number[];
  },
): KeywordCandidate[] | null {
  const { phrases, k, budget } = query;
  if (phrases.length < 2 || budget < k) return null;
  // Each phrase's hits, read to one past the budget: a phrase held by more is counted as that.
  const count = countStatement(prepared);
  const hits =
    query.hits?.slice() ??
    phrases.map((phrase) => (count.get({ phrase, cap: budget + 1 }) as { hits: number }).hits);
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

const countStatement = (prepared: (sql: string) => Database.Statement) =>
  prepared(
    'SELECT count(*) AS hits FROM (SELECT rowid FROM node_fts WHERE node_fts MATCH @phrase LIMIT @cap)',
  );

/*
 * DECISION (stop 28, issue 13 §5 "relevance first: a weaker keyword match never displaces a
 * stronger one"): a phrase that is both at FTS5's idf floor — held by at least half of
 * node_fts's rows, where bm25() clamps its idf to IDF_FLOOR (1e-6) — and held by more than
 * FLOOR_SCORED rows ("common") adds nothing to a find's relevance. Trigger: "theme loader 7" over
 * 100 k items, "theme" and "loader" in every one: the number matched one item, and the other
 * 999 of the best 1,000 differed only by 1e-6 × each text's term-frequency and length
 * normalisation, so choosing them exactly had FTS5 score all 100 k matches (~113 ms CPU). Why:
 * at the floor BM25 says the word does not tell matches apart (FTS5 clamps only to keep scores
 * positive); what is left of it is how often and in how short a text the word occurs. Where
 * that is cheap (a floor phrase with at most FLOOR_SCORED matches, so every small project) it
 * still orders matches exactly as before: "tokenizer tokenizer" outranks "tokenizer" in a
 * two-item store whatever the recency. Past it, no exact order of those matches exists without
 * scoring every one, and none is a stronger match in BM25's sense, so they tie. So a match
 * holding an above-floor phrase still outranks every match holding common phrases only, as it
 * did. What it means for a find with a common phrase:
 *   - relevance is BM25 over the find's other phrases, scored by FTS5 under their OR alone (a
 *     common word no longer adds its 1e-6 share), ties at the cut by rowid;
 *   - a match holding only common phrases has no relevance: all such matches tie, one rank past
 *     every match holding another phrase; when those are fewer than K, the rest of the
 *     candidates are common-only matches in rowid order — the order FTS5's ORDER BY rank broke
 *     ties in at the cut before (node ids are hashes of a node's key: fixed, not by time) — and
 *     the page orders them as any tie: pins, then recency among the candidates;
 *   - a find whose phrases are all common ranks every match equal (relevance rank 1).
 * What does not change: the total and held-back list count every match; matched_terms still
 * name common words an item holds; a find with no common phrase ranks exactly as before.
 * Left: the common-only candidates are not the most recent of them (that needs the items read
 * by recency and matched one by one); `mem query`'s keyword leg scores its own way.
 */

/** A floor phrase with more matches than this is "common" (DECISION above): FTS5 no longer scores it. */
export const FLOOR_SCORED = 5_000;

/** A find's phrases split into common ones and the rest, with each one's hits (counted to one past the larger of budget and FLOOR_SCORED). */
export interface FloorSplit {
  /** Indexes into the phrases of those that are not common: their relevance counts. */
  above: number[];
  /** Indexes of the common ones. */
  floor: number[];
  hits: number[];
}

/** What splitAtFloor learns of one phrase: its hits (to one past its cap) and whether it is common. */
export interface PhraseFloor {
  hits: number;
  common: boolean;
}

/**
 * Splits `phrases` into common ones (the DECISION above) and the rest, or null when none is
 * common (the find ranks as before). Each phrase's hits are counted to one past the larger of
 * the budget and `floorScored`; one held by more is at the floor when FTS5 yields a row at
 * half the rows' offset (no count past it). `known` keeps what was learnt of a phrase while
 * node_fts does not change (the caller clears it when it does): the walk to half the rows is
 * ~2.5 ms a common phrase at 114 k.
 */
export function splitAtFloor(
  prepared: (sql: string) => Database.Statement,
  phrases: readonly string[],
  budget: number,
  floorScored: number = FLOOR_SCORED,
  known: Map<string, PhraseFloor> = new Map(),
): FloorSplit | null {
  const cap = Math.max(budget, floorScored) + 1;
  const count = countStatement(prepared);
  let rows: number | undefined;
  // idf = ln((rows - n + 0.5) / (n + 0.5)) ≤ 0 exactly when n ≥ rows / 2.
  const atFloor = (phrase: string, hits: number) => {
    const half = Math.ceil((rows ??= ftsRowCount(prepared)) / 2);
    if (hits >= half) return true;
    return (
      prepared(
        'SELECT rowid FROM node_fts WHERE node_fts MATCH @phrase LIMIT 1 OFFSET @offset',
      ).get({ phrase, offset: half - 1 }) !== undefined
    );
  };
  const floors = phrases.map((phrase) => {
    let floor = known.get(phrase);
    if (floor === undefined) {
      const hits = (count.get({ phrase, cap }) as { hits: number }).hits;
      floor = { hits, common: hits > floorScored && atFloor(phrase, hits) };
      known.set(phrase, floor);
    }
    return floor;
  });
  const hits = floors.map((f) => f.hits);
  const floor = phrases.map((_, i) => i).filter((i) => floors[i]!.common);
  if (floor.length === 0) return null;
  return { above: phrases.map((_, i) => i).filter((i) => !floor.includes(i)), floor, hits };
}

/**
 * `scored` (matches holding an above-floor phrase, FTS5 ranks over those phrases) ranked as
 * rankedCandidates does, then `floorOnly` (delivered matches holding only floor phrases, none
 * of them in `scored`) in rowid order, each one rank past the scored ones, up to `k` in all.
 */
export function floorRankedCandidates(
  scored: readonly { node_id: number; score: number }[],
  floorOnly: readonly number[],
  k: number,
): KeywordCandidate[] {
  const head = rankedCandidates(scored, k);
  const relevance = head.length + 1;
  const tail = [...floorOnly]
    .sort((a, b) => a - b)
    .slice(0, k - head.length)
    .map((node_id) => ({ node_id, relevance }));
  return [...head, ...tail];
}

/**
 * The K best delivered matches of a find with a floor phrase (the DECISION above): the best
 * of its above-floor phrases (proven by boundedCandidates, else every such match scored by
 * FTS5 under their OR), then, when fewer than K, delivered matches of its floor phrases only,
 * read in rowid order from FTS5 and stopped at K: no floor-only match is scored.
 */
export function floorCandidates(
  prepared: (sql: string) => Database.Statement,
  query: {
    phrases: readonly string[];
    split: FloorSplit;
    delivered: string;
    params: Record<string, unknown>;
    k: number;
    budget: number;
  },
): KeywordCandidate[] {
  const { phrases, split, delivered, params, k } = query;
  let scored: { node_id: number; score: number }[] = [];
  if (split.above.length > 0) {
    const above = split.above.map((i) => phrases[i]!);
    const match = above.join(' OR ');
    const bounded = boundedCandidates(prepared, {
      phrases: above,
      match,
      delivered,
      params,
      k,
      budget: query.budget,
      hits: split.above.map((i) => split.hits[i]!),
    });
    if (bounded !== null) return bounded;
    scored = prepared(`SELECT f.rowid AS node_id, f.rank AS score
      FROM node_fts f CROSS JOIN item i ON i.node_id = f.rowid
      WHERE node_fts MATCH @match AND ${delivered} ORDER BY f.rank LIMIT @k`).all({
      ...params,
      match,
      k,
    }) as { node_id: number; score: number }[];
    if (scored.length >= k) return rankedCandidates(scored, k);
  }
  // Every delivered above-floor match is in `scored` (fewer than K): the rest hold floor phrases only.
  const floorOnly = (
    prepared(`SELECT f.rowid AS node_id FROM node_fts f CROSS JOIN item i ON i.node_id = f.rowid
      WHERE node_fts MATCH @floor AND ${delivered}
        AND +f.rowid NOT IN (SELECT value FROM json_each(@taken))
      ORDER BY f.rowid LIMIT @left`).all({
      ...params,
      floor: split.floor.map((i) => phrases[i]).join(' OR '),
      taken: JSON.stringify(scored.map((r) => r.node_id)),
      left: k - scored.length,
    }) as { node_id: number }[]
  ).map((r) => r.node_id);
  return floorRankedCandidates(scored, floorOnly, k);
}

/** FTS5's bm25() idf of a phrase matching `hits` of `rows` rows (clamped at IDF_FLOOR). */
function idf(rows: number, hits: number): number {
  return Math.max(Math.log((rows - hits + 0.5) / (hits + 0.5)), IDF_FLOOR);
}

/** The rows node_fts holds, as bm25() reads it: the first varint of FTS5's averages record (id 1). */
export function ftsRowCount(prepared: (sql: string) => Database.Statement): number {
  const row = prepared('SELECT block FROM node_fts_data WHERE id = 1').get() as
    { block: Uint8Array } | undefined;
  return row ? varints(row.block)[0]! : 0;
}
