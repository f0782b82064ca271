import { hasErrorCode } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { fuse, type NodeKey } from './fusion.js';
import { rerankCandidates } from './rerank.js';

const key = (name: string): NodeKey => ({
  project: 'p',
  level: 'L1',
  sha256: name.padEnd(64, '0'),
});

describe('rerankCandidates', () => {
  it('writes each candidate its rerank rank and score, best score first', async () => {
    const fused = fuse(
      { keyword: [key('a'), key('b'), key('c')].map((k) => ({ key: k, score: 1 })) },
      ['keyword'],
    );
    await rerankCandidates({ name: 'fake', rerank: async () => [0.1, 0.9, 0.5] }, 'q', fused, [
      'a',
      'b',
      'c',
    ]);
    expect(fused.map((f) => f.ranking.rerank)).toEqual([
      { rank: 3, score: 0.1 },
      { rank: 1, score: 0.9 },
      { rank: 2, score: 0.5 },
    ]);
  });

  it('refuses a reranker that answers the wrong number of scores or a non-number (MODEL_FAILED)', async () => {
    const fused = fuse({ keyword: [{ key: key('a'), score: 1 }] }, ['keyword']);
    await expect(
      rerankCandidates({ name: 'short', rerank: async () => [] }, 'q', fused, ['a']),
    ).rejects.toSatisfy((e) => hasErrorCode(e, 'MODEL_FAILED'));
    await expect(
      rerankCandidates({ name: 'nan', rerank: async () => [Number.NaN] }, 'q', fused, ['a']),
    ).rejects.toSatisfy((e) => hasErrorCode(e, 'MODEL_FAILED'));
  });
});
