import type { RecallLevel } from './ports.js';
import type { Tier } from './result.js';

const TIERS: Record<RecallLevel, Tier> = {
  L1: 'memory',
  L2: 'memory',
  L0: 'evidence',
  R: 'reference',
};

/** Learned before seen before documented: the order of tiers at an equal score (seed 001, by rule). */
export const TIER_ORDER: readonly Tier[] = ['memory', 'evidence', 'reference'];

/** The tier a node of `level` speaks in. */
export function tierOf(level: RecallLevel): Tier {
  return TIERS[level];
}
