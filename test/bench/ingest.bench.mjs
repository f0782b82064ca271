// The main job's figures: dry-run MB/s over the shipped transcripts (real token counts),
// heuristic controller decisions/s, and peak RSS while ingesting a generated 1 GB Claude Code
// transcript end to end (sources -> chunker -> gated loop -> log -> projections).
// Prints figures; never fails. Needs a build (`npm run bench` does it).
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { figure } from './figures.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const dist = (pkg) => join(repo, 'packages', pkg, 'dist', 'index.js');
const { seededRandom } = await import(dist('core'));
const { qwenTokenizer, chunks, chunkPolicy } = await import(dist('chunk'));
const { loadStandingQueries, dryRun } = await import(dist('ingest'));
const { heuristicController, GatedRun } = await import(dist('extractor'));
const { sourceForPath } = await import(dist('sources'));
const fixtures = join(repo, 'test', 'fixtures', 'transcripts');
const fmt = (n, d = 1) =>
  n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

const QUESTIONS = [
  'What architectural decisions were made, with reasoning and rejected alternatives?',
  'What bugs or failures were found, what was the root cause, and how were they fixed?',
  'What questions were raised and left unresolved?',
];

async function dryRunThroughput() {
  const root = mkdtempSync(join(tmpdir(), 'mem-bench-dry-'));
  mkdirSync(join(root, 'queries'));
  writeFileSync(
    join(root, 'queries', 'demo.yaml'),
    `project: demo\nsources:\n  - claude:${join(fixtures, 'claude')}\n  - pi:${join(fixtures, 'pi')}\nqueries:\n  - id: q\n    question: What broke?\n`,
  );
  const bytes = ['claude', 'pi']
    .flatMap((d) => readdirSync(join(fixtures, d)).map((f) => statSync(join(fixtures, d, f)).size))
    .reduce((a, b) => a + b, 0);
  const tokenizer = qwenTokenizer();
  const config = loadStandingQueries(join(root, 'queries'), 'demo');
  const times = [];
  let report;
  for (let i = 0; i < 4; i++) {
    const start = performance.now();
    report = await dryRun(config, tokenizer);
    times.push(performance.now() - start);
  }
  rmSync(root, { recursive: true, force: true });
  const first = bytes / 1e6 / (times[0] / 1000);
  const warm = bytes / 1e6 / (Math.min(...times.slice(1)) / 1000);
  console.log(
    `dry run over the shipped transcripts (${fmt(bytes / 1e6, 2)} MB, ${report.chunks} chunks, ${report.tokens.total.toLocaleString('en-US')} tokens)`,
  );
  console.log(
    `  first pass ${fmt(first)} MB/s (tokenizer load included), warm ${fmt(warm)} MB/s  (target >= 5 MB/s)`,
  );
  figure('dry_run_warm_mb_per_s', warm);
}

async function heuristicThroughput() {
  const tokenizer = qwenTokenizer();
  const all = [];
  for (const kind of ['claude', 'pi']) {
    for await (const chunk of chunks(
      sourceForPath(join(fixtures, kind), kind),
      chunkPolicy(),
      tokenizer,
    ))
      all.push(chunk);
  }
  const steps = all.map((chunk) => ({
    text: chunk.text,
    records: chunk.records.map((r) => ({
      role: r.role,
      text: chunk.text.slice(r.textRange[0], r.textRange[1]),
    })),
    sha256: chunk.sha256,
    source: chunk.source,
    span: chunk.span,
  }));
  let decisions = 0;
  let used = 0;
  const start = performance.now();
  for (let round = 0; round < 3; round++) {
    for (const question of QUESTIONS) {
      const run = new GatedRun({
        level: 'L1',
        runId: `bench-${round}`,
        queryId: 'q',
        question,
        controller: heuristicController(tokenizer),
        tokenizer,
        memoryBudget: 1024,
        chunkTokens: 5000,
        actOnExit: false,
      });
      for (const step of steps) {
        const events = await run.offer(step);
        decisions += 1;
        if (events.some((e) => e.type === 'memory')) used += 1;
      }
    }
  }
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `heuristic controller over ${steps.length} real chunks x ${QUESTIONS.length} questions x 3 rounds`,
  );
  console.log(
    `  ${fmt(decisions / seconds, 0)} chunks/s (gate + fold + events, no I/O)  (target >= 500); update-rate ${fmt((used / decisions) * 100)}%`,
  );
  figure('heuristic_chunks_per_s', decisions / seconds);
}

const WORDS =
  'the a to of and in is for that it with on as this be by are was we from at or an not but if fix error build test config cache deploy kong ingress pod node worker queue retry timeout lock fsync segment chunk memory vault query token project session agent tool output result file path module function class type value index table schema migration commit branch merge review'.split(
    ' ',
  );

function sentence(rng, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(rng() * WORDS.length)]);
  return out.join(' ');
}

/**
 * Entry ids as Claude Code writes them: canonical UUIDs (v4-shaped, from a generator of their
 * own, so the text is the same either way). BENCH_INGEST_IDS=counter gives the short ids
 * (`u-1`, `a-1`, ...) earlier runs used, which no real transcript has: the reader's dedup set
 * keeps those as strings, a UUID as a number.
 */
function entryIds() {
  if (process.env.BENCH_INGEST_IDS === 'counter') return (kind, i) => `${kind}-${i}`;
  const rng = seededRandom(7);
  const hex = (digits) =>
    Array.from({ length: digits }, () => Math.floor(rng() * 16).toString(16)).join('');
  const ids = new Map();
  return (kind, i) => {
    const key = `${kind}-${i}`;
    let id = ids.get(key);
    if (id === undefined) {
      // Only the current exchange's ids are asked for again (as parents).
      if (kind === 'u') ids.clear();
      id = `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[Math.floor(rng() * 4)]}${hex(3)}-${hex(12)}`;
      ids.set(key, id);
    }
    return id;
  };
}

async function generateTranscript(file, megabytes) {
  const out = createWriteStream(file);
  const rng = seededRandom(42);
  const id = entryIds();
  let written = 0;
  let i = 0;
  const target = megabytes * 1024 * 1024;
  const base = {
    isSidechain: false,
    userType: 'external',
    cwd: '/work/bench',
    sessionId: 'bench-session',
    version: '2.1.39',
  };
  while (written < target) {
    i += 1;
    const ts = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    const lines = [
      {
        ...base,
        type: 'user',
        uuid: id('u', i),
        parentUuid: null,
        timestamp: ts,
        message: { role: 'user', content: `${sentence(rng, 20)}?` },
      },
      // Like a real session: mostly narration and tool output; now and then a finding.
      {
        ...base,
        type: 'assistant',
        uuid: id('a', i),
        parentUuid: id('u', i),
        timestamp: ts,
        message: {
          id: `msg_${i}`,
          type: 'message',
          role: 'assistant',
          model: 'bench',
          content: [
            {
              type: 'text',
              text:
                rng() < 0.03
                  ? `${sentence(rng, 30)}. The root cause was ${sentence(rng, 12)}.`
                  : `Let me check ${sentence(rng, 25)}.`,
            },
            {
              type: 'tool_use',
              id: `toolu_${i}`,
              name: 'Bash',
              input: { command: `ls ${sentence(rng, 3)}` },
            },
          ],
        },
      },
      {
        ...base,
        type: 'user',
        uuid: id('r', i),
        parentUuid: id('a', i),
        timestamp: ts,
        message: {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: `toolu_${i}`, content: sentence(rng, 400) },
          ],
        },
      },
    ];
    const text = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
    written += Buffer.byteLength(text);
    if (!out.write(text))
      await new Promise((resolve) => out.once('drain', () => resolve(undefined)));
  }
  await new Promise((resolve) => out.end(resolve));
  return written;
}

/**
 * Runs `mem ingest --project bench` on `root` in a process of its own, so its peak RSS is the
 * ingest's alone. `tree`: the largest of that process and every child it ran (initdb runs in
 * one), from /usr/bin/time where the machine has it, else null: a peak that leaves memory in a
 * child unreported would be no peak at all.
 */
function measuredIngest(root) {
  // BENCH_INGEST_HEAP_MB caps V8's old space: with the default, V8 lets garbage pile up long
  // before collecting, so RSS says more about the collector than about what is retained.
  const heap = process.env.BENCH_INGEST_HEAP_MB;
  const script = `
    // Where the peak sits, resident (from /proc/self/smaps where there is one): V8's heap; the
    // WebAssembly memory (PGlite's Postgres heap: an anonymous mapping of >= 128 MB, of which
    // only the touched pages are resident, while 'external' counts all of it); malloc's main
    // heap (SQLite, and what glibc keeps after it frees); mapped files (node's own code).
    const { readFileSync } = await import('node:fs');
    const resident = () => {
      let text;
      try { text = readFileSync('/proc/self/smaps', 'utf8'); } catch { return null; }
      const kib = { wasm: 0, malloc: 0, files: 0 };
      let size = 0, name = '', writable = false;
      for (const line of text.split("\\n")) {
        const head = /^[0-9a-f]+-[0-9a-f]+ (\\S+) \\S+ \\S+ \\S+\\s*(.*)$/.exec(line);
        if (head) { writable = head[1].startsWith('rw'); name = head[2]; continue; }
        const field = /^(Size|Rss):\\s+(\\d+)/.exec(line);
        if (!field) continue;
        if (field[1] === 'Size') { size = Number(field[2]); continue; }
        const rss = Number(field[2]);
        if (name === '' && writable && size >= 128 * 1024) kib.wasm += rss;
        else if (name === '[heap]') kib.malloc += rss;
        else if (name.startsWith('/')) kib.files += rss;
      }
      return kib;
    };
    let peak = { rss: 0 };
    setInterval(() => { const m = process.memoryUsage(); if (m.rss > peak.rss) peak = { ...m, resident: resident() }; }, 250).unref();
    const { main } = await import(${JSON.stringify(dist('cli'))});
    const code = await main(['node', 'mem', '--root', ${JSON.stringify(root)}, 'ingest', '--project', 'bench', '--json'], { stdin: process.stdin, stdout: { write() {} }, stderr: process.stderr, env: process.env, cwd: process.cwd() });
    const mb = (n) => Math.round(n / 1048576);
    console.log(JSON.stringify({ code, maxRssMB: process.resourceUsage().maxRSS / 1024, atPeak: { heapTotalMB: mb(peak.heapTotal ?? 0), externalMB: mb(peak.external ?? 0), arrayBuffersMB: mb(peak.arrayBuffers ?? 0), ...(peak.resident ? { wasmResidentMB: mb(peak.resident.wasm * 1024), mallocMB: mb(peak.resident.malloc * 1024), filesMB: mb(peak.resident.files * 1024) } : {}) } }));
  `;
  const node = [...(heap ? [`--max-old-space-size=${heap}`] : []), '-e', script];
  const timed = existsSync('/usr/bin/time');
  const start = performance.now();
  const child = spawnSync(
    timed ? '/usr/bin/time' : process.execPath,
    timed ? ['-v', process.execPath, ...node] : node,
    { encoding: 'utf8', input: '', maxBuffer: 1 << 26 },
  );
  const seconds = (performance.now() - start) / 1000;
  const last = child.stdout.trim().split('\n').at(-1) ?? '{}';
  /** @type {{ code?: number, maxRssMB?: number, atPeak?: { heapTotalMB: number, externalMB: number, arrayBuffersMB: number, wasmResidentMB?: number, mallocMB?: number, filesMB?: number } }} */
  let result = {};
  try {
    result = JSON.parse(last);
  } catch {
    console.log(child.stdout.slice(-500), child.stderr.slice(-2000));
  }
  const tree = /Maximum resident set size \(kbytes\): (\d+)/.exec(child.stderr ?? '');
  return { ...result, seconds, treeMB: tree ? Number(tree[1]) / 1024 : null, heap };
}

async function bigIngest() {
  const megabytes = Number(process.env.BENCH_INGEST_MB ?? 1024);
  const label = megabytes % 1024 === 0 ? `${megabytes / 1024}gb` : `${megabytes}mb`;
  const root = mkdtempSync(join(tmpdir(), 'mem-bench-ingest-'));
  mkdirSync(join(root, 'sessions'));
  mkdirSync(join(root, 'queries'));
  writeFileSync(
    join(root, 'queries', 'bench.yaml'),
    `project: bench\nsources:\n  - claude:../sessions\nqueries:\n  - id: bugs\n    question: ${QUESTIONS[1]}\n`,
  );
  // First an ingest with nothing to read: it creates the projections, the embedded Postgres
  // cluster by initdb in a child process of its own (~790 MB, gone when it exits). A one-time
  // setup, reported on its own line, so the figure below is the ingest's.
  const first = measuredIngest(root);
  const tree = (r) => (r.treeMB === null ? 'no /usr/bin/time' : `${fmt(r.treeMB, 0)} MB`);
  console.log(
    `first ingest on a fresh root (nothing to read; creates the SQLite store and the PGlite cluster): exit ${first.code}, peak RSS ${fmt(first.maxRssMB ?? NaN, 0)} MB, largest process of its tree (initdb) ${tree(first)}`,
  );
  if (first.code === 0 && first.treeMB !== null)
    figure('ingest_first_tree_peak_rss_mb', first.treeMB);
  const bytes = await generateTranscript(join(root, 'sessions', 'bench-session.jsonl'), megabytes);
  const result = measuredIngest(root);
  console.log(
    `ingest of a generated ${fmt(bytes / 1e6, 0)} MB Claude Code transcript (1 standing query, heuristic, sqlite + vault + pgvector${result.heap ? `, V8 old space capped at ${result.heap} MB` : ''})`,
  );
  console.log(
    `  ${fmt(result.seconds, 1)} s (${fmt(bytes / 1e6 / result.seconds, 2)} MB/s), exit ${result.code}, peak RSS ${fmt(result.maxRssMB ?? NaN, 0)} MB, largest process of its tree ${tree(result)}  (target < 300 MB)`,
  );
  if (result.atPeak)
    console.log(
      `  at the sampled peak: V8 heap ${result.atPeak.heapTotalMB} MB, external ${result.atPeak.externalMB} MB (PGlite's WebAssembly memory as mapped), array buffers ${result.atPeak.arrayBuffersMB} MB${result.atPeak.wasmResidentMB === undefined ? '' : `; resident: WebAssembly memory ${result.atPeak.wasmResidentMB} MB, malloc heap ${result.atPeak.mallocMB} MB, mapped files ${result.atPeak.filesMB} MB`}`,
    );
  if (result.code === 0 && Number.isFinite(result.maxRssMB)) {
    figure(`ingest_${label}_peak_rss_mb`, result.maxRssMB);
    if (result.treeMB !== null) figure(`ingest_${label}_tree_peak_rss_mb`, result.treeMB);
    figure(`ingest_${label}_mb_per_s`, bytes / 1e6 / result.seconds);
  }
  rmSync(root, { recursive: true, force: true });
}

await dryRunThroughput();
await heuristicThroughput();
await bigIngest();
