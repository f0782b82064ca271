import { describe, expect, it } from 'vitest';
import { NEXT_ACTION, OPEN_MAX_DAYS, freshnessOf, heldBack, openMarker } from './verdict.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const PAST = '2026-05-01T00:00:00Z';
const FUTURE = '2026-07-01T00:00:00Z';

describe('freshnessOf: each rule alone', () => {
  it('is fresh with no inputs', () => {
    expect(freshnessOf({}, NOW)).toEqual({
      state: 'fresh',
      reason: null,
      open_days: 0,
      label: 'fresh',
    });
  });

  it('is expired past valid_until, and exactly at it', () => {
    expect(freshnessOf({ valid_until: PAST }, NOW).state).toBe('expired');
    expect(freshnessOf({ valid_until: NOW.toISOString() }, NOW).reason).toBe('expired');
    expect(freshnessOf({ valid_until: FUTURE }, NOW).state).toBe('fresh');
  });

  it('is stale past its review date', () => {
    expect(freshnessOf({ review_due: PAST }, NOW)).toMatchObject({
      state: 'stale',
      reason: 'review_due',
    });
    expect(freshnessOf({ review_due: FUTURE }, NOW).state).toBe('fresh');
  });

  it('is stale when the cited source changed and unknown when it cannot be read', () => {
    expect(freshnessOf({ source: 'changed' }, NOW)).toMatchObject({
      state: 'stale',
      reason: 'source_changed',
    });
    expect(freshnessOf({ source: 'unreadable' }, NOW)).toMatchObject({
      state: 'unknown',
      reason: 'source_unreadable',
    });
    expect(freshnessOf({ source: 'unchanged' }, NOW).state).toBe('fresh');
  });

  it('is unknown with its own reason, settled by a correction, when the citation leaves the data root', () => {
    const outside = freshnessOf({ source: 'outside' }, NOW);
    expect(outside).toMatchObject({ state: 'unknown', reason: 'source_outside_root' });
    // A confirmation leaves the citation unread: only a new citation (`items update --source`) settles it.
    expect(NEXT_ACTION[outside.reason!]).toBe('correct');
    expect(heldBack(outside)).toBe(true);
  });

  it('is open with its age past the review date, and fresh with its age before it', () => {
    const open = freshnessOf({ open_since: '2026-05-20T12:00:00Z', review_due: PAST }, NOW);
    expect(open).toEqual({
      state: 'open',
      reason: 'unresolved',
      open_days: 12,
      label: 'open · 12 days unresolved',
    });
    const early = freshnessOf({ open_since: '2026-05-20T12:00:00Z', review_due: FUTURE }, NOW);
    expect(early).toMatchObject({ state: 'fresh', open_days: 12 });
  });

  it('expires an open question at the open ceiling', () => {
    const since = new Date(NOW.getTime() - OPEN_MAX_DAYS * 86_400_000).toISOString();
    expect(freshnessOf({ open_since: since }, NOW)).toMatchObject({
      state: 'expired',
      reason: 'unresolved_expired',
    });
    const younger = new Date(NOW.getTime() - (OPEN_MAX_DAYS - 1) * 86_400_000).toISOString();
    expect(freshnessOf({ open_since: younger }, NOW).state).toBe('fresh');
  });
});

describe('a clock before the opening (issue 13, stop 34 walk)', () => {
  const LATER = '2026-06-03T08:00:00.000Z';

  it('is not open at a clock before open_since: no age, and a passed review date is not held open', () => {
    expect(freshnessOf({ open_since: LATER }, NOW)).toEqual({
      state: 'fresh',
      reason: null,
      open_days: 0,
      label: 'fresh',
    });
    expect(freshnessOf({ open_since: LATER, review_due: PAST }, NOW)).toMatchObject({
      state: 'stale',
      reason: 'review_due',
    });
  });

  it('marks it as opened after the clock, never as open for 0 days', () => {
    expect(openMarker(LATER, NOW)).toBe(`not open yet at this clock (opened ${LATER})`);
    expect(openMarker('2026-05-20T12:00:00Z', NOW)).toBe('open · 12 days unresolved');
    // Opened at the clock's own instant: open, 0 days.
    expect(openMarker(NOW.toISOString(), NOW)).toBe('open · 0 days unresolved');
  });
});

describe('freshnessOf: precedence', () => {
  it('puts a passed TTL before every other rule', () => {
    const all = {
      valid_until: PAST,
      review_due: PAST,
      source: 'changed' as const,
      open_since: PAST,
    };
    expect(freshnessOf(all, NOW).reason).toBe('expired');
  });

  it('puts the open ceiling before a changed source', () => {
    expect(freshnessOf({ open_since: '2024-01-01T00:00:00Z', source: 'changed' }, NOW).reason).toBe(
      'unresolved_expired',
    );
  });

  it('puts a passed review date on a record that is not open before a changed source', () => {
    expect(freshnessOf({ review_due: PAST, source: 'changed' }, NOW).reason).toBe('review_due');
  });

  it('puts a changed or unreadable source before the open marker', () => {
    const open = { open_since: PAST, review_due: PAST };
    expect(freshnessOf({ ...open, source: 'changed' }, NOW).reason).toBe('source_changed');
    expect(freshnessOf({ ...open, source: 'unreadable' }, NOW).reason).toBe('source_unreadable');
  });

  it('never lets the open marker rescue an expired record', () => {
    expect(freshnessOf({ open_since: PAST, review_due: PAST, valid_until: PAST }, NOW).state).toBe(
      'expired',
    );
  });
});

describe('what recall does with a verdict', () => {
  it('holds back expired, stale and unknown, and delivers fresh and open', () => {
    expect(heldBack(freshnessOf({ valid_until: PAST }, NOW))).toBe(true);
    expect(heldBack(freshnessOf({ review_due: PAST }, NOW))).toBe(true);
    expect(heldBack(freshnessOf({ source: 'unreadable' }, NOW))).toBe(true);
    expect(heldBack(freshnessOf({ open_since: PAST, review_due: PAST }, NOW))).toBe(false);
    expect(heldBack(freshnessOf({}, NOW))).toBe(false);
  });

  it('names a next action for every reason', () => {
    expect(NEXT_ACTION).toEqual({
      expired: 'retire',
      unresolved_expired: 'retire',
      review_due: 'confirm',
      source_changed: 'correct',
      // Stop 32: a confirmation leaves an unreadable source unread (held back for good); a new citation settles it.
      source_unreadable: 'correct',
      source_outside_root: 'correct',
      unresolved: 'confirm',
    });
  });
});
