import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSha256 } from '@mem/core';
import { memoryPayloads } from './api/support.js';
import { appendedInProcess, memProcess } from './support/mem-cli.js';

/*
 * Issue 13 §4/§5: a line held back for freshness never takes its duplicates with it. Two notes
 * hold one finding: the shorter, newer line ranks first, and the cited session it was drawn
 * from is gone (unknown: held back); the longer line cites no session, so nothing can make it
 * stale. Folded into the first, it used to leave the answer with it — the caller saw neither.
 */
let root: string;
const STALE = 'The deploy script waits on the cache warm-up';
const FRESH = 'The deploy script waits on the cache warm-up before tagging it';

interface Answer {
  results: { kind: string; sha256: string; text: string; folded?: { sha256: string }[] }[];
  freshness_warnings: { sha256: string; state: string; delivered: boolean }[];
}

function query(...flags: string[]): Answer {
  const run = memProcess([
    '--root',
    root,
    'query',
    'deploy script cache warm-up',
    '--project',
    'demo',
    ...flags,
    '--json',
  ]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Answer;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-stale-fold-'));
  // The project is judged: its standing queries read a session directory on this disk.
  mkdirSync(join(root, 'queries'));
  mkdirSync(join(root, 'sessions', 'claude'), { recursive: true });
  writeFileSync(
    join(root, 'queries', 'demo.yaml'),
    'project: demo\nsources:\n  - claude:../sessions/claude\nqueries:\n  - id: bugs\n    question: What broke?\n  - id: cache\n    question: What about the cache?\n',
  );
  // The fresh line's chunk names no span: it cites nothing a rewrite could change.
  const fresh = memoryPayloads('run-fresh', `Seen: ${FRESH}`, FRESH, 'cache');
  const unjudged = fresh.payloads.map((p) => (p.type === 'chunk' ? { ...p, span: null } : p));
  // The stale line's chunk is of claude:run-stale, a session this disk does not hold.
  const stale = memoryPayloads('run-stale', `Seen: ${STALE}`, STALE, 'bugs');
  const file = join(root, 'payloads.jsonl');
  writeFileSync(
    file,
    [...unjudged, ...stale.payloads].map((p) => JSON.stringify(p)).join('\n') + '\n',
  );
  await appendedInProcess(root, file);
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('mem query: a held-back line and its duplicates', () => {
  it('folds the fresh duplicate into the stale line it says the same as (the set-up holds)', () => {
    const all = query('--include-stale');
    const head = all.results.find((r) => r.sha256 === contentSha256(STALE));
    expect(head?.folded?.map((f) => f.sha256)).toEqual([contentSha256(FRESH)]);
    expect(all.freshness_warnings).toContainEqual(
      expect.objectContaining({ sha256: contentSha256(STALE), state: 'unknown', delivered: true }),
    );
  });

  it('delivers the fresh duplicate when the stale line is held back, and names the stale one', () => {
    const answer = query();
    const shas = answer.results.map((r) => r.sha256);
    expect(shas).toContain(contentSha256(FRESH));
    expect(shas).not.toContain(contentSha256(STALE));
    expect(answer.freshness_warnings).toContainEqual(
      expect.objectContaining({ sha256: contentSha256(STALE), state: 'unknown', delivered: false }),
    );
  });
});
