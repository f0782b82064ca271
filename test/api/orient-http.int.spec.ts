import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRegistry, type Registry } from '@mem/registry';
import { loadConfig } from '@mem/core';
import type { RunningServer } from '@mem/server';
import {
  call,
  engineAt,
  headSeq,
  mint,
  seedIdentity,
  serveUnlimited,
  tempDataRoot,
} from './support.js';

/*
 * Issue 13 §3 over real HTTP on loopback: GET /memory/orientation is T0 under the configured
 * budget, an always-loaded write over the cap is a 409 with the cap and candidates that writes
 * nothing, and GET /memory/items/{id}/context is T1.
 */
let cleanup: () => void;
let registry: Registry;
let server: RunningServer;
let alice = '';

const add = (items: unknown[]) =>
  call(server.url, 'POST', '/memory/items', { token: alice, body: { project: 'alpha', items } });

beforeAll(async () => {
  let root: string;
  ({ root, cleanup } = tempDataRoot(['alpha', 'beta']));
  const template = process.env['MEM_TEST_PGLITE_TEMPLATE'];
  registry = await openRegistry({
    engine: engineAt(root),
    version: '0.0.0-test',
    config: loadConfig({
      MEM_ORIENT_BUDGET: 'rules=256,facts=300',
      ...(template ? { MEM_TEST_PGLITE_TEMPLATE: template } : {}),
    }),
    runJobs: false,
  });
  await seedIdentity(registry, { alice: ['alpha'], bob: ['beta'] });
  alice = (await mint(registry, { principal: 'alice', capabilities: ['may_write_rules'] })).secret;
  server = await serveUnlimited(registry);
});

afterAll(async () => {
  await server?.close();
  await registry?.close();
  cleanup?.();
});

describe('orientation over HTTP', () => {
  it('an unanchored fact over the cap is a 409 naming the cap, size, count and candidates; nothing is written', async () => {
    const first = await add([
      { type: 'fact', summary: 'Fact one: themes are cached' },
      { type: 'fact', summary: 'Fact two: CI runs on Node 20' },
      { type: 'fact', summary: 'Fact three: the vault is rebuilt from the log' },
    ]);
    expect(first.status).toBe(201);
    const [oldest] = (first.body as { ids: string[] }).ids;
    const before = await headSeq(registry, 'alpha');
    const refused = await add([{ type: 'fact', summary: 'Fact four: one too many for the cap' }]);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'BUDGET_EXCEEDED',
      details: {
        section: 'facts',
        project: 'alpha',
        cap: 300,
        count: 3,
        suggestion: 'anchor',
        candidates: [{ id: oldest }, {}, {}],
      },
    });
    expect(
      (refused.body.error as { details: { bytes: number } }).details.bytes,
    ).toBeLessThanOrEqual(300);
    expect(await headSeq(registry, 'alpha')).toBe(before);
  });

  it('GET /memory/orientation answers T0 within its caps; GET /memory/items/{id}/context answers T1', async () => {
    const thread = await add([{ type: 'thread', summary: 'Theme loader rework' }]);
    const [threadId] = (thread.body as { ids: string[] }).ids;
    expect(
      (
        await add([
          { type: 'rule', summary: 'Never edit generated themes', anchors: [threadId] },
          { type: 'task', summary: 'Port to ESM', parent: threadId },
        ])
      ).status,
    ).toBe(201);
    const t0 = await call(
      server.url,
      'GET',
      `/memory/orientation?project=alpha&now=2026-03-01T00:00:00Z`,
      {
        token: alice,
      },
    );
    expect(t0.status).toBe(200);
    const body = t0.body as Record<string, { items: unknown[]; bytes: number; cap: number }>;
    expect(body['facts']!.items).toHaveLength(3);
    expect(body['facts']!.cap).toBe(300);
    expect(body['rules']!.items).toHaveLength(0);
    expect(body['threads']!.items).toMatchObject([{ id: threadId, open_count: 1 }]);

    const t1 = await call(server.url, 'GET', `/memory/items/${threadId}/context?limit=5`, {
      token: alice,
    });
    expect(t1.status).toBe(200);
    expect(t1.body).toMatchObject({
      item: { id: threadId },
      children: { total: 1, omitted: 0 },
      rules: [{ type: 'rule', summary: 'Never edit generated themes' }],
    });
  });
});
