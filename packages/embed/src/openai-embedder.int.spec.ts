import { describe, expect, it } from 'vitest';
import { isMemError } from '@mem/core';
import {
  embeddingsReply,
  useFakeOpenai,
  type Reply,
  type SeenRequest,
} from '../test/fake-openai.js';
import { loadConfig } from '@mem/core';
import * as fromConfig from './from-env.js';

/** The environment as the entry points see it: through loadConfig, so a bad value is refused there. */
const embedderFromEnv = (env: Record<string, string>) =>
  fromConfig.embedderFromEnv(loadConfig(env));
import { openaiEmbedder } from './openai-embedder.js';

const serve = useFakeOpenai();

const input = (request: SeenRequest) => request.body['input'] as string[];
const fast = { retries: 3, backoffMs: 1, timeoutMs: 5_000 };

describe('openaiEmbedder against an OpenAI-compatible server on loopback', () => {
  it('sends batches of 64 in order and puts each answer back in input order by index', async () => {
    const server = await serve((request) => embeddingsReply(input(request), 4));
    const env = {
      MEM_EMBED_URL: server.url,
      MEM_EMBED_MODEL: 'bge-small-en',
      MEM_EMBED_DIMS: '4',
      MEM_LLM_KEY: 'sk-test',
    };
    const embedder = embedderFromEnv(env);
    expect(embedder.name).toBe('openai:bge-small-en:4');
    const texts = Array.from({ length: 130 }, (_, i) => 'x'.repeat(i + 1));
    const vectors = await embedder.embed(texts, 'document');
    expect(server.requests.map((r) => input(r).length)).toEqual([64, 64, 2]);
    expect(server.requests.map((r) => input(r)[0])).toEqual([texts[0], texts[64], texts[128]]);
    expect(server.requests[0]!.path).toBe('/v1/embeddings');
    expect(server.requests[0]!.body['model']).toBe('bge-small-en');
    expect(server.requests[0]!.headers['apikey']).toBe('sk-test');
    expect(server.requests[0]!.headers['authorization']).toBe('Bearer sk-test');
    // The fake answers each text with (length + d) / 100: order restored, float32 values.
    vectors.forEach((vector, i) =>
      expect(Array.from(vector)).toEqual([0, 1, 2, 3].map((d) => Math.fround((i + 1 + d) / 100))),
    );
  });

  it('sends nothing for no texts', async () => {
    const server = await serve((request) => embeddingsReply(input(request), 4));
    expect(
      await openaiEmbedder({ url: `${server.url}/v1/embeddings`, model: 'm' }, { dims: 4 }).embed(
        [],
        'document',
      ),
    ).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('retries 429 and 500 with backoff, then succeeds', async () => {
    const server = await serve((request, n) =>
      n === 1
        ? { status: 429, json: { error: 'slow down' } }
        : n === 2
          ? { status: 500, json: { error: 'boom' } }
          : embeddingsReply(input(request), 4),
    );
    const embedder = openaiEmbedder(
      { url: `${server.url}/v1/embeddings`, model: 'm', ...fast },
      { dims: 4 },
    );
    expect(await embedder.embed(['a'], 'document')).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after its retries with MODEL_FAILED naming the status', async () => {
    const server = await serve(() => ({ status: 503, json: { error: 'down' } }));
    const embedder = openaiEmbedder(
      { url: `${server.url}/v1/embeddings`, model: 'm', ...fast, retries: 2 },
      { dims: 4 },
    );
    await expect(embedder.embed(['a'], 'document')).rejects.toMatchObject({
      code: 'MODEL_FAILED',
      details: { status: 503, attempts: 3 },
    });
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 400', async () => {
    const server = await serve(() => ({ status: 400, json: { error: 'bad model' } }));
    await expect(
      openaiEmbedder(
        { url: `${server.url}/v1/embeddings`, model: 'm', ...fast },
        { dims: 4 },
      ).embed(['a'], 'document'),
    ).rejects.toMatchObject({ code: 'MODEL_FAILED', details: { status: 400 } });
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a model that answers another dimension with CONFIG_INVALID naming both', async () => {
    const server = await serve((request) => embeddingsReply(input(request), 384));
    const embedder = openaiEmbedder(
      { url: `${server.url}/v1/embeddings`, model: 'all-minilm', ...fast },
      { dims: 768 },
    );
    const error = await embedder.embed(['a'], 'document').catch((e: unknown) => e);
    expect(isMemError(error) && error.code).toBe('CONFIG_INVALID');
    expect(error).toMatchObject({ details: { expected: 768, actual: 384, model: 'all-minilm' } });
    expect((error as Error).message).toMatch(/384.*768|768.*384/);
    expect(server.requests).toHaveLength(1);
  });

  it('refuses malformed answers with MODEL_FAILED', async () => {
    const answers: Reply[] = [
      { status: 200, json: { nope: true } },
      { status: 200, json: { data: [] } },
      { status: 200, json: { data: [{ index: 5, embedding: [1, 2, 3, 4] }] } },
      { status: 200, json: { data: [{ index: 0, embedding: [1, 2, 'x', 4] }] } },
      { status: 200, raw: 'not json' },
    ];
    for (const answer of answers) {
      const server = await serve(() => answer);
      const embedder = openaiEmbedder(
        { url: `${server.url}/v1/embeddings`, model: 'm', ...fast, retries: 0 },
        { dims: 4 },
      );
      await expect(embedder.embed(['a'], 'document')).rejects.toMatchObject({
        code: 'MODEL_FAILED',
      });
    }
  });

  it('refuses a batch size that is not a positive integer', () => {
    expect(() =>
      openaiEmbedder({ url: 'http://127.0.0.1:1/v1/embeddings', model: 'm' }, { batchSize: 0 }),
    ).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });
});
