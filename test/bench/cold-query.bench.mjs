// Where a cold `mem query` spends its time (issue 15, target 6), phase by phase, in fresh
// processes on the ingested demo: each run is a child that walks the CLI's query path over the
// built packages with hrtime marks (process start is a bare `node -e 0` in the same run).
// Prints the median of BENCH_COLD_RUNS runs per phase, and the whole `mem query` beside it.
// Run: `npx tsc -b && node test/bench/run.mjs cold-query`; never fails a test run.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { figure } from './figures.mjs';

const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 5);
const QUERY = 'why did the build fail';
const repo = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(repo, 'packages/cli/bin/mem.js');
const phases = fileURLToPath(new URL('./cold-query-phases.mjs', import.meta.url));
const root = process.env.BENCH_COLD_ROOT ?? mkdtempSync(join(tmpdir(), 'mem-cold-bench-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function run(argv) {
  const started = performance.now();
  const result = spawnSync(process.execPath, argv, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${argv.join(' ')}: ${result.stderr}`);
  return { ms: performance.now() - started, stdout: result.stdout };
}

if (!process.env.BENCH_COLD_ROOT) {
  mkdirSync(join(root, 'queries'), { recursive: true });
  cpSync(join(repo, 'queries/demo.yaml'), join(root, 'queries/demo.yaml'));
  cpSync(join(repo, 'test/fixtures/transcripts'), join(root, 'test/fixtures/transcripts'), {
    recursive: true,
  });
  run([bin, '--root', root, 'ingest', '--project', 'demo']);
}
const samples = { node_start: [], mem_query: [], mem_help: [] };
for (let i = 0; i < RUNS; i += 1) {
  samples.node_start.push(run(['-e', '0']).ms);
  samples.mem_help.push(run([bin, '--help']).ms);
  samples.mem_query.push(
    run([bin, '--root', root, 'query', QUERY, '--project', 'demo', '--json']).ms,
  );
  const marks = JSON.parse(run([phases, root, QUERY]).stdout);
  for (const [name, ms] of Object.entries(marks)) (samples[name] ??= []).push(ms);
}
console.log(`cold mem query on the demo, phase medians of ${RUNS} runs (ms)`);
for (const [name, values] of Object.entries(samples)) {
  const ms = median(values);
  console.log(`  ${name.padEnd(22)} ${ms.toFixed(0).padStart(6)}`);
  figure(`cold_${name}_ms`, ms);
}
if (!process.env.BENCH_COLD_ROOT) rmSync(root, { recursive: true, force: true });
