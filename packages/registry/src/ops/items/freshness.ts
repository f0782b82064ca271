import { z } from 'zod';
import { NEXT_ACTION, freshnessOf, heldBack, type Freshness } from '@mem/core';
import type { ItemState } from './ledger.js';

/** What an item's verdict reads: the ledger's state and the projection's row both carry it. */
type Fresh = Pick<ItemState, 'id' | 'project' | 'valid_until'>;

/** At most this many warnings ride on one answer; `freshness_warnings_left_out` counts the rest. */
export const MAX_FRESHNESS_WARNINGS = 20;

/** One item recall did not deliver silently: why, whether it was delivered anyway, and what to do. */
export const freshnessWarning = z.object({
  id: z.string(),
  project: z.string(),
  state: z.enum(['expired', 'stale', 'unknown']),
  reason: z.string(),
  label: z.string(),
  /** True only under include_stale: the item is in `items` despite the verdict. */
  delivered: z.boolean(),
  next_action: z.enum(['confirm', 'correct', 'retire']),
  valid_until: z.string().nullable(),
});
export type FreshnessWarning = z.infer<typeof freshnessWarning>;

/**
 * An item's verdict now. Items carry a TTL (`valid_until`) today; they have no review date, open
 * marker or cited source yet, so those rules never fire for an item (issue 13 §4: partial).
 */
export function itemFreshness(item: Fresh, now: Date): Freshness {
  return freshnessOf({ valid_until: item.valid_until }, now);
}

/** The warning for an item recall held back (or delivered under include_stale); null when it is fine. */
export function warningOf(item: Fresh, now: Date, delivered: boolean): FreshnessWarning | null {
  const freshness = itemFreshness(item, now);
  if (!heldBack(freshness) || freshness.reason === null) return null;
  return {
    id: item.id,
    project: item.project,
    state: freshness.state as FreshnessWarning['state'],
    reason: freshness.reason,
    label: freshness.label,
    delivered,
    next_action: NEXT_ACTION[freshness.reason],
    valid_until: item.valid_until,
  };
}

/** The line the CLI prints under the items. */
export function warningLine(warning: FreshnessWarning): string {
  return `${warning.delivered ? 'delivered' : 'held back'} ${warning.id}: ${warning.label} (next: ${warning.next_action})`;
}
