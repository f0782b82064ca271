import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asRoot, memoryPayloads, registryAt, tempDataRoot } from '../api/support.js';
import { memInProcess } from '../support/mem-cli.js';

/*
 * Issue 14 §1, the cycle guard (seed 001 M4.2): a promoted skill is a registered derived
 * artifact. An agent that pastes it back into a transcript, even lightly edited, gives memory no
 * evidence: its chunk is logged `derived: true` and never gated. A plain transcript is unaffected.
 */

let root = '';
let cleanup: () => void;
let skill = '';
const mem = (...args: string[]) => memInProcess(['--root', root, ...args], { cwd: root });

function transcript(name: string, user: string, assistant: string): void {
  const at = '2025-01-01T00:00:00.000Z';
  const lines = [
    {
      type: 'user',
      uuid: `${name}-u`,
      sessionId: name,
      timestamp: at,
      message: { role: 'user', content: user },
    },
    {
      type: 'assistant',
      uuid: `${name}-a`,
      parentUuid: `${name}-u`,
      sessionId: name,
      timestamp: at,
      message: { role: 'assistant', content: [{ type: 'text', text: assistant }] },
    },
  ];
  writeFileSync(
    join(root, 'claude', `${name}.jsonl`),
    lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
  );
}

interface Chunk {
  type: string;
  source?: string;
  sha256?: string;
  parents?: string[];
  derived?: true;
}

async function events(): Promise<Chunk[]> {
  const shown = await mem('log', 'show', '--project', 'alpha');
  expect(shown.code, shown.stderr).toBe(0);
  return shown.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Chunk);
}

async function chunksOf(source: string): Promise<Chunk[]> {
  return (await events()).filter((e) => e.type === 'chunk' && e.source?.includes(source) === true);
}

async function ingest(): Promise<{ chunksDerived: number; chunksSeen: number }[]> {
  const run = await mem('ingest', '--project', 'alpha', '--controller', 'heuristic', '--json');
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { queries: { chunksDerived: number; chunksSeen: number }[] })
    .queries;
}

beforeAll(async () => {
  ({ root, cleanup } = tempDataRoot(['alpha']));
  mkdirSync(join(root, 'claude'));
  writeFileSync(
    join(root, 'queries', 'alpha.yaml'),
    'project: alpha\nsources:\n  - claude:../claude\nqueries:\n  - id: bugs\n    question: What bugs or failures were found?\n',
  );
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
          'The retry loop crashed when the token expired mid-upload.',
        ].join('\n'),
      ).payloads,
      { kind: 'test' },
    );
    await asRoot(registry, 'skill_draft', {
      from: 'alpha/bugs',
      name: 'uploads',
      composer: 'heuristic',
    });
    await asRoot(registry, 'skill_promote', { project: 'alpha', name: 'uploads', reason: 'works' });
  } finally {
    await registry.close();
  }
  skill = readFileSync(join(root, 'vault', 'skills', 'uploads', 'SKILL.md'), 'utf8');
}, 120_000);

afterAll(() => cleanup?.());

describe('the skill cycle guard', () => {
  it('tags a pasted, lightly edited SKILL.md derived, never evidence; a plain transcript is not', async () => {
    // Edited as an agent would: re-wrapped, one word changed, its title line dropped.
    const pasted = skill
      .replace(/^# .*\n/m, '')
      .replace('16k', '32k')
      .replace(/\n\n/g, '\n');
    transcript('pasted', 'How do I fix uploads again?', `Here is the skill I follow:\n\n${pasted}`);
    transcript(
      'plain',
      'The nightly export job failed overnight.',
      'The export job failed because the disk on the worker filled up with stale temp files. I removed them and added a cleanup step that runs before each export.',
    );
    const report = await ingest();
    expect(report.reduce((n, q) => n + q.chunksDerived, 0)).toBeGreaterThan(0);
    const pastedChunks = await chunksOf('pasted');
    expect(pastedChunks.length).toBeGreaterThan(0);
    expect(pastedChunks.every((c) => c.derived === true)).toBe(true);
    const plainChunks = await chunksOf('plain');
    expect(plainChunks.length).toBeGreaterThan(0);
    expect(plainChunks.some((c) => c.derived === true)).toBe(false);

    // End to end: no memory line cites the pasted chunk, and the audit agrees.
    const pastedShas = new Set(pastedChunks.map((c) => c.sha256));
    const cited = (await events()).flatMap((e) => (e.type === 'memory' ? (e.parents ?? []) : []));
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.filter((sha) => pastedShas.has(sha))).toEqual([]);
    const audited = await mem('verify', '--project', 'alpha', '--derived-filter', '--json');
    expect(audited.code, audited.stdout).toBe(0);
    expect((JSON.parse(audited.stdout) as { derived: { ok: boolean }[] }).derived).toEqual([
      expect.objectContaining({ ok: true, artifacts: 1 }),
    ]);
  }, 300_000);
});
