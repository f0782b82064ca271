import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/*
 * Issue 12 §5: a person's edit of an L1 note becomes events through the built `mem` in real
 * processes on a real data root, and a rebuild from the log alone writes the note they left.
 */
const repo = join(import.meta.dirname, '..');
const bin = join(repo, 'packages', 'cli', 'bin', 'mem.js');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
const KONG =
  'Requests over 10KB failed with 413: Kong buffered the body; fixed with proxy-body-size: 0.';
const PG =
  'CI flake: pg container raced its volume mount; fixed with a pg_isready readiness probe.';
const NOTE = join('vault', 'demo', 'infra-root-causes.md');
const roots: string[] = [];
let root: string;

function freshRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mem-capture-'));
  roots.push(dir);
  return dir;
}

function mem(args: string[], at = root) {
  const result = spawnSync(process.execPath, [bin, '--root', at, ...args], {
    encoding: 'utf8',
    env: { ...process.env, MEM_ROOT: '' },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const logText = (at = root) =>
  readdirSync(join(at, 'log', 'demo'))
    .sort()
    .map((segment) => readFileSync(join(at, 'log', 'demo', segment), 'utf8'))
    .join('');
const note = (at = root) => readFileSync(join(at, NOTE), 'utf8');

/** The L1 note with the pg line (and its provenance line) deleted and the Kong line rewritten. */
function editNote(): string {
  const lines = note().split('\n');
  const pg = lines.findIndex((line) => line.startsWith(`- ${PG}`));
  expect(pg).toBeGreaterThan(0);
  lines.splice(pg, 2);
  const edited = lines
    .join('\n')
    .replace(`- ${KONG}`, '- Requests over 10KB failed with 413 because Kong buffered the body.');
  expect(edited).not.toBe(note());
  writeFileSync(join(root, NOTE), edited);
  return edited;
}

interface CaptureOut {
  dry_run: boolean;
  events: { kind: string; block: string; seq: number | null }[];
  findings: { path: string; line: number; problem: string }[];
}

function capture(extra: string[] = []) {
  const result = mem(['vault', 'capture', '--project', 'demo', '--json', ...extra]);
  return { ...result, out: result.code === 0 ? (JSON.parse(result.stdout) as CaptureOut) : null };
}

beforeEach(() => {
  root = freshRoot();
  expect(mem(['log', 'append', '--project', 'demo', '--file', sample]).code).toBe(0);
});
afterEach(() => {
  for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('mem vault capture', () => {
  it('--dry-run prints the plan and writes nothing', () => {
    editNote();
    const before = logText();
    const { code, out, stderr } = capture(['--dry-run']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(out!.dry_run).toBe(true);
    expect(out!.events.map((e) => [e.kind, e.seq])).toEqual([
      ['forget', null],
      ['supersede', null],
    ]);
    expect(logText()).toBe(before);
  });

  it('turns a deleted line into forgotten and a rewritten one into superseded, and a rebuild elsewhere writes the edited note byte for byte', () => {
    const edited = editNote();
    const { code, out, stderr } = capture();
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(out!.findings).toEqual([]);
    const appended = logText()
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            type: string;
            reason?: string;
            text?: string;
            writer?: { principal?: string };
          },
      )
      .filter((e) => e.type === 'forgotten' || e.type === 'superseded');
    expect(appended.map((e) => [e.type, e.reason])).toEqual([
      ['forgotten', 'edited in the vault'],
      ['superseded', 'edited in the vault'],
    ]);
    expect(appended[1]!.text).toBe(
      'Requests over 10KB failed with 413 because Kong buffered the body.',
    );
    // One capture is one batch: consecutive seqs under one timestamp.
    const batch = appended as unknown as { seq: number; ts: string }[];
    expect(batch[1]!.seq).toBe(batch[0]!.seq + 1);
    expect(batch[1]!.ts).toBe(batch[0]!.ts);
    expect(note()).toBe(edited);
    expect(mem(['verify', '--project', 'demo']).code).toBe(0);

    const elsewhere = freshRoot();
    cpSync(join(root, 'log'), join(elsewhere, 'log'), { recursive: true });
    const rebuilt = mem(['rebuild', '--from-log'], elsewhere);
    expect(rebuilt.stderr).toBe('');
    expect(rebuilt.code).toBe(0);
    expect(note(elsewhere)).toBe(edited);

    expect(capture().out!.events).toEqual([]);
  });

  it('reports an edit back to a forgotten text as FORGOTTEN and appends nothing for it', () => {
    const forgot = mem(['forget', PG, '--project', 'demo', '--reason', 'reverted']);
    expect(forgot.code).toBe(0);
    writeFileSync(join(root, NOTE), note().replace(`- ${KONG}`, `- ${PG}`));
    const before = logText();
    const { out } = capture();
    expect(out!.events).toEqual([]);
    expect(out!.findings).toEqual([expect.objectContaining({ problem: 'forgotten', line: 11 })]);
    expect(logText()).toBe(before);
  });

  it('appends nothing when one change of the capture is refused: the capture is one batch', () => {
    // The pg line deleted (forgotten) and the Kong line rewritten to the pg line's text: the
    // rewrite repeats what the same capture forgets, so the whole capture is FORGOTTEN.
    const lines = note().split('\n');
    const pg = lines.findIndex((line) => line.startsWith(`- ${PG}`));
    lines.splice(pg, 2);
    writeFileSync(join(root, NOTE), lines.join('\n').replace(`- ${KONG}`, `- ${PG}`));
    const before = logText();
    const result = mem(['vault', 'capture', '--project', 'demo', '--json']);
    expect(result.code).toBe(1);
    expect((JSON.parse(result.stderr) as { error: { code: string } }).error.code).toBe('FORGOTTEN');
    expect(logText()).toBe(before);
  });

  describe('refuses an untrusted vault file, naming it, and appends nothing', () => {
    const refusal = (reason: string) => {
      const before = logText();
      const result = mem(['vault', 'capture', '--project', 'demo', '--json']);
      expect(result.code).not.toBe(0);
      const error = (
        JSON.parse(result.stderr) as {
          error: { code: string; details: { path: string; reason: string } };
        }
      ).error;
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.details.reason).toBe(reason);
      expect(logText()).toBe(before);
      return error;
    };

    it('a note that is a symlink out of the vault', () => {
      editNote();
      const outside = join(freshRoot(), 'elsewhere.md');
      writeFileSync(outside, '# not in the vault\n');
      symlinkSync(outside, join(root, 'vault', 'demo', 'leak.md'));
      expect(refusal('symlink').details.path).toBe('demo/leak.md');
    });

    it('a note that is not valid UTF-8', () => {
      editNote();
      writeFileSync(
        join(root, 'vault', 'demo', 'bad.md'),
        Buffer.from([0x2d, 0x20, 0xc3, 0x28, 0x0a]),
      );
      expect(refusal('invalid_utf8').details.path).toBe('demo/bad.md');
    });

    it('a note over the size limit', () => {
      editNote();
      writeFileSync(join(root, NOTE), note() + 'x'.repeat((1 << 20) + 1));
      expect(refusal('too_large').details.path).toBe('demo/infra-root-causes.md');
    });
  });
});
