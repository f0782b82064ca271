import { MemError, contentSha256 } from '@mem/core';
import type { Tokenizer } from '@mem/chunk';
import { GatedRun, heuristicController, type Controller, type LoopStep } from '@mem/extractor';
import {
  normalizeAnswer,
  type LocomoConversation,
  type LocomoQuestion,
  type LocomoSession,
} from './locomo.js';
import { locomoSplit, type LocomoSplit } from './locomo-split.js';
import { Confusion, round4 } from './metrics.js';

export interface GateScores {
  update_rate: number;
  precision: number;
  recall: number;
  f1: number;
  answer_containment: number;
}

export interface GateEvalReport {
  /** The conversations run: a half of LoCoMo by conversation id (locomo-split.ts), or all. */
  split: LocomoSplit | 'all';
  conversations: string[];
  questions: number;
  sessions: number;
  memory_budget: number;
  controllers: Record<
    string,
    GateScores & { per_category: Record<string, GateScores & { questions: number }> }
  >;
}

export interface GateEvalOptions {
  tokenizer: Tokenizer;
  memoryBudget?: number;
  /** Extra controllers to evaluate beside the heuristic and its baselines (e.g. an openai one). */
  extra?: Record<string, Controller>;
  /** Only the conversations of this half (default all); `limit` counts within it. */
  split?: LocomoSplit | 'all';
  /**
   * Only these conversations (sample ids) of the split, for a quick run on a slice of it; an id
   * the split does not hold is refused (INVALID_INPUT), never silently run as nothing.
   */
  conversations?: readonly string[];
  /** Run the always-open and random baselines beside the heuristic (default true). */
  baselines?: boolean;
  /** Only the first `limit` questions (for quick runs). */
  limit?: number;
  /** Seed of the random baseline. */
  seed?: number;
  onProgress?: (done: number, total: number, controller: string) => void;
}

interface Case {
  conversation: LocomoConversation;
  question: LocomoQuestion;
}

/**
 * `mem eval gate`: for every LoCoMo question with evidence (categories 1–4), the real gated
 * loop runs over that conversation's sessions in order, one session per chunk, with the
 * question as the standing question. Per controller: update-rate, gate precision / recall / F1
 * against "this session holds an evidence dia_id", and answer containment (the normalised gold
 * answer appears in the final memory) — beside two baselines with the same fold and memory
 * budget: a gate that is always open, and a random gate opening at the heuristic's own rate.
 */
export async function evalGate(
  all: readonly LocomoConversation[],
  options: GateEvalOptions,
): Promise<GateEvalReport> {
  const budget = options.memoryBudget ?? 1024;
  const split = options.split ?? 'all';
  const conversations = slice(locomoSplit(all, split), split, options.conversations);
  let cases: Case[] = conversations.flatMap((conversation) =>
    conversation.questions
      .filter(
        (q) => q.category >= 1 && q.category <= 4 && q.evidence.length > 0 && q.answer !== null,
      )
      .map((question) => ({ conversation, question })),
  );
  if (options.limit !== undefined) cases = cases.slice(0, options.limit);
  const steps = new Map(
    conversations.map((c) => [c.sampleId, c.sessions.map((s) => sessionStep(c, s))]),
  );
  const sessions = cases.reduce((n, c) => n + c.conversation.sessions.length, 0);

  const controllers: GateEvalReport['controllers'] = {};
  const heuristic = await runController(
    'heuristic',
    heuristicController(options.tokenizer),
    cases,
    steps,
    budget,
    options,
  );
  controllers['heuristic'] = heuristic;
  if (options.baselines !== false) {
    controllers['always'] = await runController(
      'always',
      heuristicController(options.tokenizer, { gate: { kind: 'always' } }),
      cases,
      steps,
      budget,
      options,
    );
    controllers['random'] = await runController(
      'random',
      heuristicController(options.tokenizer, {
        gate: { kind: 'random', rate: heuristic.update_rate, seed: options.seed ?? 20260817 },
      }),
      cases,
      steps,
      budget,
      options,
    );
  }
  for (const [name, controller] of Object.entries(options.extra ?? {}))
    controllers[name] = await runController(name, controller, cases, steps, budget, options);
  return {
    split,
    conversations: conversations.map((c) => c.sampleId),
    questions: cases.length,
    sessions,
    memory_budget: budget,
    controllers,
  };
}

/** The split's conversations named in `ids` (all of them when none is named), in the split's order. */
function slice(
  conversations: readonly LocomoConversation[],
  split: LocomoSplit | 'all',
  ids: readonly string[] | undefined,
): LocomoConversation[] {
  if (ids === undefined) return [...conversations];
  const held = new Set(conversations.map((c) => c.sampleId));
  const unknown = ids.filter((id) => !held.has(id));
  if (ids.length === 0 || unknown.length > 0)
    throw new MemError(
      'INVALID_INPUT',
      `LoCoMo conversations: ${ids.length === 0 ? 'none named' : `${unknown.join(', ')} not in the ${split} split`} (it holds ${[...held].join(', ')})`,
      { split, unknown },
    );
  const wanted = new Set(ids);
  return conversations.filter((c) => wanted.has(c.sampleId));
}

/** One session as one chunk: each turn a record `Speaker: words`. */
function sessionStep(
  conversation: LocomoConversation,
  session: LocomoSession,
): LoopStep & { diaIds: Set<string> } {
  const records = session.turns.map((turn) => ({
    role: 'user',
    text: `${turn.speaker}: ${turn.text}`,
  }));
  const header = session.dateTime ? `Session ${session.number} (${session.dateTime})\n\n` : '';
  const text = `${header}${records.map((r) => r.text).join('\n')}`;
  return {
    text,
    records,
    sha256: contentSha256(text),
    source: `locomo:${conversation.sampleId}#S${session.number}`,
    span: [0, session.turns.length],
    diaIds: new Set(session.turns.map((t) => t.diaId)),
  };
}

async function runController(
  name: string,
  controller: Controller,
  cases: readonly Case[],
  steps: ReadonlyMap<string, (LoopStep & { diaIds: Set<string> })[]>,
  budget: number,
  options: GateEvalOptions,
): Promise<GateScores & { per_category: Record<string, GateScores & { questions: number }> }> {
  const overall = new Confusion();
  let contained = 0;
  const categories = new Map<
    number,
    { confusion: Confusion; contained: number; questions: number }
  >();
  for (const [index, { conversation, question }] of cases.entries()) {
    const run = new GatedRun({
      level: 'L1',
      runId: `eval-${index + 1}`,
      queryId: 'locomo',
      question: question.question,
      controller,
      tokenizer: options.tokenizer,
      memoryBudget: budget,
      chunkTokens: 100_000,
      actOnExit: false,
    });
    const category = categories.get(question.category) ?? {
      confusion: new Confusion(),
      contained: 0,
      questions: 0,
    };
    categories.set(question.category, category);
    const evidence = new Set(question.evidence);
    for (const step of steps.get(conversation.sampleId)!) {
      const events = await run.offer(step);
      const gate = events.find((e) => e.type === 'gate');
      // A session the run never judged (it ended on a controller error) counts as not kept:
      // dropping it would flatter a failing controller.
      const kept = gate?.type === 'gate' && gate.update;
      const actual = [...evidence].some((id) => step.diaIds.has(id));
      overall.add(kept, actual);
      category.confusion.add(kept, actual);
    }
    run.finish();
    const memory = normalizeAnswer(run.summary().memory?.text ?? '');
    const answer = normalizeAnswer(question.answer!);
    const hit = answer !== '' && ` ${memory} `.includes(` ${answer} `);
    if (hit) {
      contained += 1;
      category.contained += 1;
    }
    category.questions += 1;
    if ((index + 1) % 50 === 0) options.onProgress?.(index + 1, cases.length, name);
  }
  const scores = (confusion: Confusion, containedCount: number, questions: number): GateScores => ({
    update_rate: round4(confusion.rate),
    precision: round4(confusion.precision),
    recall: round4(confusion.recall),
    f1: round4(confusion.f1),
    answer_containment: round4(questions === 0 ? 0 : containedCount / questions),
  });
  const perCategory: Record<string, GateScores & { questions: number }> = {};
  for (const [cat, entry] of [...categories].sort(([a], [b]) => a - b))
    perCategory[String(cat)] = {
      ...scores(entry.confusion, entry.contained, entry.questions),
      questions: entry.questions,
    };
  return { ...scores(overall, contained, cases.length), per_category: perCategory };
}
