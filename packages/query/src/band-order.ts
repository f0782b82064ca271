import { rrfMicro } from './fusion.js';

/*
 * Issue 13 §5, seed 004 "relevance first": results are cut into relevance bands, and only
 * inside a band does a deterministic rank fusion of relevance, recency and delivery usage
 * order them, with pins first. A weaker match in a lower band never displaces a stronger one.
 */

/**
 * The width of a relevance band, in millionths of fused relevance (RRF, k = 60). Why 100:
 * adjacent ranks of one list differ by 264 at the head (16,393 → 16,129) and by about 80 at
 * depth 50, so a band holds equal relevance and, deep in a list, a neighbour or two — what
 * "among equal relevance" means. Trigger for the change from 1,000: on the demo every hit is
 * found by keyword and vector alike, all within 16,000–18,000, so two bands held the whole
 * page and recency lifted keyword #8 over #4 (the hexToRgb line fell from 5th to 8th).
 */
export const BAND_MICRO = 100;

/**
 * Delivery counts ranked on saturating buckets (seed 004: 0, 1–2, 3–9, 10+), so use cannot
 * compound into a permanent head start. The slot is ready; mem records no deliveries yet
 * (seed 004 counts only packs attached to a handoff, and a query is an inspection).
 */
export function usageBucket(deliveries: number): number {
  if (deliveries <= 0) return 0;
  if (deliveries <= 2) return 1;
  if (deliveries <= 9) return 2;
  return 3;
}

/** The band of a relevance given in millionths (higher is stronger). */
export function relevanceBand(relevanceMicro: number): number {
  return Math.floor(relevanceMicro / BAND_MICRO);
}

/** What the band order reads of one row. */
export interface OrderInput {
  /** Fused relevance in millionths, higher is stronger; its band is relevanceBand of it. */
  relevanceMicro: number;
  /**
   * Rows of different groups never share a band, whatever their relevance (a query's rows
   * that cleared the floor against those that did not, reranked against not).
   */
  group?: string;
  /** Recency: the log seq of the row's newest write (higher is newer). */
  seq: number;
  /** How often it was delivered; null: not recorded. */
  deliveries: number | null;
  pinned: boolean;
}

/** How a row's place in its band was decided: every signal's rank and the integer fused score. */
export interface BandRanking {
  band: number;
  /** Rank of the relevance among all rows (1 = strongest; equal relevance, equal rank). */
  relevance_rank: number;
  /** Rank of the seq among all rows (1 = newest). */
  recency_rank: number;
  /** Rank of the usage bucket (1 = most used); null: usage is not recorded, and counts nothing. */
  usage_rank: number | null;
  pinned: boolean;
  /** The recency phrase of the query that doubled the recency weight, or null. */
  temporal_cue: string | null;
  weights: { relevance: number; recency: number; usage: number };
  /** Σ weight · round(10⁶ / (60 + rank)) over the signals: what orders a band after its pins. */
  fused_score_micro: number;
}

/** The fusion weights: every signal counts once; a temporal cue doubles recency. */
export function bandWeights(cue: string | null): BandRanking['weights'] {
  return { relevance: 1, recency: cue === null ? 1 : 2, usage: 1 };
}

/**
 * Reorders `rows`, given strongest first, inside their bands: a run of consecutive rows with
 * the same band and group is ordered pinned first, then by fused score, then as given. Rows
 * never leave their band, so the relevance order between bands stands. Pure and deterministic.
 */
export function orderWithinBands<T>(
  rows: readonly T[],
  inputOf: (row: T) => OrderInput,
  cue: string | null,
): { row: T; ranking: BandRanking }[] {
  const inputs = rows.map(inputOf);
  const weights = bandWeights(cue);
  const relevanceRank = ranksOf(inputs.map((i) => i.relevanceMicro));
  const recencyRank = ranksOf(inputs.map((i) => i.seq));
  const recorded = inputs.some((i) => i.deliveries !== null);
  const usageRank = ranksOf(inputs.map((i) => usageBucket(i.deliveries ?? 0)));
  const ranked = rows.map((row, index) => {
    const input = inputs[index]!;
    const ranking: BandRanking = {
      band: relevanceBand(input.relevanceMicro),
      relevance_rank: relevanceRank[index]!,
      recency_rank: recencyRank[index]!,
      usage_rank: recorded ? usageRank[index]! : null,
      pinned: input.pinned,
      temporal_cue: cue,
      weights,
      fused_score_micro:
        rrfMicro(relevanceRank[index]!, weights.relevance) +
        rrfMicro(recencyRank[index]!, weights.recency) +
        (recorded ? rrfMicro(usageRank[index]!, weights.usage) : 0),
    };
    return { row, ranking, index, group: input.group ?? '' };
  });
  const out: typeof ranked = [];
  for (let start = 0; start < ranked.length;) {
    let end = start + 1;
    const head = ranked[start]!;
    while (
      end < ranked.length &&
      ranked[end]!.ranking.band === head.ranking.band &&
      ranked[end]!.group === head.group
    )
      end += 1;
    out.push(...ranked.slice(start, end).sort(withinBand));
    start = end;
  }
  return out.map(({ row, ranking }) => ({ row, ranking }));
}

function withinBand(
  a: { ranking: BandRanking; index: number },
  b: { ranking: BandRanking; index: number },
): number {
  return (
    Number(b.ranking.pinned) - Number(a.ranking.pinned) ||
    b.ranking.fused_score_micro - a.ranking.fused_score_micro ||
    a.index - b.index
  );
}

/** Competition ranks, higher value first: 1 + how many values are strictly greater. */
function ranksOf(values: readonly number[]): number[] {
  const sorted = [...values].sort((a, b) => b - a);
  const first = new Map<number, number>();
  sorted.forEach((v, i) => {
    if (!first.has(v)) first.set(v, i + 1);
  });
  return values.map((v) => first.get(v)!);
}
