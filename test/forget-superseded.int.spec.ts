import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSha256 } from '@mem/core';
import { memInProcess } from './support/mem-cli.js';

/*
 * A user walk of the demo: `mem supersede` a line, then `mem forget` its old sha (the old words
 * had a secret). The forget names the old words only: the replacement stays a live line in the
 * item store and pgvector, so the vault note `mem query` points at must still hold it (under the
 * old block id, so links to the line keep resolving), a rebuild must render the same bytes, and
 * `mem history` of the replacement must say which line it replaced.
 */
const repo = join(import.meta.dirname, '..');
const OLD_BLOCK = '6d6af223';
const NEW = 'Theme preview ignores invalid variable references while the theme is edited';
const SUPERSEDE_REASON = 'said better';
let root: string;
let supersededSeq: number;

// In process: the cases are about what the commands leave behind, not about processes.
const mem = (...args: string[]) => memInProcess(['--root', root, ...args]);

async function ok(...args: string[]): Promise<string> {
  const out = await mem(...args);
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  return out.stdout;
}

/** Every note of the demo vault (evidence notes aside), path → text. */
function notes(): Map<string, string> {
  const dir = join(root, 'vault', 'demo');
  const out = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort())
    if (entry.endsWith('.md')) out.set(entry, readFileSync(join(dir, entry), 'utf8'));
  return out;
}

interface Hit {
  level: string;
  sha256: string;
  text: string;
  note: { path: string } | null;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-forget-superseded-'));
  for (const dir of ['log', 'queries'])
    cpSync(join(repo, dir), join(root, dir), { recursive: true });
  for (const only of ['sqlite', 'vault']) await ok('rebuild', '--from-log', '--only', only);
  const superseded = await ok(
    'supersede',
    OLD_BLOCK,
    '--by',
    NEW,
    '--project',
    'demo',
    '--reason',
    SUPERSEDE_REASON,
    '--json',
  );
  supersededSeq = (JSON.parse(superseded) as { seq: number }).seq;
  await ok(
    'forget',
    OLD_BLOCK,
    '--project',
    'demo',
    '--reason',
    'old wording had a secret',
    '--json',
  );
}, 180_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('forgetting the old sha of a superseded line', () => {
  it('keeps the replacement in the note mem query points at, under the old block id', async () => {
    const out = await ok('query', NEW, '--project', 'demo', '--json');
    const hit = (JSON.parse(out) as { results: Hit[] }).results.find(
      (h) => h.sha256 === contentSha256(NEW),
    );
    expect(hit?.level).toBe('L1');
    expect(hit!.note).not.toBeNull();
    const note = readFileSync(join(root, 'vault', hit!.note!.path), 'utf8');
    expect(note).toContain(`- ${NEW} ^${OLD_BLOCK}\n`);
    // The old words are gone from every note.
    for (const [path, text] of notes()) {
      expect({ path, old: text.includes('Variable reference not found: dimGray') }).toEqual({
        path,
        old: false,
      });
    }
  });

  it('renders the same vault when rebuilt from the log', async () => {
    const live = notes();
    await ok('rebuild', '--from-log', '--only', 'vault');
    expect(notes()).toEqual(live);
  }, 120_000);

  it('says in the replacement’s history which line it replaced, when, by whom and why', async () => {
    const out = await ok('history', contentSha256(NEW), '--project', 'demo', '--json');
    const history = JSON.parse(out) as {
      entries: { seq: number; type: string; reason: string; actor: string; replaces?: string }[];
    };
    expect(history.entries).toHaveLength(1);
    expect(history.entries[0]).toMatchObject({
      seq: supersededSeq,
      type: 'superseded',
      reason: SUPERSEDE_REASON,
      after_sha256: contentSha256(NEW),
    });
    expect(history.entries[0]!.replaces).toMatch(new RegExp(`^${OLD_BLOCK}[0-9a-f]{56}$`));
    expect(history.entries[0]!.actor).toEqual(expect.any(String));
    const text = await ok('history', contentSha256(NEW), '--project', 'demo');
    expect(text).toContain('1 mutation');
    expect(text).toContain(`seq ${supersededSeq} superseded`);
    expect(text).toContain(`this text replaced ${OLD_BLOCK}`);
  });

  it('captures deleting the replacement in the vault as forgetting the replacement', async () => {
    const path = join(root, 'vault', 'demo', 'bugs-and-root-causes.md');
    const lines = readFileSync(path, 'utf8').split('\n');
    const at = lines.indexOf(lines.find((line) => line.endsWith(`^${OLD_BLOCK}`))!);
    expect(lines[at]).toBe(`- ${NEW} ^${OLD_BLOCK}`);
    lines.splice(at, 2); // the line and its `- from` line
    writeFileSync(path, lines.join('\n'));
    const captured = JSON.parse(await ok('vault', 'capture', '--project', 'demo', '--json')) as {
      events: { kind: string; target: string }[];
    };
    expect(captured.events).toEqual([
      expect.objectContaining({ kind: 'forget', target: contentSha256(NEW) }),
    ]);
    const out = await ok('query', NEW, '--project', 'demo', '--json');
    const hits = (JSON.parse(out) as { results: Hit[] }).results;
    expect(hits.some((h) => h.sha256 === contentSha256(NEW))).toBe(false);
    for (const [note, text] of notes())
      expect({ note, has: text.includes(NEW) }).toEqual({ note, has: false });
  });
});
