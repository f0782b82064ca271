import type { ItemRow, ItemStore, NodeRow } from '@mem/projector-sqlite';

/** What a query result says of the curated item it is (issue 13 §1); null on a line, passage or chunk. */
export interface ItemOfHit {
  id: string;
  type: ItemRow['type'];
  status: ItemRow['status'];
  attention: ItemRow['attention'];
  pinned: boolean;
  /** The record it cites (`--source`), null when none: a hit shows what it rests on. */
  source_uri: string | null;
  /** The memory line it was promoted from (its sha, level and vault note), null when none. */
  from_line: { sha256: string; level: 'L1' | 'L2'; note: string } | null;
}

/**
 * Decides which recalled items a query holds back (an expired or stale verdict, read by the
 * caller against its clock and the items' cited sources): the keys (`project NUL id`) to leave
 * out. The verdict is the registry's (find_items' code), never recomputed here. It is asked
 * only of the items the answer matched (they cleared the floor) and of those that reach its page,
 * each once, so the items it names are the answer's own.
 */
export type ItemHoldBack = (rows: readonly ItemRow[]) => Promise<ReadonlySet<string>>;

/** The key an item is held back by: its project and id. */
export function itemKey(row: Pick<ItemRow, 'project' | 'id'>): string {
  return `${row.project}\u0000${row.id}`;
}

/**
 * The item rows of the item nodes among `nodes`, in one statement, by node id. An item node
 * whose row is gone, deleted or archived has no entry: the keyword set already leaves those
 * out (keyword-statistics.ts), and this keeps an index out of step from delivering one.
 * Visibility, not freshness, and on purpose not find_items' (find.ts attentionOf): a find is a
 * listing the caller filters (include_deleted, include_archive, an attention tier), while a
 * query answers from what is in force, with no such switch. Freshness is one rule for both,
 * the registry's judgeItem, asked through ItemHoldBack.
 */
export function itemRowsOf(
  items: ItemStore,
  projects: readonly string[],
  nodes: readonly NodeRow[],
): Map<number, ItemRow> {
  const ids = [...new Set(nodes.filter((n) => n.kind === 'item').map((n) => n.meta.id as string))];
  const out = new Map<number, ItemRow>();
  if (ids.length === 0) return out;
  for (const row of items.itemsById(projects, ids))
    if (!row.deleted && row.attention !== 'archive') out.set(row.node_id, row);
  return out;
}

/** The item block of a result. */
export function itemOf(row: ItemRow): ItemOfHit {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    attention: row.attention,
    pinned: row.pinned,
    source_uri: row.source_uri,
    from_line: row.from_line
      ? { sha256: row.from_line.sha256, level: row.from_line.level, note: row.from_line.note }
      : null,
  };
}
