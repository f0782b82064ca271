import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { usePgliteWire } from '../../packages/projector-pgvector/test/pglite-servers.js';
import { call, memoryPayloads, tempDataRoot, until } from './support.js';
import { hermeticEnv } from '../support/mem-cli.js';

/*
 * `mem serve --workers N` (issue 15): N processes behind one port on one data root, the vector
 * projection in Postgres (a pglite-socket server); refused on the embedded default.
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

interface Run {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `mem <args>` in a child process, never spawnSync: its Postgres is served from this process. */
function start(root: string, args: string[], env: Record<string, string>, input = ''): Run {
  const child = spawn(process.execPath, [BIN, '--root', root, ...args], {
    env: hermeticEnv({ ...env }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  child.stdout.on('data', (d) => (err += d));
  child.stdin.end(input);
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => resolve(code)),
  );
  return { child, stderr: () => err, exited };
}

async function mem(root: string, args: string[], input = ''): Promise<string> {
  const run = start(root, args, { DATABASE_URL: wire.url }, input);
  const code = await run.exited;
  expect(code, run.stderr()).toBe(0);
  return run.stderr();
}

const serveArgs = ['serve', '--port', '0', '--quiet', '--rate-burst', '0', '--rate-query', '0'];

describe('mem serve --workers', () => {
  it('refuses more than one worker on the embedded PGlite, naming DATABASE_URL, and creates nothing', async () => {
    const { root, cleanup } = tempDataRoot(['p']);
    cleanups.push(cleanup);
    const run = start(root, [...serveArgs, '--workers', '2'], {});
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toContain('[CONFIG_INVALID]');
    expect(run.stderr()).toContain('DATABASE_URL');
    expect(existsSync(join(root, '.mem'))).toBe(false);
  }, 60_000);

  it('two workers share one port and one root: each answers with what was written through the port and by a CLI writer beside them, every write once, seqs contiguous', async () => {
    const { root, cleanup } = tempDataRoot(['p']);
    cleanups.push(cleanup);
    await mem(root, ['principal', 'add', 'alice']);
    await mem(root, ['project', 'add', 'p']);
    await mem(root, ['project', 'add-member', 'p', 'alice']);
    const minted = await mem(root, [
      'token',
      'mint',
      '--principal',
      'alice',
      '--projects',
      'p',
      '--json',
    ]);
    const token = (JSON.parse(minted) as { secret: string }).secret;
    const server = start(root, [...serveArgs, '--workers', '2'], { DATABASE_URL: wire.url });
    const url = await until(
      async () => {
        if (server.child.exitCode !== null) throw new Error(server.stderr());
        return /listening on (http:\/\/\S+) \(2 workers/.exec(server.stderr())?.[1];
      },
      120_000,
      50,
    );
    // Each worker is a whole mem serve: two of its lines, on the primary's one port.
    const workerLines = server
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith(`mem serve: listening on ${url} (data root`));
    expect(workerLines).toHaveLength(2);

    const { payloads } = memoryPayloads(
      'run-w',
      'the gnuflake index was rebuilt on every boot',
      '- The gnuflake index was rebuilt on every boot; fixed by caching it',
    );
    await mem(
      root,
      ['log', 'append', '--project', 'p'],
      payloads.map((p) => JSON.stringify(p)).join('\n'),
    );
    const remembered = await call(url, 'POST', '/memory/remember', {
      token,
      body: { project: 'p', type: 'fact', text: 'gnuflake boots read the cached index' },
    });
    expect(remembered.status).toBe(201);
    // Connections go round-robin: fresh ones, so both workers answer some of these.
    for (let i = 0; i < 6; i += 1) {
      const answer = await call(url, 'GET', '/memory/query?query=gnuflake+index&project=p', {
        token,
        headers: { connection: 'close' },
      });
      expect(answer.status).toBe(200);
      expect(JSON.stringify(answer.body)).toContain('gnuflake index was rebuilt');
      const found = await call(url, 'POST', '/memory/items/find', {
        token,
        body: { projects: ['p'], type: 'fact' },
        headers: { connection: 'close' },
      });
      expect(found.body.total).toBe(1);
    }

    // Writers at once: remembers through the port (both workers) beside a CLI writer; every
    // write lands once, seqs stay contiguous, and each worker's next request sees all of them.
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 4; i += 1) {
      writes.push(
        call(url, 'POST', '/memory/remember', {
          token,
          body: { project: 'p', type: 'fact', text: `gnuflake fact ${i} through the port` },
          headers: { connection: 'close' },
        }).then((r) => expect(r.status, JSON.stringify(r.body)).toBe(201)),
      );
    }
    writes.push(
      mem(root, [
        'remember',
        'gnuflake fact written by the cli',
        '--type',
        'fact',
        '--project',
        'p',
      ]),
    );
    await Promise.all(writes);
    for (let i = 0; i < 6; i += 1) {
      const found = await call(url, 'POST', '/memory/items/find', {
        token,
        body: { projects: ['p'], type: 'fact', limit: 50 },
        headers: { connection: 'close' },
      });
      expect(found.body.total, `request ${i}`).toBe(6);
    }
    const events = (await mem(root, ['log', 'show', '--project', 'p']))
      .trim()
      .split('\n')
      // mem() returns stdout and stderr together: the events are the JSON lines.
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { seq: number; type: string; summary?: string });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const facts = events.filter((e) => e.type === 'item_added').map((e) => e.summary);
    expect(new Set(facts).size).toBe(6);
    expect(facts).toHaveLength(6);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain('stopping 2 workers');
  }, 300_000);
});
