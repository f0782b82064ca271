import { MemError } from '@mem/core';

/**
 * When a partly filled chunk is emitted. `tokens`: only when the next record would not fit,
 * and at the end of the stream. `idle`: also when the source has yielded nothing for `ms`
 * (live tails have no end of stream).
 */
export type FlushTrigger = { kind: 'tokens' } | { kind: 'idle'; ms: number };

/** How records are packed into chunks. */
export interface ChunkPolicy {
  /** Hard ceiling on a chunk's tokens, counting the rendered text with its role headers. */
  maxTokens: number;
  /** Chunk boundaries fall between messages; a message is split only when it alone exceeds the budget. */
  splitOn: 'message';
  flush: FlushTrigger;
}

/** The paper's default: 5000 tokens, message boundaries, flush when full. */
export const DEFAULT_CHUNK_POLICY: Readonly<ChunkPolicy> = Object.freeze({
  maxTokens: 5000,
  splitOn: 'message',
  flush: Object.freeze({ kind: 'tokens' }),
});

/**
 * Smallest budget accepted: a role header, the blank line after it and one code point
 * (up to 4 byte tokens) must fit, or a long line could not be split at all.
 */
export const MIN_MAX_TOKENS = 32;

/** A validated policy: the defaults with `overrides` applied. */
export function chunkPolicy(overrides: Partial<ChunkPolicy> = {}): ChunkPolicy {
  const policy: ChunkPolicy = { ...DEFAULT_CHUNK_POLICY, ...overrides };
  assertChunkPolicy(policy);
  return policy;
}

/** Throws INVALID_INPUT, naming the field, unless `policy` is a usable ChunkPolicy. */
export function assertChunkPolicy(policy: ChunkPolicy): void {
  const { maxTokens, splitOn, flush } = policy;
  if (!Number.isSafeInteger(maxTokens) || maxTokens < MIN_MAX_TOKENS) {
    throw new MemError(
      'INVALID_INPUT',
      `chunk policy maxTokens must be an integer >= ${MIN_MAX_TOKENS}, got ${String(maxTokens)}`,
      {
        field: 'maxTokens',
        value: maxTokens,
      },
    );
  }
  if (splitOn !== 'message') {
    throw new MemError(
      'INVALID_INPUT',
      `chunk policy splitOn must be "message", got ${String(splitOn)}`,
      { field: 'splitOn', value: splitOn },
    );
  }
  const kind = (flush as { kind?: unknown } | undefined)?.kind;
  if (kind === 'tokens') return;
  if (kind === 'idle') {
    const ms = (flush as { ms?: unknown }).ms;
    if (typeof ms === 'number' && Number.isFinite(ms) && ms > 0) return;
    throw new MemError(
      'INVALID_INPUT',
      `chunk policy flush.ms must be a positive number of milliseconds, got ${String(ms)}`,
      {
        field: 'flush.ms',
        value: ms,
      },
    );
  }
  throw new MemError(
    'INVALID_INPUT',
    `chunk policy flush.kind must be "tokens" or "idle", got ${String(kind)}`,
    {
      field: 'flush.kind',
      value: kind,
    },
  );
}
