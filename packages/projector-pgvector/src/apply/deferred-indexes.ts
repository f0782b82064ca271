import type { Sql, SqlClient } from '../backend/sql.js';
import { quoteIdent } from '../schema/identifiers.js';

/**
 * A batch adding at least this many vectors may set the HNSW indexes aside. Not 1,000: the
 * engine hands 2,000 events a batch, and a batch of memories holds fewer vectors than that (one
 * new line per version), so a catch-up of a few thousand nodes put every vector into a live
 * graph (query bench, 5 k nodes in 1,020-event batches of ~900 vectors: 97 s vs 18 s set aside).
 */
export const BULK_MIN_VECTORS = 256;
/** ...when the table holds fewer than this many times as many already. */
const BULK_RATIO = 4;
const KEY = 'deferred_index:';

/*
 * Why: inserting into an HNSW index costs a graph search per row; building it once over loaded
 * rows costs several times less (measured in PGlite: 2000 768-d vectors, 33 s inserted into a
 * live index vs 3 s load + 5 s build). So a load that is large against what the table holds (a
 * rebuild, a corpus import) drops the HNSW indexes, remembering their definitions in
 * memory_meta in the same transaction, and `seal` (or the next `init`, after a crash) builds them
 * again. Until then recall is an exact scan: slower, never wrong. Indexes are not rows: the
 * digest does not see them.
 */
export async function deferIndexesForLoad(
  tx: Sql,
  schema: string,
  incoming: number,
): Promise<void> {
  if (incoming < BULK_MIN_VECTORS) return;
  const s = quoteIdent(schema);
  const [held] = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${s}.memory_vector LIMIT $1) x`,
    [incoming * BULK_RATIO],
  );
  if ((held?.n ?? 0) >= incoming * BULK_RATIO) return;
  const indexes = await tx.query<{ name: string; def: string }>(
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = $1 AND tablename = 'memory_vector' AND indexdef LIKE '% USING hnsw %' ORDER BY indexname COLLATE "C"`,
    [schema],
  );
  for (const { name, def } of indexes) {
    await tx.query(
      `INSERT INTO ${s}.memory_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      [`${KEY}${name}`, def],
    );
    await tx.exec(`DROP INDEX ${s}.${quoteIdent(name)}`);
  }
}

/** Builds the indexes a load set aside, if any (seal, and init after a crash). */
export async function restoreDeferredIndexes(client: SqlClient, schema: string): Promise<void> {
  const s = quoteIdent(schema);
  const pending = await client.query<{ key: string; value: string }>(
    `SELECT key, value FROM ${s}.memory_meta WHERE key LIKE $1 ORDER BY key COLLATE "C"`,
    [`${KEY}%`],
  );
  if (pending.length === 0) return;
  await client.transaction(async (tx) => {
    // PGlite: build the graph in memory when it fits, far faster than spilling to disk. A real
    // server keeps its own setting: its memory is its operator's to size.
    if (client.kind === 'pglite') await tx.exec(`SET LOCAL maintenance_work_mem = '512MB'`);
    for (const { key, value } of pending) {
      await tx.exec(value);
      await tx.query(`DELETE FROM ${s}.memory_meta WHERE key = $1`, [key]);
    }
  });
}
