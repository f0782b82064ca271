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
