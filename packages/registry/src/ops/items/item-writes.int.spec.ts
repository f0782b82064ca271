import { afterEach, describe, expect, it, vi } from 'vitest';
import { hasErrorCode, itemId } from '@mem/core';
import {
  asRoot,
  callerFor,
  engineAt,
  mint,
  seedIdentity,
  tempDataRoot,
} from '../../../../../test/api/support.js';
import { testConfig } from '../../../../../test/support/test-config.js';
import { openRegistry } from '../../open.js';
import type { Registry } from '../../registry.js';

/*
 * Issue 13 §6: item writes check against the SQLite projection, caught up to the log head
 * under the project's item-write lock, not a fold of the log; and `mem history it-…` reads the
 * item's history rows. A real data root, real engines and stores, two registries for the race.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function registryOn(root: string) {
  const engine = engineAt(root);
  const registry = await openRegistry({
    engine,
    version: '0.0.0-test',
    config: testConfig(),
    runJobs: false,
  });
  cleanups.push(() => registry.close());
  return { engine, registry };
}

async function setup() {
  const { root, cleanup } = tempDataRoot(['alpha']);
  cleanups.push(cleanup);
  return { root, ...(await registryOn(root)) };
}

async function add(registry: Registry, items: unknown[]): Promise<string[]> {
  return ((await asRoot(registry, 'add_items', { project: 'alpha', items })) as { ids: string[] })
    .ids;
}

const refused = (run: Promise<unknown>) =>
  run.then(
    () => null,
    (e: unknown) => e,
  );

describe('item writes check against the item store', () => {
  it('update, resolve, relate, delete, attention, pin, confirm and history read no event of the log', async () => {
    const { engine, registry } = await setup();
    const [thread, other] = await add(registry, [
      { type: 'thread', summary: 'Theme loader rework' },
      { type: 'thread', summary: 'Release 2.0' },
    ]);
    const [task, sub, fact] = await add(registry, [
      { type: 'task', summary: 'Port the loader to ESM', parent: thread },
      { type: 'fact', summary: 'Themes are cached', anchors: [other] },
    ]).then(async ([t, f]) => [
      t!,
      (await add(registry, [{ type: 'task', summary: 'Drop require()', parent: t }]))[0]!,
      f!,
    ]);
    const read = vi.spyOn(engine, 'read');
    const root = (name: string, input: Record<string, unknown>) =>
      asRoot(registry, name, { project: 'alpha', ...input });

    await root('update_item', { id: task, summary: 'Port the loader to ES modules', reason: 'r' });
    // A cycle, a second parent, a sole anchor, a stranded fact, open descendants: each refused.
    const cycle = await refused(
      root('relate_items', { item: thread, relation: 'parent', target: sub }),
    );
    expect(hasErrorCode(cycle, 'CONFLICT')).toBe(true);
    const second = await refused(
      root('relate_items', { item: task, relation: 'parent', target: other }),
    );
    expect(hasErrorCode(second, 'CONFLICT')).toBe(true);
    const sole = await refused(
      root('relate_items', {
        item: fact,
        relation: 'anchor',
        target: other,
        remove: true,
        reason: 'r',
      }),
    );
    expect(hasErrorCode(sole, 'CONFLICT')).toBe(true);
    const stranded = await refused(root('delete_items', { ids: [other], reason: 'r' }));
    expect((stranded as { details: unknown }).details).toEqual({ knowledge: [fact] });
    const open = await refused(root('resolve_items', { ids: [thread], status: 'done' }));
    expect(
      (open as { details: { open_descendants: { id: string }[] } }).details.open_descendants.map(
        (d) => d.id,
      ),
    ).toEqual([task, sub]);
    expect(
      await root('resolve_items', { ids: [thread], status: 'done', descendants: 'dropped' }),
    ).toMatchObject({ ids: [task, sub, thread] });
    await root('relate_items', { item: other, relation: 'link', target: thread });
    await root('set_attention', { id: task, attention: 'archive' });
    await root('pin_item', { id: fact });
    await root('confirm_item', { id: fact, review_after: '2999-01-01T00:00:00Z' });
    expect(await root('delete_items', { ids: [thread], reason: 'r' })).toMatchObject({
      ids: [thread, task, sub],
    });
    await root('history', { ref: task });
    expect(read).not.toHaveBeenCalled();
  });

  it('history lists every event that changed an item — attention, pins and confirm too — with actor, token label, reason, ts and seq', async () => {
    const { registry } = await setup();
    await seedIdentity(registry, { alice: ['alpha'] });
    const token = await mint(registry, {
      principal: 'alice',
      projects: ['alpha'],
      label: 'laptop',
    });
    const alice = await callerFor(registry, token.secret);
    const as = (name: string, input: Record<string, unknown>) =>
      registry.invoke(name, alice, { project: 'alpha', ...input });
    const [fact] = (
      (await as('add_items', { items: [{ type: 'fact', summary: 'Themes are cached' }] })) as {
        ids: string[];
      }
    ).ids;
    await as('set_attention', { id: fact, attention: 'reference', reason: 'background' });
    await as('pin_item', { id: fact, reason: 'read first' });
    await as('unpin_item', { id: fact });
    await as('confirm_item', { id: fact, review_after: '2999-01-01T00:00:00Z' });
    const history = (await as('history', { ref: fact })) as {
      entries: { seq: number; ts: string; type: string }[];
    };
    expect(history).toMatchObject({ target: fact, target_kind: 'item' });
    expect(history.entries.map(({ seq: _s, ts: _t, ...e }) => e)).toEqual(
      [
        ['item_added', null],
        ['item_attention_set', 'background'],
        ['item_pinned', 'read first'],
        ['item_unpinned', null],
        ['item_updated', 'confirmed still true'],
      ].map(([type, reason]) => ({
        type,
        target: fact,
        actor: 'alice',
        token: 'laptop',
        reason,
        before_sha256: null,
        after_sha256: null,
      })),
    );
    const seqs = history.entries.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    for (const e of history.entries) expect(Date.parse(e.ts)).not.toBeNaN();
  });

  it('two writers on one root never both pass a check the other breaks: one parent, one winner', async () => {
    const { root, registry: first } = await setup();
    const { registry: second } = await registryOn(root);
    const [task, a, b] = await add(first, [
      { type: 'task', summary: 'Port the loader to ESM' },
      { type: 'thread', summary: 'Theme loader rework' },
      { type: 'thread', summary: 'Release 2.0' },
    ]);
    const relate = (registry: Registry, target: string) =>
      refused(
        asRoot(registry, 'relate_items', {
          project: 'alpha',
          item: task,
          relation: 'parent',
          target,
        }),
      );
    const outcomes = await Promise.all([relate(first, a!), relate(second, b!)]);
    expect(outcomes.filter((e) => e === null)).toHaveLength(1);
    expect(outcomes.filter((e) => hasErrorCode(e, 'CONFLICT'))).toHaveLength(1);
    const events = [];
    for await (const { event } of engineAt(root).read('alpha'))
      if (event.type === 'item_related') events.push(event);
    expect(events).toHaveLength(1);
  });

  it('an add racing a delete of its parent never leaves a live child under a deleted parent', async () => {
    const { root, engine, registry: first } = await setup();
    const { registry: second } = await registryOn(root);
    const [thread] = await add(first, [{ type: 'thread', summary: 'Theme loader rework' }]);
    // The add has checked its parent and is about to append when the delete runs: it holds off
    // until the delete is done (or 500 ms, if the delete must wait for it).
    const race: { deleting?: Promise<unknown> } = {};
    const append = engine.append.bind(engine);
    vi.spyOn(engine, 'append').mockImplementation(async (...args) => {
      if (race.deleting)
        await Promise.race([race.deleting, new Promise((r) => setTimeout(r, 500))]);
      return append(...args);
    });
    const adding = refused(
      asRoot(first, 'add_items', {
        project: 'alpha',
        items: [{ type: 'task', summary: 'Port the loader to ESM', parent: thread }],
      }),
    );
    await new Promise((r) => setTimeout(r, 50));
    race.deleting = refused(
      asRoot(second, 'delete_items', { project: 'alpha', ids: [thread], reason: 'r' }),
    );
    const [added, deleted] = await Promise.all([adding, race.deleting]);
    expect(deleted).toBeNull();
    const children: string[] = [];
    const gone = new Set<string>();
    for await (const { event } of engineAt(root).read('alpha')) {
      if (event.type === 'item_added' && event.parent === thread)
        children.push(itemId('alpha', event.seq));
      if (event.type === 'item_deleted') gone.add(event.item);
    }
    // Either the add came first and the delete cascaded to its child, or the add was refused.
    if (added === null) expect(children).toHaveLength(1);
    for (const child of children) expect(gone.has(child)).toBe(true);
  });
});
