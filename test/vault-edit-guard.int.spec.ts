import { mkdtempSync, readFileSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentSha256, uniformLines } from '@mem/core';
import { memInProcess } from './support/mem-cli.js';

/*
 * Stop 35: a correction re-rendered a note over a person's uncaptured edit. `mem supersede` of a
 * line (or `mem forget`, `mem log append` of a correction, vault capture with an edit it only
 * reports) appended its event, and the vault projector wrote the log's version of every note the
 * event changed: the edit, which existed nowhere else, was gone without a word. Now every writer
 * of corrections checks, under the project's correction lock, the notes its batch would
 * re-render: one holding an uncaptured edit is CONFLICT (`uncaptured_edits`) naming the file and
 * line and telling to run `mem vault capture`; nothing is appended and the file is kept.
 */
const repo = join(import.meta.dirname, '..');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
const KONG =
  'Requests over 10KB failed with 413: Kong buffered the body; fixed with proxy-body-size: 0.';
const PG =
  'CI flake: pg container raced its volume mount; fixed with a pg_isready readiness probe.';
const PG_EDITED = 'CI flake: the pg container raced its volume mount (pg_isready fixed it).';
const NOTE = join('vault', 'demo', 'infra-root-causes.md');
const INDEX = join('vault', 'demo', 'index.md');
let root: string;

const mem = (args: string[], input?: string) =>
  memInProcess(['--root', root, ...args], input === undefined ? {} : { input });
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const logLines = () =>
  readdirSync(join(root, 'log', 'demo'))
    .sort()
    .flatMap((segment) => read(join('log', 'demo', segment)).split('\n'))
    .filter((line) => line !== '');

/** The note with the pg line rewritten in place (its block id kept): an uncaptured edit. */
function editPg(): string {
  const edited = read(NOTE).replace(`- ${PG}`, `- ${PG_EDITED}`);
  expect(edited).not.toBe(read(NOTE));
  writeFileSync(join(root, NOTE), edited);
  return edited;
}

/** `args` refused with CONFLICT uncaptured_edits naming the note; the log and the note as they were. */
async function refusedOverEdit(args: string[], input?: string): Promise<void> {
  const before = logLines().length;
  const edited = read(NOTE);
  const run = await mem([...args, '--json'], input);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  const error = (
    JSON.parse(run.stderr) as {
      error: {
        code: string;
        message: string;
        details: { reason: string; files: string[]; drift: { line: number; problem: string }[] };
      };
    }
  ).error;
  expect(error.code).toBe('CONFLICT');
  expect(error.details.reason).toBe('uncaptured_edits');
  expect(error.details.files).toEqual(['vault/demo/infra-root-causes.md']);
  expect(error.details.drift[0]).toMatchObject({ problem: 'line_rewritten' });
  expect(error.message).toContain('demo/infra-root-causes.md line ');
  expect(error.message).toContain('mem vault capture --project demo');
  expect(logLines()).toHaveLength(before);
  expect(read(NOTE)).toBe(edited);
}

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-edit-guard-'));
  expect((await mem(['log', 'append', '--project', 'demo', '--file', sample])).code).toBe(0);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('a correction of a note holding an uncaptured edit', () => {
  // Red before: each exited 0 and the note was re-rendered, the pg rewrite gone.
  it('mem supersede of another line of the note is refused, the edit kept; after capture it goes through', async () => {
    editPg();
    const supersede = [
      'supersede',
      contentSha256(KONG),
      '--project',
      'demo',
      '--by',
      'Kong buffered request bodies over 10KB (413) until proxy-body-size: 0.',
      '--reason',
      'said better',
    ];
    await refusedOverEdit(supersede);
    expect((await mem(['vault', 'capture', '--project', 'demo'])).code).toBe(0);
    const run = await mem(supersede);
    expect(run.code, run.stderr).toBe(0);
    expect(read(NOTE)).toContain(PG_EDITED);
    expect(read(NOTE)).toContain('Kong buffered request bodies over 10KB (413)');
    expect((await mem(['verify', '--project', 'demo'])).code).toBe(0);
  });

  it('mem forget of another line of the note is refused, the edit kept', async () => {
    editPg();
    await refusedOverEdit(['forget', contentSha256(KONG), '--project', 'demo', '--reason', 'no']);
  });

  it('mem log append of a correction of the note is refused, the edit kept', async () => {
    editPg();
    const text = 'Kong buffered bodies over 10KB.';
    const line = JSON.stringify({
      type: 'superseded',
      target: contentSha256(KONG),
      target_kind: 'line',
      before_sha256: contentSha256(KONG),
      after_sha256: contentSha256(text),
      text,
      reason: 'via log append',
    });
    await refusedOverEdit(['log', 'append', '--project', 'demo'], `${line}\n`);
  });

  it('mem log append of a new memory of the note is refused, the edit kept', async () => {
    editPg();
    const text = '- A third infra line from a new chunk.';
    const evidence = '94af7d3928e418e68468ee1a6aa51d19d8fc97bc6a24b762923b4f52a4370391';
    const line = JSON.stringify({
      type: 'memory',
      run_id: 'run-2026-08-17-infra-1',
      level: 'L1',
      t: 9,
      text,
      tokens: 9,
      parents: [evidence],
      sha256: contentSha256(text),
      lines: uniformLines(text, [evidence]),
    });
    await refusedOverEdit(['log', 'append', '--project', 'demo'], `${line}\n`);
  });

  // Stop 35's review: the guard looked at memory, superseded, forgotten, line_added and
  // tombstone events only, and at notes whose bytes the batch changes; the projector writes every
  // note a batch touches wherever the file differs. Red before: each exited 0, the edit gone.
  it('mem log append of a gate event of the note is refused, the edit kept', async () => {
    editPg();
    const line = JSON.stringify({
      type: 'gate',
      run_id: 'run-2026-08-17-infra-1',
      level: 'L1',
      t: 99,
      update: false,
      exit: false,
      think: 'Nothing new.',
      latency_ms: 0,
    });
    await refusedOverEdit(['log', 'append', '--project', 'demo'], `${line}\n`);
  });

  it('mem log append of a memory the note already shows (its bytes unchanged) is refused, the edit kept', async () => {
    editPg();
    const memories = readFileSync(sample, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"type":"memory"') && line.includes('infra-1'));
    const last = memories.at(-1)!;
    await refusedOverEdit(['log', 'append', '--project', 'demo'], `${last}\n`);
  });

  it('vault capture of a rewrite in a note whose frontmatter was edited too is refused (capture records the line, the re-render would drop the frontmatter)', async () => {
    const edited = editPg().replace(/^chunks_seen: .*$/m, 'chunks_seen: 99');
    writeFileSync(join(root, NOTE), edited);
    const before = logLines().length;
    const run = await mem(['vault', 'capture', '--project', 'demo', '--json']);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const error = (
      JSON.parse(run.stderr) as {
        error: { code: string; details: { reason: string; drift: { problem: string }[] } };
      }
    ).error;
    expect(error.code).toBe('CONFLICT');
    expect(error.details.reason).toBe('uncaptured_edits');
    expect(error.details.drift.map((d) => d.problem)).toEqual(['frontmatter_edited']);
    expect(logLines()).toHaveLength(before);
    expect(read(NOTE)).toBe(edited);
  });

  it('an edit in a note the correction does not re-render does not stop it, and stays', async () => {
    const index = read(INDEX).replace('both are fixed', 'both are fixed for good');
    expect(index).not.toBe(read(INDEX));
    writeFileSync(join(root, INDEX), index);
    const run = await mem([
      'supersede',
      contentSha256(KONG),
      '--project',
      'demo',
      '--by',
      'Kong buffered request bodies over 10KB (413) until proxy-body-size: 0.',
      '--reason',
      'said better',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(read(INDEX)).toBe(index);
    expect(read(NOTE)).toContain('Kong buffered request bodies over 10KB (413)');
  });

  it('a deleted note loses nothing: the correction goes through and writes it again', async () => {
    unlinkSync(join(root, NOTE));
    const run = await mem(['forget', contentSha256(KONG), '--project', 'demo', '--reason', 'no']);
    expect(run.code, run.stderr).toBe(0);
    expect(read(NOTE)).toContain(PG);
    expect(read(NOTE)).not.toContain(KONG);
  });
});
