import { describe, expect, it } from 'vitest';
import { useFakeOpenai } from '../test/fake-openai.js';
import { rerankerFromEnv } from './from-env.js';
import { rerankClient } from './rerank-client.js';

const serve = useFakeOpenai();

const documents = ['kong buffered the body', 'postgres volume', 'kubectl flags'];

describe('rerankClient against a /v1/rerank server on loopback', () => {
  it('reads { results: [{ index, relevance_score }] } into scores in document order', async () => {
    const server = await serve(() => ({
      status: 200,
      json: {
        results: [
          { index: 2, relevance_score: 0.1 },
          { index: 0, relevance_score: 0.98 },
          { index: 1, relevance_score: 0.5 },
        ],
      },
    }));
    const reranker = rerankerFromEnv({
      MEM_RERANK_URL: server.url,
      MEM_RERANK_MODEL: 'bge-reranker-base',
      MEM_LLM_KEY: 'k',
    })!;
    expect(reranker.name).toBe('rerank:bge-reranker-base');
    expect(await reranker.rerank('413 too large', documents)).toEqual([0.98, 0.5, 0.1]);
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/rerank');
    expect(request.body).toEqual({
      model: 'bge-reranker-base',
      query: '413 too large',
      documents,
      texts: documents,
    });
    expect(request.headers['authorization']).toBe('Bearer k');
  });

  it('reads a bare TEI list [{ index, score }], and sends no model when none is named', async () => {
    const server = await serve(() => ({
      status: 200,
      json: [
        { index: 1, score: 3.5 },
        { index: 0, score: -2 },
        { index: 2, score: 0 },
      ],
    }));
    const reranker = rerankerFromEnv({ MEM_RERANK_URL: `${server.url}/v1` })!;
    expect(await reranker.rerank('q', documents)).toEqual([-2, 3.5, 0]);
    expect(server.requests[0]!.body).not.toHaveProperty('model');
  });

  it('retries 429 and 500, then succeeds', async () => {
    const server = await serve((_, n) =>
      n < 3
        ? { status: n === 1 ? 429 : 500, json: {} }
        : { status: 200, json: [{ index: 0, score: 1 }] },
    );
    const reranker = rerankClient({
      url: `${server.url}/v1/rerank`,
      model: '',
      retries: 3,
      backoffMs: 1,
    });
    expect(await reranker.rerank('q', ['only'])).toEqual([1]);
    expect(server.requests).toHaveLength(3);
  });

  it('refuses an answer that misses, repeats or invents a document', async () => {
    const bad: unknown[] = [
      { results: [{ index: 0, relevance_score: 1 }] }, // document 1 has no score
      [
        { index: 0, score: 1 },
        { index: 0, score: 2 },
      ], // document 0 twice
      [
        { index: 0, score: 1 },
        { index: 7, score: 1 },
      ], // no document 7
      [
        { index: 0, score: 1 },
        { index: 1, score: 'high' },
      ],
      { data: [] },
    ];
    for (const json of bad) {
      const server = await serve(() => ({ status: 200, json }));
      const reranker = rerankClient({ url: `${server.url}/v1/rerank`, model: 'm', retries: 0 });
      await expect(reranker.rerank('q', ['a', 'b'])).rejects.toMatchObject({
        code: 'MODEL_FAILED',
      });
    }
  });

  it('asks nothing for no documents', async () => {
    const server = await serve(() => ({ status: 500, json: {} }));
    expect(
      await rerankClient({ url: `${server.url}/v1/rerank`, model: 'm' }).rerank('q', []),
    ).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });
});
