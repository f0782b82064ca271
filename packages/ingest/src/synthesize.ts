import type { Tokenizer } from '@mem/chunk';
import { MemError, type Writer } from '@mem/core';
import { extractionLock, type Engine } from '@mem/engine';
import { GatedRun, synthesisPriority, type Controller, type RunSummary } from '@mem/extractor';
import { catchUpEach } from './final-catch-up.js';
import {
  ITEM_STORE_READS,
  currentMemory,
  l2Chain,
  priorState,
  withItemStore,
} from './prior-state.js';
import { newRunId } from './run-id.js';
import { retirements, synthesisSteps, type SynthesisInput } from './synthesis-steps.js';
import type { StandingQueries } from './standing-queries.js';

export interface SynthesizeOptions {
  engine: Engine;
  config: StandingQueries;
  controller: Controller;
  tokenizer: Tokenizer;
  writer?: Writer;
  now?: () => Date;
}

export interface SynthesizeReport extends RunSummary {
  project: string;
  question: string;
  /** L1 memories read (the current memory of each standing query that has one). */
  inputs: number;
  /** Batches of their lines offered, one synthesis step each (synthesisSteps). */
  steps: number;
}

/**
 * `mem synthesize`: the L2 pass — the same gated loop, with the lines of the project's current
 * L1 memories (one per standing query, in the YAML's order), folded and batched by
 * synthesisSteps, as its chunk stream and the synthesis question; the exit gate is acted on
 * when `exit_gate: true`. Batches read by an earlier synthesis are skipped, so an unchanged
 * project writes nothing — unless a line the L2 retired came back into one (returningSha).
 */
export async function synthesize(options: SynthesizeOptions): Promise<SynthesizeReport> {
  const { engine, config } = options;
  if (!config.synthesis) {
    throw new MemError(
      'CONFIG_INVALID',
      `${config.file}: synthesis: missing section; add {question, exit_gate} to run the L2 pass`,
      { file: config.file, path: 'synthesis' },
    );
  }
  return engine.exclusive(extractionLock(config.project), () =>
    synthesizeLocked(options, config.synthesis!),
  );
}

async function synthesizeLocked(
  options: SynthesizeOptions,
  synthesis: NonNullable<StandingQueries['synthesis']>,
): Promise<SynthesizeReport> {
  const { engine, config, controller, tokenizer } = options;
  const project = config.project;
  // Read under the extraction lock, before any run starts: a line forgotten from here on is
  // refused by the append itself (FORGOTTEN), one forgotten before is dropped by the run.
  const tombstones = await engine.tombstones(project);
  const refuses = (line: string) => tombstones.match(line) !== null;
  const { memories, prior, retired } = await engine.readCaughtUp(
    [project],
    () =>
      withItemStore(engine.paths.stateDir, (store) => {
        const memories: SynthesisInput[] = [];
        for (const query of config.queries) {
          const memory = store ? currentMemory(store, project, query.id) : null;
          if (memory)
            memories.push({ queryId: query.id, sha256: memory.sha256, text: memory.text });
        }
        return {
          memories,
          prior: priorState(store, project, null),
          retired: retirements(l2Chain(store, project)),
        };
      }),
    { reads: ITEM_STORE_READS },
  );
  const steps = synthesisSteps(memories, synthesisPriority(synthesis.question), {
    fill: { tokens: config.memoryBudget, count: (text) => tokenizer.count(text) },
    held: prior.previous?.text ?? '',
    seen: prior.seen,
    refuses,
    retired,
  });
  const run = new GatedRun({
    level: 'L2',
    runId: newRunId('synthesis', options.now?.()),
    queryId: null,
    question: synthesis.question,
    controller,
    tokenizer,
    memoryBudget: config.memoryBudget,
    chunkTokens: config.chunkTokens,
    actOnExit: synthesis.exit_gate,
    previous: prior.previous,
    seen: prior.seen,
    refuses,
  });
  const writer = options.writer ?? { kind: 'extractor' };
  for (const step of steps) {
    const events = await run.offer(step);
    if (events.length > 0) await engine.append(project, events, writer, { catchUp: 'later' });
    if (run.done) break;
  }
  const end = run.finish();
  if (end.length > 0) await engine.append(project, end, writer, { catchUp: 'later' });
  await catchUpEach(engine, project);
  return {
    ...run.summary(),
    project,
    question: synthesis.question,
    inputs: memories.length,
    steps: steps.length,
  };
}
