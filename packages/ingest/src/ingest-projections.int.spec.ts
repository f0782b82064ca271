import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qwenTokenizer } from '@mem/chunk';
import { hashEmbedder } from '@mem/embed';
import { Engine, type Projector } from '@mem/engine';
import { heuristicController, synthesisController } from '@mem/extractor';
import { projectorPgvector } from '@mem/projector-pgvector';
import { projectorSqlite } from '@mem/projector-sqlite';
import { projectorVault } from '@mem/projector-vault';
import { usePglite } from '../../projector-pgvector/test/pglite-servers.js';
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
    // SQLite opened once, before the loop, and kept open through the final catch-ups (its own
    // first, then one per other projection: the engine keeps a reusable store between them).
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

describe('the final catch-up of an ingest', () => {
  const shared = usePglite();
  let own: string;
  afterAll(() => rmSync(own, { recursive: true, force: true }));

  // Caught up together, the vault's fold of the whole project was held while the embedded
  // Postgres ran (issue 15 target 5): each projection is opened and closed before the next.
  it('opens one projection at a time, SQLite first, each closed before the next opens', async () => {
    own = mkdtempSync(join(tmpdir(), 'mem-ingest-final-'));
    cpSync(join(root, 'queries'), join(own, 'queries'), { recursive: true });
    cpSync(join(fixtures, 'claude'), join(own, 'sessions', 'claude'), { recursive: true });
    const steps: string[] = [];
    const traced = <H>(projector: Projector<H>): Projector<H> => ({
      ...projector,
      init: async (target) => {
        steps.push(`open ${projector.name}`);
        return projector.init(target);
      },
      close: async (handle) => {
        steps.push(`close ${projector.name}`);
        return projector.close(handle);
      },
    });
    const pgvector = projectorPgvector({ pglite: shared.db, embedder: hashEmbedder(16) });
    const engine = new Engine({
      root: own,
      projectors: [traced(projectorSqlite), traced(projectorVault), traced(pgvector)],
    });
    try {
      const report = await ingest({
        engine,
        config: loadStandingQueries(join(own, 'queries'), 'demo'),
        controller: heuristicController(tokenizer),
        tokenizer,
      });
      expect(report.appended).toBeGreaterThan(0);
      // SQLite stays open from the loop on (reusable); the others follow one by one.
      expect(steps).toEqual([
        'open sqlite',
        'open vault',
        'close vault',
        'open pgvector',
        'close pgvector',
      ]);
      expect((await engine.verify()).ok).toBe(true);
    } finally {
      await engine.close();
    }
  });
});
