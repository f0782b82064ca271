/*
 * The closed set of writes an event can plan. Each names one write function of the projection's
 * schema (migrations/postgres/0002_writes.sql) and carries its parameters; lookups against rows
 * applied earlier (a run's query, a parent's level, a tombstone) happen inside those functions,
 * so planning is a pure function of one event.
 */

export type Level = 'L0' | 'L1' | 'L2' | 'R';
export type NodeKind = 'evidence' | 'memory' | 'reference';
export type VectorKind = 'text' | 'symptom';

export interface NodeParams {
  project: string;
  level: Level;
  sha256: string;
  kind: NodeKind;
  run_id: string | null;
  t: number | null;
  source: string | null;
  text: string;
  symptom: string | null;
  seq: number;
  ts: string;
}

export interface RunParams {
  project: string;
  run_id: string;
  level: 'L1' | 'L2';
  query_id: string | null;
}

export interface ChainParams {
  project: string;
  level: 'L1' | 'L2';
  run_id: string;
  sha256: string;
  seq: number;
}

export interface EdgesParams {
  project: string;
  child_level: 'L1' | 'L2';
  child_sha: string;
  /** Distinct, in logged order. */
  parents: string[];
  /** Level a parent is looked up at first: L0 for an L1 child, L1 for an L2 child. */
  preferred_level: 'L0' | 'L1';
}

export interface TombstoneParams {
  project: string;
  target: string;
  reason: string;
  seq: number;
  ts: string;
}

export interface SignatureParams {
  project: string;
  sig_sha: string;
  signature: string;
  tool: string;
  raw: string;
  node_level: 'L1' | 'L2';
  node_sha: string;
  ts: string;
}

export interface LinesParams {
  project: string;
  level: 'L1' | 'L2';
  memory_sha: string;
  /** The memory's lines, in order: each line's content sha and text. */
  lines: { sha256: string; text: string }[];
  symptom: string | null;
  seq: number;
}

export interface RefreshParams {
  project: string;
  /** Lines, and memories whose lines (and whose replaced memories' lines) are re-read. */
  shas: string[];
}

export interface ForgetParams {
  project: string;
  target: string;
  target_kind: 'line' | 'memory';
  /** Every line the event refuses. */
  lines: string[];
  ts: string;
}

export interface SupersedeParams {
  project: string;
  target: string;
  target_kind: 'line' | 'memory';
  after_sha256: string;
}

/** The successor text of a superseded line (issue 12), a line at each level the old line has. */
export interface SuccessorLinesParams {
  project: string;
  target: string;
  after_sha256: string;
  text: string;
  seq: number;
}

/** A line added in the vault (`line_added`): a line of its note, held by no memory. */
export interface AddedLineParams {
  project: string;
  level: 'L1' | 'L2';
  sha256: string;
  text: string;
  seq: number;
}

export interface HoldSuccessorsParams {
  project: string;
  level: 'L1' | 'L2';
  memory_sha: string;
  /** The memory's lines: any of them superseded earlier hands this memory its successors. */
  shas: string[];
}

/** A curated item added (issue 13 §1): its row, and a text vector at level I under `sha256`, its node sha. */
export interface InsertItemParams {
  project: string;
  id: string;
  sha256: string;
  summary: string;
  detail: string | null;
  seq: number;
}

/** The summary and detail an `item_updated` sets (null: kept); the text, and so the vector, follows. */
export interface UpdateItemTextParams {
  project: string;
  id: string;
  summary: string | null;
  detail: string | null;
}

/** An item's attention tier as the vector sees it: archived leaves recall. */
export interface ItemAttentionParams {
  project: string;
  id: string;
  archived: boolean;
}

export interface DeleteItemParams {
  project: string;
  id: string;
  ts: string;
}

/** One write an event plans: a named statement and its parameters. */
export type PlannedWrite =
  | { statement: 'insertRun'; params: RunParams }
  | { statement: 'insertNode'; params: NodeParams }
  | { statement: 'advanceChain'; params: ChainParams }
  | { statement: 'insertEdges'; params: EdgesParams }
  | { statement: 'applyTombstone'; params: TombstoneParams }
  | { statement: 'foldSignature'; params: SignatureParams }
  | { statement: 'insertLines'; params: LinesParams }
  | { statement: 'refreshLines'; params: RefreshParams }
  | { statement: 'forget'; params: ForgetParams }
  | { statement: 'supersede'; params: SupersedeParams }
  | { statement: 'insertSuccessorLines'; params: SuccessorLinesParams }
  | { statement: 'insertAddedLine'; params: AddedLineParams }
  | { statement: 'holdSuccessors'; params: HoldSuccessorsParams }
  | { statement: 'insertItem'; params: InsertItemParams }
  | { statement: 'updateItemText'; params: UpdateItemTextParams }
  | { statement: 'setItemAttention'; params: ItemAttentionParams }
  | { statement: 'deleteItem'; params: DeleteItemParams };

/** The writes that set an item's text: the shell embeds the text each leaves (item-texts.ts). */
export type ItemTextWrite = Extract<PlannedWrite, { statement: 'insertItem' | 'updateItemText' }>;

export type StatementName = PlannedWrite['statement'];
