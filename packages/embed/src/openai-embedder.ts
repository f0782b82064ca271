import { MemError } from '@mem/core';
import { postJson, type ModelEndpoint } from '@mem/llm';
import { checkDims } from './dims.js';
import type { Embedder } from './embedder.js';
import { parseEmbeddingResponse } from './embedding-response.js';

export interface OpenaiEmbedderOptions {
  /** The dimension the model must answer with; a different one is CONFIG_INVALID. Default 768 (nomic-embed-text). */
  dims?: number;
  /** Texts per request. Default 64. */
  batchSize?: number;
}

export const DEFAULT_EMBED_DIMS = 768;
export const DEFAULT_EMBED_BATCH = 64;

/**
 * An embedder over any OpenAI-compatible `/v1/embeddings` (Ollama, vLLM, llama.cpp, TEI):
 * texts go in requests of `batchSize`, one at a time in order; each answer is re-ordered by its
 * `index`. Timeouts, retries and backoff are @mem/llm's `postJson` (429/5xx/network retried).
 */
export function openaiEmbedder(endpoint: ModelEndpoint, options: OpenaiEmbedderOptions = {}): Embedder {
  const dims = checkDims(options.dims ?? DEFAULT_EMBED_DIMS, 'openaiEmbedder dims');
  const batchSize = options.batchSize ?? DEFAULT_EMBED_BATCH;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new MemError('CONFIG_INVALID', `openaiEmbedder: expected a batch size, a positive integer, got ${JSON.stringify(batchSize)}`, { batchSize });
  }
  if (!endpoint.model) throw new MemError('CONFIG_INVALID', 'openaiEmbedder: the endpoint names no model', { url: endpoint.url });
  return {
    name: `openai:${endpoint.model}:${dims}`,
    dims,
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        const batch = texts.slice(start, start + batchSize);
        const { body } = await postJson(endpoint, { model: endpoint.model, input: batch });
        out.push(...parseEmbeddingResponse(body, { url: endpoint.url, model: endpoint.model, count: batch.length, dims }));
      }
      return out;
    },
  };
}
