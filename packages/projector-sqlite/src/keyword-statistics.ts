import type Database from 'better-sqlite3';
import type { NodeLevel } from './rows.js';

/**
 * What BM25 counts, read over exactly one reachable set of nodes — never over the whole FTS5
 * index, whose statistics (N, average length, document frequency) span every project: scored
 * by FTS5's own bm25(), project A's scores, order and abstention would move with project B's
 * content, and say whether B holds a word.
 */

/**
 * The nodes a keyword recall may return: these projects × these levels, live (not deleted, not
 * superseded), and never a whole memory: an L1/L2 answer is one of its lines (issue 11 §3).
 */
export interface ReachableSet {
  projects: readonly string[];
  levels: readonly NodeLevel[];
  /**
   * Also the lines a `superseded` event replaced (issue 12: history on request). Never a
   * forgotten line, and never a line only its memory's chain retired.
   */
  includeSuperseded?: boolean;
}

/** BM25's corpus statistics over a reachable set: N and the summed length (FTS5 tokens). */
export interface KeywordStatistics {
  nodes: number;
  tokens: number;
}

/** One node of the reachable set holding a token: how often, and its length in FTS5 tokens. */
export interface KeywordPosting {
  id: number;
  tf: number;
  length: number;
}

const REACHABLE = `n.project IN (SELECT value FROM json_each(@projects)) AND n.level IN (SELECT value FROM json_each(@levels))
  AND n.deleted_at IS NULL AND n.kind <> 'memory'
  AND (n.superseded_by IS NULL OR (@include_superseded = 1 AND n.kind = 'line' AND EXISTS (
    SELECT 1 FROM superseded_line s WHERE s.project = n.project AND s.sha256 = n.sha256 AND s.target_kind = 'line')))`;

/** The tokenizer of node_fts (migrations/sqlite/0001_init.sql): query terms are tokenised by FTS5 itself. */
const TOKENIZE = `tokenize = 'porter unicode61 remove_diacritics 2'`;

/** Statistics are recomputed when another connection changed the file, else kept per set (a server asks the same sets). */
const CACHED_SETS = 64;

/**
 * The keyword statistics reader of an open item store. Temp tables only (a read-only
 * connection may write its temp schema): fts5vocab over node_fts for term frequencies, and a
 * scratch FTS5 table with node_fts's tokenizer that turns a term into the token FTS5 indexed
 * (stemmed, case- and diacritic-folded).
 */
export function keywordStatisticsReader(db: Database.Database) {
  db.exec(`CREATE VIRTUAL TABLE temp.query_term USING fts5 (term, ${TOKENIZE});
    CREATE VIRTUAL TABLE temp.query_term_instance USING fts5vocab (temp, query_term, instance);
    CREATE VIRTUAL TABLE temp.node_fts_instance USING fts5vocab (main, node_fts, instance);`);
  const clearTerms = db.prepare('DELETE FROM temp.query_term');
  const addTerm = db.prepare('INSERT INTO temp.query_term (rowid, term) VALUES (?, ?)');
  const termTokens = db.prepare(
    'SELECT doc, term FROM temp.query_term_instance ORDER BY doc, "offset"',
  );
  const lengths = db.prepare(
    `SELECT d.sz AS sz FROM node n JOIN node_fts_docsize d ON d.id = n.id WHERE ${REACHABLE}`,
  );
  const postings = db.prepare(`SELECT i.doc AS id, count(*) AS tf, d.sz AS sz
    FROM temp.node_fts_instance i JOIN node n ON n.id = i.doc JOIN node_fts_docsize d ON d.id = i.doc
    WHERE i.term = @token AND ${REACHABLE} GROUP BY i.doc ORDER BY i.doc`);
  const cache = new Map<string, KeywordStatistics>();
  let cachedVersion = -1;
  const bind = (set: ReachableSet) => ({
    projects: JSON.stringify(set.projects),
    levels: JSON.stringify(set.levels),
    include_superseded: set.includeSuperseded === true ? 1 : 0,
  });

  return {
    statistics(set: ReachableSet): KeywordStatistics {
      const version = db.pragma('data_version', { simple: true }) as number;
      if (version !== cachedVersion) {
        cache.clear();
        cachedVersion = version;
      }
      const key = JSON.stringify([set.projects, set.levels, set.includeSuperseded === true]);
      let stats = cache.get(key);
      if (!stats) {
        stats = { nodes: 0, tokens: 0 };
        for (const { sz } of lengths.iterate(bind(set)) as Iterable<{ sz: Buffer }>) {
          stats.nodes += 1;
          stats.tokens += docsizeTokens(sz);
        }
        if (cache.size >= CACHED_SETS) cache.clear();
        cache.set(key, stats);
      }
      return stats;
    },
    tokens(terms: readonly string[]): string[][] {
      const out = terms.map((): string[] => []);
      db.transaction(() => {
        clearTerms.run();
        terms.forEach((term, i) => addTerm.run(i, term));
        for (const { doc, term } of termTokens.all() as { doc: number; term: string }[])
          if (!out[doc]!.includes(term)) out[doc]!.push(term);
        clearTerms.run();
      })();
      return out;
    },
    postings(token: string, set: ReachableSet): KeywordPosting[] {
      return (
        postings.all({ token, ...bind(set) }) as { id: number; tf: number; sz: Buffer }[]
      ).map(({ id, tf, sz }) => ({ id, tf, length: docsizeTokens(sz) }));
    },
  };
}

/**
 * The token count of a node_fts_docsize row: `sz` holds one varint per column (node_fts has
 * one), in SQLite's varint format — big-endian 7-bit groups, high bit set on all but the last,
 * the ninth byte whole. FTS5 has no SQL function for a row's length; this record is what its
 * own bm25() reads.
 */
export function docsizeTokens(sz: Uint8Array): number {
  let value = 0;
  for (let i = 0; i < sz.length && i < 9; i += 1) {
    const byte = sz[i]!;
    if (i === 8) return value * 256 + byte;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return value;
  }
  return value;
}
