import type { RelevanceFloor } from './floor.js';
import type { SignalWeights } from './fusion.js';
import type { LineNote } from './line-note.js';
import type { QueryLevel, RecallLevel } from './ports.js';
import type { BandRanking } from './band-order.js';
import type { ItemOfHit } from './item-hits.js';
import type { FoldReason } from './fold-duplicates.js';

/** The recall signals a query fuses. */
export type Signal = 'keyword' | 'vector_text' | 'vector_symptom';

/**
 * The register a result speaks in (seed 001, "three tiers"): what this project learned
 * (L1/L2 memories), what was seen (L0 evidence, only when asked), or what a manual says (R).
 */
export type Tier = 'memory' | 'evidence' | 'reference';

/** The stable reason of an abstention. */
export const INSUFFICIENT_RECALL = 'insufficient recall';

/** One signal's view of a result: its 1-based rank in that recall, and the raw score. */
export interface KeywordRank {
  rank: number;
  /** BM25 (positive, higher is better), over the statistics of the reachable set alone (see recallKeyword). */
  bm25: number;
  /**
   * BM25 in units of one match of a term found in a single node (its IDF, ln((N − 0.5) / 1.5)
   * over the N live nodes of the reachable projects and levels): comparable across store sizes, which raw BM25 is not.
   */
  bm25_norm: number;
  /** The searched terms this node holds (seed 000 §9: a partial match is visibly partial). */
  matched_terms: string[];
  /** matched_terms / terms searched. */
  coverage: number;
}

export interface VectorRank {
  rank: number;
  /** Cosine similarity, 1 − distance. */
  similarity: number;
}

/** Why a result stands where it stands: every signal's rank, the fused score, the rerank. */
export interface Ranking {
  /** The signals this query ran (without a vector side: only `keyword`). */
  signals: Signal[];
  keyword: KeywordRank | null;
  vector_text: VectorRank | null;
  vector_symptom: VectorRank | null;
  /** Reciprocal rank fusion (k = 60) in millionths: Σ round(10⁶ / (60 + rank)). */
  rrf_score_micro: number;
  rerank: { rank: number; score: number } | null;
  /** The signals whose score cleared the relevance floor (empty: the row rides on a better one that did). */
  floor_passed_by: Signal[];
  /** Its place inside its relevance band (recency, usage, pin, temporal cue); null until ordered. */
  order: BandRanking | null;
  /** How many hits that say the same thing folded into this one (only when the query folds). */
  folded?: number;
}

/** A citation: a node the result rests on, walked down the provenance edges. */
export interface Citation {
  level: RecallLevel;
  sha256: string;
  source: string | null;
  text: string;
  /** The step (chunk) of its run, when it has one. */
  t: number | null;
  /** Characters (code points) of the whole text, when `text` is an excerpt of it. */
  text_chars?: number;
}

/** The correction a line's text came from (issue 12): the `superseded` event that wrote it. */
export interface Correction {
  /** Log seq of the `superseded` event. */
  seq: number;
  /** Who superseded it (the event's writer principal), when known. */
  actor: string | null;
  reason: string;
  /** The line sha the text replaced. */
  supersedes: string;
}

/** What replaced a superseded line (issue 12: shown only when a query asks for history). */
export interface Supersession {
  /** The successor line's sha. */
  sha256: string;
  /** Log seq of the `superseded` event. */
  seq: number;
  /** Who superseded it (the event's writer principal), when known. */
  actor: string | null;
  reason: string;
}

/** The capture a line added in the vault came from (issue 12): the `line_added` event. */
export interface Addition {
  /** Log seq of the `line_added` event. */
  seq: number;
  /** Who captured it (the event's writer principal), when known. */
  actor: string | null;
  reason: string;
}

/**
 * The point in the log an as-of answer stands at: per project, the newest seq it reflects (0:
 * before its first event), and the recall legs that could answer as of then.
 */
export interface AsOf {
  projects: { project: string; seq: number }[];
  legs: Signal[];
  /** What the answer is and is not, in words: the replay, the legs left out, forgotten text. */
  note: string;
}

/**
 * A hit that folded into a result because it says the same thing (issue 13 §5): its lineage,
 * named so a reader can open it. Its text is the result's, in other words or another place.
 */
export interface FoldedHit {
  kind: 'line' | 'item';
  sha256: string;
  /** A curated item's id; null for a line. */
  item_id: string | null;
  level: QueryLevel;
  project: string;
  /** Its own text: what it says, in its words. */
  text: string;
  /** The memory and vault note a line belongs to; null for an item. */
  note: LineNote | null;
  /** Its place in the answer's order before the fold (1-based): it ranked below the result. */
  rank: number;
  /** `near_duplicate`: core's rule, the synthesis's; `promoted_from`: an item and the line it was promoted from. */
  reason: FoldReason;
}

export interface QueryHit {
  /**
   * What the result is (seed 003: one node model, told apart by kind): a memory `line`, a
   * curated `item` (rule, fact, task, thread, reminder), an `evidence` chunk (L0) or a
   * `reference` passage (R).
   */
  kind: 'line' | 'item' | 'evidence' | 'reference';
  /** A curated item's id, type, status, attention tier and pin; null for every other kind. */
  item: ItemOfHit | null;
  level: QueryLevel;
  sha256: string;
  project: string;
  text: string;
  source: string | null;
  /** The ordering score: the rerank score when reranked, else the fused score (rrf_score_micro / 10⁶). */
  score: number;
  tier: Tier;
  ranking: Ranking & { order: BandRanking };
  /** An L1/L2 result is one line of a memory: the memory and vault note it belongs to. Null for L0 and R. */
  note: LineNote | null;
  /** A line's own parents (an L2 line's L1 memories and the L0 evidence below them), depth first; none for L0 and R. */
  parents: Citation[];
  /** A line that is the successor text of a superseded line: the correction that wrote it; else null. */
  corrected_by: Correction | null;
  /** A line a `superseded` event replaced (returned only under includeSuperseded): its successor and the event; else null. */
  superseded_by: Supersession | null;
  /** A line added in the vault: the capture that wrote it, cited in place of chunks; else null. */
  added_by: Addition | null;
  /** Only when the query folds: the hits that said the same thing, best-ranked first. */
  folded?: FoldedHit[];
}

export interface QueryResult {
  results: QueryHit[];
  abstained: boolean;
  /** Only when abstained: INSUFFICIENT_RECALL. */
  reason?: typeof INSUFFICIENT_RECALL;
  /** How the query ran: the signals used and what was searched for. */
  recall: {
    signals: Signal[];
    /** `failed`: the leg threw; the answer rests on the other signals and `errors` says why. */
    /** `skipped`: an as-of answer, which the vector index (today's lines only) cannot give. */
    vector: 'used' | 'not configured' | 'failed' | 'skipped';
    rerank: 'used' | 'not configured' | 'failed';
    /** The keyword terms (function words and overflow dropped); matched_terms and coverage count them all. */
    terms: string[];
    /** Terms the keyword recall did not search (the commonest, past the postings budget): still scored, on its best candidates. */
    left_out: string[];
    projects: string[];
    levels: QueryLevel[];
    /** The relevance floor this answer was cut at: the embedder's default, with any override (MEM_QUERY_FLOOR_*). */
    floor: RelevanceFloor;
    /** The fusion weights this answer was ranked by: the embedder's default, with any override (MEM_FUSION_WEIGHTS). */
    weights: SignalWeights;
    /** Legs that failed and were left out: a thinner answer beats no answer (seed 001). */
    errors: { leg: 'vector' | 'rerank'; code: string; message: string }[];
    /** Only for an as-of answer: the seqs it stands at and the legs that answered. */
    as_of?: AsOf;
  };
}
