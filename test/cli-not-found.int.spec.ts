import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { memInProcess, memProcess } from './support/mem-cli.js';

/*
 * A typo must not look like success (issue 9, item 11): in process (the same command:
 * cli-in-process), with one run of the built `mem` in a real process for a root that does not
 * exist, the exit status a shell sees. A reading command on a data root or project that does not
 * exist exits non-zero with NOT_FOUND naming it, and creates nothing; a writing command still
 * creates what it writes.
 */
const repo = join(import.meta.dirname, '..');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
let base: string;

/** Arguments and output: in process, through the CLI's entry, from a directory that is no root. */
const mem = (root: string, args: string[]) =>
  memInProcess(['--root', root, ...args], { cwd: tmpdir() });
/** The installed bin in a real process: the exit status a shell sees. */
const memReal = (root: string, args: string[]) =>
  memProcess(['--root', root, ...args], { cwd: tmpdir() });

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
  it('the built bin: mem verify --json exits 1 with NOT_FOUND naming the path, and creates nothing', () => {
    const root = join(base, 'no-such');
    const result = memReal(root, ['verify', '--json']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'NOT_FOUND', details: { root } });
    expect(existsSync(root)).toBe(false);
  });

  it.each(READING.map((args) => [args.join(' '), args]))(
    'mem %s exits 1 with NOT_FOUND naming the path, and creates nothing',
    async (_name, args) => {
      const root = join(base, 'no-such');
      const result = await mem(root, args);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      if (args.includes('--json'))
        expect(JSON.parse(result.stderr).error).toMatchObject({
          code: 'NOT_FOUND',
          details: { root },
        });
      else expect(result.stderr).toContain(`no data root at ${root}`);
      expect(result.stderr).toContain('NOT_FOUND');
      expect(existsSync(root)).toBe(false);
    },
  );

  it.each(READING.map((args) => [args.join(' '), args]))(
    'mem %s on an empty directory exits 1 with NOT_FOUND, and leaves it empty',
    async (_name, args) => {
      const root = join(base, 'empty');
      mkdirSync(root);
      const result = await mem(root, args);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(root);
      expect(result.stderr).toContain('NOT_FOUND');
      expect(readdirSync(root)).toEqual([]);
    },
  );

  it('writing commands create the root they write to', async () => {
    const root = join(base, 'new-root');
    expect((await mem(root, ['project', 'add', 'demo'])).code).toBe(0);
    expect((await mem(root, ['project', 'status', 'demo'])).code).toBe(0);
    const other = join(base, 'other-root');
    expect((await mem(other, ['log', 'append', '--project', 'demo', '--file', sample])).code).toBe(
      0,
    );
    expect((await mem(other, ['log', 'show', '--project', 'demo'])).code).toBe(0);
  }, 180_000);

  it('a root with only standing questions (queries/) is a data root', async () => {
    const root = join(base, 'queries-only');
    mkdirSync(join(root, 'queries'), { recursive: true });
    expect((await mem(root, ['project', 'list'])).code).toBe(0);
  });
});

describe('a data root that is a file', () => {
  // `--root` naming a file (or a path under one): a bare ENOTDIR, and from the built bin a
  // stack trace out of the warm-socket check, before; now one typed line naming the root.
  it('the built bin: mem query exits 2 (a refused --root) naming the root, no stack trace, the file untouched', () => {
    const root = join(base, 'a-file');
    writeFileSync(root, 'not a data root\n');
    const result = memReal(root, ['query', 'why did the build fail?']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      `mem: the data root ${root} is a file, not a directory (--root or $MEM_ROOT names the data root) [INVALID_INPUT]`,
    );
    expect(readFileSync(root, 'utf8')).toBe('not a data root\n');
  });

  const ANY: readonly string[][] = [
    ['verify'],
    ['project', 'add', 'demo'],
    ['log', 'append', '--project', 'demo', '--file', sample],
  ];
  it.each(ANY.map((args) => [args.join(' '), args]))(
    'mem %s exits 2 naming the root, reading or writing',
    async (_name, args) => {
      const file = join(base, 'a-file');
      writeFileSync(file, 'not a data root\n');
      for (const root of [file, join(file, 'under')]) {
        const result = await mem(root, args);
        expect(result.code).toBe(2);
        expect(result.stderr).toContain(`the data root ${root} is`);
        expect(result.stderr).toContain('[INVALID_INPUT]');
        expect(result.stderr).not.toContain('ENOTDIR');
      }
      expect(readFileSync(file, 'utf8')).toBe('not a data root\n');
    },
  );
});

describe('a project that does not exist, in a data root that does', () => {
  // One root for the whole block (an append builds every projection: seconds): the refused
  // commands change nothing, and the last test only adds projects other than "nope".
  let shared: string;
  let root: string;
  beforeAll(async () => {
    shared = mkdtempSync(join(tmpdir(), 'mem-not-found-root-'));
    root = join(shared, 'root');
    expect(await mem(root, ['log', 'append', '--project', 'demo', '--file', sample])).toMatchObject(
      { code: 0 },
    );
  }, 180_000);
  afterAll(() => rmSync(shared, { recursive: true, force: true }));

  const PROJECT_READING: readonly string[][] = [
    ['verify', '--project', 'nope'],
    ['query', 'why did the build fail?', '--project', 'nope'],
    ['query', 'why did the build fail?', '--project', 'demo', '--project', 'nope'],
    ['log', 'show', '--project', 'nope'],
    ['rebuild', '--from-log', '--project', 'nope'],
    ['project', 'status', 'nope'],
    ['items', 'find', '--query', 'loader', '--project', 'nope'],
  ];

  it.each(PROJECT_READING.map((args) => [args.join(' '), args]))(
    'mem %s exits 1 with NOT_FOUND naming the project, and creates nothing',
    async (_name, args) => {
      const result = await mem(root, args);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('no project "nope"');
      expect(result.stderr).toContain('NOT_FOUND');
      expect(existsSync(join(root, 'log', 'nope'))).toBe(false);
      expect(existsSync(join(root, 'vault', 'nope'))).toBe(false);
    },
  );

  /** Every byte under log/: a refused write appends nothing anywhere (not even to _system). */
  const logBytes = () =>
    readdirSync(join(root, 'log'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map(
        (entry) =>
          `${entry.parentPath}/${entry.name}:${readFileSync(join(entry.parentPath, entry.name), 'hex')}`,
      )
      .sort()
      .join('\n');

  // Writes skipped the check: `vault capture --project nope` appended 0 events and exited 0,
  // `forget … --project nope` said "no line …". Each write that acts on what a project holds
  // now refuses an unknown project as a read does; only a write that may be a project's first
  // (log append, remember, items add, ref add, project add) creates it.
  const item = 'it-000000000000';
  const PROJECT_WRITING: readonly string[][] = [
    ['vault', 'capture', '--project', 'nope'],
    ['forget', 'abc123', '--project', 'nope', '--reason', 'x'],
    ['supersede', 'abc123', '--by', 'better', '--project', 'nope', '--reason', 'x'],
    ['confirm', 'abc123', '--project', 'nope'],
    ['pin', 'abc123', '--project', 'nope', '--reason', 'x'],
    ['items', 'resolve', item, '--project', 'nope', '--status', 'done'],
    ['items', 'log', item, 'a note', '--project', 'nope'],
    ['items', 'pin', item, '--project', 'nope'],
    ['review', 'scan', '--project', 'nope'],
    ['ref', 'sync', '--project', 'nope'],
    ['skill', 'retire', 'some-skill', '--project', 'nope', '--reason', 'x'],
    ['purge', 'some text', '--project', 'nope', '--reason', 'x'],
    ['ingest', '--project', 'nope'],
  ];

  it.each(PROJECT_WRITING.map((args) => [args.join(' '), args]))(
    'mem %s exits 1 with NOT_FOUND naming the project, and writes nothing',
    async (_name, args) => {
      const before = logBytes();
      const result = await mem(root, args);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('no project "nope"');
      expect(result.stderr).toContain('NOT_FOUND');
      expect(logBytes()).toBe(before);
      expect(existsSync(join(root, 'log', 'nope'))).toBe(false);
      expect(existsSync(join(root, 'vault', 'nope'))).toBe(false);
    },
    60_000,
  );

  // An unknown run id printed nothing and exited 0.
  it('mem log show --run with an unknown run id exits 1 with NOT_FOUND naming it; a known one prints its events', async () => {
    const unknown = await mem(root, ['log', 'show', '--project', 'demo', '--run', 'nosuch']);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr.trim()).toBe(`mem: no events of run "nosuch" in demo's log [NOT_FOUND]`);
    const run = (JSON.parse(readFileSync(sample, 'utf8').split('\n')[0]!) as { run_id: string })
      .run_id;
    const known = await mem(root, ['log', 'show', '--project', 'demo', '--run', run]);
    expect(known.code).toBe(0);
    expect(known.stdout.trim().split('\n').length).toBeGreaterThan(1);
  });

  // A missing --file was IO_FAILED; removing an unknown principal said "was not a member", exit 0.
  it('a file or a principal that is not there is NOT_FOUND naming it, and nothing is written', async () => {
    const missing = join(shared, 'missing.jsonl');
    const before = logBytes();
    const append = await mem(root, ['log', 'append', '--project', 'demo', '--file', missing]);
    expect(append.code).toBe(1);
    expect(append.stderr).toContain(missing);
    expect(append.stderr).toContain('[NOT_FOUND]');
    expect(logBytes()).toBe(before);
    expect((await mem(root, ['project', 'add', 'members'])).code).toBe(0);
    const registered = logBytes();
    const remove = await mem(root, ['project', 'remove-member', 'members', 'nosuch', '--json']);
    expect(remove.code).toBe(1);
    expect(JSON.parse(remove.stderr).error).toMatchObject({
      code: 'NOT_FOUND',
      details: { principal: 'nosuch' },
    });
    expect(logBytes()).toBe(registered);
  });

  it('--json names the project in the error details', async () => {
    const result = await mem(root, ['verify', '--project', 'nope', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr).error).toMatchObject({
      code: 'NOT_FOUND',
      details: { project: 'nope' },
    });
  });

  it('a project exists by its log, its standing questions, or its registration in _system', async () => {
    expect((await mem(root, ['verify', '--project', 'demo'])).code).toBe(0);
    expect((await mem(root, ['project', 'add', 'registered'])).code).toBe(0);
    expect((await mem(root, ['project', 'status', 'registered'])).code).toBe(0);
    expect((await mem(root, ['log', 'show', '--project', 'registered'])).code).toBe(0);
    mkdirSync(join(root, 'queries'), { recursive: true });
    copyFileSync(join(repo, 'queries', 'demo.yaml'), join(root, 'queries', 'asked.yaml'));
    expect((await mem(root, ['project', 'status', 'asked'])).code).toBe(0);
  }, 180_000);
});
