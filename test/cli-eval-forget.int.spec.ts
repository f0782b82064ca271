import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memBin, hermeticEnv, memInProcess } from './support/mem-cli.js';

/*
 * `mem eval forget` (issue 12, the scorecard) run as the built bin, on a real Claude Code
 * transcript: every attack is a real process (CLI), a real HTTP request (`mem serve`) and a
 * real stdio MCP session (`mem mcp`) against the scorecard's own scratch data root.
 */
const transcript = join(
  import.meta.dirname,
  'fixtures',
  'transcripts',
  'claude',
  'spotter-258c7280-subagents-agent-acompact-fffbd0.jsonl',
);

/*
 * Known failing today: none. `leak_search` passed once a forgotten line's text left the memory
 * rows holding it (item store, pgvector, vault state) and the embedded cluster's old row
 * versions and WAL; a copy anywhere but the log turns this test red again.
 */
const KNOWN_FAILING: string[] = [];

function mem(args: string[]) {
  const result = spawnSync(process.execPath, [memBin, ...args], {
    encoding: 'utf8',
    env: hermeticEnv(),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('mem eval forget', () => {
  it('scores every obligation with its evidence; all pass but the known failing set', () => {
    const run = mem(['eval', 'forget', '--transcript', transcript, '--json']);
    expect(run.stdout, run.stderr).not.toBe('');
    const report = JSON.parse(run.stdout) as {
      fact_sha256: string | null;
      obligations: { name: string; pass: boolean; evidence: string }[];
      passed: number;
      total: number;
    };
    expect(report.fact_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(report.total).toBe(11);
    for (const o of report.obligations) expect(o.evidence).not.toBe('');
    const failing = report.obligations.filter((o) => !o.pass).map((o) => o.name);
    expect(failing, JSON.stringify(report.obligations, null, 2)).toEqual(KNOWN_FAILING);
    // A failed obligation is a failed check: exit 3 after the report.
    expect(run.code).toBe(KNOWN_FAILING.length === 0 ? 0 : 3);
    // The report names the line by hash; the forgotten text never reaches stdout.
    expect(run.stdout).not.toContain('Sandbox');
  }, 600_000);

  // In process: a refusal of an argument, before any scratch root or process exists.
  it('refuses a transcript that is not there, NOT_FOUND naming it', async () => {
    const run = await memInProcess([
      'eval',
      'forget',
      '--transcript',
      '/nonexistent/t.jsonl',
      '--json',
    ]);
    expect(run.code).toBe(1);
    const error = (JSON.parse(run.stderr) as { error: { code: string; details: unknown } }).error;
    expect(error).toMatchObject({ code: 'NOT_FOUND', details: { field: 'transcript' } });
  });
});
