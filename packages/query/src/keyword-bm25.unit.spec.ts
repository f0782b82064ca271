import { describe, expect, it } from 'vitest';
import { bm25Idf, bm25Term } from './keyword-bm25.js';

describe('bm25', () => {
  it('weighs a rare term above a common one, and clamps a term in most nodes to 1e-6 as FTS5 does', () => {
    expect(bm25Idf(100, 1)).toBeCloseTo(Math.log(99.5 / 1.5), 12);
    expect(bm25Idf(100, 1)).toBeGreaterThan(bm25Idf(100, 10));
    expect(bm25Idf(10, 8)).toBe(1e-6);
  });

  it('grows with the term frequency, shrinks with the node length, and is idf at tf 1 in an average node', () => {
    expect(bm25Term(2, 1, 10, 10)).toBeCloseTo(2, 12);
    expect(bm25Term(2, 3, 10, 10)).toBeGreaterThan(bm25Term(2, 1, 10, 10));
    expect(bm25Term(2, 1, 40, 10)).toBeLessThan(bm25Term(2, 1, 10, 10));
  });
});
