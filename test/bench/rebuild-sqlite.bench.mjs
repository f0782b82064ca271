// Benchmarks of packages/projector-sqlite (run: `npx tsc -b packages/projector-sqlite && node test/bench/run.mjs rebuild-sqlite`).
// Prints figures and ratios against a raw baseline measured in the same run; never fails.
//   1. rebuild throughput vs raw better-sqlite3 inserting the same node rows + FTS5 rows in
//      one transaction loop (target >= 0.5), with apply and seal timed apart
//   2. a streamed rebuild of 1,000,000 events in a child process: peak RSS (target < 300 MB),
//      the seal at that size; then, with the same events as a real log beside the store, the
//      engine's catch-up of one small appended batch (target <= 20 ms p50: what every write pays),
//      and appends of one memory, whose checks read the log's new events (the whole log before),
//      the first by a fresh process starting from the fold the first append saved
// Environment: BENCH_SQLITE_EVENTS (phase 1, default 200000; 0 skips it), BENCH_SQLITE_STREAM
// (phase 2, default 1000000; 0 skips it), BENCH_SQLITE_CATCHUPS (small catch-ups, default 5).
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentSha256, uniformLines } from '../../packages/core/dist/index.js';
import { Engine, ProvenanceCheck, foldTombstones } from '../../packages/engine/dist/index.js';
import { DEFAULT_SEGMENT_BYTES, EventLog } from '../../packages/log/dist/index.js';
import { projectorSqlite } from '../../packages/projector-sqlite/dist/index.js';
import { Stretches } from './stretch.mjs';
import { syntheticLog } from './synthetic-log.mjs';
import { figure } from './figures.mjs';

// better-sqlite3 belongs to projector-sqlite: the baseline borrows it from there.
const Database = createRequire(
  new URL('../../packages/projector-sqlite/package.json', import.meta.url),
)('better-sqlite3');

const EVENTS = Number(process.env.BENCH_SQLITE_EVENTS ?? 200_000);
const STREAM = Number(process.env.BENCH_SQLITE_STREAM ?? 1_000_000);
const BATCH = 2000; // the engine's catch-up batch
const CATCHUPS = Number(process.env.BENCH_SQLITE_CATCHUPS ?? 5);
const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const secs = (start) => Number(process.hrtime.bigint() - start) / 1e9;

function* batches(events) {
  let batch = [];
  for (const e of events) {
    batch.push(e);
    if (batch.length >= BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

function tempTarget(root) {
  return { stateDir: join(root, '.mem'), vaultDir: join(root, 'vault'), options: {} };
}

// ---- phase 1: throughput vs raw baseline ------------------------------------------------

const MIGRATION = readFileSync(
  new URL('../../migrations/sqlite/0001_init.sql', import.meta.url),
  'utf8',
);

/**
 * Raw baselines: better-sqlite3 with positional prepared statements in one transaction, no
 * planning, no lookups, no position checks. `nodes`: the brief's baseline, only the node rows
 * and their FTS5 rows. `all`: every row the projector writes (nodes + FTS5, edges, runs,
 * chunks, gates) into the projector's own schema: the floor for the same output.
 */
function rawBaseline(path, kind) {
  const db = new Database(path);
  if (kind === 'nodes') {
    db.exec(`CREATE TABLE node (id INTEGER PRIMARY KEY, project TEXT NOT NULL, level TEXT NOT NULL, kind TEXT NOT NULL, run_id TEXT, t INTEGER,
               source TEXT, text TEXT NOT NULL, sha256 TEXT NOT NULL, seq INTEGER NOT NULL, created_ts TEXT NOT NULL, meta TEXT NOT NULL);
             CREATE VIRTUAL TABLE node_fts USING fts5 (text, content = 'node', content_rowid = 'id', tokenize = 'porter unicode61 remove_diacritics 2');`);
  } else {
    db.exec(MIGRATION);
  }
  const node = db.prepare(
    `INSERT INTO node (project, level, kind, run_id, t, source, text, sha256, seq, created_ts, meta) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const fts = db.prepare(`INSERT INTO node_fts (rowid, text) VALUES (?, ?)`);
  const other = kind === 'all' && {
    edge: db.prepare(
      `INSERT OR IGNORE INTO edge (project, child_level, child_sha, parent_level, parent_sha) VALUES (?, ?, ?, ?, ?)`,
    ),
    run: db.prepare(
      `INSERT INTO run (project, run_id, level, query_id, started_seq) VALUES (?, ?, ?, ?, ?)`,
    ),
    runEnd: db.prepare(
      `UPDATE run SET chunks_seen = ?, chunks_used = ?, final_memory_sha = ?, ended_seq = ? WHERE project = ? AND run_id = ?`,
    ),
    chunk: db.prepare(
      `INSERT INTO chunk (project, run_id, t, level, source, span_start, span_end, sha256, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    gate: db.prepare(
      `INSERT INTO gate (project, run_id, t, level, "update", "exit", think, latency_ms, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  };
  return {
    begin: () => db.exec('BEGIN'),
    commit: () => db.exec('COMMIT'),
    close: () => db.close(),
    apply(e) {
      if (e.type === 'evidence' || e.type === 'memory') {
        const meta =
          e.type === 'memory' ? JSON.stringify({ parents: e.parents, tokens: e.tokens }) : '{}';
        const { lastInsertRowid } = node.run(
          e.project,
          e.level,
          e.type,
          e.run_id,
          e.t,
          e.source ?? null,
          e.text,
          e.sha256,
          e.seq,
          e.ts,
          meta,
        );
        fts.run(lastInsertRowid, e.text);
        if (other && e.type === 'memory')
          for (const p of e.parents)
            other.edge.run(e.project, e.level, e.sha256, e.level === 'L1' ? 'L0' : 'L1', p);
      } else if (!other) {
        return;
      } else if (e.type === 'chunk') {
        other.chunk.run(
          e.project,
          e.run_id,
          e.t,
          e.level,
          e.source,
          e.span?.[0] ?? null,
          e.span?.[1] ?? null,
          e.sha256,
          e.seq,
        );
      } else if (e.type === 'gate') {
        other.gate.run(
          e.project,
          e.run_id,
          e.t,
          e.level,
          e.update ? 1 : 0,
          e.exit ? 1 : 0,
          e.think,
          e.latency_ms,
          e.seq,
        );
      } else if (e.type === 'run') {
        other.run.run(e.project, e.run_id, e.level, e.query_id, e.seq);
      } else if (e.type === 'run_end') {
        other.runEnd.run(
          e.chunks_seen,
          e.chunks_used,
          e.final_memory_sha,
          e.seq,
          e.project,
          e.run_id,
        );
      }
    },
  };
}

/**
 * The projector and both baselines take the same batches in turn, so all three see the same
 * machine load. A baseline keeps one transaction open across all batches (its "one
 * transaction loop"); the projector commits once per batch, as the engine drives it.
 */
async function interleaved(events, root) {
  const target = tempTarget(join(root, 'proj'));
  const handle = await projectorSqlite.init(target);
  const baselines = {
    nodes: rawBaseline(join(root, 'raw-nodes.sqlite'), 'nodes'),
    all: rawBaseline(join(root, 'raw-all.sqlite'), 'all'),
  };
  const time = { nodes: 0, all: 0, apply: 0 };
  const timed = (key, fn) => {
    const start = process.hrtime.bigint();
    fn();
    time[key] += secs(start);
  };
  for (const [key, b] of Object.entries(baselines)) timed(key, () => b.begin());
  const stretches = new Stretches();
  for (const batch of batches(events)) {
    for (const [key, b] of Object.entries(baselines))
      timed(key, () => batch.forEach(({ event }) => b.apply(event)));
    const stretch = stretches.next(batch);
    const start = process.hrtime.bigint();
    await projectorSqlite.project(handle, 'bench', stretch);
    time.apply += secs(start);
  }
  for (const [key, b] of Object.entries(baselines)) timed(key, () => b.commit());
  for (const b of Object.values(baselines)) b.close();
  const start = process.hrtime.bigint();
  await projectorSqlite.seal(handle);
  const seal = secs(start);
  await projectorSqlite.close(handle);
  return { ...time, seal, bytes: statSync(join(target.stateDir, 'items.sqlite')).size };
}

async function throughput() {
  const events = [...syntheticLog('bench', EVENTS)];
  const counts = {};
  for (const { event } of events) counts[event.type] = (counts[event.type] ?? 0) + 1;
  const nodes = (counts.evidence ?? 0) + (counts.memory ?? 0);
  const root = mkdtempSync(join(tmpdir(), 'mem-sqlite-bench-'));
  try {
    // Warm-up: the first prepare/tokenizer/file-system touches are not what we measure.
    await interleaved(events.slice(0, 5000), mkdtempSync(join(root, 'warm-')));
    const r = await interleaved(events, mkdtempSync(join(root, 'run-')));
    const rate = (s) => events.length / s;
    const total = r.apply + r.seal;
    console.log(
      `rebuild throughput (${fmt(events.length)} events: ${Object.entries(counts)
        .map(([k, v]) => `${k} ${fmt(v)}`)
        .join(', ')}; ${fmt(nodes)} nodes; interleaved batch by batch)`,
    );
    console.log(
      `  raw nodes   ${fmt(rate(r.nodes))} events/s  (${fmt(r.nodes, 2)} s: only node rows + FTS5 rows, one transaction)`,
    );
    console.log(
      `  raw all     ${fmt(rate(r.all))} events/s  (${fmt(r.all, 2)} s: every row the projector writes, FTS5 included, one transaction)`,
    );
    console.log(
      `  projector   ${fmt(rate(total))} events/s  (apply ${fmt(r.apply, 2)} s: plan + all tables, FTS deferred, ${BATCH}-event batches;`,
    );
    console.log(
      `                                  seal ${fmt(r.seal, 2)} s: canonical copy + FTS5 build, ${fmt(r.bytes / 2 ** 20, 1)} MiB)`,
    );
    console.log(
      `  ratio       ${fmt(r.nodes / total, 2)} vs raw nodes (target >= 0.5: the baseline writes ${fmt((100 * nodes) / events.length, 1)}% of the rows)`,
    );
    console.log(`              ${fmt(r.all / total, 2)} vs raw all (same rows, same output)`);
    figure('rebuild_ratio_raw_nodes', r.nodes / total);
    figure('rebuild_ratio_raw_all', r.all / total);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

// ---- phase 2: streamed 1M-event rebuild, in a child so peak RSS is its own ---------------

/**
 * Appends `lines` to the project's journal under `logDir` as the log would: 64 MiB segments,
 * rotated between batches. Returns the bytes written.
 */
function segmentWriter(logDir, project) {
  const dir = join(logDir, project);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let index = 1;
  let size = 0;
  return (lines) => {
    const bytes = Buffer.from(`${lines.join('\n')}\n`);
    if (size > 0 && size + bytes.length > DEFAULT_SEGMENT_BYTES) {
      index += 1;
      size = 0;
    }
    appendFileSync(join(dir, `${String(index).padStart(6, '0')}.jsonl`), bytes, { mode: 0o600 });
    size += bytes.length;
    return bytes.length;
  };
}

async function streamChild(total) {
  const root = mkdtempSync(join(tmpdir(), 'mem-sqlite-stream-'));
  try {
    const target = tempTarget(root);
    const handle = await projectorSqlite.init(target);
    // The same events go to a real log beside the store (lines and hashes as the log writes
    // them), so the catch-ups below read the log as the engine does at this size.
    const writeLines = segmentWriter(join(root, 'log'), 'bench');
    let logBytes = 0;
    const wallStart = process.hrtime.bigint();
    let apply = 0;
    const stretches = new Stretches();
    for (const batch of batches(syntheticLog('bench', total, 1, { lines: true }))) {
      logBytes += writeLines(batch.map(({ line }) => line));
      const stretch = stretches.next(batch);
      const begin = process.hrtime.bigint();
      await projectorSqlite.project(handle, 'bench', stretch);
      apply += secs(begin);
    }
    const wall = secs(wallStart);
    let start = process.hrtime.bigint();
    await projectorSqlite.seal(handle);
    const seal = secs(start);
    await projectorSqlite.close(handle);
    const maxRssMb = process.resourceUsage().maxRSS / 1024;
    const bytes = statSync(join(target.stateDir, 'items.sqlite')).size;
    // Small appends after that, each caught up as every write is: the engine reads the log from
    // the store's position, applies, seals and records the head. Only the catch-up is timed.
    const engine = new Engine({ root, projectors: [projectorSqlite] });
    const writer = { kind: 'bench' };
    const catchUp = async (payloads) => {
      await engine.append('bench', payloads, writer, { catchUp: 'later' });
      const begin = process.hrtime.bigint();
      const report = await engine.catchUp(['bench']);
      const took = secs(begin);
      const applied = report.applied.reduce((sum, entry) => sum + entry.events, 0);
      if (applied !== payloads.length)
        throw new Error(`catch-up applied ${applied} events, expected ${payloads.length}`);
      return took;
    };
    const tombstones = Array.from({ length: 10 }, (_, n) => ({
      type: 'tombstone',
      target: 'a'.repeat(64),
      reason: `bench ${n}`,
    }));
    const text = 'A reference passage appended after the rebuild.';
    // Several small catch-ups (one batch of tombstones each): their median is the figure.
    const small = [];
    for (let n = 0; n < CATCHUPS; n += 1) small.push(await catchUp(tombstones));
    const appendSeal = [...small].sort((a, b) => a - b)[Math.floor(small.length / 2)];
    const appendNodeSeal = await catchUp([
      {
        type: 'reference',
        level: 'R',
        source: 'docs:bench.md',
        heading_path: ['Bench'],
        text,
        sha256: contentSha256(text),
      },
    ]);
    // The log's share of a catch-up: reading the last 10 events, the line before them hashed.
    const log = new EventLog({ dir: join(root, 'log') });
    const { seq: headSeq } = await log.head('bench');
    const reads = [];
    for (let n = 0; n < CATCHUPS; n += 1) {
      const begin = process.hrtime.bigint();
      let read = 0;
      for await (const _ of log.read('bench', { fromSeq: headSeq - 9 })) read += 1;
      reads.push(secs(begin));
      if (read !== 10) throw new Error(`read ${read} events from seq ${headSeq - 9}, expected 10`);
    }
    const logRead = [...reads].sort((a, b) => a - b)[Math.floor(reads.length / 2)];
    // Appends of memory text: their provenance and tombstone checks fold the log once per
    // process (the first append) and then read only its new events. Before, each such append
    // folded the whole log twice, as `fullFold` does here (the same two reads, timed apart).
    const memoryAppends = [];
    const memoryCatchUps = [];
    for (let n = 0; n <= CATCHUPS; n += 1) {
      const found = `bench finding ${n}: the nightly job waited on the cache warm-up`;
      const line = `- nightly job ${n} waits on the cache warm-up`;
      const payloads = [
        {
          type: 'evidence',
          run_id: 'bench-appends',
          level: 'L0',
          t: n + 1,
          source: 'claude:bench',
          text: found,
          sha256: contentSha256(found),
        },
        {
          type: 'memory',
          run_id: 'bench-appends',
          level: 'L1',
          t: n + 1,
          text: line,
          tokens: 9,
          parents: [contentSha256(found)],
          sha256: contentSha256(line),
          lines: uniformLines(line, [contentSha256(found)]),
        },
      ];
      let begin = process.hrtime.bigint();
      await engine.append('bench', payloads, writer, { catchUp: 'later' });
      memoryAppends.push(secs(begin));
      begin = process.hrtime.bigint();
      await engine.catchUp(['bench']);
      memoryCatchUps.push(secs(begin));
    }
    // A fresh process's first memory append (another engine on the root): it starts from the
    // fold the first append saved (.mem/append-folds/) and reads only the events after it.
    const fresh = new Engine({ root, projectors: [projectorSqlite] });
    const freshText = 'bench finding fresh: the nightly job waited on the cache warm-up';
    const freshLine = '- a fresh writer notes the nightly job waits on the cache warm-up';
    const freshStart = process.hrtime.bigint();
    await fresh.append(
      'bench',
      [
        {
          type: 'evidence',
          run_id: 'bench-appends',
          level: 'L0',
          t: CATCHUPS + 2,
          source: 'claude:bench',
          text: freshText,
          sha256: contentSha256(freshText),
        },
        {
          type: 'memory',
          run_id: 'bench-appends',
          level: 'L1',
          t: CATCHUPS + 2,
          text: freshLine,
          tokens: 11,
          parents: [contentSha256(freshText)],
          sha256: contentSha256(freshLine),
          lines: uniformLines(freshLine, [contentSha256(freshText)]),
        },
      ],
      writer,
      { catchUp: 'later' },
    );
    const freshMemoryAppend = secs(freshStart);
    await fresh.close();
    await engine.close();
    const [firstMemoryAppend, ...warmAppends] = memoryAppends;
    const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
    const foldStart = process.hrtime.bigint();
    const check = new ProvenanceCheck('bench');
    for await (const { event, segment, line } of log.read('bench'))
      check.apply(event, { segment, line });
    await foldTombstones(log.read('bench'));
    const fullFold = secs(foldStart);
    process.stdout.write(
      JSON.stringify({
        total,
        apply,
        wall,
        seal,
        appendSeal,
        appendNodeSeal,
        small,
        logRead,
        firstMemoryAppend,
        freshMemoryAppend,
        memoryAppend: median(warmAppends),
        memoryCatchUp: median(memoryCatchUps.slice(1)),
        fullFold,
        bytes,
        logBytes,
        maxRssMb,
      }),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function stream() {
  const child = spawnSync(
    process.execPath,
    [fileURLToPath(import.meta.url), '--stream-child', String(STREAM)],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  if (child.status !== 0) {
    console.log(`streamed rebuild crashed (${child.status ?? child.signal}):\n${child.stderr}`);
    process.exitCode = 1;
    return;
  }
  const r = JSON.parse(child.stdout);
  console.log(
    `streamed rebuild (${fmt(r.total)} events generated lazily, ${BATCH}-event batches, child process)`,
  );
  console.log(
    `  apply     ${fmt(r.total / r.apply)} events/s  (${fmt(r.apply, 1)} s in project(); ${fmt(r.wall, 1)} s with generating the events)`,
  );
  console.log(
    `  seal      ${fmt(r.seal, 1)} s  (last commit, FTS5 build, canonical copy: ${fmt(r.bytes / 2 ** 20, 1)} MiB file)`,
  );
  console.log(
    `  log       ${fmt(r.logBytes / 2 ** 20, 1)} MiB in ${Math.ceil(r.logBytes / DEFAULT_SEGMENT_BYTES)} segments beside the store`,
  );
  console.log(
    `  catch-up of 10 tombstones  p50 ${fmt(r.appendSeal * 1000, 1)} ms of ${CATCHUPS} (${r.small.map((s) => fmt(s * 1000, 1)).join(', ')}): engine.catchUp — log read, apply, seal, heads (target <= 20 ms)`,
  );
  console.log(`  catch-up of one new node   ${fmt(r.appendNodeSeal * 1000, 1)} ms`);
  console.log(
    `  of which the log read of the 10 newest events  p50 ${fmt(r.logRead * 1000, 2)} ms`,
  );
  console.log(
    `  append of one memory (+ its evidence)  p50 ${fmt(r.memoryAppend * 1000, 1)} ms; the process's first ${fmt(r.firstMemoryAppend * 1000, 1)} ms (folds the log once)`,
  );
  console.log(
    `    a fresh process's first (from the saved fold)  ${fmt(r.freshMemoryAppend * 1000, 1)} ms`,
  );
  console.log(
    `    the whole-log fold every such append read before  ${fmt(r.fullFold * 1000, 1)} ms; its catch-up p50 ${fmt(r.memoryCatchUp * 1000, 1)} ms`,
  );
  console.log(`  peak RSS  ${fmt(r.maxRssMb, 0)} MB while rebuilding  (target < 300 MB)`);
  figure('catchup_1m_small_batch_p50_ms', r.appendSeal * 1000);
  figure('catchup_1m_one_node_ms', r.appendNodeSeal * 1000);
  figure('catchup_1m_log_read_ms', r.logRead * 1000);
  figure('catchup_1m_memory_p50_ms', r.memoryCatchUp * 1000);
  figure('append_1m_memory_p50_ms', r.memoryAppend * 1000);
  figure('append_1m_memory_first_ms', r.firstMemoryAppend * 1000);
  figure('append_1m_memory_fresh_ms', r.freshMemoryAppend * 1000);
  figure('append_1m_full_fold_ms', r.fullFold * 1000);
  figure('rebuild_1m_events_per_s', r.total / r.apply);
  figure('rebuild_1m_peak_rss_mb', r.maxRssMb);
}

if (process.argv[2] === '--stream-child') {
  await streamChild(Number(process.argv[3]));
} else {
  if (EVENTS > 0) await throughput();
  if (STREAM > 0) stream();
}
