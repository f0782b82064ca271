import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '@mem/registry';
import { asRoot, headSeq, registryAt, tempDataRoot } from './support.js';

/*
 * Issue 13 §1-2 through the registry (the path every surface shares): relate_items keeps one
 * parent, no cycle, one project and the sole anchor; delete_items cascades down the tree and
 * never strands knowledge; update_item refuses fields that do not apply. Each refusal is typed
 * and leaves the log's head where it was.
 */
let cleanup: () => void;
let registry: Registry;

async function add(project: string, items: Record<string, unknown>[]): Promise<string[]> {
  return ((await asRoot(registry, 'add_items', { project, items })) as { ids: string[] }).ids;
}

async function refusal(
  name: string,
  input: Record<string, unknown>,
): Promise<{ code: string; details: Record<string, unknown> }> {
  const before = await headSeq(registry, 'alpha');
  const error = await asRoot(registry, name, input).then(
    () => null,
    (e: unknown) => e as { code: string; details: Record<string, unknown> },
  );
  expect(error, name).not.toBeNull();
  expect(await headSeq(registry, 'alpha'), `${name} wrote nothing`).toBe(before);
  return error!;
}

beforeAll(async () => {
  let root: string;
  ({ root, cleanup } = tempDataRoot(['alpha', 'beta']));
  registry = await registryAt(root, { runJobs: false });
});
afterAll(async () => {
  await registry?.close();
  cleanup?.();
});

describe('relations, cascades and updates', () => {
  it('relate_items refuses a second parent, a cycle, a parent in another project and a knowledge parent', async () => {
    const [a, b, c, fact] = await add('alpha', [
      { type: 'thread', summary: 'A' },
      { type: 'thread', summary: 'B' },
      { type: 'task', summary: 'C' },
      { type: 'fact', summary: 'F' },
    ]);
    const [other] = await add('beta', [{ type: 'thread', summary: 'Elsewhere' }]);
    await asRoot(registry, 'relate_items', {
      project: 'alpha',
      item: b,
      relation: 'parent',
      target: a,
    });
    await asRoot(registry, 'relate_items', {
      project: 'alpha',
      item: c,
      relation: 'parent',
      target: b,
    });
    expect(
      await refusal('relate_items', { project: 'alpha', item: c, relation: 'parent', target: a }),
    ).toMatchObject({ code: 'CONFLICT', details: { parent: b } });
    expect(
      await refusal('relate_items', { project: 'alpha', item: a, relation: 'parent', target: c }),
    ).toMatchObject({ code: 'CONFLICT', details: { target: c } });
    expect(
      await refusal('relate_items', {
        project: 'alpha',
        item: a,
        relation: 'parent',
        target: other,
      }),
    ).toMatchObject({ code: 'NOT_FOUND', details: { field: 'target' } });
    expect(
      await refusal('relate_items', {
        project: 'alpha',
        item: a,
        relation: 'parent',
        target: fact,
      }),
    ).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'target' } });
    // Relating again writes nothing.
    const before = await headSeq(registry, 'alpha');
    expect(
      await asRoot(registry, 'relate_items', {
        project: 'alpha',
        item: c,
        relation: 'parent',
        target: b,
      }),
    ).toMatchObject({ seq: null });
    expect(await headSeq(registry, 'alpha')).toBe(before);
  });

  it('removing the sole anchor of some knowledge is refused naming it; with a second anchor it is removed', async () => {
    const [t1, t2] = await add('alpha', [
      { type: 'thread', summary: 'T1' },
      { type: 'thread', summary: 'T2' },
    ]);
    const [fact] = await add('alpha', [{ type: 'fact', summary: 'Known on T1', anchors: [t1] }]);
    expect(
      await refusal('relate_items', {
        project: 'alpha',
        item: fact,
        relation: 'anchor',
        target: t1,
        remove: true,
        reason: 'moved',
      }),
    ).toMatchObject({ code: 'CONFLICT', details: { knowledge: [fact] } });
    await asRoot(registry, 'relate_items', {
      project: 'alpha',
      item: fact,
      relation: 'anchor',
      target: t2,
    });
    await asRoot(registry, 'relate_items', {
      project: 'alpha',
      item: fact,
      relation: 'anchor',
      target: t1,
      remove: true,
      reason: 'moved',
    });
    const [read] = (
      (await asRoot(registry, 'read_items', { ids: [fact] })) as { items: { anchors: string[] }[] }
    ).items;
    expect(read!.anchors).toEqual([t2]);
  });

  // Stop-29 walk: a deleted anchor stayed in the knowledge's list and counted as an anchor, so
  // deleting its threads one at a time, or removing the one live anchor beside a deleted one,
  // left a live fact that neither T0 (it is anchored) nor any thread's T1 loads.
  it('a deleted anchor is no anchor: neither removing the last live one nor deleting it strands knowledge', async () => {
    const [t1, t2, t3] = await add('alpha', [
      { type: 'thread', summary: 'Kept anchor' },
      { type: 'thread', summary: 'Deleted anchor' },
      { type: 'thread', summary: 'Second kept anchor' },
    ]);
    const [fact] = await add('alpha', [
      { type: 'fact', summary: 'Known on two threads', anchors: [t1, t2] },
    ]);
    await asRoot(registry, 'delete_items', { project: 'alpha', ids: [t2], reason: 'done with' });
    expect(
      await refusal('relate_items', {
        project: 'alpha',
        item: fact,
        relation: 'anchor',
        target: t1,
        remove: true,
        reason: 'moved',
      }),
    ).toMatchObject({ code: 'CONFLICT', details: { knowledge: [fact], anchor: t1 } });
    expect(
      await refusal('delete_items', { project: 'alpha', ids: [t1], reason: 'gone' }),
    ).toMatchObject({ code: 'CONFLICT', details: { knowledge: [fact] } });
    // With another live anchor both are allowed again.
    await asRoot(registry, 'relate_items', {
      project: 'alpha',
      item: fact,
      relation: 'anchor',
      target: t3,
    });
    await asRoot(registry, 'delete_items', { project: 'alpha', ids: [t1], reason: 'gone' });
    const orient = (await asRoot(registry, 'orient', { project: 'alpha' })) as {
      facts: { items: { id: string }[] };
    };
    expect(orient.facts.items.map((f) => f.id)).not.toContain(fact);
  });

  it('delete_items cascades down the tree, and refuses to strand knowledge anchored only there', async () => {
    const [root] = await add('alpha', [{ type: 'thread', summary: 'Root' }]);
    const [child] = await add('alpha', [{ type: 'task', summary: 'Child', parent: root }]);
    const [fact] = await add('alpha', [
      { type: 'fact', summary: 'About the child', anchors: [child] },
    ]);
    expect(
      await refusal('delete_items', { project: 'alpha', ids: [root], reason: 'gone' }),
    ).toMatchObject({ code: 'CONFLICT', details: { knowledge: [fact] } });
    const deleted = await asRoot(registry, 'delete_items', {
      project: 'alpha',
      ids: [root, fact],
      reason: 'gone',
    });
    expect((deleted as { ids: string[] }).ids.sort()).toEqual([root, child, fact].sort());
    const items = (
      (await asRoot(registry, 'read_items', { ids: [root, child] })) as {
        items: { deleted: boolean }[];
      }
    ).items;
    expect(items.map((i) => i.deleted)).toEqual([true, true]);
    expect(
      await asRoot(registry, 'find_items', { projects: ['alpha'], query: 'child' }),
    ).toMatchObject({ total: 0 });
  });

  it('update_item refuses a field that does not apply, a resolving status and an illegal move', async () => {
    const [rule, task] = await add('alpha', [
      { type: 'rule', summary: 'Always run the linter' },
      { type: 'task', summary: 'Lint' },
    ]);
    expect(
      await refusal('update_item', { project: 'alpha', id: rule, detail: 'more', reason: 'x' }),
    ).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'detail', type: 'rule' } });
    expect(
      await refusal('update_item', {
        project: 'alpha',
        id: task,
        valid_until: '2026-03-01T00:00:00Z',
        reason: 'x',
      }),
    ).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'valid_until' } });
    expect(
      await refusal('update_item', { project: 'alpha', id: task, status: 'done', reason: 'x' }),
    ).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'status' } });
    await asRoot(registry, 'resolve_items', { project: 'alpha', ids: [task], status: 'dropped' });
    expect(
      await refusal('update_item', { project: 'alpha', id: task, status: 'open', reason: 'x' }),
    ).toMatchObject({ code: 'CONFLICT', details: { status: 'dropped' } });
    expect(
      await refusal('resolve_items', { project: 'alpha', ids: [task], status: 'done' }),
    ).toMatchObject({ code: 'CONFLICT' });
    await asRoot(registry, 'update_item', {
      project: 'alpha',
      id: task,
      summary: 'Lint everything',
      reason: 'clearer',
    });
    const [read] = (
      (await asRoot(registry, 'read_items', { ids: [task] })) as {
        items: { summary: string; status: string }[];
      }
    ).items;
    expect(read).toMatchObject({ summary: 'Lint everything', status: 'dropped' });
  });
});
