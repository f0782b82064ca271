import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';

/*
 * Issue 12 §5: `mem vault watch` captures an edit on save — a real watcher process on a real
 * data root, stopped by SIGTERM, exiting clean.
 */
const repo = join(import.meta.dirname, '..');
const bin = join(repo, 'packages', 'cli', 'bin', 'mem.js');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
const KONG =
  'Requests over 10KB failed with 413: Kong buffered the body; fixed with proxy-body-size: 0.';
const REWRITTEN = 'Kong buffered request bodies over 10KB and answered 413.';
const env = { ...process.env, MEM_ROOT: '' };
let root: string;

const logText = () =>
  readdirSync(join(root, 'log', 'demo'))
    .sort()
    .map((segment) => readFileSync(join(root, 'log', 'demo', segment), 'utf8'))
    .join('');

async function until(check: () => boolean, what: string, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-watch-'));
  const appended = spawnSync(
    process.execPath,
    [bin, '--root', root, 'log', 'append', '--project', 'demo', '--file', sample],
    { env, encoding: 'utf8' },
  );
  expect(appended.status).toBe(0);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

it('mem vault watch captures a saved edit as superseded, and exits 0 on SIGTERM', async () => {
  const watcher = spawn(
    process.execPath,
    [bin, '--root', root, 'vault', 'watch', '--project', 'demo'],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  watcher.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    watcher.on('exit', (code, signal) => resolve({ code, signal })),
  );
  try {
    await until(() => stderr.includes('watching'), 'the watcher to be ready');
    const note = join(root, 'vault', 'demo', 'infra-root-causes.md');
    writeFileSync(note, readFileSync(note, 'utf8').replace(`- ${KONG}`, `- ${REWRITTEN}`));
    await until(
      () => logText().includes(`"text":${JSON.stringify(REWRITTEN)}`),
      'the superseded event in the log',
    );
    const superseded = logText()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; reason?: string })
      .filter((e) => e.type === 'superseded');
    expect(superseded.map((e) => e.reason)).toEqual(['edited in the vault']);
  } finally {
    watcher.kill('SIGTERM');
  }
  expect(await exited).toEqual({ code: 0, signal: null });
  expect(stderr).not.toContain('error');
}, 300_000);

it('mem vault watch on a project that does not exist exits 1 with NOT_FOUND naming it, watching nothing', () => {
  const before = logText();
  const run = spawnSync(
    process.execPath,
    [bin, '--root', root, 'vault', 'watch', '--project', 'nope'],
    {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  expect(run.status).toBe(1);
  expect(run.stderr).toContain('no project "nope"');
  expect(run.stderr).toContain('[NOT_FOUND]');
  expect(run.stderr).not.toContain('watching');
  expect(readdirSync(join(root, 'log'))).toEqual(['demo']);
  expect(logText()).toBe(before);
}, 120_000);
