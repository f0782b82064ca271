import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSha256 } from '@mem/core';
import { memInProcess } from './support/mem-cli.js';

/*
 * Issue 12 §5: a line a person adds to an L1 note in Obsidian is captured (`line_added`), not
 * silently dropped by the next rebuild: the note rebuilds byte for byte, verify is clean, and
 * `mem query` finds the line, citing the capture. On a copy of the demo's log.
 */
const repo = join(import.meta.dirname, '..');
const NOTE = join('vault', 'demo', 'architecture-decisions.md');
const ADDED = 'Palette swaps go through the zanzibar compositor since the vault edit';
const FIRST_LINE = 'a3b09971';
const roots: string[] = [];
let root: string;

function demoRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mem-added-'));
  roots.push(dir);
  cpSync(join(repo, 'log'), join(dir, 'log'), { recursive: true });
  cpSync(join(repo, 'queries'), join(dir, 'queries'), { recursive: true });
  return dir;
}

const mem = (args: string[], at = root) => memInProcess(['--root', at, ...args]);
const note = (at = root) => readFileSync(join(at, NOTE), 'utf8');
const events = (at = root) =>
  readdirSync(join(at, 'log', 'demo'))
    .sort()
    .flatMap((segment) =>
      readFileSync(join(at, 'log', 'demo', segment), 'utf8')
        .trim()
        .split('\n'),
    )
    .map((line) => JSON.parse(line) as Record<string, unknown> & { seq: number; type: string });

interface CaptureOut {
  events: { kind: string; line: number; target: string; seq: number | null }[];
  findings: { path: string; line: number; problem: string }[];
}

async function capture(): Promise<CaptureOut> {
  const run = await mem(['vault', 'capture', '--project', 'demo', '--json']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as CaptureOut;
}

/** The note with `text` as a new bullet right under the provenance line of its first memory line. */
function addLine(text: string): string {
  const lines = note().split('\n');
  const first = lines.findIndex((line) => line.endsWith(` ^${FIRST_LINE}`));
  expect(first).toBeGreaterThan(0);
  lines.splice(first + 2, 0, `- ${text}`);
  const edited = lines.join('\n');
  writeFileSync(join(root, NOTE), edited);
  return edited;
}

beforeAll(async () => {
  root = demoRoot();
  expect((await mem(['rebuild', '--from-log'])).code).toBe(0);
}, 300_000);
afterAll(() => {
  for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('mem vault capture: an added line', () => {
  let edited: string;
  let seq: number;

  it('is appended as line_added after the line it follows, by the local principal, and the note stays as the person left it', async () => {
    edited = addLine(ADDED);
    const out = await capture();
    expect(out.findings).toEqual([]);
    expect(out.events).toEqual([
      expect.objectContaining({ kind: 'add', line: 13, target: contentSha256(ADDED) }),
    ]);
    seq = out.events[0]!.seq!;
    const added = events().find((e) => e.seq === seq)!;
    expect(added).toMatchObject({
      type: 'line_added',
      level: 'L1',
      query_id: 'architecture-decisions',
      text: ADDED,
      sha256: contentSha256(ADDED),
      reason: 'edited in the vault',
      writer: { principal: expect.stringMatching(/^local:/) as unknown },
    });
    expect((added['after'] as string).startsWith(FIRST_LINE)).toBe(true);
    // What changes besides the person's edit: the note's `updated` is the capture's day.
    edited = edited.replace(/^updated: .*$/m, `updated: ${(added['ts'] as string).slice(0, 10)}`);
    expect(note()).toBe(edited);
    expect((await mem(['verify', '--project', 'demo'])).code).toBe(0);
    expect((await capture()).events).toEqual([]);
  }, 300_000);

  it('is found by mem query, citing the capture event rather than a chunk', async () => {
    const run = await mem(['query', 'zanzibar compositor palette', '--project', 'demo', '--json']);
    expect(run.code).toBe(0);
    const hits = (
      JSON.parse(run.stdout) as {
        results: {
          text: string;
          parents: unknown[];
          added_by: { seq: number; reason: string } | null;
        }[];
      }
    ).results;
    const hit = hits.find((h) => h.text === ADDED);
    expect(hit).toBeDefined();
    expect(hit!.added_by).toMatchObject({ seq, reason: 'edited in the vault' });
    expect(hit!.parents).toEqual([]);
  }, 300_000);

  it('is written byte for byte by a rebuild from the log alone', async () => {
    const elsewhere = demoRoot();
    rmSync(join(elsewhere, 'log'), { recursive: true });
    cpSync(join(root, 'log'), join(elsewhere, 'log'), { recursive: true });
    const rebuilt = await mem(['rebuild', '--from-log'], elsewhere);
    expect(rebuilt.stderr).toBe('');
    expect(rebuilt.code).toBe(0);
    expect(note(elsewhere)).toBe(edited);
  }, 300_000);

  it('deleted again, is forgotten like any line and leaves recall', async () => {
    const without = edited
      .split('\n')
      .filter((line) => line !== `- ${ADDED}`)
      .join('\n');
    writeFileSync(join(root, NOTE), without);
    const out = await capture();
    expect(out.events).toEqual([
      expect.objectContaining({ kind: 'forget', target: contentSha256(ADDED) }),
    ]);
    expect(note()).toBe(without);
    const run = await mem(['query', 'zanzibar compositor palette', '--project', 'demo', '--json']);
    expect(run.stdout).not.toContain(ADDED);
  }, 300_000);

  it('under the heading, outside the list of memory lines, is reported and not captured', async () => {
    const before = events().length;
    writeFileSync(
      join(root, NOTE),
      note().replace('\n\n- ', '\n\n- A line above every memory line\n- '),
    );
    const out = await capture();
    expect(out.events).toEqual([]);
    expect(out.findings).toEqual([
      expect.objectContaining({ path: 'demo/architecture-decisions.md', problem: 'body_edited' }),
    ]);
    expect(events().length).toBe(before);
  }, 300_000);
});
