import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hermeticEnv } from './support/mem-cli.js';

/*
 * Issue 11, section 1: a source that had lines but yielded no record is loud. Through the built
 * `mem` binary: a file of lines the Claude reader does not know (a Codex rollout named as a
 * `claude:` source) must not be reported as "nothing new — every record was read before".
 */
const bin = join(import.meta.dirname, '..', 'packages', 'cli', 'bin', 'mem.js');
let root: string;

function mem(args: string[]) {
  const result = spawnSync(process.execPath, [bin, '--root', root, ...args], {
    encoding: 'utf8',
    env: hermeticEnv(),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-unreadable-'));
  const lines = [
    { type: 'session_meta', payload: { id: 's', cwd: '/w' } },
    {
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] },
    },
    {
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'hi' }],
      },
    },
    { type: 'event_msg', payload: { type: 'token_count' } },
  ];
  writeFileSync(join(root, 'rollout.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  mkdirSync(join(root, 'queries'));
  writeFileSync(
    join(root, 'queries', 'demo.yaml'),
    `project: demo\nsources:\n  - claude:${join(root, 'rollout.jsonl')}\nqueries:\n  - id: bugs\n    question: What bugs were found?\n`,
  );
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('mem ingest over a source it could not read', () => {
  it('says the source yielded no record from its lines and names the commonest unknown types', () => {
    const run = mem(['ingest', '--project', 'demo']);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/was read before/u);
    const all = run.stdout + run.stderr;
    expect(all).toContain(`claude:${join(root, 'rollout.jsonl')}: no record from 4 lines`);
    expect(all).toContain('unknown:response_item 2');
    expect(all).toContain('unknown:event_msg 1');
  });

  it('--json carries the unknown count and its commonest kinds per source', () => {
    const run = mem(['ingest', '--project', 'demo', '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      sources: { entry: string; stats: { records: Record<string, number>; unknown: unknown } }[];
    };
    expect(report.sources[0]?.stats.unknown).toEqual({
      count: 4,
      top: [
        { count: 2, kind: 'unknown:response_item' },
        { count: 1, kind: 'unknown:event_msg' },
        { count: 1, kind: 'unknown:session_meta' },
      ],
    });
  });

  it('a source that read no file says so and why, never "read before" (Codex sessions of another cwd)', () => {
    const sessions = join(root, 'codex', '2025', '09');
    mkdirSync(sessions, { recursive: true });
    writeFileSync(
      join(sessions, 'rollout-1.jsonl'),
      JSON.stringify({ type: 'session_meta', payload: { id: 's', cwd: '/home/me/other' } }) + '\n',
    );
    writeFileSync(
      join(root, 'queries', 'demo.yaml'),
      `project: demo\nsources:\n  - source: codex:${join(root, 'codex')}\n    cwd: /home/me/proj\n  - claude:${join(root, 'queries')}\nqueries:\n  - id: bugs\n    question: What bugs were found?\n`,
    );
    const run = mem(['ingest', '--project', 'demo']);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/was read before/u);
    const all = run.stdout + run.stderr;
    expect(all).toContain(
      `codex:${join(root, 'codex')}: no file read (1 file skipped: other-cwd 1)`,
    );
    expect(all).toContain(
      `claude:${join(root, 'queries')}: no file read (no transcript file found)`,
    );
    expect(all).toContain('nothing read — 2 of 2 sources yielded no record');
  });
});
