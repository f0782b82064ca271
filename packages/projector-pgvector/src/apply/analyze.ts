import type { Sql, SqlClient } from '../backend/sql.js';
import { quoteIdent } from '../schema/identifiers.js';

const KEY = 'vectors_since_analyze';

/** Counts vectors written since the last ANALYZE, in the batch's transaction. */
export async function countVectorsWritten(tx: Sql, schema: string, written: number): Promise<void> {
  if (written === 0) return;
  await tx.query(
    `INSERT INTO ${quoteIdent(schema)}.memory_meta AS m (key, value) VALUES ($1, $2)
     ON CONFLICT (key) DO UPDATE SET value = (m.value::bigint + excluded.value::bigint)::text`,
    [KEY, String(written)],
  );
}

/**
 * ANALYZE when a tenth of memory_vector (plus 50 rows) was written since the last one: the
 * planner's choice between the HNSW scan and an exact scan rests on those statistics. Why here
 * and not autovacuum: PGlite runs none and does not even count modifications, so the projection
 * counts its own (memory_meta), and seal runs autoanalyze's rule.
 */
export async function analyzeIfStale(client: SqlClient, schema: string): Promise<boolean> {
  const s = quoteIdent(schema);
  const [row] = await client.query<{ written: string | null; tuples: number }>(
    `SELECT (SELECT value FROM ${s}.memory_meta WHERE key = $1) AS written, (SELECT reltuples FROM pg_class WHERE oid = $2::regclass) AS tuples`,
    [KEY, `${s}.memory_vector`],
  );
  const written = Number(row?.written ?? 0);
  if (written <= 50 + 0.1 * Math.max(0, Number(row?.tuples ?? 0))) return false;
  await client.exec(`ANALYZE ${s}.memory_vector, ${s}.memory_node`);
  await client.query(`DELETE FROM ${s}.memory_meta WHERE key = $1`, [KEY]);
  return true;
}

/** A table is re-analyzed mid catch-up once it holds this many pages more than its statistics say... */
const GROWN_PAGES = 8;
/** ...and this much more, relative to them. */
const GROWN_RATIO = 0.1;

/**
 * ANALYZE the projection's tables that grew by a tenth (plus 8 pages) since their statistics
 * were taken; after every batch. Why: a catch-up applies batch after batch in one session, and
 * the write functions keep a generic plan made while the tables were empty or small (pg_class
 * says 0 pages); PGlite runs no autovacuum to refresh it. Measured on the query bench's corpus
 * at 20 k nodes, load 9–16: the first batch of each new project took 10 → 12 → 19 → 40 s
 * (O(store) index ranges read per line and chain move); with this 14 → 9 → 7 → 10 s. ANALYZE
 * changes no row, only statistics, and its relcache invalidation makes those plans be made
 * again; the rule keeps the total work linear (each table is sampled ~log₁.₁(n) times).
 */
export async function analyzeGrown(client: SqlClient, schema: string): Promise<string[]> {
  const rows = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind = 'r'
       AND pg_relation_size(c.oid) / current_setting('block_size')::int > $2::int + (1 + $3::float8) * GREATEST(c.relpages, 0)
     ORDER BY c.relname COLLATE "C"`,
    [schema, GROWN_PAGES, GROWN_RATIO],
  );
  if (rows.length === 0) return [];
  const s = quoteIdent(schema);
  await client.exec(`ANALYZE ${rows.map(({ name }) => `${s}.${quoteIdent(name)}`).join(', ')}`);
  return rows.map(({ name }) => name);
}
