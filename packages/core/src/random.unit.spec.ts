import { describe, expect, it } from 'vitest';
import { seededRandom } from './random.js';

describe('seededRandom', () => {
  it('repeats a seed exactly (mulberry32: baselines and synthetic corpora stay reproducible)', () => {
    const first = seededRandom(1);
    expect([first(), first(), first()]).toEqual([
      0.6270739405881613, 0.002735721180215478, 0.5274470399599522,
    ]);
    const a = seededRandom(42);
    const b = seededRandom(42);
    const draws = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(draws);
    expect(draws.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(seededRandom(43)()).not.toBe(seededRandom(42)());
  });
});
