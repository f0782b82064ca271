import { describe, expect, it } from 'vitest';
import { tokenHistogram } from './histogram.js';

describe('tokenHistogram', () => {
  it('buckets sizes into equal ranges ending at the budget', () => {
    const h = tokenHistogram([0, 499, 500, 4999, 5000, 2500], 5000, 10);
    expect(h.buckets).toHaveLength(10);
    expect(h.buckets[0]).toEqual({ from: 0, to: 499, count: 2 });
    expect(h.buckets[1]).toEqual({ from: 500, to: 999, count: 1 });
    expect(h.buckets[5]).toEqual({ from: 2500, to: 2999, count: 1 });
    expect(h.buckets.at(-1)).toEqual({ from: 4500, to: 5000, count: 2 });
    expect(h.buckets.reduce((n, b) => n + b.count, 0)).toBe(6);
    expect(h).toMatchObject({
      over: 0,
      count: 6,
      totalTokens: 13498,
      min: 0,
      max: 5000,
      mean: 2250,
    });
  });

  it('counts sizes over the budget apart', () => {
    expect(tokenHistogram([10, 2000], 1024, 4)).toMatchObject({ over: 1, count: 2, max: 2000 });
  });

  it('gives a small budget one bucket per size', () => {
    expect(tokenHistogram([3], 5, 10).buckets.map((b) => [b.from, b.to])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
      [5, 5],
    ]);
  });

  it('is all zeros for no input', () => {
    const h = tokenHistogram([], 100, 5);
    expect(h).toMatchObject({ count: 0, totalTokens: 0, min: 0, max: 0, mean: 0, over: 0 });
    expect(h.buckets.every((b) => b.count === 0)).toBe(true);
  });
});
