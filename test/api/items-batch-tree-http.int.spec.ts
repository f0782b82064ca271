import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '@mem/registry';
import type { RunningServer } from '@mem/server';
import { call, headSeq, mint, servedRegistry } from './support.js';

/*
 * Issue 13 §1 over real HTTP: POST /memory/items takes a parent and its children in one batch
 * (`ref`, `parent_ref`, `anchor_refs`); a bad ref is a 400 naming index and field, the head seq
 * unchanged.
 */
let closeServed: () => Promise<void>;
let registry: Registry;
let server: RunningServer;
let alice = '';

const add = (items: Record<string, unknown>[]) =>
  call(server.url, 'POST', '/memory/items', { token: alice, body: { project: 'alpha', items } });

beforeAll(async () => {
  ({
    registry,
    server,
    close: closeServed,
  } = await servedRegistry(['alpha'], { alice: ['alpha'] }));
  alice = (await mint(registry, { principal: 'alice' })).secret;
});

afterAll(() => closeServed?.());

describe('a tree in one add_items batch over HTTP', () => {
  it('201 with the ids in order; the children hang under the parent written beside them', async () => {
    expect((await add([{ type: 'task', summary: 'Before' }])).status).toBe(201);
    const head = await headSeq(registry, 'alpha');
    const added = await add([
      { type: 'thread', summary: 'Upload failures', ref: 'uploads' },
      { type: 'task', summary: 'Reproduce the 413', parent_ref: 'uploads' },
      { type: 'fact', summary: 'Kong buffers 8 KB', anchor_refs: ['uploads'] },
    ]);
    expect(added.status).toBe(201);
    expect(added.body.seq).toBe(head + 3);
    const [thread, task, fact] = added.body.ids as string[];
    const read = await call(server.url, 'POST', '/memory/items/read', {
      token: alice,
      body: { ids: [task, fact] },
    });
    expect(read.body.items).toMatchObject([
      { id: task, parent: thread },
      { id: fact, anchors: [thread] },
    ]);
  });

  it('400 naming index and field for a later ref and a wrong type, nothing written', async () => {
    for (const [items, field] of [
      [
        [
          { type: 'task', summary: 'Child', parent_ref: 'p' },
          { type: 'thread', summary: 'Parent', ref: 'p' },
        ],
        'items[0].parent_ref',
      ],
      [
        [
          { type: 'fact', summary: 'Not work', ref: 'r' },
          { type: 'fact', summary: 'Anchored to a fact', anchor_refs: ['r'] },
        ],
        'items[1].anchor_refs[0]',
      ],
    ] as const) {
      const head = await headSeq(registry, 'alpha');
      const refused = await add(items as unknown as Record<string, unknown>[]);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'INVALID_INPUT', details: { field } });
      expect(await headSeq(registry, 'alpha')).toBe(head);
    }
  });
});
