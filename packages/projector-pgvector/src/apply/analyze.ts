import type { Sql, SqlClient } from '../backend/sql.js';
import { quoteIdent } from '../schema/identifiers.js';

/**
 * memory_meta's JSON object of the pages each of the projection's tables may still grow before
 * it can meet the rule below (stop 33; the old `vectors_since_analyze` row is unused).
 */
const SLACK = 'pages_before_analyze_check';

/** A table is re-analyzed once it holds this many pages more than its statistics say... */
const GROWN_PAGES = 8;
/** ...and this much more, relative to them. */
const GROWN_RATIO = 0.1;

/**
 * Counts the rows the batch's transaction wrote to each of the projection's tables (Postgres'
 * per-transaction counters: inserted, and updated less the HOT updates, whose new version stays
 * in its page) against the slack the last check left each, in the batch's transaction. Returns
 * whether a table's slack is spent, so analyzeGrown must look (after the commit); always where
 * the server counts nothing (track_counts off: every batch writes its position row). Why a
 * count and not the check: a row written adds at most one page to its table (a heap tuple fits
 * a page; a larger value is TOASTed into a table of its own; one writer extends a table a page
 * at a time), so a table sent fewer rows than its slack cannot have met the rule; the check
 * reads every table's size (pg_relation_size), 7-11 ms CPU at 1 k items (load 18), 40-80 ms a
 * batch at 10 k, and ran after every batch, a one-event catch-up too. No slack recorded yet (a
 * new schema, one from before stop 33, a table new since the check): checked.
 */
export async function countRowsWritten(tx: Sql, schema: string): Promise<boolean> {
  const s = quoteIdent(schema);
  const [row] = await tx.query<{ counted: string; spent: boolean }>(
    `WITH w AS (
       SELECT c.relname,
         pg_stat_get_xact_tuples_inserted(c.oid) + pg_stat_get_xact_tuples_updated(c.oid) AS counted,
         pg_stat_get_xact_tuples_inserted(c.oid) + pg_stat_get_xact_tuples_updated(c.oid)
           - pg_stat_get_xact_tuples_hot_updated(c.oid) AS n
       FROM pg_class c WHERE c.relnamespace = $2::regnamespace AND c.relkind = 'r'),
     old AS (SELECT (SELECT value::jsonb FROM ${s}.memory_meta WHERE key = $1) AS slack),
     moved AS (
       UPDATE ${s}.memory_meta
       SET value = (SELECT jsonb_object_agg(w.relname, (old.slack ->> w.relname)::bigint - w.n) FROM w, old)::text
       WHERE key = $1 AND EXISTS (SELECT 1 FROM w WHERE w.n > 0) RETURNING 1)
     SELECT (SELECT coalesce(sum(counted), 0) FROM w)::text AS counted,
       EXISTS (SELECT 1 FROM w, old WHERE w.n > 0
         AND (old.slack IS NULL OR (old.slack ->> w.relname) IS NULL OR (old.slack ->> w.relname)::bigint < w.n)) AS spent,
       (SELECT count(*) FROM moved) AS moved`,
    [SLACK, s],
  );
  return Number(row?.counted ?? 0) === 0 || row?.spent === true;
}

/**
 * ANALYZE the projection's tables that grew by a tenth (plus 8 pages) since their statistics
 * were taken; after a batch whose rows may have made one grow so (countRowsWritten), the one
 * rule there is (stop 33: seal's rule on memory_vector's written vectors, autoanalyze's, is
 * folded into it; a tenth of memory_vector's pages is a tenth of its rows). Why: the planner's
 * choice between the HNSW scan and an exact scan rests on memory_vector's statistics; and a
 * catch-up applies batch after batch in one session, and the write functions keep a generic
 * plan made while the tables were empty or small (pg_class says 0 pages); PGlite runs no
 * autovacuum to refresh either. Measured on the query bench's corpus at 20 k nodes, load 9–16:
 * the first batch of each new project took 10 → 12 → 19 → 40 s (O(store) index ranges read per
 * line and chain move); with this 14 → 9 → 7 → 10 s. ANALYZE changes no row, only statistics,
 * and its relcache invalidation makes those plans be made again; the rule keeps the total work
 * linear (each table is sampled ~log₁.₁(n) times). Records the pages each table may grow
 * before it can next meet the rule. Returns the tables analyzed.
 */
export async function analyzeGrown(client: SqlClient, schema: string): Promise<string[]> {
  const rows = await client.query<{ name: string; pages: number; relpages: number }>(
    `SELECT c.relname AS name, (pg_relation_size(c.oid) / current_setting('block_size')::int)::float8 AS pages,
       GREATEST(c.relpages, 0)::float8 AS relpages
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind = 'r'
     ORDER BY c.relname COLLATE "C"`,
    [schema],
  );
  const limit = (relpages: number) => GROWN_PAGES + (1 + GROWN_RATIO) * relpages;
  const grown = rows.filter(({ pages, relpages }) => pages > limit(relpages));
  const s = quoteIdent(schema);
  if (grown.length > 0)
    await client.exec(`ANALYZE ${grown.map(({ name }) => `${s}.${quoteIdent(name)}`).join(', ')}`);
  // ANALYZE leaves a table's relpages at its pages now.
  const analyzed = new Set(grown.map(({ name }) => name));
  const slack = Object.fromEntries(
    rows.map(({ name, pages, relpages }) => [
      name,
      Math.max(0, Math.floor(limit(analyzed.has(name) ? pages : relpages) - pages)),
    ]),
  );
  await client.query(
    `INSERT INTO ${s}.memory_meta (key, value) VALUES ($1, $2)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    [SLACK, JSON.stringify(slack)],
  );
  return grown.map(({ name }) => name);
}
