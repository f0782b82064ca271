import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSha256, uniformLines, type Payload } from '@mem/core';
import { memoryPayloads } from './api/support.js';
import { memInProcess, memProcess } from './support/mem-cli.js';

/*
 * Issue 13 §5: duplicates folded with their lineage. Two notes hold the same finding (one
 * with a full stop, one without), the L2 synthesis copies it under its `[query] ` prefix, and
 * a fact was promoted from it: four hits on one page say one thing. `mem query`, a real
 * process, answers one result, the best-ranked, with the others named in `folded` (kind,
 * sha or item id, level, note) and `ranking.folded` counting them; the page is refilled, so
 * `--limit 3` still returns three distinct results. Another project's copy never folds.
 */
let root: string;

const FINDING = 'The theme loader crashes on an invalid hex colour in hexToRgb';
const REWORDED = `${FINDING}.`;
const OTHERS = [
  'The theme loader reads every theme file at start-up',
  'A theme with an invalid colour name falls back to the dark palette',
  'The hexToRgb helper parses three- and six-digit colours',
];
const bugs = memoryPayloads('run-bugs', `Seen: ${FINDING}`, `${FINDING}\n${OTHERS[0]}`, 'bugs');
const cache = memoryPayloads(
  'run-cache',
  `Seen: ${REWORDED}`,
  `${REWORDED}\n${OTHERS[1]}`,
  'cache',
);
const colours = memoryPayloads('run-colours', `Seen: ${OTHERS[2]}`, OTHERS[2]!, 'colours');
const COPY = `[bugs] ${FINDING}`;

/** An L2 synthesis over the two L1 memories that copies the finding. */
function synthesis(): Payload[] {
  const text = `- ${COPY}`;
  const parents = [bugs.memory, cache.memory];
  return [
    {
      type: 'run',
      run_id: 'run-l2',
      level: 'L2',
      query_id: null,
      input_level: 'L1',
      model: 'heuristic-synthesis',
      chunk_tokens: 5000,
      memory_budget: 1024,
      exit_gate: true,
    },
    {
      type: 'gate',
      run_id: 'run-l2',
      level: 'L2',
      t: 1,
      update: true,
      exit: false,
      think: 'synthesis',
      latency_ms: 0,
    },
    {
      type: 'memory',
      run_id: 'run-l2',
      level: 'L2',
      t: 1,
      text,
      tokens: 12,
      parents,
      sha256: contentSha256(text),
      lines: uniformLines(text, parents),
    },
    {
      type: 'run_end',
      run_id: 'run-l2',
      level: 'L2',
      chunks_seen: 1,
      chunks_used: 1,
      final_memory_sha: contentSha256(text),
    },
  ] as Payload[];
}

const mem = (...args: string[]) => memInProcess(['--root', root, ...args]);

interface Hit {
  kind: string;
  level: string;
  sha256: string;
  project: string;
  text: string;
  item: { id: string } | null;
  folded?: {
    kind: string;
    sha256: string;
    item_id: string | null;
    level: string;
    project: string;
    note: { path: string } | null;
  }[];
  ranking: { folded?: number };
}

let factId: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-fold-'));
  const file = join(root, 'payloads.jsonl');
  const payloads = [...bugs.payloads, ...cache.payloads, ...colours.payloads, ...synthesis()];
  writeFileSync(file, payloads.map((p) => JSON.stringify(p)).join('\n') + '\n');
  expect((await mem('log', 'append', '--project', 'demo', '--file', file)).code).toBe(0);
  // The same finding in another project: never folded into demo's.
  const other = memoryPayloads('run-other', `Seen: ${FINDING}`, FINDING, 'bugs');
  writeFileSync(file, other.payloads.map((p) => JSON.stringify(p)).join('\n') + '\n');
  expect((await mem('log', 'append', '--project', 'other', '--file', file)).code).toBe(0);
  const promoted = await mem(
    'remember',
    '--from-line',
    contentSha256(FINDING).slice(0, 12),
    '--type',
    'fact',
    '--project',
    'demo',
    '--reason',
    'we rely on it',
    '--json',
  );
  expect(promoted.stderr).toBe('');
  factId = (JSON.parse(promoted.stdout) as { ids: string[] }).ids[0]!;
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

function query(...args: string[]): Hit[] {
  const run = memProcess(['--root', root, 'query', ...args, '--json']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return (JSON.parse(run.stdout) as { results: Hit[] }).results;
}

describe('mem query folds duplicates with their lineage', () => {
  it('answers one result for four hits saying one thing, names the folded hits, and refills the page', () => {
    const results = query(
      'theme loader invalid hex colour hexToRgb',
      '--project',
      'demo',
      '--limit',
      '3',
    );
    expect(results).toHaveLength(3);
    const texts = results.map((r) => r.text);
    // One of the four copies stands for them all; the other two results say other things.
    const copies = results.filter(
      (r) => [FINDING, REWORDED, COPY].includes(r.text) || r.kind === 'item',
    );
    expect(copies).toHaveLength(1);
    expect(new Set(texts).size).toBe(3);
    const [head] = copies;
    const lineage = head!.folded!;
    expect(head!.ranking.folded).toBe(3);
    expect(lineage).toHaveLength(3);
    const named = [head!, ...lineage].map((f) =>
      'item_id' in f ? f : { ...f, item_id: f.item?.id ?? null },
    );
    expect(named.map((f) => [f.kind, f.level, f.item_id ?? f.sha256]).sort()).toEqual(
      [
        ['item', 'I', factId],
        ['line', 'L1', contentSha256(FINDING)],
        ['line', 'L1', contentSha256(REWORDED)],
        ['line', 'L2', contentSha256(COPY)],
      ].sort(),
    );
    const notes = lineage.filter((f) => f.kind === 'line').map((f) => f.note?.path);
    expect(notes.every((p) => typeof p === 'string')).toBe(true);
    // Never across projects: every folded hit is demo's.
    expect(lineage.every((f) => f.project === 'demo')).toBe(true);
  });

  it('is deterministic and never folds across projects', () => {
    const args = ['theme loader invalid hex colour hexToRgb', '--limit', '4'];
    const first = query(...args);
    expect(query(...args)).toEqual(first);
    const other = first.filter((r) => r.project === 'other');
    expect(other.map((r) => r.text)).toEqual([FINDING]);
    for (const r of first) for (const f of r.folded ?? []) expect(f.project).toBe(r.project);
  });
});
