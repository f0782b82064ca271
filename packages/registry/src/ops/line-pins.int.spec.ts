import { afterEach, describe, expect, it, vi } from 'vitest';
import { contentSha256, hasErrorCode } from '@mem/core';
import { asRoot, memoryPayloads, registryAt, tempDataRoot } from '../../../../test/api/support.js';

/*
 * Issue 13 §5: `unpin_line` resolves its ref in the item store (the line nodes and their pins),
 * as `pin_line` reads the line it pins there, never by folding the project's log. A real data
 * root, engine and store; the log reads are counted.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const KEPT = 'Rollout notes: drain staging hosts before database migrations';
const FORGOTTEN = 'Rollout notes: drain canary pods after budget alerts';

describe('unpin_line', () => {
  it('resolves a prefix, a forgotten line’s text and an unknown ref without reading the log', async () => {
    const { root, cleanup } = tempDataRoot(['demo']);
    const registry = await registryAt(root, { runJobs: false });
    const engine = registry.context.engine;
    cleanups.push(cleanup, () => registry.close());
    await engine.append(
      'demo',
      [
        ...memoryPayloads('run-kept', `Seen: ${KEPT}`, KEPT, 'staging').payloads,
        ...memoryPayloads('run-gone', `Seen: ${FORGOTTEN}`, FORGOTTEN, 'canary').payloads,
      ],
      { kind: 'cli' },
    );
    for (const text of [KEPT, FORGOTTEN])
      await asRoot(registry, 'pin_line', { project: 'demo', ref: text, reason: 'first' });
    await asRoot(registry, 'forget', { project: 'demo', ref: FORGOTTEN, reason: 'wrong' });

    const read = vi.spyOn(engine, 'read');
    const unpin = (ref: string) =>
      asRoot(registry, 'unpin_line', { project: 'demo', ref, reason: 'no longer' });
    expect(await unpin(contentSha256(KEPT).slice(0, 8))).toMatchObject({
      target: contentSha256(KEPT),
      level: 'L1',
      pinned: false,
      seq: expect.any(Number),
    });
    expect(await unpin(contentSha256(KEPT))).toMatchObject({ pinned: false, seq: null });
    // A line forgotten after it was pinned still loses its pin.
    expect(await unpin(FORGOTTEN)).toMatchObject({
      target: contentSha256(FORGOTTEN),
      seq: expect.any(Number),
    });
    const head = (await engine.head('demo')).seq;
    const unknown = await unpin('abcdef123456').catch((e: unknown) => e);
    expect(hasErrorCode(unknown, 'NOT_FOUND')).toBe(true);
    expect((await engine.head('demo')).seq).toBe(head);
    expect(read).not.toHaveBeenCalled();
  }, 60_000);
});
