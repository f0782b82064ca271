import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hermeticEnv } from './support/mem-cli.js';

/*
 * Stop-30 review, finding 1: a fact citing a FIFO (or /dev/zero, any file that is not a regular
 * file) made every re-read of its cited source wait forever — orient and open hung, find had hung
 * since stop 29 — and under `mem serve` each such request held one of libuv's four threadpool
 * threads for good. Through the built `mem` binary in child processes with a deadline, so a hang
 * fails the spec instead of holding the test worker: each read answers, and the verdict is
 * "unreadable" (state unknown), never "changed".
 */
const bin = join(import.meta.dirname, '..', 'packages', 'cli', 'bin', 'mem.js');
const DEADLINE_MS = 20_000;
let root: string;

function mem(args: string[]) {
  const started = performance.now();
  const result = spawnSync(process.execPath, [bin, '--root', root, ...args, '--json'], {
    encoding: 'utf8',
    env: hermeticEnv({ MEM_NOW: '2031-01-01T00:00:00Z' }),
    timeout: DEADLINE_MS,
    killSignal: 'SIGKILL',
  });
  return {
    code: result.status,
    signal: result.signal,
    ms: performance.now() - started,
    stdout: result.stdout,
    stderr: result.stderr,
  };
}

function answered(run: ReturnType<typeof mem>): Record<string, unknown> {
  expect(run.signal, `killed after ${Math.round(run.ms)} ms: ${run.stderr}`).toBeNull();
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-cited-fifo-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('a fact citing something that is not a regular file', () => {
  it.each([
    ['a FIFO with no writer', (path: string) => makeFifo(path), 'source_unreadable'],
    // Since stop 31 a cited path stays inside the data root, so /dev/zero cannot be cited
    // (cited-source-confinement.int.spec): a symlink to it, swapped in after the write, is the
    // way left to reach it, and is not followed out of the root: it reads as outside the root.
    [
      '/dev/zero, symlinked in',
      (path: string) => symlinkSync('/dev/zero', path),
      'source_outside_root',
    ],
    ['a directory', (path: string) => mkdirSync(path), 'source_unreadable'],
  ])(
    '%s: a write citing it is refused at once; swapped in after the write, orient, open and find answer, the source unknown',
    (_name, make, reason) => {
      // Stop 32: a write reads its cited file (a citation it cannot read would be held back
      // for good), so the non-file is refused there, without waiting on it.
      const path = join(root, 'cited');
      make(path);
      const refused = mem([
        ...['remember', 'Pipe work', '--type', 'fact', '--project', 'f'],
        ...['--source', 'cited'],
      ]);
      expect(refused.signal, `killed after ${Math.round(refused.ms)} ms`).toBeNull();
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('INVALID_INPUT');
      rmSync(path, { recursive: true });
      writeFileSync(path, 'deploy events\n');
      const source = 'cited';
      const afterWrite = () => {
        rmSync(path);
        make(path);
      };
      const thread = answered(mem(['remember', 'Pipe work', '--type', 'thread', '--project', 'f']))[
        'ids'
      ] as string[];
      const cite = (summary: string, ...flags: string[]) =>
        (
          answered(
            mem([
              'remember',
              summary,
              '--type',
              'fact',
              '--project',
              'f',
              ...flags,
              '--source',
              source,
              '--source-sha256',
              'a'.repeat(64),
            ]),
          )['ids'] as string[]
        )[0]!;
      const loose = cite('The pipe carries deploy events');
      const anchored = cite('The pipe drains at night', '--anchor', thread[0]!);
      afterWrite();
      const unreadable = (id: string) => [
        expect.objectContaining({ id, state: 'unknown', reason }),
      ];

      const orient = answered(mem(['orient', '--project', 'f']));
      expect(orient['freshness_warnings']).toEqual(unreadable(loose));
      const open = answered(mem(['items', 'open', thread[0]!, '--project', 'f']));
      expect(open['freshness_warnings']).toEqual(unreadable(anchored));
      const found = answered(mem(['items', 'find', '--project', 'f', '--query', 'pipe']));
      expect(found['freshness_warnings']).toEqual(
        expect.arrayContaining([...unreadable(loose), ...unreadable(anchored)]),
      );
    },
  );
});

function makeFifo(path: string): string {
  const made = spawnSync('mkfifo', [path]);
  expect(made.status).toBe(0);
  return path;
}
