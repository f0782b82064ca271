import { describe, expect, it } from 'vitest';
import { BAND_MICRO, orderWithinBands, usageBucket, type OrderInput } from './band-order.js';
import { temporalCue } from './temporal-cue.js';

interface Row extends OrderInput {
  name: string;
}
const row = (name: string, relevanceMicro: number, seq: number, pinned = false): Row => ({
  name,
  relevanceMicro,
  seq,
  deliveries: null,
  pinned,
});
const names = (rows: readonly Row[], cue: string | null = null) =>
  orderWithinBands(rows, (r) => r, cue).map((r) => r.row.name);

describe('orderWithinBands (issue 13 §5)', () => {
  it('orders equal relevance by recency, newest first', () => {
    expect(names([row('old', 16_393, 1), row('new', 16_393, 9)])).toEqual(['new', 'old']);
  });

  it('a temporal cue doubles recency and reverses a tie between relevance and recency', () => {
    // Same band (near-equal relevance deep in a list): the stronger is older, the weaker
    // newer; without a cue the fusion ties.
    const rows = [row('stronger', 12_990, 1), row('newer', 12_920, 9)];
    expect(names(rows)).toEqual(['stronger', 'newer']);
    expect(names(rows, 'latest')).toEqual(['newer', 'stronger']);
    const ranked = orderWithinBands(rows, (r) => r, 'latest');
    expect(ranked[0]!.ranking).toMatchObject({
      temporal_cue: 'latest',
      weights: { relevance: 1, recency: 2, usage: 1 },
      relevance_rank: 2,
      recency_rank: 1,
      usage_rank: null,
      fused_score_micro: Math.round(1e6 / 62) + Math.round(2e6 / 61),
    });
  });

  it('a stronger band is never displaced: not by recency, a cue or a pin', () => {
    const rows = [row('strong', 3 * BAND_MICRO, 1), row('weak', BAND_MICRO, 9, true)];
    expect(names(rows, 'recently')).toEqual(['strong', 'weak']);
  });

  it('a pin leads its own band', () => {
    const rows = [row('a', 16_393, 9), row('b', 16_393, 5), row('pinned', 16_393, 1, true)];
    expect(names(rows)).toEqual(['pinned', 'a', 'b']);
  });

  it('rows of different groups never share a band', () => {
    const rows = [
      { ...row('cleared', 16_000, 1), group: '1' },
      { ...row('below', 16_000, 9), group: '0' },
    ];
    expect(names(rows)).toEqual(['cleared', 'below']);
  });

  it('usage ranks on saturating buckets', () => {
    expect([0, 1, 2, 3, 9, 10, 1000].map(usageBucket)).toEqual([0, 1, 1, 2, 2, 3, 3]);
  });
});

describe('temporalCue', () => {
  it('names a phrase of the closed list, in any case and spacing', () => {
    expect(temporalCue('what broke YESTERDAY?')).toBe('yesterday');
    expect(temporalCue('the build of last   week')).toBe('last week');
    expect(temporalCue('latest loader fix')).toBe('latest');
  });

  it('finds none inside another word or outside the list', () => {
    expect(temporalCue('todayish plans')).toBeNull();
    expect(temporalCue('the theme loader crash')).toBeNull();
    expect(temporalCue('next week')).toBeNull();
  });
});
