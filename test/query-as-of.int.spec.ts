import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSha256 } from '@mem/core';
import { memInProcess } from './support/mem-cli.js';

/*
 * Issue 12 §2: `--as-of` recall judges forgotten and superseded lines by when they happened in
 * the log; `--include-superseded` shows history. On a copy of the shipped demo log: supersede a
 * line, then forget another, and ask before and after each.
 */
const repo = join(import.meta.dirname, '..');
const OLD =
  "LiveView test: sandbox isolation (Project not found): LiveView process can't access test sandbox checkout. Fixed by using `Sandbox.mode(Repo, {:shared, self()})` instead of just `Sandbox.checkout`.";
const NEW =
  'Quokka marmalade resolution: the LiveView owner is started with start_owner and the pid is allowed explicitly.';
const FORGOTTEN =
  'Ghostty inline images in tmux: Fixed terminal detection for Ghostty when running inside tmux by checking `GHOSTTY_RESOURCES_DIR` env var. (#299 by @nicobailon)';
const REASON = 'the shared sandbox was the wrong fix';
/** Words of both the old and the new text: one question that either line answers. */
const BOTH = 'LiveView sandbox isolation quokka marmalade';
const FORGOTTEN_WORDS = 'ghostty inline images tmux terminal detection';

interface Hit {
  level: string;
  sha256: string;
  text: string;
  superseded_by: { sha256: string; seq: number; actor: string | null; reason: string } | null;
}
interface Answer {
  results: Hit[];
  abstained: boolean;
  recall: {
    vector: string;
    as_of?: { projects: { project: string; seq: number }[]; legs: string[]; note: string };
  };
}

let root: string;
/** The demo log's head: the store before either correction. */
let beforeSeq: number;
let supersededSeq: number;
let forgottenSeq: number;

async function mem(...args: string[]) {
  return memInProcess(['--root', root, ...args]);
}

async function query(text: string, ...flags: string[]): Promise<Answer> {
  const out = await mem('query', text, '--project', 'demo', '--json', ...flags);
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  return JSON.parse(out.stdout) as Answer;
}

const shas = (answer: Answer) => answer.results.map((hit) => hit.sha256);

function logBytes(): string {
  return readFileSync(join(root, 'log', 'demo', '000001.jsonl'), 'utf8');
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-query-as-of-'));
  for (const dir of ['log', 'queries'])
    cpSync(join(repo, dir), join(root, dir), { recursive: true });
  expect((await mem('rebuild', '--from-log', '--only', 'sqlite')).code).toBe(0);
  beforeSeq = logBytes().trim().split('\n').length;
  const superseded = await mem(
    'supersede',
    contentSha256(OLD).slice(0, 10),
    '--project',
    'demo',
    '--by',
    NEW,
    '--reason',
    REASON,
    '--json',
  );
  expect(superseded.stderr).toBe('');
  supersededSeq = (JSON.parse(superseded.stdout) as { seq: number }).seq;
  // The words find the line before it is forgotten: the refusals below are the forget's doing.
  expect(shas(await query(FORGOTTEN_WORDS))).toContain(contentSha256(FORGOTTEN));
  const forgotten = await mem(
    'forget',
    contentSha256(FORGOTTEN).slice(0, 10),
    '--project',
    'demo',
    '--reason',
    'a deliberate deletion',
    '--json',
  );
  expect(forgotten.stderr).toBe('');
  forgottenSeq = (JSON.parse(forgotten.stdout) as { seq: number }).seq;
  expect(beforeSeq).toBeLessThan(supersededSeq);
  expect(supersededSeq).toBeLessThan(forgottenSeq);
}, 180_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('mem query --include-superseded', () => {
  it('leaves superseded lines out by default: the new text only', async () => {
    const answer = await query(BOTH);
    expect(shas(answer)).toContain(contentSha256(NEW));
    expect(shas(answer)).not.toContain(contentSha256(OLD));
  });

  it('returns the superseded line too, marked with its successor and the correction', async () => {
    const answer = await query(BOTH, '--include-superseded');
    expect(shas(answer)).toContain(contentSha256(NEW));
    const old = answer.results.find((hit) => hit.sha256 === contentSha256(OLD));
    expect(old?.text).toBe(OLD);
    expect(old!.superseded_by).toEqual({
      sha256: contentSha256(NEW),
      seq: supersededSeq,
      actor: expect.any(String),
      reason: REASON,
    });
    const successor = answer.results.find((hit) => hit.sha256 === contentSha256(NEW));
    expect(successor!.superseded_by).toBeNull();
  });

  it('never returns a forgotten line', async () => {
    const answer = await query(FORGOTTEN_WORDS, '--include-superseded');
    expect(shas(answer)).not.toContain(contentSha256(FORGOTTEN));
  });
});

describe('mem query --as-of', () => {
  it('answers as the store stood before the supersede: the old text, not the new', async () => {
    const answer = await query(BOTH, '--as-of', String(beforeSeq));
    expect(shas(answer)).toContain(contentSha256(OLD));
    expect(shas(answer)).not.toContain(contentSha256(NEW));
    expect(answer.results.find((hit) => hit.sha256 === contentSha256(OLD))!.superseded_by).toBe(
      null,
    );
    // The vector index holds today's lines only: the answer says which legs answered as of then.
    expect(answer.recall.as_of).toMatchObject({
      projects: [{ project: 'demo', seq: beforeSeq }],
      legs: ['keyword'],
    });
    expect(answer.recall.vector).toBe('skipped');
  });

  it('answers with the new text from the supersede on', async () => {
    for (const seq of [supersededSeq, forgottenSeq]) {
      const answer = await query(BOTH, '--as-of', String(seq));
      expect(shas(answer)).toContain(contentSha256(NEW));
      expect(shas(answer)).not.toContain(contentSha256(OLD));
    }
    const history = await query(BOTH, '--as-of', String(supersededSeq), '--include-superseded');
    expect(shas(history)).toContain(contentSha256(OLD));
  });

  it('never returns a forgotten line, whatever the as-of', async () => {
    // Found as it stood before the forget is what a deliberate deletion must not allow.
    for (const seq of [beforeSeq, supersededSeq, forgottenSeq]) {
      const answer = await query(FORGOTTEN_WORDS, '--as-of', String(seq), '--include-superseded');
      expect(shas(answer)).not.toContain(contentSha256(FORGOTTEN));
      expect(answer.results.some((hit) => hit.text.includes('message_ids'))).toBe(false);
    }
  });

  it('maps an ISO timestamp to the newest seq at or before it', async () => {
    const lastDemoTs = (JSON.parse(logBytes().trim().split('\n')[beforeSeq - 1]!) as { ts: string })
      .ts;
    const answer = await query(BOTH, '--as-of', lastDemoTs);
    expect(answer.recall.as_of?.projects).toEqual([{ project: 'demo', seq: beforeSeq }]);
    expect(shas(answer)).toContain(contentSha256(OLD));
    expect(shas(answer)).not.toContain(contentSha256(NEW));
  });

  it('answers an ISO before the first event with nothing, and says so', async () => {
    const answer = await query(BOTH, '--as-of', '2000-01-01T00:00:00Z');
    expect(answer.abstained).toBe(true);
    expect(answer.results).toEqual([]);
    expect(answer.recall.as_of?.projects).toEqual([{ project: 'demo', seq: 0 }]);
    expect(answer.recall.as_of?.note).toMatch(/before (its|their) first event/);
  });

  it('reads a date alone as the start of that day in UTC, as item fields do', async () => {
    const answer = await query(BOTH, '--as-of', '2000-01-01');
    expect(answer.recall.as_of?.projects).toEqual([{ project: 'demo', seq: 0 }]);
    const today = (JSON.parse(logBytes().trim().split('\n')[beforeSeq - 1]!) as { ts: string }).ts;
    const next = new Date(Date.parse(today.slice(0, 10)) + 86_400_000).toISOString().slice(0, 10);
    expect((await query(BOTH, '--as-of', next)).recall.as_of?.projects).toEqual(
      (await query(BOTH, '--as-of', `${next}T00:00:00Z`)).recall.as_of?.projects,
    );
  });

  it.each([
    ['not a seq nor a timestamp', ['--project', 'demo', '--as-of', 'yesterday']],
    ['a date that does not exist', ['--project', 'demo', '--as-of', '2026-02-30']],
    ['a negative seq', ['--project', 'demo', '--as-of', '-3']],
    ['a fractional seq', ['--project', 'demo', '--as-of', '12.5']],
    ['a seq beyond the head', ['--project', 'demo', '--as-of', '999999']],
    ['a seq without one named project', ['--as-of', '12']],
  ])('refuses %s as INVALID_INPUT, writing nothing', async (_, flags) => {
    const before = logBytes();
    const out = await mem('query', BOTH, '--json', ...flags);
    expect(out.code).toBe(2);
    const error = (JSON.parse(out.stderr.trim().split('\n').at(-1)!) as { error: { code: string } })
      .error;
    expect(error.code).toBe('INVALID_INPUT');
    expect(logBytes()).toBe(before);
  });
});
