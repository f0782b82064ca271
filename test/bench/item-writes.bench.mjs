// Benchmark of item writes at scale (run: `npx tsc -b && node test/bench/run.mjs item-writes`).
// Seeds one project with BENCH_ITEM_WRITES_ITEMS curated items (default 10k: threads with
// tasks under them, add_items batches of 100), then measures, in process (registry.invoke, the
// path of HTTP and the CLI), catch-up included:
//   1. add_items of 100 tasks under a thread, p50/p95
//   2. update_item of one task's summary, p50/p95
//   3. resolve_items of one task, p50/p95
// Issue 13 §6: an update or resolve that folds the log grows with the project; one that reads
// the item store does not. Prints `uptime`'s load beside the figures: the box is shared, so
// each call's CPU time (user + system of the process) is reported beside its wall time.
// BENCH_ITEM_WRITES_PROJECTIONS=all keeps the vault and pgvector (embedded defaults: PGlite and
// the hash embedder) current too, as `mem serve` does; by default SQLite alone. An item write
// waits for SQLite and the vault only (issue 13 §6): with `all`, 4. times a query right after
// each add_items of 100, which catches pgvector up before it answers (what a query pays when
// `mem serve`'s background catch-up has not run yet). As in `mem serve` (whose vector recall
// keeps the embedded PGlite open for the server's life), the bench holds it open: else every
// catch-up, a no-op one too, opens PGlite again (WASM start, Postgres start, schema check:
// ~300 ms CPU at 10 k items, load 8), which `mem serve` never pays. BENCH_ITEM_WRITES_HOLD=0
// measures that unheld cost (an in-process registry without vector recall).
// Beside add_items' times: the WAL pages each add_items commit wrote (the -wal frames of its
// commits, read from the file between calls), and with BENCH_ITEM_WRITES_PAGES=1 which B-trees
// the pages of one such commit belong to (dbstat, after a TRUNCATE checkpoint): the random-key
// structures are what a commit at 100 k pays for.
// BENCH_ITEM_WRITES_ROOT=dir seeds the data root there once and keeps it: a later run with the
// same dir and size skips the seeding (minutes at 100 k). BENCH_ITEM_WRITES_BASE=path of an
// older build's projector-sqlite dist/index.js (that dist copied to
// packages/projector-sqlite/dist-base, ignored by git, lint and vitest: from there it finds the
// migrations and @mem/*) measures old against new in one run, SQLite alone: each gets its own copy of the
// seeded root, rebuilt from its log by its projector and aged BENCH_ITEM_WRITES_AGE add_items
// (default 30: right after a rebuild full leaves split), then their timed add_items(100)
// alternate, which goes first alternating too. The registry is this build's for both (its
// reads are); the projector writing the store is each side's.
import { loadavg } from 'node:os';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../../packages/core/dist/index.js';
import { Engine } from '../../packages/engine/dist/index.js';
import { projectorSqlite } from '../../packages/projector-sqlite/dist/index.js';
import { openRegistry } from '../../packages/registry/dist/index.js';
import { figure } from './figures.mjs';

const ITEMS = Number(process.env.BENCH_ITEM_WRITES_ITEMS ?? 10_000);
const RUNS = Number(process.env.BENCH_ITEM_WRITES_RUNS ?? 20);
const ALL = process.env.BENCH_ITEM_WRITES_PROJECTIONS === 'all';
const HOLD = ALL && process.env.BENCH_ITEM_WRITES_HOLD !== '0';
const PAGES = process.env.BENCH_ITEM_WRITES_PAGES === '1';
const KEPT = process.env.BENCH_ITEM_WRITES_ROOT;
const BASE = process.env.BENCH_ITEM_WRITES_BASE;
const AGE = Number(process.env.BENCH_ITEM_WRITES_AGE ?? 30);
/** BENCH_ITEM_WRITES_SCRIPT=cjk: the timed add_items' summaries end in a Japanese sentence (indexed as bigrams). */
const CJK = process.env.BENCH_ITEM_WRITES_SCRIPT === 'cjk';
const size = ITEMS >= 1000 ? `${Math.round(ITEMS / 1000)}k` : `${ITEMS}`;
const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/**
 * Wall and CPU milliseconds of each of `runs` calls of `call(i)` (each after an untimed
 * `before(i)`), each list sorted; with `after`, what it returns after each call (untimed) too.
 */
async function timed(runs, call, before, after) {
  const wall = [];
  const cpu = [];
  const measured = [];
  for (let i = 0; i < runs; i++) {
    if (before) await before(i);
    const c = process.cpuUsage();
    const t = performance.now();
    await call(i);
    wall.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
    if (after) measured.push(after(i));
  }
  const sorted = (list) => list.sort((a, b) => a - b);
  return { wall: sorted(wall), cpu: sorted(cpu), measured: sorted(measured) };
}

/** WAL frame: a 24-byte header, then the page (the store's page size is pinned at 4,096). */
const FRAME = 24 + 4096;

/**
 * The -wal frames up to the last commit of the current WAL generation (frames carrying the
 * header's salts; a checkpointed WAL restarts at frame 0 with new salts), and their pages.
 * Reads the 24-byte frame headers only, into one buffer: reading the whole -wal (up to ~37 MB)
 * between calls left garbage whose collection ran inside the next timed call.
 */
function walFrames(wal) {
  let fd;
  try {
    fd = openSync(wal, 'r');
  } catch {
    return { frames: 0, pages: [] };
  }
  try {
    const header = Buffer.alloc(32);
    if (readSync(fd, header, 0, 32, 0) < 32) return { frames: 0, pages: [] };
    const [salt1, salt2] = [header.readUInt32BE(16), header.readUInt32BE(20)];
    const frame = Buffer.alloc(24);
    let frames = 0;
    const pages = [];
    for (let off = 32; readSync(fd, frame, 0, 24, off) === 24; off += FRAME) {
      if (frame.readUInt32BE(8) !== salt1 || frame.readUInt32BE(12) !== salt2) break;
      pages.push(frame.readUInt32BE(0));
      // A commit frame records the database size after it; only whole commits count.
      if (frame.readUInt32BE(4) !== 0) frames = pages.length;
    }
    return { frames, pages: pages.slice(0, frames) };
  } finally {
    closeSync(fd);
  }
}

/** Counts the WAL frames each call appends: the difference, or all of them after a restart. */
function walCounter(wal) {
  let last = walFrames(wal).frames;
  return () => {
    const now = walFrames(wal).frames;
    const added = now >= last ? now - last : now;
    last = now;
    return added;
  };
}

function report(name, { wall, cpu, measured }, walPages = false) {
  const [p50, p95] = [percentile(wall, 50), percentile(wall, 95)];
  const [cpu50, cpu95] = [percentile(cpu, 50), percentile(cpu, 95)];
  console.log(
    `${name}: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms; CPU p50 ${cpu50.toFixed(1)} ms, p95 ${cpu95.toFixed(1)} ms (load ${load()})`,
  );
  const suffix = `${ALL ? (HOLD ? '_all' : '_all_unheld') : ''}_${size}`;
  figure(`${name}_p50_ms${suffix}`, p50);
  figure(`${name}_p95_ms${suffix}`, p95);
  figure(`${name}_cpu_p50_ms${suffix}`, cpu50);
  figure(`${name}_cpu_p95_ms${suffix}`, cpu95);
  if (walPages) {
    const pages = percentile(measured, 50);
    console.log(`${name}: WAL pages a call p50 ${pages}, max ${measured.at(-1)}`);
    figure(`${name}_wal_pages_p50${suffix}`, pages);
  }
}

/**
 * Which B-tree each page of one add_items commit belongs to: checkpoints the -wal away (a
 * second connection, nothing else open writes), maps pages to B-trees by dbstat, runs `call`,
 * and counts the distinct pages its commit wrote by B-tree ('(new)' for pages past the file).
 */
async function pageInventory(path, call) {
  const { default: Database } = await import('better-sqlite3');
  const side = new Database(path);
  side.pragma('wal_checkpoint(TRUNCATE)');
  const btreeOf = new Map(
    side
      .prepare('SELECT pageno, name FROM dbstat')
      .all()
      .map(({ pageno, name }) => [pageno, name]),
  );
  side.close();
  await call();
  const counts = new Map();
  const distinct = new Set(walFrames(`${path}-wal`).pages);
  for (const page of distinct) {
    const name = btreeOf.get(page) ?? '(new)';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  console.log(`one add_items(100) commit: ${distinct.size} distinct pages`);
  for (const [name, count] of [...counts].sort((a, b) => b[1] - a[1]))
    console.log(`  ${name.padEnd(28)} ${count}`);
}

/** The projections the engine keeps current: SQLite alone, or every one `mem serve` keeps. */
async function projectors(config) {
  if (!ALL) return [projectorSqlite];
  const { projectorVault } = await import('../../packages/projector-vault/dist/index.js');
  const { projectorPgvector } = await import('../../packages/projector-pgvector/dist/index.js');
  return [projectorSqlite, projectorVault, projectorPgvector({ config })];
}

/** add_items of 100 tasks under `thread`, named by `label` and `i`. */
const add100 = (invoke, thread, label) => (i) =>
  invoke('add_items', {
    items: Array.from({ length: 100 }, (_, j) => ({
      type: 'task',
      summary: CJK
        ? `${label} ${i}.${j}：テーマローダーは解析済みのテーマをパスごとにキャッシュする`
        : `${label} ${i}.${j}`,
      parent: thread,
    })),
  });

/** An engine and registry over `root` writing with `projectorList`, and their invoke. */
async function open(root, config, projectorList) {
  const engine = new Engine({ root, projectors: projectorList });
  const registry = await openRegistry({ engine, config, version: 'bench', runJobs: false });
  const caller = registry.local('bench');
  /** @type {(name: string, input: Record<string, unknown>) => Promise<any>} */
  const invoke = (name, input) => registry.invoke(name, caller, { project: 'bench', ...input });
  return { engine, registry, invoke };
}

/**
 * Seeds ITEMS items (a thread every thousand, its tasks under it) unless `root` holds a seed of
 * this size already (bench-seed.json); returns the last thread and the tasks.
 */
async function seed(root, invoke) {
  const record = join(root, `bench-seed-${ITEMS}.json`);
  if (existsSync(record)) {
    console.log(`kept seed of ${ITEMS} items in ${root}`);
    return JSON.parse(readFileSync(record, 'utf8'));
  }
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
  if (KEPT) writeFileSync(record, JSON.stringify({ thread, tasks }));
  return { thread, tasks };
}

/** Old projector against new on copies of one seeded root, their timed calls alternated. */
async function compare(root, config) {
  const { projectorSqlite: base } = await import(pathToFileURL(resolve(BASE)).href);
  const seeding = await open(root, config, [projectorSqlite]);
  const { thread } = await seed(root, seeding.invoke);
  await seeding.registry.close();
  const scratch = mkdtempSync(join(tmpdir(), 'mem-item-writes-ab-'));
  try {
    const sides = [];
    for (const [name, projector] of [
      ['old', base],
      ['new', projectorSqlite],
    ]) {
      const copy = join(scratch, name);
      mkdirSync(copy);
      cpSync(join(root, 'log'), join(copy, 'log'), { recursive: true });
      const side = await open(copy, config, [projector]);
      const started = performance.now();
      await side.engine.rebuild();
      const add = add100(side.invoke, thread, `aged ${name}`);
      for (let i = 0; i < AGE; i++) await add(i);
      console.log(
        `${name}: rebuilt and aged ${AGE} calls in ${((performance.now() - started) / 1000).toFixed(1)} s (projector version ${projector.version})`,
      );
      const store = join(side.engine.paths.stateDir, 'items.sqlite');
      sides.push({
        name,
        ...side,
        add: add100(side.invoke, thread, `added ${name}`),
        wal: walCounter(`${store}-wal`),
        wall: [],
        cpu: [],
        measured: [],
      });
    }
    for (let i = 0; i < RUNS; i++) {
      for (const side of i % 2 === 0 ? sides : [...sides].reverse()) {
        side.wal();
        const { wall, cpu, measured } = await timed(1, () => side.add(i), undefined, side.wal);
        side.wall.push(...wall);
        side.cpu.push(...cpu);
        side.measured.push(...measured);
      }
    }
    const sorted = (list) => list.sort((a, b) => a - b);
    for (const side of sides) {
      report(
        `item_add_100_${side.name}`,
        {
          wall: sorted(side.wall),
          cpu: sorted(side.cpu),
          measured: sorted(side.measured),
        },
        true,
      );
      await side.registry.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const root = KEPT ?? mkdtempSync(join(tmpdir(), 'mem-item-writes-bench-'));
if (KEPT) mkdirSync(KEPT, { recursive: true });
try {
  const config = loadConfig({});
  if (BASE && ALL) throw new Error('BENCH_ITEM_WRITES_BASE compares the SQLite projector alone');
  await (BASE ? compare(root, config) : measure(root, config));
} finally {
  if (!KEPT) rmSync(root, { recursive: true, force: true });
}

/** add_items, update_item and resolve_items on the projections of `projectors`. */
async function measure(root, config) {
  const { engine, registry, invoke } = await open(root, config, await projectors(config));
  // Opens the cluster first when it is new (holdEmbeddedPglite holds only an existing one).
  if (HOLD) await engine.catchUp();
  const { holdEmbeddedPglite } = HOLD
    ? await import('../../packages/projector-pgvector/dist/index.js')
    : { holdEmbeddedPglite: async () => ({ release: async () => undefined }) };
  const hold = await holdEmbeddedPglite({ stateDir: engine.paths.stateDir, config });
  const { thread, tasks } = await seed(root, invoke);

  const store = join(engine.paths.stateDir, 'items.sqlite');
  const add = add100(invoke, thread, 'added');
  report('item_add_100', await timed(RUNS, add, undefined, walCounter(`${store}-wal`)), true);
  if (PAGES) await pageInventory(store, () => add(RUNS));
  if (ALL) {
    // Untimed: the seeding's items embedded first, so each timed query pays one add's.
    await invoke('query', { project: ['bench'], query: 'theme loader' });
    report(
      'item_query_after_add_100',
      await timed(
        RUNS,
        (i) => invoke('query', { project: ['bench'], query: `theme loader ${i}` }),
        (i) =>
          invoke('add_items', {
            items: Array.from({ length: 100 }, (_, j) => ({
              type: 'task',
              summary: `queried ${i}.${j}: port the theme loader`,
              parent: thread,
            })),
          }),
      ),
    );
  }
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
  await hold.release();
}
