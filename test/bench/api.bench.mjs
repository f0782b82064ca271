// Benchmark of the HTTP API (run: `npx tsc -b && node test/bench/run.mjs api`).
// Prints figures and ratios against an in-process baseline measured in the same run; never fails.
//   1. GET /memory/query: req/s and latency p50/p99 from a second process (autocannon) on
//      loopback against `mem serve` (a child process) over the demo project, embedded defaults
//      (target >= 1,000 req/s on 2 cores)
//   2. the same query in process, on the same embedded defaults as the server (keyword recall
//      from SQLite, hash-embedder vector recall from PGlite): queryMemory, and registry.invoke
//      (token resolution, freshness checks, authorization, query) — the ratios say what HTTP
//      costs; queryMemory on keywords alone shows the vector side's share
//   3. POST /memory/ingest accept rate (accept only: `mem serve --no-jobs`)
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { loadConfig } from '../../packages/core/dist/index.js';
import { embedderFromEnv } from '../../packages/embed/dist/index.js';
import { Engine } from '../../packages/engine/dist/index.js';
import { openVectorRecall } from '../../packages/projector-pgvector/dist/index.js';
import { openItemStore, projectorSqlite } from '../../packages/projector-sqlite/dist/index.js';
import { projectorVault } from '../../packages/projector-vault/dist/index.js';
import { queryMemory } from '../../packages/query/dist/index.js';
import { openRegistry } from '../../packages/registry/dist/index.js';
import { figure } from './figures.mjs';

const DURATION = Number(process.env.BENCH_API_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_API_CONNECTIONS ?? 10);
const IN_PROCESS = Number(process.env.BENCH_API_IN_PROCESS ?? 3000);
const QUERY = 'why did the build fail';
/** The embedded defaults, as `mem serve` runs with an empty environment. */
const config = loadConfig({});
const COLD_RUNS = Number(process.env.BENCH_API_COLD_RUNS ?? 5);

const repo = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(repo, 'packages/cli/bin/mem.js');
const root = mkdtempSync(join(tmpdir(), 'mem-api-bench-'));
const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

function mem(...args) {
  const result = spawnSync(process.execPath, [bin, '--root', root, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`mem ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

async function serve(...args) {
  const child = spawn(
    process.execPath,
    [
      bin,
      '--root',
      root,
      'serve',
      '--port',
      '0',
      '--quiet',
      '--rate-burst',
      '0',
      '--rate-ingest',
      '0',
      '--rate-query',
      '0',
      ...args,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  for (let i = 0; i < 400; i += 1) {
    const url = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
    if (url)
      return {
        url,
        stderr: () => stderr,
        stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))),
      };
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`mem serve did not start: ${stderr}`);
}

async function setup() {
  mkdirSync(join(root, 'queries'), { recursive: true });
  cpSync(join(repo, 'queries/demo.yaml'), join(root, 'queries/demo.yaml'));
  cpSync(join(repo, 'test/fixtures/transcripts'), join(root, 'test/fixtures/transcripts'), {
    recursive: true,
  });
  const started = performance.now();
  mem('ingest', '--project', 'demo');
  console.log(
    `demo project ingested once (heuristic controller): ${fmt((performance.now() - started) / 1000, 1)} s`,
  );
  mem('principal', 'add', 'bench');
  mem('project', 'add', 'demo');
  mem('project', 'add-member', 'demo', 'bench');
  return JSON.parse(
    mem(
      'token',
      'mint',
      '--principal',
      'bench',
      '--projects',
      'demo',
      '--label',
      'bench',
      '--json',
    ),
  ).secret;
}

async function loadQuery(url, token) {
  const path = `/memory/query?query=${encodeURIComponent(QUERY)}&project=demo&limit=5`;
  const probe = await fetch(`${url}${path}`, { headers: { apikey: token } });
  /** @type {{ results: unknown[] } | null} */
  const body = probe.status === 200 ? /** @type {any} */ (await probe.json()) : null;
  await autocannon({
    url: `${url}${path}`,
    connections: CONNECTIONS,
    duration: 2,
    headers: { apikey: token },
  }); // warm-up
  const result = await autocannon({
    url: `${url}${path}`,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: { apikey: token },
  });
  console.log(
    `GET /memory/query over HTTP (${CONNECTIONS} connections, ${DURATION} s, answer ${probe.status} with ${body?.results.length ?? 0} results)`,
  );
  console.log(
    `  ${fmt(result.requests.average)} req/s, latency p50 ${fmt(result.latency.p50, 2)} ms, p99 ${fmt(result.latency.p99, 2)} ms, non-2xx ${result.non2xx}, errors ${result.errors}`,
  );
  figure('http_query_rps', result.requests.average);
  figure('http_query_p50_ms', result.latency.p50);
  figure('http_query_p99_ms', result.latency.p99);
  figure('http_query_non2xx', result.non2xx + result.errors);
  return result.requests.average;
}

/** The p50 of COLD_RUNS runs of `node argv`, each a new process. */
function timedRuns(argv) {
  const samples = [];
  for (let i = 0; i < COLD_RUNS; i += 1) {
    const t = performance.now();
    const result = spawnSync(process.execPath, argv, { encoding: 'utf8' });
    samples.push(performance.now() - t);
    if (result.status !== 0) throw new Error(`${argv.join(' ')}: ${result.stderr}`);
  }
  return percentile(
    samples.sort((a, b) => a - b),
    50,
  );
}

/**
 * A cold `mem query` on the ingested demo, as an agent calling the CLI in a loop pays it: a new
 * process each time. The baseline is a bare `node -e 0` in the same run (what any Node CLI pays).
 */
function coldCli() {
  const query = timedRuns([bin, '--root', root, 'query', QUERY, '--project', 'demo', '--json']);
  const node = timedRuns(['-e', '0']);
  console.log(`cold CLI (${COLD_RUNS} runs each, p50)`);
  console.log(
    `  mem query  ${fmt(query)} ms  (target <= 1,000 ms); node -e 0 ${fmt(node)} ms; ratio ${fmt(query / node, 1)}x`,
  );
  figure('cli_query_cold_ms', query);
  figure('cli_node_baseline_ms', node);
}

/**
 * The same `mem query` while a `mem serve` runs on the root: the CLI forwards it on the warm
 * socket (.mem/run/cli.sock) instead of starting PGlite, as an agent's loop would with a server up.
 */
async function warmCli() {
  const server = await serve();
  for (let i = 0; i < 400 && !/warm CLI socket/.test(server.stderr()); i += 1)
    await new Promise((r) => setTimeout(r, 25));
  if (!/warm CLI socket/.test(server.stderr()))
    throw new Error(`no warm socket: ${server.stderr()}`);
  const query = timedRuns([bin, '--root', root, 'query', QUERY, '--project', 'demo', '--json']);
  await server.stop();
  console.log(`warm CLI, through mem serve's socket (${COLD_RUNS} runs, p50)`);
  console.log(`  mem query  ${fmt(query)} ms  (target <= 1,000 ms)`);
  figure('cli_query_warm_ms', query);
}

async function inProcess(token) {
  const items = openItemStore(join(root, '.mem/items.sqlite'));
  const run = async (fn) => {
    for (let i = 0; i < 200; i += 1) await fn();
    const times = [];
    const start = performance.now();
    for (let i = 0; i < IN_PROCESS; i += 1) {
      const t = performance.now();
      await fn();
      times.push(performance.now() - t);
    }
    const seconds = (performance.now() - start) / 1000;
    times.sort((a, b) => a - b);
    return { rate: IN_PROCESS / seconds, p50: percentile(times, 50), p99: percentile(times, 99) };
  };
  const embedder = embedderFromEnv(config);
  const vectors = await openVectorRecall({
    stateDir: join(root, '.mem'),
    expectEmbedder: embedder.name,
  });
  const keywords = await run(() =>
    queryMemory({ text: QUERY, projects: ['demo'], limit: 5 }, { items }),
  );
  const raw = await run(() =>
    queryMemory(
      { text: QUERY, projects: ['demo'], limit: 5, citations: 'excerpt' },
      { items, vectors, embedder },
    ),
  );
  items.close();
  const engine = new Engine({ root, projectors: [projectorSqlite, projectorVault] });
  const registry = await openRegistry({
    engine,
    config,
    version: 'bench',
    runJobs: false,
    queryDeps: { vectors, embedder },
  });
  const invoked = await run(async () =>
    registry.invoke('query', await registry.authenticate(token, 'http'), {
      query: QUERY,
      project: ['demo'],
      limit: 5,
    }),
  );
  await registry.close();
  await vectors.close();
  console.log(`the same query in process (${IN_PROCESS} sequential calls, one core)`);
  console.log(
    `  queryMemory      ${fmt(raw.rate)} q/s, p50 ${fmt(raw.p50, 3)} ms, p99 ${fmt(raw.p99, 3)} ms  (keyword + vector recall, as the server runs it)`,
  );
  console.log(
    `  registry.invoke  ${fmt(invoked.rate)} q/s, p50 ${fmt(invoked.p50, 3)} ms, p99 ${fmt(invoked.p99, 3)} ms  (+ token, freshness stats, authorization)`,
  );
  console.log(
    `  keywords only    ${fmt(keywords.rate)} q/s, p50 ${fmt(keywords.p50, 3)} ms, p99 ${fmt(keywords.p99, 3)} ms  (queryMemory without the vector side)`,
  );
  return { raw: raw.rate, invoked: invoked.rate };
}

async function loadIngest(url, token) {
  let n = 0;
  const result = await autocannon({
    url: `${url}/memory/ingest`,
    connections: 4,
    duration: Math.max(3, Math.round(DURATION / 2)),
    headers: { apikey: token, 'content-type': 'application/json' },
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          n += 1;
          const records = [
            { role: 'user', text: `bench batch ${n}: why did the build fail?` },
            { role: 'assistant', text: `the lockfile drifted in batch ${n}; pinned it.` },
          ];
          return {
            ...req,
            body: JSON.stringify({
              project: 'demo',
              source: 'agent:bench',
              ingest_id: `bench-${n}`,
              records,
            }),
          };
        },
      },
    ],
  });
  console.log(
    `POST /memory/ingest, accept only (mem serve --no-jobs; 4 connections; 2 records per job)`,
  );
  console.log(
    `  ${fmt(result.requests.average, 1)} jobs/s accepted, latency p50 ${fmt(result.latency.p50, 1)} ms, p99 ${fmt(result.latency.p99, 1)} ms, 202s ${result['2xx']}, non-2xx ${result.non2xx}`,
  );
}

try {
  console.log(`machine: ${availableParallelism()} cores (server and load generator share them)`);
  const token = await setup();
  const server = await serve();
  const http = await loadQuery(server.url, token);
  await server.stop();
  const local = await inProcess(token);
  coldCli();
  await warmCli();
  console.log(
    `ratio HTTP / in-process: ${fmt(http / local.raw, 2)} of queryMemory, ${fmt(http / local.invoked, 2)} of registry.invoke (target: >= 1,000 req/s over HTTP)`,
  );
  figure('http_query_ratio_in_process', http / local.raw);
  const acceptOnly = await serve('--no-jobs');
  await loadIngest(acceptOnly.url, token);
  await acceptOnly.stop();
} finally {
  rmSync(root, { recursive: true, force: true });
}
