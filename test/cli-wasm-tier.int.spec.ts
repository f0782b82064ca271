import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memProcess } from './support/mem-cli.js';

/*
 * A one-shot reading command compiles PGlite's WebAssembly with V8's baseline compiler only
 * (issue 15, target 6): with tier-up on, Node's event loop waits for V8's background optimizing
 * compiles of Postgres whenever it runs dry, most of a cold query's catch-up and recall. What is
 * asserted is the flags and their order with PGlite's modules, never a duration.
 */
const repo = join(import.meta.dirname, '..');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
const support = join(import.meta.dirname, 'support');
const hooks = ['module-trace.mjs', 'v8-flags-trace.mjs']
  .map((file) => `--import=${pathToFileURL(join(support, file)).href}`)
  .join(' ');
const PGLITE = /node_modules\/@electric-sql\/pglite\//;
const BASELINE = '--no-wasm-tier-up --no-wasm-dynamic-tiering';
const SMALL_HEAP = '--optimize-for-size';

let base: string;
let root: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'mem-wasm-tier-'));
  root = join(base, 'root');
  const appended = memProcess([
    '--root',
    root,
    'log',
    'append',
    '--project',
    'demo',
    '--file',
    sample,
  ]);
  expect(appended.code, appended.stderr).toBe(0);
  // The projections built once, so the traced query is a cold read of an existing cluster.
  const built = memProcess(['--root', root, 'rebuild', '--from-log']);
  expect(built.code, built.stderr).toBe(0);
}, 300_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Runs `mem <args>` traced: its exit, stdout, and the trace's lines (module URLs and `v8-flags` lines). */
function traced(args: readonly string[]): {
  code: number | null;
  stdout: string;
  stderr: string;
  lines: string[];
} {
  const trace = join(base, `trace-${Math.random().toString(36).slice(2)}.txt`);
  const run = memProcess(['--root', root, ...args], {
    env: { NODE_OPTIONS: hooks, MEM_TEST_MODULE_TRACE: trace },
  });
  const lines = readFileSync(trace, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (line.startsWith('v8-flags\t') ? line : line.split('\t')[0]!));
  return { ...run, lines };
}

describe('a cold query starts PGlite on the baseline compiler', () => {
  it('mem query sets the baseline flags before it loads PGlite', () => {
    const run = traced(['query', 'why did the build fail?', '--project', 'demo', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const flags = run.lines.indexOf(`v8-flags\t${BASELINE}`);
    const pglite = run.lines.findIndex((line) => PGLITE.test(line));
    expect(flags, 'the flags were set').toBeGreaterThanOrEqual(0);
    expect(pglite, 'PGlite was loaded').toBeGreaterThanOrEqual(0);
    expect(flags).toBeLessThan(pglite);
    // A query keeps V8's default heap: it is over in a second, and a server answers many.
    expect(run.lines).not.toContain(`v8-flags\t${SMALL_HEAP}`);
  }, 180_000);

  it('mem ingest sets the baseline flags before its final catch-up loads PGlite', () => {
    // Issue 15 target 5: the optimizing tier's compiles of Postgres held ~65 MB more RSS at the
    // ingest's peak (the final catch-up), which is over the 300 MB a 1 GB ingest may take.
    mkdirSync(join(root, 'queries'), { recursive: true });
    writeFileSync(
      join(root, 'queries', 'demo.yaml'),
      `project: demo\nsources:\n  - claude:${join(repo, 'test', 'fixtures', 'transcripts', 'claude', 'spotter-short.jsonl')}\nqueries:\n  - id: bugs\n    question: What broke?\n`,
    );
    const run = traced(['ingest', '--project', 'demo', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const flags = run.lines.indexOf(`v8-flags\t${BASELINE}`);
    const pglite = run.lines.findIndex((line) => PGLITE.test(line));
    expect(flags, 'the flags were set').toBeGreaterThanOrEqual(0);
    expect(pglite, 'PGlite was loaded').toBeGreaterThanOrEqual(0);
    expect(flags).toBeLessThan(pglite);
    // And a heap sized to what is live (small-heap.ts): with V8's default growth the loop's
    // uncollected garbage (166 MB of heap at 100 MB of transcript) sat under the final catch-up.
    // Set as the registry opens, before the operation runs, so the whole loop runs with it.
    const small = run.lines.indexOf(`v8-flags\t${SMALL_HEAP}`);
    expect(small, 'the small-heap flag was set').toBeGreaterThanOrEqual(0);
    expect(small).toBeLessThan(pglite);
  }, 180_000);

  it('a command that writes the vectors keeps the optimizing tier (mem rebuild)', () => {
    const run = traced(['rebuild', '--from-log', '--only', 'pgvector']);
    expect(run.code, run.stderr).toBe(0);
    expect(
      run.lines.some((line) => PGLITE.test(line)),
      'PGlite was loaded',
    ).toBe(true);
    expect(run.lines.filter((line) => line.startsWith('v8-flags\t'))).toEqual([]);
  }, 180_000);
});
