import { z } from 'zod';
import { MemError, fusionWeightsSchema, type MemConfig } from '@mem/core';
import type { RelevanceFloor } from './floor.js';
import type { SignalWeights } from './fusion.js';

/** What the environment overrides of the embedder's floor and weights (see defaults.ts); absent: none. */
export interface QueryTuning {
  floor?: Partial<RelevanceFloor>;
  weights?: Partial<SignalWeights>;
}

function issues(error: z.ZodError): string {
  return error.issues.map((i) => i.message).join('; ');
}

/**
 * One fusion-weights setting, `keyword=1,vector_text=0.1` (signals left out keep the embedder's
 * default): the syntax of MEM_FUSION_WEIGHTS and of a flag. A bad one is INVALID_INPUT naming `field`.
 */
export function parseFusionWeights(text: string, field: string): Partial<SignalWeights> {
  const parsed = fusionWeightsSchema.safeParse(text);
  if (!parsed.success)
    throw new MemError(
      'INVALID_INPUT',
      `${field}=${JSON.stringify(text)}: ${issues(parsed.error)}`,
      { field, value: text },
    );
  return parsed.data;
}

/** MEM_QUERY_FLOOR_SIMILARITY / _COVERAGE / _KEYWORD and MEM_FUSION_WEIGHTS, each when set (loadConfig validated them). */
export function queryTuningFromEnv(config: MemConfig): QueryTuning {
  const floor: Partial<RelevanceFloor> = {
    ...(config.MEM_QUERY_FLOOR_SIMILARITY !== undefined
      ? { minSimilarity: config.MEM_QUERY_FLOOR_SIMILARITY }
      : {}),
    ...(config.MEM_QUERY_FLOOR_COVERAGE !== undefined
      ? { minCoverage: config.MEM_QUERY_FLOOR_COVERAGE }
      : {}),
    ...(config.MEM_QUERY_FLOOR_KEYWORD !== undefined
      ? { minKeyword: config.MEM_QUERY_FLOOR_KEYWORD }
      : {}),
  };
  return {
    ...(Object.keys(floor).length > 0 ? { floor } : {}),
    ...(config.MEM_FUSION_WEIGHTS ? { weights: config.MEM_FUSION_WEIGHTS } : {}),
  };
}
