import type { ProjectionOutput, Projector } from '@mem/engine';
import { applyEvents, commitPending, readPosition } from './apply-events.js';
import { digestStore } from './digest.js';
import { namingFullDisk } from './disk-full.js';
import type { ItemStoreHandle } from './handle.js';
import { checkpointTruncate } from './open-database.js';
import { openStore } from './open-store.js';
import { SQLITE_HANDLES } from './plan.js';
import { resetStore } from './reset-store.js';
import { storeServes } from './reuse-store.js';
import { sealStore } from './seal.js';

/**
 * Bump when the same log would give different bytes (schema, statements, canonical copy).
 * 4: node_fts is written in place by triggers and the meta row `rebuilding` replaced
 * `fts_built`, so a version-3 file (whose index may lag node) is rebuilt.
 * 5: superseded_line names the correction's actor and reason (migration 0011).
 * 6: item.updated_ts (migration 0013), set by every item event: a version-5 file lacks it.
 * 7: item.anchor_count and item_tag_count (migration 0014), orient's totals kept by the writes.
 * 8: item_due_reminder replaces item_live_reminder (migration 0015).
 * 9: item.review_after, source_uri and source_sha256 (migration 0016), freshness inputs.
 * 10: item.attention and item.pinned (migration 0017), from the attention and pin events.
 * 11: item_history (migration 0018), one row per event that changed an item; orient's
 *     open-thread and due-reminder indexes leave archived items out (migration 0019).
 * 12: the file is in WAL mode (header bytes 18 and 19), installed in place, never renamed.
 * 13: item.from_line (migration 0020), the memory line a fact or rule was promoted from.
 * 14: item_open_thread ordered by tree_activity (migration 0021), orient's threads one range.
 * 15: item_logged (add_log): item_history.text and conversation (migration 0022), and the
 *     entry moves the item's activity.
 * 16: line_pin (migration 0023), from the line_pinned and line_unpinned events.
 * 17: node_superseded_memory (migration 0024), the index refreshLines looks superseded memories up by.
 * 18: item_fts and the held-back indexes (migration 0025): a keyword find's total in FTS5.
 * 19: chunk_by_sha (migration 0026), the index citedChunks probes.
 * 20: item.opened_ts (migration 0027): when a task or thread last became open.
 * 21: opened_ts also moves when a proposal goes straight to in progress (open work).
 * 22: (stop 29, undone at 23) item node ids in their project's range: two project names with
 *     one range made the store refuse every later catch-up.
 * 23: item_history.relation and other (migration 0028): what a relate or unrelate named; item
 *     node ids hashed again (nodeId), as before 22.
 * 24: item_history.side (migration 0029): a relate or unrelate is a row of its target too.
 * 25: item_fts's scope holds each item's parent tokens (item-fts.ts): no migration, its columns
 *     stay; the replay indexes them.
 * 26: an item's "added" history entry is its item row (item.added_actor, added_token and
 *     added_reason, migration 0030); item_history holds the events after it.
 * 27: review_finding.kind takes 'orphaned_knowledge' (migration 0031).
 * 28: an item node's id is its seq's block slot and offset (itemNodeId), not a hash of its sha:
 *     no migration, the replay writes the new ids.
 * 29: review_finding_open_kind (migration 0032), the index orient's review counts read.
 * 30: a whole memory's supersession refreshes its lines (their successors left live before).
 * 31: line_confirmation (migration 0033): a confirmed line's cited spans' digests.
 * 32: a line superseded twice in the log keeps the first supersession in node.superseded_by,
 *     and a replacement is confirmed only as the successor line its event made (no migration).
 * 33: an item's parent is item.parent (migration 0034, item_by_parent), no longer an edge row.
 * 34: item_citing (migration 0035), the range find_items reads its matches citing a source from.
 * 35: item is a rowid table keyed by node_id, (project, id) the unique index item_by_id
 *     (migration 0036); item_by_node is gone (the rowid).
 * 36: chunk.bytes_sha256 (migration 0037), a chunk's byte digest, which grounding compares.
 * 37: node_fts and item_fts index mem_fts_text(node.text) (fts-text.ts): each CJK run as its
 *     character bigrams. No migration: their columns and tokenizer stay; the replay indexes them.
 */
const VERSION = 37;

/** The SQLite item store projection: `.mem/items.sqlite`. */
export const projectorSqlite: Projector<ItemStoreHandle> = {
  name: 'sqlite',
  version: VERSION,
  handles: SQLITE_HANDLES,
  async init(target) {
    return namingFullDisk(target.stateDir, 'open', () => openStore(target.stateDir, VERSION));
  },
  async position(handle, project) {
    return readPosition(handle, project);
  },
  async project(handle, project, batch) {
    return namingFullDisk(handle.stateDir, 'write', () => applyEvents(handle, project, batch));
  },
  async seal(handle) {
    return namingFullDisk(handle.stateDir, 'seal', () => sealStore(handle, VERSION));
  },
  // No file to compare byte for byte: a store caught up in place is compared by digest.
  async outputs(): Promise<ProjectionOutput[]> {
    return [];
  },
  async digest(handle) {
    return namingFullDisk(handle.stateDir, 'read', () => {
      commitPending(handle);
      return digestStore(handle.db);
    });
  },
  async close(handle) {
    if (!handle.db.open) return;
    // Applied but unsealed work is committed: a catch-up in place loses nothing, and a file
    // mid-rebuild still says so (meta rebuilding), so its next seal writes the canonical copy.
    try {
      await namingFullDisk(handle.stateDir, 'write', () => {
        commitPending(handle);
        // A catch-up that failed after rewriting text was never sealed: its -wal is truncated here.
        if (handle.rewrote) checkpointTruncate(handle.db, handle.files.live);
      });
    } finally {
      handle.db.close();
    }
  },
  async reusable(handle, target) {
    return namingFullDisk(handle.stateDir, 'read', () =>
      storeServes(handle, target.stateDir, VERSION),
    );
  },
  async reset(target, project) {
    return namingFullDisk(target.stateDir, 'reset', () =>
      resetStore(target.stateDir, VERSION, project),
    );
  },
};
