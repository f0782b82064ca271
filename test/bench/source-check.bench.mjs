// Benchmark of cited-source checks (run: `npx tsc -b && node test/bench/run.mjs source-check`).
// Every find, orient and open re-reads the cited source of each item it delivers, confined to
// the data root (packages/registry/src/ops/items/source-check.ts: each path component lstat'ed,
// symlinks read and never followed outside, the file opened O_NOFOLLOW and checked once more
// through /proc/self/fd). Seeds one project of BENCH_SOURCES (20) facts, each citing its own
// file of ~4 KB three directories down (docs/area-N/notes/), then measures, each call's CPU
// (process.cpuUsage: the whole process, libuv's threads included) and wall:
//   1. find_items whose page is every citing fact, and orient, whose always-loaded facts they
//      are (registry.invoke, the path HTTP and the CLI take): p50/p95;
//   2. the check alone against an unconfined read of the same files (readFile and sha256, the
//      digest compared), BENCH_SOURCE_ROUNDS (10) rounds of 20 calls each over every fact,
//      alternated in one run: the ratio of their CPU p50s (and walls) is the figure, so a
//      loaded box moves both sides alike. Stop 31 measured it ~2× with a one-off script.
//      The check runs as find runs it: a new citingScope per answer (each project's `cites:`
//      lists read, each listed directory resolved beneath the root), over a queries/ dir where
//      `src` lists docs/ and two other projects list directories of their own, one a symlink.
//   3. the same check where another project lists BENCH_SOURCE_LISTED (256) directories, against
//      an older build of source-check.js when BENCH_SOURCE_OLD names one (alternated).
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../../packages/core/dist/index.js';
import { Engine } from '../../packages/engine/dist/index.js';
import { projectorSqlite } from '../../packages/projector-sqlite/dist/index.js';
import { openRegistry } from '../../packages/registry/dist/index.js';
import { checkSource, citingScope } from '../../packages/registry/dist/ops/items/source-check.js';
import { figure } from './figures.mjs';

const SOURCES = Number(process.env.BENCH_SOURCES ?? 20);
const RUNS = Number(process.env.BENCH_SOURCE_RUNS ?? 100);
const ROUNDS = Number(process.env.BENCH_SOURCE_ROUNDS ?? 10);
const LISTED = Number(process.env.BENCH_SOURCE_LISTED ?? 256);
const NOW = '2026-03-01T00:00:00Z';
const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const sorted = (values) => [...values].sort((a, b) => a - b);
const load = () =>
  `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;
const ms = (v) => v.toFixed(2);

/** CPU and wall milliseconds of one awaited call. */
async function measured(call) {
  const c = process.cpuUsage();
  const t = performance.now();
  await call();
  const wall = performance.now() - t;
  const used = process.cpuUsage(c);
  return { cpu: (used.user + used.system) / 1000, wall };
}

async function timedCpu(runs, call) {
  const cpu = [];
  const wall = [];
  for (let i = 0; i < runs; i++) {
    const m = await measured(() => call(i));
    cpu.push(m.cpu);
    wall.push(m.wall);
  }
  return { cpu: sorted(cpu), wall: sorted(wall) };
}

const root = mkdtempSync(join(tmpdir(), 'mem-source-bench-'));
try {
  const cited = Array.from({ length: SOURCES }, (_, i) => {
    const dir = join('docs', `area-${i % 4}`, 'notes');
    mkdirSync(join(root, dir), { recursive: true });
    const path = join(dir, `source-${i}.md`);
    const text = `# Source ${i}\n\n${'The theme loader keeps parsed themes in a cache keyed by path. '.repeat(64)}\n`;
    writeFileSync(join(root, path), text);
    return { path, sha256: createHash('sha256').update(text).digest('hex') };
  });
  // Standing-queries files with `cites:` (their sources are never read: runJobs false).
  const queriesDir = join(root, 'queries');
  mkdirSync(queriesDir);
  mkdirSync(join(root, 'vendor', 'pay'), { recursive: true });
  symlinkSync('vendor/pay', join(root, 'pay-docs'));
  /** @type {[string, string[]][]} */
  const lists = [
    ['src', ['docs']],
    ['payments', ['pay-docs', 'vendor/pay/api']],
    ['ops', ['runbooks', 'infra/terraform', 'infra/k8s']],
  ];
  for (const [project, dirs] of lists)
    writeFileSync(
      join(queriesDir, `${project}.yaml`),
      `project: ${project}\nsources:\n  - claude:./nowhere\nqueries:\n  - id: bugs\n    question: What bugs were fixed?\ncites:\n${dirs.map((d) => `  - ${d}\n`).join('')}`,
    );
  const engine = new Engine({ root, projectors: [projectorSqlite] });
  const registry = await openRegistry({
    engine,
    config: loadConfig({}),
    version: 'bench',
    runJobs: false,
  });
  const caller = registry.local('bench');
  await registry.invoke('add_items', caller, {
    project: 'src',
    items: cited.map(({ path, sha256 }, i) => ({
      type: 'fact',
      summary: `fact ${i}: the theme loader caches parsed themes`,
      source_uri: path,
      source_sha256: sha256,
    })),
  });
  const find = () =>
    registry.invoke('find_items', caller, {
      projects: ['src'],
      query: 'theme loader',
      limit: SOURCES,
    });
  const orient = () => registry.invoke('orient', caller, { project: 'src', now: NOW });
  /** @type {any} */
  const page = await find();
  /** @type {any} */
  const oriented = await orient();
  const fresh = page.items.filter((r) => r.freshness?.state === 'fresh').length;
  if (page.items.length !== SOURCES || fresh !== SOURCES)
    throw new Error(
      `expected ${SOURCES} fresh citing facts, found ${fresh} of ${page.items.length}`,
    );
  const finds = await timedCpu(RUNS, find);
  const orients = await timedCpu(RUNS, orient);
  console.log(
    `find_items over ${SOURCES} citing facts: CPU p50 ${ms(percentile(finds.cpu, 50))} ms, p95 ${ms(percentile(finds.cpu, 95))} ms; wall p50 ${ms(percentile(finds.wall, 50))} ms (${load()})`,
  );
  console.log(
    `orient with ${oriented.facts.items.length} citing facts loaded: CPU p50 ${ms(percentile(orients.cpu, 50))} ms, p95 ${ms(percentile(orients.cpu, 95))} ms; wall p50 ${ms(percentile(orients.wall, 50))} ms (${load()})`,
  );
  figure('source_find_cpu_p50_ms', percentile(finds.cpu, 50));
  figure('source_find_cpu_p95_ms', percentile(finds.cpu, 95));
  figure('source_orient_cpu_p50_ms', percentile(orients.cpu, 50));
  figure('source_orient_cpu_p95_ms', percentile(orients.cpu, 95));

  // The same rows the page delivered, checked as find checks them, and read without confinement.
  const rows = page.items.map((r) => ({
    project: 'src',
    source_uri: r.source_uri,
    source_sha256: r.source_sha256,
  }));
  const confined = async () => {
    const scope = citingScope({ root, queriesDir });
    const checks = await Promise.all(rows.map((row) => checkSource(row, scope)));
    if (checks.some((c) => c !== 'unchanged')) throw new Error(`a check moved: ${checks}`);
  };
  const unconfined = async () => {
    const same = await Promise.all(
      rows.map(
        async (row) =>
          createHash('sha256')
            .update(await readFile(join(root, row.source_uri)))
            .digest('hex') === row.source_sha256,
      ),
    );
    if (!same.every(Boolean)) throw new Error('a source moved');
  };
  const sides = { confined: { cpu: [], wall: [] }, unconfined: { cpu: [], wall: [] } };
  for (let round = 0; round < ROUNDS; round++)
    for (const side of round % 2 ? ['unconfined', 'confined'] : ['confined', 'unconfined'])
      for (let i = 0; i < 20; i++) {
        const m = await measured(side === 'confined' ? confined : unconfined);
        sides[side].cpu.push(m.cpu);
        sides[side].wall.push(m.wall);
      }
  const p50 = (side, what) => percentile(sorted(sides[side][what]), 50);
  const ratio = p50('confined', 'cpu') / p50('unconfined', 'cpu');
  const wallRatio = p50('confined', 'wall') / p50('unconfined', 'wall');
  console.log(
    `${SOURCES} sources checked: confined CPU p50 ${ms(p50('confined', 'cpu'))} ms, unconfined ${ms(p50('unconfined', 'cpu'))} ms: ${ratio.toFixed(2)}× (wall ${ms(p50('confined', 'wall'))} / ${ms(p50('unconfined', 'wall'))} ms: ${wallRatio.toFixed(2)}×), ${ROUNDS} alternated rounds of 20 (${load()})`,
  );
  figure('source_check_confined_cpu_p50_ms', p50('confined', 'cpu'));
  figure('source_check_unconfined_cpu_p50_ms', p50('unconfined', 'cpu'));
  figure('source_check_confined_ratio', ratio);
  figure('source_check_confined_wall_ratio', wallRatio);

  // 3. The same check where another project lists BENCH_SOURCE_LISTED (256) directories, each
  // resolved beneath the root for every answer before stop 33 and kept across answers since
  // (keptForms). With BENCH_SOURCE_OLD naming an older build of source-check.js, its citingScope
  // is alternated with this one's in the same run.
  const wideQueries = join(root, 'queries-wide');
  const wideSince = Date.now();
  mkdirSync(wideQueries);
  const listed = Array.from({ length: LISTED }, (_, i) => `listed/area-${i % 16}/e${i}`);
  for (const dir of listed) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(wideQueries, 'src.yaml'), 'cites:\n  - docs\n');
  writeFileSync(
    join(wideQueries, 'wide.yaml'),
    `cites:\n${listed.map((d) => `  - ${d}\n`).join('')}`,
  );
  // Directories changed within 2 s of an answer are not trusted to vouch for a kept resolution.
  await new Promise((done) => setTimeout(done, Math.max(0, 2100 - (Date.now() - wideSince))));
  const old = process.env.BENCH_SOURCE_OLD
    ? await import(pathToFileURL(process.env.BENCH_SOURCE_OLD).href)
    : null;
  const wideAnswer = (module) => async () => {
    const scope = module.citingScope({ root, queriesDir: wideQueries });
    const checks = await Promise.all(rows.map((row) => module.checkSource(row, scope)));
    if (checks.some((c) => c !== 'unchanged')) throw new Error(`a check moved: ${checks}`);
  };
  const wideSides = { current: [], ...(old ? { old: [] } : {}) };
  const current = { citingScope, checkSource };
  for (let round = 0; round < ROUNDS; round++)
    for (const side of round % 2 ? Object.keys(wideSides).reverse() : Object.keys(wideSides))
      for (let i = 0; i < 20; i++)
        wideSides[side].push((await measured(wideAnswer(side === 'old' ? old : current))).cpu);
  const wideP50 = (side) => percentile(sorted(wideSides[side]), 50);
  console.log(
    `${SOURCES} sources checked with ${LISTED} directories listed by another project: CPU p50 ${ms(wideP50('current'))} ms${old ? `, old build ${ms(wideP50('old'))} ms` : ''}, ${ROUNDS} alternated rounds of 20 (${load()})`,
  );
  figure('source_check_listed_cpu_p50_ms', wideP50('current'));
  if (old) figure('source_check_listed_old_cpu_p50_ms', wideP50('old'));
  await registry.close();
} finally {
  rmSync(root, { recursive: true, force: true });
}
