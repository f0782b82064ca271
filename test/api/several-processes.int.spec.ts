import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { usePgliteWire } from '../../packages/projector-pgvector/test/pglite-servers.js';
import { call, memoryPayloads, tempDataRoot, until } from './support.js';

/*
 * Several processes, one data root (issue 15): two `mem serve` processes and CLI writers on one
 * root, the vector projection in Postgres (a pglite-socket server standing in for it). Real
 * processes, real sockets, real files.
 */
const BIN = fileURLToPath(new URL('../../packages/cli/bin/mem.js', import.meta.url));
const wire = usePgliteWire({ maxConnections: 64 });

const children: ChildProcess[] = [];
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(() => {
  for (const c of cleanups.splice(0)) c();
});

function env(): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '', DATABASE_URL: wire.url };
}

/**
 * `mem <args>` in a child process, awaited: never spawnSync, since the child's Postgres is the
 * PGlite served from this very process, which a blocked event loop would stop answering.
 */
function mem(
  root: string,
  args: string[],
  input?: string,
  options: { databaseUrl?: string; code?: number } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, '--root', root, ...args], {
      env: { ...env(), ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) =>
      code === (options.code ?? 0)
        ? resolve(out + err)
        : reject(new Error(`mem ${args.join(' ')}: ${code} ${err}`)),
    );
    child.stdin.end(input ?? '');
  });
}

async function serve(root: string): Promise<string> {
  const args = ['--root', root, 'serve', '--port', '0', '--quiet'];
  for (const flag of ['--rate-burst', '--rate-ingest', '--rate-query']) args.push(flag, '0');
  const child = spawn(process.execPath, [BIN, ...args], {
    env: env(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return until(
    async () => {
      if (child.exitCode !== null) throw new Error(`mem serve exited ${child.exitCode}: ${stderr}`);
      return /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
    },
    60_000,
    20,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; stderr: ${stderr}`);
  });
}

const jsonl = (payloads: readonly unknown[]) => payloads.map((p) => JSON.stringify(p)).join('\n');

type Hit = { sha256: string; text: string; ranking: { signals: string[] } };

async function hitsOf(url: string, token: string, text: string): Promise<Hit[]> {
  const q = new URLSearchParams({ query: text, project: 'p' });
  const answer = await call(url, 'GET', `/memory/query?${q.toString()}`, { token });
  // 204: the query abstained (nothing found).
  if (answer.status === 204) return [];
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body as { results: Hit[] }).results;
}

describe('two servers and CLI writers on one data root, vectors in Postgres', () => {
  it('every write lands once with contiguous seqs, and each server reads the others’ writes on its very next request', async () => {
    const { root, cleanup } = tempDataRoot(['p']);
    cleanups.push(cleanup);
    await mem(root, ['principal', 'add', 'alice']);
    await mem(root, ['project', 'add', 'p']);
    await mem(root, ['project', 'add-member', 'p', 'alice']);
    const token = (
      JSON.parse(
        await mem(root, ['token', 'mint', '--principal', 'alice', '--projects', 'p', '--json']),
      ) as { secret: string }
    ).secret;
    const [a, b] = await Promise.all([serve(root), serve(root)]);

    // A CLI write: both servers' very next query finds the line by keyword and by vector.
    const first = memoryPayloads(
      'run-cli',
      'the zebracorn cache evicted live sessions',
      '- The zebracorn cache evicted live sessions; fixed by pinning them',
    );
    await mem(root, ['log', 'append', '--project', 'p'], jsonl(first.payloads));
    for (const url of [a, b]) {
      const hits = await hitsOf(url, token, 'zebracorn cache evicted');
      const hit = hits.find((h) => h.text.includes('zebracorn'));
      expect(hit, url).toBeDefined();
      expect(hit!.ranking.signals, url).toContain('vector_text');
    }

    // A write through server A (a supersede): server B's very next query has the new line.
    const line = (await hitsOf(a, token, 'zebracorn')).find((h) => h.text.includes('zebracorn'))!;
    const superseded = await call(a, 'POST', '/memory/supersede', {
      token,
      body: {
        project: 'p',
        ref: line.sha256,
        by: 'The quokkabyte cache evicted live sessions; fixed by pinning them',
        reason: 'renamed',
      },
    });
    expect(superseded.status, JSON.stringify(superseded.body)).toBe(201);
    const seen = (await hitsOf(b, token, 'quokkabyte')).find((h) => h.text.includes('quokkabyte'));
    expect(seen).toBeDefined();
    expect(seen!.ranking.signals).toContain('vector_text');

    // A writer whose catch-up failed after its append was durable (its Postgres unreachable): the
    // events are in the log and in no projection; each server's next query catches them up.
    const stranded = memoryPayloads(
      'run-stranded',
      'the yakshaver queue stalled on retries',
      '- The yakshaver queue stalled on retries; fixed by capping them',
    );
    const failed = await mem(root, ['log', 'append', '--project', 'p'], jsonl(stranded.payloads), {
      databaseUrl: 'postgres://postgres:postgres@127.0.0.1:1/postgres',
      code: 1,
    });
    expect(failed).toContain('durable');
    for (const url of [b, a]) {
      const hit = (await hitsOf(url, token, 'yakshaver queue')).find((h) =>
        h.text.includes('yakshaver'),
      );
      expect(hit, url).toBeDefined();
      expect(hit!.ranking.signals, url).toContain('vector_text');
    }

    // Interleaved writers, all at once: items through A and B, a log batch and items from the CLI.
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 4; i += 1) {
      for (const [url, who] of [
        [a, 'a'],
        [b, 'b'],
      ] as const) {
        writes.push(
          call(url, 'POST', '/memory/remember', {
            token,
            body: { project: 'p', type: 'fact', text: `fact ${i} written through ${who}` },
          }).then((r) => expect(r.status, JSON.stringify(r.body)).toBe(201)),
        );
      }
      writes.push(
        mem(root, ['remember', `fact ${i} written by the cli`, '--type', 'fact', '--project', 'p']),
      );
    }
    const batch = memoryPayloads(
      'run-cli-2',
      'the walrusgate proxy dropped keepalives',
      '- The walrusgate proxy dropped keepalives; fixed by raising its idle timeout',
    );
    writes.push(mem(root, ['log', 'append', '--project', 'p'], jsonl(batch.payloads)));
    await Promise.all(writes);

    for (const url of [a, b]) {
      const hit = (await hitsOf(url, token, 'walrusgate keepalives')).find((h) =>
        h.text.includes('walrusgate'),
      );
      expect(hit, url).toBeDefined();
      expect(hit!.ranking.signals, url).toContain('vector_text');
      const found = await call(url, 'POST', '/memory/items/find', {
        token,
        body: { projects: ['p'], type: 'fact', limit: 200 },
      });
      expect(found.body.total, url).toBe(12);
    }

    const events = (await mem(root, ['log', 'show', '--project', 'p']))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { seq: number; type: string; text?: string; run_id?: string });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const texts = events.map((e) => JSON.stringify(e)).filter((l) => /fact \d written/.test(l));
    expect(texts).toHaveLength(12);
    expect(new Set(texts.map((l) => /fact \d written [a-z ]+/.exec(l)![0])).size).toBe(12);
    expect(events.filter((e) => e.type === 'run' && e.run_id === 'run-cli-2')).toHaveLength(1);
  }, 300_000);
});
