import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { splitMemoryLines } from '@mem/core';

/*
 * Issue 12: the gated extractor never emits a forgotten line. A second standing query reads the
 * same real transcripts from scratch (a re-ingest that re-gates every chunk) and must drop the
 * line, counting it in its run_end.
 */
const repo = join(import.meta.dirname, '..');
const bin = join(repo, 'packages', 'cli', 'bin', 'mem.js');
const QUESTION = 'Which tests failed and how were they fixed?';
let root: string;

function mem(args: string[]) {
  const result = spawnSync(process.execPath, [bin, '--root', root, ...args], {
    encoding: 'utf8',
    env: { ...process.env, MEM_ROOT: '' },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function queries(ids: string[]): void {
  writeFileSync(
    join(root, 'queries', 'demo.yaml'),
    `project: demo\nsources:\n  - claude:../claude\nqueries:\n${ids.map((id) => `  - id: ${id}\n    question: ${QUESTION}\n`).join('')}`,
  );
}

function events(): Record<string, unknown>[] {
  const shown = mem(['log', 'show', '--project', 'demo']);
  expect(shown.code).toBe(0);
  return shown.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-forget-ingest-'));
  mkdirSync(join(root, 'queries'));
  cpSync(join(repo, 'test', 'fixtures', 'transcripts', 'claude'), join(root, 'claude'), {
    recursive: true,
  });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('re-ingesting the transcript a forgotten line came from', () => {
  it('drops the line from every memory the new run writes and counts it in run_end', () => {
    queries(['tests']);
    expect(mem(['ingest', '--project', 'demo']).code).toBe(0);
    const first = events()
      .filter((e) => e['type'] === 'memory')
      .at(-1) as { text: string } | undefined;
    expect(first).toBeDefined();
    const line = splitMemoryLines(first!.text).find((l) => l.includes('Sandbox.mode'))!;
    expect(line).toBeDefined();
    const forgot = mem([
      'forget',
      line,
      '--project',
      'demo',
      '--reason',
      'the sandbox setup changed',
    ]);
    expect(forgot.stderr).toBe('');
    expect(forgot.code).toBe(0);

    queries(['tests', 'tests-again']);
    const again = mem(['ingest', '--project', 'demo']);
    expect(again.stderr).not.toContain('FORGOTTEN');
    expect(again.code).toBe(0);
    const log = events();
    const rerun = log.filter(
      (e) => typeof e['run_id'] === 'string' && e['run_id'].startsWith('tests-again'),
    );
    const memories = rerun.filter((e) => e['type'] === 'memory') as { text: string }[];
    expect(memories.length).toBeGreaterThan(0);
    for (const memory of memories) expect(splitMemoryLines(memory.text)).not.toContain(line);
    expect(rerun.find((e) => e['type'] === 'run_end')).toMatchObject({ lines_forgotten: 1 });
    // Two full ingests of real transcripts on a shared machine.
  }, 400_000);
});
