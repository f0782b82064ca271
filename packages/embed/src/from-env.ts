import { z } from 'zod';
import { MemError } from '@mem/core';
import { routeUrl, type ModelEndpoint } from '@mem/llm';
import { checkDims } from './dims.js';
import type { Embedder, Reranker } from './embedder.js';
import { hashEmbedder } from './hash-embedder.js';
import { DEFAULT_EMBED_DIMS, openaiEmbedder } from './openai-embedder.js';
import { knownPrefixes, type EmbedPrefixes } from './prefixes.js';
import { rerankClient } from './rerank-client.js';

const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'expected a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/** The tuning variables of the OpenAI-compatible embedder; each is optional. */
const TUNING = {
  MEM_EMBED_BATCH: wholeNumber(1, 4096),
  MEM_EMBED_TIMEOUT_MS: wholeNumber(1, 3_600_000),
  MEM_EMBED_RETRIES: wholeNumber(0, 10),
  MEM_EMBED_TRUNCATE: z.enum(['true', 'false']).transform((v) => v === 'true'),
} as const;

type Tuning = { [K in keyof typeof TUNING]?: z.output<(typeof TUNING)[K]> };

/** Reads the tuning variables that are set (empty counts as unset); a bad value is CONFIG_INVALID naming it. */
function tuningFromEnv(env: NodeJS.ProcessEnv): Tuning {
  const out: Record<string, unknown> = {};
  for (const [variable, schema] of Object.entries(TUNING)) {
    const raw = env[variable];
    if (raw === undefined || raw === '') continue;
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      throw new MemError('CONFIG_INVALID', `${variable}=${JSON.stringify(raw)}: ${parsed.error.issues.map((i) => i.message).join('; ')}`, { variable, value: raw });
    }
    out[variable] = parsed.data;
  }
  return out;
}

/**
 * The embeddings endpoint of MEM_EMBED_URL / MEM_EMBED_MODEL, keyed by MEM_EMBED_KEY or else
 * MEM_LLM_KEY (one gateway often fronts both), with MEM_EMBED_TIMEOUT_MS and MEM_EMBED_RETRIES
 * when set; null when MEM_EMBED_URL is unset.
 */
export function embedEndpointFromEnv(env: NodeJS.ProcessEnv = process.env): ModelEndpoint | null {
  const base = env['MEM_EMBED_URL'];
  if (!base) return null;
  const model = env['MEM_EMBED_MODEL'];
  if (!model) throw new MemError('CONFIG_INVALID', 'MEM_EMBED_URL is set but MEM_EMBED_MODEL is not: name the embedding model (e.g. nomic-embed-text)', { variable: 'MEM_EMBED_MODEL' });
  const key = env['MEM_EMBED_KEY'] || env['MEM_LLM_KEY'];
  const tuning = tuningFromEnv(env);
  return {
    url: routeUrl(base, 'embeddings'),
    model,
    ...(key ? { key } : {}),
    ...(tuning.MEM_EMBED_TIMEOUT_MS !== undefined ? { timeoutMs: tuning.MEM_EMBED_TIMEOUT_MS } : {}),
    ...(tuning.MEM_EMBED_RETRIES !== undefined ? { retries: tuning.MEM_EMBED_RETRIES } : {}),
  };
}

/**
 * MEM_EMBED_QUERY_PREFIX / MEM_EMBED_DOCUMENT_PREFIX, each when set (an empty value means no
 * prefix), else the model's known prefixes (nomic-embed-text, e5), else none.
 */
export function embedPrefixesFromEnv(model: string, env: NodeJS.ProcessEnv = process.env): EmbedPrefixes {
  const known = knownPrefixes(model);
  return { query: env['MEM_EMBED_QUERY_PREFIX'] ?? known.query, document: env['MEM_EMBED_DOCUMENT_PREFIX'] ?? known.document };
}

/** MEM_EMBED_DIMS, else 768 (nomic-embed-text). */
export function embedDimsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env['MEM_EMBED_DIMS'];
  if (raw === undefined || raw === '') return DEFAULT_EMBED_DIMS;
  return checkDims(/^\d+$/.test(raw) ? Number(raw) : Number.NaN, `MEM_EMBED_DIMS=${JSON.stringify(raw)}`);
}

/** The openai embedder when MEM_EMBED_URL is set, else the hash embedder (same dimension: MEM_EMBED_DIMS or 768). */
export function embedderFromEnv(env: NodeJS.ProcessEnv = process.env): Embedder {
  const dims = embedDimsFromEnv(env);
  // Checked even for the hash embedder: a typo in a variable is refused, not ignored until a model is set.
  const tuning = tuningFromEnv(env);
  const endpoint = embedEndpointFromEnv(env);
  if (!endpoint) return hashEmbedder(dims);
  return openaiEmbedder(endpoint, {
    dims,
    prefixes: embedPrefixesFromEnv(endpoint.model, env),
    ...(tuning.MEM_EMBED_BATCH !== undefined ? { batchSize: tuning.MEM_EMBED_BATCH } : {}),
    ...(tuning.MEM_EMBED_TRUNCATE !== undefined ? { truncate: tuning.MEM_EMBED_TRUNCATE } : {}),
  });
}

/**
 * The reranker of MEM_RERANK_URL (optional MEM_RERANK_MODEL; key MEM_RERANK_KEY, else
 * MEM_LLM_KEY), or null when MEM_RERANK_URL is unset: reranking is optional.
 */
export function rerankerFromEnv(env: NodeJS.ProcessEnv = process.env): Reranker | null {
  const base = env['MEM_RERANK_URL'];
  if (!base) return null;
  const model = env['MEM_RERANK_MODEL'] ?? '';
  const key = env['MEM_RERANK_KEY'] || env['MEM_LLM_KEY'];
  return rerankClient({ url: routeUrl(base, 'rerank'), model, ...(key ? { key } : {}) });
}
