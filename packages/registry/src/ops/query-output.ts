import { z } from 'zod';
import { ATTENTION_TIERS, ITEM_STATUSES, ITEM_TYPES } from '@mem/core';
import { INSUFFICIENT_RECALL, RECALL_LEVELS } from '@mem/query';
import { freshnessWarning } from './items/freshness.js';
import { lineFreshnessWarning } from './query-freshness.js';

/*
 * The answer of a query, declared whole: the OpenAPI document and the MCP tool list are
 * generated from it, and the parity test parses every surface's answer with it.
 */

export const recallLevel = z.enum(RECALL_LEVELS as ['L0', 'L1', 'L2', 'R', 'I']);
/** A citation is never a curated item: only provenance is cited. */
export const citedLevel = z.enum(['L0', 'L1', 'L2', 'R']);
const signal = z.enum(['keyword', 'vector_text', 'vector_symptom']);
const vectorRank = z.object({ rank: z.number(), similarity: z.number() });

/**
 * A result's place inside its relevance band (issue 13 §5): each signal's rank, the pin, the
 * temporal cue and the integer fused score that order a band (packages/query band-order.ts).
 */
export const bandRanking = z.object({
  band: z.number(),
  relevance_rank: z.number(),
  recency_rank: z.number(),
  /** Null: usage is not recorded (mem counts no deliveries), and counts nothing. */
  usage_rank: z.number().nullable(),
  pinned: z.boolean(),
  temporal_cue: z.string().nullable(),
  weights: z.object({ relevance: z.number(), recency: z.number(), usage: z.number() }),
  fused_score_micro: z.number(),
});

const ranking = z.object({
  signals: z.array(signal),
  keyword: z
    .object({
      rank: z.number(),
      bm25: z.number(),
      bm25_norm: z.number(),
      matched_terms: z.array(z.string()),
      coverage: z.number(),
    })
    .nullable(),
  vector_text: vectorRank.nullable(),
  vector_symptom: vectorRank.nullable(),
  rrf_score_micro: z.number(),
  rerank: z.object({ rank: z.number(), score: z.number() }).nullable(),
  floor_passed_by: z.array(signal),
  order: bandRanking,
  /** How many hits saying the same thing folded into this one (the `folded` list names them). */
  folded: z.number().optional(),
});

const lineNote = z.object({
  level: z.enum(['L1', 'L2']),
  sha256: z.string(),
  query_id: z.string().nullable(),
  path: z.string(),
});

/**
 * A hit folded into a result because it says the same thing (issue 13 §5): its lineage. A
 * folded line's freshness stays visible: `stale` or `unknown` when its cited session was
 * rewritten or is gone (it is then also named in freshness_warnings), else null.
 */
export const foldedHit = z.object({
  kind: z.enum(['line', 'item']),
  sha256: z.string(),
  item_id: z.string().nullable(),
  level: recallLevel,
  project: z.string(),
  /** Its own text: what it says, in its words. */
  text: z.string(),
  note: lineNote.nullable(),
  /** Its place in the answer's order before the fold (1-based). */
  rank: z.number(),
  reason: z.enum(['near_duplicate', 'promoted_from']),
  freshness: z.enum(['stale', 'unknown']).nullable(),
});

export const citation = z.object({
  level: citedLevel,
  sha256: z.string(),
  source: z.string().nullable(),
  text: z.string(),
  t: z.number().nullable(),
  /** Characters (code points) of the whole text when `text` is an excerpt of its first 400. */
  text_chars: z.number().optional(),
});

const leg = z.enum(['used', 'not configured', 'failed']);
/** The vector leg also says `skipped`: an as-of answer, which today's vector index cannot give. */
const vectorLeg = z.enum(['used', 'not configured', 'failed', 'skipped']);

/** One result of a query: a line, curated item, passage or chunk, with its ranking and citations. */
export const queryHit = z.object({
  /** What it is (one node model, told apart by kind): `line`, `item`, `evidence` (L0), `reference` (R). */
  kind: z.enum(['line', 'item', 'evidence', 'reference']),
  /** A curated item (level I): its id, type, status, attention tier and pin; null otherwise. */
  item: z
    .object({
      id: z.string(),
      type: z.enum(ITEM_TYPES),
      status: z.enum(ITEM_STATUSES).nullable(),
      attention: z.enum(ATTENTION_TIERS),
      pinned: z.boolean(),
      /** The record the item cites; null when none. */
      source_uri: z.string().nullable(),
      /** The memory line it was promoted from; null when none. */
      from_line: z
        .object({ sha256: z.string(), level: z.enum(['L1', 'L2']), note: z.string() })
        .nullable(),
    })
    .nullable(),
  level: recallLevel,
  sha256: z.string(),
  project: z.string(),
  text: z.string(),
  source: z.string().nullable(),
  score: z.number(),
  tier: z.enum(['memory', 'evidence', 'reference']),
  ranking,
  /** The memory an L1/L2 line belongs to and its vault note; null for L0 and R. */
  note: lineNote.nullable(),
  parents: z.array(citation),
  /** The successor text of a superseded line: the `superseded` event that wrote it; else null. */
  corrected_by: z
    .object({
      seq: z.number(),
      actor: z.string().nullable(),
      reason: z.string(),
      supersedes: z.string(),
    })
    .nullable(),
  /** A line a correction replaced (only under include_superseded): its successor and the `superseded` event; else null. */
  superseded_by: z
    .object({
      sha256: z.string(),
      seq: z.number(),
      actor: z.string().nullable(),
      reason: z.string(),
    })
    .nullable(),
  /** A line a person added in the vault: the `line_added` event that wrote it (its citation); else null. */
  added_by: z
    .object({ seq: z.number(), actor: z.string().nullable(), reason: z.string() })
    .nullable(),
});

/** A record recall did not deliver silently: a curated item or a memory line, told apart by kind. */
export const queryFreshnessWarning = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('item'), ...freshnessWarning.shape }),
  z.object({ kind: z.literal('line'), ...lineFreshnessWarning.shape }),
]);
export type QueryFreshnessWarning = z.infer<typeof queryFreshnessWarning>;

/** A query's result: a hit, and the hits that said the same thing, best-ranked first (ranking.folded counts them). */
export const foldedQueryHit = queryHit.extend({ folded: z.array(foldedHit).optional() });

export const queryOutput = z.object({
  results: z.array(foldedQueryHit),
  abstained: z.boolean(),
  reason: z.literal(INSUFFICIENT_RECALL).optional(),
  /**
   * What recall did not deliver plainly, each named with why and what to do: recalled curated
   * items that are expired, stale or long open (find_items' verdict, oldest first), then the
   * page's memory lines whose cited session was rewritten or is gone (page order). Held back
   * unless include_stale, named either way; each list bounded, the rest counted.
   */
  freshness_warnings: z.array(queryFreshnessWarning),
  /** Warnings past the bounds, counted, not listed (absent: none). */
  freshness_warnings_left_out: z.number().optional(),
  recall: z.object({
    signals: z.array(signal),
    vector: vectorLeg,
    rerank: leg,
    terms: z.array(z.string()),
    left_out: z.array(z.string()),
    projects: z.array(z.string()),
    levels: z.array(recallLevel),
    floor: z.object({ minCoverage: z.number(), minKeyword: z.number(), minSimilarity: z.number() }),
    weights: z.object({ keyword: z.number(), vector_text: z.number(), vector_symptom: z.number() }),
    errors: z.array(
      z.object({ leg: z.enum(['vector', 'rerank']), code: z.string(), message: z.string() }),
    ),
    /** Only for an as-of answer: per project the seq it stands at (0: before its first event), the legs that answered, and a note. */
    as_of: z
      .object({
        projects: z.array(z.object({ project: z.string(), seq: z.number() })),
        legs: z.array(signal),
        note: z.string(),
      })
      .optional(),
  }),
});
