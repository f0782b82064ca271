import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { COPIED_TABLES } from './canonical-copy.js';

/**
 * A sha256 per table over its rows in a total order (every column, left to right), and one
 * each for node_fts and item_fts: what `mem verify` compares between the live store and a rebuild. Rows, not
 * bytes: a store caught up in place holds the same rows as a rebuild in a different b-tree
 * and FTS5 segment layout. projector_meta (seal state) and schema_migrations (checked by
 * init) are left out.
 *
 * node_fts's digest covers what the index answers with (every token instance and each
 * document's size) and FTS5's integrity check against node: a hand-edited node.text leaves
 * the index as it was, so the index alone would still agree with a rebuild.
 */
export function digestStore(db: Database.Database): Record<string, string> {
  const out: Record<string, string> = {};
  for (const table of COPIED_TABLES) {
    const columns = db.prepare(`SELECT * FROM ${table} LIMIT 0`).columns().length;
    const order = Array.from({ length: columns }, (_, i) => i + 1).join(', ');
    out[table] = digestRows(db.prepare(`SELECT * FROM ${table} ORDER BY ${order}`));
  }
  for (const table of ['node_fts', 'item_fts'] as const) out[table] = digestFts(db, table);
  return out;
}

/**
 * An FTS5 index's digest: every token instance and each document's size. node_fts's begins with
 * FTS5's integrity check against node; item_fts is contentless, so FTS5 cannot check it against
 * rows, and a rebuild indexes the rows afresh: an index out of step with them digests differently.
 */
function digestFts(db: Database.Database, table: 'node_fts' | 'item_fts'): string {
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${table}_digest USING fts5vocab (main, ${table}, instance)`,
  );
  const hash = createHash('sha256');
  if (table === 'node_fts') hash.update(`integrity:${ftsIntegrity(db)}\n`);
  hash.update(
    digestRows(
      db.prepare(`SELECT term, doc, col, offset FROM temp.${table}_digest ORDER BY 1, 2, 3, 4`),
    ),
  );
  hash.update(digestRows(db.prepare(`SELECT id, sz FROM ${table}_docsize ORDER BY id`)));
  return hash.digest('hex');
}

/** 'ok', or the check's message: FTS5 compares the index with node (rank 1: the content too). */
function ftsIntegrity(db: Database.Database): string {
  try {
    db.exec(`INSERT INTO node_fts (node_fts, rank) VALUES ('integrity-check', 1)`);
    return 'ok';
  } catch (error) {
    return (error as Error).message;
  }
}

function digestRows(statement: Database.Statement): string {
  const hash = createHash('sha256');
  for (const row of statement.raw().iterate() as Iterable<unknown[]>)
    hash.update(`${JSON.stringify(row.map(canonicalValue))}\n`);
  return hash.digest('hex');
}

/** JSON of a cell, with a BLOB as hex (JSON.stringify of a Buffer is not a stable form to rely on). */
function canonicalValue(value: unknown): unknown {
  return Buffer.isBuffer(value) ? { blob: value.toString('hex') } : value;
}
