import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { call, tempDataRoot, until } from './support.js';
import { hermeticEnv } from '../support/mem-cli.js';

/*
 * Issue 13 §2: an Idempotency-Key's outcome is in the log, in the very batch of the write it
 * answered, so a retry after a restart, or at another `mem serve` on the same data root, gets
 * the recorded answer and writes nothing.
 */
const BIN = fileURLToPath(new URL('../../packages/cli/bin/mem.js', import.meta.url));

const children: ChildProcess[] = [];
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const c of cleanups.splice(0)) c();
});

function mem(root: string, ...args: string[]): { status: number; stdout: string } {
  const result = spawnSync(process.execPath, [BIN, '--root', root, ...args], {
    encoding: 'utf8',
    env: hermeticEnv(),
  });
  return { status: result.status ?? -1, stdout: result.stdout };
}

async function serve(root: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [BIN, '--root', root, 'serve', '--port', '0', '--no-jobs'],
    {
      env: hermeticEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const url = await until(async () => /listening on (http:\/\/\S+)/.exec(stderr)?.[1], 90_000, 20);
  return { url, child };
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

/** The project's log, line by line: what a retry must leave as it found it. */
function logLines(root: string, project: string): string[] {
  const dir = join(root, 'log', project);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean));
}

function mintToken(root: string): string {
  expect(mem(root, 'principal', 'add', 'alice').status).toBe(0);
  expect(mem(root, 'project', 'add', 'demo').status).toBe(0);
  expect(mem(root, 'project', 'add-member', 'demo', 'alice').status).toBe(0);
  const minted = mem(root, 'token', 'mint', '--principal', 'alice', '--projects', 'demo', '--json');
  expect(minted.status).toBe(0);
  return (JSON.parse(minted.stdout) as { secret: string }).secret;
}

describe('Idempotency-Key outcomes in the log', () => {
  it('a retry after the server is killed, at a new process on the same root, gets the same answer and writes nothing; another body is 409', async () => {
    const { root, cleanup } = tempDataRoot(['demo']);
    cleanups.push(cleanup);
    const token = mintToken(root);
    const body = { project: 'demo', text: 'Releases are cut from main on Tuesdays', type: 'fact' };
    const headers = { 'idempotency-key': 'remember-release-rule' };

    const first = await serve(root);
    const written = await call(first.url, 'POST', '/memory/remember', { token, body, headers });
    expect(written.status).toBe(201);
    expect(written.body).toMatchObject({ project: 'demo', ids: [expect.any(String)] });
    await kill(first.child);
    const lines = logLines(root, 'demo');

    const second = await serve(root);
    const retry = await call(second.url, 'POST', '/memory/remember', { token, body, headers });
    expect(retry).toMatchObject({ status: 201, body: written.body });
    expect(logLines(root, 'demo')).toEqual(lines);

    const other = await call(second.url, 'POST', '/memory/remember', {
      token,
      body: { ...body, text: 'Releases are cut from main on Fridays' },
      headers,
    });
    expect(other).toMatchObject({
      status: 409,
      body: { error: { code: 'CONFLICT', details: { field: 'Idempotency-Key' } } },
    });
    expect(logLines(root, 'demo')).toEqual(lines);

    // Shared by every process on the root: a key first used at one server answers at another.
    const third = await serve(root);
    const task = { project: 'demo', text: 'Rotate the staging certificate', type: 'task' };
    const taskKey = { 'idempotency-key': 'task-cert' };
    const added = await call(second.url, 'POST', '/memory/remember', {
      token,
      body: task,
      headers: taskKey,
    });
    expect(added.status).toBe(201);
    const afterTask = logLines(root, 'demo');
    const elsewhere = await call(third.url, 'POST', '/memory/remember', {
      token,
      body: task,
      headers: taskKey,
    });
    expect(elsewhere).toMatchObject({ status: 201, body: added.body });
    expect(logLines(root, 'demo')).toEqual(afterTask);
  }, 400_000);
});
