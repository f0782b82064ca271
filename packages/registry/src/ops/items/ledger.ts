import {
  initialStatus,
  itemId,
  type EventOf,
  type ItemStatus,
  type ItemType,
  type LogEvent,
  type Relation,
} from '@mem/core';
import type { RegistryContext } from '../../context.js';

export type ItemEvent = EventOf<
  | 'item_added'
  | 'item_updated'
  | 'item_resolved'
  | 'item_related'
  | 'item_unrelated'
  | 'item_deleted'
>;

/** One item as its project's log states it now. */
export interface ItemState {
  id: string;
  project: string;
  type: ItemType;
  status: ItemStatus | null;
  summary: string;
  detail: string | null;
  tags: string[];
  due: string | null;
  remind_at: string | null;
  valid_until: string | null;
  /** Knowledge's review date: past it the item is stale until confirmed. */
  review_after: string | null;
  /** Knowledge's cited source and the sha256 it had when written (both or neither). */
  source_uri: string | null;
  source_sha256: string | null;
  parent: string | null;
  /** Targets of this item's anchor, blocked_by and link relations, sorted. */
  anchors: string[];
  blocked_by: string[];
  links: string[];
  deleted: boolean;
  created_seq: number;
  created_ts: string;
  updated_seq: number;
  updated_ts: string;
  /** Every event that wrote this item, in log order: what `mem history` shows. */
  mutations: ItemEvent[];
}

/**
 * One project's items folded from its log, the only truth, so a check-then-append never
 * depends on how far a projection has caught up (the corrections' ledger does the same).
 */
export interface ItemLedger {
  project: string;
  items: Map<string, ItemState>;
}

export async function readItemLedger(ctx: RegistryContext, project: string): Promise<ItemLedger> {
  const ledger: ItemLedger = { project, items: new Map() };
  for await (const { event } of ctx.engine.read(project)) foldItem(ledger, event);
  return ledger;
}

const LISTS: Record<Exclude<Relation, 'parent'>, 'anchors' | 'blocked_by' | 'links'> = {
  anchor: 'anchors',
  blocked_by: 'blocked_by',
  link: 'links',
};

/** Applies one event to the ledger; events of other types leave it unchanged. */
export function foldItem(ledger: ItemLedger, event: LogEvent): void {
  if (event.type === 'item_added') {
    const id = itemId(event.project, event.seq);
    ledger.items.set(id, {
      id,
      project: event.project,
      type: event.item_type,
      status: event.status ?? initialStatus(event.item_type),
      summary: event.summary,
      detail: event.detail ?? null,
      tags: [...(event.tags ?? [])].sort(),
      due: event.due ?? null,
      remind_at: event.remind_at ?? null,
      valid_until: event.valid_until ?? null,
      review_after: event.review_after ?? null,
      source_uri: event.source_uri ?? null,
      source_sha256: event.source_sha256 ?? null,
      parent: event.parent ?? null,
      anchors: [...(event.anchors ?? [])].sort(),
      blocked_by: [],
      links: [],
      deleted: false,
      created_seq: event.seq,
      created_ts: event.ts,
      updated_seq: event.seq,
      updated_ts: event.ts,
      mutations: [event],
    });
    return;
  }
  if (
    event.type !== 'item_updated' &&
    event.type !== 'item_resolved' &&
    event.type !== 'item_related' &&
    event.type !== 'item_unrelated' &&
    event.type !== 'item_deleted'
  )
    return;
  const item = ledger.items.get(event.item);
  if (!item) return;
  item.mutations.push(event);
  item.updated_seq = event.seq;
  item.updated_ts = event.ts;
  switch (event.type) {
    case 'item_updated':
      if (event.summary !== undefined) item.summary = event.summary;
      if (event.detail !== undefined) item.detail = event.detail;
      if (event.tags !== undefined) item.tags = [...event.tags].sort();
      if (event.status !== undefined) item.status = event.status;
      if (event.due !== undefined) item.due = event.due;
      if (event.remind_at !== undefined) item.remind_at = event.remind_at;
      if (event.valid_until !== undefined) item.valid_until = event.valid_until;
      if (event.review_after !== undefined) item.review_after = event.review_after;
      if (event.source_uri !== undefined) item.source_uri = event.source_uri;
      if (event.source_sha256 !== undefined) item.source_sha256 = event.source_sha256;
      return;
    case 'item_resolved':
      item.status = event.status;
      return;
    case 'item_related':
    case 'item_unrelated': {
      const added = event.type === 'item_related';
      if (event.relation === 'parent') {
        item.parent = added ? event.target : item.parent === event.target ? null : item.parent;
        return;
      }
      const list = LISTS[event.relation];
      const rest = item[list].filter((t) => t !== event.target);
      item[list] = added ? [...rest, event.target].sort() : rest;
      return;
    }
    case 'item_deleted':
      item.deleted = true;
      return;
  }
}

/** The live (not deleted) children of `id`, by creation. */
export function childrenOf(ledger: ItemLedger, id: string): ItemState[] {
  return [...ledger.items.values()].filter((i) => !i.deleted && i.parent === id);
}

/** Every live descendant of `id`, depth first, children by creation. */
export function descendantsOf(ledger: ItemLedger, id: string): ItemState[] {
  const out: ItemState[] = [];
  for (const child of childrenOf(ledger, id)) out.push(child, ...descendantsOf(ledger, child.id));
  return out;
}

/** Live rules or facts with no anchor: the always-loaded set, oldest first. */
export function unanchored(ledger: ItemLedger, type: 'rule' | 'fact'): ItemState[] {
  return [...ledger.items.values()]
    .filter((i) => !i.deleted && i.type === type && i.anchors.length === 0)
    .sort((a, b) => a.created_seq - b.created_seq);
}
