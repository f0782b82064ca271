import { z } from 'zod';
import { MemError } from '@mem/core';
import type { RelevanceFloor } from './floor.js';
import { SIGNALS, type SignalWeights } from './fusion.js';
import type { Signal } from './result.js';

/** What the environment overrides of the embedder's floor and weights (see defaults.ts); absent: none. */
export interface QueryTuning {
  floor?: Partial<RelevanceFloor>;
  weights?: Partial<SignalWeights>;
}

const number = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'expected a decimal number such as 0.5')
    .transform(Number)
    .pipe(z.number().min(min).max(max));

/** The floor variables: each one threshold of RelevanceFloor. */
const FLOOR = {
  MEM_QUERY_FLOOR_SIMILARITY: { key: 'minSimilarity', schema: number(0, 1) },
  MEM_QUERY_FLOOR_COVERAGE: { key: 'minCoverage', schema: number(0, 1) },
  MEM_QUERY_FLOOR_KEYWORD: { key: 'minKeyword', schema: number(0, 1000) },
} as const satisfies Record<string, { key: keyof RelevanceFloor; schema: z.ZodType<number> }>;

const weightsSchema = z
  .string()
  .transform((text, ctx) => {
    const out: Partial<SignalWeights> = {};
    for (const part of text.split(',')) {
      const [signal, value, ...rest] = part.split('=').map((s) => s.trim());
      if (!SIGNALS.includes(signal as Signal) || value === undefined || rest.length > 0) {
        ctx.addIssue({ code: 'custom', message: `expected signal=weight pairs, the signals ${SIGNALS.join(', ')}; got ${JSON.stringify(part.trim())}` });
        return z.NEVER;
      }
      if (signal! in out) {
        ctx.addIssue({ code: 'custom', message: `${signal} is given twice` });
        return z.NEVER;
      }
      const weight = number(0, 100).safeParse(value);
      if (!weight.success) {
        ctx.addIssue({ code: 'custom', message: `${signal}: expected a weight from 0 to 100, got ${JSON.stringify(value)}` });
        return z.NEVER;
      }
      out[signal as Signal] = weight.data;
    }
    return out;
  });

function issues(error: z.ZodError): string {
  return error.issues.map((i) => i.message).join('; ');
}

/**
 * One fusion-weights setting, `keyword=1,vector_text=0.1` (signals left out keep the embedder's
 * default): the syntax of MEM_FUSION_WEIGHTS and of a flag. A bad one is INVALID_INPUT naming `field`.
 */
export function parseFusionWeights(text: string, field: string): Partial<SignalWeights> {
  const parsed = weightsSchema.safeParse(text);
  if (!parsed.success) throw new MemError('INVALID_INPUT', `${field}=${JSON.stringify(text)}: ${issues(parsed.error)}`, { field, value: text });
  return parsed.data;
}

/**
 * MEM_QUERY_FLOOR_SIMILARITY / _COVERAGE / _KEYWORD and MEM_FUSION_WEIGHTS, each when set (empty
 * counts as unset). A bad value is CONFIG_INVALID naming the variable: no query runs on a guess.
 */
export function queryTuningFromEnv(env: NodeJS.ProcessEnv = process.env): QueryTuning {
  const fail = (variable: string, raw: string, error: z.ZodError) =>
    new MemError('CONFIG_INVALID', `${variable}=${JSON.stringify(raw)}: ${issues(error)}`, { variable, value: raw });
  const tuning: QueryTuning = {};
  for (const [variable, { key, schema }] of Object.entries(FLOOR)) {
    const raw = env[variable];
    if (raw === undefined || raw === '') continue;
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw fail(variable, raw, parsed.error);
    tuning.floor = { ...tuning.floor, [key]: parsed.data };
  }
  const raw = env['MEM_FUSION_WEIGHTS'];
  if (raw !== undefined && raw !== '') {
    const parsed = weightsSchema.safeParse(raw);
    if (!parsed.success) throw fail('MEM_FUSION_WEIGHTS', raw, parsed.error);
    tuning.weights = parsed.data;
  }
  return tuning;
}
