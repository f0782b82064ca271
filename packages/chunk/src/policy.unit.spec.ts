import { hasErrorCode } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_POLICY, MIN_MAX_TOKENS, chunkPolicy, type ChunkPolicy } from './policy.js';

function fieldOf(make: () => unknown): string | undefined {
  try {
    make();
  } catch (error) {
    expect(hasErrorCode(error, 'INVALID_INPUT')).toBe(true);
    return (error as { details: { field?: string } }).details.field;
  }
  return undefined;
}

describe('chunkPolicy', () => {
  it('defaults to 5000 tokens, message boundaries, flush when full', () => {
    expect(chunkPolicy()).toEqual({
      maxTokens: 5000,
      splitOn: 'message',
      flush: { kind: 'tokens' },
    });
    expect(DEFAULT_CHUNK_POLICY.maxTokens).toBe(5000);
  });

  it('accepts an idle flush', () => {
    expect(chunkPolicy({ flush: { kind: 'idle', ms: 250 } }).flush).toEqual({
      kind: 'idle',
      ms: 250,
    });
  });

  it('refuses bad fields with INVALID_INPUT naming the field', () => {
    expect(fieldOf(() => chunkPolicy({ maxTokens: MIN_MAX_TOKENS - 1 }))).toBe('maxTokens');
    expect(fieldOf(() => chunkPolicy({ maxTokens: 100.5 }))).toBe('maxTokens');
    expect(fieldOf(() => chunkPolicy({ splitOn: 'line' as ChunkPolicy['splitOn'] }))).toBe(
      'splitOn',
    );
    expect(fieldOf(() => chunkPolicy({ flush: { kind: 'idle', ms: 0 } }))).toBe('flush.ms');
    expect(
      fieldOf(() => chunkPolicy({ flush: { kind: 'never' } as unknown as ChunkPolicy['flush'] })),
    ).toBe('flush.kind');
  });
});
