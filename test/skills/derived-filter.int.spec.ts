import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asRoot, memoryPayloads, registryAt, tempDataRoot } from '../api/support.js';
import { memInProcess } from '../support/mem-cli.js';

/*
 * Issue 14 §1, the last piece of the cycle guard: `mem verify --derived-filter` audits that no L0
 * evidence repeats a registered derived artifact (a skill's text, a reference passage) by the
 * ingest's own shingle match. A log written by an older mem without the guard fails it, naming
 * the chunk and the skill; the demo passes. mem runs in process: the cases are about the audit's
 * report, not processes (cli.int.spec.ts keeps verify's exit 3 as the built bin).
 */

const repo = join(import.meta.dirname, '..', '..');
const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((c) => c()));

interface Audit {
  project: string;
  ok: boolean;
  problems: { chunk: string; artifact: string; cited_by: number[] }[];
}

async function verify(root: string, ...args: string[]) {
  const run = await memInProcess(['--root', root, 'verify', ...args, '--json']);
  return {
    code: run.code,
    stderr: run.stderr,
    report: JSON.parse(run.stdout) as { derived?: Audit[] },
  };
}

describe('mem verify --derived-filter', () => {
  it('fails on a chunk an older mem took as evidence though it repeats a promoted skill, naming both', async () => {
    const { root, cleanup } = tempDataRoot(['alpha']);
    cleanups.push(cleanup);
    const registry = await registryAt(root, { runJobs: false });
    try {
      await registry.context.engine.append(
        'alpha',
        memoryPayloads(
          'run-a',
          'Uploads failed: 8KB body buffer.',
          [
            'Uploads failed with 413 because the proxy body buffer was 8KB.',
            'Fixed by setting client_body_buffer_size to 16k in the gateway config.',
            'Decided to run the upload smoke test after every gateway deploy.',
          ].join('\n'),
        ).payloads,
        { kind: 'test' },
      );
      await asRoot(registry, 'skill_draft', {
        from: 'alpha/bugs',
        name: 'uploads',
        composer: 'heuristic',
      });
      await asRoot(registry, 'skill_promote', {
        project: 'alpha',
        name: 'uploads',
        reason: 'works',
      });
    } finally {
      await registry.close();
    }
    const skill = readFileSync(join(root, 'vault', 'skills', 'uploads', 'SKILL.md'), 'utf8');
    // What an ingest without the guard wrote: the pasted skill as a chunk, its evidence, and an
    // L1 line citing it.
    const pasted = memoryPayloads(
      'run-b',
      `[assistant]\nHere is the skill I follow:\n\n${skill}`,
      'Uploads need client_body_buffer_size 16k, as the skill says.',
    );
    const appended = await memInProcess(['--root', root, 'log', 'append', '--project', 'alpha'], {
      input: pasted.payloads.map((p) => JSON.stringify(p)).join('\n') + '\n',
    });
    expect(appended.code, appended.stderr).toBe(0);

    expect((await verify(root, '--project', 'alpha')).code).toBe(0);
    const { code, report } = await verify(root, '--project', 'alpha', '--derived-filter');
    expect(code).toBe(3);
    const [audit] = report.derived!;
    expect(audit!.ok).toBe(false);
    expect(audit!.problems).toHaveLength(1);
    expect(audit!.problems[0]).toMatchObject({ chunk: pasted.evidence, artifact: 'skill:uploads' });
    expect(audit!.problems[0]!.cited_by).toHaveLength(1);

    const text = await memInProcess([
      '--root',
      root,
      'verify',
      '--project',
      'alpha',
      '--derived-filter',
    ]);
    expect(text.code).toBe(3);
    expect(text.stdout).toContain(`chunk ${pasted.evidence}`);
    expect(text.stdout).toContain('repeats skill:uploads');
  }, 300_000);

  it('passes on the demo with a promoted skill drawn from it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mem-derived-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    cpSync(join(repo, 'log', 'demo'), join(root, 'log', 'demo'), { recursive: true });
    expect((await memInProcess(['--root', root, 'rebuild', '--from-log'])).code).toBe(0);
    const mem = (...args: string[]) => memInProcess(['--root', root, ...args]);
    const drafted = await mem(
      'skill',
      'draft',
      '--from',
      'demo/bugs-and-root-causes',
      '--name',
      'theme-crashes',
    );
    expect(drafted.code, drafted.stderr).toBe(0);
    const promoted = await mem(
      'skill',
      'promote',
      'theme-crashes',
      '--project',
      'demo',
      '--reason',
      'works',
    );
    expect(promoted.code, promoted.stderr).toBe(0);
    const { code, stderr, report } = await verify(root, '--project', 'demo', '--derived-filter');
    expect(code, stderr).toBe(0);
    expect(report.derived).toEqual([
      expect.objectContaining({ project: 'demo', ok: true, problems: [] }),
    ]);
  }, 300_000);
});
