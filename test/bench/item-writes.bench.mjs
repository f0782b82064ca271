// Benchmark of item writes at scale (run: `npx tsc -b && node test/bench/run.mjs item-writes`).
// Seeds one project with BENCH_ITEM_WRITES_ITEMS curated items (default 10k: threads with
// tasks under them, add_items batches of 100), then measures, in process (registry.invoke, the
// path of HTTP and the CLI), catch-up included:
//   1. add_items of 100 tasks under a thread, p50/p95
//   2. update_item of one task's summary, p50/p95
//   3. resolve_items of one task, p50/p95
// Issue 13 §6: an update or resolve that folds the log grows with the project; one that reads
// the item store does not. Prints `uptime`'s load beside the figures: the box is shared.
import { loadavg } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../packages/core/dist/index.js';
import { Engine } from '../../packages/engine/dist/index.js';
import { projectorSqlite } from '../../packages/projector-sqlite/dist/index.js';
import { openRegistry } from '../../packages/registry/dist/index.js';
import { figure } from './figures.mjs';

const ITEMS = Number(process.env.BENCH_ITEM_WRITES_ITEMS ?? 10_000);
const RUNS = Number(process.env.BENCH_ITEM_WRITES_RUNS ?? 20);
const size = ITEMS >= 1000 ? `${Math.round(ITEMS / 1000)}k` : `${ITEMS}`;
const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Milliseconds of each of `runs` calls of `call(i)`, sorted. */
async function timed(runs, call) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await call(i);
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b);
}

function report(name, times) {
  const p50 = percentile(times, 50);
  const p95 = percentile(times, 95);
  console.log(`${name}: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (load ${load()})`);
  figure(`${name}_p50_ms_${size}`, p50);
  figure(`${name}_p95_ms_${size}`, p95);
}

const root = mkdtempSync(join(tmpdir(), 'mem-item-writes-bench-'));
try {
  const engine = new Engine({ root, projectors: [projectorSqlite] });
  const registry = await openRegistry({
    engine,
    config: loadConfig({}),
    version: 'bench',
    runJobs: false,
  });
  const caller = registry.local('bench');
  /** @type {(name: string, input: Record<string, unknown>) => Promise<any>} */
  const invoke = (name, input) => registry.invoke(name, caller, { project: 'bench', ...input });
  const started = performance.now();
  const tasks = [];
  let thread = '';
  // A thread every thousand items, its tasks under it: a tree like the orient bench's.
  for (let written = 0, nextThread = 0; written < ITEMS;) {
    if (written >= nextThread) {
      nextThread += 1000;
      [thread] = (
        await invoke('add_items', { items: [{ type: 'thread', summary: `thread ${written}` }] })
      ).ids;
      written += 1;
    }
    const n = Math.min(100, ITEMS - written);
    const out = await invoke('add_items', {
      items: Array.from({ length: n }, (_, i) => ({
        type: 'task',
        summary: `task ${written + i}: port the theme loader to ES modules`,
        parent: thread,
      })),
    });
    tasks.push(...out.ids);
    written += n;
  }
  console.log(
    `seeded ${ITEMS} items in ${((performance.now() - started) / 1000).toFixed(1)} s (load ${load()})`,
  );

  report(
    'item_add_100',
    await timed(RUNS, (i) =>
      invoke('add_items', {
        items: Array.from({ length: 100 }, (_, j) => ({
          type: 'task',
          summary: `added ${i}.${j}`,
          parent: thread,
        })),
      }),
    ),
  );
  report(
    'item_update',
    await timed(RUNS, (i) =>
      invoke('update_item', { id: tasks[i * 7], summary: `updated ${i}`, reason: 'bench' }),
    ),
  );
  report(
    'item_resolve',
    await timed(RUNS, (i) => invoke('resolve_items', { ids: [tasks[i * 7 + 1]], status: 'done' })),
  );
  await registry.close();
} finally {
  rmSync(root, { recursive: true, force: true });
}
