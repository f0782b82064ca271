import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memProcess } from './support/mem-cli.js';

const transcripts = join(import.meta.dirname, 'fixtures', 'transcripts');

describe('mem eval signatures on the shipped transcripts', () => {
  it('counts failing tool results and signatures, and no boilerplate line recurs across sessions', () => {
    const run = memProcess(
      [
        'eval',
        'signatures',
        `claude:${join(transcripts, 'claude')}`,
        `pi:${join(transcripts, 'pi')}`,
        '--json',
      ],
      { cwd: transcripts },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as Record<string, unknown>;
    // Measured (issue 14 §3): exit-only results ("Command exited with code 1", "(no output)")
    // sign nothing; before the boilerplate rules, five such lines recurred across sessions.
    expect(report).toMatchObject({
      sessions: 10,
      tool_results: 1186,
      failing_results: 73,
      signed_results: 48,
      distinct_signatures: 55,
      recurring_across_sessions: 0,
    });
  });

  it('refuses a source without a kind as a usage error, reading nothing', () => {
    const run = memProcess(['eval', 'signatures', transcripts], { cwd: transcripts });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/expected KIND:PATH/);
  });
});
