import { describe, expect, it } from 'vitest';
import { isMemError } from '@mem/core';
import { fitBudget } from './context-budget.js';

const e = (id: string, tokens: number, cleared?: boolean) => ({
  id,
  tokens,
  ...(cleared !== undefined ? { cleared } : {}),
});
/** 10 (tier 1) + 30 (tier 2: 20 cleared, 10 not) + 40 (R) + 8 (skills) = 88 tokens. */
const parts = () => ({
  signature: [e('sig', 10)],
  similar: [e('near', 20, true), e('far', 10, false)],
  reference: [e('doc-a', 25), e('doc-b', 15)],
  skills: [e('skill', 8)],
});
const ids = (list: readonly { id: string }[]) => list.map((x) => x.id);

describe('fitBudget: the seed’s truncation order', () => {
  it('keeps everything that fits, and says what it costs', () => {
    const { kept, report } = fitBudget(parts(), 88);
    expect(ids(kept.reference)).toEqual(['doc-a', 'doc-b']);
    expect(report).toEqual({ limit: 88, used: 88, dropped: [] });
  });

  it('drops R first, lowest ranked first, before anything else is touched', () => {
    const { kept, report } = fitBudget(parts(), 73);
    expect(ids(kept.reference)).toEqual(['doc-a']);
    expect(ids(kept.similar)).toEqual(['near', 'far']);
    expect(ids(kept.skills)).toEqual(['skill']);
    expect(report.dropped).toEqual([{ part: 'reference', count: 1, tokens: 15 }]);
  });

  it('then trims tier 2 toward its floor, then drops skills, then the rest of tier 2; never tier 1', () => {
    expect(fitBudget(parts(), 40).report.dropped).toEqual([
      { part: 'reference', count: 2, tokens: 40 },
      { part: 'similar', count: 1, tokens: 10 },
    ]);
    const tight = fitBudget(parts(), 30);
    expect(tight.report.dropped.map((d) => d.part)).toEqual(['reference', 'similar', 'skills']);
    expect(ids(tight.kept.similar)).toEqual(['near']);
    const bare = fitBudget(parts(), 10);
    expect(bare.report.dropped.map((d) => d.part)).toEqual([
      'reference',
      'similar',
      'skills',
      'similar',
    ]);
    expect(ids(bare.kept.signature)).toEqual(['sig']);
    expect(bare.report.used).toBe(10);
  });

  it('refuses a budget its tier-1 hits cannot fit: BUDGET_EXCEEDED naming the shortfall', () => {
    let thrown: unknown;
    try {
      fitBudget(parts(), 7);
    } catch (error) {
      thrown = error;
    }
    expect(isMemError(thrown) && thrown.code).toBe('BUDGET_EXCEEDED');
    expect(isMemError(thrown) && thrown.details).toEqual({
      budget: 7,
      tier1_tokens: 10,
      shortfall: 3,
    });
  });
});
