import type { SqlClient } from '../backend/sql.js';
import { quoteIdent } from '../schema/identifiers.js';

/**
 * After a forget, the rows hold no forgotten text (the forget function rewrote them), but the
 * embedded cluster's files still do: the old row versions stay in the heap (and TOAST) until a
 * vacuum, and the write-ahead log keeps the records that inserted them. Issue 12 wants no copy
 * in any file under the data root but the log, so the seal rewrites the two tables holding
 * text and the one that held its vectors (forget deletes them; an embedding reads partly back
 * by inversion) (VACUUM FULL: new files, the old ones unlinked) and retires the WAL segment that held
 * the inserts: switch to a new segment, then checkpoint with recycling off, so the old segment
 * is deleted rather than renamed for reuse with its bytes intact. Measured on PGlite: after
 * this, a byte search of the data directory finds the text nowhere.
 *
 * Embedded only: a shared Postgres server's heap and WAL belong to its operator (VACUUM FULL
 * takes an exclusive lock other clients would wait on); the rows are what mem answers for there.
 */
export async function scrubForgottenText(client: SqlClient, schema: string): Promise<void> {
  const s = quoteIdent(schema);
  await client.exec(`VACUUM FULL ${s}.memory_node, ${s}.memory_line, ${s}.memory_vector`);
  await client.exec(`SET wal_recycle = off`);
  await client.query(`SELECT pg_switch_wal()`);
  await client.exec(`CHECKPOINT`);
}
