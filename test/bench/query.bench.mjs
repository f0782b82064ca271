// Query latency (run: `npx tsc -b packages/query packages/eval && node test/bench/run.mjs query`).
// Prints figures, never fails. For 10k and 100k nodes written through the real log and caught
// up by the real projectors (a scratch data root), it times queryMemory on the embedded
// defaults — keyword recall from the SQLite item store plus hash-embedder vector recall from
// PGlite — and, as the raw baseline
// in the same run, one plain FTS5 OR query of the same terms (no filters, no fusion, no floor, no
// citations), and the same queries on keyword recall alone, so the vector side's share shows.
// Target: p95 <= 20 ms (no remote model calls on the embedded defaults). The machine is shared:
// read the ratios, and the uptime load average printed beside them.
// Environment: BENCH_QUERY_SIZES (default "10000,100000"), BENCH_QUERY_N (queries per kind, default 200),
// BENCH_QUERY_KEEP (a directory to keep the stores in and reuse), BENCH_QUERY_VECTOR=off (build and
// time the SQLite projection alone: no PGlite, whose 100k build takes most of two hours; prints
// the keyword-only and raw FTS5 columns and their figures, not the embedded defaults' column).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  contentSha256,
  loadConfig,
  seededRandom,
  uniformLines,
} from '../../packages/core/dist/index.js';
import { embedderFromEnv } from '../../packages/embed/dist/index.js';
import { Engine } from '../../packages/engine/dist/index.js';
import {
  openVectorRecall,
  projectorPgvector,
} from '../../packages/projector-pgvector/dist/index.js';
import { openItemStore, projectorSqlite } from '../../packages/projector-sqlite/dist/index.js';
import { keywordTerms, matchExpression, queryMemory } from '../../packages/query/dist/index.js';
import { figure } from './figures.mjs';

// better-sqlite3 belongs to projector-sqlite: the bench borrows it there to count what it built.
const Database = createRequire(
  new URL('../../packages/projector-sqlite/package.json', import.meta.url),
)('better-sqlite3');
/** Rows in the store's node table (memories, their lines, evidence, references). */
function nodeCount(file) {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT count(*) AS n FROM node').get().n;
  } finally {
    db.close();
  }
}

const SIZES = (process.env.BENCH_QUERY_SIZES ?? '10000,100000').split(',').map(Number);
const N = Number(process.env.BENCH_QUERY_N ?? 200);
const PROJECTS = 5;
const VECTOR = process.env.BENCH_QUERY_VECTOR !== 'off';

/** A Zipf-distributed vocabulary of pseudo-words, plus English function words at their usual rate. */
function language(random) {
  const syllables = [
    'ka',
    'lo',
    'mi',
    'ne',
    'po',
    'ru',
    'sa',
    'ti',
    'vu',
    'xe',
    'zo',
    'bri',
    'cla',
    'dro',
    'fen',
    'gul',
    'hax',
    'jor',
    'kem',
    'lin',
  ];
  const words = new Set();
  while (words.size < 20000) {
    let w = '';
    for (let n = 2 + Math.floor(random() * 3); n > 0; n -= 1)
      w += syllables[Math.floor(random() * syllables.length)];
    words.add(w);
  }
  const vocab = [...words];
  const cumulative = [];
  let total = 0;
  // Offset Zipf: function words take the head of a real distribution (they come from `stop`
  // here), so the most frequent content word is ~0.2% of tokens, as in English prose.
  for (let i = 0; i < vocab.length; i += 1) cumulative.push((total += 1 / (i + 100) ** 1.07));
  const stop = [
    'the',
    'a',
    'to',
    'of',
    'and',
    'in',
    'it',
    'was',
    'is',
    'with',
    'for',
    'on',
    'after',
    'before',
    'that',
  ];
  const word = () => {
    const x = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return vocab[lo];
  };
  const sentence = (n) =>
    Array.from({ length: n }, () =>
      random() < 0.35 ? stop[Math.floor(random() * stop.length)] : word(),
    ).join(' ');
  return { word, sentence };
}

/**
 * Payloads of a store of about `nodes` nodes per the mix of a project memory with a reference
 * corpus: 20% L0 evidence, 20% L1 memories (chains of 10 per standing query: one live head,
 * nine superseded), 60% R passages — over PROJECTS projects.
 */
function corpus(nodes, seed = 7) {
  const random = seededRandom(seed);
  const { sentence } = language(random);
  const byProject = new Map();
  const perProject = Math.floor(nodes / PROJECTS);
  const heads = [];
  for (let p = 0; p < PROJECTS; p += 1) {
    const project = `bench-${p}`;
    const payloads = [];
    const memories = Math.floor(perProject * 0.2);
    const chains = Math.max(1, Math.floor(memories / 10));
    for (let q = 0; q < chains; q += 1) {
      const run_id = `run-${q}`;
      payloads.push({
        type: 'run',
        run_id,
        level: 'L1',
        query_id: `q-${q}`,
        input_level: 'chunk',
        model: 'heuristic',
        chunk_tokens: 5000,
        memory_budget: 1024,
        exit_gate: false,
      });
      const bullets = [];
      let text = '';
      for (let t = 1; t <= 10; t += 1) {
        const evidence = `${sentence(40)}.`;
        payloads.push({
          type: 'evidence',
          run_id,
          level: 'L0',
          t,
          source: `claude:session-${q}`,
          text: evidence,
          sha256: contentSha256(evidence),
        });
        bullets.push(`- ${sentence(12)}.`);
        if (bullets.length > 6) bullets.shift();
        text = bullets.join('\n');
        payloads.push({
          type: 'memory',
          run_id,
          level: 'L1',
          t,
          text,
          tokens: bullets.length * 16,
          parents: [contentSha256(evidence)],
          sha256: contentSha256(text),
          lines: uniformLines(text, [contentSha256(evidence)]),
        });
      }
      heads.push({ project, text });
    }
    for (let r = 0; r < Math.floor(perProject * 0.6); r += 1) {
      const text = `${sentence(60)}.`;
      payloads.push({
        type: 'reference',
        level: 'R',
        source: `docs:manual.md#${r}`,
        heading_path: ['manual', `section ${r}`],
        text,
        sha256: contentSha256(text),
      });
    }
    byProject.set(project, payloads);
  }
  return { byProject, heads, random, sentence };
}

const pct = (samples, p) => {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const ms = (x) => `${x.toFixed(2)} ms`;

/** The embedded vector side, as `mem query` runs it with an empty environment. */
function vectorSide(stateDir) {
  const embedder = embedderFromEnv(loadConfig({}));
  return {
    embedder,
    projector: projectorPgvector({ embedder }),
    open: () => openVectorRecall({ stateDir, expectEmbedder: embedder.name }),
  };
}

for (const size of SIZES) {
  // BENCH_QUERY_KEEP=DIR keeps each store under DIR/<size> and reuses it on the next run
  // (building 100k nodes into PGlite takes minutes).
  const kept = process.env.BENCH_QUERY_KEEP
    ? join(process.env.BENCH_QUERY_KEEP, String(size))
    : null;
  const reuse = kept !== null && existsSync(join(kept, 'log'));
  const root = kept ?? mkdtempSync(join(tmpdir(), 'mem-bench-query-'));
  try {
    const { byProject, heads, random, sentence } = corpus(size);
    const vector = VECTOR ? vectorSide(join(root, '.mem')) : null;
    const engine = new Engine({
      root,
      projectors: vector ? [projectorSqlite, vector.projector] : [projectorSqlite],
    });
    let started = performance.now();
    if (!reuse) {
      for (const [project, payloads] of byProject) {
        for (let i = 0; i < payloads.length; i += 5000)
          await engine.append(
            project,
            payloads.slice(i, i + 5000),
            { kind: 'bench' },
            {
              catchUp: 'later',
            },
          );
      }
    }
    const appended = performance.now() - started;
    started = performance.now();
    await engine.catchUp();
    const caughtUp = performance.now() - started;
    const items = openItemStore(join(root, '.mem', 'items.sqlite'));
    const vectors = vector ? await vector.open() : null;
    const deps = vector ? { items, vectors, embedder: vector.embedder } : null;
    console.log(
      `load average ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')} on ${cpus().length} cores`,
    );
    console.log(
      `${nodeCount(join(root, '.mem', 'items.sqlite')).toLocaleString('en-US')} nodes in ${PROJECTS} projects (log ${ms(appended)}, catch-up ${ms(caughtUp)}); vector side: ${vector ? vector.embedder.name : 'off'}`,
    );

    // Questions: 3–6 words of a live memory in a question frame; unrelated: words the store lacks;
    // pasted logs: 60 words, as a CI log would be (capped at 32 terms by the query).
    const pick = () => heads[Math.floor(random() * heads.length)];
    /** @type {Record<string, () => import('../../packages/query/dist/index.js').QueryRequest>} */
    const kinds = {
      question: () => {
        const { project, text } = pick();
        const words = text.split(/[^a-z]+/).filter((w) => w.length > 3);
        const chosen = Array.from(
          { length: 3 + Math.floor(random() * 4) },
          () => words[Math.floor(random() * words.length)],
        );
        return { text: `why did the ${chosen.join(' ')} fail?`, projects: [project] };
      },
      'question, all projects, L1+L2+R': () => ({
        text: `what is ${pick().text.split(/\s+/).slice(1, 6).join(' ')}`,
        levels: ['L1', 'L2', 'R'],
      }),
      unrelated: () => ({
        text: `how do I configure the quantumflux${Math.floor(random() * 1e6)} capacitor?`,
        projects: [pick().project],
      }),
      'pasted log (60 words)': () => ({ text: sentence(60), projects: [pick().project] }),
    };
    const keywordOnly = { items };
    console.log(
      `  ${'query kind'.padEnd(34)} ${'mem, embedded defaults'.padEnd(26)} ${'mem, keyword only'.padEnd(26)} ${'raw FTS5 (same terms)'.padEnd(26)} p95 ratio  abstained`,
    );
    const figureKey = {
      question: '',
      'question, all projects, L1+L2+R': '_all',
      unrelated: '_unrelated',
      'pasted log (60 words)': '_log',
    };
    const sizeLabel = size % 1000 === 0 ? `${size / 1000}k` : String(size);
    for (const [name, make] of Object.entries(kinds)) {
      const requests = Array.from({ length: N }, make);
      // Warm the page cache and statements.
      for (const r of requests.slice(0, 10)) await queryMemory(r, deps ?? keywordOnly);
      const mem = [];
      const keyword = [];
      const raw = [];
      let abstained = 0;
      for (const request of requests) {
        let t;
        if (deps) {
          t = performance.now();
          const result = await queryMemory(request, deps);
          mem.push(performance.now() - t);
          if (result.abstained) abstained += 1;
        }
        t = performance.now();
        const alone = await queryMemory(request, keywordOnly);
        keyword.push(performance.now() - t);
        if (!deps && alone.abstained) abstained += 1;
        // The raw baseline: one FTS5 OR query of the same terms, ranked by bm25, no filters,
        // no fusion, no floor, no citations.
        const match = matchExpression(keywordTerms(request.text).terms, 'OR');
        t = performance.now();
        if (match) items.search(match, { limit: 10 });
        raw.push(performance.now() - t);
      }
      const cell = (samples) =>
        (samples.length === 0
          ? 'not run'
          : `p50 ${ms(pct(samples, 50))}, p95 ${ms(pct(samples, 95))}`
        ).padEnd(26);
      const head = deps ? mem : keyword;
      console.log(
        `  ${name.padEnd(34)} ${cell(mem)} ${cell(keyword)} ${cell(raw)} ${`${(pct(head, 95) / Math.max(pct(raw, 95), 1e-3)).toFixed(1)}x`.padEnd(10)} ${abstained}/${N}`,
      );
      const key = `query_${sizeLabel}${figureKey[name]}`;
      if (deps) figure(`${key}_p95_ms`, pct(mem, 95));
      figure(`${key}_keyword_p95_ms`, pct(keyword, 95));
      figure(`${key}_raw_fts_p95_ms`, pct(raw, 95));
    }
    items.close();
    await vectors?.close();
  } finally {
    if (kept === null) rmSync(root, { recursive: true, force: true });
  }
}
