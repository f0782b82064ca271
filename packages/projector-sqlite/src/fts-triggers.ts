import type Database from 'better-sqlite3';

/**
 * Keeps node_fts (external content over node.text) in step with node on this connection:
 * TEMP triggers, so that they live in the writing connection and never in the file. Why TEMP:
 * the file's schema stays exactly the migrations (the canonical copy's and a rebuild's bytes
 * do not change), and the connections that build the canonical copy (canonical-copy.ts,
 * fts-build.ts) copy or rebuild the index themselves. Why triggers at all: a catch-up then
 * indexes only the nodes it writes, where rebuilding the index cost ~2 s per catch-up on a
 * 1 M-event store.
 *
 * The triggers do not write node_fts: they note which nodes a batch changed (and, the first
 * time, the text node_fts indexed for them before it), and `flushFts` indexes them once, at
 * the end of the batch (apply-events.ts; a one-project reset flushes its deletions too). Trigger: FTS5 writes its pending terms out
 * as a new segment at every statement savepoint, and each planned INSERT with triggers opens
 * one, so indexing from the triggers wrote a segment per node and merged them again (~6 ms
 * CPU of an add_items of 100 at 100 k items, load 1). Outcome: one segment a batch. The index
 * a batch leaves is the same: each node noted is removed as it was and indexed as it is.
 * Nothing reads node_fts on this connection inside a batch.
 */
export function registerFtsTriggers(db: Database.Database): void {
  db.exec(`
    CREATE TEMP TABLE IF NOT EXISTS node_fts_pending (
      id       INTEGER PRIMARY KEY,
      -- 1 when node_fts held the node before the batch, as old_text.
      indexed  INTEGER NOT NULL,
      old_text TEXT
    );
    CREATE TEMP TRIGGER IF NOT EXISTS node_fts_after_insert AFTER INSERT ON main.node BEGIN
      INSERT INTO temp.node_fts_pending (id, indexed, old_text) VALUES (new.id, 0, NULL)
        ON CONFLICT DO NOTHING;
    END;
    CREATE TEMP TRIGGER IF NOT EXISTS node_fts_after_delete AFTER DELETE ON main.node BEGIN
      INSERT INTO temp.node_fts_pending (id, indexed, old_text) VALUES (old.id, 1, old.text)
        ON CONFLICT DO NOTHING;
    END;
    CREATE TEMP TRIGGER IF NOT EXISTS node_fts_after_text AFTER UPDATE OF text ON main.node
      WHEN old.text IS NOT new.text BEGIN
      INSERT INTO temp.node_fts_pending (id, indexed, old_text) VALUES (old.id, 1, old.text)
        ON CONFLICT DO NOTHING;
    END;`);
}

/**
 * The statements that index what node_fts_pending notes, in one INSERT (FTS5 commands and
 * rows, by node id: a node's removal before its new text), then empty it. The text indexed (and
 * removed) is mem_fts_text's (fts-text.ts: CJK runs as bigrams), registered by prepareStatements.
 */
export const NODE_FTS_FLUSH_SQL = [
  `INSERT INTO main.node_fts (node_fts, rowid, text)
    SELECT command, id, text FROM (
      SELECT 'delete' AS command, p.id, mem_fts_text(p.old_text) AS text, 0 AS step
        FROM temp.node_fts_pending p WHERE p.indexed = 1
      UNION ALL
      SELECT NULL, n.id, mem_fts_text(n.text), 1 FROM temp.node_fts_pending p JOIN main.node n ON n.id = p.id)
    ORDER BY id, step`,
  `DELETE FROM temp.node_fts_pending`,
] as const;
