import { attachScratch, openScratch } from './open-database.js';
import { writeMeta } from './store-meta.js';

/** Every table whose rows carry the `project` they were projected from, in copy order. */
export const DATA_TABLES = [
  'node',
  'edge',
  'line_edge',
  'run',
  'chunk',
  'gate',
  'tombstone',
  'memory_head',
  'forgotten_line',
  'superseded_line',
  'line_pin',
  'line_confirmation',
  'review_finding',
  'idempotency_key',
  'ingest_job',
  'failure_signature',
  'item',
  'item_tag',
  'item_tag_count',
  'item_live_count',
  'item_history',
  'projection_state',
] as const;

/** Tables projected from the `_system` log alone (no `project` column): identity. */
export const SYSTEM_TABLES = ['principal', 'registered_project', 'membership', 'token'] as const;

/** Every table a projected row lives in, in copy order. projector_meta and schema_migrations are written fresh. */
export const COPIED_TABLES = [...DATA_TABLES, ...SYSTEM_TABLES] as const;

/** FTS5's own tables behind node_fts (external content) and item_fts (contentless): no _content table. */
const FTS_SHADOW_TABLES = [
  'node_fts_config',
  'node_fts_data',
  'node_fts_docsize',
  'node_fts_idx',
  'item_fts_config',
  'item_fts_data',
  'item_fts_docsize',
  'item_fts_idx',
] as const;

/**
 * Writes the canonical form of the store at `source` to `out`: a new file whose bytes depend
 * only on the rows, not on how they got there. The FTS5 shadow rows come from `ftsSource`,
 * whose node_fts must be built afresh from the same node rows (a scratch build): they are then
 * a function of node alone.
 *
 * Why a fresh file and not the live one: b-tree pages, the freelist, FTS5 segments, the
 * header's change counter and schema cookie all remember history, and a catch-up that splits
 * or interleaves projects differently writes a different history. A fresh file that goes
 * through the same fixed steps (the same migrations; then, in one transaction, each table
 * copied in key order, the FTS5 shadow tables replaced, and the meta rows) has one history.
 *
 * Why not VACUUM INTO: its output's schema cookie is the source's + 1, and the live file's
 * cookie counts the seals it went through (measured: two stores with the same rows differed
 * in header byte 43 only); patching header bytes is avoidable, so it is avoided.
 */
export function writeCanonicalCopy(
  source: string,
  ftsSource: string,
  out: string,
  version: number,
): void {
  // The copy is never opened as a store: it is installed into the live file page by page
  // (install-store.ts), whose checkpoint syncs, then deleted. So no durable journal, no fsync.
  const db = openScratch(out, 'fresh item store');
  try {
    // Writing FTS5 shadow tables directly is what SQLite's defensive mode forbids; this
    // connection does nothing else, and copies rows FTS5 itself wrote.
    db.unsafeMode(true);
    attachScratch(db, source, 'live');
    attachScratch(db, ftsSource, 'fts');
    db.transaction(() => {
      // `SELECT *` between identical schemas lets SQLite copy raw records in key order (the
      // transfer optimisation): the same rows give the same pages.
      for (const table of COPIED_TABLES)
        db.exec(`INSERT INTO main.${table} SELECT * FROM live.${table}`);
      for (const table of FTS_SHADOW_TABLES) {
        db.exec(`DELETE FROM main.${table}`);
        db.exec(`INSERT INTO main.${table} SELECT * FROM fts.${table}`);
      }
      writeMeta(db, version, { sealed: true, rebuilding: false });
    })();
    db.exec('DETACH DATABASE fts');
    db.exec('DETACH DATABASE live');
  } finally {
    db.close();
  }
}
