import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareFused,
  fuse,
  rrfMicro,
  type NodeKey,
  type SignalHit,
  type SignalLists,
} from './fusion.js';
import type { RecallLevel } from './ports.js';

const key = (name: string, level: RecallLevel = 'L1', project = 'demo'): NodeKey => ({
  project,
  level,
  sha256: name.padEnd(64, '0'),
});
const hits = (...keys: NodeKey[]): SignalHit[] => keys.map((k, i) => ({ key: k, score: 10 - i }));
const ALL = ['keyword', 'vector_text', 'vector_symptom'] as const;

describe('fuse', () => {
  it('sums 10⁶ / (60 + rank) over the lists a node appears in', () => {
    const a = key('a');
    const b = key('b');
    const fused = fuse({ keyword: hits(a, b), vector_text: hits(b) }, ALL);
    expect(fused.map((f) => [f.key.sha256[0], f.ranking.rrf_score_micro])).toEqual([
      ['b', rrfMicro(2) + rrfMicro(1)],
      ['a', rrfMicro(1)],
    ]);
    expect(fused[0]!.ranking).toMatchObject({
      keyword: { rank: 2, bm25: 9 },
      vector_text: { rank: 1, similarity: 10 },
      vector_symptom: null,
      signals: [...ALL],
    });
    expect(rrfMicro(1)).toBe(16393);
  });

  it('names only the signals that ran', () => {
    expect(fuse({ keyword: hits(key('a')) }, ['keyword'])[0]!.ranking.signals).toEqual(['keyword']);
  });

  it('at an equal score, L1/L2 outrank L0, and L0 outranks R', () => {
    const r = key('a', 'R');
    const l1 = key('b', 'L1');
    const l0 = key('c', 'L0');
    // Each is first in exactly one list: the same fused score.
    const fused = fuse({ keyword: hits(r), vector_text: hits(l0), vector_symptom: hits(l1) }, ALL);
    expect(fused.map((f) => f.key.level)).toEqual(['L1', 'L0', 'R']);
  });

  it('a better score still beats the tier: R first in two lists outranks an L1 first in one', () => {
    const r = key('a', 'R');
    const l1 = key('b', 'L1');
    expect(
      fuse({ keyword: hits(r), vector_text: hits(r, l1) }, ALL).map((f) => f.key.level),
    ).toEqual(['R', 'L1']);
  });

  it('with a rerank, the rerank score leads and the tier breaks its ties', () => {
    const fused = fuse({ keyword: hits(key('a', 'R'), key('b', 'L1'), key('c', 'L2')) }, [
      'keyword',
    ]);
    fused[0]!.ranking.rerank = { rank: 1, score: 0.5 };
    fused[1]!.ranking.rerank = { rank: 2, score: 0.5 };
    fused[2]!.ranking.rerank = { rank: 3, score: 0.9 };
    expect(fused.sort(compareFused).map((f) => f.key.sha256[0])).toEqual(['c', 'b', 'a']);
  });

  it('property: the order is total and does not depend on the order of the input lists', () => {
    const node = fc.record({
      name: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
      level: fc.constantFrom<RecallLevel>('L0', 'L1', 'L2', 'R'),
      project: fc.constantFrom('p', 'q'),
    });
    const list = fc
      .array(node, { maxLength: 8 })
      .map((nodes) => hits(...nodes.map((n) => key(n.name, n.level, n.project))));
    fc.assert(
      fc.property(list, list, list, (k, t, s) => {
        const lists: SignalLists = { keyword: k, vector_text: t, vector_symptom: s };
        const once = fuse(lists, ALL);
        const ids = once.map((f) => `${f.key.project}/${f.key.level}/${f.key.sha256}`);
        expect(new Set(ids).size).toBe(ids.length);
        for (let i = 1; i < once.length; i += 1)
          expect(compareFused(once[i - 1]!, once[i]!)).toBeLessThan(0);
        const reversed = [...once].reverse().sort(compareFused);
        expect(reversed.map((f) => f.key)).toEqual(once.map((f) => f.key));
      }),
      { numRuns: 300 },
    );
  });
});
