import { contentSha256, uniformLines } from '@mem/core';
import fc from 'fast-check';

/*
 * Random valid extraction logs for property tests: runs at L1 and L2 (chunks, gates, and on
 * an open gate evidence + memory), references, tombstones and recoveries. Texts come from a
 * small pool so the same sha shows up at several levels, in both projects, and in tombstones
 * that arrive before or after the node they target.
 */

const TEXTS = [
  'Kong buffered the request body; proxy-body-size 0 fixed it.',
  'The pg container raced its volume mount.',
  'A readiness probe on pg_isready fixed the CI flake.',
  'Tokens expire after one hour.',
  'Café résumé naïve façade.',
  'The cache key ignores the locale.',
];
const QUERIES = ['infra-root-causes', 'auth-decisions'];

const step = fc.record({
  update: fc.boolean(),
  exit: fc.boolean(),
  text: fc.nat(TEXTS.length - 1),
  memory: fc.nat(TEXTS.length - 1),
});

const op = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('run' as const),
      level: fc.constantFrom('L1' as const, 'L2' as const),
      query: fc.nat(QUERIES.length - 1),
      steps: fc.array(step, { maxLength: 5 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('reference' as const),
      text: fc.nat(TEXTS.length - 1),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('tombstone' as const),
      text: fc.nat(TEXTS.length - 1),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('recovery' as const), offset: fc.nat(1000) }),
  },
);

export type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

/** A list of ops for one project (at least one, so every project has a log). */
export const opsArbitrary = fc.array(op, { minLength: 1, maxLength: 8 });

/** Turns ops into log payloads. Run ids are numbered per project, so they repeat across projects. */
export function payloadsOf(ops: readonly Op[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let runs = 0;
  for (const o of ops) {
    if (o.kind === 'reference') {
      const text = TEXTS[o.text]!;
      out.push({
        type: 'reference',
        level: 'R',
        source: 'docs:handbook.md',
        heading_path: ['Ops', `H${o.text}`],
        text,
        sha256: contentSha256(text),
      });
    } else if (o.kind === 'tombstone') {
      out.push({ type: 'tombstone', target: contentSha256(TEXTS[o.text]!), reason: 'withdrawn' });
    } else if (o.kind === 'recovery') {
      out.push({
        type: 'recovery',
        segment: '000001.jsonl',
        truncated_at: o.offset,
        dropped_bytes: 7,
        dropped_sha256: contentSha256(`torn ${o.offset}`),
      });
    } else {
      runs += 1;
      const runId = `run-${runs}`;
      const l1 = o.level === 'L1';
      out.push({
        type: 'run',
        run_id: runId,
        level: o.level,
        query_id: l1 ? QUERIES[o.query]! : null,
        input_level: l1 ? 'chunk' : 'L1',
        model: 'heuristic',
        chunk_tokens: 5000,
        memory_budget: 1024,
        exit_gate: !l1,
      });
      let used = 0;
      let last: string | null = null;
      o.steps.forEach((s, i) => {
        const t = i + 1;
        const text = TEXTS[s.text]!;
        const sha = contentSha256(text);
        out.push({
          type: 'chunk',
          run_id: runId,
          level: l1 ? 'L0' : 'L1',
          t,
          source: l1 ? 'claude:session-1' : `L1:${QUERIES[o.query]!}`,
          span: l1 ? [i * 10, i * 10 + 10] : null,
          sha256: sha,
        });
        out.push({
          type: 'gate',
          run_id: runId,
          level: o.level,
          t,
          update: s.update,
          exit: s.exit,
          think: s.update ? 'relevant' : 'not relevant',
          latency_ms: t * 1.5,
        });
        if (!s.update) return;
        used += 1;
        if (l1)
          out.push({
            type: 'evidence',
            run_id: runId,
            level: 'L0',
            t,
            source: 'claude:session-1',
            text,
            sha256: sha,
          });
        // Even picks reuse the evidence pool verbatim: one sha at L0 and L1 (or L2) at once.
        const memory = s.memory % 2 === 0 ? TEXTS[s.memory]! : `${TEXTS[s.memory]!} (${o.level})`;
        last = contentSha256(memory);
        out.push({
          type: 'memory',
          run_id: runId,
          level: o.level,
          t,
          text: memory,
          tokens: 12,
          parents: [sha],
          sha256: last,
          lines: uniformLines(memory, [sha]),
        });
      });
      out.push({
        type: 'run_end',
        run_id: runId,
        level: o.level,
        chunks_seen: o.steps.length,
        chunks_used: used,
        final_memory_sha: last,
      });
    }
  }
  return out;
}

/** How a catch-up is cut: which project each batch comes from, its size, and what follows it. */
export const scheduleArbitrary = fc.array(
  fc.record({
    second: fc.boolean(),
    size: fc.integer({ min: 1, max: 12 }),
    seal: fc.boolean(),
    reopen: fc.boolean(),
  }),
  { maxLength: 12 },
);
export type Schedule = typeof scheduleArbitrary extends fc.Arbitrary<infer T> ? T : never;
