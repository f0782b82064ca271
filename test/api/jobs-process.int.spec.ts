import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom } from '@mem/core';
import { call, tempDataRoot, until } from './support.js';
import { hermeticEnv, memInProcess } from '../support/mem-cli.js';

const BIN = fileURLToPath(new URL('../../packages/cli/bin/mem.js', import.meta.url));

const children: ChildProcess[] = [];
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const c of cleanups.splice(0)) c();
});

/**
 * An administration command, in process: seeding the identity is not what these cases are about;
 * the server they ingest through is a real process.
 */
async function mem(root: string, ...args: string[]): Promise<string> {
  const result = await memInProcess(['--root', root, ...args]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

async function serve(root: string): Promise<{ url: string; child: ChildProcess }> {
  const args = [
    '--root',
    root,
    'serve',
    '--port',
    '0',
    '--max-body',
    String(64 * 1024 * 1024),
    '--rate-burst',
    '0',
    '--rate-ingest',
    '0',
    '--rate-query',
    '0',
    '--quiet',
  ];
  const child = spawn(process.execPath, [BIN, ...args], {
    env: hermeticEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  // Why 120 s: a serve process's start (imports, the store opened) took over 20 s at load 20 on
  // the 2-core box, failing all three cases before they measured anything. What the cases time
  // is the server's answers while a job runs, not its start.
  const url = await until(async () => /listening on (http:\/\/\S+)/.exec(stderr)?.[1], 120_000, 20);
  return { url, child };
}

/** A data root with the given projects, one member and a token reaching them all. */
async function seeded(projects: string[]): Promise<{ root: string; token: string }> {
  const { root, cleanup } = tempDataRoot(projects);
  cleanups.push(cleanup);
  await mem(root, 'principal', 'add', 'alice');
  for (const project of projects) {
    await mem(root, 'project', 'add', project);
    await mem(root, 'project', 'add-member', project, 'alice');
  }
  const token = JSON.parse(
    await mem(
      root,
      'token',
      'mint',
      '--principal',
      'alice',
      '--projects',
      projects.join(','),
      '--json',
    ),
  ) as { secret: string };
  return { root, token: token.secret };
}

/**
 * A Claude Code session of `turns` user/assistant pairs, each reply `replyChars` long, with
 * bug reports the gate keeps now and then (seeded: the same bytes every run).
 */
function claudeSession(turns: number, replyChars: number): string {
  const random = seededRandom(7);
  const words = [
    'cache',
    'lock',
    'deploy',
    'timeout',
    'retry',
    'index',
    'queue',
    'shard',
    'token',
    'build',
    'worker',
    'socket',
  ];
  const lines: string[] = [];
  for (let i = 0; i < turns; i += 1) {
    const ts = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
    const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    lines.push(
      JSON.stringify({
        type: 'user',
        uuid: uuid(2 * i),
        sessionId: 's-big',
        timestamp: ts,
        message: {
          role: 'user',
          content: `Why did the ${words[i % words.length]} step fail in run ${i}?`,
        },
      }),
    );
    let reply = `Root cause of failure ${i}: the ${words[(i * 7) % words.length]} held a stale lock; fixed by retrying with backoff. `;
    while (reply.length < replyChars) reply += `${words[Math.floor(random() * words.length)]} `;
    lines.push(
      JSON.stringify({
        type: 'assistant',
        uuid: uuid(2 * i + 1),
        sessionId: 's-big',
        timestamp: ts,
        message: { role: 'assistant', content: [{ type: 'text', text: reply }] },
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

type Status = {
  status: string;
  chunks: number | null;
  appended: number | null;
  records: number;
  progress: { records: number; chunks: number; used: number } | null;
};

const statusOf = async (url: string, token: string, path: string) =>
  (await call(url, 'GET', path, { token })).body as Status;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

describe('ingest jobs in a mem serve process', () => {
  it('a large ingest runs off the event loop: concurrent /health and /memory/query answer fast while it runs', async () => {
    const { root, token } = await seeded(['big']);
    const server = await serve(root);
    // ~24 MB: 1,500 turns with 16 KB replies.
    const transcript = claudeSession(1_500, 16_000);
    const accepted = await call(server.url, 'POST', '/memory/ingest', {
      token,
      body: { project: 'big', source: 'agent:big', format: 'claude', transcript },
    });
    expect(accepted.status).toBe(202);
    const path = accepted.body.status_url as string;
    await until(
      async () =>
        ((await statusOf(server.url, token, path)).progress?.chunks ?? 0) > 0 || undefined,
      30_000,
    );

    const timed = async (route: string, auth: boolean) => {
      const started = performance.now();
      const response = await fetch(
        `${server.url}${route}`,
        auth ? { headers: { apikey: token } } : {},
      );
      await response.arrayBuffer();
      return { route, status: response.status, ms: performance.now() - started };
    };
    const requests = [
      ...Array.from({ length: 400 }, () => timed('/health', false)),
      ...Array.from({ length: 100 }, () =>
        timed('/memory/query?query=stale+lock&project=big&limit=3', true),
      ),
    ];
    const results = await Promise.all(requests);
    // The measurement counts only if the job was still running through it.
    expect((await statusOf(server.url, token, path)).status).toBe('running');

    const health = results.filter((r) => r.route === '/health');
    expect(health.every((r) => r.status === 200)).toBe(true);
    expect(
      results
        .filter((r) => r.route !== '/health')
        .every((r) => r.status === 200 || r.status === 204),
    ).toBe(true);
    // A liveness bound, not a latency target: 500 requests at once on a loaded 2-core runner
    // measured p99 up to ~650 ms. What proves the job is off the event loop is the 10 MB
    // record test below (a 2.1 s stall before the worker thread).
    expect(
      percentile(
        health.map((r) => r.ms),
        99,
      ),
    ).toBeLessThan(2_000);
    expect(
      percentile(
        results.map((r) => r.ms),
        99,
      ),
    ).toBeLessThan(4_000);
  });

  it('one 10 MB record does not stall the server: /health answers within a second all through the job', async () => {
    const { root, token } = await seeded(['huge']);
    const server = await serve(root);
    // One user message of ~10 MB: tokenising and splitting it is seconds of synchronous work,
    // which on the server's own thread held every other request (2–8 s measured on /health).
    const random = seededRandom(11);
    const words = ['cache', 'lock', 'deploy', 'timeout', 'retry', 'index', 'queue', 'shard'];
    const parts: string[] = ['The deploy failed because the cache lock timed out. '];
    for (let size = 0; size < 10 * 1024 * 1024; size += 8)
      parts.push(`${words[Math.floor(random() * words.length)]!.padEnd(7, 's')} `);
    const huge = parts.join('');
    const transcript = `${JSON.stringify({ type: 'user', uuid: '00000000-0000-4000-8000-000000000001', sessionId: 's-huge', timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: huge } })}\n`;
    const accepted = await call(server.url, 'POST', '/memory/ingest', {
      token,
      body: { project: 'huge', source: 'agent:huge', format: 'claude', transcript },
    });
    expect(accepted.status).toBe(202);
    const path = accepted.body.status_url as string;

    // Probe /health one request at a time until the job is done, bounded by time (130 s, inside
    // the case's 150 s): a bound of 2,000 probes ran out at ~66 s when the whole suite loaded
    // the machine and the job was still running (stop 32), though no probe had waited long.
    const waits: number[] = [];
    let status = '';
    const deadline = performance.now() + 130_000;
    for (
      let probe = 0;
      performance.now() < deadline && status !== 'done' && status !== 'failed';
      probe += 1
    ) {
      const started = performance.now();
      const health = await fetch(`${server.url}/health`);
      await health.arrayBuffer();
      waits.push(performance.now() - started);
      expect(health.status).toBe(200);
      if (probe % 10 === 0) status = (await statusOf(server.url, token, path)).status;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe('done');
    expect(waits.length).toBeGreaterThan(10);
    const longest = Math.max(...waits);
    expect(
      longest,
      `longest /health wait ${Math.round(longest)} ms over ${waits.length} probes`,
    ).toBeLessThan(1_000);
  }, 150_000);

  it('a job killed mid-way (SIGKILL) and resumed reports the whole job, and progress grows while it runs', async () => {
    const { root, token } = await seeded(['plain', 'killed']);
    const transcript = claudeSession(200, 4_000);
    const submit = async (url: string, project: string) => {
      const accepted = await call(url, 'POST', '/memory/ingest', {
        token,
        body: { project, source: 'agent:s', format: 'claude', transcript },
      });
      expect(accepted.status).toBe(202);
      return accepted.body.status_url as string;
    };
    const doneOf = (url: string, path: string, seen: number[]) =>
      until(
        async () => {
          const status = await statusOf(url, token, path);
          if (status.progress) seen.push(status.progress.chunks);
          return status.status === 'done' ? status : undefined;
        },
        45_000,
        25,
      );

    const first = await serve(root);
    const plain = await doneOf(first.url, await submit(first.url, 'plain'), []);
    expect(plain.chunks).toBeGreaterThan(10);

    const path = await submit(first.url, 'killed');
    await until(
      async () =>
        ((await statusOf(first.url, token, path)).progress?.chunks ?? 0) >= 5 || undefined,
      30_000,
      10,
    );
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = await serve(root);
    const seen: number[] = [];
    const killed = await doneOf(second.url, path, seen);
    expect(killed.status).toBe('done');
    expect(killed.chunks).toBe(plain.chunks);
    expect(killed.records).toBe(plain.records);
    // The earlier attempt's events count too; the resumed attempt opened one run of its own
    // (one standing query), so exactly one run_started more than the job without a restart.
    expect(killed.appended).toBe(plain.appended! + 1);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.some((chunks, i) => i > 0 && chunks > seen[i - 1]!)).toBe(true);
    const memories = (project: string) => {
      const dir = join(root, 'log', project);
      const lines = readdirSync(dir)
        .filter((name) => name.endsWith('.jsonl'))
        .sort()
        .flatMap((name) => readFileSync(join(dir, name), 'utf8').trim().split('\n'))
        .map((l) => JSON.parse(l) as { type: string; text?: string });
      return lines.filter((e) => e.type === 'memory').map((e) => e.text);
    };
    expect(memories('killed')).toEqual(memories('plain'));
  }, 150_000);
});
