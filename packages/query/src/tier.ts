import type { QueryLevel } from './ports.js';
import type { Tier } from './result.js';

const TIERS: Record<QueryLevel, Tier> = {
  L1: 'memory',
  L2: 'memory',
  L0: 'evidence',
  R: 'reference',
  // A curated item is what the project learned on purpose: ranked as a memory, in one band with lines.
  I: 'memory',
};

/** Learned before seen before documented: the order of tiers at an equal score (seed 001, by rule). */
export const TIER_ORDER: readonly Tier[] = ['memory', 'evidence', 'reference'];

/** The tier a node of `level` speaks in. */
export function tierOf(level: QueryLevel): Tier {
  return TIERS[level];
}
