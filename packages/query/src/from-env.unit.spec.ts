import { describe, expect, it } from 'vitest';
import { loadConfig } from '@mem/core';
import { parseFusionWeights, queryTuningFromEnv as fromConfig } from './from-env.js';

/** The environment as the entry points see it: through loadConfig, so a bad value is refused there. */
const queryTuningFromEnv = (env: Record<string, string>) => fromConfig(loadConfig(env));

describe('query tuning from the environment', () => {
  it('is empty when nothing is set: the embedder defaults apply', () => {
    expect(queryTuningFromEnv({})).toEqual({});
    expect(queryTuningFromEnv({ MEM_QUERY_FLOOR_SIMILARITY: '' })).toEqual({});
  });

  it('reads the floor thresholds and the fusion weights that are set', () => {
    expect(
      queryTuningFromEnv({
        MEM_QUERY_FLOOR_SIMILARITY: '0.52',
        MEM_QUERY_FLOOR_COVERAGE: '0.5',
        MEM_QUERY_FLOOR_KEYWORD: '2',
        MEM_FUSION_WEIGHTS: 'keyword=1, vector_text=0.1',
      }),
    ).toEqual({
      floor: { minSimilarity: 0.52, minCoverage: 0.5, minKeyword: 2 },
      weights: { keyword: 1, vector_text: 0.1 },
    });
  });

  it('refuses bad values with CONFIG_INVALID naming the variable', () => {
    const bad: Record<string, string>[] = [
      { MEM_QUERY_FLOOR_SIMILARITY: 'high' },
      { MEM_QUERY_FLOOR_SIMILARITY: '1.5' },
      { MEM_QUERY_FLOOR_COVERAGE: '-0.1' },
      { MEM_QUERY_FLOOR_KEYWORD: 'Infinity' },
      { MEM_FUSION_WEIGHTS: 'keyword' },
      { MEM_FUSION_WEIGHTS: 'bm25=1' },
      { MEM_FUSION_WEIGHTS: 'keyword=-1' },
      { MEM_FUSION_WEIGHTS: 'keyword=1,keyword=2' },
    ];
    for (const env of bad) {
      const variable = Object.keys(env)[0]!;
      expect(() => queryTuningFromEnv(env), JSON.stringify(env)).toThrow(
        expect.objectContaining({
          code: 'CONFIG_INVALID',
          details: expect.objectContaining({ variable }),
        }),
      );
    }
  });

  it('parses one weights setting as INVALID_INPUT when it comes from a flag', () => {
    expect(parseFusionWeights('vector_symptom=0', '--weights')).toEqual({ vector_symptom: 0 });
    expect(() => parseFusionWeights('vector=1', '--weights')).toThrow(
      expect.objectContaining({
        code: 'INVALID_INPUT',
        details: expect.objectContaining({ field: '--weights' }),
      }),
    );
  });
});
