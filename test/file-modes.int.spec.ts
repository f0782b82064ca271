import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/*
 * The log and the state under `.mem/` hold transcripts, memories and token hashes: only their
 * owner may read them. The built `mem` runs under umask 000, so a mode left to the umask shows.
 */
const repo = join(import.meta.dirname, '..');
const bin = join(repo, 'packages', 'cli', 'bin', 'mem.js');
const transcript = join(
  repo,
  'test',
  'fixtures',
  'transcripts',
  'claude',
  'spotter-258c7280-subagents-agent-acompact-fffbd0.jsonl',
);
let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-modes-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function mem(args: string[]) {
  const result = spawnSync(
    '/bin/sh',
    ['-c', 'umask 000 && exec "$0" "$@"', process.execPath, bin, '--root', root, ...args],
    {
      encoding: 'utf8',
      env: { ...process.env, MEM_ROOT: '', OPENAI_BASE_URL: '' },
    },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every path under `dir` with its permission bits, not descending into `opaque` directories. */
function modes(dir: string, opaque: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string) => {
    const stat = statSync(path);
    out[relative(root, path)] = (stat.mode & 0o777).toString(8);
    if (stat.isDirectory() && !opaque.includes(relative(root, path)))
      for (const name of readdirSync(path).sort()) walk(join(path, name));
  };
  walk(dir);
  return out;
}

describe('file modes', () => {
  it('creates the log and everything under .mem/ owner-only (0600 files, 0700 directories), whatever the umask', () => {
    mkdirSync(join(root, 'queries'));
    mkdirSync(join(root, 'sessions'));
    copyFileSync(transcript, join(root, 'sessions', 'session.jsonl'));
    writeFileSync(
      join(root, 'queries', 'demo.yaml'),
      'project: demo\nsources:\n  - claude:../sessions\nqueries:\n  - id: bugs\n    question: What bugs or failures were found, and how were they fixed?\n',
    );
    const ingest = mem(['ingest', '--project', 'demo']);
    expect(ingest.stderr).toBe('');
    expect(ingest.code).toBe(0);
    expect(mem(['principal', 'add', 'me']).code).toBe(0);

    const found = { ...modes(join(root, 'log')), ...modes(join(root, '.mem'), ['.mem/pg']) };
    // The ones whose creation is the point, so that a rename cannot quietly drop them from the walk.
    for (const path of [
      'log',
      'log/demo',
      'log/demo/000001.jsonl',
      'log/_system/000001.jsonl',
      '.mem',
      '.mem/items.sqlite',
      '.mem/pg',
      '.mem/projections.lock',
    ]) {
      expect(found, path).toHaveProperty([path]);
    }
    expect(Object.keys(found).some((path) => path.startsWith('.mem/cache/embeddings/'))).toBe(true);
    const loose = Object.entries(found).filter(
      ([path, mode]) => mode !== (statSync(join(root, path)).isDirectory() ? '700' : '600'),
    );
    expect(Object.fromEntries(loose)).toEqual({});
  });
});
