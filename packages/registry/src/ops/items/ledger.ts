import type { ItemRow } from '@mem/projector-sqlite';

/** One item as the SQLite projection holds it at the log head: what a write's checks read. */
export type ItemState = Omit<ItemRow, 'node_id'>;

/**
 * The items of one project a write's checks read, from the item store caught up to the log
 * head (see item-write.ts): the ones it names, and whatever else a check asked the store for.
 */
export interface ItemLedger {
  project: string;
  items: Map<string, ItemState>;
}

/** The ledger of `rows` (of `project`). */
export function ledgerOf(project: string, rows: readonly ItemRow[]): ItemLedger {
  return { project, items: new Map(rows.map((row) => [row.id, stateOf(row)])) };
}

export function stateOf(row: ItemRow): ItemState {
  const { node_id: _node, ...state } = row;
  return state;
}

/** True for a live rule or fact with no anchor that is not archived: one T0 loads. */
export function alwaysLoaded(i: ItemState): boolean {
  return (
    !i.deleted &&
    (i.type === 'rule' || i.type === 'fact') &&
    i.anchors.length === 0 &&
    i.attention !== 'archive'
  );
}

/** The ledger's always-loaded rules or facts (live, unanchored, not archived), oldest first. */
export function unanchored(ledger: ItemLedger, type: 'rule' | 'fact'): ItemState[] {
  return [...ledger.items.values()]
    .filter((i) => i.type === type && alwaysLoaded(i))
    .sort((a, b) => a.created_seq - b.created_seq);
}
