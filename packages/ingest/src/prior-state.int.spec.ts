import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { qwenTokenizer } from '@mem/chunk';
import { contentSha256, type Payload } from '@mem/core';
import { Engine } from '@mem/engine';
import { projectorSqlite } from '@mem/projector-sqlite';
import { synthesisController } from '@mem/extractor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { l2Chain, priorState, withItemStore } from './prior-state.js';
import { loadStandingQueries } from './standing-queries.js';
import { synthesize } from './synthesize.js';
import { retirements } from './synthesis-steps.js';

const E_CRASH = 'Invalid hex color at hexToRgb; fell back to the dark theme.';
const E_TOML = 'Settings stay in TOML because comments survive.';
const CRASH = 'The theme loader crashed on an invalid hex colour; it falls back to the dark theme.';
const TOML = 'Settings stay in TOML, not YAML.';
const TEXT = `- ${CRASH}\n- ${TOML}`;

let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-prior-'));
  const engine = new Engine({ root, projectors: [projectorSqlite] });
  const sha = contentSha256;
  await engine.append(
    'demo',
    [
      {
        type: 'run',
        run_id: 'r-1',
        level: 'L1',
        query_id: 'q',
        input_level: 'chunk',
        model: 'heuristic',
        chunk_tokens: 5000,
        memory_budget: 1024,
        exit_gate: false,
      },
      {
        type: 'evidence',
        run_id: 'r-1',
        level: 'L0',
        t: 1,
        source: 'claude:s',
        text: E_CRASH,
        sha256: sha(E_CRASH),
      },
      {
        type: 'evidence',
        run_id: 'r-1',
        level: 'L0',
        t: 2,
        source: 'claude:s',
        text: E_TOML,
        sha256: sha(E_TOML),
      },
      {
        type: 'memory',
        run_id: 'r-1',
        level: 'L1',
        t: 2,
        text: TEXT,
        tokens: 20,
        parents: [sha(E_CRASH), sha(E_TOML)],
        sha256: sha(TEXT),
        lines: [
          { sha256: sha(CRASH), parents: [sha(E_CRASH)] },
          { sha256: sha(TOML), parents: [sha(E_TOML)] },
        ],
      },
    ],
    { kind: 'test' },
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('priorState', () => {
  it("hands a continued run each line's own parents, as the memory event logged them", () => {
    const prior = withItemStore(join(root, '.mem'), (store) => priorState(store, 'demo', 'q'));
    expect(prior.previous).toEqual({
      text: TEXT,
      parents: [contentSha256(E_CRASH), contentSha256(E_TOML)].sort(),
      lines: [
        { text: CRASH, parents: [contentSha256(E_CRASH)] },
        { text: TOML, parents: [contentSha256(E_TOML)] },
      ],
    });
  });
});

describe('l2Chain', () => {
  const DECIDED = 'Settings stay in TOML because comments survive a round trip.';
  const LOCKFILE = 'The build broke on a missing lockfile; the root cause was a stale cache.';
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mem-chain-'));
    mkdirSync(join(dir, 'queries'));
    writeFileSync(
      join(dir, 'queries', 'demo.yaml'),
      [
        'project: demo',
        'sources:',
        '  - claude:../sessions',
        'queries:',
        '  - id: bugs',
        '    question: What bugs were found, and how were they fixed?',
        '  - id: decisions',
        '    question: What decisions were made, and why?',
        'synthesis:',
        '  question: What should someone know before working on this project?',
        '  exit_gate: false',
      ].join('\n'),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** One L1 run writing one memory of `queryId` (its lines resting on one evidence each). */
  const l1 = (runId: string, queryId: string, lines: string[]): Payload[] => {
    const text = lines.map((l) => `- ${l}`).join('\n');
    return [
      {
        type: 'run',
        run_id: runId,
        level: 'L1',
        query_id: queryId,
        input_level: 'chunk',
        model: 'heuristic',
        chunk_tokens: 5000,
        memory_budget: 1024,
        exit_gate: false,
      },
      ...lines.map((line, i): Payload => ({
        type: 'evidence',
        run_id: runId,
        level: 'L0',
        t: i + 1,
        source: 'claude:s',
        text: `evidence of ${line}`,
        sha256: contentSha256(`evidence of ${line}`),
      })),
      {
        type: 'memory',
        run_id: runId,
        level: 'L1',
        t: lines.length,
        text,
        tokens: 20,
        parents: lines.map((line) => contentSha256(`evidence of ${line}`)).sort(),
        sha256: contentSha256(text),
        lines: lines.map((line) => ({
          sha256: contentSha256(line),
          parents: [contentSha256(`evidence of ${line}`)],
        })),
      },
      {
        type: 'run_end',
        run_id: runId,
        level: 'L1',
        chunks_seen: lines.length,
        chunks_used: lines.length,
        final_memory_sha: contentSha256(text),
      },
    ];
  };

  it('reads the L2 versions in order with the L1 lines of each, so a retirement is told from an eviction', async () => {
    const engine = new Engine({ root: dir, projectors: [projectorSqlite] });
    const config = loadStandingQueries(join(dir, 'queries'), 'demo', { resolveSources: false });
    const tokenizer = qwenTokenizer();
    const pass = () =>
      synthesize({ engine, config, controller: synthesisController(tokenizer), tokenizer });
    await engine.append('demo', l1('r1', 'bugs', [CRASH, LOCKFILE]), { kind: 'test' });
    await engine.append('demo', l1('r2', 'decisions', [DECIDED]), { kind: 'test' });
    await pass();
    // The bugs note lets the lockfile line go: the next synthesis retires its L2 copy.
    await engine.append('demo', l1('r3', 'bugs', [CRASH]), { kind: 'test' });
    await pass();
    const chain = withItemStore(join(dir, '.mem'), (store) => l2Chain(store, 'demo'));
    expect(chain).toHaveLength(2);
    expect(chain[0]!.text).toContain(LOCKFILE);
    expect(chain[1]!.text).not.toContain(LOCKFILE);
    // Each version with the notes' lines when it was written: the first while the bugs note
    // held the lockfile line, the second after it lost it.
    expect(chain[0]!.l1).toContain(`[bugs] ${LOCKFILE}`);
    expect([...chain[1]!.l1].sort()).toEqual([`[bugs] ${CRASH}`, `[decisions] ${DECIDED}`].sort());
    expect(retirements(chain)).toEqual([`[bugs] ${LOCKFILE}`]);
  });
});
