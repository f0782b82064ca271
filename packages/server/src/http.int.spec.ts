import { afterEach, describe, expect, it } from 'vitest';
import { MemError, SYSTEM_PROJECT } from '@mem/core';
import { defineOperation, OPERATIONS, Registry } from '@mem/registry';
import { z } from 'zod';
import {
  call,
  memoryPayloads,
  mint,
  registryAt,
  seedIdentity,
  tempDataRoot,
  until,
} from '../../../test/api/support.js';
import { startServer, type RunningServer } from './serve.js';
import type { AppOptions } from './app.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Setup {
  url: string;
  registry: Registry;
  server: RunningServer;
  lines: string[];
  alice: string;
  bob: string;
  admin: string;
}

async function setup(
  options: AppOptions = {},
  operations?: (registry: Registry) => Registry,
): Promise<Setup> {
  const { root, cleanup } = tempDataRoot(['alpha', 'beta']);
  cleanups.push(cleanup);
  let registry = await registryAt(root);
  cleanups.push(() => registry.close());
  await seedIdentity(registry, { alice: ['alpha'], bob: ['beta'], carol: [] });
  const alice = (await mint(registry, { principal: 'alice', label: 'laptop' })).secret;
  const bob = (await mint(registry, { principal: 'bob' })).secret;
  const admin = (
    await mint(registry, { principal: 'carol', capabilities: ['admin'], label: 'console' })
  ).secret;
  if (operations) registry = operations(registry);
  const lines: string[] = [];
  const server = await startServer(registry, {
    port: 0,
    rateLimits: { burstPerSecond: 0 },
    log: (line) => lines.push(line),
    ...options,
  });
  cleanups.push(() => server.close());
  return { url: server.url, registry, server, lines, alice, bob, admin };
}

async function heads(registry: Registry): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const project of [SYSTEM_PROJECT, 'alpha', 'beta'])
    out[project] = (await registry.context.engine.head(project)).seq;
  return out;
}

describe('HTTP surface', () => {
  it('health and version are open; everything else needs a token; every answer carries the version', async () => {
    const { url, alice } = await setup();
    expect(await call(url, 'GET', '/health')).toMatchObject({ status: 200, body: { ok: true } });
    const version = await call(url, 'GET', '/version');
    expect(version.body).toEqual({ name: 'mem', version: '0.0.0-test' });
    expect(version.headers.get('x-mem-version')).toBe('0.0.0-test');
    for (const path of [
      '/memory/projects',
      '/memory/skills',
      '/openapi.json',
      '/memory/query?query=x',
    ]) {
      const refused = await call(url, 'GET', path);
      expect(refused.status, path).toBe(401);
      expect(refused.body).toEqual({
        error: { code: 'UNAUTHENTICATED', message: 'missing or invalid token' },
      });
    }
    expect((await call(url, 'GET', '/memory/projects', { token: alice })).body).toEqual([
      { name: 'alpha', synthesis: null },
    ]);
  });

  it('takes the token from apikey, x-api-key or Authorization: Bearer; two different ones are refused', async () => {
    const { url, alice, bob } = await setup();
    for (const headers of [
      { apikey: alice },
      { 'x-api-key': alice },
      { authorization: `Bearer ${alice}` },
    ] as Record<string, string>[]) {
      expect((await call(url, 'GET', '/memory/projects', { headers })).status).toBe(200);
    }
    expect(
      (await call(url, 'GET', '/memory/projects', { headers: { apikey: alice, 'x-api-key': bob } }))
        .status,
    ).toBe(401);
    expect(
      (await call(url, 'GET', '/memory/projects', { headers: { authorization: `Basic ${alice}` } }))
        .status,
    ).toBe(401);
  });

  it('403 names the refused project or the missing capability, never contents; 404 is the same for unknown and invisible', async () => {
    const { url, registry, alice, bob } = await setup();
    expect(await call(url, 'GET', '/memory/projects/beta/status', { token: alice })).toMatchObject({
      status: 403,
      body: { error: { code: 'FORBIDDEN', details: { project: 'beta' } } },
    });
    expect(await call(url, 'GET', '/memory/tokens', { token: alice })).toMatchObject({
      status: 403,
      body: { error: { code: 'CAPABILITY_REQUIRED', details: { capability: 'admin' } } },
    });
    const job = await call(url, 'POST', '/memory/ingest', {
      token: bob,
      body: { project: 'beta', source: 'agent:b', records: [{ role: 'user', text: 'beta only' }] },
    });
    expect(job.status).toBe(202);
    const invisible = await call(url, 'GET', `/memory/ingest/${job.body.job_id}`, { token: alice });
    const unknown = await call(
      url,
      'GET',
      '/memory/ingest/ingest-00000000-0000-4000-8000-000000000000',
      { token: alice },
    );
    expect(invisible.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(Object.keys(invisible.body.error)).toEqual(Object.keys(unknown.body.error));
    expect(JSON.stringify(invisible.body)).not.toContain('beta');
    await registry.context.jobs.idle();
    expect((await call(url, 'GET', '/no/such/route', { token: alice })).status).toBe(404);
  });

  it('bad input is a 400 naming the field and shape (or 413 past the size limit), and writes nothing', async () => {
    const { url, registry, alice, admin } = await setup({ bodyLimits: { ingest: 4096 } });
    const before = await heads(registry);
    const cases: [
      string,
      string,
      { body?: unknown; raw?: string; headers?: Record<string, string> },
      number,
      string?,
    ][] = [
      [
        'POST',
        '/memory/ingest',
        { raw: '{"project": "alpha", ', headers: { 'content-type': 'application/json' } },
        400,
        'body',
      ],
      [
        'POST',
        '/memory/ingest',
        { raw: '[1,2]', headers: { 'content-type': 'application/json' } },
        400,
        'body',
      ],
      [
        'POST',
        '/memory/ingest',
        { raw: 'project=alpha', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
        400,
        'body',
      ],
      [
        'POST',
        '/memory/ingest',
        { body: { project: 'alpha', source: 'a:b', records: 'many' } },
        400,
        'records',
      ],
      [
        'POST',
        '/memory/ingest',
        {
          body: {
            project: 'alpha',
            source: 'a:b',
            records: [{ role: 'user', text: 'x' }],
            colour: 'red',
          },
        },
        400,
        'colour',
      ],
      [
        'POST',
        '/memory/ingest',
        {
          body: {
            project: 'alpha',
            source: 'a:b',
            records: [{ role: 'user', text: 'x'.repeat(5000) }],
          },
        },
        413,
        'body',
      ],
      ['GET', '/memory/query?query=x&limit=ten', {}, 400, 'limit'],
      ['GET', '/memory/query?query=x&limit=1&limit=2', {}, 400, 'limit'],
      ['GET', '/memory/query?query=x&level=L7', {}, 400, 'level[0]'],
      ['GET', '/memory/query?query=x&sort=desc', {}, 400, 'sort'],
      ['GET', '/memory/query', {}, 400, 'query'],
      ['GET', '/memory/projects/Not%20A%20Project/status', {}, 400, 'project'],
    ];
    for (const [method, path, options, status, field] of cases) {
      const answer = await call(url, method, path, { token: alice, ...options });
      expect(answer.status, `${method} ${path}`).toBe(status);
      expect(answer.body.error.details.field, `${method} ${path}`).toBe(field);
    }
    const mint = await call(url, 'POST', '/memory/tokens', {
      token: admin,
      body: { principal: 'alice', capabilities: ['root'] },
    });
    expect(mint).toMatchObject({
      status: 400,
      body: { error: { code: 'INVALID_INPUT', details: { field: 'capabilities[0]' } } },
    });
    expect(await heads(registry)).toEqual(before);
  });

  it('the 11th request within a second gets 429 with Retry-After; other tokens are not affected', async () => {
    const { url, alice, bob } = await setup({ rateLimits: { burstPerSecond: 10 } });
    const answers = await Promise.all(
      Array.from({ length: 11 }, () => call(url, 'GET', '/memory/projects', { token: alice })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    const limited = answers.find((a) => a.status === 429)!;
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await call(url, 'GET', '/memory/projects', { token: bob })).status).toBe(200);
  });

  it('Idempotency-Key: a retried write is not written twice; concurrent retries are 409 until it answers', async () => {
    const { url, registry, admin } = await setup();
    const before = (await registry.context.engine.head(SYSTEM_PROJECT)).seq;
    const headers = { 'idempotency-key': 'mint-bob-1' };
    const first = await call(url, 'POST', '/memory/tokens', {
      token: admin,
      body: { principal: 'bob' },
      headers,
    });
    const retry = await call(url, 'POST', '/memory/tokens', {
      token: admin,
      body: { principal: 'bob' },
      headers,
    });
    expect(first.status).toBe(201);
    expect(retry).toMatchObject({ status: 201, body: first.body });
    expect((await registry.context.engine.head(SYSTEM_PROJECT)).seq).toBe(before + 1);
    const other = await call(url, 'POST', '/memory/tokens', {
      token: admin,
      body: { principal: 'alice' },
      headers,
    });
    expect(other).toMatchObject({ status: 409, body: { error: { code: 'CONFLICT' } } });
    const burst = await Promise.all(
      Array.from({ length: 6 }, () =>
        call(url, 'POST', '/memory/principals', {
          token: admin,
          body: { name: 'dave' },
          headers: { 'idempotency-key': 'dave' },
        }),
      ),
    );
    const ok = burst.filter((a) => a.status === 201);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(
      burst.every(
        (a) => a.status === 201 || (a.status === 409 && a.body.error.details.state === 'in_flight'),
      ),
    ).toBe(true);
    expect((await registry.context.engine.head(SYSTEM_PROJECT)).seq).toBe(before + 2);
  });

  it('ingest answers 202 with a status_url, the same job for the same ingest_id, then 409 with that job once done', async () => {
    const { url, registry, alice } = await setup();
    const body = {
      project: 'alpha',
      source: 'agent:a',
      ingest_id: 'b-1',
      records: [
        { role: 'assistant', text: 'The probe timeout caused the restart loop; raised to 5s.' },
      ],
    };
    const accepted = await call(url, 'POST', '/memory/ingest', { token: alice, body });
    expect(accepted.status).toBe(202);
    expect(accepted.body.status_url).toBe(`/memory/ingest/${accepted.body.job_id}`);
    const done = await until(async () => {
      const status = await call(url, 'GET', accepted.body.status_url, { token: alice });
      return status.body.status === 'done' ? status : undefined;
    });
    expect(done.body).toMatchObject({ job_id: accepted.body.job_id, project: 'alpha', records: 1 });
    const again = await call(url, 'POST', '/memory/ingest', { token: alice, body });
    expect(again).toMatchObject({
      status: 409,
      body: {
        error: { code: 'CONFLICT', details: { job_id: accepted.body.job_id, status: 'done' } },
      },
    });
    await registry.context.jobs.idle();
  });

  it('query: 200 with citations when something is relevant, 204 when it abstains', async () => {
    const { url, registry, alice } = await setup();
    const content = memoryPayloads(
      'run-a',
      'Uploads over 10KB failed: the ingress buffered bodies in 8KB.',
      'Kong body buffer of 8KB broke uploads over 10KB; raised client_body_buffer_size.',
    );
    await registry.context.engine.append('alpha', content.payloads, { kind: 'test' });
    const found = await call(
      url,
      'GET',
      '/memory/query?query=why+did+uploads+over+10KB+fail&project=alpha&level=L1,L2&limit=3',
      { token: alice },
    );
    expect(found.status).toBe(200);
    expect(found.body.results[0]).toMatchObject({
      level: 'L1',
      sha256: content.memory,
      project: 'alpha',
      parents: [{ level: 'L0', sha256: content.evidence }],
    });
    const nothing = await call(url, 'GET', '/memory/query?query=zebra+xylophone+quartz', {
      token: alice,
    });
    expect(nothing.status).toBe(204);
    expect(nothing.body).toBeNull();
  });

  it('an unexpected error is a 500 with only a correlation id; the server log has the rest', async () => {
    const boom = defineOperation({
      name: 'boom',
      summary: 'fails',
      input: z.strictObject({}),
      output: z.object({}),
      kind: 'read',
      idempotent: true,
      auth: { access: 'token' },
      http: { method: 'GET', path: '/memory/boom' },
      mcp: { tool: 'boom' },
      run: async () => {
        throw new Error('disk on fire at /secret/path');
      },
    });
    const { url, lines, alice } = await setup(
      {},
      (registry) => new Registry(registry.context, [...OPERATIONS, boom]),
    );
    const answer = await call(url, 'GET', '/memory/boom', { token: alice });
    expect(answer.status).toBe(500);
    expect(Object.keys(answer.body.error).sort()).toEqual(['code', 'correlation_id', 'message']);
    expect(JSON.stringify(answer.body)).not.toContain('fire');
    expect(
      lines.some(
        (line) => line.includes(answer.body.error.correlation_id) && line.includes('disk on fire'),
      ),
    ).toBe(true);
  });

  it('serves an OpenAPI document generated from every registry operation', async () => {
    const { url, registry, alice } = await setup();
    const doc = (await call(url, 'GET', '/openapi.json', { token: alice })).body;
    expect(doc.openapi).toBe('3.1.0');
    for (const op of registry.remote) {
      const entry = doc.paths[op.http.path]?.[op.http.method.toLowerCase()];
      expect(entry?.operationId, `${op.http.method} ${op.http.path}`).toBe(op.name);
    }
    expect(doc.paths['/memory/query'].get.responses['204']).toBeDefined();
    // A list parameter takes one comma-separated value, and its schema says a string is taken.
    const project = doc.paths['/memory/query'].get.parameters.find(
      (p: { name: string }) => p.name === 'project',
    );
    expect(project).toMatchObject({ style: 'form', explode: false });
    expect(project.schema.anyOf.map((s: { type: string }) => s.type)).toEqual(['array', 'string']);
    expect(
      doc.paths['/memory/ingest'].post.requestBody.content['application/json'].schema.properties
        .records,
    ).toBeDefined();
  });

  it('never logs a token: the request log names the token id only', async () => {
    const { url, lines, alice, admin } = await setup();
    await call(url, 'GET', '/memory/projects', { token: alice });
    const minted = await call(url, 'POST', '/memory/tokens', {
      token: admin,
      body: { principal: 'bob' },
    });
    await call(url, 'GET', '/memory/projects', {
      headers: { authorization: `Bearer ${minted.body.secret}` },
    });
    const all = lines.join('\n');
    for (const secret of [alice, admin, minted.body.secret as string])
      expect(all).not.toContain(secret.slice('mem_'.length + 17));
    expect(all).toContain(alice.slice(4, 20));
  });
});

describe('status mapping', () => {
  it('maps exactly the caller errors to 4xx statuses', async () => {
    const { CALLER_ERROR_CODES } = await import('@mem/registry');
    const { STATUS_OF } = await import('./status.js');
    expect(Object.keys(STATUS_OF).sort()).toEqual([...CALLER_ERROR_CODES].sort());
    expect(new MemError('IO_FAILED', 'x').code in STATUS_OF).toBe(false);
  });
});
