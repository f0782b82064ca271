import type Database from 'better-sqlite3';
import type { InsertItemParams } from './planned-write.js';

/**
 * What an item's birth notes for its batch's flushes, run by the shell (apply-events.ts) right
 * after `insertItem` wrote a row, in place of the AFTER INSERT triggers on item that noted the
 * same (item_fts_after_insert, item_live_counted, item_tree_born until stop 35). Trigger: an
 * add_items of 100 at 100 k items. Why: SQLite gives a statement that fires a trigger a
 * statement journal (it may change several rows, then fail), and an item insert changes ~10
 * pages (the row and its indexes' leaves), each copied into it first (memory up to 64 KiB,
 * then a temp file): the three triggers cost ~2.5 ms CPU of a
 * project+seal of ~17 (p50 16.8 -> 14.2, 40 interleaved rounds, load 10), the notes themselves
 * nearly nothing. Outcome: the same notes, written by three statements of one row each, which
 * fire nothing.
 * The values are insertItem's (statements.ts): a row it writes is live (deleted_at NULL) and has
 * no open descendants yet (tree_open 0), so its contribution to its parent's tree_open is
 * whether its status is unresolved. `insertItem` is the only statement that inserts into item;
 * a new one must note its rows here too.
 */
export const ITEM_BIRTH_SQL = {
  /** item_fts indexes the new item at the batch's end (item-fts.ts). */
  fts: `INSERT INTO temp.item_fts_pending (node_id, indexed) VALUES (@node_id, 0) ON CONFLICT DO NOTHING`,
  /** item_live_count counts it (orient-triggers.ts). */
  live: `INSERT INTO main.item_live_count (project, items) VALUES (@project, 1)
    ON CONFLICT (project) DO UPDATE SET items = items + 1`,
  /** Its parent's tree totals take it at the batch's end (flushOrientPending). */
  tree: `INSERT INTO temp.item_tree_pending (project, parent, child, open)
    VALUES (@project, @parent, @id, (@status IS NULL OR @status NOT IN ('done', 'dropped')))`,
} as const;

export type ItemBirth = Record<keyof typeof ITEM_BIRTH_SQL, Database.Statement>;

/** Notes the item `insertItem` just wrote with `params`. */
export function noteItemBirth(birth: ItemBirth, params: InsertItemParams): void {
  birth.fts.run({ node_id: params.node_id });
  birth.live.run({ project: params.project });
  if (params.parent !== null)
    birth.tree.run({
      project: params.project,
      parent: params.parent,
      id: params.id,
      status: params.status,
    });
}
