import { afterEach, describe, expect, it } from 'vitest';
import { asRoot, headSeq, registryAt, tempDataRoot } from '../../../../test/api/support.js';

/*
 * The walk of stop 34: `mem project add-member demo me` on a root whose demo project had a log
 * and items (a project, as the README defines one) said "no project demo". It is there; it is
 * not registered, and a membership needs a registered project.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('member_add on a project that has a log but is not registered', () => {
  it('is NOT_FOUND saying the project is not registered and how to register it, nothing written', async () => {
    const { root, cleanup } = tempDataRoot([]);
    cleanups.push(cleanup);
    const registry = await registryAt(root, { runJobs: false });
    cleanups.push(() => registry.close());
    await asRoot(registry, 'remember', { project: 'alpha', text: 'A thread', type: 'thread' });
    await asRoot(registry, 'principal_add', { name: 'me' });
    const before = await headSeq(registry, '_system');
    const error = (await asRoot(registry, 'member_add', { project: 'alpha', principal: 'me' }).then(
      () => null,
      (e: unknown) => e,
    )) as { code: string; message: string; details: Record<string, unknown> } | null;
    expect(error).toMatchObject({
      code: 'NOT_FOUND',
      details: { field: 'project', project: 'alpha' },
    });
    expect(error!.message).toBe(
      'project alpha is not registered: register it first (mem project add alpha)',
    );
    expect(await headSeq(registry, '_system')).toBe(before);
  });
});
