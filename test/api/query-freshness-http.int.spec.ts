import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '@mem/registry';
import { startServer, type RunningServer } from '@mem/server';
import { call, mint, registryAt, seedIdentity } from './support.js';

/*
 * Issue 13 §4 over real HTTP, on a copy of the shipped demo (its log, its standing queries and
 * the transcripts they read): the user message a demo line was drawn from is rewritten on disk,
 * so `GET /memory/query` holds the line back with a warning, `include_stale=true` delivers it
 * still warned about, and `POST /memory/context` does not pack it unless asked with
 * `include_stale`, which packs it still named in `freshness_warnings`.
 */
const repo = join(import.meta.dirname, '..', '..');
const SAID = 'this exploded when i restarted with -r';
const LINE = 'Invalid hex color: #000cc';
const SESSION = join('test', 'fixtures', 'transcripts', 'pi', 'pi-mono-large-session.jsonl');

interface Warning {
  sha256: string;
  text: string;
  state: string;
  reason: string;
  delivered: boolean;
  next_action: string;
  sources: string[];
}

let root: string;
let registry: Registry;
let server: RunningServer;
let token = '';

async function ask(params: Record<string, string>) {
  const qs = new URLSearchParams({ project: 'demo', query: LINE, ...params }).toString();
  const answer = await call(server.url, 'GET', `/memory/query?${qs}`, { token });
  expect(answer.status).toBe(200);
  return answer.body as { results: { text: string }[]; freshness_warnings: Warning[] };
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-query-freshness-http-'));
  for (const dir of ['log', 'queries', join('test', 'fixtures', 'transcripts')])
    cpSync(join(repo, dir), join(root, dir), { recursive: true });
  registry = await registryAt(root, { runJobs: false });
  await seedIdentity(registry, { alice: ['demo'] });
  token = (await mint(registry, { principal: 'alice' })).secret;
  server = await startServer(registry, {
    port: 0,
    rateLimits: { burstPerSecond: 0, ingestPerHour: 0, queryPerHour: 0 },
  });
}, 300_000);

afterAll(async () => {
  await server?.close();
  await registry?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('freshness of memory lines over HTTP', () => {
  it(
    'holds back a line whose cited message was rewritten, delivers it with include_stale, and keeps it out of tool context',
    { timeout: 300_000 },
    async () => {
      const fresh = await ask({});
      expect(fresh.results.some((r) => r.text.includes(LINE))).toBe(true);
      expect(fresh.freshness_warnings).toEqual([]);

      const file = join(root, SESSION);
      const before = readFileSync(file, 'utf8');
      expect(before).toContain(SAID);
      writeFileSync(file, before.replace(SAID, 'this worked when i restarted with -r'));

      const held = await ask({});
      expect(held.results.some((r) => r.text.includes(LINE))).toBe(false);
      const warned = held.freshness_warnings.filter((w) => w.text.includes(LINE));
      expect(warned.length).toBeGreaterThan(0);
      expect(warned[0]).toMatchObject({
        state: 'stale',
        reason: 'source_changed',
        delivered: false,
        next_action: 'correct',
        sources: ['pi:pi-mono-large-session'],
      });

      const included = await ask({ include_stale: 'true' });
      expect(included.results.some((r) => r.text.includes(LINE))).toBe(true);
      expect(
        included.freshness_warnings.filter((w) => w.text.includes(LINE)).every((w) => w.delivered),
      ).toBe(true);

      const context = await call(server.url, 'POST', '/memory/context', {
        token,
        body: { task: LINE, project: 'demo' },
      });
      expect(context.status).toBe(200);
      const bundle = context.body as {
        results: { text?: string; line?: { text: string } }[];
        freshness_warnings: Warning[];
      };
      expect(bundle.results.some((r) => (r.text ?? r.line?.text ?? '').includes(LINE))).toBe(false);
      expect(bundle.freshness_warnings.some((w) => w.text.includes(LINE))).toBe(true);

      const asked = await call(server.url, 'POST', '/memory/context', {
        token,
        body: { task: LINE, project: 'demo', include_stale: true },
      });
      expect(asked.status).toBe(200);
      const packed = asked.body as typeof bundle;
      expect(packed.results.some((r) => (r.text ?? r.line?.text ?? '').includes(LINE))).toBe(true);
      const named = packed.freshness_warnings.filter((w) => w.text.includes(LINE));
      expect(named.length).toBeGreaterThan(0);
      expect(named.every((w) => w.delivered && w.state === 'stale')).toBe(true);
    },
  );
});
