import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { singleNodeIdf, termsWithinBudget } from './keyword-recall.js';

describe('termsWithinBudget', () => {
  it('keeps the rarest terms while their postings fit, in the original order', () => {
    expect(termsWithinBudget(['npm', 'eresolve', 'err', 'tree'], [900, 3, 800, 40], 1000)).toEqual({
      kept: ['eresolve', 'err', 'tree'],
      leftOut: ['npm'],
    });
    expect(termsWithinBudget(['a', 'b'], [10, 10], 1000)).toEqual({
      kept: ['a', 'b'],
      leftOut: [],
    });
  });

  it('always keeps the rarest term, even past the budget', () => {
    expect(termsWithinBudget(['common', 'commoner'], [5000, 9000], 100)).toEqual({
      kept: ['common'],
      leftOut: ['commoner'],
    });
  });

  it('property: kept and left out partition the terms; the kept postings fit unless one term alone exceeds the budget', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(50_000), { minLength: 12, maxLength: 12 }),
        fc.nat(60_000),
        (terms, dfs, budget) => {
          const { kept, leftOut } = termsWithinBudget(terms, dfs, budget);
          expect([...kept, ...leftOut].sort()).toEqual([...terms].sort());
          expect(kept.length).toBeGreaterThan(0);
          const postings = kept.reduce((n, t) => n + dfs[terms.indexOf(t)]!, 0);
          if (kept.length > 1) expect(postings).toBeLessThanOrEqual(budget);
          const rarest = Math.min(...terms.map((_, i) => dfs[i]!));
          expect(kept.some((t) => dfs[terms.indexOf(t)] === rarest)).toBe(true);
        },
      ),
    );
  });
});

describe('singleNodeIdf', () => {
  it("is FTS5's IDF of a term found in one node, clamped as FTS5 clamps it", () => {
    expect(singleNodeIdf(100_000)).toBeCloseTo(Math.log(99_999.5 / 1.5));
    expect(singleNodeIdf(2)).toBe(1e-6);
    expect(singleNodeIdf(0)).toBe(1e-6);
  });
});
