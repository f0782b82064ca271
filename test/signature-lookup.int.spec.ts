import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BODY_LIMITS, type RunningServer } from '@mem/server';
import { call, mint, registryAt, seedIdentity, serveUnlimited } from './api/support.js';
import { memInProcess, memProcess } from './support/mem-cli.js';
import { PI_TSC_FAILURE, piTranscriptRoot } from './support/pi-failure.js';

// The tsc failure pi-mono-large-session hit, as another session's CI log prints it.
const RAW_SAME = PI_TSC_FAILURE;
/** A 2 MB CI log with that failure buried in its middle: a raw log "up to MBs" (issue 14 §3). */
const CI_LOG_2MB = (() => {
  const noise = (label: string) =>
    Array.from(
      { length: 16_500 },
      (_, i) =>
        `2026-09-02T10:00:${String(i % 60).padStart(2, '0')}.000Z ${label} ${i}: ok, nothing to report here`,
    );
  return [...noise('step'), RAW_SAME, ...noise('cleanup')].join('\n');
})();
const RAW_OTHER =
  "src/theme/theme.ts(7,3): error TS2305: Module '\"@mariozechner/pi-tui\"' has no exported member 'ListTheme'.";

interface Answer {
  signatures: {
    signature: string;
    seen: {
      project: string;
      line: { text: string };
      seen_count: number;
      citations: { level: string; source: string | null }[];
    }[];
  }[];
}

describe('mem signature: the exact tier over a real transcript', () => {
  let root: string;
  const env = () => ({ MEM_ROOT: root });

  // The ingest, the file argument and the refusal run in process (a real process loads PGlite
  // again, seconds each); the raw log piped on stdin stays the built bin.
  beforeAll(async () => {
    root = piTranscriptRoot('mem-signature-');
    const ingest = await memInProcess(['ingest', '--project', 'demo'], { env: env(), cwd: root });
    expect(ingest.stderr).toBe('');
    expect(ingest.code).toBe(0);
  }, 600_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('finds the line learned from a failure by the raw log of the same failure, with its L0 citation', () => {
    const run = memProcess(['signature', '-', '--project', 'demo', '--json'], {
      env: env(),
      cwd: root,
      input: RAW_SAME,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout) as Answer;
    const hit = answer.signatures.find((s) => s.signature.includes('TS2305'))!;
    expect(hit.seen).toHaveLength(1);
    expect(hit.seen[0]!.project).toBe('demo');
    expect(hit.seen[0]!.line.text).toMatch(/build is failing/);
    expect(hit.seen[0]!.citations).toContainEqual(
      expect.objectContaining({ level: 'L0', source: 'pi:pi-mono-large-session' }),
    );
  });

  it('finds nothing for a different failure, and reads a file argument the same as stdin', async () => {
    const file = join(root, 'other.log');
    writeFileSync(file, RAW_OTHER);
    const run = await memInProcess(['signature', file, '--project', 'demo', '--json'], {
      env: env(),
      cwd: root,
    });
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout) as Answer;
    expect(answer.signatures).toHaveLength(1);
    expect(answer.signatures[0]!.seen).toEqual([]);
  });

  describe('POST /memory/signatures/match', () => {
    let server: RunningServer;
    let token = '';
    beforeAll(async () => {
      const registry = await registryAt(root, { runJobs: false });
      await seedIdentity(registry, { alice: ['demo'] });
      token = (await mint(registry, { principal: 'alice' })).secret;
      server = await serveUnlimited(registry);
    }, 120_000);
    afterAll(async () => server?.close());

    it('reads a 2 MB CI log whole and finds the buried failure seen before', async () => {
      expect(Buffer.byteLength(CI_LOG_2MB)).toBeGreaterThan(2 * 1024 * 1024);
      const answer = await call(server.url, 'POST', '/memory/signatures/match', {
        token,
        body: { source: CI_LOG_2MB, project: ['demo'] },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const hit = (answer.body as Answer).signatures.find((s) => s.signature.includes('TS2305'));
      expect(hit?.seen[0]?.line.text).toMatch(/build is failing/);
    });

    it('refuses a body past the log limit with PAYLOAD_TOO_LARGE naming the limit', async () => {
      const over = await call(server.url, 'POST', '/memory/signatures/match', {
        token,
        body: { source: 'x'.repeat(DEFAULT_BODY_LIMITS.log) },
      });
      expect(over.status).toBe(413);
      expect(over.body.error.code).toBe('PAYLOAD_TOO_LARGE');
      expect(over.body.error.details.limit_bytes).toBe(DEFAULT_BODY_LIMITS.log);
    });
  });

  it('refuses a missing file by name, changing nothing', async () => {
    const run = await memInProcess(['signature', join(root, 'absent.log'), '--project', 'demo'], {
      env: env(),
      cwd: root,
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/absent\.log.*NOT_FOUND/);
  });
});
