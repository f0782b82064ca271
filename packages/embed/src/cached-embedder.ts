import { MemError, sha256Hex } from '@mem/core';
import type { EmbedRole, Embedder } from './embedder.js';
import { EmbeddingCache } from './embedding-cache.js';

/**
 * Wraps `embedder` with a cache keyed by (embedder.name and scope, role, sha256 of the exact text), kept under
 * `dir` (normally `<stateDir>/cache/embeddings/`). Droppable: deleting the directory only costs
 * the next run the embedding calls. Only misses reach the embedder, each distinct text once.
 * A cache that cannot be read or written (read-only disk) is skipped, never fatal: results are the same.
 */
export function cachedEmbedder(embedder: Embedder, dir: string): Embedder {
  const cache = new EmbeddingCache(dir, embedder.name, embedder.dims, embedder.scope);
  let writable = true;
  return {
    name: embedder.name,
    dims: embedder.dims,
    ...(embedder.scope !== undefined ? { scope: embedder.scope } : {}),
    async embed(texts, role) {
      if (texts.length === 0) return [];
      const shas = texts.map((text) => cacheKey(text, role));
      const found = lookup(cache, [...new Set(shas)]);
      const missing = new Map<string, string>();
      shas.forEach((sha, i) => {
        if (!found.has(sha) && !missing.has(sha)) missing.set(sha, texts[i]!);
      });
      if (missing.size > 0) {
        const fresh = await embedder.embed([...missing.values()], role);
        const entries = [...missing.keys()].map((sha, i) => ({
          sha,
          vector: checked(embedder, fresh[i], i),
        }));
        for (const { sha, vector } of entries) found.set(sha, vector);
        if (writable) {
          try {
            cache.put(entries);
          } catch {
            writable = false;
          }
        }
      }
      return shas.map((sha) => found.get(sha)!);
    },
    // Not skipped like an unwritable put: a forgotten vector left behind is a leak, not lost speed.
    forget(texts) {
      cache.remove(texts.flatMap((text) => [cacheKey(text, 'document'), cacheKey(text, 'query')]));
    },
  };
}

/**
 * A document's key is the sha256 of its text, as before roles existed (those entries stay hits);
 * a query's is apart, since a prefixed model embeds the same text differently as a query.
 */
function cacheKey(text: string, role: EmbedRole): string {
  return sha256Hex(role === 'document' ? text : `query\u0000${text}`);
}

/** An unreadable cache is an empty one: it only ever saves work. */
function lookup(cache: EmbeddingCache, shas: readonly string[]): Map<string, Float32Array> {
  try {
    return cache.get(shas);
  } catch {
    return new Map();
  }
}

function checked(embedder: Embedder, vector: Float32Array | undefined, i: number): Float32Array {
  if (!(vector instanceof Float32Array) || vector.length !== embedder.dims) {
    throw new MemError(
      'MODEL_FAILED',
      `embedder ${embedder.name} returned ${vector instanceof Float32Array ? `a ${vector.length}-dimensional vector` : 'no vector'} for text ${i} of a batch, expected ${embedder.dims} dimensions`,
      {
        embedder: embedder.name,
        expected: embedder.dims,
      },
    );
  }
  return vector;
}
