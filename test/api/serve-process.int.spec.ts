import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { call, tempDataRoot, until } from './support.js';
import { hermeticEnv } from '../support/mem-cli.js';

const BIN = fileURLToPath(new URL('../../packages/cli/bin/mem.js', import.meta.url));
const TRANSCRIPT = fileURLToPath(
  new URL('../fixtures/transcripts/claude/spotter-short.jsonl', import.meta.url),
);

const children: ChildProcess[] = [];
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const c of cleanups.splice(0)) c();
});

function mem(root: string, ...args: string[]): { status: number; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [BIN, '--root', root, ...args], {
    encoding: 'utf8',
    env: hermeticEnv(),
  });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** Starts `mem serve --port 0` and resolves with its URL once it listens; stderr is collected. */
async function serve(
  root: string,
  ...args: string[]
): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  const child = spawn(process.execPath, [BIN, '--root', root, 'serve', '--port', '0', ...args], {
    env: hermeticEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const url = await until(async () => /listening on (http:\/\/\S+)/.exec(stderr)?.[1], 20_000, 20);
  return { url, child, stderr: () => stderr };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('mem serve as a process', () => {
  it('a newcomer mints a token, ingests over HTTP, and the job accepted before a restart completes after it', async () => {
    const { root, cleanup } = tempDataRoot(['demo']);
    cleanups.push(cleanup);
    expect(mem(root, 'principal', 'add', 'alice').status).toBe(0);
    expect(mem(root, 'project', 'add', 'demo').status).toBe(0);
    expect(mem(root, 'project', 'add-member', 'demo', 'alice').status).toBe(0);
    const minted = mem(
      root,
      'token',
      'mint',
      '--principal',
      'alice',
      '--projects',
      'demo',
      '--label',
      'laptop',
      '--json',
    );
    expect(minted.status).toBe(0);
    const token = JSON.parse(minted.stdout) as { id: string; label: string; secret: string };
    expect(Object.keys(token).sort()).toEqual(['id', 'label', 'secret']);

    // Accept only: the job is an event in the log, not yet run.
    const first = await serve(root, '--no-jobs');
    const body = {
      project: 'demo',
      source: 'agent:newcomer',
      ingest_id: 'session-1',
      transcript: readFileSync(TRANSCRIPT, 'utf8'),
      format: 'claude',
    };
    const accepted = await call(first.url, 'POST', '/memory/ingest', { token: token.secret, body });
    expect(accepted.status).toBe(202);
    expect(
      (await call(first.url, 'GET', accepted.body.status_url, { token: token.secret })).body.status,
    ).toBe('queued');
    await stop(first.child);

    const second = await serve(root);
    const done = await until(
      async () => {
        const status = await call(second.url, 'GET', accepted.body.status_url, {
          token: token.secret,
        });
        return status.body.status === 'done' ? status.body : undefined;
        // Polled under the token's burst limit (10 req/s): a 429 here would hide the 409 below.
      },
      60_000,
      150,
    );
    expect(done).toMatchObject({
      job_id: accepted.body.job_id,
      ingest_id: 'session-1',
      format: 'claude',
    });
    expect(
      (await call(second.url, 'POST', '/memory/ingest', { token: token.secret, body })).status,
    ).toBe(409);
    const status = await call(second.url, 'GET', '/memory/projects/demo/status', {
      token: token.secret,
    });
    expect(status.body.last_ingest).toMatchObject({ job_id: accepted.body.job_id, status: 'done' });

    // A revocation by another process bites on the server's next request.
    expect(mem(root, 'token', 'revoke', token.id).status).toBe(0);
    expect(
      (await call(second.url, 'GET', '/memory/projects', { token: token.secret })).status,
    ).toBe(401);
    await stop(second.child);

    // The plaintext was printed once; it is nowhere in the log, the SQLite file or the server logs.
    const secretPart = token.secret.slice('mem_'.length + 17);
    for (const file of [...filesUnder(join(root, 'log')), ...filesUnder(join(root, '.mem'))]) {
      expect(readFileSync(file).includes(Buffer.from(secretPart)), file).toBe(false);
    }
    expect(first.stderr() + second.stderr()).not.toContain(secretPart);
    expect(second.stderr()).toContain(token.id);
  });

  it('binds 127.0.0.1 unless told otherwise', async () => {
    const { root, cleanup } = tempDataRoot([]);
    cleanups.push(cleanup);
    const server = await serve(root);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await stop(server.child);
  });
});
