import type Database from 'better-sqlite3';
import type { KeywordPosting, PostingsOptions } from './keyword-statistics.js';

/*
 * A small reachable set's own FTS5 index (issue 15 §2). Trigger: a recall over one project's
 * lines at the default levels — 2,400 of 120,000 nodes on the query bench. Why: node_fts's
 * postings of a term are those of every project and level; reading a common term's 8,000 (and
 * looking each up in `reachable`) to keep the set's 36 cost ~1.4 ms a term, a pasted log's 32
 * terms ~20 ms, all of it on nodes the recall may not return. Outcome: the set's texts are
 * indexed once (node_fts's tokenizer, so the same tokens, counts and lengths) in a pooled temp
 * FTS5 table, and each term's postings are read there: ~0.05 ms a term at that size.
 */

/**
 * Pooled temp tables: at most this many sets are indexed at once, the least recently used giving
 * way (a server answering five projects must not rebuild one index per query).
 */
export const SET_INDEXES = 16;
/**
 * A set is indexed only when node_fts holds at least this many times its nodes: reading a large
 * set's postings from node_fts wastes at most that factor, and indexing it costs a copy.
 */
export const SET_INDEX_SHARE = 4;
/**
 * FTS5 tokens all the indexed sets hold together at most: the least recently used give way, and
 * a larger set is not indexed. Bounds the temp indexes' size (a few bytes a token).
 */
export const SET_INDEX_MAX_TOKENS = 4_000_000;
/**
 * Postings reads (of a term, or its frequency) a set takes from node_fts after the store last
 * changed before it is indexed: rent, then buy. A question asks 3–6 terms, a pasted log up to
 * 32, so a set is indexed in its second or third question or its first log; a set asked once
 * between two writes never pays for an index.
 */
export const SET_INDEX_AFTER_READS = 8;

/** One pooled table, holding the set of `slot` (in `temp.reachable`) while `slot` is not null. */
export interface SetIndex {
  slot: number | null;
  fill(slot: number): void;
  /** Empties the table (the store changed: a forgotten text's tokens leave with it). */
  release(): void;
  postings(token: string, slot: number, options: PostingsOptions): KeywordPosting[];
  frequency(token: string): number;
}

/**
 * A term's postings in the reachable set of `slot`, read from the fts5vocab instance table
 * `instances` (node_fts's, or a set index's): one pair of statements for both, so both give the
 * same rows. CROSS JOIN keeps the term's postings as the outer loop, each one lookup in
 * `reachable`; with `ids`, the IN filter runs on each posting before the lookup, so only the
 * candidates' rows come back.
 */
export function postingsReader(
  db: Database.Database,
  instances: string,
): (token: string, slot: number, options: PostingsOptions) => KeywordPosting[] {
  const all = db.prepare(`SELECT i.doc AS id, count(*) AS tf, r.length AS length
    FROM ${instances} i CROSS JOIN temp.reachable r ON r.slot = @slot AND r.id = i.doc
    WHERE i.term = @token GROUP BY i.doc ORDER BY i.doc LIMIT @limit`);
  const candidates = db.prepare(`SELECT i.doc AS id, count(*) AS tf, r.length AS length
    FROM ${instances} i CROSS JOIN temp.reachable r ON r.slot = @slot AND r.id = i.doc
    WHERE i.term = @token AND i.doc IN (SELECT value FROM json_each(@ids))
    GROUP BY i.doc ORDER BY i.doc`);
  return (token, slot, options) =>
    (options.ids === undefined
      ? all.all({ token, slot, limit: options.limit ?? -1 })
      : candidates.all({ token, slot, ids: JSON.stringify(options.ids) })) as KeywordPosting[];
}

/** The `n`th pooled index table of a connection, created on first use. */
export function setIndex(db: Database.Database, tokenize: string, n: number): SetIndex {
  const table = `set_fts_${n}`;
  // Contentless: node holds the text; 'delete-all' empties it for the next set.
  db.exec(`CREATE VIRTUAL TABLE temp.${table} USING fts5 (text, content = '', ${tokenize});
    CREATE VIRTUAL TABLE temp.${table}_instance USING fts5vocab (temp, ${table}, instance);
    CREATE VIRTUAL TABLE temp.${table}_row USING fts5vocab (temp, ${table}, row);`);
  const clear = db.prepare(`INSERT INTO temp.${table} (${table}) VALUES ('delete-all')`);
  const fill = db.prepare(`INSERT INTO temp.${table} (rowid, text)
    SELECT n.id, mem_fts_text(n.text) FROM temp.reachable r JOIN node n ON n.id = r.id WHERE r.slot = ?`);
  const postings = postingsReader(db, `temp.${table}_instance`);
  const frequency = db
    .prepare(`SELECT coalesce((SELECT doc FROM temp.${table}_row WHERE term = ?), 0)`)
    .pluck();
  const index: SetIndex = {
    slot: null,
    fill(slot) {
      db.transaction(() => {
        clear.run();
        fill.run(slot);
      })();
      index.slot = slot;
    },
    release() {
      if (index.slot === null) return;
      clear.run();
      index.slot = null;
    },
    postings,
    frequency: (token) => frequency.get(token) as number,
  };
  return index;
}
