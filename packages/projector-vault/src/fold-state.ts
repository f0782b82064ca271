import type { MemoryLineRef } from '@mem/core';

/*
 * The fold state of one project: everything the notes are rendered from, and nothing more.
 * Evidence text is not kept (only source, chunk number and a short excerpt), so the state
 * grows with the number of evidence records, not with their size.
 */

/** The current memory of a note. */
export interface MemoryRef {
  sha256: string;
  text: string;
  /** The shas it rests on: L0 evidence for an L1 memory, L1 memories for an L2 memory. */
  parents: string[];
  run_id: string;
  t: number;
  /** Its addressable lines (memory v2), one per line of `text`: what the note renders. */
  lines: MemoryLineRef[];
}

/** One rendered note (an L1 query note, or the L2 index). */
export interface NoteFold {
  memory: MemoryRef | null;
  /** Gate events of the note's runs: robust to runs that never reached `run_end`. */
  chunks_seen: number;
  /** Gate events with `update: true`. */
  chunks_used: number;
  /**
   * UTC day of the `ts` of the latest event (by seq) that touched the note: any record of one
   * of its runs, a new L1 note (for the index), or a tombstone or late evidence/memory that
   * changes what it shows.
   */
  updated: string;
  /**
   * Lines a person wrote into the note in the vault (`line_added`), in log order. They belong
   * to the note, not to its memory: a new memory leaves them in place. Absent in a state
   * written before added lines (none).
   */
  added?: AddedLineRef[];
}

/** A line added in the vault: its identity, its text ('' once forgotten), the line it was written under. */
export interface AddedLineRef {
  sha256: string;
  text: string;
  after: string | null;
}

/** What a provenance line needs of an L0 evidence: its first occurrence in the log. */
export interface EvidenceRef {
  source: string;
  t: number;
  excerpt: string;
  run_id: string;
  /** Record offsets of its chunk within the source, from the run's `chunk` record (null when none was logged). */
  span: [number, number] | null;
  /** The `ts` of the evidence record: when the chunk was read into memory. */
  ts: string;
}

/** The latest `chunk` record of a run: the evidence that follows it takes its span. */
export interface ChunkRef {
  t: number;
  sha256: string;
  span: [number, number] | null;
}

/** A passage of a reference corpus (level R): what its file's note shows, in log order. */
export interface ReferenceRef {
  corpus: string;
  source: string;
  heading_path: string[];
  text: string;
  seq: number;
}

/** A run, from its `run` record: other records carry only `run_id`. */
export interface RunRef {
  level: 'L1' | 'L2';
  query_id: string | null;
}

/** An open review finding, as `_review.md` lists it (a decided one is dropped from the fold). */
export interface ReviewRef {
  kind: string;
  subjects: string[];
  explanation: string;
  seq: number;
}

export interface VaultFold {
  project: string;
  runs: Map<string, RunRef>;
  /** L1 notes by query id. */
  queries: Map<string, NoteFold>;
  /** The L2 index note; null until the project has an L1 note or an L2 run. */
  index: NoteFold | null;
  /** L0 evidence by content sha. */
  evidence: Map<string, EvidenceRef>;
  /** Every L1 memory sha → the query it answered (L2 provenance names L1 notes). */
  l1Memories: Map<string, string>;
  /**
   * `<level>:<sha>` of every memory → its parents: the union over every memory event of that
   * text, in first-seen order. One text is one node (as in the item store, whose edges gather
   * every event's parents), so a note shows all the evidence its memory was ever drawn from.
   */
  memoryParents: Map<string, string[]>;
  /** Tombstoned sha → reason (the latest tombstone's). */
  tombstones: Map<string, string>;
  /** Run id → its latest L0 chunk (one entry per run, so the state grows with runs, not chunks). */
  chunks: Map<string, ChunkRef>;
  /** Forgotten sha (a line it refuses, or the whole memory it targets) → reason. */
  forgotten: Map<string, string>;
  /** Superseded line or memory sha → what replaces it (the replacing text is live, so it is kept). */
  superseded: Map<string, SuccessorRef>;
  /** Evidence a forgotten line rested on → its reason: its chunk is listed only while a live line still cites it. */
  forgottenEvidence: Map<string, string>;
  /** Open review findings by id. */
  reviews: Map<string, ReviewRef>;
  /** Reference passages of the project's corpora by content sha (the first source to carry a text keeps it, as in the item store). */
  references: Map<string, ReferenceRef>;
  /** Skills drafted from this project's notes, by name. */
  skills: Map<string, SkillRef>;
}

/**
 * One skill's files: the SKILL.md of its latest draft (under `skills/_drafts/`) and of its
 * promoted version (loadable, under `skills/`), each null when that file must not exist.
 */
export interface SkillRef {
  draft: string | null;
  promoted: string | null;
}

/** What a `superseded` event points to. */
export interface SuccessorRef {
  sha256: string;
  text: string;
}

/** The fold of a project with no events applied. */
export function emptyFold(project: string): VaultFold {
  return {
    project,
    runs: new Map(),
    queries: new Map(),
    index: null,
    evidence: new Map(),
    l1Memories: new Map(),
    memoryParents: new Map(),
    tombstones: new Map(),
    chunks: new Map(),
    forgotten: new Map(),
    superseded: new Map(),
    forgottenEvidence: new Map(),
    reviews: new Map(),
    references: new Map(),
    skills: new Map(),
  };
}

/** A note that changed: the L2 index, the L1 note of a query, or the note of a source session (by its slug). */
export type NoteKey =
  | { kind: 'index' }
  | { kind: 'query'; queryId: string }
  | { kind: 'source'; slug: string }
  | { kind: 'review' }
  | { kind: 'reference'; corpus: string; source: string }
  | { kind: 'skill'; name: string; draft: boolean };
