/**
 * Which of @matches (a JSON array of MATCH expressions) each of @ids (a JSON array of node ids)
 * holds. Decision: the unary plus keeps the id list out of FTS5's plan. Offered `rowid IN
 * (...)`, SQLite ran FTS5's xFilter once per (expression, id), each a fresh parse and seek of
 * every segment: 22 terms by 33 rows of the demo took 26 ms, the largest part of a tool
 * context request outside keyword recall. One match per expression, filtered by the id list,
 * took 1.8 ms, and reads no more postings than the keyword recall already read for those terms
 * (test: matched-terms-sql.int.spec.ts).
 */
export const MATCHED_TERMS_SQL = `SELECT f.rowid AS id, t.key AS term FROM json_each(@matches) t JOIN node_fts f
    WHERE node_fts MATCH t.value AND +f.rowid IN (SELECT value FROM json_each(@ids)) ORDER BY f.rowid, t.key`;
