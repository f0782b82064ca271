import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qwenTokenizer } from '@mem/chunk';
import { Engine, type Projector } from '@mem/engine';
import { heuristicController, synthesisController } from '@mem/extractor';
import { projectorSqlite } from '@mem/projector-sqlite';
import { projectorVault } from '@mem/projector-vault';
import { ingest } from './ingest.js';
import { loadStandingQueries } from './standing-queries.js';
import { synthesize } from './synthesize.js';

// Issue 15 target 5: the ingest loop reads only the SQLite store (its prior state), so a
// projection it does not read (the embedded Postgres, ~120 MB of RSS) must not be opened before
// the loop and held through it; it is caught up once, after the last append.

const fixtures = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'transcripts');
const tokenizer = qwenTokenizer();
let root: string;
let engine: Engine;
/** Per projector, the project's log head (seq) each time it was opened. */
const opens = new Map<string, number[]>();

/** The projector as it is, recording the log head whenever the engine opens it. */
function counted<H>(projector: Projector<H>): Projector<H> {
  return {
    ...projector,
    init: async (target) => {
      const seen = opens.get(projector.name) ?? [];
      seen.push((await engine.head('demo')).seq);
      opens.set(projector.name, seen);
      return projector.init(target);
    },
  };
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-ingest-opens-'));
  mkdirSync(join(root, 'queries'));
  writeFileSync(
    join(root, 'queries', 'demo.yaml'),
    `project: demo
sources:
  - claude:../sessions/claude
queries:
  - id: bugs
    question: What bugs or failures were found, what was the root cause, and how were they fixed?
synthesis:
  question: What is the current state of this project?
  exit_gate: false
`,
  );
  cpSync(join(fixtures, 'claude'), join(root, 'sessions', 'claude'), { recursive: true });
  engine = new Engine({ root, projectors: [counted(projectorSqlite), counted(projectorVault)] });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the projections an ingest opens', () => {
  it('opens only SQLite before the loop; the vault (like pgvector) first at the final catch-up', async () => {
    const config = loadStandingQueries(join(root, 'queries'), 'demo');
    const report = await ingest({
      engine,
      config,
      controller: heuristicController(tokenizer),
      tokenizer,
    });
    const head = (await engine.head('demo')).seq;
    // Many appends happened between the two SQLite opens: the loop ran with nothing else open.
    expect(report.chunks).toBeGreaterThan(10);
    expect(report.appended).toBe(head);
    // SQLite opened once, before the loop, and kept open through both final catch-ups (on its
    // own first, then with the rest: the engine keeps a reusable store between catch-ups).
    expect(opens.get('sqlite')).toEqual([0]);
    expect(opens.get('vault')).toEqual([head]);
    expect((await engine.verify()).ok).toBe(true);
  });

  it('synthesize reads SQLite alone too: the vault opens only after its appends', async () => {
    opens.clear();
    const before = (await engine.head('demo')).seq;
    const config = loadStandingQueries(join(root, 'queries'), 'demo');
    const report = await synthesize({
      engine,
      config,
      controller: synthesisController(tokenizer),
      tokenizer,
    });
    const head = (await engine.head('demo')).seq;
    expect(report.started).toBe(true);
    expect(head).toBeGreaterThan(before);
    // The store the ingest left open serves the synthesis: SQLite is not opened again.
    expect(opens.get('sqlite')).toBeUndefined();
    expect(opens.get('vault')).toEqual([head]);
    expect((await engine.verify()).ok).toBe(true);
  });
});
