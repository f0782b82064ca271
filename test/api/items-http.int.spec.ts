import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '@mem/registry';
import type { RunningServer } from '@mem/server';
import { call, headSeq, mint, servedRegistry } from './support.js';

/*
 * Issue 13 §2 over real HTTP on loopback: add_items is all or nothing, completing a container
 * with open descendants is a 409 listing them, rules need may_write_rules, and another
 * project's items are invisible.
 */
let closeServed: () => Promise<void>;
let registry: Registry;
let server: RunningServer;
let alice = '';
let ruler = '';

beforeAll(async () => {
  ({
    registry,
    server,
    close: closeServed,
  } = await servedRegistry(['alpha', 'beta'], { alice: ['alpha'], bob: ['beta'] }));
  alice = (await mint(registry, { principal: 'alice' })).secret;
  ruler = (
    await mint(registry, { principal: 'alice', label: 'ruler', capabilities: ['may_write_rules'] })
  ).secret;
});

afterAll(() => closeServed?.());

describe('items over HTTP', () => {
  it('add_items is atomic: one bad item is a 400 naming its index and field, and nothing is logged', async () => {
    const before = await headSeq(registry, 'alpha');
    const refused = await call(server.url, 'POST', '/memory/items', {
      token: alice,
      body: {
        project: 'alpha',
        items: [
          { type: 'task', summary: 'Fine on its own' },
          { type: 'task', summary: 'Expires?', valid_until: '2026-03-01T00:00:00Z' },
        ],
      },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'items[1].valid_until' },
    });
    expect(await headSeq(registry, 'alpha')).toBe(before);

    const oversized = await call(server.url, 'POST', '/memory/items', {
      token: alice,
      body: {
        project: 'alpha',
        items: Array.from({ length: 101 }, (_, i) => ({ type: 'fact', summary: `fact ${i}` })),
      },
    });
    expect(oversized.status).toBe(400);
    expect(oversized.body.error.details.field).toBe('items');
    expect(await headSeq(registry, 'alpha')).toBe(before);
  });

  it('completing a thread with open children is a 409 listing them; with a disposition it resolves both', async () => {
    const thread = await call(server.url, 'POST', '/memory/items', {
      token: alice,
      body: { project: 'alpha', items: [{ type: 'thread', summary: 'Release 2.0' }] },
    });
    expect(thread.status).toBe(201);
    const [threadId] = thread.body.ids as string[];
    const child = await call(server.url, 'POST', '/memory/remember', {
      token: alice,
      body: { project: 'alpha', type: 'task', text: 'Write the changelog', parent: threadId },
    });
    const [taskId] = child.body.ids as string[];
    const before = await headSeq(registry, 'alpha');
    const conflict = await call(server.url, 'POST', '/memory/items/resolve', {
      token: alice,
      body: { project: 'alpha', ids: [threadId], status: 'done' },
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toMatchObject({
      code: 'CONFLICT',
      details: { open_descendants: [{ id: taskId, type: 'task', status: 'open' }] },
    });
    expect(await headSeq(registry, 'alpha')).toBe(before);
    const done = await call(server.url, 'POST', '/memory/items/resolve', {
      token: alice,
      body: {
        project: 'alpha',
        ids: [threadId],
        status: 'done',
        dispositions: { [taskId!]: 'done' },
      },
    });
    expect(done.status).toBe(200);
    expect(done.body.ids).toEqual([taskId, threadId]);
  });

  it('a rule needs may_write_rules (403, nothing written); a token holding it writes the rule', async () => {
    const rule = {
      project: 'alpha',
      items: [{ type: 'rule', summary: 'Run tests with conda run -n book pytest' }],
    };
    const before = await headSeq(registry, 'alpha');
    const refused = await call(server.url, 'POST', '/memory/items', { token: alice, body: rule });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'CAPABILITY_REQUIRED',
      details: { capability: 'may_write_rules' },
    });
    expect(await headSeq(registry, 'alpha')).toBe(before);
    const written = await call(server.url, 'POST', '/memory/items', { token: ruler, body: rule });
    expect(written.status).toBe(201);
  });

  it('filing a rule under another tier or deleting it needs may_write_rules (403, nothing written); a fact does not', async () => {
    // Seed 000 §3.1: any way to make or unmake a binding directive asks the grant, as folding
    // a rule in review does. Archiving drops a rule from T0; filing it back or deleting it alike.
    const local = registry.local('local:test');
    const added = (await registry.invoke('add_items', local, {
      project: 'alpha',
      items: [
        { type: 'rule', summary: 'Never force-push to the release branch' },
        { type: 'fact', summary: 'The release branch is cut on Thursdays' },
      ],
    })) as { ids: string[] };
    const [rule, fact] = added.ids;
    const admin = (
      await mint(registry, { principal: 'alice', label: 'keeper', capabilities: ['admin'] })
    ).secret;
    const before = await headSeq(registry, 'alpha');
    const refusals = [
      await call(server.url, 'POST', '/memory/items/attention', {
        token: alice,
        body: { project: 'alpha', id: rule, attention: 'archive' },
      }),
      await call(server.url, 'POST', '/memory/items/attention', {
        token: alice,
        body: { project: 'alpha', id: rule, attention: 'reference' },
      }),
      await call(server.url, 'POST', '/memory/items/delete', {
        token: admin,
        body: { project: 'alpha', ids: [rule], reason: 'obsolete' },
      }),
    ];
    for (const refused of refusals) {
      expect(refused.status, JSON.stringify(refused.body)).toBe(403);
      expect(refused.body.error).toMatchObject({
        code: 'CAPABILITY_REQUIRED',
        details: { capability: 'may_write_rules' },
      });
    }
    expect(await headSeq(registry, 'alpha')).toBe(before);
    const factFiled = await call(server.url, 'POST', '/memory/items/attention', {
      token: alice,
      body: { project: 'alpha', id: fact, attention: 'archive' },
    });
    expect(factFiled.status, JSON.stringify(factFiled.body)).toBe(200);
    const ruleFiled = await call(server.url, 'POST', '/memory/items/attention', {
      token: ruler,
      body: { project: 'alpha', id: rule, attention: 'archive' },
    });
    expect(ruleFiled.status, JSON.stringify(ruleFiled.body)).toBe(200);
    expect(ruleFiled.body).toMatchObject({ ids: [rule] });
  });

  it("another project's items are invisible: not found by id, not counted by find", async () => {
    const beta = (await registry.invoke('add_items', registry.local('local:test'), {
      project: 'beta',
      items: [{ type: 'fact', summary: 'Beta keeps its own secrets' }],
    })) as { ids: string[] };
    const read = await call(server.url, 'POST', '/memory/items/read', {
      token: alice,
      body: { ids: beta.ids },
    });
    expect(read.status).toBe(404);
    const found = await call(server.url, 'POST', '/memory/items/find', {
      token: alice,
      body: { query: 'secrets' },
    });
    expect(found.body).toMatchObject({ total: 0, items: [] });
    const named = await call(server.url, 'POST', '/memory/items/find', {
      token: alice,
      body: { projects: ['beta'] },
    });
    expect(named.body).toMatchObject({ total: 0 });
  });

  it('find_items takes project as every item op does: one name, comma-separated or a list', async () => {
    const added = await call(server.url, 'POST', '/memory/items', {
      token: alice,
      body: { project: 'alpha', items: [{ type: 'fact', summary: 'Parity of the project field' }] },
    });
    expect(added.status).toBe(201);
    const [id] = (added.body as { ids: string[] }).ids;
    const ids = async (body: Record<string, unknown>) => {
      const found = await call(server.url, 'POST', '/memory/items/find', {
        token: alice,
        body: { query: 'parity', ...body },
      });
      expect(found.status, JSON.stringify(found.body)).toBe(200);
      return (found.body as { items: { id: string }[] }).items.map((i) => i.id);
    };
    for (const project of ['alpha', 'alpha,beta', ['alpha'], ['alpha', 'beta']])
      expect(await ids({ project })).toEqual([id]);
    expect(await ids({ project: 'beta' })).toEqual([]);
    // The older spelling still answers; naming both is refused, naming the field.
    expect(await ids({ projects: ['alpha'] })).toEqual([id]);
    const both = await call(server.url, 'POST', '/memory/items/find', {
      token: alice,
      body: { project: 'alpha', projects: ['alpha'] },
    });
    expect(both.status).toBe(400);
    expect(both.body.error).toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'projects' },
    });
    const bad = await call(server.url, 'POST', '/memory/items/find', {
      token: alice,
      body: { project: ' , ' },
    });
    // One list rule on every surface (listInput): empty parts are dropped, and no name is left.
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'project' } });
    expect(await ids({ project: 'alpha,' })).toEqual([id]);
  });

  it('find_items names an expired item in freshness_warnings, held back or delivered, and never one of another project', async () => {
    // A deadline long past on any day this runs: the verdict needs no frozen clock here.
    const expired = (await registry.invoke('add_items', registry.local('local:test'), {
      project: 'alpha',
      items: [
        {
          type: 'fact',
          summary: 'The mirror lives at ftp.example.org',
          valid_until: '2001-01-01T00:00:00Z',
        },
      ],
    })) as { ids: string[] };
    await registry.invoke('add_items', registry.local('local:test'), {
      project: 'beta',
      items: [
        {
          type: 'fact',
          summary: 'The beta mirror lives at ftp.example.net',
          valid_until: '2001-01-01T00:00:00Z',
        },
      ],
    });
    const held = await call(server.url, 'POST', '/memory/items/find', {
      token: alice,
      body: { query: 'mirror' },
    });
    expect(held.status).toBe(200);
    expect(held.body).toMatchObject({
      total: 0,
      items: [],
      freshness_warnings: [
        {
          id: expired.ids[0],
          project: 'alpha',
          state: 'expired',
          reason: 'expired',
          delivered: false,
          next_action: 'retire',
        },
      ],
    });
    expect(held.body.freshness_warnings).toHaveLength(1);
    const delivered = await call(server.url, 'POST', '/memory/items/find', {
      token: alice,
      body: { query: 'mirror', include_stale: true },
    });
    expect(delivered.body).toMatchObject({
      total: 1,
      items: [{ id: expired.ids[0] }],
      freshness_warnings: [{ id: expired.ids[0], delivered: true }],
    });
  });
});
