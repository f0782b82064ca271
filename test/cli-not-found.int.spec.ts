import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/*
 * A typo must not look like success (issue 9, item 11): the built `mem` in real processes. A
 * reading command on a data root or project that does not exist exits non-zero with NOT_FOUND
 * naming it, and creates nothing; a writing command still creates what it writes.
 */
const repo = join(import.meta.dirname, '..');
const bin = join(repo, 'packages', 'cli', 'bin', 'mem.js');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
let base: string;

function mem(root: string, args: string[]) {
  const result = spawnSync(process.execPath, [bin, '--root', root, ...args], { encoding: 'utf8', cwd: tmpdir(), env: { ...process.env, MEM_ROOT: '' } });
  return { code: result.status, signal: result.signal, error: result.error, stdout: result.stdout, stderr: result.stderr };
}

/** Every reading command, without a project (the root alone decides). */
const READING: readonly string[][] = [
  ['verify'],
  ['verify', '--json'],
  ['query', 'why did the build fail?'],
  ['query', 'why did the build fail?', '--json'],
  ['log', 'show', '--project', 'demo'],
  ['rebuild', '--from-log'],
  ['project', 'status', 'demo'],
  ['project', 'list'],
  ['principal', 'list'],
  ['token', 'list'],
];

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'mem-not-found-'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('a data root that does not exist', () => {
  it.each(READING.map((args) => [args.join(' '), args]))('mem %s exits 1 with NOT_FOUND naming the path, and creates nothing', (_name, args) => {
    const root = join(base, 'no-such');
    const result = mem(root, args);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    if (args.includes('--json')) expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'NOT_FOUND', details: { root } });
    else expect(result.stderr).toContain(`no data root at ${root}`);
    expect(result.stderr).toContain('NOT_FOUND');
    expect(existsSync(root)).toBe(false);
  });

  it.each(READING.map((args) => [args.join(' '), args]))('mem %s on an empty directory exits 1 with NOT_FOUND, and leaves it empty', (_name, args) => {
    const root = join(base, 'empty');
    mkdirSync(root);
    const result = mem(root, args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(root);
    expect(result.stderr).toContain('NOT_FOUND');
    expect(readdirSync(root)).toEqual([]);
  });

  it('writing commands create the root they write to', () => {
    const root = join(base, 'new-root');
    expect(mem(root, ['project', 'add', 'demo']).code).toBe(0);
    expect(mem(root, ['project', 'status', 'demo']).code).toBe(0);
    const other = join(base, 'other-root');
    expect(mem(other, ['log', 'append', '--project', 'demo', '--file', sample]).code).toBe(0);
    expect(mem(other, ['log', 'show', '--project', 'demo']).code).toBe(0);
  }, 180_000);

  it('a root with only standing questions (queries/) is a data root', () => {
    const root = join(base, 'queries-only');
    mkdirSync(join(root, 'queries'), { recursive: true });
    expect(mem(root, ['project', 'list']).code).toBe(0);
  });
});

describe('a project that does not exist, in a data root that does', () => {
  // One root for the whole block (an append builds every projection: seconds): the refused
  // commands change nothing, and the last test only adds projects other than "nope".
  let shared: string;
  let root: string;
  beforeAll(() => {
    shared = mkdtempSync(join(tmpdir(), 'mem-not-found-root-'));
    root = join(shared, 'root');
    expect(mem(root, ['log', 'append', '--project', 'demo', '--file', sample])).toMatchObject({ code: 0 });
  }, 180_000);
  afterAll(() => rmSync(shared, { recursive: true, force: true }));

  const PROJECT_READING: readonly string[][] = [
    ['verify', '--project', 'nope'],
    ['query', 'why did the build fail?', '--project', 'nope'],
    ['query', 'why did the build fail?', '--project', 'demo', '--project', 'nope'],
    ['log', 'show', '--project', 'nope'],
    ['rebuild', '--from-log', '--project', 'nope'],
    ['project', 'status', 'nope'],
  ];

  it.each(PROJECT_READING.map((args) => [args.join(' '), args]))('mem %s exits 1 with NOT_FOUND naming the project, and creates nothing', (_name, args) => {
    const result = mem(root, args);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('no project "nope"');
    expect(result.stderr).toContain('NOT_FOUND');
    expect(existsSync(join(root, 'log', 'nope'))).toBe(false);
    expect(existsSync(join(root, 'vault', 'nope'))).toBe(false);
  });

  it('--json names the project in the error details', () => {
    const result = mem(root, ['verify', '--project', 'nope', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'NOT_FOUND', details: { project: 'nope' } });
  });

  it('a project exists by its log, its standing questions, or its registration in _system', () => {
    expect(mem(root, ['verify', '--project', 'demo']).code).toBe(0);
    expect(mem(root, ['project', 'add', 'registered']).code).toBe(0);
    expect(mem(root, ['project', 'status', 'registered']).code).toBe(0);
    expect(mem(root, ['log', 'show', '--project', 'registered']).code).toBe(0);
    mkdirSync(join(root, 'queries'), { recursive: true });
    copyFileSync(join(repo, 'queries', 'demo.yaml'), join(root, 'queries', 'asked.yaml'));
    expect(mem(root, ['project', 'status', 'asked']).code).toBe(0);
  }, 180_000);
});
