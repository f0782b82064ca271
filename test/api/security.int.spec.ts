import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '@mem/registry';
import type { RunningServer } from '@mem/server';
import {
  asRoot,
  call,
  memoryPayloads,
  mint,
  registryAt,
  seedIdentity,
  serveUnlimited,
  tempDataRoot,
} from './support.js';

/*
 * Forbidden ids (seed 003's eval style): project beta holds content a token for alpha must
 * never see, count or infer — through query, federation, status, notes, jobs or errors.
 * alice is a member of both; her token is narrowed to alpha and must stay narrow.
 */

let root: string;
let cleanup: () => void;
let registry: Registry;
let server: RunningServer;
let narrow = '';
let forbidden: string[] = [];
let alphaIds: string[] = [];
let betaJob = '';

beforeAll(async () => {
  ({ root, cleanup } = tempDataRoot(['alpha', 'beta']));
  registry = await registryAt(root, { runJobs: false });
  await seedIdentity(registry, { alice: ['alpha', 'beta'], bob: ['beta'] });
  narrow = (await mint(registry, { principal: 'alice', projects: ['alpha'], label: 'deputy' }))
    .secret;
  const alpha = memoryPayloads(
    'run-a',
    'Uploads over 10KB failed because the gateway buffered 8KB bodies.',
    'Gateway body buffer of 8KB broke uploads; raised it.',
  );
  const beta = memoryPayloads(
    'run-b',
    'The zanzibar quokka migration leaked customer ledgers through uploads.',
    'Zanzibar quokka migration leaked ledgers via the uploads bucket.',
  );
  await registry.context.engine.append('alpha', alpha.payloads, { kind: 'test' });
  await registry.context.engine.append('beta', beta.payloads, { kind: 'test' });
  betaJob = (
    (await asRoot(registry, 'ingest_submit', {
      project: 'beta',
      source: 'agent:beta',
      records: [{ role: 'user', text: 'quokka secrets' }],
    })) as { job_id: string }
  ).job_id;
  forbidden = [beta.evidence, beta.memory, 'zanzibar', 'quokka', 'ledger'];
  alphaIds = [alpha.memory];
  server = await serveUnlimited(registry);
});

afterAll(async () => {
  await server?.close();
  await registry?.close();
  cleanup?.();
});

function clean(label: string, body: unknown): void {
  const text = JSON.stringify(body ?? null).toLowerCase();
  for (const id of forbidden) expect(text, `${label} leaked ${id}`).not.toContain(id.toLowerCase());
}

describe('a token for alpha never sees, counts or infers beta', () => {
  it('query: federation covers alpha only; beta-only words find nothing and count nothing', async () => {
    const shared = await call(
      server.url,
      'GET',
      '/memory/query?query=uploads+failed+leaked&level=L0,L1,L2,R&limit=100',
      { token: narrow },
    );
    expect(shared.status).toBe(200);
    clean('federated query', shared.body);
    expect(shared.body.recall.projects).toEqual(['alpha']);
    expect(shared.body.results.map((r: { sha256: string }) => r.sha256)).toEqual(
      expect.arrayContaining(alphaIds),
    );
    expect(new Set(shared.body.results.map((r: { project: string }) => r.project))).toEqual(
      new Set(['alpha']),
    );
    const betaOnly = await call(
      server.url,
      'GET',
      '/memory/query?query=zanzibar+quokka+ledgers&level=L0,L1,L2',
      { token: narrow },
    );
    expect(betaOnly.status).toBe(204);
    expect(betaOnly.body).toBeNull();
    const named = await call(server.url, 'GET', '/memory/query?query=zanzibar&project=alpha,beta', {
      token: narrow,
    });
    expect(named).toMatchObject({
      status: 403,
      body: { error: { code: 'FORBIDDEN', details: { project: 'beta' } } },
    });
    clean('refused query', named.body);
  });

  it('status, notes, projects, projections and jobs: alpha only; beta refused without contents', async () => {
    const answers = {
      projects: await call(server.url, 'GET', '/memory/projects', { token: narrow }),
      alphaStatus: await call(server.url, 'GET', '/memory/projects/alpha/status', {
        token: narrow,
      }),
      alphaNotes: await call(server.url, 'GET', '/memory/projects/alpha/notes', { token: narrow }),
      projections: await call(server.url, 'GET', '/memory/projections', { token: narrow }),
      betaStatus: await call(server.url, 'GET', '/memory/projects/beta/status', { token: narrow }),
      betaNotes: await call(server.url, 'GET', '/memory/projects/beta/notes', { token: narrow }),
      betaJob: await call(server.url, 'GET', `/memory/ingest/${betaJob}`, { token: narrow }),
      betaIngest: await call(server.url, 'POST', '/memory/ingest', {
        token: narrow,
        body: { project: 'beta', source: 'agent:x', records: [{ role: 'user', text: 'x' }] },
      }),
    };
    for (const [label, answer] of Object.entries(answers)) clean(label, answer.body);
    expect(answers.projects.body.map((p: { name: string }) => p.name)).toEqual(['alpha']);
    expect(answers.alphaStatus.body).toMatchObject({
      project: 'alpha',
      chunks_total: 1,
      chunks_used: 1,
      nodes: { L0: 1, L1: 1 },
    });
    expect(answers.projections.body.map((p: { project: string }) => p.project)).toEqual(['alpha']);
    expect(answers.betaStatus.status).toBe(403);
    expect(answers.betaNotes.status).toBe(403);
    expect(answers.betaIngest.status).toBe(403);
    // The job exists, in beta: the answer is the one for an id that never existed.
    const unknown = 'ingest-00000000-0000-4000-8000-000000000000';
    const never = await call(server.url, 'GET', `/memory/ingest/${unknown}`, { token: narrow });
    expect(answers.betaJob.status).toBe(404);
    expect(JSON.stringify(answers.betaJob.body).replaceAll(betaJob, unknown)).toBe(
      JSON.stringify(never.body),
    );
  });

  it("query: alpha's answer is byte-identical whatever beta holds, even beta text full of alpha's words", async () => {
    const ask = async () => {
      const answer = await call(
        server.url,
        'GET',
        '/memory/query?query=uploads+failed+gateway+buffered&level=L0,L1,L2&limit=10',
        { token: narrow },
      );
      expect(answer.status).toBe(200);
      return JSON.stringify(answer.body);
    };
    const before = await ask();
    // Words alpha's answer matches, many times over, in a project the token cannot reach: with
    // statistics over the whole index they would move alpha's bm25 and normalised scores.
    const flood = memoryPayloads(
      'run-b2',
      'uploads failed uploads failed gateway gateway buffered buffered uploads: the beta gateway failed again.',
      'Beta uploads failed at the gateway, buffered twice.',
    );
    await registry.context.engine.append('beta', flood.payloads, { kind: 'test' });
    expect(await ask()).toBe(before);
  });

  it('a removed membership is a 403 on the next request; a revoked token a 401', async () => {
    const wide = await mint(registry, { principal: 'bob', label: 'wide' });
    expect(
      (await call(server.url, 'GET', '/memory/projects/beta/status', { token: wide.secret }))
        .status,
    ).toBe(200);
    await asRoot(registry, 'member_remove', { project: 'beta', principal: 'bob' });
    expect(
      (await call(server.url, 'GET', '/memory/projects/beta/status', { token: wide.secret }))
        .status,
    ).toBe(403);
    await asRoot(registry, 'token_revoke', { id: wide.id });
    expect((await call(server.url, 'GET', '/memory/projects', { token: wide.secret })).status).toBe(
      401,
    );
  });
});
