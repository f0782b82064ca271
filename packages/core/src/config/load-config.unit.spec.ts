import { describe, expect, it } from 'vitest';
import { isMemError } from '../errors.js';
import { loadConfig } from './load-config.js';

function refusal(env: Record<string, string>, flags = {}) {
  try {
    loadConfig(env, flags);
  } catch (error) {
    if (isMemError(error)) return error;
    throw error;
  }
  throw new Error('loadConfig accepted it');
}

describe('loadConfig', () => {
  it('types every variable it reads and leaves unset ones (and empty ones) absent', () => {
    const config = loadConfig({
      MEM_EMBED_DIMS: '384',
      MEM_EMBED_TRUNCATE: 'true',
      MEM_RATE_BURST: '0',
      MEM_QUERY_FLOOR_SIMILARITY: '0.5',
      MEM_FUSION_WEIGHTS: 'keyword=2, vector_text=0.5',
      MEM_EMBED_URL: '',
      MEM_DEBUG: '1',
      HOME: '/home/x',
    });
    expect(config).toEqual({
      MEM_EMBED_DIMS: 384,
      MEM_EMBED_TRUNCATE: true,
      MEM_RATE_BURST: 0,
      MEM_QUERY_FLOOR_SIMILARITY: 0.5,
      MEM_FUSION_WEIGHTS: { keyword: 2, vector_text: 0.5 },
      MEM_DEBUG: true,
    });
  });

  it('keeps an empty prefix: it means no prefix', () => {
    expect(loadConfig({ MEM_EMBED_QUERY_PREFIX: '', MEM_EMBED_DOCUMENT_PREFIX: '' })).toEqual({
      MEM_EMBED_QUERY_PREFIX: '',
      MEM_EMBED_DOCUMENT_PREFIX: '',
    });
  });

  it('lets a flag win over its variable', () => {
    expect(
      loadConfig(
        { MEM_ROOT: '/a', MEM_RATE_BURST: '5' },
        { MEM_ROOT: '/b', MEM_RATE_BURST: undefined },
      ),
    ).toEqual({ MEM_ROOT: '/b', MEM_RATE_BURST: 5 });
  });

  it.each([
    ['MEM_EMBED_DIMS', '3000'],
    ['MEM_EMBED_BATCH', 'lots'],
    ['MEM_EMBED_RETRIES', '11'],
    ['MEM_EMBED_TRUNCATE', 'yes'],
    ['MEM_QUERY_FLOOR_COVERAGE', '2'],
    ['MEM_FUSION_WEIGHTS', 'keyword=1,vector=2'],
    ['MEM_RATE_QUERY_PER_HOUR', '-1'],
  ])('refuses %s=%s as CONFIG_INVALID naming the variable and the value', (variable, value) => {
    const error = refusal({ [variable]: value });
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.details).toEqual({ variable, value });
    expect(error.message).toContain(variable);
  });
});
