import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendedInProcess, memInProcess } from './support/mem-cli.js';

/*
 * A flag typed wrong reads as the flag: `mem: --as-of: seq 9 is past the head … [INVALID_INPUT]`,
 * never the operation and field the flag feeds (`--as-of: query: as_of: …`), never "expected
 * number" for a negative number, and every refused flag carries its code, the hand-written
 * commands' own checks (`--port`, `--from-seq`, `--only`) included. Exit 2, and the log is
 * byte for byte what it was.
 */
const sample = join(import.meta.dirname, 'fixtures', 'extraction-runs.jsonl');
/** A directory where a file is expected. */
const aDirectory = join(import.meta.dirname, 'fixtures');
let base: string;
let root: string;
const logFile = () => readFileSync(join(root, 'log', 'demo', '000001.jsonl'));

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'mem-flag-errors-'));
  root = join(base, 'root');
  await appendedInProcess(root, sample);
}, 180_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

const CASES: readonly [string[], string][] = [
  [
    ['query', 'why did the build fail?', '--project', 'demo', '--as-of', '999999'],
    "mem: --as-of: seq 999999 is past the head of demo's log",
  ],
  [
    ['query', 'why did the build fail?', '--project', 'demo', '--levels', 'L1,L9'],
    'mem: --levels: expected one of "L0", "L1", "L2", "R", "I", got "L9" [INVALID_INPUT]',
  ],
  [
    ['query', 'why did the build fail?', '--project', 'demo', '--limit', '-1'],
    'mem: --limit: expected at least 1, got -1 [INVALID_INPUT]',
  ],
  [
    ['query', 'why did the build fail?', '--project', 'demo', '--limit', '5.5'],
    'mem: --limit: expected int, got 5.5 [INVALID_INPUT]',
  ],
  [
    ['context', '--project', 'demo'],
    'mem: context: expected at least one of --tool, --task, --signature-source [INVALID_INPUT]',
  ],
  [
    ['context', '--project', 'demo', '--task', 'x', '--budget', '-5'],
    'mem: --budget: expected at least 1, got -5 [INVALID_INPUT]',
  ],
  [
    ['log', 'show', '--project', 'demo', '--from-seq', 'abc'],
    'mem: --from-seq: expected a positive integer, got "abc" [INVALID_INPUT]',
  ],
  [
    ['rebuild', '--from-log', '--only', 'mysql'],
    'mem: --only: expected one of sqlite, vault, pgvector, got "mysql" [INVALID_INPUT]',
  ],
  [['serve', '--port', '99999'], 'mem: --port: expected 0-65535, got "99999" [INVALID_INPUT]'],
  // The hand-written commands' INVALID_INPUT exited 1 where a registry command's exits 2: one
  // rule now, by the error's code (exit.ts).
  [['log', 'append', '--project', 'demo'], 'mem: stdin: no events to append'],
  [['eval', 'gate', '--locomo', sample], `mem: ${sample}: not LoCoMo JSON`],
  // A directory where a file goes: IO_FAILED (exit 1) before, for log append and eval gate.
  [
    ['log', 'append', '--project', 'demo', '--file', aDirectory],
    `mem: --file: cannot read ${aDirectory}`,
  ],
  [['eval', 'gate', '--locomo', aDirectory], `mem: ${aDirectory}: a directory, expected`],
  // Nothing piped in said "at least 1 character": now that stdin is empty, and how to give it.
  [['signature', '-'], 'mem: the <source> argument: stdin is empty; pipe the text in'],
  // A positional argument is named as the usage line shows it: `query: query: …` before.
  [
    ['query', '', '--project', 'demo'],
    'mem: the <query> argument: expected at least 1 character, got an empty string [INVALID_INPUT]',
  ],
  [
    ['context', '--project', 'demo', '--signature-source', '-'],
    'mem: --signature-source: stdin is empty; pipe the text in',
  ],
];

describe('a flag typed wrong', () => {
  it.each(CASES.map(([args, said]) => [args.join(' '), args, said] as const))(
    'mem %s exits 2 naming the flag and its code, and writes nothing',
    async (_name, args, said) => {
      const before = logFile();
      const result = await memInProcess(['--root', root, ...args], { cwd: tmpdir() });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(said);
      expect(result.stderr).toContain('[INVALID_INPUT]');
      expect(result.stderr).not.toMatch(/--[a-z-]+: [a-z_]+: [a-z_]+(\[\d+\])?: /);
      expect(result.stderr).not.toMatch(/--[a-z-]+(\[\d+\])?: (query|context): /);
      expect(logFile().equals(before)).toBe(true);
    },
    60_000,
  );
});

// Stop-30 review, finding 4: a --file that is not there was "cannot read /nope.jsonl: ENOENT"
// without the flag, where every other refused flag is named.
describe('a --file that is not there', () => {
  it.each(
    [
      ['items', 'add', '--project', 'demo', '--file'],
      ['log', 'append', '--project', 'demo', '--file'],
    ].map((args) => [args.join(' '), args] as const),
  )('mem %s <missing> names the flag, NOT_FOUND, and writes nothing', async (_name, args) => {
    const missing = join(base, 'nope.jsonl');
    const before = logFile();
    const result = await memInProcess(['--root', root, ...args, missing], { cwd: tmpdir() });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`mem: --file: cannot read ${missing}: ENOENT`);
    expect(result.stderr).toContain('[NOT_FOUND]');
    expect(logFile().equals(before)).toBe(true);
  });
});
