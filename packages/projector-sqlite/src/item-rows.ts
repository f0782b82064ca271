import type { FromLine, Relation } from '@mem/core';

/** One curated item as the `item` table and its tags and relations hold it (issue 13). */
export interface ItemRow {
  project: string;
  id: string;
  /** Its node: the row node_fts indexes its summary and detail under. */
  node_id: number;
  type: 'rule' | 'fact' | 'task' | 'thread' | 'reminder';
  status: 'proposed' | 'open' | 'in_progress' | 'done' | 'dropped' | null;
  summary: string;
  detail: string | null;
  due: string | null;
  remind_at: string | null;
  valid_until: string | null;
  /** Knowledge's review date: past it the item is stale until confirmed. */
  review_after: string | null;
  /** Knowledge's cited source and the sha256 it had when written (both or neither). */
  source_uri: string | null;
  source_sha256: string | null;
  /** The memory line a fact or rule was promoted from (its item_added event's from_line), else null. */
  from_line: FromLine | null;
  deleted: boolean;
  created_seq: number;
  created_ts: string;
  /** A task's or thread's last opening: its creation, or the update that last set it open (null for other types). */
  opened_ts: string | null;
  updated_seq: number;
  updated_ts: string;
  /** Sorted. */
  tags: string[];
  parent: string | null;
  /** Targets of the item's relations of each kind, sorted. */
  anchors: string[];
  blocked_by: string[];
  links: string[];
  /** Its attention tier (issue 13 §5): active unless an item_attention_set said otherwise. */
  attention: 'active' | 'reference' | 'archive';
  pinned: boolean;
}

/**
 * A delivered find match with the ranks that placed it (issue 13 §5): bands of relevance, and
 * inside a band pins first, then the fused score of relevance and recency.
 */
export interface FoundItemRow extends ItemRow {
  /** Among the delivered matches, by BM25 (equal scores share a rank; 1 for all without a match). */
  relevance_rank: number;
  /** Among the delivered matches, by updated_seq, newest 1. */
  recency_rank: number;
  band: number;
  fused_score_micro: number;
}

/** An item as a listing shows it: its last activity (itself or a live item under it) and open descendants. */
export interface ItemActivityRow {
  project: string;
  id: string;
  type: ItemRow['type'];
  status: ItemRow['status'];
  summary: string;
  remind_at: string | null;
  /** When it was added. */
  created_ts: string;
  /** When a task or thread last became open (ItemRow.opened_ts): an unresolved one is open since then. */
  opened_ts: string | null;
  activity_ts: string;
  activity_seq: number;
  open_count: number;
}

/**
 * An always-loaded rule or fact as T0 reads it: what its entry shows and its freshness verdict
 * reads (its cited source included), never its tags or relations (T0 shows neither).
 */
export type KnowledgeRow = Pick<
  ItemRow,
  | 'project'
  | 'id'
  | 'type'
  | 'status'
  | 'summary'
  | 'created_ts'
  | 'valid_until'
  | 'review_after'
  | 'source_uri'
  | 'source_sha256'
>;

/** A due reminder as orient lists it. */
export interface DueReminderRow {
  project: string;
  id: string;
  summary: string;
  /** Never done or dropped: a resolved reminder is not due. */
  status: ItemRow['status'];
  remind_at: string;
}

export interface ItemCountRow {
  project: string;
  items: number;
}

/** How many live items of a project have one type and status (status null: knowledge). */
export interface ItemTypeCountRow {
  type: string;
  status: string | null;
  items: number;
}

export interface ItemTagCountRow {
  tag: string;
  count: number;
}

/** find_items' filters, inside the SQL statement so its total is exact and its page is LIMIT/OFFSET. */
export interface ItemFindQuery {
  projects: readonly string[];
  type?: string;
  status?: string;
  parent?: string;
  anchor?: string;
  tag?: string;
  /** The attention tiers to deliver (every find names them: archive is left out unless asked). */
  attention: readonly ('active' | 'reference' | 'archive')[];
  /** The weight of recency in the fused score inside a band (2 under a temporal cue). */
  recencyWeight: number;
  /**
   * A keyword query over the item's summary and detail: any of these FTS5 phrases, each one
   * term (the caller escapes user text); none or absent, no keyword query.
   */
  phrases?: readonly string[];
  includeDeleted: boolean;
  /** Deliver items held back by freshness too. */
  includeStale: boolean;
  /** The caller's clock, which freshness is read against. */
  now: Date;
  limit: number;
  offset: number;
  /**
   * A keyword query ranks only its best this many delivered matches by BM25 (at least
   * offset + limit): the page's ranks are among them, the total still counts every match.
   */
  candidates: number;
  /** How many of the held-back matches to list. */
  heldBackLimit: number;
  /**
   * Matches its caller holds back by their cited source (each judged from a citingMatches row:
   * changed, unreadable or outside the root), by project and id: left out of the page and the
   * total unless includeStale, as a match its dates hold back is. Absent or empty: none.
   */
  heldBySource?: readonly { project: string; id: string }[];
}

/** A find's match that cites a source (citingMatches): what judging its freshness reads. */
export interface CitingRow {
  project: string;
  id: string;
  type: ItemRow['type'];
  status: ItemRow['status'];
  opened_ts: string | null;
  valid_until: string | null;
  review_after: string | null;
  source_uri: string;
  source_sha256: string;
  created_seq: number;
}

export interface ItemFound {
  /** Every match delivered (held-back ones too under includeStale), however many are returned. */
  total: number;
  items: FoundItemRow[];
  /** The first heldBackLimit matches whose TTL has passed, by creation (delivered or not). */
  heldBack: ItemRow[];
  heldBackTotal: number;
}

/** One event that changed an item, as `mem history it-…` lists it. */
export interface ItemHistoryRow {
  seq: number;
  ts: string;
  /** The event type: item_added, item_updated (a confirm too), item_resolved, item_related, … */
  type: string;
  /** The writer's principal and token label, when the event names them. */
  actor: string | null;
  token: string | null;
  reason: string | null;
  /** What an item_logged entry said, and the conversation label it carried (null elsewhere). */
  text: string | null;
  conversation: string | null;
  /** What an item_related or item_unrelated event related: the relation and the other item (null elsewhere). */
  relation: Relation | null;
  other: string | null;
  /** Which end of that relation this item is: `item` (the one related) or `target`; null elsewhere. */
  side: 'item' | 'target' | null;
}
