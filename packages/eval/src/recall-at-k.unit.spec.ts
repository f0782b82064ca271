import { describe, expect, it } from 'vitest';
import { RecallTable, recallAtK } from './recall-at-k.js';

describe('recallAtK', () => {
  it('is the fraction of gold ids among the first k retrieved entries (an entry may stand for several ids)', () => {
    const retrieved = [['D1:1'], ['D1:2', 'D1:9'], ['D2:3']];
    expect(recallAtK(['D1:9', 'D2:3'], retrieved, 1)).toBe(0);
    expect(recallAtK(['D1:9', 'D2:3'], retrieved, 2)).toBe(0.5);
    expect(recallAtK(['D1:9', 'D2:3'], retrieved, 3)).toBe(1);
    expect(recallAtK([], retrieved, 3)).toBe(0);
  });
});

describe('RecallTable', () => {
  it('averages recall@k over questions, 4 decimals', () => {
    const table = new RecallTable([1, 2]);
    table.add(['a'], [['a'], ['b']]);
    table.add(['a', 'b', 'c'], [['x'], ['b']]);
    table.add(['z'], []);
    expect(table.means()).toEqual({ '1': 0.3333, '2': 0.4444 });
    expect(table.count).toBe(3);
  });
});
