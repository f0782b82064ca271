/*
 * The closed set of writes an event can plan. Each variant names one prepared statement
 * (SQL in statements.ts) and carries its named parameters, already bindable: numbers,
 * strings and null only (booleans become 0/1 in the planner).
 */

import type { IdempotencyKeyRow } from './rows.js';

export type NodeKind = 'evidence' | 'memory' | 'reference' | 'line' | 'item';

export interface InsertNodeParams {
  id: number;
  project: string;
  level: 'L0' | 'L1' | 'L2' | 'R' | 'I';
  kind: NodeKind;
  run_id: string | null;
  t: number | null;
  source: string | null;
  text: string;
  sha256: string;
  seq: number;
  ts: string;
  /** Canonical JSON (sorted keys). */
  meta: string;
}

export interface MemoryChainParams {
  project: string;
  level: 'L1' | 'L2';
  run_id: string;
  sha256: string;
  seq: number;
}

export interface InsertEdgeParams {
  project: string;
  child_level: 'L1' | 'L2';
  child_sha: string;
  parent_sha: string;
  /** Level the parent is looked up at first: L0 for an L1 child, L1 for an L2 child. */
  preferred_level: 'L0' | 'L1';
}

/** A line's edge (line_edge): to a memory holding it, or to a sha it rests on. */
export interface InsertLineEdgeParams {
  project: string;
  level: 'L1' | 'L2';
  line_sha: string;
  kind: 'memory' | 'parent';
  target_sha: string;
}

/** Recomputes whether the lines of the memory `sha256` (and of memories it superseded) are live. */
export interface RefreshLinesParams {
  project: string;
  sha256: string;
}

export interface StartRunParams {
  project: string;
  run_id: string;
  level: 'L1' | 'L2';
  query_id: string | null;
  input_level: string;
  model: string;
  chunk_tokens: number;
  memory_budget: number;
  exit_gate: 0 | 1;
  seq: number;
  ts: string;
}

export interface EndRunParams {
  project: string;
  run_id: string;
  level: 'L1' | 'L2';
  chunks_seen: number;
  chunks_used: number;
  final_memory_sha: string | null;
  /** Canonical JSON of `{code, message}`, or null. */
  error: string | null;
  seq: number;
  ts: string;
}

export interface InsertChunkParams {
  project: string;
  run_id: string;
  t: number;
  level: 'L0' | 'L1';
  source: string;
  span_start: number | null;
  span_end: number | null;
  sha256: string;
  /** The chunk's byte digest (chunk event `bytes_sha256`); null in logs written before it. */
  bytes_sha256: string | null;
  seq: number;
}

export interface InsertGateParams {
  project: string;
  run_id: string;
  t: number;
  level: 'L1' | 'L2';
  update: 0 | 1;
  exit: 0 | 1;
  think: string;
  latency_ms: number;
  seq: number;
}

export interface TombstoneParams {
  project: string;
  target: string;
  reason: string;
  seq: number;
  ts: string;
}

export interface ApplyTombstoneParams {
  project: string;
  target: string;
}

/** principal_added / project_added: a name, first occurrence wins. */
export interface AddNameParams {
  name: string;
  seq: number;
  ts: string;
}

export interface MembershipParams {
  project: string;
  principal: string;
  seq: number;
  ts: string;
}

export interface InsertTokenParams {
  token_id: string;
  label: string;
  principal: string;
  /** Canonical JSON: "*" or a sorted list. */
  projects: string;
  /** Canonical JSON: a sorted list. */
  capabilities: string;
  expires_at: string | null;
  secret_sha256: string;
  seq: number;
  ts: string;
}

export interface RevokeTokenParams {
  token_id: string;
  reason: string | null;
  seq: number;
  ts: string;
}

export interface AcceptIngestParams {
  project: string;
  job_id: string;
  ingest_id: string;
  source: string;
  format: string;
  records: number;
  principal: string | null;
  token_label: string | null;
  seq: number;
  ts: string;
}

export interface FinishIngestParams {
  project: string;
  job_id: string;
  status: 'done' | 'failed';
  chunks: number;
  appended: number;
  /** Canonical JSON of `{code, message}`, or null. */
  error: string | null;
  seq: number;
  ts: string;
}

/** One occurrence of a failure signature: a memory line that names it. */
export interface FoldSignatureParams {
  project: string;
  sig_sha: string;
  signature: string;
  tool: string;
  level: 'L1' | 'L2';
  line_sha: string;
  memory_sha: string;
  ts: string;
}

/** An item's row beside its node (item_added). */
export interface InsertItemParams {
  project: string;
  id: string;
  node_id: number;
  type: string;
  /** The parent item's id (item.parent, migration 0034), or null. */
  parent: string | null;
  status: string | null;
  summary: string;
  detail: string | null;
  due: string | null;
  remind_at: string | null;
  valid_until: string | null;
  review_after: string | null;
  source_uri: string | null;
  source_sha256: string | null;
  /** The promoted-from line as canonical JSON, or null. */
  from_line: string | null;
  seq: number;
  ts: string;
  /** Who added the item and why (the event's writer and reason): its "added" history entry. */
  actor: string | null;
  token: string | null;
  reason: string | null;
}

/** item_updated: a null field is left as it is. */
export interface UpdateItemParams {
  project: string;
  id: string;
  summary: string | null;
  detail: string | null;
  status: string | null;
  due: string | null;
  remind_at: string | null;
  valid_until: string | null;
  review_after: string | null;
  source_uri: string | null;
  source_sha256: string | null;
  seq: number;
  ts: string;
}

/** A parent set or cleared: item.parent (migration 0034). */
export interface ItemParentParams {
  project: string;
  id: string;
  parent: string;
}

/** A relation other than parent between two items of the project (edge at level 'I'). */
export interface ItemEdgeParams {
  project: string;
  item: string;
  target: string;
  relation: string;
}

/** One write an event plans: a named statement and its parameters. */
export type PlannedWrite =
  | { statement: 'insertNode'; params: InsertNodeParams }
  | { statement: 'supersedeMemoryChain'; params: MemoryChainParams }
  | { statement: 'setMemoryHead'; params: MemoryChainParams }
  | { statement: 'reinstateMemory'; params: MemoryChainParams }
  | { statement: 'insertEdge'; params: InsertEdgeParams }
  | { statement: 'insertLineEdge'; params: InsertLineEdgeParams }
  | { statement: 'refreshLines'; params: RefreshLinesParams }
  | { statement: 'foldSignature'; params: FoldSignatureParams }
  | { statement: 'startRun'; params: StartRunParams }
  | { statement: 'endRun'; params: EndRunParams }
  | { statement: 'insertChunk'; params: InsertChunkParams }
  | { statement: 'insertGate'; params: InsertGateParams }
  | { statement: 'insertTombstone'; params: TombstoneParams }
  | { statement: 'applyTombstone'; params: ApplyTombstoneParams }
  | { statement: 'addPrincipal'; params: AddNameParams }
  | { statement: 'addProject'; params: AddNameParams }
  | { statement: 'addMember'; params: MembershipParams }
  | { statement: 'removeMember'; params: Omit<MembershipParams, 'seq' | 'ts'> }
  | { statement: 'insertToken'; params: InsertTokenParams }
  | { statement: 'revokeToken'; params: RevokeTokenParams }
  | { statement: 'acceptIngest'; params: AcceptIngestParams }
  | { statement: 'finishIngest'; params: FinishIngestParams }
  | {
      statement: 'openReview';
      params: {
        project: string;
        id: string;
        kind: string;
        /** The sorted subject shas as a JSON array. */
        subjects: string;
        explanation: string;
        seq: number;
        opened_by: string | null;
      };
    }
  | { statement: 'recordIdempotency'; params: IdempotencyKeyRow & { seq: number } }
  | {
      statement: 'decideReview';
      params: { project: string; id: string; decision: string; seq: number };
    }
  | {
      statement: 'forgetLine';
      params: { project: string; sha256: string; target: string; seq: number };
    }
  | { statement: 'forgetLineNode'; params: { project: string; sha256: string; ts: string } }
  | { statement: 'forgetMemoryLines'; params: { project: string; shas: string } }
  | {
      statement: 'supersedeLineNode';
      params: { project: string; sha256: string; after_sha256: string; seq: number };
    }
  | { statement: 'forgetMemory'; params: { project: string; target: string; ts: string } }
  | {
      statement: 'supersedeMemory';
      params: { project: string; target: string; after_sha256: string };
    }
  | { statement: 'insertSuccessorLine'; params: SuccessorLineParams }
  | { statement: 'insertAddedLine'; params: AddedLineParams }
  | {
      statement: 'copySuccessorEdges';
      params: {
        project: string;
        level: 'L1' | 'L2';
        sha256: string;
        after_sha256: string;
        seq: number;
      };
    }
  | {
      statement: 'holdSuccessors';
      params: { project: string; level: 'L1' | 'L2'; line_sha: string; memory_sha: string };
    }
  | {
      statement: 'supersedeLine';
      params: {
        project: string;
        sha256: string;
        target_kind: 'line' | 'memory';
        after_sha256: string;
        seq: number;
        /** The event's writer principal, when known. */
        actor: string | null;
        reason: string;
      };
    }
  | ItemWrite;

/** A line added in the vault (`line_added`), as a line node of its note. */
export interface AddedLineParams {
  id: number;
  project: string;
  level: 'L1' | 'L2';
  query_id: string | null;
  text: string;
  sha256: string;
  seq: number;
  ts: string;
  /** `{added_by: {seq, actor, reason}}`, canonical JSON. */
  meta: string;
}

/** The successor text of a superseded line, as a line node at one level the old line has. */
export interface SuccessorLineParams {
  id: number;
  project: string;
  level: 'L1' | 'L2';
  /** The superseded line. */
  sha256: string;
  after_sha256: string;
  text: string;
  seq: number;
  ts: string;
  /** `{corrected_by: {seq, actor, reason, supersedes}}`, canonical JSON. */
  meta: string;
}

export type ItemWrite =
  | { statement: 'insertItem'; params: InsertItemParams }
  | { statement: 'updateItem'; params: UpdateItemParams }
  | { statement: 'refreshItemText'; params: { project: string; id: string } }
  | { statement: 'insertItemTag'; params: { project: string; id: string; tag: string } }
  | { statement: 'clearItemTags'; params: { project: string; id: string } }
  | { statement: 'insertItemEdge'; params: ItemEdgeParams }
  | { statement: 'deleteItemEdge'; params: ItemEdgeParams }
  | { statement: 'setItemParent'; params: ItemParentParams }
  | { statement: 'clearItemParent'; params: ItemParentParams }
  | {
      statement: 'resolveItem';
      params: { project: string; id: string; status: string; seq: number; ts: string };
    }
  | { statement: 'touchItem'; params: { project: string; id: string; seq: number; ts: string } }
  | { statement: 'deleteItem'; params: { project: string; id: string; seq: number; ts: string } }
  | { statement: 'deleteItemNode'; params: { project: string; id: string; ts: string } }
  | {
      statement: 'setItemAttention';
      params: { project: string; id: string; attention: 'active' | 'reference' | 'archive' };
    }
  | { statement: 'setItemPinned'; params: { project: string; id: string; pinned: 0 | 1 } }
  | {
      statement: 'pinLine';
      params: {
        project: string;
        level: 'L1' | 'L2';
        sha256: string;
        seq: number;
        actor: string | null;
        reason: string;
      };
    }
  | { statement: 'unpinLine'; params: { project: string; level: 'L1' | 'L2'; sha256: string } }
  | { statement: 'clearLineConfirmation'; params: { project: string; line_sha: string } }
  | {
      statement: 'clearSuccessorConfirmation';
      params: { project: string; line_sha: string; seq: number };
    }
  | {
      statement: 'confirmSuccessorLine';
      params: { project: string; line_sha: string; chunk_sha: string; digest: string; seq: number };
    }
  | {
      statement: 'confirmLine';
      params: { project: string; line_sha: string; chunk_sha: string; digest: string; seq: number };
    }
  | { statement: 'insertItemHistory'; params: ItemHistoryParams };

/** One row of an item's history: the event that changed it, who wrote it and why. */
export interface ItemHistoryParams {
  project: string;
  id: string;
  seq: number;
  ts: string;
  type: string;
  actor: string | null;
  token: string | null;
  reason: string | null;
  /** An item_logged entry's text and conversation label; null on every other event's row. */
  text: string | null;
  conversation: string | null;
  /** An item_related or item_unrelated event's relation and the other item (null elsewhere). */
  relation: string | null;
  other: string | null;
  /** Which end of that relation this item is: `item` (the one related) or `target`; null elsewhere. */
  side: 'item' | 'target' | null;
}

export type StatementName = PlannedWrite['statement'];
