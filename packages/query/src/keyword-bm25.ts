/*
 * Okapi BM25 as FTS5's bm25() computes it (k1 = 1.2, b = 0.75, its IDF and its clamp), but over
 * statistics the caller passes in: the query package passes those of the reachable set alone.
 */

const K1 = 1.2;
const B = 0.75;

/** FTS5's IDF of a term held by `df` of `nodes` nodes; FTS5 clamps an IDF ≤ 0 to 1e-6, and so does this. */
export function bm25Idf(nodes: number, df: number): number {
  const idf = Math.log((nodes - df + 0.5) / (df + 0.5));
  return idf > 0 ? idf : 1e-6;
}

/** One term's share of a node's BM25: it occurs `tf` times in a node of `length` tokens; the set averages `averageLength`. */
export function bm25Term(idf: number, tf: number, length: number, averageLength: number): number {
  return (idf * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * length) / averageLength));
}
