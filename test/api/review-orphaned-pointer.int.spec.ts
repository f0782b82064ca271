import { afterEach, describe, expect, it } from 'vitest';
import type { Registry } from '@mem/registry';
import { asRoot, registryAt, tempDataRoot } from './support.js';

/*
 * Stop 32 (board "Cited sources"/"Items"): an orphaned fact (every anchor deleted) is an
 * `orphaned_knowledge` review finding, but it is loaded by no orient and no open, and orient
 * pointed at no finding at all. orient now names each read project's open findings by kind
 * with the command that lists them, and `mem review list` counts them by kind.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type Pointer = {
  project: string;
  open: number;
  kinds: { kind: string; open: number }[];
  next: string;
};
type Review = { items: Pointer[]; total: number; omitted: number };

async function orphanIn(registry: Registry, project: string, facts: number): Promise<void> {
  await asRoot(registry, 'project_add', { name: project });
  const add = async (items: unknown[]) =>
    ((await asRoot(registry, 'add_items', { project, items })) as { ids: string[] }).ids;
  const [thread] = await add([{ type: 'thread', summary: 'A thread' }]);
  await add(
    Array.from({ length: facts }, (_, i) => ({
      type: 'fact',
      summary: `Orphan ${i}`,
      anchors: [thread],
    })),
  );
  // As a store from before stop 30 holds it: delete_items refuses the last live anchor now.
  await registry.context.engine.append(
    project,
    [{ type: 'item_deleted', item: thread!, reason: 'closed' }],
    { kind: 'cli' },
  );
}

describe('orphaned knowledge is pointed at', () => {
  it('orient names the open findings of each project by kind with the command; review list counts them', async () => {
    const { root, cleanup } = tempDataRoot();
    cleanups.push(cleanup);
    const registry = await registryAt(root, { runJobs: false });
    cleanups.push(() => registry.close());
    await orphanIn(registry, 'alpha', 2);
    await orphanIn(registry, 'beta', 1);
    await asRoot(registry, 'project_add', { name: 'gamma' });

    const before = (await asRoot(registry, 'orient', {})) as { review: { items: Pointer[] } };
    expect(before.review).toMatchObject({ items: [], total: 0, omitted: 0 });

    for (const project of ['alpha', 'beta']) await asRoot(registry, 'review_scan', { project });
    const orient = (await asRoot(registry, 'orient', {})) as { review: Review };
    expect(orient.review.total).toBe(2);
    expect(orient.review.items).toEqual([
      {
        project: 'alpha',
        open: 2,
        kinds: [{ kind: 'orphaned_knowledge', open: 2 }],
        next: 'mem review list --project alpha',
      },
      {
        project: 'beta',
        open: 1,
        kinds: [{ kind: 'orphaned_knowledge', open: 1 }],
        next: 'mem review list --project beta',
      },
    ]);
    const one = (await asRoot(registry, 'orient', { project: 'beta' })) as { review: Review };
    expect(one.review.items.map((r) => r.project)).toEqual(['beta']);

    const listed = (await asRoot(registry, 'review_list', { project: 'alpha' })) as {
      findings: { id: string; kind: string }[];
      kinds: { kind: string; open: number }[];
    };
    expect(listed.kinds).toEqual([{ kind: 'orphaned_knowledge', open: 2 }]);
    expect(listed.findings.map((f) => f.kind)).toEqual([
      'orphaned_knowledge',
      'orphaned_knowledge',
    ]);

    // A decided finding leaves the pointer and the count.
    await asRoot(registry, 'review_dismiss', {
      project: 'alpha',
      id: listed.findings[0]!.id,
      reason: 'kept on purpose',
    });
    const after = (await asRoot(registry, 'orient', { project: 'alpha' })) as { review: Review };
    expect(after.review.items).toEqual([
      expect.objectContaining({
        project: 'alpha',
        open: 1,
        kinds: [{ kind: 'orphaned_knowledge', open: 1 }],
      }),
    ]);
    const relisted = (await asRoot(registry, 'review_list', { project: 'alpha' })) as {
      kinds: { kind: string; open: number }[];
    };
    expect(relisted.kinds).toEqual([{ kind: 'orphaned_knowledge', open: 1 }]);
  });
});
