import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSha256 } from '@mem/core';

/*
 * Issue 12: superseding an L1 line reaches its copies as forgetting does. On a copy of the
 * shipped demo log, the L2 synthesis holds "[bugs-and-root-causes] <the L1 line>"; after
 * `mem supersede` of the L1 line, that copy is superseded in the same batch by
 * "[bugs-and-root-causes] <the new text>", and no read path answers with the old text.
 */
const repo = join(import.meta.dirname, '..');
const bin = join(repo, 'packages', 'cli', 'bin', 'mem.js');
const OLD =
  "LiveView test: sandbox isolation (Project not found): LiveView process can't access test sandbox checkout. Fixed by using `Sandbox.mode(Repo, {:shared, self()})` instead of just `Sandbox.checkout`.";
const COPY = `[bugs-and-root-causes] ${OLD}`;
const NEW =
  'LiveView test sandbox isolation: fixed by starting the owner with Sandbox.start_owner! and allowing the LiveView pid.';
let root: string;

function mem(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, '--root', root, ...args], {
    encoding: 'utf8',
    env: { ...process.env, MEM_ROOT: '' },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function events(): Record<string, unknown>[] {
  const dir = join(root, 'log', 'demo');
  return readdirSync(dir)
    .sort()
    .flatMap((segment) => readFileSync(join(dir, segment), 'utf8').trim().split('\n'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-supersede-copies-'));
  cpSync(join(repo, 'log', 'demo'), join(root, 'log', 'demo'), { recursive: true });
  // The query's sources, where the log's lines cite them: a supersede reads the cited spans.
  mkdirSync(join(root, 'queries'));
  writeFileSync(
    join(root, 'queries', 'demo.yaml'),
    readFileSync(join(repo, 'queries', 'demo.yaml'), 'utf8').replaceAll(
      ':../test/',
      `:${join(repo, 'test')}/`,
    ),
  );
  for (const only of ['sqlite', 'vault']) {
    const rebuilt = mem('rebuild', '--from-log', '--only', only);
    expect(rebuilt.stderr).toBe('');
    expect(rebuilt.code).toBe(0);
  }
  const superseded = mem(
    'supersede',
    contentSha256(OLD).slice(0, 10),
    '--project',
    'demo',
    '--by',
    NEW,
    '--reason',
    'the shared sandbox was the wrong fix',
    '--json',
  );
  expect(superseded.stderr).toBe('');
  expect(superseded.code).toBe(0);
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('mem supersede reaches the copies of a line', () => {
  it('supersedes the L2 copy by the copy of the new text, in the same batch as the line', () => {
    const tail = events().slice(-2);
    expect(tail.map((e) => [e.type, e.target, e.after_sha256, e.text, e.reason])).toEqual([
      [
        'superseded',
        contentSha256(OLD),
        contentSha256(NEW),
        NEW,
        'the shared sandbox was the wrong fix',
      ],
      [
        'superseded',
        contentSha256(COPY),
        contentSha256(`[bugs-and-root-causes] ${NEW}`),
        `[bugs-and-root-causes] ${NEW}`,
        'the shared sandbox was the wrong fix',
      ],
    ]);
    // One append: the two events share the batch's writer and timestamp, seqs back to back.
    expect(tail[1]!.seq).toBe((tail[0]!.seq as number) + 1);
    expect(tail[1]!.ts).toBe(tail[0]!.ts);
  });

  it("confirms the copy's replacement against the copy's own cited spans, as the line's", () => {
    // Without `cited` on the copy's event, its replacement was stale from birth wherever the
    // line's replacement was not (the L2 copy cites its spans too).
    const [line, copy] = events().slice(-2) as { cited?: { chunk: string; digest: string }[] }[];
    expect(line!.cited?.length).toBeGreaterThan(0);
    expect(copy!.cited?.length).toBeGreaterThan(0);
  });

  it('shows the copy superseded in its history', () => {
    const history = mem('history', contentSha256(COPY).slice(0, 10), '--project', 'demo', '--json');
    expect(history.code).toBe(0);
    const out = JSON.parse(history.stdout) as {
      entries: { type: string; after_sha256: string | null }[];
    };
    expect(out.entries.map((e) => [e.type, e.after_sha256])).toEqual([
      ['superseded', contentSha256(`[bugs-and-root-causes] ${NEW}`)],
    ]);
  });

  it('leaves the old text out of mem query and shows the new copy in the L2 note', () => {
    const query = mem('query', 'sandbox isolation LiveView', '--project', 'demo', '--json');
    expect(query.code).toBe(0);
    const texts = (JSON.parse(query.stdout) as { results: { text: string }[] }).results.map(
      (r) => r.text,
    );
    expect(texts.some((text) => text.includes('Sandbox.mode(Repo'))).toBe(false);
    const index = readFileSync(join(root, 'vault', 'demo', 'index.md'), 'utf8');
    expect(index).toContain(`- [bugs-and-root-causes] ${NEW} ^${contentSha256(COPY).slice(0, 8)}`);
    expect(index).not.toContain('Sandbox.mode(Repo');
  });
});
