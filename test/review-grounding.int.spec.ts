import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * Issue 12 §4, stale grounding, through the built `mem` in real processes: one real Claude
 * Code session ingested once, then copies of that data root whose session file is left alone,
 * grown, edited or deleted; `mem review scan` must flag exactly the edited and deleted ones,
 * and a second scan must write nothing.
 */
const repo = join(import.meta.dirname, '..');
const bin = join(repo, 'packages', 'cli', 'bin', 'mem.js');
const session = join(repo, 'test', 'fixtures', 'transcripts', 'claude', 'spotter-short.jsonl');
const CITED = 'doesnt seem to start';
let base: string;
let ingested: string;

function mem(root: string, args: string[]) {
  const result = spawnSync(process.execPath, [bin, '--root', root, ...args], {
    encoding: 'utf8',
    env: { ...process.env, MEM_ROOT: '', OPENAI_BASE_URL: '', MEM_LLM_URL: '' },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface Finding {
  id: string;
  kind: string;
  subjects: string[];
  explanation: string;
}

function scan(root: string): Finding[] {
  const out = mem(root, ['review', 'scan', '--project', 'demo', '--json']);
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  return (JSON.parse(out.stdout) as { opened: Finding[] }).opened;
}

const sessionFile = (root: string) => join(root, 'sessions', 's.jsonl');
const logText = (root: string) => readFileSync(join(root, 'log', 'demo', '000001.jsonl'), 'utf8');

/** A copy of the ingested data root, its session file then changed by `edit`. */
function variant(name: string, edit: (file: string) => void): string {
  const root = join(base, name);
  cpSync(ingested, root, { recursive: true });
  edit(sessionFile(root));
  return root;
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'mem-grounding-'));
  ingested = join(base, 'ingested');
  mkdirSync(join(ingested, 'queries'), { recursive: true });
  mkdirSync(join(ingested, 'sessions'));
  copyFileSync(session, sessionFile(ingested));
  const demo = readFileSync(join(repo, 'queries', 'demo.yaml'), 'utf8')
    .replace('claude:../test/fixtures/transcripts/claude', 'claude:../sessions')
    .replace(/^ {2}- pi:.*\n/m, '');
  writeFileSync(join(ingested, 'queries', 'demo.yaml'), demo);
  const run = mem(ingested, ['ingest', '--project', 'demo']);
  expect(run.code).toBe(0);
  // The heuristic keeps a line citing the chunk that holds the user's question.
  expect(logText(ingested)).toContain(CITED);
}, 300_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('mem review scan: stale grounding', () => {
  it('leaves an untouched session and one that only grew alone', { timeout: 300_000 }, () => {
    expect(scan(variant('same', () => {})).filter((f) => f.kind === 'stale_grounding')).toEqual([]);
    const grown = variant('grown', (file) => {
      const last = readFileSync(file, 'utf8').trimEnd().split('\n').at(-1)!;
      appendFileSync(file, `${last.replace(/"uuid":"[^"]+"/, '"uuid":"grown-0001"')}\n`);
    });
    expect(scan(grown).filter((f) => f.kind === 'stale_grounding')).toEqual([]);
  });

  it(
    'flags the lines citing an edited session, once: a second scan writes nothing',
    { timeout: 300_000 },
    () => {
      const root = variant('edited', (file) =>
        writeFileSync(file, readFileSync(file, 'utf8').replace(CITED, 'starts fine now')),
      );
      const opened = scan(root).filter((f) => f.kind === 'stale_grounding');
      expect(opened.length).toBeGreaterThan(0);
      for (const f of opened) {
        expect(f.explanation).toMatch(/changed: its records no longer chunk to the digest/);
        expect(f.explanation).toContain('claude:55604662-cf2a-4331-851a-ec234028f8ca');
        expect(f.explanation).not.toContain(CITED);
      }
      const before = logText(root);
      expect(scan(root)).toEqual([]);
      expect(logText(root)).toBe(before);
    },
  );

  it(
    'judges a session by its stamps, as query freshness does: re-read only once size, mtime or inode moved',
    { timeout: 300_000 },
    () => {
      const pinned = 1_700_000_000; // whole seconds: the stamp survives utimes exactly
      const root = variant('stamped', (file) => utimesSync(file, pinned, pinned));
      const file = sessionFile(root);
      expect(scan(root).filter((f) => f.kind === 'stale_grounding')).toEqual([]);
      expect(existsSync(join(root, '.mem', 'cache', 'grounding', 'demo.json'))).toBe(true);
      // The cited words rewritten in place (content identity ignores case, so a word changes),
      // same length, same inode, the mtime put back: the
      // stamps say nothing moved, so the second scan reads no session (it would flag it).
      const text = readFileSync(file, 'utf8');
      const edited = text.replace(CITED, CITED.replace('start', 'stall'));
      expect(edited.length).toBe(text.length);
      const ino = statSync(file).ino;
      writeFileSync(file, edited);
      utimesSync(file, pinned, pinned);
      expect(statSync(file).ino).toBe(ino);
      expect(scan(root)).toEqual([]);
      // Once the mtime moves, the session is re-read and the edit is found.
      utimesSync(file, pinned + 60, pinned + 60);
      const opened = scan(root).filter((f) => f.kind === 'stale_grounding');
      expect(opened.length).toBeGreaterThan(0);
      expect(opened.every((f) => /changed: its records no longer chunk/.test(f.explanation))).toBe(
        true,
      );
    },
  );

  it('flags the lines citing a deleted session as gone', { timeout: 300_000 }, () => {
    const opened = scan(variant('deleted', (file) => rmSync(file))).filter(
      (f) => f.kind === 'stale_grounding',
    );
    expect(opened.length).toBeGreaterThan(0);
    expect(opened.every((f) => /is gone: its source no longer yields/.test(f.explanation))).toBe(
      true,
    );
  });

  /*
   * Trigger: queries/demo.yaml names a source directory that is not here (the README's HTTP
   * walk-through copies queries/demo.yaml into .demo/, where ../test/fixtures resolves to
   * nothing; the stop-33 walk). Why: the scan failed CONFIG_INVALID, so no detector ran (not
   * the duplicate one either), while mem query answers on such a root. Outcome: as in query
   * freshness, its lines are not judged, and the other detectors run.
   */
  it('runs the other detectors when the source directory is not here', { timeout: 300_000 }, () => {
    const root = variant('copied', () => {});
    rmSync(join(root, 'sessions'), { recursive: true });
    for (const summary of ['Run the tests with npm test', 'run the tests with npm test.'])
      expect(mem(root, ['remember', summary, '--type', 'rule', '--project', 'demo']).code).toBe(0);
    const opened = scan(root);
    expect(opened.filter((f) => f.kind === 'stale_grounding')).toEqual([]);
    expect(opened.map((f) => f.kind)).toContain('duplicate');
  });
});
