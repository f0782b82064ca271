import { MemError, type MemConfig } from '@mem/core';
import { routeUrl, type ModelEndpoint } from '@mem/llm';
import type { Embedder, Reranker } from './embedder.js';
import { hashEmbedder } from './hash-embedder.js';
import { DEFAULT_EMBED_DIMS, openaiEmbedder } from './openai-embedder.js';
import { knownPrefixes, type EmbedPrefixes } from './prefixes.js';
import { rerankClient } from './rerank-client.js';

/**
 * The embeddings endpoint of MEM_EMBED_URL / MEM_EMBED_MODEL, keyed by MEM_EMBED_KEY or else
 * MEM_LLM_KEY (one gateway often fronts both), with MEM_EMBED_TIMEOUT_MS and MEM_EMBED_RETRIES
 * when set; null when MEM_EMBED_URL is unset.
 */
export function embedEndpointFromEnv(config: MemConfig): ModelEndpoint | null {
  const base = config.MEM_EMBED_URL;
  if (!base) return null;
  const model = config.MEM_EMBED_MODEL;
  if (!model)
    throw new MemError(
      'CONFIG_INVALID',
      'MEM_EMBED_URL is set but MEM_EMBED_MODEL is not: name the embedding model (e.g. nomic-embed-text)',
      { variable: 'MEM_EMBED_MODEL' },
    );
  const key = config.MEM_EMBED_KEY || config.MEM_LLM_KEY;
  return {
    url: routeUrl(base, 'embeddings'),
    model,
    ...(key ? { key } : {}),
    ...(config.MEM_EMBED_TIMEOUT_MS !== undefined
      ? { timeoutMs: config.MEM_EMBED_TIMEOUT_MS }
      : {}),
    ...(config.MEM_EMBED_RETRIES !== undefined ? { retries: config.MEM_EMBED_RETRIES } : {}),
  };
}

/**
 * MEM_EMBED_QUERY_PREFIX / MEM_EMBED_DOCUMENT_PREFIX, each when set (an empty value means no
 * prefix), else the model's known prefixes (nomic-embed-text, e5), else none.
 */
export function embedPrefixesFromEnv(model: string, config: MemConfig): EmbedPrefixes {
  const known = knownPrefixes(model);
  return {
    query: config.MEM_EMBED_QUERY_PREFIX ?? known.query,
    document: config.MEM_EMBED_DOCUMENT_PREFIX ?? known.document,
  };
}

/** MEM_EMBED_DIMS, else 768 (nomic-embed-text). */
export function embedDimsFromEnv(config: MemConfig): number {
  return config.MEM_EMBED_DIMS ?? DEFAULT_EMBED_DIMS;
}

/** The openai embedder when MEM_EMBED_URL is set, else the hash embedder (same dimension: MEM_EMBED_DIMS or 768). */
export function embedderFromEnv(config: MemConfig): Embedder {
  const dims = embedDimsFromEnv(config);
  const endpoint = embedEndpointFromEnv(config);
  if (!endpoint) return hashEmbedder(dims);
  return openaiEmbedder(endpoint, {
    dims,
    prefixes: embedPrefixesFromEnv(endpoint.model, config),
    ...(config.MEM_EMBED_BATCH !== undefined ? { batchSize: config.MEM_EMBED_BATCH } : {}),
    ...(config.MEM_EMBED_TRUNCATE !== undefined ? { truncate: config.MEM_EMBED_TRUNCATE } : {}),
  });
}

/**
 * The reranker of MEM_RERANK_URL (optional MEM_RERANK_MODEL; key MEM_RERANK_KEY, else
 * MEM_LLM_KEY), or null when MEM_RERANK_URL is unset: reranking is optional.
 */
export function rerankerFromEnv(config: MemConfig): Reranker | null {
  const base = config.MEM_RERANK_URL;
  if (!base) return null;
  const key = config.MEM_RERANK_KEY || config.MEM_LLM_KEY;
  return rerankClient({
    url: routeUrl(base, 'rerank'),
    model: config.MEM_RERANK_MODEL ?? '',
    ...(key ? { key } : {}),
  });
}
