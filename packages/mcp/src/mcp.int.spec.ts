import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_PROJECT } from '@mem/core';
import { mcpTools, type Registry } from '@mem/registry';
import {
  memoryPayloads,
  mint,
  registryAt,
  seedIdentity,
  tempDataRoot,
} from '../../../test/api/support.js';
import { createMcpServer } from './mcp-server.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function connect(registry: Registry, token: string | undefined): Promise<Client> {
  const server = createMcpServer(registry, { credential: () => token });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  cleanups.push(() => client.close());
  return client;
}

async function setup() {
  const { root, cleanup } = tempDataRoot(['alpha', 'beta']);
  cleanups.push(cleanup);
  const registry = await registryAt(root);
  cleanups.push(() => registry.close());
  await seedIdentity(registry, { alice: ['alpha'], bob: ['beta'] });
  const content = memoryPayloads(
    'run-a',
    'Uploads over 10KB failed: the ingress buffered bodies in 8KB.',
    'Kong body buffer of 8KB broke uploads over 10KB.',
  );
  await registry.context.engine.append('alpha', content.payloads, { kind: 'test' });
  return { registry, content, alice: (await mint(registry, { principal: 'alice' })).secret };
}

function parsed(result: unknown): any {
  return JSON.parse((result as { content: { text: string }[] }).content[0]!.text);
}

describe('MCP surface (in process)', () => {
  it('lists one tool per registry tool group, with derived annotations', async () => {
    const { registry, alice } = await setup();
    const client = await connect(registry, alice);
    const { tools } = await client.listTools();
    const expected = mcpTools(registry.remote);
    expect(tools.map((t) => t.name).sort()).toEqual(expected.map((t) => t.name).sort());
    const manage = tools.find((t) => t.name === 'manage_tokens')!;
    expect(manage.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(
      (manage.inputSchema.properties as Record<string, { enum?: string[] }>)['action']!.enum,
    ).toEqual(['mint', 'list', 'revoke']);
    expect(tools.find((t) => t.name === 'query')!.annotations).toMatchObject({
      readOnlyHint: true,
    });
  });

  it('answers a query with citations, and the same error classes as HTTP', async () => {
    const { registry, content, alice } = await setup();
    const client = await connect(registry, alice);
    const answer = await client.callTool({
      name: 'query',
      arguments: { query: 'why did uploads over 10KB fail' },
    });
    expect(answer.isError).toBeFalsy();
    expect(parsed(answer).results[0]).toMatchObject({
      sha256: content.memory,
      parents: [{ sha256: content.evidence }],
    });
    const forbidden = await client.callTool({
      name: 'project_status',
      arguments: { project: 'beta' },
    });
    expect(forbidden.isError).toBe(true);
    expect(parsed(forbidden)).toEqual({
      error: {
        code: 'FORBIDDEN',
        message: 'this token does not reach project "beta"',
        details: { project: 'beta' },
      },
    });
    const admin = await client.callTool({ name: 'manage_tokens', arguments: { action: 'list' } });
    expect(parsed(admin).error).toMatchObject({
      code: 'CAPABILITY_REQUIRED',
      details: { capability: 'admin' },
    });
    const badAction = await client.callTool({
      name: 'manage_tokens',
      arguments: { action: 'steal' },
    });
    expect(parsed(badAction).error).toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'action' },
    });
    const badField = await client.callTool({
      name: 'query',
      arguments: { query: 'x', limit: 'ten' },
    });
    expect(parsed(badField).error).toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'limit' },
    });
  });

  it('without a token only the probes answer', async () => {
    const { registry } = await setup();
    const client = await connect(registry, undefined);
    expect(parsed(await client.callTool({ name: 'version', arguments: {} }))).toEqual({
      name: 'mem',
      version: '0.0.0-test',
    });
    const refused = await client.callTool({ name: 'list_projects', arguments: {} });
    expect(parsed(refused)).toEqual({
      error: { code: 'UNAUTHENTICATED', message: 'missing or invalid token' },
    });
  });

  it('idempotency_key on a write tool: a retry is not applied twice', async () => {
    const { registry } = await setup();
    const admin = (await mint(registry, { principal: 'alice', capabilities: ['admin'] })).secret;
    const client = await connect(registry, admin);
    const before = (await registry.context.engine.head(SYSTEM_PROJECT)).seq;
    const args = { action: 'mint', principal: 'bob', idempotency_key: 'k1' };
    const first = parsed(await client.callTool({ name: 'manage_tokens', arguments: args }));
    const second = parsed(await client.callTool({ name: 'manage_tokens', arguments: args }));
    expect(second).toEqual(first);
    expect((await registry.context.engine.head(SYSTEM_PROJECT)).seq).toBe(before + 1);
  });
});
