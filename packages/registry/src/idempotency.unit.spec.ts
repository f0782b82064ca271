import { describe, expect, it } from 'vitest';
import { hasErrorCode } from '@mem/core';
import { IdempotencyStore } from './idempotency.js';

describe('IdempotencyStore', () => {
  it('runs a write once per key; a retry gets the recorded outcome', async () => {
    const store = new IdempotencyStore();
    let runs = 0;
    const write = async () => ({ n: ++runs });
    expect(await store.run('tok', 'k1', { a: 1 }, write)).toEqual({ n: 1 });
    expect(await store.run('tok', 'k1', { a: 1 }, write)).toEqual({ n: 1 });
    expect(await store.run('other-token', 'k1', { a: 1 }, write)).toEqual({ n: 2 });
    expect(runs).toBe(2);
  });

  it('a retry while the first is in flight is a conflict, and so is the key with another request', async () => {
    const store = new IdempotencyStore();
    let release!: () => void;
    const first = store.run(
      'tok',
      'k',
      { a: 1 },
      () => new Promise<string>((r) => (release = () => r('done'))),
    );
    await expect(store.run('tok', 'k', { a: 1 }, async () => 'again')).rejects.toSatisfy(
      (e: unknown) => hasErrorCode(e, 'CONFLICT'),
    );
    release();
    expect(await first).toBe('done');
    await expect(store.run('tok', 'k', { a: 2 }, async () => 'other')).rejects.toSatisfy(
      (e: unknown) => hasErrorCode(e, 'CONFLICT'),
    );
  });

  it('does not record a failure: a failed write changed nothing, so it may be retried', async () => {
    const store = new IdempotencyStore();
    await expect(
      store.run('tok', 'k', {}, async () => Promise.reject(new Error('boom'))),
    ).rejects.toThrow('boom');
    expect(await store.run('tok', 'k', {}, async () => 'ok')).toBe('ok');
  });

  it('forgets outcomes after a day', async () => {
    let now = 0;
    const store = new IdempotencyStore(() => now);
    let runs = 0;
    await store.run('tok', 'k', {}, async () => ++runs);
    now = 25 * 60 * 60 * 1000;
    await store.run('tok', 'other', {}, async () => 0);
    expect(await store.run('tok', 'k', {}, async () => ++runs)).toBe(2);
  });
});
