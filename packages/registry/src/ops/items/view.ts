import { z } from 'zod';
import { MemError, fromLineField } from '@mem/core';
import type { ItemRow } from '@mem/projector-sqlite';
import type { ItemLedger, ItemState } from './ledger.js';

/** An item as every item operation returns it (T2: the whole row). */
export const itemView = z.object({
  id: z.string(),
  project: z.string(),
  type: z.string(),
  status: z.string().nullable(),
  summary: z.string(),
  detail: z.string().nullable(),
  tags: z.array(z.string()),
  due: z.string().nullable(),
  remind_at: z.string().nullable(),
  valid_until: z.string().nullable(),
  review_after: z.string().nullable(),
  source_uri: z.string().nullable(),
  source_sha256: z.string().nullable(),
  /** Only on a promoted fact or rule: the memory line it came from (line, memory, note, the line's citations). */
  from_line: fromLineField.optional(),
  parent: z.string().nullable(),
  anchors: z.array(z.string()),
  blocked_by: z.array(z.string()),
  links: z.array(z.string()),
  deleted: z.boolean(),
  /**
   * Only on an item filed out of the active tier (item_attention_set, review supersede): archive
   * or reference (find says every tier). Absent: active. The walk read an archived item with
   * nothing saying so.
   */
  attention: z.enum(['active', 'reference', 'archive']).optional(),
  created_seq: z.number(),
  created_ts: z.string(),
  updated_seq: z.number(),
  updated_ts: z.string(),
});
export type ItemView = z.infer<typeof itemView>;

/** An item row of the SQLite projection as every item operation returns it. */
export function viewOfRow(row: ItemRow): ItemView {
  return {
    id: row.id,
    project: row.project,
    type: row.type,
    status: row.status,
    summary: row.summary,
    detail: row.detail,
    tags: row.tags,
    due: row.due,
    remind_at: row.remind_at,
    valid_until: row.valid_until,
    review_after: row.review_after,
    source_uri: row.source_uri,
    source_sha256: row.source_sha256,
    ...(row.from_line !== null ? { from_line: row.from_line } : {}),
    parent: row.parent,
    anchors: row.anchors,
    blocked_by: row.blocked_by,
    links: row.links,
    deleted: row.deleted,
    ...(row.attention !== 'active' ? { attention: row.attention } : {}),
    created_seq: row.created_seq,
    created_ts: row.created_ts,
    updated_seq: row.updated_seq,
    updated_ts: row.updated_ts,
  };
}

/** The item `id` of the ledger's project, or NOT_FOUND naming the field that named it. Deleted items are found unless `live`. */
export function requireItem(
  ledger: ItemLedger,
  id: string,
  field: string,
  live = false,
): ItemState {
  const item = ledger.items.get(id);
  if (!item || (live && item.deleted))
    throw new MemError(
      'NOT_FOUND',
      `${field}: no ${live ? 'live ' : ''}item ${id} in project ${JSON.stringify(ledger.project)}`,
      { field, id, project: ledger.project },
    );
  return item;
}

/** The one-line form the CLI prints. */
export function itemLine(item: ItemView): string {
  const from = item.from_line
    ? ` (from line ${item.from_line.sha256.slice(0, 12)} in ${item.from_line.note})`
    : '';
  return `${item.id} ${item.type}${item.status !== null ? ` [${item.status}]` : ''}${item.deleted ? ' (deleted)' : ''}${item.attention === 'archive' ? ' (archived)' : item.attention === 'reference' ? ' (reference)' : ''} ${item.summary}${from}`;
}

/**
 * The whole row as `mem items read` prints it: the one-line form, then each field that holds
 * something, one `  field: value` line each (lists comma-separated; the detail as written).
 */
export function itemRows(item: ItemView): string {
  const fields: [string, string | null][] = [
    ['project', item.project],
    ['detail', item.detail],
    ['tags', item.tags.join(', ') || null],
    ['due', item.due],
    ['remind_at', item.remind_at],
    ['valid_until', item.valid_until],
    ['review_after', item.review_after],
    ['source_uri', item.source_uri],
    ['source_sha256', item.source_sha256],
    ['parent', item.parent],
    ['anchors', item.anchors.join(', ') || null],
    ['blocked_by', item.blocked_by.join(', ') || null],
    ['links', item.links.join(', ') || null],
    ['created', `seq ${item.created_seq} at ${item.created_ts}`],
    ['updated', `seq ${item.updated_seq} at ${item.updated_ts}`],
  ];
  return [
    itemLine(item),
    ...fields
      .filter((f): f is [string, string] => f[1] !== null)
      .map(([name, value]) => `  ${name}: ${value.replaceAll('\n', '\n    ')}`),
  ].join('\n');
}
