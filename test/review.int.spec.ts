import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentSha256, uniformLines } from '@mem/core';
import { memInProcess } from './support/mem-cli.js';

/*
 * Issue 12 §4: the review queue end to end through `mem`: a forced re-add of a forgotten line
 * opens a resurfacing finding, the vault lists it in _review.md, and a decision takes it off the
 * list and out of the note. In process: the cases are about the queue, not about processes
 * (review-grounding.int.spec.ts runs `mem review` as the built bin).
 */
const repo = join(import.meta.dirname, '..');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
const FORGOTTEN_LINE =
  'CI flake: pg container raced its volume mount; fixed with a pg_isready readiness probe.';
const EVIDENCE = '94af7d3928e418e68468ee1a6aa51d19d8fc97bc6a24b762923b4f52a4370391';
let root: string;

const mem = (args: string[]) => memInProcess(['--root', root, ...args]);

function memoryFile(text: string): string {
  const payload = {
    type: 'memory',
    run_id: 'run-2026-08-17-infra-1',
    level: 'L1',
    t: 9,
    text,
    tokens: 20,
    parents: [EVIDENCE],
    sha256: contentSha256(text),
    lines: uniformLines(text, [EVIDENCE]),
  };
  const file = join(root, 'memory.jsonl');
  writeFileSync(file, `${JSON.stringify(payload)}\n`);
  return file;
}

interface Finding {
  id: string;
  kind: string;
  subjects: string[];
  explanation: string;
}
const list = async () => {
  const out = await mem(['review', 'list', '--project', 'demo', '--json']);
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  return (JSON.parse(out.stdout) as { findings: Finding[] }).findings;
};
const reviewNote = () => join(root, 'vault', 'demo', '_review.md');

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-review-'));
  expect((await mem(['log', 'append', '--project', 'demo', '--file', sample])).code).toBe(0);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('mem review', () => {
  it(
    'forget, forced re-add, scan: a resurfacing finding listed and in _review.md; dismissed, it is gone from both',
    { timeout: 300_000 },
    async () => {
      const target = contentSha256(FORGOTTEN_LINE);
      expect(
        (await mem(['forget', target.slice(0, 10), '--project', 'demo', '--reason', 'reverted']))
          .code,
      ).toBe(0);
      const reworded =
        'The pg container raced the volume mount in CI; a pg_isready probe fixed the flake.';
      const forced = await mem([
        'log',
        'append',
        '--project',
        'demo',
        '--file',
        memoryFile(reworded),
        '--force',
      ]);
      expect(forced.code).toBe(0);

      const scan = await mem(['review', 'scan', '--project', 'demo', '--json']);
      expect(scan.code).toBe(0);
      const resurfacing = (await list()).filter((f) => f.kind === 'resurfacing');
      expect(resurfacing).toHaveLength(1);
      expect(resurfacing[0]!.subjects).toEqual([target, contentSha256(reworded)].sort());
      expect(resurfacing[0]!.explanation).toContain(`tombstone ${target}`);
      const id = resurfacing[0]!.id;
      expect(readFileSync(reviewNote(), 'utf8')).toContain(id);

      // A second scan over the same log opens nothing again.
      const again = await mem(['review', 'scan', '--project', 'demo', '--json']);
      expect((JSON.parse(again.stdout) as { opened: unknown[] }).opened).toEqual([]);

      const dismissed = await mem([
        'review',
        'dismiss',
        id.slice(0, 12),
        '--project',
        'demo',
        '--reason',
        'the probe is back on purpose',
        '--json',
      ]);
      expect(dismissed.stderr).toBe('');
      expect(dismissed.code).toBe(0);
      // Decided once: a second decision on it is CONFLICT.
      const twice = await mem([
        'review',
        'keep',
        id,
        '--project',
        'demo',
        '--reason',
        'x',
        '--json',
      ]);
      expect(twice.code).not.toBe(0);
      expect(JSON.parse(twice.stderr)).toMatchObject({ error: { code: 'CONFLICT' } });
      expect((await list()).map((f) => f.id)).not.toContain(id);
      expect(existsSync(reviewNote()) ? readFileSync(reviewNote(), 'utf8') : '').not.toContain(id);
      // The forgotten text never reaches the queue's note.
      expect(existsSync(reviewNote()) ? readFileSync(reviewNote(), 'utf8') : '').not.toContain(
        'pg_isready',
      );
    },
  );

  it(
    'refuses an unknown id and a missing reason, each typed, appending nothing',
    { timeout: 120_000 },
    async () => {
      const unknown = await mem([
        'review',
        'keep',
        'abcdef12',
        '--project',
        'demo',
        '--reason',
        'x',
        '--json',
      ]);
      expect(unknown.code).not.toBe(0);
      expect(JSON.parse(unknown.stderr)).toMatchObject({ error: { code: 'NOT_FOUND' } });
      const noReason = await mem(['review', 'keep', 'abcdef12', '--project', 'demo', '--json']);
      expect(noReason.code).not.toBe(0);
      const shown = (await mem(['log', 'show', '--project', 'demo'])).stdout;
      expect(shown).not.toContain('review_decided');
    },
  );

  it(
    'finds two facts of the same words and folds them on supersede: the older archived, linked to the newer',
    { timeout: 120_000 },
    async () => {
      const remember = async (text: string) => {
        const out = await mem(['remember', text, '--type', 'fact', '--project', 'demo', '--json']);
        expect(out.code).toBe(0);
        return (JSON.parse(out.stdout) as { ids: string[] }).ids[0]!;
      };
      const older = await remember('Releases are cut from the main branch.');
      const newer = await remember('releases are cut from the main branch');
      const scan = await mem(['review', 'scan', '--project', 'demo', '--json']);
      expect(scan.code).toBe(0);
      const opened = (JSON.parse(scan.stdout) as { opened: Finding[] }).opened.filter((f) =>
        f.subjects.includes(older),
      );
      expect(opened.map((f) => [f.kind, f.subjects])).toEqual([
        ['duplicate', [older, newer].sort()],
      ]);
      const fold = await mem([
        'review',
        'supersede',
        opened[0]!.id.slice(0, 12),
        '--project',
        'demo',
        '--reason',
        'one fact',
        '--json',
      ]);
      expect(fold.stderr).toBe('');
      expect(JSON.parse(fold.stdout)).toMatchObject({ decision: 'supersede', superseded: [older] });
      const read = await mem(['items', 'read', older, '--project', 'demo', '--json']);
      expect(JSON.stringify(JSON.parse(read.stdout))).toContain(`"links":["${newer}"]`);
      const orient = (await mem(['orient', '--project', 'demo', '--json'])).stdout;
      expect(orient).toContain(newer);
      expect(orient).not.toContain(older);
      expect((await list()).map((f) => f.id)).not.toContain(opened[0]!.id);
    },
  );
});
