import { MemError } from '@mem/core';
import { routeUrl, type ModelEndpoint } from '@mem/llm';
import { checkDims } from './dims.js';
import type { Embedder, Reranker } from './embedder.js';
import { hashEmbedder } from './hash-embedder.js';
import { DEFAULT_EMBED_DIMS, openaiEmbedder } from './openai-embedder.js';
import { rerankClient } from './rerank-client.js';

/**
 * The embeddings endpoint of MEM_EMBED_URL / MEM_EMBED_MODEL, keyed by MEM_EMBED_KEY or else
 * MEM_LLM_KEY (one gateway often fronts both); null when MEM_EMBED_URL is unset.
 */
export function embedEndpointFromEnv(env: NodeJS.ProcessEnv = process.env): ModelEndpoint | null {
  const base = env['MEM_EMBED_URL'];
  if (!base) return null;
  const model = env['MEM_EMBED_MODEL'];
  if (!model) throw new MemError('CONFIG_INVALID', 'MEM_EMBED_URL is set but MEM_EMBED_MODEL is not: name the embedding model (e.g. nomic-embed-text)', { variable: 'MEM_EMBED_MODEL' });
  const key = env['MEM_EMBED_KEY'] || env['MEM_LLM_KEY'];
  return { url: routeUrl(base, 'embeddings'), model, ...(key ? { key } : {}) };
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
  const endpoint = embedEndpointFromEnv(env);
  return endpoint ? openaiEmbedder(endpoint, { dims }) : hashEmbedder(dims);
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
