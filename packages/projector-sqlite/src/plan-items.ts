import { itemId, sha256Hex, type EventOf, type Relation } from '@mem/core';
import { canonicalJson } from './canonical-json.js';
import { itemNodeId } from './node-id.js';
import type { ItemHistoryParams, PlannedWrite } from './planned-write.js';

/** The curated-item events the item store applies (issue 13). */
export const ITEM_HANDLES = [
  'item_added',
  'item_updated',
  'item_resolved',
  'item_related',
  'item_unrelated',
  'item_deleted',
  'item_attention_set',
  'item_pinned',
  'item_unpinned',
  'item_logged',
] as const;

type ItemEvent = EventOf<(typeof ITEM_HANDLES)[number]>;

/** The level items are noded at: apart from L0–L2 and R, so no memory read path meets them. */
const ITEM_LEVEL = 'I';

/**
 * The writes one item event plans, ending in its history row. Pure: the item's id and node id
 * come from the event alone.
 */
export function planItemEvent(e: ItemEvent): PlannedWrite[] {
  return [...planItemState(e), ...history(e)];
}

/**
 * What `mem history it-…` lists of the event: its type, who wrote it (principal, token label)
 * and why. A relate or unrelate is a row of both items it joins, each saying which end it is
 * (`side`) and naming the other.
 */
function history(e: ItemEvent): PlannedWrite[] {
  const row = (
    id: string,
    relation: Relation | null,
    other: string | null,
    side: ItemHistoryParams['side'],
  ): PlannedWrite => ({
    statement: 'insertItemHistory',
    params: {
      project: e.project,
      id,
      seq: e.seq,
      ts: e.ts,
      type: e.type,
      actor: e.writer.principal ?? null,
      token: e.writer.token ?? null,
      reason: e.reason ?? null,
      text: e.type === 'item_logged' ? e.text : null,
      conversation: e.type === 'item_logged' ? (e.conversation ?? null) : null,
      relation,
      other,
      side,
    },
  });
  if (e.type === 'item_related' || e.type === 'item_unrelated')
    return [row(e.item, e.relation, e.target, 'item'), row(e.target, e.relation, e.item, 'target')];
  // The item row is the item_added entry (added_actor, added_token, added_reason; migration
  // 0030): a row here would be one more write keyed by the random item id per added item.
  if (e.type === 'item_added') return [];
  return [row(e.item, null, null, null)];
}

function planItemState(e: ItemEvent): PlannedWrite[] {
  switch (e.type) {
    case 'item_added':
      return added(e);
    case 'item_updated':
      return updated(e);
    case 'item_resolved':
      return [
        {
          statement: 'resolveItem',
          params: { project: e.project, id: e.item, status: e.status, seq: e.seq, ts: e.ts },
        },
      ];
    case 'item_related':
      return [relation(e), touched(e)];
    case 'item_unrelated':
      return [relation(e), touched(e)];
    case 'item_deleted':
      return [
        {
          statement: 'deleteItem',
          params: { project: e.project, id: e.item, seq: e.seq, ts: e.ts },
        },
        { statement: 'deleteItemNode', params: { project: e.project, id: e.item, ts: e.ts } },
      ];
    case 'item_attention_set':
      return [
        {
          statement: 'setItemAttention',
          params: { project: e.project, id: e.item, attention: e.attention },
        },
      ];
    case 'item_pinned':
    case 'item_unpinned':
      return [
        {
          statement: 'setItemPinned',
          params: { project: e.project, id: e.item, pinned: e.type === 'item_pinned' ? 1 : 0 },
        },
      ];
    case 'item_logged':
      // A log entry changes no field, but it is activity: its thread's recency moves (seed 000 §6).
      return [touched(e)];
  }
}

function added(e: EventOf<'item_added'>): PlannedWrite[] {
  const id = itemId(e.project, e.seq);
  const sha256 = sha256Hex(`${e.project}\u0000${e.seq}`);
  const node = itemNodeId(e.project, e.seq);
  const status = e.status ?? (['task', 'thread', 'reminder'].includes(e.item_type) ? 'open' : null);
  const writes: PlannedWrite[] = [
    {
      statement: 'insertNode',
      params: {
        id: node,
        project: e.project,
        level: ITEM_LEVEL,
        kind: 'item',
        run_id: null,
        t: null,
        source: null,
        text: e.detail !== undefined ? `${e.summary}\n\n${e.detail}` : e.summary,
        sha256,
        seq: e.seq,
        ts: e.ts,
        meta: canonicalJson({ id, type: e.item_type }),
      },
    },
    {
      statement: 'insertItem',
      params: {
        project: e.project,
        id,
        node_id: node,
        type: e.item_type,
        // The parent is a column of the row (migration 0034): the insert indexes it in item_fts
        // with its parent token (item-fts.ts) and counts it into its parent's tree
        // (its birth note, item-births.ts).
        parent: e.parent ?? null,
        status,
        summary: e.summary,
        detail: e.detail ?? null,
        due: e.due ?? null,
        remind_at: e.remind_at ?? null,
        valid_until: e.valid_until ?? null,
        review_after: e.review_after ?? null,
        source_uri: e.source_uri ?? null,
        source_sha256: e.source_sha256 ?? null,
        from_line: e.from_line !== undefined ? canonicalJson(e.from_line) : null,
        seq: e.seq,
        ts: e.ts,
        actor: e.writer.principal ?? null,
        token: e.writer.token ?? null,
        reason: e.reason ?? null,
      },
    },
  ];
  for (const tag of [...(e.tags ?? [])].sort())
    writes.push({ statement: 'insertItemTag', params: { project: e.project, id, tag } });
  for (const anchor of [...(e.anchors ?? [])].sort())
    writes.push({
      statement: 'insertItemEdge',
      params: { project: e.project, item: id, target: anchor, relation: 'anchor' },
    });
  return writes;
}

function updated(e: EventOf<'item_updated'>): PlannedWrite[] {
  const writes: PlannedWrite[] = [
    {
      statement: 'updateItem',
      params: {
        project: e.project,
        id: e.item,
        summary: e.summary ?? null,
        detail: e.detail ?? null,
        status: e.status ?? null,
        due: e.due ?? null,
        remind_at: e.remind_at ?? null,
        valid_until: e.valid_until ?? null,
        review_after: e.review_after ?? null,
        source_uri: e.source_uri ?? null,
        source_sha256: e.source_sha256 ?? null,
        seq: e.seq,
        ts: e.ts,
      },
    },
    { statement: 'refreshItemText', params: { project: e.project, id: e.item } },
  ];
  if (e.tags !== undefined) {
    writes.push({ statement: 'clearItemTags', params: { project: e.project, id: e.item } });
    for (const tag of [...e.tags].sort())
      writes.push({ statement: 'insertItemTag', params: { project: e.project, id: e.item, tag } });
  }
  return writes;
}

/**
 * A relation written or removed: a parent is the item row's column (migration 0034; a relate
 * sets it only where the item has none, an unrelate clears it only where it is the target, as the
 * edge row's insert and delete did), any other relation an edge.
 */
function relation(e: EventOf<'item_related' | 'item_unrelated'>): PlannedWrite {
  const related = e.type === 'item_related';
  if (e.relation === 'parent')
    return {
      statement: related ? 'setItemParent' : 'clearItemParent',
      params: { project: e.project, id: e.item, parent: e.target },
    };
  return {
    statement: related ? 'insertItemEdge' : 'deleteItemEdge',
    params: { project: e.project, item: e.item, target: e.target, relation: e.relation },
  };
}

/** A relation added or removed, or a log entry, is activity on the item, as the ledger counts it. */
function touched(e: EventOf<'item_related' | 'item_unrelated' | 'item_logged'>): PlannedWrite {
  return {
    statement: 'touchItem',
    params: { project: e.project, id: e.item, seq: e.seq, ts: e.ts },
  };
}
