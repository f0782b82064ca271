import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSha256 } from '@mem/core';
import type { Registry } from '@mem/registry';
import { startServer, type RunningServer } from '@mem/server';
import { call, mint, registryAt, seedIdentity } from './support.js';

/*
 * Issue 12 over real HTTP, on a copy of the shipped demo log: a line superseded over
 * `POST /memory/supersede` lives on as its successor, found by `GET /memory/query` with the
 * correction on the hit; `include_superseded` and `as_of` are query parameters of the same route.
 */
const repo = join(import.meta.dirname, '..', '..');
const OLD =
  "LiveView test: sandbox isolation (Project not found): LiveView process can't access test sandbox checkout. Fixed by using `Sandbox.mode(Repo, {:shared, self()})` instead of just `Sandbox.checkout`.";
const NEW =
  'Quokka marmalade resolution: the LiveView owner is started with start_owner and the pid is allowed explicitly.';
const REASON = 'the shared sandbox was the wrong fix';

interface Hit {
  sha256: string;
  text: string;
  corrected_by: { seq: number; supersedes: string; reason: string } | null;
  superseded_by: { sha256: string; seq: number } | null;
}

let root: string;
let registry: Registry;
let server: RunningServer;
let token = '';
let headBefore = 0;
let supersededSeq = 0;

async function ask(params: Record<string, string>): Promise<Hit[]> {
  const qs = new URLSearchParams({ project: 'demo', ...params }).toString();
  const answer = await call(server.url, 'GET', `/memory/query?${qs}`, { token });
  expect(answer.status).toBe(200);
  return (answer.body as { results: Hit[] }).results;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-query-corrections-http-'));
  for (const dir of ['log', 'queries'])
    cpSync(join(repo, dir), join(root, dir), { recursive: true });
  registry = await registryAt(root, { runJobs: false });
  await seedIdentity(registry, { alice: ['demo'] });
  token = (await mint(registry, { principal: 'alice' })).secret;
  server = await startServer(registry, {
    port: 0,
    rateLimits: { burstPerSecond: 0, ingestPerHour: 0, queryPerHour: 0 },
  });
  headBefore = (await registry.context.engine.head('demo')).seq;
  const superseded = await call(server.url, 'POST', '/memory/supersede', {
    token,
    body: { project: 'demo', ref: contentSha256(OLD).slice(0, 10), by: NEW, reason: REASON },
  });
  expect(superseded.status).toBe(201);
  supersededSeq = (superseded.body as { seq: number }).seq;
}, 180_000);

afterAll(async () => {
  await server?.close();
  await registry?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('GET /memory/query after a supersede', () => {
  it('finds the successor text with corrected_by, and not the old line', async () => {
    const hits = await ask({ query: 'quokka marmalade resolution LiveView sandbox' });
    const hit = hits.find((h) => h.sha256 === contentSha256(NEW));
    expect(hit?.text).toBe(NEW);
    expect(hit!.corrected_by).toMatchObject({
      seq: supersededSeq,
      supersedes: contentSha256(OLD),
      reason: REASON,
    });
    expect(hits.some((h) => h.sha256 === contentSha256(OLD))).toBe(false);
  });

  it('returns the old line too under include_superseded, marked', async () => {
    const hits = await ask({
      query: 'quokka marmalade resolution LiveView sandbox',
      include_superseded: 'true',
    });
    const old = hits.find((h) => h.sha256 === contentSha256(OLD));
    expect(old?.superseded_by).toMatchObject({ sha256: contentSha256(NEW), seq: supersededSeq });
  });

  it('answers as of a seq before the supersede with the old text only', async () => {
    const hits = await ask({
      query: 'quokka marmalade resolution LiveView sandbox',
      as_of: String(headBefore),
    });
    expect(hits.map((h) => h.sha256)).toContain(contentSha256(OLD));
    expect(hits.map((h) => h.sha256)).not.toContain(contentSha256(NEW));
  });

  it('refuses an as_of past the head with 400 INVALID_INPUT', async () => {
    const head = (await registry.context.engine.head('demo')).seq;
    const qs = new URLSearchParams({ query: 'sandbox', project: 'demo', as_of: String(head + 1) });
    const answer = await call(server.url, 'GET', `/memory/query?${qs.toString()}`, { token });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'as_of', project: 'demo', head },
    });
  });
});
