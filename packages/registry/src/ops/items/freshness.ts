import { z } from 'zod';
import {
  NEXT_ACTION,
  freshnessOf,
  heldBack,
  isResolved,
  openMarker,
  type Freshness,
  type FreshnessReason,
  type SourceCheck,
} from '@mem/core';
import type { ItemState } from './ledger.js';
import { checkSource, type CitedSource, type CitingScope } from './source-check.js';

/** What an item's verdict reads: the ledger's state and the projection's row both carry it. */
type Fresh = Pick<
  ItemState,
  'id' | 'project' | 'type' | 'status' | 'opened_ts' | 'valid_until' | 'review_after'
>;

/** At most this many warnings ride on one answer; `freshness_warnings_left_out` counts the rest. */
export const MAX_FRESHNESS_WARNINGS = 20;

/** An item's verdict as read operations show it (core's Freshness). */
export const freshnessView = z.object({
  state: z.enum(['fresh', 'expired', 'stale', 'unknown', 'open']),
  reason: z.string().nullable(),
  /** Whole days an unresolved task or thread has been open (0 otherwise). */
  open_days: z.number(),
  /** `open · N days unresolved` for an open item past its review date, else the state. */
  label: z.string(),
  /**
   * `open · N days unresolved` while an item is an open question (whatever its state); `not open
   * yet at this clock (opened ISO)` when the clock is before its opening; else null.
   */
  open_marker: z.string().nullable(),
});
export type FreshnessView = z.infer<typeof freshnessView>;

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
  /** The command that settles it, to fill in and run (commandFor). */
  hint: z.string(),
  valid_until: z.string().nullable(),
  review_after: z.string().nullable(),
  open_days: z.number(),
  open_marker: z.string().nullable(),
});
export type FreshnessWarning = z.infer<typeof freshnessWarning>;

/**
 * When an item counts as an open question: an unresolved task or thread is open from when it
 * last became open — its creation, or the update that last set it `open` (seed 004's open
 * marker, set by the person who opened it) — so past OPEN_MAX_DAYS it is a question that died
 * unanswered. Knowledge and reminders are never open.
 */
export function openSince(item: Pick<Fresh, 'type' | 'status' | 'opened_ts'>): string | null {
  if (item.type !== 'task' && item.type !== 'thread') return null;
  return isResolved(item.status) ? null : item.opened_ts;
}

/** An item's verdict now, given what its cited source read as (null: it cites none, or it was not judged). */
export function itemFreshness(
  item: Fresh,
  now: Date,
  source: SourceCheck | null = null,
): Freshness {
  return freshnessOf(
    {
      valid_until: item.valid_until,
      review_due: item.review_after,
      open_since: openSince(item),
      source,
    },
    now,
  );
}

/** The verdict as a read shows it, with the open marker of an open question. */
export function freshnessViewOf(
  item: Fresh,
  now: Date,
  source: SourceCheck | null = null,
): FreshnessView {
  const freshness = itemFreshness(item, now, source);
  return { ...freshness, open_marker: markerOf(item, now) };
}

function markerOf(item: Fresh, now: Date): string | null {
  const since = openSince(item);
  return since === null ? null : openMarker(since, now);
}

/** The warning for an item recall held back (or delivered under include_stale); null when it is fine. */
export function warningOf(
  item: Fresh & { source_uri?: string | null },
  now: Date,
  delivered: boolean,
  source: SourceCheck | null = null,
): FreshnessWarning | null {
  const freshness = itemFreshness(item, now, source);
  if (!heldBack(freshness) || freshness.reason === null) return null;
  return {
    id: item.id,
    project: item.project,
    state: freshness.state as FreshnessWarning['state'],
    reason: freshness.reason,
    label: freshness.label,
    delivered,
    next_action: NEXT_ACTION[freshness.reason],
    hint: commandFor(item, freshness.reason),
    valid_until: item.valid_until,
    review_after: item.review_after,
    open_days: freshness.open_days,
    open_marker: markerOf(item, now),
  };
}

/** An item as a read that may hold it back judged it (judgeItem). */
export interface ItemJudgement {
  /** What its cited source read as (null: it cites none): the read's freshness view shows it too. */
  source: SourceCheck | null;
  /** The warning naming it; null when it is fresh. */
  warning: FreshnessWarning | null;
  /** The read leaves it out: its verdict is not fresh and the caller did not ask for include_stale. */
  held: boolean;
}

/**
 * The one rule by which a read holds a curated item back, query and find_items alike: its cited
 * source re-read (checkSource), its verdict at the caller's clock (warningOf). An expired,
 * review-due, long-open or changed-source item is held back unless `includeStale`, and named
 * either way (`delivered` says which). Why one function: the query path (query-items.ts) and
 * find_items (find.ts) wrote this rule each for itself, and a change to one could have left a
 * query delivering an item find holds back.
 */
export async function judgeItem(
  item: Fresh & CitedSource,
  now: Date,
  /** The read's citing scope (one for the whole answer), or a data root as checkSource takes it. */
  scope: CitingScope | string,
  includeStale: boolean,
): Promise<ItemJudgement> {
  const source = await checkSource(item, scope);
  const warning = warningOf(item, now, includeStale, source);
  return { source, warning, held: warning !== null && !includeStale };
}

/**
 * Warnings for knowledge a read always delivers (T0's unanchored rules and facts, T1's anchored
 * ones), in the order given, judged as find_items judges them: a TTL, a review date and the
 * cited source re-read (checkSource), so a fact whose cited file changed warns alike in orient,
 * open and find. Knowledge is never open, so a row with no TTL, no review date and no cited
 * source is fresh and is not judged (each verdict was garbage on orient's hot path).
 */
export async function deliveredKnowledgeWarnings(
  rows: readonly (Omit<Fresh, 'opened_ts'> & CitedSource)[],
  now: Date,
  scope: CitingScope,
): Promise<FreshnessWarning[]> {
  const judged = await Promise.all(
    rows
      .filter(
        (row) =>
          row.valid_until !== null ||
          row.review_after !== null ||
          (row.source_uri !== null && row.source_sha256 !== null),
      )
      .map(async (row) =>
        warningOf({ ...row, opened_ts: null }, now, true, await checkSource(row, scope)),
      ),
  );
  return judged.filter((w): w is FreshnessWarning => w !== null);
}

/** An answer's warnings, bounded to MAX_FRESHNESS_WARNINGS; the rest counted, not listed. */
export function boundedWarnings(warnings: readonly FreshnessWarning[]): {
  freshness_warnings: FreshnessWarning[];
  freshness_warnings_left_out?: number;
} {
  return {
    freshness_warnings: warnings.slice(0, MAX_FRESHNESS_WARNINGS),
    ...(warnings.length > MAX_FRESHNESS_WARNINGS
      ? { freshness_warnings_left_out: warnings.length - MAX_FRESHNESS_WARNINGS }
      : {}),
  };
}

/**
 * The command that settles a warning, as the CLI takes it (the words in capitals are the
 * reader's to fill in): a new citation for a source that moved, cannot be read or leaves the
 * root (its digest is read from the file when --source-sha256 is left out), a confirmation
 * for a review date, an archive or a resolution for what has expired.
 */
function commandFor(
  item: Pick<Fresh, 'id' | 'project' | 'type'> & { source_uri?: string | null },
  reason: FreshnessReason,
): string {
  const on = `${item.id} --project ${item.project}`;
  const work = item.type === 'task' || item.type === 'thread';
  switch (reason) {
    case 'expired':
    case 'unresolved_expired':
      return work
        ? `mem items resolve ${on} --status dropped --reason TEXT`
        : `mem items attention ${item.id} archive --project ${item.project}, or mem items update ${on} --valid-until ISO --reason TEXT`;
    case 'review_due':
      return `mem items confirm ${on} --review-after ISO --reason TEXT`;
    case 'unresolved':
      return `mem items resolve ${on} --status done --reason TEXT`;
    case 'source_changed':
      return `check the text against ${item.source_uri ?? 'its source'}, then mem items update ${on} --source ${item.source_uri ?? 'PATH'} --reason TEXT (its sha256 is read now; add --summary TEXT if it changed)`;
    case 'source_unreadable':
      return `mem items update ${on} --source PATH --reason TEXT (a file that reads now, inside the project's cites:)`;
    case 'source_outside_root':
      return `mem items update ${on} --source PATH --reason TEXT (a path inside the data root and the project's cites:)`;
  }
}

/** The line the CLI prints under the items. */
export function warningLine(warning: FreshnessWarning): string {
  const open = warning.open_marker !== null ? ` (${warning.open_marker})` : '';
  return `${warning.delivered ? 'delivered' : 'held back'} ${warning.id}: ${warning.label}${open} (${warning.reason}; next: ${warning.next_action} — ${warning.hint})`;
}
