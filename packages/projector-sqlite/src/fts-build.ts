import { registerFtsText } from './fts-text.js';
import { buildItemFts } from './item-fts.js';
import { attachScratch, openScratch } from './open-database.js';

/**
 * Builds node_fts for the node rows of `source` in a scratch file at `out`, and item_fts for
 * its item rows (item-fts.ts, in node id order into a new table): the same schema
 * (the migrations), node copied in rowid order, then each node's mem_fts_text (fts-text.ts: CJK
 * runs as bigrams) indexed in rowid order into the new, empty node_fts — what FTS5's 'rebuild'
 * did before the text FTS5 indexes stopped being node.text as it is ('rebuild' reads node.text).
 * A new table starts from a new structure record and the rows go in in rowid order, so the
 * shadow rows it writes depend on node alone. The canonical copy takes them from here.
 *
 * Why a scratch file and not the live one: no rollback journal and no fsync are needed for
 * a file that is thrown away, which measured ~6x faster than rebuilding in place.
 */
export function buildFtsScratch(source: string, out: string): void {
  const db = openScratch(out, 'FTS scratch file');
  try {
    attachScratch(db, source, 'live');
    db.transaction(() => {
      db.exec(`INSERT INTO main.node SELECT * FROM live.node`);
      registerFtsText(db);
      db.exec(`INSERT INTO main.node_fts (rowid, text)
        SELECT id, mem_fts_text(text) FROM main.node ORDER BY id`);
      buildItemFts(db, 'live');
    })();
    db.exec('DETACH DATABASE live');
  } finally {
    db.close();
  }
}
