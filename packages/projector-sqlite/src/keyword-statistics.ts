import type Database from 'better-sqlite3';
import { ftsPhrase, holdsCjk, registerFtsText } from './fts-text.js';
import type { NodeLevel } from './rows.js';
import {
  SET_INDEX_AFTER_READS,
  SET_INDEX_MAX_TOKENS,
  SET_INDEX_SHARE,
  SET_INDEXES,
  postingsReader,
  setIndex,
  type SetIndex,
} from './set-index.js';

/**
 * What BM25 counts, read over exactly one reachable set of nodes — never over the whole FTS5
 * index, whose statistics (N, average length, document frequency) span every project: scored
 * by FTS5's own bm25(), project A's scores, order and abstention would move with project B's
 * content, and say whether B holds a word.
 */

/**
 * The nodes a keyword recall may return: these projects × these levels, live (not deleted, not
 * superseded, not an archived item), and never a whole memory: an L1/L2 answer is one of its
 * lines (issue 11 §3).
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

/** Which of a token's postings to read: only these node ids, at most `limit` of them. */
export interface PostingsOptions {
  ids?: readonly number[];
  limit?: number;
}

/** One node of the reachable set holding a token: how often, and its length in FTS5 tokens. */
export interface KeywordPosting {
  id: number;
  tf: number;
  length: number;
}

// A curated item (level I) filed to archive leaves default recall (issue 13 §5), so it is not in
// the set: neither a hit nor a count in BM25's statistics (one primary-key lookup by the id its
// node's meta holds). A deleted item's node is deleted.
const REACHABLE = `n.project IN (SELECT value FROM json_each(@projects)) AND n.level IN (SELECT value FROM json_each(@levels))
  AND n.deleted_at IS NULL AND n.kind <> 'memory'
  AND (n.kind <> 'item' OR NOT EXISTS (SELECT 1 FROM item i
    WHERE i.project = n.project AND i.id = json_extract(n.meta, '$.id') AND i.attention = 'archive'))
  AND (n.superseded_by IS NULL OR (@include_superseded = 1 AND n.kind = 'line' AND EXISTS (
    SELECT 1 FROM superseded_line s WHERE s.project = n.project AND s.sha256 = n.sha256 AND s.target_kind = 'line')))`;

/** The tokenizer of node_fts (migrations/sqlite/0001_init.sql): query terms are tokenised by FTS5 itself. */
export const TOKENIZE = `tokenize = 'porter unicode61 remove_diacritics 2'`;

/** Reachable sets are recomputed when another connection changed the file, else kept (a server asks the same sets). */
const CACHED_SETS = 64;
/** Terms whose FTS5 tokens are kept (the tokenizer never changes on a connection). */
const CACHED_TERMS = 4_096;

/**
 * The keyword statistics reader of an open item store. Temp tables only (a read-only
 * connection may write its temp schema): fts5vocab over node_fts for term frequencies, a
 * scratch FTS5 table with node_fts's tokenizer that turns a term into the token FTS5 indexed
 * (stemmed, case- and diacritic-folded), and `reachable`: each asked set's node ids with their
 * lengths. Decision: a posting's reachability is one lookup in that small table, not a read of
 * its node row and the set's filters — that read was most of a keyword recall's time, paid on
 * every posting of every term (a 100k-node store: a common term's thousands, each query).
 * A set much smaller than the index gets its own (set-index.ts) once it has been read often
 * enough since the file last changed; its postings are then read there, the same rows.
 */
export function keywordStatisticsReader(
  db: Database.Database,
  options: {
    setIndexes?: boolean;
    /** The pool's bounds (set-index.ts's SET_INDEXES and SET_INDEX_MAX_TOKENS): specs lower them. */
    setIndexPool?: { tables: number; tokens: number };
  } = {},
) {
  const indexing = options.setIndexes !== false;
  const pool = options.setIndexPool ?? { tables: SET_INDEXES, tokens: SET_INDEX_MAX_TOKENS };
  // Temp tables in memory, never in a temp file: a reachable set's own index (set-index.ts)
  // holds its texts' tokens, and a forgotten text must not outlive its store on disk. Set
  // first: changing it drops the connection's temp tables (the others are made on first use).
  db.pragma('temp_store = MEMORY');
  db.function('mem_docsize_tokens', { deterministic: true }, (sz: unknown) =>
    docsizeTokens(sz as Uint8Array),
  );
  registerFtsText(db);
  db.exec(`CREATE VIRTUAL TABLE temp.query_term USING fts5 (term, ${TOKENIZE});
    CREATE VIRTUAL TABLE temp.query_term_instance USING fts5vocab (temp, query_term, instance);
    CREATE VIRTUAL TABLE temp.node_fts_instance USING fts5vocab (main, node_fts, instance);
    CREATE TABLE temp.reachable (slot INTEGER NOT NULL, id INTEGER NOT NULL, length INTEGER NOT NULL,
      PRIMARY KEY (slot, id)) WITHOUT ROWID;`);
  const clearTerms = db.prepare('DELETE FROM temp.query_term');
  const addTerm = db.prepare('INSERT INTO temp.query_term (rowid, term) VALUES (?, ?)');
  const termTokens = db.prepare(
    'SELECT doc, term FROM temp.query_term_instance ORDER BY doc, "offset"',
  );
  const fill = db.prepare(`INSERT INTO temp.reachable (slot, id, length)
    SELECT @slot, n.id, mem_docsize_tokens(d.sz) FROM node n JOIN node_fts_docsize d ON d.id = n.id WHERE ${REACHABLE}`);
  const totals = db.prepare(
    'SELECT count(*) AS nodes, coalesce(sum(length), 0) AS tokens FROM temp.reachable WHERE slot = ?',
  );
  const clearSets = db.prepare('DELETE FROM temp.reachable');
  const postings = postingsReader(db, 'temp.node_fts_instance');
  const phrases = phraseReader(db);
  // A term's document frequency in the set is counted inside SQLite: one row back, however
  // many nodes hold it (a pasted log's commonest words are held by thousands).
  const frequency = db.prepare(`SELECT count(*) AS df
    FROM (SELECT DISTINCT doc FROM temp.node_fts_instance WHERE term = @token) i
    CROSS JOIN temp.reachable r ON r.slot = @slot AND r.id = i.doc`);
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const indexRows = db.prepare('SELECT block FROM node_fts_data WHERE id = 1').pluck();
  const sets = new Map<string, Reached>();
  const indexes: SetIndex[] = [];
  const cachedTokens = new Map<string, string[]>();
  let cachedVersion = -1;
  let nextSlot = 0;
  let lastUse = 0;

  /** The set's slot in `reachable`, filled on first ask after the file last changed. */
  const reached = (set: ReachableSet): Reached => {
    const version = dataVersion.get() as number;
    if (version !== cachedVersion || sets.size >= CACHED_SETS) {
      clearSets.run();
      sets.clear();
      for (const index of indexes) index.release();
      cachedVersion = version;
    }
    const key = JSON.stringify([set.projects, set.levels, set.includeSuperseded === true]);
    let entry = sets.get(key);
    if (!entry) {
      const slot = (nextSlot += 1);
      fill.run({
        slot,
        projects: JSON.stringify(set.projects),
        levels: JSON.stringify(set.levels),
        include_superseded: set.includeSuperseded === true ? 1 : 0,
      });
      entry = {
        slot,
        statistics: totals.get(slot) as KeywordStatistics,
        reads: 0,
        large: false,
        index: null,
        lastUse: 0,
      };
      sets.set(key, entry);
    }
    return entry;
  };

  /**
   * The set's own index, when it has one or has now earned one (SET_INDEX_AFTER_READS reads
   * from node_fts since the file last changed, and small beside node_fts); else null.
   */
  const indexOf = (entry: Reached): SetIndex | null => {
    if (entry.index?.slot === entry.slot) {
      entry.lastUse = lastUse += 1;
      return entry.index;
    }
    entry.index = null;
    entry.reads += 1;
    if (!indexing || entry.reads <= SET_INDEX_AFTER_READS || entry.large) return null;
    const { nodes, tokens } = entry.statistics;
    const block = indexRows.get() as Uint8Array | undefined;
    const rows = block ? (varints(block)[0] ?? 0) : 0;
    entry.large = nodes * SET_INDEX_SHARE > rows || tokens > pool.tokens;
    if (entry.large) return null;
    // The least recently used sets give their tables way while the tokens would not fit. A
    // table given way is emptied at once: one not refilled now would keep its set's tokens
    // (a forgotten text's among them) past the next change of the store, and outside the cap.
    const owners = [...sets.values()]
      .filter((s) => s.index !== null)
      .sort((a, b) => a.lastUse - b.lastUse);
    let held = owners.reduce((sum, s) => sum + s.statistics.tokens, 0);
    while (owners.length > 0 && (held + tokens > pool.tokens || owners.length >= pool.tables)) {
      const oldest = owners.shift()!;
      held -= oldest.statistics.tokens;
      oldest.index!.release();
      oldest.index = null;
    }
    let index = indexes.find((candidate) => candidate.slot === null);
    if (!index) {
      index = setIndex(db, TOKENIZE, indexes.length);
      indexes.push(index);
    }
    index.fill(entry.slot);
    entry.index = index;
    entry.lastUse = lastUse += 1;
    return index;
  };

  return {
    statistics: (set: ReachableSet): KeywordStatistics => ({ ...reached(set).statistics }),
    tokens(terms: readonly string[]): string[][] {
      const unknown = [
        ...new Set(terms.filter((term) => !cachedTokens.has(term) && !holdsCjk(term))),
      ];
      const fresh = new Map<string, string[]>();
      if (unknown.length > 0) {
        const out = unknown.map((): string[] => []);
        db.transaction(() => {
          clearTerms.run();
          unknown.forEach((term, i) => addTerm.run(i, term));
          for (const { doc, term } of termTokens.all() as { doc: number; term: string }[])
            if (!out[doc]!.includes(term)) out[doc]!.push(term);
          clearTerms.run();
        })();
        unknown.forEach((term, i) => fresh.set(term, out[i]!));
      }
      // Answered before the cache is cleared: a full cache drops the known terms of this call too.
      const answer = terms.map((term) =>
        holdsCjk(term) ? [ftsPhrase(term)] : [...(fresh.get(term) ?? cachedTokens.get(term)!)],
      );
      if (cachedTokens.size + fresh.size > CACHED_TERMS) cachedTokens.clear();
      for (const [term, tokens] of fresh) cachedTokens.set(term, tokens);
      return answer;
    },
    frequency(token: string, set: ReachableSet): number {
      const entry = reached(set);
      if (isPhrase(token)) return phrases.frequency(token, entry.slot);
      const index = indexOf(entry);
      if (index) return index.frequency(token);
      return (frequency.get({ token, slot: entry.slot }) as { df: number }).df;
    },
    postings(token: string, set: ReachableSet, options: PostingsOptions = {}): KeywordPosting[] {
      const entry = reached(set);
      const { slot } = entry;
      if (isPhrase(token)) return phrases.postings(token, slot, options);
      const index = indexOf(entry);
      return index ? index.postings(token, slot, options) : postings(token, slot, options);
    },
  };
}

/**
 * A CJK term's "token" (ftsTokens): its FTS5 phrase (fts-text.ts's ftsPhrase, a quoted string),
 * which no FTS5 token is (unicode61 separates at `"`). Trigger: a CJK term is indexed as several
 * bigrams; read token by token, every node holding one of them was a hit ("東京都" found
 * "東京と京都"). Outcome: its postings are FTS5's phrase matches in the set, so a node holds
 * the term exactly when `MATCH` finds it. What is lost: FTS5 gives no phrase's count within a
 * node, so its tf is 1 (BM25's idf and length normalisation are exact; repeats do not add).
 */
function isPhrase(token: string): boolean {
  return token.startsWith('"');
}

/** Postings and document frequency of a phrase (isPhrase) in a reachable set, by FTS5 MATCH. */
function phraseReader(db: Database.Database) {
  const join = `FROM node_fts f CROSS JOIN temp.reachable r ON r.slot = @slot AND r.id = f.rowid
    WHERE node_fts MATCH @phrase`;
  const all = db.prepare(
    `SELECT f.rowid AS id, 1 AS tf, r.length AS length ${join} ORDER BY f.rowid LIMIT @limit`,
  );
  const candidates = db.prepare(`SELECT f.rowid AS id, 1 AS tf, r.length AS length ${join}
    AND f.rowid IN (SELECT value FROM json_each(@ids)) ORDER BY f.rowid`);
  const frequency = db.prepare(`SELECT count(*) AS df ${join}`);
  return {
    postings: (phrase: string, slot: number, options: PostingsOptions): KeywordPosting[] =>
      (options.ids === undefined
        ? all.all({ phrase, slot, limit: options.limit ?? -1 })
        : candidates.all({ phrase, slot, ids: JSON.stringify(options.ids) })) as KeywordPosting[],
    frequency: (phrase: string, slot: number): number =>
      (frequency.get({ phrase, slot }) as { df: number }).df,
  };
}

/** A reachable set asked since the file last changed: its slot, statistics and own index. */
interface Reached {
  slot: number;
  statistics: KeywordStatistics;
  /** Postings reads taken from node_fts (see SET_INDEX_AFTER_READS). */
  reads: number;
  /** Too large beside node_fts or SET_INDEX_MAX_TOKENS to be indexed. */
  large: boolean;
  index: SetIndex | null;
  /** When its index was last read (a counter): the least recent gives way first. */
  lastUse: number;
}

/**
 * The token count of a node_fts_docsize row: `sz` holds one varint per column (node_fts has
 * one). FTS5 has no SQL function for a row's length; this record is what its own bm25() reads.
 */
export function docsizeTokens(sz: Uint8Array): number {
  return varints(sz)[0] ?? 0;
}

/**
 * The varints of an FTS5 record (a docsize row, the averages record), in SQLite's varint
 * format: big-endian 7-bit groups, high bit set on all but the last, the ninth byte whole.
 */
export function varints(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let value = 0;
  let length = 0;
  for (const byte of bytes) {
    if (length === 8) {
      out.push(value * 256 + byte);
      value = length = 0;
      continue;
    }
    value = value * 128 + (byte & 0x7f);
    length += 1;
    if ((byte & 0x80) === 0) {
      out.push(value);
      value = length = 0;
    }
  }
  return out;
}
