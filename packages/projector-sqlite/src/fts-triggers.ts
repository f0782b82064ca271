import type Database from 'better-sqlite3';

/**
 * Keeps node_fts (external content over node.text) in step with node on this connection:
 * FTS5's documented external-content triggers, created TEMP so that they live in the writing
 * connection and never in the file. Why TEMP: the file's schema stays exactly the migrations
 * (the canonical copy's and a rebuild's bytes do not change), and the connections that build
 * the canonical copy (canonical-copy.ts, fts-build.ts) copy or rebuild the index themselves.
 * Why triggers at all: a catch-up then indexes only the nodes it writes, where rebuilding the
 * index cost ~2 s per catch-up on a 1 M-event store.
 */
export function registerFtsTriggers(db: Database.Database): void {
  db.exec(`
    CREATE TEMP TRIGGER IF NOT EXISTS node_fts_after_insert AFTER INSERT ON main.node BEGIN
      INSERT INTO node_fts (rowid, text) VALUES (new.id, new.text);
    END;
    CREATE TEMP TRIGGER IF NOT EXISTS node_fts_after_delete AFTER DELETE ON main.node BEGIN
      INSERT INTO node_fts (node_fts, rowid, text) VALUES ('delete', old.id, old.text);
    END;
    CREATE TEMP TRIGGER IF NOT EXISTS node_fts_after_text AFTER UPDATE OF text ON main.node
      WHEN old.text IS NOT new.text BEGIN
      INSERT INTO node_fts (node_fts, rowid, text) VALUES ('delete', old.id, old.text);
      INSERT INTO node_fts (rowid, text) VALUES (new.id, new.text);
    END;`);
}
