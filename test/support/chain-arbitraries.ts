import fc from 'fast-check';
import { contentSha256, type Payload, uniformLines } from '@mem/core';

/*
 * Logs aimed at the memory-chain rules: memory texts come from a pool of three, so two queries
 * write the same memory, a chain returns to an earlier text, evidence repeats across runs, an L2
 * synthesis supersedes another, and tombstones hit heads. projectLogs' memories grow
 * line by line and never repeat, so they never reach these branches.
 */

const L1_TEXTS = [
  '- kong buffer body.',
  '- postgres volume mount.',
  '- probe retry timeout.',
] as const;
const L2_TEXTS = ['Project state: ingress.', 'Project state: storage.'] as const;
const QUERIES = ['infra-root-causes', 'open-questions'] as const;

const chainPlan = fc.record({
  runs: fc.array(
    fc.record({
      query: fc.constantFrom(...QUERIES),
      steps: fc.array(
        fc.record({
          memory: fc.nat({ max: L1_TEXTS.length - 1 }),
          evidence: fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 2 }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  syntheses: fc.array(
    fc.record({
      memory: fc.nat({ max: L2_TEXTS.length - 1 }),
      parents: fc.array(fc.nat(), { minLength: 1, maxLength: 2 }),
    }),
    { maxLength: 2 },
  ),
  tombstones: fc.array(fc.nat(), { maxLength: 3 }),
});

type ChainPlan = typeof chainPlan extends fc.Arbitrary<infer P> ? P : never;

function memory(
  runId: string,
  level: 'L1' | 'L2',
  t: number,
  text: string,
  parents: string[],
): Payload {
  return {
    type: 'memory',
    run_id: runId,
    level,
    t,
    text,
    tokens: text.split(/\s+/).length,
    parents,
    sha256: contentSha256(text),
    lines: uniformLines(text, parents),
  };
}

/** A valid payload sequence: every parent is evidence (L1) or an L1 memory (L2) written before it. */
function payloadsFor(plan: ChainPlan, prefix: string): Payload[] {
  const out: Payload[] = [];
  const evidence = new Set<string>();
  const l1: string[] = [];
  const targets = new Set<string>();
  plan.runs.forEach((run, r) => {
    const runId = `${prefix}-r${r + 1}`;
    out.push({
      type: 'run',
      run_id: runId,
      level: 'L1',
      query_id: run.query,
      input_level: 'chunk',
      model: 'heuristic',
      chunk_tokens: 5000,
      memory_budget: 1024,
      exit_gate: false,
    });
    run.steps.forEach((step, i) => {
      const t = i + 1;
      const texts = [...new Set(step.evidence)].map((k) => `evidence ${k} about kong.`);
      const shas = texts.map((text) => contentSha256(text));
      out.push({
        type: 'chunk',
        run_id: runId,
        level: 'L0',
        t,
        source: 'claude:session-1',
        span: [i, t],
        sha256: shas[0]!,
      });
      out.push({
        type: 'gate',
        run_id: runId,
        level: 'L1',
        t,
        update: true,
        exit: false,
        think: 'evidence',
        latency_ms: 0,
      });
      texts.forEach((text, k) => {
        out.push({
          type: 'evidence',
          run_id: runId,
          level: 'L0',
          t,
          source: 'claude:session-1',
          text,
          sha256: shas[k]!,
        });
        evidence.add(shas[k]!);
        targets.add(shas[k]!);
      });
      const text = L1_TEXTS[step.memory]!;
      out.push(memory(runId, 'L1', t, text, shas));
      l1.push(contentSha256(text));
      targets.add(contentSha256(text));
    });
  });
  plan.syntheses.forEach((synthesis, s) => {
    const runId = `${prefix}-synth${s + 1}`;
    const parents = [...new Set(synthesis.parents.map((pick) => l1[pick % l1.length]!))];
    out.push({
      type: 'run',
      run_id: runId,
      level: 'L2',
      query_id: null,
      input_level: 'L1',
      model: 'heuristic',
      chunk_tokens: 5000,
      memory_budget: 1024,
      exit_gate: true,
    });
    out.push({
      type: 'gate',
      run_id: runId,
      level: 'L2',
      t: 1,
      update: true,
      exit: true,
      think: 'summary',
      latency_ms: 0,
    });
    const text = L2_TEXTS[synthesis.memory]!;
    out.push(memory(runId, 'L2', 1, text, parents));
    targets.add(contentSha256(text));
  });
  const pool = [...targets];
  for (const pick of plan.tombstones)
    out.push({ type: 'tombstone', target: pool[pick % pool.length]!, reason: 'removed in a test' });
  return out;
}

/** Valid logs for one or two projects (`proj-1`, `proj-2`) that reach every memory-chain branch. */
export function memoryChainLogs(): fc.Arbitrary<Record<string, Payload[]>> {
  return fc
    .array(chainPlan, { minLength: 1, maxLength: 2 })
    .map((plans) =>
      Object.fromEntries(
        plans.map((plan, i) => [`proj-${i + 1}`, payloadsFor(plan, `run-p${i + 1}`)]),
      ),
    );
}
