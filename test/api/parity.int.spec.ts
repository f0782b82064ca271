import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '@mem/cli';
import { createMcpServer } from '@mem/mcp';
import { outputDrift, type AnyOperation, type Registry } from '@mem/registry';
import { startServer, type RunningServer } from '@mem/server';
import { asRoot, call, memoryPayloads, mint, registryAt, seedIdentity, tempDataRoot } from './support.js';

/*
 * Parity (seed 000 §6): every registry operation is reachable over HTTP and MCP, and over the
 * CLI where it declares a command, with the same authorization outcome and the same error
 * class. The walk is over the registry itself: an operation added without a probe here fails.
 */

type Who = 'anonymous' | 'member' | 'admin';
type Surface = 'http' | 'mcp';

let root: string;
let cleanup: () => void;
let registry: Registry;
let server: RunningServer;
const clients = new Map<Who, Client>();
const tokens: Record<string, string> = {};
let jobId = '';
let revocable = '';

/** A valid input per operation, distinct per surface and caller where a write must not collide. */
const PROBES: Record<string, (surface: Surface | 'cli', who: Who) => Record<string, unknown>> = {
  health: () => ({}),
  version: () => ({}),
  query: () => ({ query: 'why did uploads fail' }),
  ingest_submit: (s, who) => ({ project: 'alpha', source: `agent:${s}-${who}`, records: [{ role: 'user', text: `hello from ${s} ${who}` }] }),
  ingest_status: () => ({ job_id: jobId }),
  project_list: () => ({}),
  project_status: () => ({ project: 'alpha' }),
  project_notes: () => ({ project: 'alpha' }),
  skill_list: () => ({}),
  skill_get: () => ({ name: 'kong-body' }),
  projection_status: () => ({}),
  verify: () => ({ project: 'alpha' }),
  principal_add: (s, who) => ({ name: `p-${s}-${who}` }),
  principal_list: () => ({}),
  project_add: (s, who) => ({ name: `q-${s}-${who}` }),
  member_add: () => ({ project: 'alpha', principal: 'bob' }),
  member_remove: () => ({ project: 'beta', principal: 'carol' }),
  token_mint: () => ({ principal: 'bob' }),
  token_list: () => ({}),
  token_revoke: () => ({ id: revocable }),
  forget: (s, who) => ({ project: 'alpha', ref: FORGET_LINES[`${s}-${who}`] ?? FORGET_LINES['http-member']!, reason: `parity ${s} ${who}` }),
  supersede: (s, who) => ({ project: 'alpha', ref: 'Uploads failed because of the 8KB body buffer.', by: `Uploads now pass with a 16KB buffer, said ${s} ${who}.`, reason: 'raised' }),
  confirm: () => ({ project: 'alpha', ref: 'Uploads failed because of the 8KB body buffer.', note: 'still true' }),
  history: () => ({ project: 'alpha', ref: 'Uploads failed because of the 8KB body buffer.' }),
};

/** One line per caller that forgets (a line is forgotten once; a second time is CONFLICT), sharing no content word. */
const FORGET_LINES: Record<string, string> = {
  'http-member': 'Amber lighthouses guard northern harbors.',
  'mcp-member': 'Cobalt turbines power eastern mills.',
  'http-admin': 'Crimson kites circle western dunes.',
  'mcp-admin': 'Silver trains cross southern bridges.',
  'cli-admin': 'Violet orchids bloom inside greenhouses.',
};

function httpRequest(op: AnyOperation, input: Record<string, unknown>): { path: string; body?: unknown } {
  const rest = { ...input };
  const path = op.http.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = String(rest[name]);
    delete rest[name];
    return encodeURIComponent(value);
  });
  if (op.http.method === 'POST') return { path, body: rest };
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(rest)) query.set(key, Array.isArray(value) ? value.join(',') : String(value));
  const qs = query.toString();
  return { path: qs ? `${path}?${qs}` : path };
}

async function overHttp(op: AnyOperation, who: Who, input: Record<string, unknown>): Promise<string> {
  const request = httpRequest(op, input);
  const answer = await call(server.url, op.http.method, request.path, { ...(who !== 'anonymous' ? { token: tokens[who]! } : {}), ...(request.body !== undefined ? { body: request.body } : {}) });
  // The answer is what the declared output schema says, no more: the OpenAPI document cannot drift.
  if (answer.status < 300 && answer.status !== 204) expect(outputDrift(op, answer.body), `${op.name} over HTTP`).toBeNull();
  return answer.status < 300 ? 'ok' : answer.body.error.code;
}

async function overMcp(op: AnyOperation, who: Who, input: Record<string, unknown>): Promise<string> {
  const args = { ...input, ...(op.mcp.select ? { [op.mcp.select.field]: op.mcp.select.value } : {}) };
  const result = (await clients.get(who)!.callTool({ name: op.mcp.tool, arguments: args })) as { isError?: boolean; content: { text: string }[] };
  if (!result.isError) expect(outputDrift(op, JSON.parse(result.content[0]!.text)), `${op.name} over MCP`).toBeNull();
  return result.isError ? JSON.parse(result.content[0]!.text).error.code : 'ok';
}

async function overCli(op: AnyOperation, input: Record<string, unknown>): Promise<{ code: number; outcome: string; stdout: string }> {
  const cli = op.cli!;
  const argv = ['--root', root, ...cli.command, ...(cli.args ?? []).map((field) => String(input[field]))];
  for (const option of cli.options ?? []) {
    const value = input[option.field];
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- an op input field is a string, number or boolean
    if (value !== undefined) argv.push(option.flag.split(' ')[0]!, Array.isArray(value) ? value.join(',') : String(value));
  }
  argv.push('--json');
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const code = await main(['node', 'mem', ...argv], { stdin: new PassThrough(), stdout, stderr, env: {}, cwd: root });
  if (code === 0 && !cli.json) expect(outputDrift(op, JSON.parse(out)), `${op.name} over the CLI`).toBeNull();
  return { code, outcome: code === 0 ? 'ok' : (JSON.parse(err.trim().split('\n').at(-1)!).error.code as string), stdout: out };
}

beforeAll(async () => {
  ({ root, cleanup } = tempDataRoot(['alpha', 'beta']));
  registry = await registryAt(root, { runJobs: false });
  await seedIdentity(registry, { alice: ['alpha'], bob: ['beta'], carol: ['alpha', 'beta'] });
  tokens['member'] = (await mint(registry, { principal: 'alice' })).secret;
  tokens['admin'] = (await mint(registry, { principal: 'carol', capabilities: ['admin'] })).secret;
  revocable = (await mint(registry, { principal: 'bob', label: 'to-revoke' })).id;
  await registry.context.engine.append('alpha', memoryPayloads('run-a', 'Uploads failed: 8KB body buffer.', 'Uploads failed because of the 8KB body buffer.').payloads, { kind: 'test' });
  for (const [i, line] of Object.values(FORGET_LINES).entries()) {
    await registry.context.engine.append('alpha', memoryPayloads(`run-forget-${i}`, `Seen in session ${i}: ${line}`, line).payloads, { kind: 'test' });
  }
  jobId = ((await asRoot(registry, 'ingest_submit', { project: 'alpha', source: 'agent:seed', records: [{ role: 'user', text: 'seed' }] })) as { job_id: string }).job_id;
  mkdirSync(join(root, 'vault', 'skills', 'kong-body'), { recursive: true });
  writeFileSync(join(root, 'vault', 'skills', 'kong-body', 'SKILL.md'), '---\nname: kong-body\ndescription: body buffer sizes\n---\nRaise it.\n');
  server = await startServer(registry, { port: 0, rateLimits: { burstPerSecond: 0, ingestPerHour: 0, queryPerHour: 0 } });
  for (const who of ['anonymous', 'member', 'admin'] as const) {
    const mcp = createMcpServer(registry, { credential: () => tokens[who] });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.connect(b);
    const client = new Client({ name: `parity-${who}`, version: '1' });
    await client.connect(a);
    clients.set(who, client);
  }
});

afterAll(async () => {
  for (const client of clients.values()) await client.close();
  await server?.close();
  await registry?.close();
  cleanup?.();
});

describe('registry parity across HTTP, MCP and the CLI', () => {
  it('has a probe for every operation (a new operation must join this walk)', () => {
    expect(Object.keys(PROBES).sort()).toEqual(registry.operations.map((op) => op.name).sort());
  });

  it('every operation answers each caller the same on HTTP and MCP', async () => {
    const table: string[] = [];
    for (const op of registry.operations) {
      for (const who of ['anonymous', 'member', 'admin'] as const) {
        const http = await overHttp(op, who, PROBES[op.name]!('http', who));
        const mcp = await overMcp(op, who, PROBES[op.name]!('mcp', who));
        table.push(`${op.name} ${who}: http ${http}, mcp ${mcp}`);
        expect(mcp, `${op.name} as ${who}`).toBe(http);
        // The expected class, from the declaration alone.
        const expected = op.auth.access === 'open' ? 'ok' : who === 'anonymous' ? 'UNAUTHENTICATED' : op.auth.access === 'admin' && who !== 'admin' ? 'CAPABILITY_REQUIRED' : 'ok';
        expect(http, `${op.name} as ${who}`).toBe(expected);
      }
    }
    expect(table.length).toBe(registry.operations.length * 3);
  });

  it('a project outside the token is FORBIDDEN on both surfaces, wherever an operation names one', async () => {
    for (const op of registry.operations.filter((o) => o.auth.project !== undefined)) {
      const input = { ...PROBES[op.name]!('http', 'member'), [op.auth.project!]: op.name === 'query' ? ['beta'] : 'beta' };
      expect(await overHttp(op, 'member', input), op.name).toBe('FORBIDDEN');
      expect(await overMcp(op, 'member', input), op.name).toBe('FORBIDDEN');
    }
  });

  it('an unknown field is INVALID_INPUT on both surfaces, for every operation', async () => {
    for (const op of registry.operations) {
      const who = op.auth.access === 'admin' ? 'admin' : 'member';
      const input = { ...PROBES[op.name]!('http', who), bogus_field: 1 };
      expect(await overHttp(op, who, input), op.name).toBe('INVALID_INPUT');
      expect(await overMcp(op, who, input), op.name).toBe('INVALID_INPUT');
    }
  });

  it('every operation with a CLI command runs there as the local root, with the same errors', async () => {
    const withCli = registry.operations.filter((op) => op.cli);
    expect(withCli.map((op) => op.cli!.command.join(' '))).toEqual(
      expect.arrayContaining(['forget', 'supersede', 'confirm', 'history', 'query', 'verify', 'principal add', 'project add', 'project add-member', 'project remove-member', 'token mint', 'token list', 'token revoke']),
    );
    for (const op of withCli) {
      const ok = await overCli(op, PROBES[op.name]!('cli', 'admin'));
      expect(ok.outcome, `${op.cli!.command.join(' ')}: ${ok.stdout}`).toBe('ok');
      JSON.parse(ok.stdout);
      // The query's text and a correction's ref take any words: their first flag (--project) is the field to spoil.
      const anyText = op.name === 'query' || op.cli!.args?.[0] === 'ref';
      const field = anyText ? op.cli!.options?.[0]?.field : (op.cli!.args?.[0] ?? op.cli!.options?.[0]?.field);
      if (field === undefined) continue;
      const bad = { ...PROBES[op.name]!('cli', 'admin'), [field]: 'Not Valid!' };
      const refused = await overCli(op, bad);
      expect(refused.code, op.name).toBe(2);
      expect(refused.outcome, op.name).toBe(await overHttp(op, 'admin', bad));
    }
  });
});
