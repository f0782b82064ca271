import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryPayloads, mint, registryAt, seedIdentity, tempDataRoot } from './support.js';

const BIN = fileURLToPath(new URL('../../packages/cli/bin/mem.js', import.meta.url));

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function text(result: unknown): any {
  return JSON.parse((result as { content: { text: string }[] }).content[0]!.text);
}

describe('`mem mcp` over stdio, driven by the official SDK client', () => {
  it('lists tools, answers a query with citations, and refuses another project', async () => {
    const { root, cleanup } = tempDataRoot(['alpha', 'beta']);
    cleanups.push(cleanup);
    const registry = await registryAt(root, { runJobs: false });
    await seedIdentity(registry, { alice: ['alpha'], bob: ['beta'] });
    const content = memoryPayloads('run-a', 'The volume mount flaked because the probe raced the mount.', 'A startup probe racing the volume mount caused the flaky restarts.');
    await registry.context.engine.append('alpha', content.payloads, { kind: 'test' });
    const token = await mint(registry, { principal: 'alice', label: 'agent-runtime' });
    await registry.close();

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--no-jobs'],
      env: { PATH: process.env['PATH'] ?? '', MEM_ROOT: root, MEM_TOKEN: token.secret },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport);
    cleanups.push(() => client.close());

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['query', 'ingest', 'list_projects', 'manage_tokens']));
    expect(tools.find((t) => t.name === 'query')!.annotations?.readOnlyHint).toBe(true);

    const answer = await client.callTool({ name: 'query', arguments: { query: 'why were the restarts flaky', level: ['L1'] } });
    expect(answer.isError).toBeFalsy();
    expect(text(answer).results[0]).toMatchObject({ project: 'alpha', sha256: content.memory, parents: [{ level: 'L0', sha256: content.evidence }] });

    const refused = await client.callTool({ name: 'query', arguments: { query: 'anything', project: ['beta'] } });
    expect(refused.isError).toBe(true);
    expect(text(refused).error).toEqual({ code: 'FORBIDDEN', message: 'this token does not reach project "beta"', details: { project: 'beta' } });
  });
});
