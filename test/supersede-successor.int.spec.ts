import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSha256 } from '@mem/core';
import { canonicalBytes } from '@mem/projector-sqlite';
import { memInProcess } from './support/mem-cli.js';

/*
 * Issue 12: a correction changes the words, not the evidence. On a copy of the shipped demo
 * log, `mem supersede` of an L1 line by a distinctive new text makes that text a live line of
 * its own: `mem query` finds it at L1, citing the chunks the old line cited, with the
 * correction shown; the old words no longer return the old line; the L2 copy's successor
 * "[bugs-and-root-causes] <new text>" is found too.
 */
const repo = join(import.meta.dirname, '..');
const OLD =
  "LiveView test: sandbox isolation (Project not found): LiveView process can't access test sandbox checkout. Fixed by using `Sandbox.mode(Repo, {:shared, self()})` instead of just `Sandbox.checkout`.";
const NEW =
  'Quokka marmalade resolution: the LiveView owner is started with start_owner and the pid is allowed explicitly.';
const COPY_NEW = `[bugs-and-root-causes] ${NEW}`;
const REASON = 'the shared sandbox was the wrong fix';
let root: string;

interface Hit {
  level: string;
  sha256: string;
  text: string;
  parents: { level: string; sha256: string }[];
  corrected_by?: unknown;
}

// In process: the cases are about recall after a correction, not about processes.
const mem = (...args: string[]) => memInProcess(['--root', root, ...args]);

async function query(text: string, ...flags: string[]): Promise<Hit[]> {
  const out = await mem('query', text, '--project', 'demo', '--json', ...flags);
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  return (JSON.parse(out.stdout) as { results: Hit[] }).results;
}

let oldParents: Hit['parents'];
let supersededSeq: number;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-supersede-successor-'));
  for (const dir of ['log', 'queries'])
    cpSync(join(repo, dir), join(root, dir), { recursive: true });
  const rebuilt = await mem('rebuild', '--from-log', '--only', 'sqlite');
  expect(rebuilt.stderr).toBe('');
  expect(rebuilt.code).toBe(0);
  const before = (await query('sandbox isolation LiveView Sandbox.mode')).find(
    (hit) => hit.sha256 === contentSha256(OLD),
  );
  expect(before?.level).toBe('L1');
  oldParents = before!.parents;
  expect(oldParents.length).toBeGreaterThan(0);
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
  expect(superseded.code).toBe(0);
  supersededSeq = (JSON.parse(superseded.stdout) as { seq: number }).seq;
}, 180_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a superseded line lives on as its successor text', () => {
  it('returns the new text at L1, with the old line’s chunks and the correction', async () => {
    const hit = (await query('quokka marmalade resolution')).find(
      (h) => h.sha256 === contentSha256(NEW),
    );
    expect(hit).toBeDefined();
    expect(hit!.level).toBe('L1');
    expect(hit!.text).toBe(NEW);
    expect(hit!.parents).toEqual(oldParents);
    expect(hit!.corrected_by).toEqual({
      seq: supersededSeq,
      supersedes: contentSha256(OLD),
      actor: expect.any(String),
      reason: REASON,
    });
  });

  it('finds the L2 copy’s successor too', async () => {
    // At L2 alone: beside its L1 line the copy is folded under it (issue 13 §5).
    const hit = (await query('quokka marmalade resolution', '--levels', 'L2')).find(
      (h) => h.sha256 === contentSha256(COPY_NEW),
    );
    expect(hit?.level).toBe('L2');
    expect(hit!.text).toBe(COPY_NEW);
    // It copies the L1 successor: that line, then its chunks.
    expect(hit!.parents.map((p) => p.sha256)).toEqual([
      contentSha256(NEW),
      ...oldParents.map((p) => p.sha256),
    ]);
    expect(hit!.corrected_by).toMatchObject({ seq: supersededSeq + 1, reason: REASON });
    // At the default levels the copy is folded under its L1 line, named by its sha.
    type Folding = Hit & { folded?: { sha256?: string; level?: string }[] };
    const hits: Folding[] = await query('quokka marmalade resolution');
    const l1 = hits.find((h) => h.sha256 === contentSha256(NEW));
    expect(l1?.folded?.map((f) => [f.level, f.sha256])).toContainEqual([
      'L2',
      contentSha256(COPY_NEW),
    ]);
  });

  it('no longer answers the old words with the old line', async () => {
    const hits = await query('sandbox isolation LiveView Sandbox.mode');
    expect(hits.some((h) => h.sha256 === contentSha256(OLD))).toBe(false);
    expect(hits.some((h) => h.text.includes('Sandbox.mode(Repo'))).toBe(false);
  });

  // A catch-up writes the store in place (issue 15), so its file is not a rebuild's bytes: the
  // incremental store must hold a rebuild's rows (verify's per-table digest), and two rebuilds
  // from the log must write the same bytes.
  it('holds the rows of a rebuild incrementally, and rebuilds to the same bytes twice', async () => {
    const verified = await mem('verify', '--project', 'demo');
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    const store = join(root, '.mem', 'items.sqlite');
    expect((await mem('rebuild', '--from-log', '--only', 'sqlite')).code).toBe(0);
    // Every byte but the header's install counters, which SQLite advances on each install.
    const once = canonicalBytes(store);
    expect((await mem('rebuild', '--from-log', '--only', 'sqlite')).code).toBe(0);
    expect(canonicalBytes(store).equals(once)).toBe(true);
  });

  // Last: it forgets the successor. A correction is a line like any other.
  it('leaves recall like any line when the successor is forgotten in turn', async () => {
    const forgot = await mem(
      'forget',
      contentSha256(NEW).slice(0, 10),
      '--project',
      'demo',
      '--reason',
      'wrong again',
      '--json',
    );
    expect(forgot.stderr).toBe('');
    expect(forgot.code).toBe(0);
    const hits = await query('quokka marmalade resolution');
    expect(hits.some((h) => h.sha256 === contentSha256(NEW))).toBe(false);
    expect(hits.some((h) => h.text.includes('Quokka marmalade'))).toBe(false);
  });
});
