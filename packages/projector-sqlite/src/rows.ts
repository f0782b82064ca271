/*
 * Rows of the item store as the read API returns them. Column names follow the log's
 * field names (snake_case), so a row and the event it came from read alike.
 */

/** 'I': a curated item's node (issue 13 §1), searched beside lines when a query asks for it. */
export type NodeLevel = 'L0' | 'L1' | 'L2' | 'R' | 'I';

/** A node: evidence (L0), a memory or one of its lines (L1, L2), a reference passage (R), or a curated item (I). */
export interface NodeRow {
  id: number;
  project: string;
  level: NodeLevel;
  kind: 'evidence' | 'memory' | 'reference' | 'line' | 'item';
  query_id: string | null;
  run_id: string | null;
  t: number | null;
  source: string | null;
  text: string;
  sha256: string;
  /** Log seq of the event that created the node. */
  seq: number;
  /** ts of that event (log data, not a clock reading of the projector). */
  created_ts: string;
  /**
   * sha256 of the memory that replaced this one in its chain, or null for the head. A line:
   * null while some memory holding it is live, else the latest memory that held it.
   */
  superseded_by: string | null;
  /** ts of the first tombstone of this sha in the project, or null. */
  deleted_at: string | null;
  /** memory: `{lines, parents, tokens}`; line: `{}`; reference: `{heading_path}`; evidence: `{}`; item: `{id, type}`. */
  meta: Record<string, unknown>;
}

/** An idempotency_key row (issue 13 §2): a key's request and the batch that answered it. */
export interface IdempotencyKeyRow {
  key_sha256: string;
  project: string;
  fingerprint: string;
  op: string;
  /** The write's batch, without the record that closes it. */
  first_seq: number;
  last_seq: number;
  /** The record's ts: the key expires 24 h after it. */
  ts: string;
}

/** An open review_finding row (issue 12 §4): a finding no decision has closed yet. */
export interface ReviewFindingRow {
  id: string;
  kind: 'resurfacing' | 'contradiction' | 'duplicate' | 'stale_grounding' | 'orphaned_knowledge';
  subjects: string[];
  explanation: string;
  seq: number;
  opened_by: string | null;
}

/** A failure_signature row (issue 14): a signature folded over a project's memory lines. */
export interface FailureSignatureRow {
  project: string;
  sig_sha: string;
  signature: string;
  tool: string;
  level: 'L1' | 'L2';
  /** The line the latest occurrence was seen with, and its memory. */
  line_sha: string;
  memory_sha: string;
  seen_count: number;
  first_seen: string;
  last_seen: string;
}

/** An edge of a line (issue 11 §3): to a memory holding it, or to a sha it rests on. */
export interface LineEdgeRow {
  project: string;
  level: 'L1' | 'L2';
  line_sha: string;
  kind: 'memory' | 'parent';
  target_sha: string;
}

/** A line's supersession (issue 12): the `superseded` event that replaced it, from superseded_line. */
export interface SupersessionRow {
  /** The successor line's sha. */
  after_sha256: string;
  /** Log seq of the `superseded` event. */
  seq: number;
  /** The event's writer principal, when known. */
  actor: string | null;
  reason: string;
}

/**
 * What a citation shows of a node: its text, or the first `maxChars` characters of it (code
 * points, cut by SQLite: a long chunk is never copied out whole to be cut), and its length.
 */
export interface CitedNode {
  level: NodeLevel;
  sha256: string;
  source: string | null;
  t: number | null;
  deleted_at: string | null;
  text: string;
  /** Characters (code points) of the whole text. */
  text_chars: number;
}

/** An L0 chunk as ingest read it: its source, record span and the chunk size its run packed to. */
export interface CitedChunkRow {
  sha256: string;
  /** The chunk's byte digest, null where its chunk event (an older log) carries none. */
  bytes_sha256: string | null;
  source: string;
  span_start: number;
  span_end: number;
  chunk_tokens: number;
}

/** A provenance edge: the child memory rests on the parent. */
export interface EdgeRow {
  project: string;
  child_level: NodeLevel;
  child_sha: string;
  parent_level: NodeLevel;
  parent_sha: string;
  kind: string;
}

/** An extraction run: its start, and its end once run_end is applied. */
export interface RunRow {
  project: string;
  run_id: string;
  level: 'L1' | 'L2';
  query_id: string | null;
  input_level: string | null;
  model: string | null;
  chunk_tokens: number | null;
  memory_budget: number | null;
  exit_gate: boolean | null;
  started_seq: number | null;
  started_ts: string | null;
  chunks_seen: number | null;
  chunks_used: number | null;
  final_memory_sha: string | null;
  error: { code: string; message: string } | null;
  ended_seq: number | null;
  ended_ts: string | null;
}

/** Gate decisions of one run. */
export interface GateCounts {
  gates: number;
  updates: number;
  exits: number;
}

/** How far one project's log has been applied. */
export interface PositionRow {
  project: string;
  seq: number;
  head: string;
}

/** A full-text hit: the node and its bm25 rank (lower is better). */
export interface SearchHit {
  node: NodeRow;
  rank: number;
}

/** A keyword recall hit: the node and its BM25 score (FTS5's bm25() negated: higher is better). */
export interface KeywordHit {
  node: NodeRow;
  bm25: number;
}
