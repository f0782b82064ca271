import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memProcess } from './support/mem-cli.js';

const repo = join(import.meta.dirname, '..');

// The same tsc failure as pi-mono-large-session hit it (packages/coding-agent, `npm run check`),
// as another session's CI log prints it: another checkout, other line numbers, a timestamp.
const RAW_SAME = [
  '2026-09-02T10:00:01.123Z > @mariozechner/pi-coding-agent@0.9.1 check',
  "/home/runner/work/pi-mono/packages/coding-agent/src/theme/theme.ts(7,3): error TS2305: Module '\"@mariozechner/pi-tui\"' has no exported member 'EditorTheme'.",
  'Command exited with code 2',
].join('\n');
const RAW_OTHER =
  "src/theme/theme.ts(7,3): error TS2305: Module '\"@mariozechner/pi-tui\"' has no exported member 'ListTheme'.";

interface Answer {
  signatures: {
    signature: string;
    seen: {
      project: string;
      line: { text: string };
      seen_count: number;
      citations: { level: string; source: string | null }[];
    }[];
  }[];
}

describe('mem signature: the exact tier over a real transcript', () => {
  let root: string;
  const env = () => ({ MEM_ROOT: root });

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'mem-signature-'));
    mkdirSync(join(root, 'queries'));
    mkdirSync(join(root, 'pi'));
    copyFileSync(
      join(repo, 'test', 'fixtures', 'transcripts', 'pi', 'pi-mono-large-session.jsonl'),
      join(root, 'pi', 'pi-mono-large-session.jsonl'),
    );
    writeFileSync(
      join(root, 'queries', 'demo.yaml'),
      'project: demo\nsources:\n  - pi:../pi\nqueries:\n  - id: tool-failures\n    question: Which tool calls or commands failed, with what error, and what was the working form?\n',
    );
    const ingest = memProcess(['ingest', '--project', 'demo'], { env: env(), cwd: root });
    expect(ingest.stderr).toBe('');
    expect(ingest.code).toBe(0);
  }, 600_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('finds the line learned from a failure by the raw log of the same failure, with its L0 citation', () => {
    const run = memProcess(['signature', '-', '--project', 'demo', '--json'], {
      env: env(),
      cwd: root,
      input: RAW_SAME,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout) as Answer;
    const hit = answer.signatures.find((s) => s.signature.includes('TS2305'))!;
    expect(hit.seen).toHaveLength(1);
    expect(hit.seen[0]!.project).toBe('demo');
    expect(hit.seen[0]!.line.text).toMatch(/build is failing/);
    expect(hit.seen[0]!.citations).toContainEqual(
      expect.objectContaining({ level: 'L0', source: 'pi:pi-mono-large-session' }),
    );
  });

  it('finds nothing for a different failure, and reads a file argument the same as stdin', () => {
    const file = join(root, 'other.log');
    writeFileSync(file, RAW_OTHER);
    const run = memProcess(['signature', file, '--project', 'demo', '--json'], {
      env: env(),
      cwd: root,
    });
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout) as Answer;
    expect(answer.signatures).toHaveLength(1);
    expect(answer.signatures[0]!.seen).toEqual([]);
  });

  it('refuses a missing file by name, changing nothing', () => {
    const run = memProcess(['signature', join(root, 'absent.log'), '--project', 'demo'], {
      env: env(),
      cwd: root,
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/absent\.log.*NOT_FOUND/);
  });
});
