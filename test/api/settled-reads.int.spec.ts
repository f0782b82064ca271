import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Engine } from '@mem/engine';
import { projectorSqlite } from '@mem/projector-sqlite';
import { openRegistry } from '@mem/registry';
import { usePgliteWire } from '../../packages/projector-pgvector/test/pglite-servers.js';
import { testConfig } from '../support/test-config.js';
import { asRoot, call, memoryPayloads, seedIdentity, tempDataRoot, until } from './support.js';

/*
 * Issue 15: no request sees a half-applied batch across projections. A `mem serve` answers
 * queries while another process rebuilds the root's projections from the log — it drops the
 * SQLite store and the pgvector schema and replays them, committing pgvector batch by batch
 * before SQLite at its seal — and the log does not move, so nothing tells the server to catch
 * up. Every answer must be the settled one. Real processes, vectors in a pglite-socket server.
 */
const BIN = fileURLToPath(new URL('../../packages/cli/bin/mem.js', import.meta.url));
const wire = usePgliteWire({ maxConnections: 64 });

const children: ChildProcess[] = [];
const cleanups: (() => void | Promise<void>)[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const env = () => ({ PATH: process.env['PATH'] ?? '', DATABASE_URL: wire.url });

function mem(root: string, args: string[]): { done: Promise<string>; child: ChildProcess } {
  const child = spawn(process.execPath, [BIN, '--root', root, ...args], {
    env: env(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const done = new Promise<string>((resolve, reject) =>
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`mem ${args.join(' ')}: ${code} ${out}`)),
    ),
  );
  return { done, child };
}

async function serve(root: string): Promise<string> {
  const args = ['serve', '--port', '0', '--quiet'];
  for (const flag of ['--rate-burst', '--rate-ingest', '--rate-query']) args.push(flag, '0');
  const { child, done } = mem(root, args);
  // Killed after the case: its exit is no failure.
  done.catch(() => {});
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return until(
    async () => {
      if (child.exitCode !== null) throw new Error(`mem serve exited ${child.exitCode}: ${stderr}`);
      return /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
    },
    120_000,
    20,
  );
}

type Hit = {
  sha256: string;
  text: string;
  ranking: { signals: string[]; rrf_score_micro: number };
};

async function answerOf(url: string, token: string): Promise<string> {
  const q = new URLSearchParams({ query: 'zebracorn cache evicted sessions', project: 'p' });
  const answer = await call(url, 'GET', `/memory/query?${q.toString()}`, { token });
  if (answer.status === 204) return 'abstained';
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const hits = (answer.body as { results: Hit[] }).results;
  return JSON.stringify(hits.map((h) => [h.sha256, h.text, h.ranking.rrf_score_micro]));
}

const FORGOTTEN = 'The zebracorn cache leaked the staging password';

describe('reads while another process rebuilds the projections', () => {
  it('every answer of a running server is the settled one: never an emptied store, a half-replayed index or forgotten text', async () => {
    const { root, cleanup } = tempDataRoot(['p']);
    cleanups.push(cleanup);
    // The identity and the memories, written in process (SQLite only): the server's start
    // projects them into Postgres.
    const engine = new Engine({ root, projectors: [projectorSqlite] });
    const seeding = await openRegistry({
      engine,
      version: '0.0.0-test',
      config: testConfig(),
      runJobs: false,
    });
    await seedIdentity(seeding, { alice: ['p'] });
    const { secret: token } = (await asRoot(seeding, 'token_mint', {
      principal: 'alice',
      projects: ['p'],
    })) as { secret: string };
    for (let i = 0; i < 40; i += 1) {
      const { payloads } = memoryPayloads(
        `run-${i}`,
        `session ${i}: the zebracorn cache evicted live sessions under load ${i}`,
        `- The zebracorn cache evicted live sessions at load ${i}; fixed by pinning shard ${i}\n- ${i === 7 ? FORGOTTEN : `Shard ${i} was rebalanced after the eviction`}`,
        `q${i}`,
      );
      await engine.append('p', payloads, { kind: 'cli' });
    }
    await seeding.invoke('forget', seeding.local('alice'), {
      project: 'p',
      ref: FORGOTTEN,
      reason: 'a secret',
    });
    await seeding.close();

    const url = await serve(root);
    const settled = await answerOf(url, token);
    expect(settled).toContain('zebracorn');
    expect(settled).not.toContain('staging password');

    const rebuild = mem(root, ['rebuild', '--from-log']);
    let running = true;
    void rebuild.done.finally(() => (running = false)).catch(() => {});
    const answers: string[] = [];
    while (running) answers.push(await answerOf(url, token));
    await rebuild.done;
    answers.push(await answerOf(url, token));
    expect(answers.length).toBeGreaterThan(3);
    for (const [i, answer] of answers.entries()) {
      expect(answer, `answer ${i} of ${answers.length}`).not.toContain('staging password');
      expect(answer, `answer ${i} of ${answers.length}`).toBe(settled);
    }
  }, 600_000);
});
