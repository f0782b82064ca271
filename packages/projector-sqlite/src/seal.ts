import { commitPending } from './apply-events.js';
import { writeCanonicalCopy } from './canonical-copy.js';
import { buildFtsScratch } from './fts-build.js';
import { openLive, type ItemStoreHandle } from './handle.js';
import { installStore } from './install-store.js';
import { checkpointTruncate } from './open-database.js';
import { isRebuilding } from './store-meta.js';
import { removeDatabaseFiles } from './store-files.js';

/**
 * Makes everything applied durable. A catch-up of a store already built (the common case)
 * costs one commit: its rows and node_fts were written in place, O(batch). A store that is
 * being rebuilt (created empty, or a project's rows dropped: meta `rebuilding` = '1') is
 * written in canonical form instead: node_fts built afresh in a scratch file, the canonical
 * copy beside the file, installed into `items.sqlite` page by page through SQLite
 * (install-store.ts: never a rename, which would strand other connections on the old file's
 * -wal and -shm), the handle reopened. `canonical: true` forces the canonical form (what a
 * test compares a caught-up store by).
 *
 * Why not canonical after every catch-up: that copy is O(size of the store) (0.66 s, 2.8 s
 * with one new node, at 1 M events). The live file's bytes then depend on its history, so
 * `mem verify` compares it with a rebuild by `digest` (rows, table by table), and the bytes
 * of a rebuild stay a function of the log alone (canonical-bytes.ts).
 *
 * Crash safety: a crash before the install commits leaves the old store and a stray copy,
 * which init deletes; the store still says rebuilding = '1', so the next seal writes the copy
 * again. After the commit the store is the copy (sealed, rebuilding = '0').
 */
export async function sealStore(
  handle: ItemStoreHandle,
  version: number,
  options: { canonical?: boolean } = {},
): Promise<void> {
  commitPending(handle);
  const canonical = options.canonical === true || isRebuilding(handle.db);
  if (!canonical || (!handle.dirty && options.canonical !== true)) {
    // Trigger: a write that may have dropped or replaced text (a forget, an edit, a delete).
    // Why: secure_delete zeroes the freed bytes in the new page, but WAL appends that page and
    // the -wal file keeps the old one (and the database file too, until a checkpoint).
    // Outcome: checkpointed and truncated now, so no file holds the old text; catch-ups that
    // only add (add_items) sync nothing.
    if (handle.rewrote) checkpointTruncate(handle.db, handle.files.live);
    handle.rewrote = false;
    handle.dirty = false;
    return;
  }
  const { live, sealing, ftsScratch } = handle.files;
  try {
    try {
      buildFtsScratch(live, ftsScratch);
      writeCanonicalCopy(live, ftsScratch, sealing, version);
    } finally {
      removeDatabaseFiles(ftsScratch);
    }
    // Closed first: the install replaces every page under this connection's prepared
    // statements and TEMP triggers, which are then registered afresh on the new store.
    handle.db.close();
    try {
      await installStore(sealing, live);
    } finally {
      Object.assign(handle, openLive(live));
    }
  } finally {
    removeDatabaseFiles(sealing);
  }
  handle.dirty = false;
  handle.rewrote = false;
}
