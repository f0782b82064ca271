import type { Payload } from '@mem/core';
import fc from 'fast-check';
import { chainEvents, type ChainedEvent } from '../../../test/support/events.js';
import {
  chunk,
  evidence,
  gate,
  l1Run,
  l2Run,
  memory,
  reference,
  runEnd,
  sha,
  tombstone,
} from './payloads.js';

/*
 * Random valid extraction logs for property tests: L1 runs for up to three queries (one of
 * them named "index"), L2 runs over existing L1 memories, tombstones of anything written,
 * reference events, and day jumps so `updated` varies. Evidence texts and sources come from
 * small pools, so the same content recurs across runs and queries.
 */

const QUERIES = ['infra-root-causes', 'index', 'open-questions'] as const;
const SOURCES = [
  'pi:2026-07-21T16-23-59_019f857d',
  'claude:0b7f4f9e-session',
  'loop:run/7',
] as const;
const TEXTS = [
  'Kong buffered the body.',
  'pg raced its volume mount.',
  'DNS TTL was 0.',
  'The cache key omitted the tenant.',
  'Retries had no jitter.',
] as const;
const REASONS = ['secret in transcript', 'wrong\nconclusion', 'duplicate'] as const;

type Step =
  | {
      kind: 'l1';
      query: number;
      chunks: Array<{ update: boolean; source: number; text: number }>;
      end: boolean;
    }
  | { kind: 'l2'; chunks: Array<{ update: boolean; pick: number }>; end: boolean }
  | { kind: 'tombstone'; pick: number; reason: number }
  | { kind: 'reference'; n: number }
  | { kind: 'days'; days: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('l1' as const),
      query: fc.nat(2),
      chunks: fc.array(fc.record({ update: fc.boolean(), source: fc.nat(2), text: fc.nat(4) }), {
        maxLength: 5,
      }),
      end: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('l2' as const),
      chunks: fc.array(fc.record({ update: fc.boolean(), pick: fc.nat() }), { maxLength: 3 }),
      end: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('tombstone' as const),
      pick: fc.nat(),
      reason: fc.nat(2),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reference' as const), n: fc.nat(3) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('days' as const),
      days: fc.integer({ min: 1, max: 40 }),
    }),
  },
);

/** Turns steps into chained events, as an extractor continuing from its last memory would write them. */
function build(project: string, steps: readonly Step[]): ChainedEvent[] {
  const out: ChainedEvent[] = [];
  const memories = new Map<string, { text: string; parents: string[] }>();
  const l1Shas: Array<{ sha: string; query: string }> = [];
  const written: string[] = [];
  let synthesis: { text: string; parents: string[] } | null = null;
  let runs = 0;
  let day = Date.parse('2026-08-17T09:00:00.000Z');
  const emit = (payloads: Payload[]): void => {
    if (payloads.length === 0) return;
    const last = out.at(-1);
    const chained = chainEvents(project, payloads, {
      startSeq: out.length + 1,
      ...(last ? { prev: last.hash } : {}),
      startTs: new Date(day + out.length * 1000).toISOString(),
    });
    out.push(...chained);
  };
  for (const step of steps) {
    if (step.kind === 'days') day += step.days * 86_400_000;
    else if (step.kind === 'reference') emit([reference(`Runbook section ${step.n}.`)]);
    else if (step.kind === 'tombstone') {
      // Biased to the last few writes, so the current memory of a note is often the target.
      const target = written[written.length - 1 - (step.pick % Math.min(written.length, 4))];
      if (target) emit([tombstone(target, REASONS[step.reason] ?? 'x')]);
    } else if (step.kind === 'l1') {
      const query = QUERIES[step.query] ?? 'q';
      const run = `r${(runs += 1)}`;
      const payloads: Payload[] = [l1Run(run, query)];
      let used = 0;
      step.chunks.forEach((c, i) => {
        const t = i + 1;
        const source = SOURCES[c.source] ?? 'pi:x';
        payloads.push(chunk(run, t, source), gate(run, t, c.update));
        if (!c.update) return;
        used += 1;
        const text = TEXTS[c.text] ?? 'x';
        const prior = memories.get(query) ?? { text: `# ${query}`, parents: [] };
        const next = {
          text: `${prior.text}\n- ${text}`,
          parents: [...new Set([...prior.parents, sha(text)])],
        };
        memories.set(query, next);
        payloads.push(evidence(run, t, source, text), memory(run, t, next.text, next.parents));
        written.push(sha(text), sha(next.text));
        l1Shas.push({ sha: sha(next.text), query });
      });
      if (step.end)
        payloads.push(
          runEnd(
            run,
            step.chunks.length,
            used,
            memories.has(query) ? sha(memories.get(query)?.text ?? '') : null,
          ),
        );
      emit(payloads);
    } else {
      const run = `s${(runs += 1)}`;
      const payloads: Payload[] = [l2Run(run)];
      let t = 0;
      for (const c of step.chunks) {
        const input = l1Shas[c.pick % Math.max(l1Shas.length, 1)];
        if (!input) continue;
        t += 1;
        payloads.push(
          chunk(run, t, `L1:${input.query}`, 'L1', input.sha),
          gate(run, t, c.update, 'L2'),
        );
        if (!c.update) continue;
        const prior: { text: string; parents: string[] } = synthesis ?? {
          text: 'Project state.',
          parents: [],
        };
        synthesis = {
          text: `${prior.text} Step ${run}/${t}.`,
          parents: [...new Set([...prior.parents, input.sha])],
        };
        payloads.push(memory(run, t, synthesis.text, synthesis.parents, 'L2'));
        written.push(sha(synthesis.text));
      }
      if (step.end) payloads.push(runEnd(run, t, 0, synthesis ? sha(synthesis.text) : null, 'L2'));
      emit(payloads);
    }
  }
  return out;
}

/** A random valid log of `project` (at least one event). */
export function arbitraryLog(project: string): fc.Arbitrary<ChainedEvent[]> {
  return fc
    .array(stepArb, { minLength: 1, maxLength: 12 })
    .map((steps) => build(project, steps))
    .filter((events) => events.length > 0);
}
