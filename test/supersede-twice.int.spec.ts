import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSha256 } from '@mem/core';
import { memInProcess } from './support/mem-cli.js';

/*
 * A superseded line left every read path; its replacement answers now. Superseding the old line
 * again (A→B, then A→C) was appended and shown nowhere: every projection keeps the first
 * supersession. It is refused (CONFLICT, naming the replacement to supersede instead), and the
 * replacement itself can be superseded (B→C).
 */
const repo = join(import.meta.dirname, '..');
const OLD_BLOCK = '6d6af223';
const B = 'Theme preview skips invalid variable references while a theme is edited';
const C = 'Theme preview drops invalid variable references during theme edits';
let root: string;

const mem = (...args: string[]) => memInProcess(['--root', root, ...args]);

/** Every log segment's bytes, by name: what "nothing was appended" compares. */
function logBytes(): string {
  const dir = join(root, 'log');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .sort()
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => `${f}\n${readFileSync(join(dir, f), 'utf8')}`)
    .join('\n');
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-supersede-twice-'));
  for (const dir of ['log', 'queries'])
    cpSync(join(repo, dir), join(root, dir), { recursive: true });
  const first = await mem(
    'supersede',
    OLD_BLOCK,
    '--by',
    B,
    '--project',
    'demo',
    '--reason',
    'said better',
    '--json',
  );
  expect(first.code).toBe(0);
}, 180_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The typed error a `--json` refusal prints on stderr. */
function errorOf(stderr: string): { code: string; details: Record<string, unknown> } {
  return (JSON.parse(stderr) as { error: { code: string; details: Record<string, unknown> } })
    .error;
}

describe('superseding a line already superseded', () => {
  it('is refused with CONFLICT naming the current replacement, and appends nothing', async () => {
    const before = logBytes();
    const again = await mem(
      'supersede',
      OLD_BLOCK,
      '--by',
      C,
      '--project',
      'demo',
      '--reason',
      'said better again',
      '--json',
    );
    expect(again.code).toBe(1);
    const error = errorOf(again.stderr);
    expect(error.code).toBe('CONFLICT');
    expect(error.details).toMatchObject({
      field: 'ref',
      superseded_by: contentSha256(B),
      current: contentSha256(B),
    });
    expect(logBytes()).toBe(before);
  });

  it('lets the replacement be superseded, and then names the end of the chain', async () => {
    const next = await mem(
      'supersede',
      contentSha256(B),
      '--by',
      C,
      '--project',
      'demo',
      '--reason',
      'said better again',
      '--json',
    );
    expect(next.code).toBe(0);
    const again = await mem(
      'supersede',
      OLD_BLOCK,
      '--by',
      'Theme preview ignores broken references',
      '--project',
      'demo',
      '--reason',
      'x',
      '--json',
    );
    const error = errorOf(again.stderr);
    expect(error.code).toBe('CONFLICT');
    expect(error.details).toMatchObject({
      superseded_by: contentSha256(B),
      current: contentSha256(C),
    });
  });

  /*
   * Trigger: `mem confirm A` after A → B → C (the stop-33 walk). Why: it was appended (a
   * `confirmed` event on a line no read path shows), and a pin or promotion named B, itself
   * replaced. Outcome: each is CONFLICT naming the end of the chain, nothing appended.
   */
  it.each([
    ['confirm', OLD_BLOCK, []],
    ['confirm', contentSha256(B), []],
    ['pin', OLD_BLOCK, ['--reason', 'read this first']],
    ['remember', OLD_BLOCK, ['--type', 'fact', '--reason', 'keep it']],
  ])(
    'refuses %s of a replaced line %s, naming the current replacement',
    async (verb, ref, rest) => {
      const before = logBytes();
      const args = verb === 'remember' ? ['remember', '--from-line', ref] : [verb, ref];
      const refused = await mem(...args, ...rest, '--project', 'demo', '--json');
      expect(refused.code).toBe(1);
      const error = errorOf(refused.stderr);
      expect(error.code).toBe('CONFLICT');
      expect(error.details).toMatchObject({ current: contentSha256(C) });
      expect(logBytes()).toBe(before);
    },
  );

  it('refuses a replacement already in the chain (C --by B, C --by A), naming it, and appends nothing', async () => {
    // After A → B → C. Accepted before: C pointed back to B, and A, B and C all left `mem query`.
    const before = logBytes();
    for (const by of [B, OLD_BLOCK]) {
      const back = await mem(
        'supersede',
        contentSha256(C),
        '--by',
        by,
        '--project',
        'demo',
        '--reason',
        'back',
        '--json',
      );
      expect(back.code).toBe(1);
      const error = errorOf(back.stderr);
      expect(error.code).toBe('CONFLICT');
      expect(error.details).toMatchObject({
        field: 'by',
        target: contentSha256(C),
        in_chain: true,
        current: contentSha256(C),
      });
      if (by === B) expect(error.details).toMatchObject({ by: contentSha256(B) });
    }
    expect(logBytes()).toBe(before);
  });
});
