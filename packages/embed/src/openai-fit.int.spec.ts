import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { embeddingsReply, useFakeOpenai, type SeenRequest } from '../test/fake-openai.js';
import { cachedEmbedder } from './cached-embedder.js';
import { loadConfig } from '@mem/core';
import * as fromConfig from './from-env.js';

/** The environment as the entry points see it: through loadConfig, so a bad value is refused there. */
const embedderFromEnv = (env: Record<string, string>) =>
  fromConfig.embedderFromEnv(loadConfig(env));

/*
 * The OpenAI-compatible path against servers that behave like real ones: TEI's batch limit,
 * prefix-trained models (nomic, e5), a flaky or slow server, two servers with one model name.
 */

const serve = useFakeOpenai();
const input = (request: SeenRequest) => request.body['input'] as string[];
const envOf = (url: string, extra: Record<string, string> = {}) => ({
  MEM_EMBED_URL: url,
  MEM_EMBED_MODEL: 'bge-small',
  MEM_EMBED_DIMS: '4',
  ...extra,
});

describe('the OpenAI-compatible embedder, fitted to real servers', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('halves the batch on a 413 (TEI refuses more than 32) and keeps the smaller size', async () => {
    const server = await serve((request) =>
      input(request).length > 32
        ? { status: 413, json: { error: 'batch size 64 > maximum allowed batch size 32' } }
        : embeddingsReply(input(request), 4),
    );
    const embedder = embedderFromEnv(envOf(server.url));
    const texts = Array.from({ length: 100 }, (_, i) => `text ${i}`);
    const vectors = await embedder.embed(texts, 'document');
    expect(vectors).toHaveLength(100);
    expect(server.requests.map((r) => input(r).length)).toEqual([64, 32, 32, 32, 4]);
    expect(server.requests.slice(1).flatMap(input)).toEqual(texts);
  });

  it('sends MEM_EMBED_BATCH texts per request', async () => {
    const server = await serve((request) => embeddingsReply(input(request), 4));
    await embedderFromEnv(envOf(server.url, { MEM_EMBED_BATCH: '16' })).embed(
      Array.from({ length: 40 }, (_, i) => `t${i}`),
      'document',
    );
    expect(server.requests.map((r) => input(r).length)).toEqual([16, 16, 8]);
  });

  it('a 413 at a batch of one is MODEL_FAILED naming the size and MEM_EMBED_TRUNCATE', async () => {
    const server = await serve(() => ({ status: 413, json: { error: 'too large' } }));
    const error = await embedderFromEnv(envOf(server.url, { MEM_EMBED_BATCH: '4' }))
      .embed(['a', 'b', 'c'], 'document')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MODEL_FAILED', details: { status: 413, batch: 1 } });
    expect((error as Error).message).toContain('MEM_EMBED_TRUNCATE');
    expect(server.requests.map((r) => input(r).length)).toEqual([3, 1]);
  });

  it('prefixes queries and documents as nomic and e5 were trained, or as configured', async () => {
    const server = await serve((request) => embeddingsReply(input(request), 4));
    const sent = async (env: Record<string, string>, role: 'query' | 'document') => {
      await embedderFromEnv(envOf(server.url, env)).embed(['kong 502'], role);
      return input(server.requests.at(-1)!)[0];
    };
    expect(await sent({ MEM_EMBED_MODEL: 'nomic-embed-text' }, 'query')).toBe(
      'search_query: kong 502',
    );
    expect(await sent({ MEM_EMBED_MODEL: 'nomic-ai/nomic-embed-text-v1.5' }, 'document')).toBe(
      'search_document: kong 502',
    );
    expect(await sent({ MEM_EMBED_MODEL: 'intfloat/multilingual-e5-large' }, 'query')).toBe(
      'query: kong 502',
    );
    expect(await sent({ MEM_EMBED_MODEL: 'intfloat/e5-base-v2' }, 'document')).toBe(
      'passage: kong 502',
    );
    expect(await sent({}, 'query')).toBe('kong 502');
    expect(
      await sent(
        {
          MEM_EMBED_MODEL: 'nomic-embed-text',
          MEM_EMBED_QUERY_PREFIX: 'Q: ',
          MEM_EMBED_DOCUMENT_PREFIX: '',
        },
        'query',
      ),
    ).toBe('Q: kong 502');
    expect(
      await sent(
        { MEM_EMBED_MODEL: 'nomic-embed-text', MEM_EMBED_DOCUMENT_PREFIX: '' },
        'document',
      ),
    ).toBe('kong 502');
  });

  it('retries a 503 MEM_EMBED_RETRIES times with backoff, then succeeds', async () => {
    const server = await serve((request, n) =>
      n <= 2
        ? { status: 503, json: { error: 'loading model' } }
        : embeddingsReply(input(request), 4),
    );
    expect(
      await embedderFromEnv(envOf(server.url, { MEM_EMBED_RETRIES: '2' })).embed(['a'], 'document'),
    ).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
    const down = await serve(() => ({ status: 503, json: { error: 'down' } }));
    await expect(
      embedderFromEnv(envOf(down.url, { MEM_EMBED_RETRIES: '0' })).embed(['a'], 'document'),
    ).rejects.toMatchObject({ code: 'MODEL_FAILED', details: { status: 503, attempts: 1 } });
  });

  it('a server slower than MEM_EMBED_TIMEOUT_MS is TIMEOUT', async () => {
    const server = await serve((request) => ({
      ...embeddingsReply(input(request), 4),
      delayMs: 2_000,
    }));
    const started = Date.now();
    await expect(
      embedderFromEnv(
        envOf(server.url, { MEM_EMBED_TIMEOUT_MS: '100', MEM_EMBED_RETRIES: '0' }),
      ).embed(['a'], 'query'),
    ).rejects.toMatchObject({ code: 'TIMEOUT', details: { timeoutMs: 100 } });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('sends truncate only when MEM_EMBED_TRUNCATE=true', async () => {
    const server = await serve((request) => embeddingsReply(input(request), 4));
    await embedderFromEnv(envOf(server.url, { MEM_EMBED_TRUNCATE: 'true' })).embed(
      ['a'],
      'document',
    );
    await embedderFromEnv(envOf(server.url)).embed(['a'], 'document');
    expect(server.requests.map((r) => r.body['truncate'])).toEqual([true, undefined]);
  });

  it('refuses bad values with CONFIG_INVALID naming the variable, before any request', () => {
    const bad: Record<string, string>[] = [
      { MEM_EMBED_BATCH: '0' },
      { MEM_EMBED_BATCH: 'lots' },
      { MEM_EMBED_RETRIES: '-1' },
      { MEM_EMBED_RETRIES: '100' },
      { MEM_EMBED_TIMEOUT_MS: '1.5' },
      { MEM_EMBED_TIMEOUT_MS: '0' },
      { MEM_EMBED_TRUNCATE: 'yes' },
    ];
    for (const env of bad) {
      const variable = Object.keys(env)[0]!;
      expect(() => embedderFromEnv(envOf('http://127.0.0.1:1', env)), variable).toThrow(
        expect.objectContaining({
          code: 'CONFIG_INVALID',
          details: expect.objectContaining({ variable }),
        }),
      );
      expect(() => embedderFromEnv(env), `${variable} without a model`).toThrow(
        expect.objectContaining({
          code: 'CONFIG_INVALID',
          details: expect.objectContaining({ variable }),
        }),
      );
    }
  });

  it('keys the cache by endpoint: a second server with the same model name gets its own vectors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mem-embed-endpoints-'));
    dirs.push(dir);
    const a = await serve((request) => embeddingsReply(input(request), 4));
    const b = await serve((request) => ({
      status: 200,
      json: { data: input(request).map((_, index) => ({ index, embedding: [9, 9, 9, 9] })) },
    }));
    const fromA = await cachedEmbedder(embedderFromEnv(envOf(a.url)), dir).embed(
      ['same text'],
      'document',
    );
    const fromB = await cachedEmbedder(embedderFromEnv(envOf(b.url)), dir).embed(
      ['same text'],
      'document',
    );
    expect(Array.from(fromB[0]!)).toEqual([9, 9, 9, 9]);
    expect(Array.from(fromA[0]!)).not.toEqual([9, 9, 9, 9]);
    expect(b.requests).toHaveLength(1);
    // Each endpoint's own entries are still hits.
    await cachedEmbedder(embedderFromEnv(envOf(a.url)), dir).embed(['same text'], 'document');
    expect(a.requests).toHaveLength(1);
  });

  it('caches a query apart from a document of the same text (their prefixes differ)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mem-embed-roles-'));
    dirs.push(dir);
    const server = await serve((request) => embeddingsReply(input(request), 4));
    const cached = cachedEmbedder(
      embedderFromEnv(envOf(server.url, { MEM_EMBED_MODEL: 'nomic-embed-text' })),
      dir,
    );
    const document = await cached.embed(['kong 502'], 'document');
    const query = await cached.embed(['kong 502'], 'query');
    expect(server.requests.map((r) => input(r)[0])).toEqual([
      'search_document: kong 502',
      'search_query: kong 502',
    ]);
    expect(Array.from(query[0]!)).not.toEqual(Array.from(document[0]!));
  });
});
