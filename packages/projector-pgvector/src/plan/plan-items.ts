import { itemId, sha256Hex, type EventOf } from '@mem/core';
import type { PlannedWrite } from './planned-write.js';

/**
 * The item events that change what vector recall finds (issue 13 §1): a text set (added, summary
 * or detail updated), an attention tier (archive hides), a delete. Status, relations and pins
 * shape no vector; the query reads those from the item store.
 */
export const ITEM_VECTOR_HANDLES = [
  'item_added',
  'item_updated',
  'item_attention_set',
  'item_deleted',
] as const;

type ItemVectorEvent = EventOf<(typeof ITEM_VECTOR_HANDLES)[number]>;

/** The item's node sha, as the item store derives it (plan-items.ts there): one key for both legs. */
export function itemNodeSha(project: string, seq: number): string {
  return sha256Hex(`${project}\u0000${seq}`);
}

/** The writes one item event plans. Pure: the id and node sha come from the event alone. */
export function planItemEvent(e: ItemVectorEvent): PlannedWrite[] {
  switch (e.type) {
    case 'item_added':
      return [
        {
          statement: 'insertItem',
          params: {
            project: e.project,
            id: itemId(e.project, e.seq),
            sha256: itemNodeSha(e.project, e.seq),
            summary: e.summary,
            detail: e.detail ?? null,
            seq: e.seq,
          },
        },
      ];
    case 'item_updated':
      // A confirmation, a status or a date moves no text: no write, no embedding.
      if (e.summary === undefined && e.detail === undefined) return [];
      return [
        {
          statement: 'updateItemText',
          params: {
            project: e.project,
            id: e.item,
            summary: e.summary ?? null,
            detail: e.detail ?? null,
          },
        },
      ];
    case 'item_attention_set':
      return [
        {
          statement: 'setItemAttention',
          params: { project: e.project, id: e.item, archived: e.attention === 'archive' },
        },
      ];
    case 'item_deleted':
      return [{ statement: 'deleteItem', params: { project: e.project, id: e.item, ts: e.ts } }];
  }
}
