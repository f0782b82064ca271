import type { Sql } from '../backend/sql.js';
import type { ItemTextWrite } from '../plan/planned-write.js';
import type { SeqWrite } from './run-writes.js';
import type { StatementSql } from './statements.js';

/** An item's summary and detail as a row holds them. */
export interface StoredItem {
  summary: string;
  detail: string | null;
}

/** The item store's text of an item: the summary, then a blank line and the detail (item_text in 0007). */
export function itemText(item: StoredItem): string {
  return item.detail === null ? item.summary : `${item.summary}\n\n${item.detail}`;
}

function isItemTextWrite(write: SeqWrite['write']): write is ItemTextWrite {
  return write.statement === 'insertItem' || write.statement === 'updateItemText';
}

/**
 * The rows of the items a batch updates but does not add, read before embedding. Consistent
 * with what the transaction later sees: it applies only from the position this batch starts
 * at, which no other batch has passed (checkStart), and each write checks its text in SQL.
 */
export async function storedItems(
  client: Sql,
  sql: StatementSql,
  project: string,
  writes: readonly SeqWrite[],
): Promise<Map<string, StoredItem>> {
  const added = new Set<string>();
  const wanted = new Set<string>();
  for (const { write } of writes) {
    if (write.statement === 'insertItem') added.add(write.params.id);
    if (write.statement === 'updateItemText' && !added.has(write.params.id))
      wanted.add(write.params.id);
  }
  if (wanted.size === 0) return new Map();
  const rows = await client.query<{ id: string; summary: string; detail: string | null }>(
    sql.storedItems,
    [project, [...wanted].sort()],
  );
  return new Map(rows.map((r) => [r.id, { summary: r.summary, detail: r.detail }]));
}

/**
 * The text each item write leaves, folded in batch order over `stored` (pure): what the shell
 * embeds and the write carries. null: the write names no item this project holds, and changes
 * nothing. The first item_added of an id wins, as ON CONFLICT does in SQL (a repeat's own
 * text is carried, never checked: the insert does nothing).
 */
export function itemTextsAfter(
  writes: readonly SeqWrite[],
  stored: ReadonlyMap<string, StoredItem>,
): Map<ItemTextWrite, string | null> {
  const items = new Map(stored);
  const out = new Map<ItemTextWrite, string | null>();
  for (const { write } of writes) {
    if (!isItemTextWrite(write)) continue;
    if (write.statement === 'insertItem') {
      const { id, summary, detail } = write.params;
      if (!items.has(id)) items.set(id, { summary, detail });
      out.set(write, itemText({ summary, detail }));
      continue;
    }
    const { id, summary, detail } = write.params;
    const before = items.get(id);
    if (before === undefined) {
      out.set(write, null);
      continue;
    }
    const after = { summary: summary ?? before.summary, detail: detail ?? before.detail };
    items.set(id, after);
    out.set(write, itemText(after));
  }
  return out;
}
