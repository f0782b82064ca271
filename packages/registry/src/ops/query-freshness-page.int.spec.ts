import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Engine } from '@mem/engine';
import { projectorSqlite, type ItemStore, type NodeRow } from '@mem/projector-sqlite';
import { memoryPayloads, tempDataRoot } from '../../../../test/api/support.js';
import { testConfig } from '../../../../test/support/test-config.js';
import { openRegistry } from '../open.js';
import type { Registry } from '../registry.js';
import { judgeLines } from './query-freshness.js';

/*
 * Issue 15 target 3, a bound without timing: judging a page's lines for freshness reads the
 * store in a fixed number of statements however many lines the page holds (it read four a
 * line: the line, its edges, each cited chunk, their spans). Each line cites a chunk of a
 * session this disk does not hold, so every line is judged, and judged unknown.
 */
const LINES = 12;
let cleanup: () => void;
let registry: Registry;
let lines: NodeRow[];

beforeAll(async () => {
  const made = tempDataRoot();
  cleanup = made.cleanup;
  mkdirSync(join(made.root, 'sessions'));
  const ids = Array.from({ length: LINES }, (_, i) => `q${i}`);
  writeFileSync(
    join(made.root, 'queries', 'alpha.yaml'),
    `project: alpha\nsources:\n  - claude:../sessions\nqueries:\n${ids.map((id) => `  - id: ${id}\n    question: What about ${id}?\n`).join('')}`,
  );
  const engine = new Engine({ root: made.root, projectors: [projectorSqlite] });
  registry = await openRegistry({
    engine,
    version: '0.0.0-test',
    config: testConfig(),
    runJobs: false,
  });
  await engine.append(
    'alpha',
    ids.flatMap(
      (id, i) =>
        memoryPayloads(
          `run-${i}`,
          `evidence ${i} of the page`,
          // Words of its own: no line near-duplicates another, so none folds.
          `- finding alpha${i} bravo${i} charlie${i}`,
          id,
        ).payloads,
    ),
    { kind: 'cli' },
  );
  const view = await registry.context.stores.fresh();
  lines = view.items.nodes({ project: 'alpha', kind: 'line' });
}, 120_000);
afterAll(async () => {
  await registry.close();
  cleanup();
});

/** The store with every method call counted. */
function counted(items: ItemStore): { items: ItemStore; calls: () => number } {
  let calls = 0;
  const wrapped = new Proxy(items, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls += 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { items: wrapped, calls: () => calls };
}

async function judged(page: readonly NodeRow[]) {
  const view = await registry.context.stores.fresh();
  const { items, calls } = counted(view.items);
  const verdicts = await judgeLines(registry.context, items, page, false);
  return { warnings: verdicts.warnings, calls: calls() };
}

describe('judgeLines: a page of lines judged in a bounded number of store reads', () => {
  it('reads as often for twelve lines as for three, with the verdicts each line has alone', async () => {
    expect(lines).toHaveLength(LINES);
    const few = await judged(lines.slice(0, 3));
    const many = await judged(lines);
    expect(many.calls).toBe(few.calls);
    expect([...many.warnings.values()].map((w) => [w.text, w.state, w.sources])).toEqual(
      lines.map((line) => [line.text, 'unknown', [expect.stringMatching(/^claude:run-\d+$/)]]),
    );
    for (const line of lines) {
      const alone = await judged([line]);
      expect([...alone.warnings.values()]).toEqual(
        [...many.warnings.values()].filter((w) => w.sha256 === line.sha256),
      );
    }
  });
});

describe('a query answer judged for freshness', () => {
  it("reads its page lines' citations once, whichever mode it answers in", async () => {
    const view = await registry.context.stores.fresh();
    const chunks = vi.spyOn(view.items, 'lineChunks');
    try {
      for (const citations of ['excerpt', 'full', 'none'] as const) {
        chunks.mockClear();
        const answer = (await registry.invoke('query', registry.local('root'), {
          query: 'finding',
          project: ['alpha'],
          limit: 5,
          citations,
        })) as { results: unknown[]; freshness_warnings: { state: string }[] };
        // Every line of the page is held back (its session is gone): the answer only names them.
        expect(answer.results).toEqual([]);
        expect(answer.freshness_warnings.map((w) => w.state)).toEqual(
          Array.from({ length: 5 }, () => 'unknown'),
        );
        expect(chunks, citations).toHaveBeenCalledTimes(1);
      }
    } finally {
      chunks.mockRestore();
    }
  });
});
