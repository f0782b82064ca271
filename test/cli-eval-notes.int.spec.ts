import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memInProcess } from './support/mem-cli.js';

/*
 * `mem eval notes` on a subset of the committed gold set: spotter-short whole and the first 150
 * lines of the pi compaction session (its first compaction summary is at line 142), with the
 * embedded heuristic controller. It asserts the report's shape and that every number is computed
 * from the notes — not a target: the targets are issue 11's, measured by the full command.
 */
const repo = join(import.meta.dirname, '..');
const committed = join(repo, 'packages', 'eval', 'gold', 'transcripts.gold.json');
let dir: string;

const mem = (...args: string[]) =>
  memInProcess(['--root', join(dir, 'root'), ...args], { cwd: dir });

/** The committed gold set cut to two files, written beside the test's root; transcripts stay the fixtures. */
function subsetGold(): string {
  const gold = JSON.parse(readFileSync(committed, 'utf8')) as {
    transcripts: string;
    files: { path: string; lines?: number }[];
  };
  gold.transcripts = join(repo, 'test', 'fixtures', 'transcripts');
  const short = gold.files.find((f) => f.path === 'claude/spotter-short.jsonl')!;
  const compact = { ...gold.files.find((f) => f.path === 'pi/pi-mono-compact.jsonl')!, lines: 150 };
  gold.files = [short, compact];
  const file = join(dir, 'subset.gold.json');
  writeFileSync(file, JSON.stringify(gold));
  return file;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mem-eval-notes-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('mem eval notes', () => {
  it('ingests and synthesises each gold file and reports recall, noise, lines per note and update-rate per query', async () => {
    const result = await mem(
      'eval',
      'notes',
      '--gold',
      subsetGold(),
      '--json',
      '--controller',
      'heuristic',
    );
    expect(result.stderr).not.toContain('"error"');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      controller: 'heuristic',
      split: 'all',
      labelled_by: expect.stringContaining('by reading'),
    });
    expect(report.files.map((f: { path: string }) => f.path)).toEqual([
      'claude/spotter-short.jsonl',
      'pi/pi-mono-compact.jsonl',
    ]);
    const keys = [
      'architecture-decisions',
      'bugs-and-root-causes',
      'open-questions',
      'synthesis',
      'tool-failures',
    ];
    for (const file of report.files) {
      expect(Object.keys(file.per_query).sort()).toEqual(keys);
      expect(Object.keys(file.runs).sort()).toEqual(keys);
      expect(file.findings).toBeGreaterThan(0);
      for (const share of [file.recall_in_note, file.recall_anywhere, file.noise_share])
        expect(share).toBeGreaterThanOrEqual(0);
      expect(file.recall_in_note).toBeLessThanOrEqual(file.recall_anywhere);
      for (const run of Object.values<{
        chunks_seen: number;
        chunks_used: number;
        update_rate: number;
        memory_tokens_over_t: number[];
      }>(file.runs)) {
        expect(run.update_rate).toBe(
          run.chunks_seen === 0
            ? 0
            : Math.round((run.chunks_used / run.chunks_seen) * 10_000) / 10_000,
        );
        expect(run.memory_tokens_over_t).toHaveLength(run.chunks_used);
      }
    }
    // The pi slice holds a compaction summary: the heuristic keeps lines from it, so there is something to score.
    const compact = report.files[1];
    expect(compact.runs['architecture-decisions'].chunks_seen).toBeGreaterThan(0);
    expect(compact.lines).toBeGreaterThan(0);
    expect(compact.lines_per_note).toBe(
      Math.round((compact.lines / compact.notes) * 10_000) / 10_000,
    );
    expect(report.overall.all).toMatchObject({
      files: 2,
      findings: report.files[0].findings + compact.findings,
      lines: report.files[0].lines + compact.lines,
    });
    expect(report.overall.tuning).toEqual(report.overall.all);
    expect(report.overall['held-out']).toBeUndefined();
    // The update-rate per query pooled over the files: used and seen summed, then divided.
    for (const key of keys) {
      const seen = report.files.reduce(
        (n: number, f: { runs: Record<string, { chunks_seen: number }> }) =>
          n + f.runs[key]!.chunks_seen,
        0,
      );
      const used = report.files.reduce(
        (n: number, f: { runs: Record<string, { chunks_used: number }> }) =>
          n + f.runs[key]!.chunks_used,
        0,
      );
      expect(report.overall.all.runs[key]).toEqual({
        chunks_seen: seen,
        chunks_used: used,
        update_rate: seen === 0 ? 0 : Math.round((used / seen) * 10_000) / 10_000,
      });
    }
    // The same over only the runs of more than one step: a one-step run (a synthesis's first
    // fill from empty, a one-chunk file) is left out, a query with none has no entry.
    for (const key of keys) {
      const runs = report.files
        .map(
          (f: { runs: Record<string, { chunks_seen: number; chunks_used: number }> }) =>
            f.runs[key]!,
        )
        .filter((run: { chunks_seen: number }) => run.chunks_seen > 1);
      const seen = runs.reduce((n: number, r: { chunks_seen: number }) => n + r.chunks_seen, 0);
      const used = runs.reduce((n: number, r: { chunks_used: number }) => n + r.chunks_used, 0);
      expect(report.overall.all.runs_multi_step[key]).toEqual(
        runs.length === 0
          ? undefined
          : {
              chunks_seen: seen,
              chunks_used: used,
              update_rate: Math.round((used / seen) * 10_000) / 10_000,
            },
      );
    }
    // The incremental run: the files as one project, a file a part, synthesised after each; its
    // synthesis rate is the parts' steps and updates summed, and its L2 holds no line the L1
    // notes no longer say.
    const incremental = report.incremental;
    expect(incremental.parts.map((p: { path: string }) => p.path)).toEqual([
      'claude/spotter-short.jsonl',
      'pi/pi-mono-compact.jsonl',
    ]);
    const parts = incremental.parts as { steps: number; updates: number }[];
    expect(incremental.runs.synthesis).toMatchObject({
      chunks_seen: parts.reduce((n, p) => n + p.steps, 0),
      chunks_used: parts.reduce((n, p) => n + p.updates, 0),
    });
    expect(parts[0]!.updates).toBe(1);
    expect(Object.keys(incremental.runs).sort()).toEqual(keys);
    expect(incremental.l2_lines).toBeGreaterThan(0);
    expect(incremental.l2_lines_unbacked).toBe(0);
    // The line router alone on the labelled statements of the files run, synthesis left out.
    const routed = [
      'architecture-decisions',
      'bugs-and-root-causes',
      'tool-failures',
      'open-questions',
    ];
    const statements = report.files.reduce(
      (n: number, f: { per_query: Record<string, { findings: number }> }) =>
        n + routed.reduce((m, q) => m + f.per_query[q]!.findings, 0),
      0,
    );
    expect(report.routing.all).toMatchObject({ statements });
    expect(report.routing.all.routed).toBe(statements - report.routing.all.misrouted.length);
    expect(report.routing.tuning).toEqual(report.routing.all);
  }, 300_000);

  it('prints a readable table without --json', async () => {
    const result = await mem('eval', 'notes', '--gold', subsetGold(), '--controller', 'heuristic');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/overall all: \d+\/\d+ findings in their note/);
    expect(result.stdout).toMatch(/routing all: \d+\/\d+ gold statements routed to their question/);
    expect(result.stdout).toMatch(
      /update-rate all \(pooled\): architecture-decisions \d+\/\d+ \d+\.\d%, bugs-and-root-causes \d+\/\d+/,
    );
    expect(result.stdout).toContain('claude/spotter-short.jsonl');
    expect(result.stdout).toMatch(/update-rate all \(pooled over runs of > 1 step\): /);
    expect(result.stdout).toMatch(
      /update-rate incremental \(one project, 2 parts of a file each, synthesised after each\): .*synthesis \d+\/\d+/,
    );
    expect(result.stdout).toMatch(
      /synthesis per part \(updates\/steps\): 1\/1 \d+\/\d+; final L2 \d+ lines, 0 no L1 line says/,
    );
    // Without the incremental run the report says nothing of one.
    const plain = await mem(
      'eval',
      'notes',
      '--gold',
      subsetGold(),
      '--controller',
      'heuristic',
      '--no-incremental',
      '--json',
    );
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.stdout).incremental).toBeUndefined();
  }, 300_000);

  it('refuses a bad --split (exit 2), a split with no file (exit 2: INVALID_INPUT, as every refused input), a gold set that is not one and one that is not there (exit 1, typed), writing nothing', async () => {
    const gold = subsetGold();
    const bad = await mem('eval', 'notes', '--gold', gold, '--split', 'train');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--split');
    const empty = await mem('eval', 'notes', '--gold', gold, '--split', 'held-out', '--json');
    expect(empty.code).toBe(2);
    expect(JSON.parse(empty.stderr).error).toMatchObject({ code: 'INVALID_INPUT' });
    writeFileSync(join(dir, 'broken.gold.json'), JSON.stringify({ version: 1, files: [] }));
    // A gold set that is not one is CONFIG_INVALID; one that is not there NOT_FOUND, as every
    // other missing file the CLI is given (it was CONFIG_INVALID).
    for (const [file, code] of [
      [join(dir, 'broken.gold.json'), 'CONFIG_INVALID'],
      [join(dir, 'missing.gold.json'), 'NOT_FOUND'],
    ] as const) {
      const refused = await mem('eval', 'notes', '--gold', file, '--json');
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stderr).error).toMatchObject({
        code,
        message: expect.stringContaining(file),
      });
    }
    // The eval works in a scratch root of its own: the data root named by --root is never touched.
    expect(existsSync(join(dir, 'root'))).toBe(false);
  });
});
