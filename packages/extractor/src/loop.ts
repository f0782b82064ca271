import {
  MemError,
  contentSha256,
  isMemError,
  scrubSecrets,
  splitMemoryLines,
  type FailureSignature,
  type MemoryLineRef,
  type Payload,
} from '@mem/core';
import type { Tokenizer } from '@mem/chunk';
import type { ChunkRecord, Controller } from './controller.js';
import { parseGateAnswer, type GateAnswer } from './protocol.js';
import { symptomOf } from './symptom.js';
import { chunkSignatures, signaturesOfLine } from './line-signatures.js';
import type { LoopLevel } from './prompt.js';

/** Failures remembered per transcript for later chunks' lines (the heuristic carries 16 open). */
const RECENT_FAILURES = 16;

/** One chunk offered to a run: transcript text at L1, one L1 memory at L2. */
export interface LoopStep {
  text: string;
  records: readonly ChunkRecord[];
  /** contentSha256(text): chunk identity. */
  sha256: string;
  /** L1: sha256 of the chunk's text bytes (Chunk.bytesSha256), recorded on its chunk event. */
  bytesSha256?: string;
  source: string;
  span: [number, number] | null;
  /** L2: the query id whose memory this is (labels the folded lines). */
  label?: string;
  /**
   * L2: what each line this step offers rests on, by the memory line it becomes (a synthesis
   * batch folds near-duplicate L1 lines of several notes into one line resting on all their
   * memories). A new line not named here rests on `parents`.
   */
  lineParents?: ReadonlyMap<string, readonly string[]>;
  /** What a new line of this step rests on when `lineParents` does not name it; default [sha256]. */
  parents?: readonly string[];
  /** The chunk repeats a registered derived artifact: recorded, never gated. */
  derived?: boolean;
  /**
   * Never set. A reference passage (level R, @mem/ingest's ReferencePassage) carries `level`;
   * this makes the type refuse one, so reference text cannot be fed to the gate (DESIGN §1).
   */
  level?: never;
}

/** The memory a run continues from. */
export interface PreviousMemory {
  text: string;
  parents: readonly string[];
  /** Each line's own parents, where the store knows them; absent, every line rests on `parents`. */
  lines?: readonly { text: string; parents: readonly string[] }[];
}

export interface RunConfig {
  level: LoopLevel;
  runId: string;
  queryId: string | null;
  question: string;
  controller: Controller;
  tokenizer: Tokenizer;
  memoryBudget: number;
  chunkTokens: number;
  /** Act on the exit gate (L2, or `exit_gate: true`); otherwise it is only recorded. */
  actOnExit: boolean;
  previous?: PreviousMemory | null;
  /** Chunk shas this query has already seen in earlier runs: skipped, never re-gated. */
  seen?: ReadonlySet<string>;
  /**
   * Whether a `forgotten` tombstone refuses a memory line (its exact text or a rewording). A
   * refused line is dropped from every memory the run writes and counted in `run_end`, so
   * re-reading the transcript it came from never brings it back.
   */
  refuses?: (line: string) => boolean;
}

export interface RunSummary {
  runId: string;
  level: LoopLevel;
  queryId: string | null;
  /** False when nothing new was offered: the run wrote nothing. */
  started: boolean;
  chunksSeen: number;
  chunksUsed: number;
  chunksSkipped: number;
  chunksDerived: number;
  memory: { text: string; sha256: string; tokens: number } | null;
  exited: boolean;
  error?: { code: string; message: string };
}

/**
 * The gated recurrent loop (GRU-Mem), one implementation with the level as a parameter.
 * `offer` takes one chunk and returns the events to append for it: closed update gate →
 * chunk + gate, memory unchanged; open → chunk + gate + evidence (L1 runs) + memory whose
 * parents name every sha it rests on. The run event is written lazily, so a run that sees
 * nothing new writes nothing. A controller that keeps failing ends the run with a `run_end`
 * carrying the error; the failed chunk is not recorded, so the next run retries it.
 */
export class GatedRun {
  private readonly config: RunConfig;
  private readonly seen: Set<string>;
  private t = 0;
  private started = false;
  private ended = false;
  private exited = false;
  private chunksSeen = 0;
  private chunksUsed = 0;
  private chunksSkipped = 0;
  private chunksDerived = 0;
  private memory: string;
  private memorySha: string | null;
  /** Content shas of the lines a tombstone made this run drop. */
  private readonly forgottenLines = new Set<string>();
  /** Each current memory line → the shas it rests on (what `parents` is derived from). */
  private lineParents: Map<string, readonly string[]>;
  /**
   * The failing tool results of each transcript's recent chunks. Why: an error → fix line is
   * drawn in the chunk where the rerun passes, which may be chunks after the one that failed;
   * without them the line names no failure and tier 1 of a tool context cannot find it.
   */
  private readonly recentFailures = new Map<string, FailureSignature[]>();
  private stepFailures: { step: LoopStep; list: FailureSignature[] } | undefined;
  private error: { code: string; message: string } | undefined;

  constructor(config: RunConfig) {
    this.config = config;
    this.seen = new Set(config.seen ?? []);
    this.memory = config.previous?.text ?? '';
    this.memorySha = config.previous ? contentSha256(config.previous.text) : null;
    // A memory carried over from an earlier run keeps each line's parents; where they were not
    // recorded (a memory logged before lines were addressable) every line keeps all of them.
    const known = new Map((config.previous?.lines ?? []).map((line) => [line.text, line.parents]));
    this.lineParents = new Map(
      splitMemoryLines(this.memory).map((line) => [
        line,
        known.get(line) ?? config.previous?.parents ?? [],
      ]),
    );
  }

  /** True once the run has ended (exit gate acted on, or an error). Further offers are ignored. */
  get done(): boolean {
    return this.ended;
  }

  async offer(step: LoopStep): Promise<Payload[]> {
    if (this.ended) return [];
    if (this.seen.has(step.sha256)) {
      this.chunksSkipped += 1;
      return [];
    }
    const { level, runId } = this.config;
    const out: Payload[] = [];
    if (!this.started) out.push(this.runEvent());
    this.started = true;
    const t = this.t + 1;
    const chunkLevel = level === 'L1' ? 'L0' : 'L1';
    if (step.derived) {
      this.t = t;
      this.seen.add(step.sha256);
      this.chunksDerived += 1;
      out.push({
        type: 'chunk',
        run_id: runId,
        level: chunkLevel,
        t,
        source: step.source,
        span: step.span,
        sha256: step.sha256,
        ...(step.bytesSha256 !== undefined ? { bytes_sha256: step.bytesSha256 } : {}),
        derived: true,
      });
      return out;
    }

    let answer: GateAnswer;
    let latencyMs: number;
    try {
      ({ answer, latencyMs } = await this.ask(step));
    } catch (error) {
      if (!isMemError(error)) throw error;
      this.error = { code: error.code, message: error.message };
      this.ended = true;
      out.push(this.runEnd());
      return out;
    }
    this.t = t;
    this.seen.add(step.sha256);
    this.chunksSeen += 1;
    out.push({
      type: 'chunk',
      run_id: runId,
      level: chunkLevel,
      t,
      source: step.source,
      span: step.span,
      sha256: step.sha256,
      ...(step.bytesSha256 !== undefined ? { bytes_sha256: step.bytesSha256 } : {}),
    });
    out.push({
      type: 'gate',
      run_id: runId,
      level,
      t,
      update: answer.update,
      exit: answer.exit,
      think: answer.think,
      latency_ms: Math.round(latencyMs * 1000) / 1000,
    });
    let memory: string | null = null;
    if (answer.update) {
      this.chunksUsed += 1;
      if (level === 'L1')
        out.push({
          type: 'evidence',
          run_id: runId,
          level: 'L0',
          t,
          source: step.source,
          text: step.text,
          sha256: step.sha256,
        });
      // A model wrote it: scrubbed before it is hashed, so its sha is of the text the log stores
      // (the log scrubs every payload and checks the sha on what it keeps).
      memory = this.withoutForgotten(scrubSecrets(answer.memory).text);
    }
    if (answer.update && memory !== null) {
      const { parents, lines } = this.attribute(memory, step);
      this.memory = memory;
      this.memorySha = contentSha256(memory);
      const symptom = symptomOf(memory);
      out.push({
        type: 'memory',
        run_id: runId,
        level,
        t,
        text: memory,
        tokens: this.config.tokenizer.count(memory),
        parents,
        sha256: this.memorySha,
        lines,
        ...(symptom !== null ? { symptom } : {}),
      });
    }
    this.rememberFailures(step);
    if (answer.exit && this.config.actOnExit) {
      this.exited = true;
      this.ended = true;
      out.push(this.runEnd());
    }
    return out;
  }

  /**
   * `memory` without the lines a tombstone refuses (each counted once per run), or null when
   * nothing is left: the gate opened, but only on what was deliberately forgotten.
   */
  private withoutForgotten(memory: string): string | null {
    const refuses = this.config.refuses;
    if (!refuses) return memory;
    const kept = memory.split('\n').filter((raw) => {
      const [line] = splitMemoryLines(raw);
      if (line === undefined || !refuses(line)) return true;
      this.forgottenLines.add(contentSha256(line));
      return false;
    });
    return splitMemoryLines(kept.join('\n')).length > 0 ? kept.join('\n').trim() : null;
  }

  /** The closing `run_end`, or nothing when the run never started or already ended. */
  finish(): Payload[] {
    if (!this.started || this.ended) return [];
    this.ended = true;
    return [this.runEnd()];
  }

  summary(): RunSummary {
    const { runId, level, queryId } = this.config;
    return {
      runId,
      level,
      queryId,
      started: this.started,
      chunksSeen: this.chunksSeen,
      chunksUsed: this.chunksUsed,
      chunksSkipped: this.chunksSkipped,
      chunksDerived: this.chunksDerived,
      memory:
        this.memorySha === null
          ? null
          : {
              text: this.memory,
              sha256: this.memorySha,
              tokens: this.config.tokenizer.count(this.memory),
            },
      exited: this.exited,
      ...(this.error ? { error: this.error } : {}),
    };
  }

  /**
   * The parents of a new memory: a line kept from the previous memory keeps the shas it rested
   * on; a new or rewritten line rests on the chunk that brought it. So parents name exactly the
   * evidence the memory's current lines came from, and stay bounded like the memory itself
   * (a union over every chunk ever used would grow with the run, and the log quadratically).
   * Trap: a model that paraphrases an old line attributes it to the current chunk only.
   */
  private attribute(memory: string, step: LoopStep): { parents: string[]; lines: MemoryLineRef[] } {
    const next = new Map<string, readonly string[]>();
    const parents: string[] = [];
    const lines: MemoryLineRef[] = [];
    const seen = new Set<string>();
    // Read lazily: most chunks bring no new line about a failure, and most hold no failing result.
    let failures: FailureSignature[] | undefined;
    for (const line of splitMemoryLines(memory)) {
      const kept = this.lineParents.get(line) ?? next.get(line);
      const from = kept ?? step.lineParents?.get(line) ?? step.parents ?? [step.sha256];
      next.set(line, from);
      // Only a line this chunk brought names the failures it was drawn from: a kept line's
      // were named by the event that drew it, and each is one occurrence of the failure.
      const signatures =
        kept !== undefined ? [] : signaturesOfLine(line, (failures ??= this.failuresFor(step)));
      lines.push({
        sha256: contentSha256(line),
        parents: [...from],
        ...(signatures.length > 0 ? { signatures: signatures.map((s) => ({ ...s })) } : {}),
      });
      for (const parent of from) {
        if (seen.has(parent)) continue;
        seen.add(parent);
        parents.push(parent);
      }
    }
    this.lineParents = next;
    return { parents, lines };
  }

  /**
   * This chunk's failures, then those of its transcript's recent chunks, each once; read once
   * per step (a line's attribution and the step's end both ask).
   */
  private failuresFor(step: LoopStep): FailureSignature[] {
    if (this.stepFailures?.step === step) return this.stepFailures.list;
    const own = chunkSignatures(step.records);
    const seen = new Set(own.map((f) => f.sigSha));
    const earlier = (this.recentFailures.get(step.source) ?? []).filter((f) => !seen.has(f.sigSha));
    const list = [...own, ...earlier];
    this.stepFailures = { step, list };
    return list;
  }

  /** Keeps this chunk's failures for the lines of the next chunks of the same transcript. */
  private rememberFailures(step: LoopStep): void {
    const list = this.failuresFor(step);
    // Newest first, bounded: a long session must not make every line compare with every failure.
    if (list.length > 0) this.recentFailures.set(step.source, list.slice(0, RECENT_FAILURES));
  }

  private async ask(step: LoopStep): Promise<{ answer: GateAnswer; latencyMs: number }> {
    const { controller, level, question, memoryBudget, tokenizer } = this.config;
    let last: MemError | null = null;
    for (let attempt = 1; attempt <= controller.maxAttempts; attempt++) {
      const reply = await controller.answer({
        level,
        question,
        memory: this.memory,
        chunk: {
          text: step.text,
          records: step.records,
          source: step.source,
          ...(step.label !== undefined ? { label: step.label } : {}),
        },
        memoryBudget,
      });
      try {
        const answer = parseGateAnswer(reply.text);
        if (answer.update && controller.strictBudget) {
          const tokens = tokenizer.count(answer.memory);
          if (tokens > memoryBudget) {
            throw new MemError(
              'BUDGET_EXCEEDED',
              `the updated memory has ${tokens} tokens, over the budget of ${memoryBudget}`,
              { tokens, budget: memoryBudget },
            );
          }
        }
        return { answer, latencyMs: reply.latencyMs };
      } catch (error) {
        if (!isMemError(error)) throw error;
        last = error;
      }
    }
    throw new MemError(
      last!.code,
      `${last!.message} (${controller.maxAttempts} attempt${controller.maxAttempts === 1 ? '' : 's'})`,
      { ...last!.details, attempts: controller.maxAttempts },
    );
  }

  private runEvent(): Payload {
    const { runId, level, queryId, controller, chunkTokens, memoryBudget, actOnExit } = this.config;
    return {
      type: 'run',
      run_id: runId,
      level,
      query_id: queryId,
      input_level: level === 'L1' ? 'chunk' : 'L1',
      model: controller.model,
      chunk_tokens: chunkTokens,
      memory_budget: memoryBudget,
      exit_gate: actOnExit,
    };
  }

  private runEnd(): Payload {
    const { runId, level } = this.config;
    return {
      type: 'run_end',
      run_id: runId,
      level,
      chunks_seen: this.chunksSeen,
      chunks_used: this.chunksUsed,
      final_memory_sha: this.memorySha,
      ...(this.error ? { error: this.error } : {}),
      ...(this.forgottenLines.size > 0 ? { lines_forgotten: this.forgottenLines.size } : {}),
    };
  }
}
