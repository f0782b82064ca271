import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemError, contentSha256, loadConfig, uniformLines } from '@mem/core';
import { Engine } from '@mem/engine';
import { projectorSqlite } from '@mem/projector-sqlite';
import { projectorVault } from '@mem/projector-vault';
import { openRegistry } from '@mem/registry';
import { appendedInProcess, hermeticEnv, memBin } from './support/mem-cli.js';

/*
 * Two decisions on one review finding at once (stop 35). Each read the queue before the other
 * appended, so both wrote `review_decided`. The queue is now read, the decision planned and
 * appended under the project's correction lock: one decision is written, the other is CONFLICT
 * naming the first (its decision and seq), and nothing of it is appended.
 */
const repo = join(import.meta.dirname, '..');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
const KONG =
  'Requests over 10KB failed with 413: Kong buffered the body; fixed with proxy-body-size: 0.';
const EVIDENCE = '94af7d3928e418e68468ee1a6aa51d19d8fc97bc6a24b762923b4f52a4370391';
const run = promisify(execFile);
let base: string;
let finding: string;

interface Logged {
  type: string;
  id?: string;
  decision?: string;
  seq: number;
}
const logged = (root: string): Logged[] =>
  readdirSync(join(root, 'log', 'demo'))
    .sort()
    .flatMap((segment) => readFileSync(join(root, 'log', 'demo', segment), 'utf8').split('\n'))
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Logged);
const decisionsOf = (root: string, id: string) =>
  logged(root).filter((e) => e.type === 'review_decided' && e.id === id);

const openDemo = (root: string) =>
  openRegistry({
    engine: new Engine({ root, projectors: [projectorSqlite, projectorVault] }),
    version: '0.0.0-test',
    config: loadConfig({}),
    runJobs: false,
  });

/** A fresh copy of the root holding one open duplicate finding. */
function copyOfBase(): string {
  const root = mkdtempSync(join(base, 'race-'));
  cpSync(join(base, 'root'), root, { recursive: true });
  return root;
}

/** `mem review <decision> <finding>` as the built bin, in a real process; never rejects. */
async function decide(root: string, decision: string) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [
        memBin,
        '--root',
        root,
        'review',
        decision,
        finding,
        '--project',
        'demo',
        '--reason',
        'race',
      ],
      { env: hermeticEnv(), encoding: 'utf8' },
    );
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, out: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'mem-review-race-'));
  const root = join(base, 'root');
  await appendedInProcess(root, sample);
  // The Kong line said again (lowercase, no full stop) in a memory of its own: a duplicate finding.
  const text = KONG.toLowerCase().replace(/\.$/u, '');
  const payload = {
    type: 'memory',
    run_id: 'run-duplicate-kong',
    level: 'L1',
    t: 1,
    text,
    tokens: 20,
    parents: [EVIDENCE],
    sha256: contentSha256(text),
    lines: uniformLines(text, [EVIDENCE]),
  };
  const file = join(base, 'duplicate.jsonl');
  writeFileSync(file, `${JSON.stringify(payload)}\n`);
  await appendedInProcess(root, file);
  const registry = await openDemo(root);
  try {
    const caller = registry.local('local:test');
    await registry.invoke('review_scan', caller, { project: 'demo' });
    const { findings } = (await registry.invoke('review_list', caller, { project: 'demo' })) as {
      findings: { id: string; kind: string; subjects: string[] }[];
    };
    const found = findings.find(
      (f) => f.kind === 'duplicate' && f.subjects.includes(contentSha256(KONG)),
    );
    expect(found, JSON.stringify(findings)).toBeDefined();
    finding = found!.id;
  } finally {
    await registry.close();
  }
}, 300_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('two decisions on one review finding at once', () => {
  // Red before (load ~2): both fulfilled and two review_decided events, in process every time.
  it.each([
    ['keep', 'dismiss'],
    ['supersede', 'keep'],
    ['supersede', 'supersede'],
  ])(
    'in one process (%s beside %s): one is written, the other CONFLICT naming it',
    async (a, b) => {
      const root = copyOfBase();
      const registry = await openDemo(root);
      try {
        const caller = registry.local('local:test');
        const before = logged(root).length;
        const settled = await Promise.allSettled(
          [a, b].map((decision) =>
            registry.invoke(`review_${decision}`, caller, {
              project: 'demo',
              id: finding,
              reason: 'race',
            }),
          ),
        );
        const decided = decisionsOf(root, finding);
        expect(decided).toHaveLength(1);
        const written = settled.filter((s) => s.status === 'fulfilled');
        const refused = settled.flatMap((s) =>
          s.status === 'rejected' ? [s.reason as unknown] : [],
        );
        expect(written).toHaveLength(1);
        expect(refused).toHaveLength(1);
        expect(refused[0]).toBeInstanceOf(MemError);
        const error = refused[0] as MemError;
        expect(error.code).toBe('CONFLICT');
        expect(error.details).toMatchObject({ id: finding, project: 'demo' });
        expect(error.message).toContain(`${decided[0]!.decision}, seq ${decided[0]!.seq}`);
        // The winner's events only: its decision, and a supersede's supersessions before it.
        const won = (written[0] as PromiseFulfilledResult<{ seq: number }>).value;
        expect(logged(root)).toHaveLength(won.seq);
        expect(logged(root).length).toBeGreaterThan(before);
        expect(logged(root).filter((e) => e.type === 'superseded').length).toBeLessThanOrEqual(1);
      } finally {
        await registry.close();
        rmSync(root, { recursive: true, force: true });
      }
    },
  );

  // Two real processes started together: the cross-process half of the lock (engine.exclusive),
  // which the in-process cases above do not reach. It did not go red before in 24 rounds against
  // an old build (also with 6,000 padding events): each process's open and catch-up take longer
  // than the window, so the in-process cases are the ones that fail without the fix.
  it('in two processes (keep beside dismiss, 4 rounds): one review_decided each round, the loser CONFLICT', async () => {
    for (let round = 0; round < 4; round++) {
      const root = copyOfBase();
      try {
        const before = logged(root).length;
        const [keep, dismiss] = await Promise.all([decide(root, 'keep'), decide(root, 'dismiss')]);
        const decided = decisionsOf(root, finding);
        expect(decided, `round ${round}: ${keep.out} | ${dismiss.out}`).toHaveLength(1);
        expect(logged(root)).toHaveLength(before + 1);
        const codes = [keep.code, dismiss.code].sort();
        expect(codes, `${keep.out} | ${dismiss.out}`).toEqual([0, 1]);
        const loser = keep.code === 0 ? dismiss : keep;
        expect(loser.out).toContain('CONFLICT');
        expect(loser.out).toContain(
          `already decided (${decided[0]!.decision}, seq ${decided[0]!.seq})`,
        );
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }
  }, 600_000);
});
