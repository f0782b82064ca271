import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memInProcess } from './support/mem-cli.js';

/*
 * Issue 12 §5: before capture, verify names each uncaptured edit by file and line, and a
 * rebuild refuses to overwrite it unless told to discard it — `mem` in process, real data root.
 */
const repo = join(import.meta.dirname, '..');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
const KONG =
  'Requests over 10KB failed with 413: Kong buffered the body; fixed with proxy-body-size: 0.';
const NOTE = join('vault', 'demo', 'infra-root-causes.md');
let root: string;

// In process: the cases are about what the command does, not about processes.
const mem = (args: string[]) => memInProcess(['--root', root, ...args]);

const note = () => readFileSync(join(root, NOTE), 'utf8');
let projected: string;
let edited: string;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-drift-'));
  expect((await mem(['log', 'append', '--project', 'demo', '--file', sample])).code).toBe(0);
  projected = note();
  edited = projected.replace(`- ${KONG}`, '- Kong buffered request bodies over 10KB (413).');
  expect(edited).not.toBe(projected);
  writeFileSync(join(root, NOTE), edited);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('an uncaptured vault edit', () => {
  it('mem verify reports it by file and line, with what capture would do', async () => {
    const text = await mem(['verify', '--project', 'demo']);
    expect(text.code).toBe(3);
    expect(text.stdout).toContain('demo/infra-root-causes.md line 11');
    expect(text.stdout).toContain('[line_rewritten]');

    const json = await mem(['verify', '--project', 'demo', '--json']);
    const report = JSON.parse(json.stdout) as {
      parity: { drift: { path: string; line: number; problem: string }[] };
    };
    expect(report.parity.drift).toEqual([
      expect.objectContaining({
        path: 'vault/demo/infra-root-causes.md',
        line: 11,
        problem: 'line_rewritten',
      }),
    ]);
  });

  it('mem rebuild refuses to overwrite it, naming the file, and changes nothing', async () => {
    const result = await mem(['rebuild', '--from-log', '--json']);
    expect(result.code).not.toBe(0);
    const error = (
      JSON.parse(result.stderr) as {
        error: { code: string; details: { reason: string; files: string[] } };
      }
    ).error;
    expect(error.code).toBe('CONFLICT');
    expect(error.details.reason).toBe('uncaptured_edits');
    expect(error.details.files).toEqual(['vault/demo/infra-root-causes.md']);
    expect(note()).toBe(edited);
  });

  it('mem rebuild --discard-edits overwrites it with what the log projects', async () => {
    const result = await mem(['rebuild', '--from-log', '--discard-edits']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(note()).toBe(projected);
  });

  it('once captured, mem rebuild goes ahead and keeps it', async () => {
    expect((await mem(['vault', 'capture', '--project', 'demo'])).code).toBe(0);
    const result = await mem(['rebuild', '--from-log']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(note()).toBe(edited);
  });
});
