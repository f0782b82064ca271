import { MemError, isMemError, sha256Hex } from '@mem/core';
import { postJson, type ModelEndpoint } from '@mem/llm';
import { checkDims } from './dims.js';
import type { Embedder } from './embedder.js';
import { parseEmbeddingResponse } from './embedding-response.js';
import { NO_PREFIXES, type EmbedPrefixes } from './prefixes.js';

export interface OpenaiEmbedderOptions {
  /** The dimension the model must answer with; a different one is CONFIG_INVALID. Default 768 (nomic-embed-text). */
  dims?: number;
  /** Texts per request at first; a 413 halves it. Default 64. */
  batchSize?: number;
  /** Put before each text by role. Default none (see knownPrefixes for the model families that want them). */
  prefixes?: EmbedPrefixes;
  /** Send `truncate: true`: the server cuts a text longer than the model's window instead of refusing it. */
  truncate?: boolean;
}

export const DEFAULT_EMBED_DIMS = 768;
export const DEFAULT_EMBED_BATCH = 64;

/**
 * An embedder over any OpenAI-compatible `/v1/embeddings` (Ollama, vLLM, llama.cpp, TEI):
 * texts go in requests of `batchSize`, one at a time in order; each answer is re-ordered by its
 * `index`. Timeouts, retries and backoff are @mem/llm's `postJson` (429/5xx/network retried).
 * A 413 (TEI refuses more than 32 inputs by default) halves the batch and sends it again, and
 * the smaller size stays for the embedder's later requests; a 413 for a single text is MODEL_FAILED.
 */
export function openaiEmbedder(
  endpoint: ModelEndpoint,
  options: OpenaiEmbedderOptions = {},
): Embedder {
  const dims = checkDims(options.dims ?? DEFAULT_EMBED_DIMS, 'openaiEmbedder dims');
  let batchSize = options.batchSize ?? DEFAULT_EMBED_BATCH;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new MemError(
      'CONFIG_INVALID',
      `openaiEmbedder: expected a batch size, a positive integer, got ${JSON.stringify(batchSize)}`,
      { batchSize },
    );
  }
  if (!endpoint.model)
    throw new MemError('CONFIG_INVALID', 'openaiEmbedder: the endpoint names no model', {
      url: endpoint.url,
    });
  const prefixes = options.prefixes ?? NO_PREFIXES;
  const extra = options.truncate ? { truncate: true } : {};

  const send = async (batch: readonly string[]): Promise<Float32Array[]> => {
    const { body } = await postJson(endpoint, { model: endpoint.model, input: batch, ...extra });
    return parseEmbeddingResponse(body, {
      url: endpoint.url,
      model: endpoint.model,
      count: batch.length,
      dims,
    });
  };

  // Prefixes change every vector, so they are part of the name: a projection built without them
  // is rebuilt rather than mixed with prefixed queries.
  const prefixed = prefixes.query !== '' || prefixes.document !== '';
  const suffix = prefixed
    ? `:p${sha256Hex(`${prefixes.query}\u0000${prefixes.document}`).slice(0, 8)}`
    : '';
  return {
    name: `openai:${endpoint.model}:${dims}${suffix}`,
    dims,
    scope: JSON.stringify({ url: endpoint.url, prefixes, truncate: options.truncate === true }),
    async embed(texts, role) {
      const prefix = prefixes[role];
      const inputs = prefix === '' ? texts : texts.map((text) => prefix + text);
      const out: Float32Array[] = [];
      let start = 0;
      while (start < inputs.length) {
        const batch = inputs.slice(start, start + batchSize);
        try {
          out.push(...(await send(batch)));
          start += batch.length;
        } catch (error) {
          if (!isMemError(error) || error.details['status'] !== 413) throw error;
          if (batch.length === 1) {
            throw new MemError(
              'MODEL_FAILED',
              `${endpoint.url} refused a single text as too large (413): set MEM_EMBED_TRUNCATE=true if the server can cut it to the model's window`,
              { url: endpoint.url, model: endpoint.model, status: 413, batch: 1 },
              { cause: error },
            );
          }
          batchSize = Math.max(1, Math.floor(batch.length / 2));
        }
      }
      return out;
    },
  };
}
