import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memInProcess } from './support/mem-cli.js';

/*
 * `mem eval gate --split` on the committed LoCoMo file: a half runs only its own conversations
 * (by conversation id), `--conversations` a slice of it, and a split or a conversation the
 * command does not know is refused before any run.
 */
const locomo = join(import.meta.dirname, 'fixtures', 'locomo', 'locomo10.json');
let dir: string;

const mem = (...args: string[]) =>
  memInProcess(['--root', join(dir, 'root'), ...args], { cwd: dir });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mem-eval-gate-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('mem eval gate --split', () => {
  it('runs the held-out half of the conversations only', async () => {
    const result = await mem(
      'eval',
      'gate',
      '--locomo',
      locomo,
      '--split',
      'held-out',
      '--limit',
      '1',
      '--json',
    );
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      split: string;
      conversations: string[];
      questions: number;
    };
    expect(report.split).toBe('held-out');
    expect(report.conversations).toEqual(['conv-44', 'conv-47', 'conv-48', 'conv-49', 'conv-50']);
    expect(report.questions).toBe(1);
  });

  it('runs the conversations named, heuristic alone, and refuses one outside the split', async () => {
    const args = ['eval', 'gate', '--locomo', locomo, '--split', 'held-out', '--limit', '1'];
    const result = await mem(...args, '--conversations', 'conv-48', '--no-baselines', '--json');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      conversations: string[];
      questions: number;
      controllers: Record<string, unknown>;
    };
    expect(report.conversations).toEqual(['conv-48']);
    expect(report.questions).toBe(1);
    expect(Object.keys(report.controllers)).toEqual(['heuristic']);
    // The text report's legend names no baseline that did not run.
    const text = await mem(...args, '--conversations', 'conv-48', '--no-baselines');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('heuristic');
    expect(text.stdout).not.toMatch(/always|random/);
    const refused = await mem(...args, '--conversations', 'conv-26');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('conv-26 not in the held-out split');
    expect(refused.stdout).toBe('');
  });

  it('refuses an unknown split as a usage error', async () => {
    const result = await mem('eval', 'gate', '--locomo', locomo, '--split', 'test');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--split');
    expect(result.stdout).toBe('');
  });
});
