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
import { memInProcess, memProcess } from './support/mem-cli.js';

/*
 * Issue 12 §5: a person's edit of an L1 note becomes events through `mem` on a real data root,
 * and a rebuild from the log alone writes the note they left. In process: the cases are about
 * the plan, the events and the refusals, not about processes; the refused batch runs `vault
 * capture` as the built bin, the exit status a shell sees.
 */
const repo = join(import.meta.dirname, '..');
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

const mem = (args: string[], at = root) => memInProcess(['--root', at, ...args]);

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

async function capture(extra: string[] = []) {
  const result = await mem(['vault', 'capture', '--project', 'demo', '--json', ...extra]);
  return { ...result, out: result.code === 0 ? (JSON.parse(result.stdout) as CaptureOut) : null };
}

beforeEach(async () => {
  root = freshRoot();
  expect((await mem(['log', 'append', '--project', 'demo', '--file', sample])).code).toBe(0);
});
afterEach(() => {
  for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('mem vault capture', () => {
  it('--dry-run prints the plan and writes nothing', async () => {
    editNote();
    const before = logText();
    const { code, out, stderr } = await capture(['--dry-run']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(out!.dry_run).toBe(true);
    expect(out!.events.map((e) => [e.kind, e.seq])).toEqual([
      ['forget', null],
      ['supersede', null],
    ]);
    expect(logText()).toBe(before);
  });

  it('turns a deleted line into forgotten and a rewritten one into superseded, and a rebuild elsewhere writes the edited note byte for byte', async () => {
    const edited = editNote();
    const { code, out, stderr } = await capture();
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
    expect((await mem(['verify', '--project', 'demo'])).code).toBe(0);

    const elsewhere = freshRoot();
    cpSync(join(root, 'log'), join(elsewhere, 'log'), { recursive: true });
    const rebuilt = await mem(['rebuild', '--from-log'], elsewhere);
    expect(rebuilt.stderr).toBe('');
    expect(rebuilt.code).toBe(0);
    expect(note(elsewhere)).toBe(edited);

    expect((await capture()).out!.events).toEqual([]);
  });

  it('reports an edit back to a forgotten text as FORGOTTEN and appends nothing for it', async () => {
    const forgot = await mem(['forget', PG, '--project', 'demo', '--reason', 'reverted']);
    expect(forgot.code).toBe(0);
    writeFileSync(join(root, NOTE), note().replace(`- ${KONG}`, `- ${PG}`));
    const before = logText();
    const { out } = await capture();
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
    // The built bin in a real process: the exit status a shell sees for a refused capture.
    const result = memProcess(['--root', root, 'vault', 'capture', '--project', 'demo', '--json']);
    expect(result.code).toBe(1);
    expect((JSON.parse(result.stderr) as { error: { code: string } }).error.code).toBe('FORGOTTEN');
    expect(logText()).toBe(before);
  });

  describe('refuses an untrusted vault file, naming it, and appends nothing', () => {
    const refusal = async (reason: string) => {
      const before = logText();
      const result = await mem(['vault', 'capture', '--project', 'demo', '--json']);
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

    it('a note that is a symlink out of the vault', async () => {
      editNote();
      const outside = join(freshRoot(), 'elsewhere.md');
      writeFileSync(outside, '# not in the vault\n');
      symlinkSync(outside, join(root, 'vault', 'demo', 'leak.md'));
      expect((await refusal('symlink')).details.path).toBe('demo/leak.md');
    });

    it('a note that is not valid UTF-8', async () => {
      editNote();
      writeFileSync(
        join(root, 'vault', 'demo', 'bad.md'),
        Buffer.from([0x2d, 0x20, 0xc3, 0x28, 0x0a]),
      );
      expect((await refusal('invalid_utf8')).details.path).toBe('demo/bad.md');
    });

    it('a note over the size limit', async () => {
      editNote();
      writeFileSync(join(root, NOTE), note() + 'x'.repeat((1 << 20) + 1));
      expect((await refusal('too_large')).details.path).toBe('demo/infra-root-causes.md');
    });
  });
});
