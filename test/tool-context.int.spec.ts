import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@mem/server';
import { call, mint, registryAt, seedIdentity, serveUnlimited } from './api/support.js';
import { memInProcess, memProcess } from './support/mem-cli.js';
import { PI_TSC_FAILURE, piTranscriptRoot } from './support/pi-failure.js';

// The tsc failure pi-mono-large-session hit, as another session's CI log prints it.
const RAW_SAME = PI_TSC_FAILURE;

/** A long CI log with that failure buried in it: ~200 KB, past the 64 KB every other body is held to. */
const LONG_CI_LOG = [
  ...Array.from(
    { length: 3000 },
    (_, i) => `2026-09-02T10:00:${String(i % 60).padStart(2, '0')}.000Z step ${i}: ok`,
  ),
  RAW_SAME,
  ...Array.from({ length: 2000 }, (_, i) => `2026-09-02T10:01:00.000Z cleanup ${i}: ok`),
].join('\n');

interface Bundle {
  results: {
    tier: 1 | 2 | 3;
    project: string;
    line?: { text: string };
    citations?: { level: string; source: string | null }[];
  }[];
  budget: { limit: number; used: number };
  notes: unknown[];
}

describe('mem context over a real transcript: the same failure from another session is tier 1', () => {
  let root: string;
  const env = () => ({ MEM_ROOT: root });

  // The ingest and the refusal run in process (a real process loads PGlite again, seconds each);
  // the tier-1 answer to a log piped on stdin stays the built bin, as an agent's hook runs it.
  beforeAll(async () => {
    root = piTranscriptRoot('mem-context-');
    const ingest = await memInProcess(['ingest', '--project', 'demo'], { env: env(), cwd: root });
    expect(ingest.stderr).toBe('');
    expect(ingest.code).toBe(0);
  }, 600_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('mem context --signature-source - puts the line learned from it first, at tier 1, with its L0 citation', () => {
    const run = memProcess(
      ['context', '--signature-source', '-', '--tool', 'npm', '--project', 'demo', '--json'],
      { env: env(), cwd: root, input: RAW_SAME },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const bundle = JSON.parse(run.stdout) as Bundle;
    const first = bundle.results[0]!;
    expect(first.tier).toBe(1);
    expect(first.project).toBe('demo');
    expect(first.line!.text).toMatch(/build is failing/);
    expect(first.citations).toContainEqual(
      expect.objectContaining({ level: 'L0', source: 'pi:pi-mono-large-session' }),
    );
    expect(bundle.budget.used).toBeLessThanOrEqual(bundle.budget.limit);
  });

  it('refuses a budget its tier-1 hit cannot fit, naming the shortfall, and exits non-zero', async () => {
    const run = await memInProcess(
      ['context', '--signature-source', '-', '--project', 'demo', '--budget', '3'],
      { env: env(), cwd: root, input: RAW_SAME },
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/BUDGET_EXCEEDED/);
    expect(run.stderr).toMatch(/short/);
  });

  describe('POST /memory/context', () => {
    let server: RunningServer;
    let token = '';
    beforeAll(async () => {
      const registry = await registryAt(root, { runJobs: false });
      await seedIdentity(registry, { alice: ['demo'] });
      token = (await mint(registry, { principal: 'alice' })).secret;
      server = await serveUnlimited(registry);
    }, 120_000);
    afterAll(async () => server?.close());

    it('reads a 200 KB CI log whole and finds the buried failure at tier 1', async () => {
      const answer = await call(server.url, 'POST', '/memory/context', {
        token,
        body: { signature_source: LONG_CI_LOG, project: 'demo' },
      });
      expect(answer.status).toBe(200);
      const bundle = answer.body as Bundle;
      expect(bundle.results[0]).toMatchObject({ tier: 1, project: 'demo' });
    });

    it('refuses a log over the size cap with INVALID_INPUT naming the field, and no input at all likewise', async () => {
      const big = await call(server.url, 'POST', '/memory/context', {
        token,
        body: { signature_source: 'x'.repeat(4 * 1024 * 1024 + 1) },
      });
      expect(big.status).toBe(400);
      expect(big.body.error.code).toBe('INVALID_INPUT');
      expect(JSON.stringify(big.body.error)).toMatch(/signature_source/);
      const empty = await call(server.url, 'POST', '/memory/context', { token, body: {} });
      expect(empty.status).toBe(400);
      expect(empty.body.error.code).toBe('INVALID_INPUT');
    });
  });
});
