import { MemError } from '@mem/core';

interface Expected {
  url: string;
  model: string;
  count: number;
  dims: number;
}

/**
 * Reads an OpenAI `/v1/embeddings` answer (`{ data: [{ index, embedding }] }`) into one
 * float32 vector per input, ordered by `index` (servers may answer out of order). A wrong shape
 * is MODEL_FAILED; a vector of another dimension than configured is CONFIG_INVALID naming both,
 * because no retry fixes it: the model or MEM_EMBED_DIMS is wrong.
 */
export function parseEmbeddingResponse(body: unknown, expected: Expected): Float32Array[] {
  const fail = (what: string, details: Record<string, unknown> = {}) =>
    new MemError('MODEL_FAILED', `${expected.url}: the embeddings answer ${what}`, {
      url: expected.url,
      model: expected.model,
      ...details,
    });
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw fail('has no "data" array');
  if (data.length !== expected.count)
    throw fail(`holds ${data.length} embeddings for ${expected.count} inputs`, {
      expected: expected.count,
      actual: data.length,
    });
  const out = new Array<Float32Array | undefined>(expected.count);
  data.forEach((item: unknown, position) => {
    const { index, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
    if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= expected.count) {
      throw fail(
        `item ${position} has index ${JSON.stringify(index)}, expected an integer from 0 to ${expected.count - 1}`,
        { position },
      );
    }
    if (out[index as number]) throw fail(`repeats index ${index as number}`, { index });
    if (!Array.isArray(embedding))
      throw fail(`item ${position} has no "embedding" array`, { position });
    if (embedding.length !== expected.dims) {
      throw new MemError(
        'CONFIG_INVALID',
        `${expected.url}: model ${expected.model} answered ${embedding.length}-dimensional embeddings, but ${expected.dims} are configured: set MEM_EMBED_DIMS=${embedding.length} (a different dimension is a rebuild of the pgvector projection) or use a ${expected.dims}-dimensional model`,
        {
          url: expected.url,
          model: expected.model,
          expected: expected.dims,
          actual: embedding.length,
        },
      );
    }
    const vector = new Float32Array(expected.dims);
    for (let i = 0; i < embedding.length; i++) {
      const value: unknown = embedding[i];
      if (typeof value !== 'number' || !Number.isFinite(value))
        throw fail(`item ${position} has a non-finite value at ${i}`, { position, at: i });
      vector[i] = value;
    }
    out[index as number] = vector;
  });
  return out as Float32Array[];
}
