import {
  appendFileSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memProcess } from './support/mem-cli.js';

/*
 * Issue 13 §4, freshness of memory lines in recall, through the built `mem` in real processes:
 * one real Claude Code session ingested once, then copies of that data root whose session file
 * is left alone, grown, rewritten or deleted. `mem query` stats the sessions the returned lines
 * cite and re-reads a cited span only when its session moved: a rewritten span holds its lines
 * back as stale, a deleted session as unknown, a grown one delivers them.
 */
const repo = join(import.meta.dirname, '..');
const session = join(repo, 'test', 'fixtures', 'transcripts', 'claude', 'spotter-short.jsonl');
const CITED = 'doesnt seem to start';
const SOURCE = 'claude:55604662-cf2a-4331-851a-ec234028f8ca';
let base: string;
let ingested: string;

/** The built `mem` in a real process, on `root`, with the suite's hermetic environment. */
function mem(root: string, args: string[]) {
  return memProcess(['--root', root, ...args]);
}

interface Answer {
  results: { level: string; sha256: string; text: string }[];
  freshness_warnings: {
    sha256: string;
    state: string;
    reason: string;
    sources: string[];
    delivered: boolean;
    next_action: string;
    hint: string;
  }[];
}

function query(root: string, ...flags: string[]): Answer {
  const out = mem(root, ['query', CITED, '--project', 'demo', ...flags, '--json']);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as Answer;
}

interface ContextAnswer {
  results: {
    tier: number;
    sha256?: string;
    text?: string;
    line?: { sha256: string; text: string };
  }[];
  freshness_warnings: Answer['freshness_warnings'];
}

const sessionFile = (root: string) => join(root, 'sessions', 's.jsonl');

/**
 * Follows the first warning's hint as printed: it names `mem forget`, and `mem confirm` only for
 * a changed source (a gone one has nothing to confirm against). The forget it names is run, and
 * the line is no longer warned about.
 */
function followHint(root: string, held: Answer): void {
  for (const w of held.freshness_warnings)
    if (w.reason === 'source_unreadable') expect(w.hint).not.toContain('mem confirm');
  const first = held.freshness_warnings[0]!;
  const named = /mem forget ([0-9a-f]{8}) --project demo/.exec(first.hint);
  expect(named, first.hint).not.toBeNull();
  expect(first.sha256.startsWith(named![1]!)).toBe(true);
  const run = mem(root, ['forget', named![1]!, '--project', 'demo', '--reason', 'as hinted']);
  expect(run.code, run.stderr).toBe(0);
  const after = query(root);
  expect(after.freshness_warnings.map((w) => w.sha256)).not.toContain(first.sha256);
  expect(after.results.map((r) => r.sha256)).not.toContain(first.sha256);
}
const citing = (answer: Answer) => answer.results.filter((r) => r.text.includes(CITED));

/** A copy of the ingested data root, its session file then changed by `edit`. */
function variant(name: string, edit: (file: string) => void): string {
  const root = join(base, name);
  cpSync(ingested, root, { recursive: true });
  edit(sessionFile(root));
  return root;
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'mem-query-fresh-'));
  ingested = join(base, 'ingested');
  mkdirSync(join(ingested, 'queries'), { recursive: true });
  mkdirSync(join(ingested, 'sessions'));
  copyFileSync(session, sessionFile(ingested));
  const demo = readFileSync(join(repo, 'queries', 'demo.yaml'), 'utf8')
    .replace('claude:../test/fixtures/transcripts/claude', 'claude:../sessions')
    .replace(/^ {2}- pi:.*\n/m, '');
  writeFileSync(join(ingested, 'queries', 'demo.yaml'), demo);
  const run = mem(ingested, ['ingest', '--project', 'demo']);
  expect(run.code, run.stderr).toBe(0);
}, 300_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('mem query: freshness of memory lines', () => {
  it(
    'delivers the lines of an untouched or grown session without a warning',
    { timeout: 300_000 },
    () => {
      const same = query(variant('same', () => {}));
      expect(citing(same).length).toBeGreaterThan(0);
      expect(same.freshness_warnings).toEqual([]);
      const grown = variant('grown', (file) => {
        const last = readFileSync(file, 'utf8').trimEnd().split('\n').at(-1)!;
        appendFileSync(file, `${last.replace(/"uuid":"[^"]+"/, '"uuid":"grown-0001"')}\n`);
      });
      const afterGrowth = query(grown);
      expect(citing(afterGrowth).map((l) => l.sha256)).toEqual(citing(same).map((l) => l.sha256));
      expect(afterGrowth.freshness_warnings).toEqual([]);
    },
  );

  it(
    'holds back the lines of a session rewritten after ingest as stale, and delivers them with --include-stale',
    { timeout: 300_000 },
    () => {
      const fresh = citing(query(ingested));
      expect(fresh.length).toBeGreaterThan(0);
      const root = variant('edited', (file) =>
        writeFileSync(file, readFileSync(file, 'utf8').replace(CITED, 'starts fine now')),
      );
      const held = query(root);
      expect(citing(held)).toEqual([]);
      expect(held.freshness_warnings).toEqual(
        fresh.map((line) =>
          expect.objectContaining({
            sha256: line.sha256,
            state: 'stale',
            reason: 'source_changed',
            sources: [SOURCE],
            delivered: false,
            next_action: 'correct',
          }),
        ),
      );
      const included = query(root, '--include-stale');
      expect(citing(included).map((l) => l.sha256)).toEqual(fresh.map((l) => l.sha256));
      expect(included.freshness_warnings.every((w) => w.delivered)).toBe(true);

      const text = mem(root, ['query', CITED, '--project', 'demo']);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain(`held back L1 ${fresh[0]!.sha256.slice(0, 12)}: stale`);
      followHint(root, held);
    },
  );

  it(
    'holds back the lines of a session whose cited record was rewritten in letter case or whitespace only',
    { timeout: 300_000 },
    () => {
      // The chunk's content sha is of normalised text: only the byte digest its chunk event
      // records (stop 35) tells these rewrites from the text read at ingest.
      const fresh = citing(query(ingested));
      expect(fresh.length).toBeGreaterThan(0);
      for (const [name, to] of [
        ['cased', 'Doesnt Seem To Start'],
        ['spaced', 'doesnt  seem to start'],
      ] as const) {
        const root = variant(name, (file) =>
          writeFileSync(file, readFileSync(file, 'utf8').replace(CITED, to)),
        );
        const held = query(root);
        expect(held.results.filter((r) => fresh.some((l) => l.sha256 === r.sha256))).toEqual([]);
        expect(held.freshness_warnings).toEqual(
          fresh.map((line) =>
            expect.objectContaining({
              sha256: line.sha256,
              state: 'stale',
              reason: 'source_changed',
            }),
          ),
        );
      }
    },
  );

  it(
    'delivers a confirmed line of a rewritten session while its span reads as confirmed, and holds it back after another change',
    { timeout: 300_000 },
    () => {
      const edit = (from: string, to: string) => (file: string) =>
        writeFileSync(file, readFileSync(file, 'utf8').replace(from, to));
      const root = variant('confirmed', edit(CITED, 'starts fine now'));
      const held = query(root);
      expect(held.freshness_warnings.length).toBeGreaterThan(0);
      const shas = held.freshness_warnings.map((w) => w.sha256);
      for (const w of held.freshness_warnings) {
        const named = /mem confirm ([0-9a-f]{8}) --project demo/.exec(w.hint);
        expect(named, w.hint).not.toBeNull();
        const run = mem(root, ['confirm', named![1]!, '--project', 'demo', '--note', 'checked']);
        expect(run.code, run.stderr).toBe(0);
      }
      const after = query(root);
      expect(after.freshness_warnings).toEqual([]);
      expect(citing(after).map((l) => l.sha256)).toEqual(
        expect.arrayContaining(
          shas.filter((s) => citing(query(ingested)).some((l) => l.sha256 === s)),
        ),
      );
      // The confirmation recorded what the spans read as: a later change holds them back again.
      edit('starts fine now', 'starts at last')(sessionFile(root));
      const again = query(root);
      expect(again.freshness_warnings.map((w) => w.sha256).sort()).toEqual([...shas].sort());
      expect(again.freshness_warnings.every((w) => w.state === 'stale')).toBe(true);
    },
  );

  it(
    'delivers the replacement of a stale line, written now, and holds it back after another change',
    { timeout: 300_000 },
    () => {
      const edit = (from: string, to: string) => (file: string) =>
        writeFileSync(file, readFileSync(file, 'utf8').replace(from, to));
      const root = variant('superseded', edit(CITED, 'starts fine now'));
      const held = query(root, '--include-stale');
      const old = citing(held)[0]!;
      const text = `${old.text} Checked against the session as it reads now.`;
      const run = mem(root, [
        'supersede',
        old.sha256.slice(0, 12),
        '--by',
        text,
        '--project',
        'demo',
        '--reason',
        'the session was rewritten',
      ]);
      expect(run.code, run.stderr).toBe(0);
      const after = query(root);
      const replacement = after.results.find((r) => r.text === text);
      expect(replacement, JSON.stringify(after.freshness_warnings)).toBeDefined();
      expect(after.freshness_warnings.map((w) => w.sha256)).not.toContain(replacement!.sha256);
      edit('starts fine now', 'starts at last')(sessionFile(root));
      const again = query(root);
      expect(again.results.map((r) => r.sha256)).not.toContain(replacement!.sha256);
      expect(again.freshness_warnings.map((w) => w.sha256)).toContain(replacement!.sha256);
    },
  );

  it(
    'packs no line of a rewritten session into tool context unless --include-stale, and names it in the answer',
    { timeout: 300_000 },
    () => {
      const context = (root: string, ...flags: string[]): ContextAnswer => {
        const out = mem(root, [
          'context',
          '--task',
          CITED,
          '--project',
          'demo',
          ...flags,
          '--json',
        ]);
        expect(out.code, out.stderr).toBe(0);
        return JSON.parse(out.stdout) as ContextAnswer;
      };
      const packed = (answer: ContextAnswer) =>
        answer.results.filter((r) => (r.text ?? r.line?.text ?? '').includes(CITED));
      const before = context(ingested);
      expect(packed(before).length).toBeGreaterThan(0);
      expect(before.freshness_warnings).toEqual([]);

      const root = variant('context-edited', (file) =>
        writeFileSync(file, readFileSync(file, 'utf8').replace(CITED, 'starts fine now')),
      );
      const after = context(root);
      expect(packed(after)).toEqual([]);
      expect(after.freshness_warnings.map((w) => w.sha256).sort()).toEqual(
        expect.arrayContaining(packed(before).map((r) => r.sha256 ?? r.line!.sha256)),
      );
      expect(after.freshness_warnings.every((w) => w.state === 'stale' && !w.delivered)).toBe(true);

      const asked = context(root, '--include-stale');
      expect(packed(asked).map((r) => r.sha256 ?? r.line!.sha256)).toEqual(
        packed(before).map((r) => r.sha256 ?? r.line!.sha256),
      );
      expect(asked.freshness_warnings.map((w) => w.sha256).sort()).toEqual(
        after.freshness_warnings.map((w) => w.sha256).sort(),
      );
      expect(asked.freshness_warnings.every((w) => w.state === 'stale' && w.delivered)).toBe(true);
    },
  );

  it(
    'marks the lines of a deleted session unknown, and its hint settles one',
    { timeout: 300_000 },
    () => {
      const root = variant('deleted', (file) => rmSync(file));
      const held = query(root);
      expect(citing(held)).toEqual([]);
      expect(held.freshness_warnings.length).toBeGreaterThan(0);
      expect(held.freshness_warnings).toEqual(
        held.freshness_warnings.map(() =>
          expect.objectContaining({
            state: 'unknown',
            reason: 'source_unreadable',
            sources: [SOURCE],
            next_action: 'correct',
          }),
        ),
      );
      followHint(root, held);
    },
  );
});
