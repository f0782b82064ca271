/*
 * Freshness (issue 13 §4, seed 004 "Freshness"): one verdict derived at read time from stored
 * inputs and the caller's clock. Nothing here is stored by a projector and nothing is fetched:
 * a caller that has checked a cited source passes what it found, so this stays pure.
 */

/** The four verdicts a record can carry. `open` is delivered with its age; the rest say why not to trust it. */
export type FreshnessState = 'fresh' | 'expired' | 'stale' | 'unknown' | 'open';

/** Why a record is not plainly fresh: a stable code a caller branches on. */
export type FreshnessReason =
  | 'expired'
  | 'unresolved_expired'
  | 'review_due'
  | 'source_changed'
  | 'source_unreadable'
  | 'source_outside_root'
  | 'unresolved';

/** What a person does about it: the three correction verbs. */
export type NextAction = 'confirm' | 'correct' | 'retire';

/**
 * What a caller found when it compared a cited source with the digest stored for it. `outside`:
 * the citation names no path it may read (it leaves the data root or names its own state), so
 * it was not read at all; only a new citation settles it.
 */
export type SourceCheck = 'unchanged' | 'changed' | 'unreadable' | 'outside';

/** How long an open question may stay open before it counts as one that died unanswered (seed 004: open_max_days). */
export const OPEN_MAX_DAYS = 365;

const DAY_MS = 86_400_000;

export interface FreshnessInputs {
  /** The retention deadline (an item's `valid_until`): at or past it the record is expired. */
  valid_until?: string | null;
  /** When the record is due a person's review: past it the record is stale, unless it is open. */
  review_due?: string | null;
  /** Set while a person holds the record open as an unresolved question: when it was opened. */
  open_since?: string | null;
  /** The cited source as checked now; absent when the record cites none. */
  source?: SourceCheck | null;
}

export interface Freshness {
  state: FreshnessState;
  /** Null exactly when the state is `fresh`. */
  reason: FreshnessReason | null;
  /** Whole days since `open_since` while the record is open at the clock, else 0. */
  open_days: number;
  /** `open · N days unresolved` for an open record, else the state. */
  label: string;
}

/**
 * The verdict, rules in seed 004's order: a passed TTL is expired; a passed open ceiling is
 * expired/unresolved_expired; a passed review date on a record that is not open is stale;
 * a changed source is stale and an unreadable or outside one unknown (evidence that moved is not an
 * answer that has not arrived); only then is an open record past its review date `open`.
 * Boundaries are inclusive: a record is expired AT its deadline (seed 004: "ineligible at the
 * exact UTC expiry boundary").
 */
export function freshnessOf(inputs: FreshnessInputs, now: Date): Freshness {
  const at = now.getTime();
  const passed = (iso: string | null | undefined) => iso != null && Date.parse(iso) <= at;
  // Open at the clock: opened at or before it. A record opened after it (a clock from before
  // its creation or its reopening) was not an open question then, and has no age.
  const open = passed(inputs.open_since);
  const openDays = open ? Math.floor((at - Date.parse(inputs.open_since!)) / DAY_MS) : 0;

  if (passed(inputs.valid_until)) return verdict('expired', 'expired', openDays);
  if (open && openDays >= OPEN_MAX_DAYS) return verdict('expired', 'unresolved_expired', openDays);
  if (!open && passed(inputs.review_due)) return verdict('stale', 'review_due', 0);
  if (inputs.source === 'changed') return verdict('stale', 'source_changed', openDays);
  if (inputs.source === 'unreadable') return verdict('unknown', 'source_unreadable', openDays);
  if (inputs.source === 'outside') return verdict('unknown', 'source_outside_root', openDays);
  if (open && passed(inputs.review_due)) return verdict('open', 'unresolved', openDays);
  return verdict('fresh', null, openDays);
}

/**
 * What a read says of an unresolved task or thread opened at `openSince`, at the clock `now`:
 * `open · N days unresolved`. Trigger: the clock is before the opening (`mem orient --now` of a
 * day before the thread was written). Why: "open · 0 days unresolved" claimed it was open then;
 * the read is of the store as it is (the clock is no as-of), so the item is listed, and its
 * marker says when it opened instead. Outcome: `not open yet at this clock (opened ISO)`.
 */
export function openMarker(openSince: string, now: Date): string {
  const at = now.getTime();
  const since = Date.parse(openSince);
  if (since > at) return `not open yet at this clock (opened ${openSince})`;
  return `open · ${Math.floor((at - since) / DAY_MS)} days unresolved`;
}

function verdict(
  state: FreshnessState,
  reason: FreshnessReason | null,
  openDays: number,
): Freshness {
  const label = state === 'open' ? `open · ${openDays} days unresolved` : state;
  return { state, reason, open_days: openDays, label };
}

/** The verb that settles each reason: what a warning tells its reader to do next. */
export const NEXT_ACTION: Record<FreshnessReason, NextAction> = {
  // An answer past its retention deadline no longer holds; a person retires it (or writes a new one).
  expired: 'retire',
  unresolved_expired: 'retire',
  // Nothing says it is wrong, only that nobody has looked since the deadline.
  review_due: 'confirm',
  // The evidence moved under it: the text must be checked against what the source says now.
  source_changed: 'correct',
  // The source cannot be read (gone, not a regular file, too large): a confirmation leaves it
  // unread, so the item would stay held back; a new citation of a file that reads settles it
  // (`mem items update ID --source …`). A memory line takes the same verb (query-freshness).
  source_unreadable: 'correct',
  // The citation is never read (it leaves the data root): a confirmation would leave it unread,
  // so the person cites a path inside the root instead (`mem items update ID --source …`).
  source_outside_root: 'correct',
  unresolved: 'confirm',
};

/** True when recall holds the record back by default: expired, stale and unknown are never delivered silently. */
export function heldBack(freshness: Freshness): boolean {
  return (
    freshness.state === 'expired' || freshness.state === 'stale' || freshness.state === 'unknown'
  );
}
