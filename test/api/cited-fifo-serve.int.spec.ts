import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { call, tempDataRoot, until } from './support.js';
import { hermeticEnv } from '../support/mem-cli.js';

/*
 * The board (stop 31, "find caches"): a fact citing a FIFO once held one of libuv's four
 * threadpool threads for good per request under `mem serve` (stop-30 review, finding 1; the
 * cited source is now opened without blocking, cited-source-not-a-file.int.spec checks one
 * request of each read through the CLI). Here, against a real `mem serve` process: more
 * FIFO-cited finds and orients at once than the threadpool has threads, and another project's
 * find meanwhile. Each answers within the deadline, the FIFO's facts `unknown`, never `changed`.
 */
const BIN = fileURLToPath(new URL('../../packages/cli/bin/mem.js', import.meta.url));
/** More than libuv's default threadpool (4): a request holding a thread for good would starve the rest. */
const AT_ONCE = 8;
const DEADLINE_MS = 10_000;

const children: ChildProcess[] = [];
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const c of cleanups.splice(0)) c();
});

function mem(root: string, ...args: string[]): { status: number; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [BIN, '--root', root, ...args], {
    encoding: 'utf8',
    env: hermeticEnv({ MEM_NOW: '2031-01-01T00:00:00Z' }),
  });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** `mem` with --json, its answer parsed (exit 0 expected). */
function memJson(root: string, ...args: string[]): Record<string, unknown> {
  const run = mem(root, ...args, '--json');
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

/** A request that settles within `ms` or fails the spec (never holds the worker). */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms).unref(),
    ),
  ]);
}

describe('mem serve with facts citing a FIFO', () => {
  it(`answers ${AT_ONCE} FIFO-cited finds and orients at once, and another project's find meanwhile`, async () => {
    const { root, cleanup } = tempDataRoot(['piped', 'other']);
    cleanups.push(cleanup);
    const fifo = join(root, 'pipe');
    // A regular file while the facts are written (stop 32: a write reads what it cites), a FIFO after.
    writeFileSync(fifo, 'deploy events\n');
    expect(mem(root, 'principal', 'add', 'alice').status).toBe(0);
    for (const project of ['piped', 'other']) {
      expect(mem(root, 'project', 'add', project).status).toBe(0);
      expect(mem(root, 'project', 'add-member', project, 'alice').status).toBe(0);
    }
    const token = memJson(
      root,
      'token',
      'mint',
      '--principal',
      'alice',
      '--projects',
      'piped,other',
    )['secret'] as string;
    const cite = (summary: string) =>
      (
        memJson(
          root,
          'remember',
          summary,
          '--type',
          'fact',
          '--project',
          'piped',
          '--source',
          fifo,
          '--source-sha256',
          'a'.repeat(64),
        )['ids'] as string[]
      )[0]!;
    const piped = [cite('The pipe carries deploy events'), cite('The pipe drains at night')];
    rmSync(fifo);
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const other = (
      memJson(
        root,
        'remember',
        'The other deploy runs on Fridays',
        '--type',
        'fact',
        '--project',
        'other',
      )['ids'] as string[]
    )[0]!;

    const child = spawn(
      process.execPath,
      [BIN, '--root', root, 'serve', '--port', '0', '--no-jobs', '--rate-burst', '0'],
      { env: hermeticEnv({ MEM_NOW: '2031-01-01T00:00:00Z' }), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const url = await until(
      async () => /listening on (http:\/\/\S+)/.exec(stderr)?.[1],
      20_000,
      20,
    );

    const pipedReads = Array.from({ length: AT_ONCE }, (_, i) =>
      within(
        DEADLINE_MS,
        `piped read ${i}`,
        i % 2 === 0
          ? call(url, 'POST', '/memory/items/find', {
              token,
              body: { project: 'piped', query: 'pipe' },
            })
          : call(url, 'GET', '/memory/orientation?project=piped', { token }),
      ),
    );
    const elsewhere = await within(
      DEADLINE_MS,
      "the other project's find",
      call(url, 'POST', '/memory/items/find', {
        token,
        body: { project: 'other', query: 'deploy' },
      }),
    );
    expect(elsewhere.status, JSON.stringify(elsewhere.body)).toBe(200);
    expect(elsewhere.body.items.map((r: { id: string }) => r.id)).toEqual([other]);

    const answers = await Promise.all(pipedReads);
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const warned = (
        answer.body.freshness_warnings as { id: string; state: string; reason: string }[]
      )
        .map((w) => [w.id, w.state, w.reason])
        .sort();
      expect(warned).toEqual(piped.map((id) => [id, 'unknown', 'source_unreadable']).sort());
    }
    // Still serving after them: the threadpool is free.
    const again = await within(
      DEADLINE_MS,
      "the other project's find again",
      call(url, 'POST', '/memory/items/find', {
        token,
        body: { project: 'other', query: 'deploy' },
      }),
    );
    expect(again.status).toBe(200);
  }, 90_000);
});
