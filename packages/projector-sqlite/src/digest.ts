import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { COPIED_TABLES } from './canonical-copy.js';
import { ftsIndexText } from './fts-text.js';
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
  const instances = instanceDigest(db, table);
  if (table === 'node_fts') hash.update(`integrity:${nodeFtsIntegrity(db, instances)}\n`);
  hash.update(instances);
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
 * 'ok', or what is wrong: FTS5's check of the index itself, then the index against node. Why
 * not FTS5's check against node (rank 1): it tokenizes node.text as it is, and node_fts indexes
 * mem_fts_text(node.text) (fts-text.ts: CJK runs as bigrams). So the text each node should have
 * indexed is indexed afresh in a connection of its own to an in-memory database (no temp file: a
 * forgotten text must not reach the disk; no ATTACH, which a write transaction refuses) and its
 * token instances compared with node_fts's (`instances`, their digest).
 */
export function nodeFtsIntegrity(
  db: Database.Database,
  instances = instanceDigest(db, 'node_fts'),
): string {
  try {
    db.exec(`INSERT INTO node_fts (node_fts, rank) VALUES ('integrity-check', 0)`);
  } catch (error) {
    return (error as Error).message;
  }
  const scratch = new Database(':memory:');
  try {
    scratch.exec(`CREATE VIRTUAL TABLE node_fts USING fts5 (text, content = '', ${TOKENIZE});
      CREATE VIRTUAL TABLE node_fts_instance USING fts5vocab (node_fts, instance);`);
    const add = scratch.prepare('INSERT INTO node_fts (rowid, text) VALUES (?, ?)');
    const nodes = db.prepare('SELECT id, text FROM node ORDER BY id').raw();
    scratch.transaction(() => {
      for (const [id, text] of nodes.iterate() as Iterable<[number, unknown]>)
        add.run(id, typeof text === 'string' ? ftsIndexText(text) : text);
    })();
    const expected = digestRows(
      scratch.prepare(`SELECT term, doc, col, offset FROM node_fts_instance ORDER BY 1, 2, 3, 4`),
    );
    return expected === instances ? 'ok' : 'node_fts does not index the text of node';
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
