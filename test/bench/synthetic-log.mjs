// A deterministic synthetic extraction log for benchmarks (test/bench/rebuild-sqlite.bench.mjs):
// plain ESM over core's dist, so the bench runs without a TypeScript loader.
import {
  contentSha256,
  genesisHash,
  seededRandom,
  serializeEvent,
  sha256Hex,
  uniformLines,
} from '../../packages/core/dist/index.js';

const SYLLABLES = [
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
];
function vocabulary(random, size) {
  const words = new Set();
  while (words.size < size) {
    let w = '';
    for (let n = 2 + Math.floor(random() * 3); n > 0; n -= 1)
      w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

/**
 * Yields `total` chained events of one project: L1 runs of 200 chunks (chunk + gate each;
 * 5% of gates open and add evidence ~400 B + a cumulative memory of up to 24 bullets), and
 * every 10th run an L2 synthesis over 20 L1 memories. Generated lazily: nothing is held
 * but the current run's memory. With `lines`, each also carries its log line (serializeEvent)
 * and `hash` is that line's sha256, so the lines make a real log (a bench that catches up
 * from it); without, any unique hash stands in, which is all a projector checks.
 */
export function* syntheticLog(project, total, seed = 1, { lines = false } = {}) {
  const random = seededRandom(seed);
  const words = vocabulary(random, 5000);
  const sentence = (n) =>
    Array.from({ length: n }, () => words[Math.floor(random() * words.length)]).join(' ');
  let seq = 0;
  let prev = genesisHash(project);
  let ts = Date.parse('2026-08-17T09:00:00.000Z');
  const recentL1 = [];
  function emit(payload) {
    seq += 1;
    ts += 1000;
    const event = {
      seq,
      ts: new Date(ts).toISOString(),
      project,
      writer: { kind: 'bench' },
      ...payload,
      prev,
    };
    if (lines) {
      const line = serializeEvent(event);
      prev = sha256Hex(line);
      return { event, hash: prev, line };
    }
    // The projector checks the chain (prev = previous hash), not the line bytes: any unique hash will do.
    const hash = sha256Hex(`${project}:${seq}`);
    prev = hash;
    return { event, hash };
  }
  for (let run = 1; seq < total; run += 1) {
    const l2 = run % 10 === 0 && recentL1.length > 0;
    const run_id = `run-${run}`;
    const level = l2 ? 'L2' : 'L1';
    const query_id = l2 ? null : `query-${run % 7}`;
    yield emit({
      type: 'run',
      run_id,
      level,
      query_id,
      input_level: l2 ? 'L1' : 'chunk',
      model: 'heuristic',
      chunk_tokens: 5000,
      memory_budget: 1024,
      exit_gate: l2,
    });
    const chunks = l2 ? Math.min(20, recentL1.length) : 200;
    const bullets = [];
    let used = 0;
    let last = null;
    for (let t = 1; t <= chunks && seq < total - 1; t += 1) {
      const chunkText = l2 ? null : sentence(60);
      const chunkSha = l2 ? recentL1[(t - 1) % recentL1.length] : contentSha256(chunkText);
      yield emit({
        type: 'chunk',
        run_id,
        level: l2 ? 'L1' : 'L0',
        t,
        source: l2 ? `L1:query-${t % 7}` : `claude:session-${run}`,
        span: l2 ? null : [t * 10, t * 10 + 10],
        sha256: chunkSha,
      });
      const update = random() < (l2 ? 0.3 : 0.05);
      yield emit({
        type: 'gate',
        run_id,
        level,
        t,
        update,
        exit: false,
        think: update
          ? 'The chunk states a root cause and its fix.'
          : 'Tool output without evidence for the question.',
        latency_ms: Math.floor(random() * 900),
      });
      if (!update || seq >= total - 2) continue;
      used += 1;
      if (!l2)
        yield emit({
          type: 'evidence',
          run_id,
          level: 'L0',
          t,
          source: `claude:session-${run}`,
          text: chunkText,
          sha256: chunkSha,
        });
      bullets.push(`- ${sentence(12)}.`);
      if (bullets.length > 24) bullets.shift();
      const text = bullets.join('\n');
      last = contentSha256(text);
      yield emit({
        type: 'memory',
        run_id,
        level,
        t,
        text,
        tokens: bullets.length * 16,
        parents: [chunkSha],
        sha256: last,
        lines: uniformLines(text, [chunkSha]),
      });
      if (!l2) {
        recentL1.push(last);
        if (recentL1.length > 20) recentL1.shift();
      }
    }
    if (seq < total)
      yield emit({
        type: 'run_end',
        run_id,
        level,
        chunks_seen: chunks,
        chunks_used: used,
        final_memory_sha: last,
      });
  }
}
