import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { lockPgliteDir } from '@mem/engine';
import { pgliteHeld } from '../support/pglite-lock.js';
import { memoryPayloads, mint, registryAt, seedIdentity, tempDataRoot } from './support.js';
import { hermeticEnv } from '../support/mem-cli.js';

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
    const content = memoryPayloads(
      'run-a',
      'The volume mount flaked because the probe raced the mount.',
      'A startup probe racing the volume mount caused the flaky restarts.',
    );
    await registry.context.engine.append('alpha', content.payloads, { kind: 'test' });
    const token = await mint(registry, { principal: 'alice', label: 'agent-runtime' });
    await registry.close();

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--no-jobs'],
      env: hermeticEnv({ MEM_ROOT: root, MEM_TOKEN: token.secret }),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport);
    cleanups.push(() => client.close());

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['query', 'ingest', 'list_projects', 'manage_tokens']),
    );
    expect(tools.find((t) => t.name === 'query')!.annotations?.readOnlyHint).toBe(true);

    const answer = await client.callTool({
      name: 'query',
      arguments: { query: 'why were the restarts flaky', level: ['L1'] },
    });
    expect(answer.isError).toBeFalsy();
    expect(text(answer).results[0]).toMatchObject({
      project: 'alpha',
      sha256: content.memory,
      parents: [{ level: 'L0', sha256: content.evidence }],
    });

    const refused = await client.callTool({
      name: 'query',
      arguments: { query: 'anything', project: ['beta'] },
    });
    expect(refused.isError).toBe(true);
    expect(text(refused).error).toEqual({
      code: 'FORBIDDEN',
      message: 'this token does not reach project "beta"',
      details: { project: 'beta' },
    });
  });
});

/** Initializes a raw `mem mcp` and asks its `query` tool at L1: the answer's JSON. */
async function rawQuery(mcp: ReturnType<typeof rawMcp>, query: string): Promise<any> {
  mcp.send(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      },
    }),
  );
  expect(await mcp.next()).toMatchObject({ id: 1, result: { serverInfo: { name: 'mem' } } });
  mcp.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  mcp.send(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'query', arguments: { query, level: ['L1'] } },
    }),
  );
  const answer = await mcp.next();
  expect(answer).toMatchObject({ id: 2, result: {} });
  return JSON.parse(answer.result.content[0].text);
}

/** `mem mcp` as a raw process: lines written to its stdin, JSON lines read from its stdout. */
function rawMcp(root: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, 'mcp', '--no-jobs'], {
    env: hermeticEnv({ MEM_ROOT: root, ...env }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const replies: any[] = [];
  const waiting: (() => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    replies.push(JSON.parse(line));
    for (const wake of waiting.splice(0)) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    stderr: () => stderr,
    exited,
    send: (line: string) => child.stdin.write(`${line}\n`),
    end: () => child.stdin.end(),
    /** The next reply, within 60 s (the first waits for the data root to open). */
    async next(): Promise<any> {
      const deadline = Date.now() + 60_000;
      while (replies.length === 0) {
        if (Date.now() > deadline) throw new Error(`no reply; stderr: ${stderr}`);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return replies.shift();
    },
  };
}

describe('`mem mcp` as a JSON-RPC peer', () => {
  it('answers malformed JSON-RPC with -32700 / -32600 / -32602, never silence or a zod dump; says at start that MEM_TOKEN is missing; exits 0 on EOF and frees pg.lock', async () => {
    const { root, cleanup } = tempDataRoot(['alpha']);
    cleanups.push(cleanup);
    const mcp = rawMcp(root, {});
    cleanups.push(() => void mcp.end());

    mcp.send('{"jsonrpc": "2.0", "id": 1, "method": "tools/list"');
    expect(await mcp.next()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    mcp.send('{"jsonrpc": "2.0", "id": 2, "method": 7}');
    expect(await mcp.next()).toMatchObject({ jsonrpc: '2.0', id: 2, error: { code: -32600 } });
    mcp.send('[]');
    expect(await mcp.next()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    mcp.send('"just a string"');
    expect(await mcp.next()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });

    mcp.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    );
    expect(await mcp.next()).toMatchObject({ id: 3, result: { serverInfo: { name: 'mem' } } });
    mcp.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    for (const [id, params] of [
      [4, { arguments: 1 }],
      [5, { name: 7 }],
    ] as const) {
      mcp.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }));
      const reply = await mcp.next();
      expect(reply).toMatchObject({ id, error: { code: -32602 } });
      expect(reply.error.message).toMatch(/^Invalid params: params\.(name|arguments): /);
      expect(reply.error.message).not.toMatch(/[[{]/);
    }
    mcp.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 6,
        method: 'initialize',
        params: { protocolVersion: 7 },
      }),
    );
    expect(await mcp.next()).toMatchObject({ id: 6, error: { code: -32602 } });

    // Still a working peer: a well-formed call gets the registry's answer (no token: refused).
    mcp.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'list_projects', arguments: {} },
      }),
    );
    const refused = await mcp.next();
    expect(refused).toMatchObject({ id: 7, result: { isError: true } });
    expect(JSON.parse(refused.result.content[0].text).error.code).toBe('UNAUTHENTICATED');

    mcp.end();
    expect(await mcp.exited).toBe(0);
    expect(mcp.stderr()).toMatch(/MEM_TOKEN is not set/);
    expect(pgliteHeld(join(root, '.mem', 'pg'))).toBe(false);
  });

  it('on EOF after a query that opened the embedded Postgres: exits 0 and frees pg.lock', async () => {
    const { root, cleanup } = tempDataRoot(['alpha']);
    cleanups.push(cleanup);
    const registry = await registryAt(root, { runJobs: false });
    await seedIdentity(registry, { alice: ['alpha'] });
    const content = memoryPayloads(
      'run-a',
      'The volume mount flaked because the probe raced the mount.',
      'A startup probe racing the volume mount caused the flaky restarts.',
    );
    await registry.context.engine.append('alpha', content.payloads, { kind: 'test' });
    const token = await mint(registry, { principal: 'alice', label: 'agent-runtime' });
    await registry.close();

    const mcp = rawMcp(root, { MEM_TOKEN: token.secret });
    cleanups.push(() => void mcp.end());
    const answer = await rawQuery(mcp, 'why were the restarts flaky');
    expect(answer.recall.signals).toContain('vector_text');
    // The lock is held while the vector projection is open: the check below would pass vacuously otherwise.
    expect(pgliteHeld(join(root, '.mem', 'pg'))).toBe(true);

    mcp.end();
    expect(await mcp.exited).toBe(0);
    expect(pgliteHeld(join(root, '.mem', 'pg'))).toBe(false);

    // The projection exists now; another process holding it (a running `mem serve`) leaves this
    // one keyword-only, and the answer itself says so: an MCP client never sees the stderr note.
    const release = lockPgliteDir(join(root, '.mem', 'pg'));
    cleanups.push(release);
    const held = rawMcp(root, { MEM_TOKEN: token.secret });
    cleanups.push(() => void held.end());
    const keywordOnly = await rawQuery(held, 'why were the restarts flaky');
    expect(keywordOnly.recall).toMatchObject({ signals: ['keyword'], vector: 'failed' });
    expect(keywordOnly.recall.errors).toEqual([
      expect.objectContaining({ leg: 'vector', code: 'CONFLICT' }),
    ]);
    held.end();
    expect(await held.exited).toBe(0);
  });

  it('says at start why recall is keyword-only while another process holds the embedded Postgres', async () => {
    const { root, cleanup } = tempDataRoot(['alpha']);
    cleanups.push(cleanup);
    const registry = await registryAt(root, { runJobs: false });
    await seedIdentity(registry, { alice: ['alpha'] });
    const token = await mint(registry, { principal: 'alice', label: 'agent-runtime' });
    await registry.close();
    // What a running `mem serve` on the root holds.
    const release = lockPgliteDir(join(root, '.mem', 'pg'));
    cleanups.push(release);

    const mcp = rawMcp(root, { MEM_TOKEN: token.secret });
    mcp.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    expect(await mcp.next()).toMatchObject({ id: 1, result: {} });
    mcp.end();
    expect(await mcp.exited).toBe(0);
    // On this fresh root the holder also kept the catch-up from building the projection: the
    // note names whichever it met (held, or not built); either way the answers are keyword-only.
    expect(mcp.stderr()).toMatch(/^mem mcp: note: .*: keyword recall only$/m);
  });

  it('says at start that MEM_TOKEN is not a valid token', async () => {
    const { root, cleanup } = tempDataRoot(['alpha']);
    cleanups.push(cleanup);
    const mcp = rawMcp(root, { MEM_TOKEN: 'mem_nope_nope' });
    mcp.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    expect(await mcp.next()).toMatchObject({ id: 1, result: {} });
    mcp.end();
    expect(await mcp.exited).toBe(0);
    expect(mcp.stderr()).toMatch(/MEM_TOKEN is not a valid token/);
  });
});
