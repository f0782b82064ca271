import { describe, expect, it } from 'vitest';
import { loadConfig } from '@mem/core';
import * as fromConfig from './from-env.js';

/** The environment as the entry points see it: through loadConfig, so a bad value is refused there. */
const embedEndpointFromEnv = (env: Record<string, string>) =>
  fromConfig.embedEndpointFromEnv(loadConfig(env));
const embedderFromEnv = (env: Record<string, string>) =>
  fromConfig.embedderFromEnv(loadConfig(env));
const rerankerFromEnv = (env: Record<string, string>) =>
  fromConfig.rerankerFromEnv(loadConfig(env));

describe('configuration from the environment', () => {
  it('embeds with hash-768 when MEM_EMBED_URL is unset', () => {
    expect(embedderFromEnv({}).name).toBe('hash-768');
    expect(embedderFromEnv({ MEM_EMBED_DIMS: '384' }).name).toBe('hash-384');
  });

  it('builds the openai endpoint from a base URL, with MEM_EMBED_KEY before MEM_LLM_KEY', () => {
    expect(
      embedEndpointFromEnv({
        MEM_EMBED_URL: 'http://gpu:11434',
        MEM_EMBED_MODEL: 'nomic-embed-text',
        MEM_EMBED_KEY: 'e',
        MEM_LLM_KEY: 'l',
      }),
    ).toEqual({
      url: 'http://gpu:11434/v1/embeddings',
      model: 'nomic-embed-text',
      key: 'e',
    });
    expect(
      embedEndpointFromEnv({
        MEM_EMBED_URL: 'http://gpu/v1',
        MEM_EMBED_MODEL: 'm',
        MEM_LLM_KEY: 'l',
      }),
    ).toEqual({ url: 'http://gpu/v1/embeddings', model: 'm', key: 'l' });
    expect(
      embedderFromEnv({ MEM_EMBED_URL: 'http://gpu', MEM_EMBED_MODEL: 'bge-base-en' }),
    ).toMatchObject({ name: 'openai:bge-base-en:768', dims: 768 });
  });

  it('names the prefixes: a projection built with other prefixes is rebuilt, never mixed', () => {
    const nomic = { MEM_EMBED_URL: 'http://gpu', MEM_EMBED_MODEL: 'nomic-embed-text' };
    const name = embedderFromEnv(nomic).name;
    expect(name).toMatch(/^openai:nomic-embed-text:768:p[0-9a-f]{8}$/);
    expect(embedderFromEnv({ ...nomic, MEM_EMBED_DOCUMENT_PREFIX: 'doc: ' }).name).not.toBe(name);
    expect(
      embedderFromEnv({ ...nomic, MEM_EMBED_QUERY_PREFIX: '', MEM_EMBED_DOCUMENT_PREFIX: '' }).name,
    ).toBe('openai:nomic-embed-text:768');
  });

  it('refuses half a configuration with CONFIG_INVALID naming the variable', () => {
    expect(() => embedderFromEnv({ MEM_EMBED_URL: 'http://gpu' })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', details: { variable: 'MEM_EMBED_MODEL' } }),
    );
    expect(() => embedderFromEnv({ MEM_EMBED_URL: 'ftp://gpu', MEM_EMBED_MODEL: 'm' })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
    for (const dims of ['0', 'abc', '1e3', '-5', '3000']) {
      expect(() => embedderFromEnv({ MEM_EMBED_DIMS: dims })).toThrow(
        expect.objectContaining({ code: 'CONFIG_INVALID' }),
      );
    }
  });

  it('has no reranker unless MEM_RERANK_URL is set', () => {
    expect(rerankerFromEnv({})).toBeNull();
    expect(rerankerFromEnv({ MEM_RERANK_URL: 'http://tei:8080' })?.name).toBe('rerank:default');
  });
});
