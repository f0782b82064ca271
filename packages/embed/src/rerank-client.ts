import { MemError } from '@mem/core';
import { postJson, type ModelEndpoint } from '@mem/llm';
import type { Reranker } from './embedder.js';

/**
 * A client for an OpenAI/TEI-style `/v1/rerank`. The request carries the documents both as
 * `documents` (Jina, Cohere, vLLM, llama.cpp) and `texts` (TEI), and `model` when one is named;
 * servers ignore the field they do not read. Both answer shapes are accepted:
 * `{ results: [{ index, relevance_score }] }` and a bare `[{ index, score }]`.
 * An empty `endpoint.model` sends no model (TEI serves one).
 */
export function rerankClient(endpoint: ModelEndpoint): Reranker {
  return {
    name: `rerank:${endpoint.model || 'default'}`,
    async rerank(query, documents) {
      if (documents.length === 0) return [];
      const payload = {
        ...(endpoint.model ? { model: endpoint.model } : {}),
        query,
        documents,
        texts: documents,
      };
      const { body } = await postJson(endpoint, payload);
      return parseRerankResponse(body, documents.length, endpoint.url);
    },
  };
}

/** One score per document from either answer shape; a missing, repeated or foreign index is MODEL_FAILED. */
export function parseRerankResponse(body: unknown, count: number, url: string): number[] {
  const fail = (what: string, details: Record<string, unknown> = {}) =>
    new MemError('MODEL_FAILED', `${url}: the rerank answer ${what}`, { url, ...details });
  const items = Array.isArray(body) ? body : (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(items)) throw fail('is neither a list nor { results: [...] }');
  const scores = new Array<number | undefined>(count);
  items.forEach((item: unknown, position) => {
    const {
      index,
      relevance_score: relevance,
      score,
    } = (item ?? {}) as { index?: unknown; relevance_score?: unknown; score?: unknown };
    const value = relevance ?? score;
    if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= count) {
      throw fail(
        `item ${position} has index ${JSON.stringify(index)}, expected an integer from 0 to ${count - 1}`,
        { position },
      );
    }
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw fail(`item ${position} has no finite relevance_score or score`, { position });
    if (scores[index as number] !== undefined)
      throw fail(`repeats index ${index as number}`, { index });
    scores[index as number] = value;
  });
  const missing = scores.findIndex((s) => s === undefined);
  if (missing >= 0 || scores.length !== count)
    throw fail(`scores ${items.length} of ${count} documents (document ${missing} has no score)`, {
      expected: count,
      actual: items.length,
    });
  return scores as number[];
}
