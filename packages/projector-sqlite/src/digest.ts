import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { COPIED_TABLES } from './canonical-copy.js';
import { registerFtsText } from './fts-text.js';
import { TOKENIZE } from './keyword-statistics.js';

/**
 * A sha256 per table over its rows in a total order (every column, left to right), and one
 * each for node_fts and item_fts: what `mem verify` compares between the live store and a rebuild. Rows, not
 * bytes: a store caught up in place holds the same rows as a rebuild in a different b-tree
 * and FTS5 segment layout. projector_meta (seal state) and schema_migrations (checked by
 * init) are left out.
 *
 * node_fts's digest covers what the index answers with (every token instance and each
 * document's size) and a check of it against node (nodeFtsIntegrity): a hand-edited node.text leaves
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
 * its check against node (nodeFtsIntegrity); item_fts is contentless, so FTS5 cannot check it against
 * rows, and a rebuild indexes the rows afresh: an index out of step with them digests differently.
 */
function digestFts(db: Database.Database, table: 'node_fts' | 'item_fts'): string {
  const hash = createHash('sha256');
  if (table === 'node_fts') hash.update(`integrity:${nodeFtsIntegrity(db)}\n`);
  hash.update(instanceDigest(db, table));
  hash.update(digestRows(db.prepare(`SELECT id, sz FROM ${table}_docsize ORDER BY id`)));
  return hash.digest('hex');
}

/** The digest of every token instance of `table` (term, document, column, offset). */
function instanceDigest(db: Database.Database, table: 'node_fts' | 'item_fts'): string {
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${table}_digest USING fts5vocab (main, ${table}, instance)`,
  );
  return digestRows(
    db.prepare(`SELECT term, doc, col, offset FROM temp.${table}_digest ORDER BY 1, 2, 3, 4`),
  );
}

/**
 * 'ok', or the message of FTS5's integrity check (rank 1: the index against its content) of
 * node_fts against the text it indexes. Why not node_fts's own check: it tokenizes node.text
 * as it is, and node_fts indexes mem_fts_text(node.text) (fts-text.ts: CJK runs as bigrams), so
 * any CJK text failed it. So the check runs on a copy in an in-memory database of its own (no
 * temp file: a forgotten text must not reach the disk): node's ids with the text each should
 * have indexed, and node_fts's shadow tables as they are, read from the file `db` has open (what
 * it has committed: digest commits first). Its connection writes FTS5's shadow tables, which
 * defensive mode forbids, and does nothing else (canonical-copy.ts's reason too). At 100 k nodes
 * an index rebuilt there and compared instance by instance cost ~5 s of CPU; this check of the
 * copy costs what the check it replaces did, with the copy (figures in the commit).
 */
export function nodeFtsIntegrity(db: Database.Database): string {
  const scratch = new Database(':memory:');
  try {
    scratch.unsafeMode(true);
    registerFtsText(scratch);
    scratch.prepare('ATTACH DATABASE ? AS live').run(db.name);
    scratch.exec(`CREATE TABLE main.node (id INTEGER PRIMARY KEY, text TEXT);
      INSERT INTO main.node (id, text) SELECT id, mem_fts_text(text) FROM live.node;
      CREATE VIRTUAL TABLE main.node_fts USING fts5 (
        text, content = 'node', content_rowid = 'id', ${TOKENIZE});`);
    for (const shadow of ['config', 'data', 'idx', 'docsize'])
      scratch.exec(`DELETE FROM main.node_fts_${shadow};
        INSERT INTO main.node_fts_${shadow} SELECT * FROM live.node_fts_${shadow};`);
    try {
      scratch.exec(`INSERT INTO main.node_fts (node_fts, rank) VALUES ('integrity-check', 1)`);
      return 'ok';
    } catch (error) {
      return (error as Error).message;
    }
  } finally {
    scratch.close();
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
